#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The dependencies between tuner/'s files, from the built objects.

    scripts/deps.py [--obj build/release/obj] [--list] [--strict]

A file depends on another when its object file uses a global symbol the
other's object defines (nm: U against T/D/B/R). Each folder of tuner/ is a
layer, in the order LAYERS gives (top first); a dependency "runs back up"
when it goes from a folder to one above it. A circle is a set of files
that reach each other (a strongly connected component of two or more).

Prints one line of counts; --list names every dependency that runs back
up and every circle; --strict exits 1 when there is any of either (what
make check runs). Run `make` first: it reads build/<variant>/obj.
"""
import argparse
import os
import subprocess
import sys

# Top first. A folder may use the folders below it, never one above.
LAYERS = ["cli", "report", "run", "build", "journal", "study", "search",
          "analysis", "formats", "uarch", "sys"]


def symbols(obj):
    """(defined, undefined) global symbols of one object file."""
    out = subprocess.run(["nm", "-g", obj], capture_output=True, text=True,
                         check=True).stdout
    defined, undef = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] == "U":
            undef.add(parts[1])
        elif len(parts) == 3 and parts[1] in "TDBRCVW":
            defined.add(parts[2])
    return defined, undef


def graph(objdir):
    files = {}
    for root, _, names in os.walk(objdir):
        for n in names:
            if n.endswith(".o"):
                path = os.path.join(root, n)
                rel = os.path.relpath(path, objdir)[:-2] + ".c"
                files["tuner/" + rel] = symbols(path)
    owner = {}
    for f, (defined, _) in files.items():
        for s in defined:
            owner[s] = f
    edges = set()
    for f, (_, undef) in files.items():
        for s in undef:
            g = owner.get(s)
            if g and g != f:
                edges.add((f, g))
    return sorted(files), sorted(edges)


def folder(f):
    return f.split("/")[1]


def layer(f):
    d = folder(f)
    return LAYERS.index(d) if d in LAYERS else -1


def circles(nodes, edges):
    """Strongly connected components of two or more files (Tarjan)."""
    succ = {n: [] for n in nodes}
    for a, b in edges:
        succ[a].append(b)
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in succ[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for n in nodes:
        if n not in index:
            visit(n)
    return sorted(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--obj", default="build/release/obj")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--strict", action="store_true")
    a = ap.parse_args()
    if not os.path.isdir(a.obj):
        sys.exit(f"deps.py: {a.obj}: no such directory (run make first)")
    nodes, edges = graph(a.obj)
    unknown = sorted({folder(f) for f in nodes if layer(f) < 0})
    if unknown:
        sys.exit("deps.py: folders not in LAYERS: " + ", ".join(unknown))
    up = [(x, y) for x, y in edges if layer(y) < layer(x)]
    circ = circles(nodes, edges)
    inside = sum(1 for x, y in edges
                 if any(x in c and y in c for c in circ))
    print(f"deps: {len(nodes)} files, {len(edges)} dependencies, "
          f"{len(up)} run back up a folder, {len(circ)} circles "
          f"({inside} dependencies inside them)")
    if a.list:
        for x, y in up:
            print(f"  up: {x} -> {y}")
        for c in circ:
            print("  circle: " + " ".join(c))
    if a.strict and (up or circ):
        sys.exit(1)


if __name__ == "__main__":
    main()
