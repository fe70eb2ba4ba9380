# SPDX-License-Identifier: GPL-2.0-or-later
# Every make goal installs what it runs needs, first, or never touches apt.
# The goals are the Makefile's own (its plain-named rules and .PHONY): each
# must be in DEPS_GOALS (installs first) or NO_APT_GOALS (never touches
# apt), so a new goal that is in neither fails here. For each goal, its dry
# run (`make -n GOAL`, with apt-get, apt, dpkg and sudo replaced by
# commands that only record the call: none may be called) is read line by
# line: a DEPS goal runs scripts/install-deps.sh before any compiler or
# script of the repository, and before each line, every installer
# (scripts/install-*deps.sh) that provides what that line uses, followed
# through the repository's files it names (a script, the scripts it calls,
# a study and its commands): Debian's kernel source, qemu-system-arm,
# iperf3, Slurm, distccd, /usr/bin/time... (NEEDS below, each checked
# against its installer's list). A NO_APT goal's dry run runs no installer
# and no apt-get. (make test-cluster once ran its kernel build without the
# kernel source: t_kernel_distcc needs /usr/src/linux-source-6.1.tar.xz.)
# make-deps: deps (the tools it names, in NEEDS, it never runs)
. "$ROOT/tests/e2e/lib.sh"

bin=$TMPDIR/bin
mkdir -p "$bin"
for c in apt-get apt dpkg dpkg-query sudo; do
	printf '#!/bin/sh\necho "%s $*" >>"%s"\nexit 1\n' "$c" "$TMPDIR/apt.log" >"$bin/$c"
	chmod +x "$bin/$c"
done
# The dry runs are make's own, not the job server's of a make running us.
unset MAKEFLAGS MFLAGS MAKELEVEL
PATH=$bin:$PATH python3 - "$ROOT" >"$TMPDIR/out" 2>&1 <<'PY' || fail "$(cat "$TMPDIR/out")"
import glob, os, re, subprocess, sys

root = sys.argv[1]
os.chdir(root)
errors = []
K, C, B = "scripts/install-kernel-deps.sh", "scripts/install-cluster-deps.sh", "scripts/install-deps.sh"
# What a file of the repository uses (a regex over its code, comments
# left out), what brings it, and the installer that installs that (a
# regex that must be in the installer's text, so this table cannot drift).
NEEDS = [
    ("Debian's kernel source", r"/usr/src/linux-source-6\.1", K, r"\blinux-source-6\.1\b"),
    ("the armhf router userspace", r"armhf/\.complete", K, r'touch "\$dir/\.complete"'),
    ("qemu-system-arm", r"\bqemu-system-arm\b", B, r"\bqemu-system-arm\b"),
    ("qemu-system-mipsel", r"\bqemu-system-mipsel\b", B, r"\bqemu-system-mips\b"),
    ("fdtput/fdtget", r"\bfdt(put|get)\b", B, r"\bdevice-tree-compiler\b"),
    # The commands, not the parser or a word in a message.
    ("iperf3", r"(^|[\s\"'(;|&])iperf3\s+-", K, r"\biperf3\b"),
    ("jq", r"(^|[\s\"'(;|&])jq\s+[-'\"]", B, r"\bjq\b"),
    ("ssh-keygen", r"\bssh-keygen\b", K, r"\bopenssh-client\b"),
    ("distccd", r"\bdistccd\b", C, r"\bdistcc\b"),
    ("slurmctld", r"\bslurmctld\b", C, r"\bslurmctld\b"),
    ("slurmd", r"\bslurmd\b", C, r"\bslurmd\b"),
    ("sbatch/squeue", r"\b(sbatch|squeue|scancel)\b", C, r"\bslurm-client\b"),
    ("munge", r"\bmunged?\b", C, r"\bmunge\b"),
    ("/usr/bin/time", r"/usr/bin/time\b", B, r"\btime\b"),
    ("clang", r"(^|[\s=])clang\s", B, r"\bclang\b"),
    ("chromium", r"\bchromium\b", B, r"\bchromium\b"),
    ("cmark-gfm", r"\bcmark-gfm\s", B, r"\bcmark-gfm\b"),
    ("qemu-arm", r"\bqemu-arm\b", B, r"\bqemu-user\b"),
    ("valgrind", r"\bvalgrind\b", B, r"\bvalgrind\b"),
    ("Rscript", r"\bRscript\b", B, r"\br-cran-irace\b"),
    ("optuna", r"\boptuna\b", B, r"\bpython3-optuna\b"),
]
installers = sorted(glob.glob("scripts/install-*deps.sh"))
PATH_RE = re.compile(r"(?<![\w.-])((?:scripts|targets|bench|tests|spaces)/[\w.*/-]*[\w*])")
SIBLING_RE = re.compile(r"/([\w.-]+\.(?:sh|py|R))\b")
TEXT = (".sh", ".py", ".R", ".yaml", ".in")

def code(path):
    """The file's lines but its comments."""
    try:
        lines = open(path, errors="replace").read().splitlines()
    except OSError:
        return ""
    return "\n".join(l for l in lines if not l.lstrip().startswith("#"))

# The table against the installers' code (their package lists).
for what, _, inst, provides in NEEDS:
    if not os.path.isfile(inst):
        errors.append("NEEDS: %s's installer %s does not exist" % (what, inst))
    elif not re.search(provides, code(inst)):
        errors.append("NEEDS: %s does not install %s (no /%s/)" % (inst, what, provides))

