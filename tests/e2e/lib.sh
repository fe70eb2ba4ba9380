# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers for end-to-end tests (sourced). Each test runs with TUNER, ROOT and
# TMPDIR set by scripts/run-e2e.sh.
set -euo pipefail

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# Git with a fixed identity and no user configuration (HOME in TMPDIR).
git_test_env() {
	export GIT_CONFIG_NOSYSTEM=1 HOME="$TMPDIR/home"
	export GIT_AUTHOR_NAME=tuner GIT_AUTHOR_EMAIL=tuner@example.invalid
	export GIT_COMMITTER_NAME=tuner GIT_COMMITTER_EMAIL=tuner@example.invalid
	mkdir -p "$HOME"
}

# Makes a git repository at $1 holding the fixture program under prog/ and
# commits it (git_test_env).
make_repo() {
	local repo=$1
	git_test_env
	mkdir -p "$repo"
	cp -r "$ROOT/tests/fixtures/prog" "$repo/prog"
	git -C "$repo" init -q -b main
	git -C "$repo" add -A
	git -C "$repo" commit -q -m "fixture"
}

# Makes a git repository at $1 holding targets/natbench (as it is in the
# working tree) under natbench/ (git_test_env), and keeps a make running
# the test from lending the builds its job server.
make_natbench_repo() {
	local repo=$1
	git_test_env
	export MAKEFLAGS='' MFLAGS='' MAKELEVEL=''
	mkdir -p "$repo"
	cp -r "$ROOT/targets/natbench" "$repo/natbench"
	git -C "$repo" init -q -b main
	git -C "$repo" add -A
	git -C "$repo" commit -q -m natbench
}

# check_dma_align PREFIX O2 DMA LABEL: natbench built with -O2
# -DNB_DMA_ALIGN=32 in build directory DMA has v7_dma_inv_range and
# v7_dma_clean_range on 32-byte boundaries, and every fast-path object but
# fp_dma.o has the .text bytes of the -O2 build's in O2 (the seeds'
# ".align 5" and nothing else). PREFIX: binutils' ("" on the host,
# "arm-linux-gnueabihf-" ...). LABEL starts the complaints.
check_dma_align() {
	local cross=$1 o2=$2 dma=$3 label=$4 f a o b
	"${cross}nm" "$dma/natbench" >"$dma.dma-nm"
	for f in v7_dma_inv_range v7_dma_clean_range; do
		a=$(awk -v f=$f '$3 == f { print $1 }' "$dma.dma-nm")
		[ -n "$a" ] || fail "$label: no $f"
		[ $((0x$a % 32)) -eq 0 ] || fail "$label: $f at $a, not 32-aligned"
	done
	for o in "$o2"/fp_*.o; do
		b=$(basename "$o")
		[ "$b" = fp_dma.o ] && continue
		"${cross}objcopy" -O binary -j .text "$o" "$dma.text.a"
		"${cross}objcopy" -O binary -j .text "$dma/$b" "$dma.text.b"
		cmp -s "$dma.text.a" "$dma.text.b" || fail "$label: -DNB_DMA_ALIGN=32 changed $b"
	done
}

# Writes a study over the fixture at $1 (a file inside the repo) with the
# space given as YAML lines on stdin.
write_study() {
	local file=$1 name=$2
	{
		echo "study: $name"
		echo "source: {repo: ., rev: HEAD, path: prog}"
		echo "space:"
		cat
		cat <<'YAML'
build:
  command: make -s -f "$TUNER_SRC/Makefile"
  artifact: prog
  timeout: 300
train:
  command: '"$TUNER_ARTIFACT" 3000 >/dev/null && cp "$TUNER_OUT"/*.gcda "$TUNER_PROFILE_DIR"/'
size: {of: artifact, measure: text}
measure: {command: '"$TUNER_SRC/measure.sh"', parser: number, repeats: 1, timeout: 120}
objectives:
  - {name: instructions, goal: min}
  - {name: size, unit: bytes, goal: min}
YAML
	} >"$file"
}

