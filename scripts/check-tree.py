#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""HACKING.md's layout tree against the files under tuner/ and include/.

    scripts/check-tree.py [HACKING.md]

The tree is the fenced block under "## Layout" in HACKING.md, the one
copy of the layout. One entry a line: a folder ends with "/", a file is
its name, then its description after two spaces or more; an entry's
children are indented deeper than it, and a line indented as deep as (or
deeper than) the previous entry's description goes on with that
description. No globs: every file is named, so a missing one fails.
Only entries under the top-level tuner/ and include/ folders are
checked; the rest of the tree is free text.

Prints one line per file that git knows under tuner/ or include/
(tracked, or untracked and not ignored) and the tree does not name, and
one per file the tree names that does not exist; exits 1 if there is any
(make check runs it), 0 otherwise.
"""
import os
import re
import subprocess
import sys

CHECKED = ("tuner/", "include/")
ENTRY = re.compile(r"^( *)(\S+)(?: {2,}(\S.*))?$")


def tree_block(text):
    """The lines of the first fenced block after '## Layout', numbered."""
    lines = text.split("\n")
    start = None
    for i, line in enumerate(lines):
        if line.strip() == "## Layout":
            start = i
            break
    if start is None:
        return None
    block = []
    inside = False
    for i in range(start + 1, len(lines)):
        line = lines[i]
        if line.startswith("```"):
            if inside:
                return block
            inside = True
            continue
        if line.startswith("## ") and not inside:
            break
        if inside:
            block.append((i + 1, line))
    return None


def entries(block):
    """(line number, path) of every entry under tuner/ or include/."""
    out = []
    stack = []  # (indent, folder path ending in '/')
    desc_col = None
    for lineno, line in block:
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip(" "))
        if desc_col is not None and indent >= desc_col:
            continue  # a description's next line
        m = ENTRY.match(line)
        if not m:
            desc_col = None
            continue
        name = m.group(2)
        desc_col = m.start(3) if m.group(3) else None
        while stack and stack[-1][0] >= indent:
            stack.pop()
        path = (stack[-1][1] if stack else "") + name
        if name.endswith("/"):
            stack.append((indent, path))
        if path.startswith(CHECKED) and path not in CHECKED:
            out.append((lineno, path))
    return out


def git_files(root):
    res = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", *CHECKED],
        cwd=root, capture_output=True, text=True, check=True)
    return {f for f in res.stdout.split("\n") if f and os.path.exists(os.path.join(root, f))}


def main(argv):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    hacking = argv[1] if len(argv) > 1 else os.path.relpath(os.path.join(root, "HACKING.md"))
    with open(hacking, encoding="utf-8") as f:
        block = tree_block(f.read())
    if block is None:
        print(f"{hacking}: no fenced block under '## Layout'")
        return 1
    named = entries(block)
    files = git_files(root)
    bad = 0
    named_files = set()
    for lineno, path in named:
        full = os.path.join(root, path)
        if path.endswith("/"):
            if not os.path.isdir(full):
                print(f"{hacking}:{lineno}: {path}: named in the layout tree, no such folder")
                bad += 1
            continue
        named_files.add(path)
        if not os.path.isfile(full):
            print(f"{hacking}:{lineno}: {path}: named in the layout tree, no such file")
            bad += 1
    for path in sorted(files - named_files):
        print(f"{hacking}: {path}: not in the layout tree (## Layout)")
        bad += 1
    if bad:
        return 1
    print(f"layout: the tree in {os.path.basename(hacking)} names all {len(files)} files "
          "under tuner/ and include/")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