def named(text, here=None):
    """The repository's files a text names (globs expanded, and files
    beside `here` named by their base name)."""
    out = []
    for m in PATH_RE.findall(text):
        out += sorted(f for f in glob.glob(m) if os.path.isfile(f))
    if here:
        for m in SIBLING_RE.findall(text):
            f = os.path.join(os.path.dirname(here), m)
            if os.path.isfile(f):
                out.append(f)
    return out

def uses(text):
    return [(what, inst) for what, rx, inst, _ in NEEDS if re.search(rx, text, re.M)]

DECL_RE = re.compile(r"^# make-deps: (deps(?:-[a-z]+)?)\b", re.M)
installs = {}
def installed_by(target):
    """The installers `make -n TARGET` runs."""
    if target not in installs:
        r = subprocess.run(["make", "-n", "--no-print-directory", target], capture_output=True,
                           text=True)
        installs[target] = [i for i in installers if i in r.stdout] if r.returncode == 0 else []
        if r.returncode != 0:
            errors.append("make -n %s (a make-deps: line names it) failed" % target)
    return installs[target]

reach_cache = {}
def needs_of(line):
    """{installer: why} for what a dry-run line uses, through the files it
    names and the files those name. A file that says what it needs
    (a comment line "# make-deps: deps" or deps-kernel, ...: it names tools
    it does not run, or fakes them) needs that, and is not read further;
    nor are the installers, which name what they install."""
    need = {}
    for what, inst in uses(line):
        need.setdefault(inst, what)
    seen, todo = {}, [(f, f) for f in named(line)]
    while todo:
        f, via = todo.pop()
        if f in seen or f in installers:
            continue
        seen[f] = via
        if not f.endswith(TEXT) and not open(f, "rb").read(2) == b"#!":
            continue
        raw = open(f, errors="replace").read()
        decl = DECL_RE.search(raw)
        if decl:
            for inst in installed_by(decl.group(1)):
                need.setdefault(inst, "%s, said by %s" % (decl.group(0)[2:], via))
            continue
        text = reach_cache.setdefault(f, code(f))
        for what, inst in uses(text):
            need.setdefault(inst, "%s (%s)" % (what, via))
        todo += [(g, via + " -> " + g) for g in named(text, f) if g not in seen]
    return need

def make_var(db, name):
    m = re.search(r"^%s :?= ?(.*)$" % re.escape(name), db, re.M)
    return m.group(1).split() if m else []

db = subprocess.run(["make", "-pq", "Makefile"], capture_output=True, text=True).stdout
deps_goals, no_apt = make_var(db, "DEPS_GOALS"), make_var(db, "NO_APT_GOALS")
m = re.search(r"^\.PHONY: (.*)$", db, re.M)
goals = set(m.group(1).split()) if m else set()
goals |= set(re.findall(r"^([a-z][a-z0-9_-]*)\s*:(?!=)", open("Makefile").read(), re.M))
for g in sorted(goals):
    n = (g in deps_goals) + (g in no_apt)
    if n != 1:
        errors.append("make %s: in %s of DEPS_GOALS (installs first) and NO_APT_GOALS (never "
                      "touches apt): must be in one" % (g, "both" if n == 2 else "neither"))
for g in sorted(set(deps_goals + no_apt) - goals):
    errors.append("make %s: listed in DEPS_GOALS or NO_APT_GOALS, but no goal" % g)

def is_installer(line):
    return any(i in line for i in installers)

def is_work(line):
    if is_installer(line):
        return False
    return bool(re.match(r"\s*(cc|gcc|clang)\s", line)) or bool(named(line))

checked = 0
for g in sorted(goals & set(deps_goals + no_apt)):
    r = subprocess.run(["make", "-n", "--no-print-directory", g], capture_output=True, text=True)
    if r.returncode != 0:
        errors.append("make -n %s failed: %s" % (g, r.stderr.strip()[-400:]))
        continue
    lines = r.stdout.splitlines()
    checked += 1
    if g in no_apt:
        for line in lines:
            if is_installer(line) or re.search(r"\bapt(-get)?\s", line):
                errors.append("make %s touches apt (it is in NO_APT_GOALS): %s" % (g, line.strip()))
        continue
    first = {}
    for i, line in enumerate(lines):
        for inst in installers:
            if inst in line:
                first.setdefault(inst, i)
    work = [i for i, line in enumerate(lines) if is_work(line)]
    if B not in first:
        errors.append("make %s: its dry run does not run %s" % (g, B))
    elif work and work[0] < first[B]:
        errors.append("make %s: '%s' before %s" % (g, lines[work[0]].strip()[:80], B))
    missing = {}
    for i in work:
        for inst, why in needs_of(lines[i]).items():
            if first.get(inst, len(lines)) >= i:
                missing.setdefault(inst, (lines[i].strip()[:80], why))
    for inst, (line, why) in sorted(missing.items()):
        errors.append("make %s: '%s' needs %s, and the dry run does not run %s first"
                      % (g, line, why, inst))
for e in errors:
    print(e)
print("%d goals' dry runs checked (%d install first, %d never touch apt), %d problems"
      % (checked, len(deps_goals), len(no_apt), len(errors)))
sys.exit(1 if errors else 0)
PY
cat "$TMPDIR/out"
[ ! -s "$TMPDIR/apt.log" ] || fail "a dry run called apt or sudo: $(cat "$TMPDIR/apt.log")"