# Builds targets/noisy (a fake measurement with known truth) into
# $TMPDIR and sets $noisy to it.
make_noisy() {
	make -s -C "$ROOT/targets/noisy" OUT="$TMPDIR" >/dev/null
	noisy=$TMPDIR/noisy
}

# expect_exit CODE OUT CMD...: runs CMD, its stdout and stderr into OUT;
# the test fails unless it exits CODE.
expect_exit() {
	local want=$1 out=$2 rc=0
	shift 2
	"$@" >"$out" 2>&1 || rc=$?
	[ "$rc" -eq "$want" ] || fail "exit $rc, want $want: $* ($(tail -n 5 "$out"))"
}

# try OUT CMD...: runs CMD with its output in OUT, its status in rc
# (set -e stays on around it).
try() {
	local out=$1
	shift
	set +e
	"$@" >"$out" 2>&1
	rc=$?
	set -e
}

# Number of journal records of a type ("build", "measure").
count_records() {
	grep -c "\"type\":\"$2\"" "$1" || true
}

# Pids of the live (not zombie) processes in session $1, other than $1.
live_in_session() {
	ps -e -o pid=,sid=,stat= | awk -v s="$1" '$2 == s && $1 != s && $3 !~ /^Z/ { print $1 }'
}

# session_gone PID WHAT: waits (5 s at most) until nothing of session PID
# lives; else fails, listing what is left after WHAT.
session_gone() {
	local left
	for _ in $(seq 1 50); do
		[ -z "$(live_in_session "$1")" ] && return 0
		sleep 0.1
	done
	left=$(live_in_session "$1")
	ps -o pid,pgid,stat,args -s "$1" >&2 || true
	fail "orphans after $2: $left"
}

# stop_run SIGNAL RESULTS STUDY WAIT...: starts `tuner run -q -j 2 STUDY`
# into RESULTS in a session of its own, runs WAIT... until the run is where
# it should be stopped, sends SIGNAL to tuner alone and waits for it. Sets
# pid (the session's).
stop_run() {
	local sig=$1 res=$2 study=$3
	shift 3
	setsid "$TUNER" run -q -j 2 --results "$res" "$study" >/dev/null 2>&1 &
	pid=$!
	"$@"
	kill "-$sig" "$pid"
	wait "$pid" 2>/dev/null || true
}

# same_results A B: results directories A and B (of names as long: a
# path's length can move a measurement) hold the same builds (flags,
# status, code, size) and the same results.csv up to the objectives'
# spreads (its first 12 columns).
same_results() {
	local f
	for f in "$1" "$2"; do
		python3 - "$f/journal.jsonl" <<'PY' | sort >"$f.builds"
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r["type"] == "build":
        print(r["flags"], r["status"], r["code"], r["size"])
PY
		cut -d, -f1-12 "$f/results.csv" >"$f.csv"
	done
	diff "$1.builds" "$2.builds" >&2 || fail "the builds of $2 differ from those of $1"
	cmp -s "$1.csv" "$2.csv" || fail "results.csv of $2 differs from $1's: $(diff "$1.csv" "$2.csv")"
}

# md_tables_ok FILE: every Markdown table in FILE is well-formed: a header
# row, a separator row of the same number of cells, then rows of that many
# cells ('\|' is not a cell boundary); and there is at least one.
md_tables_ok() {
	python3 - "$1" <<'PY'
import re, sys
lines = open(sys.argv[1]).read().split("\n")
tables, i = 0, 0
def cells(l):
    return len(re.sub(r"\\\|", "", l).split("|")) - 2
while i < len(lines):
    if not lines[i].startswith("|"):
        i += 1
        continue
    block = []
    while i < len(lines) and lines[i].startswith("|"):
        block.append(lines[i]); i += 1
    n = cells(block[0])
    assert len(block) >= 2, "table without a separator: %r" % block
    assert re.fullmatch(r"(\| -{3,} )+\|", block[1]), "bad separator row: %r" % block[1]
    for l in block:
        assert l.endswith("|"), "row without a closing pipe: %r" % l
        assert cells(l) == n, "%d cells, header has %d: %r" % (cells(l), n, l)
    tables += 1
assert tables, "no table"
print("md: %d well-formed tables" % tables)
PY
}
