#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The dependencies between tuner/'s files, from the built objects.

    scripts/deps.py [--obj build/release/obj] [--layers a,b,...] [--list] [--strict]

A file depends on another when its object file uses a global symbol the
other's object defines (nm: U against T/D/B/R). Each folder of tuner/ is a
layer, in the order LAYERS gives (top first); a dependency "runs back up"
when it goes from a folder to one above it. A circle is a set of files
that reach each other (a strongly connected component of two or more).

A file's #include of a header counts the same way: a header belongs to
the folder of the source it declares (include/tuner/X.h: tuner/*/X.c,
else the folder with the most X_*.c files; tuner/F/X.h: F), and an
include runs back up when that folder is above the including file's.

Prints one line of counts; --list names every dependency that runs back
up and every circle; --strict exits 1 when there is any of either (what
make check runs). Run `make` first: it reads build/<variant>/obj.
--layers gives another order of folders (top first), e.g. for the objects
of an older tree: --layers cli,pipeline,analysis,formats,uarch,sys.
"""
import argparse
import os
import re
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
                rel = "tuner/" + os.path.relpath(path, objdir)[:-2] + ".c"
                if os.path.exists(rel):  # not a stale object of a removed file
                    files[rel] = symbols(path)
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


def header_owner(hdr):
    """The folder a header belongs to, or None."""
    parts = hdr.split("/")
    if parts[0] == "tuner" and len(parts) == 3:
        return parts[1]
    stem = os.path.basename(hdr)[:-2]
    for d in LAYERS:
        if os.path.exists(f"tuner/{d}/{stem}.c"):
            return d
    # else the folder with the most X_*.c files (uarch.h: uarch/, not
    # formats/uarch_score.c)
    best, most = None, 0
    for d in LAYERS:
        if os.path.isdir(f"tuner/{d}"):
            k = sum(1 for n in os.listdir(f"tuner/{d}")
                    if n.startswith(stem + "_") and n.endswith(".c"))
            if k > most:
                best, most = d, k
    return best


INCLUDE = re.compile(r'^#include "([^"]+)"', re.M)


def includes():
    """(file, header) for each #include of a project header in tuner/."""
    out = []
    for root, _, names in os.walk("tuner"):
        for n in sorted(names):
            if not n.endswith((".c", ".h")):
                continue
            f = os.path.join(root, n)
            with open(f, encoding="utf-8", errors="replace") as fh:
                text = fh.read()
            for name in INCLUDE.findall(text):
                for cand in (os.path.join(root, name), "tuner/" + name,
                             "include/" + name):
                    if os.path.exists(cand):
                        out.append((f, os.path.normpath(cand)))
                        break
    return out


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
    ap.add_argument("--layers", help="folders, top first, comma-separated")
    a = ap.parse_args()
    if a.layers:
        LAYERS[:] = a.layers.split(",")
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
    inc_up = []
    for f, h in includes():
        o = header_owner(h)
        if o in LAYERS and folder(f) in LAYERS and \
                LAYERS.index(o) < LAYERS.index(folder(f)):
            inc_up.append((f, h))
    print(f"deps: {len(nodes)} files, {len(edges)} dependencies, "
          f"{len(up)} run back up a folder, {len(circ)} circles "
          f"({inside} dependencies inside them), "
          f"{len(inc_up)} includes of a header of a folder above")
    if a.list:
        for x, y in up:
            print(f"  up: {x} -> {y}")
        for c in circ:
            print("  circle: " + " ".join(c))
        for f, h in inc_up:
            print(f"  include up: {f} -> {h}")
    if a.strict and (up or circ or inc_up):
        sys.exit(1)


if __name__ == "__main__":
    main()
