#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Files and functions of tuner/ over the style's limits (docs/style.md).

    scripts/sizes.py [--files N] [--functions N] [--top K] [--strict] [DIR...]

A file counts its lines; a function counts from the first line of its
signature to its closing brace (the style puts both braces of a function
in column 0, the signature on the lines just above the opening one).
Prints one line of counts and the offenders, longest first; --top K also
lists the K longest functions whatever their length; --strict exits 1
when any file or function is over its limit (what make check runs).
"""
import argparse
import os
import re
import sys

SIG_START = re.compile(r"^[A-Za-z_]")


def functions(path):
    """(name, first line, length) of each function defined in path."""
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.read().split("\n")
    out = []
    i = 0
    while i < len(lines):
        if lines[i] == "{":
            # the signature: the lines above, back to one starting in column 0
            j = i - 1
            while j > 0 and not SIG_START.match(lines[j]):
                j -= 1
            sig = " ".join(lines[j:i])
            m = re.search(r"([A-Za-z_][A-Za-z0-9_]*)\s*\(", sig)
            k = i + 1
            while k < len(lines) and lines[k] != "}":
                k += 1
            if m and not sig.lstrip().startswith(("struct", "enum", "union")) \
                    or m and "(" in sig.split("=")[0]:
                out.append((m.group(1), j + 1, k - j + 1))
            i = k
        i += 1
    return out


def sources(dirs):
    for d in dirs:
        for root, _, names in os.walk(d):
            for n in sorted(names):
                if n.endswith((".c", ".h")):
                    yield os.path.join(root, n)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--files", type=int, default=600)
    ap.add_argument("--functions", type=int, default=150)
    ap.add_argument("--top", type=int, default=0)
    ap.add_argument("--strict", action="store_true")
    ap.add_argument("dirs", nargs="*", default=["tuner"])
    a = ap.parse_args()
    big_files, funcs = [], []
    for p in sources(a.dirs):
        with open(p, encoding="utf-8", errors="replace") as f:
            n = f.read().count("\n")
        if n > a.files:
            big_files.append((n, p))
        if p.endswith(".c"):
            funcs += [(ln, p, first, name) for name, first, ln in functions(p)]
    funcs.sort(reverse=True)
    long_funcs = [f for f in funcs if f[0] >= a.functions]
    big_files.sort(reverse=True)
    print(f"sizes: {len(big_files)} files over {a.files} lines, "
          f"{len(long_funcs)} functions of {a.functions} lines or more "
          f"(longest: {funcs[0][3]}, {funcs[0][0]} lines)" if funcs else "")
    for n, p in big_files:
        print(f"  file {p}: {n} lines")
    for ln, p, first, name in long_funcs:
        print(f"  function {p}:{first} {name}(): {ln} lines")
    for ln, p, first, name in funcs[:a.top]:
        print(f"  top {p}:{first} {name}(): {ln} lines")
    if a.strict and (big_files or long_funcs):
        sys.exit(1)


if __name__ == "__main__":
    main()
