# SPDX-License-Identifier: GPL-2.0-or-later
# tuner space: the optimisation switches of a real gcc and of a cross gcc
# (arm-linux-gnueabihf-gcc) as a study's space. Pasted into a study, the
# YAML passes `tuner check`, which counts what `space` said; -O2 gives at
# least 2^20 configurations; no switch that changes semantics is there
# without --unsafe, and some are with it; --exclude and --only leave
# switches out; --params adds --param dimensions; --study splices the
# space into a study; CC may be several words; a missing, failing or
# silent compiler is one line and exit 1, a bad level or option exit 2;
# and the compiler takes every value of the space, all at once (on an
# empty file and on real code), with exit 0.
. "$ROOT/tests/e2e/lib.sh"

for tool in gcc arm-linux-gnueabihf-gcc python3; do
	command -v $tool >/dev/null || fail "$tool is missing (scripts/install-deps.sh)"
done
repo=$TMPDIR/repo
make_repo "$repo"
: >"$TMPDIR/empty.c"

# The switches that must not be in a space made without --unsafe (the
# brief's families, docs/space.md), each with or without "no-" and "=...".
semantic_names="associative-math reciprocal-math finite-math-only signed-zeros trapping-math
unsafe-math-optimizations fast-math math-errno rounding-math signaling-nans cx-limited-range
cx-fortran-rules excess-precision fp-contract permitted-flt-eval-methods float-store
strict-aliasing strict-overflow strict-volatile-bitfields ipa-strict-aliasing wrapv
wrapv-pointer trapv delete-null-pointer-checks finite-loops non-call-exceptions exceptions
delete-dead-exceptions unwind-tables asynchronous-unwind-tables short-enums short-wchar
pack-struct reg-struct-return common isolate-erroneous-paths-.* sanitize.* instrument.*
profile.* branch-probabilities vpt auto-profile split-stack stack-protector.* stack-check
stack-clash-protection semantic-interposition plt pic PIC pie PIE omit-frame-pointer harden-.*
trivial-auto-var-init zero-call-used-regs cf-protection check-new lifetime-dse threadsafe-statics
allow-store-data-races inline-atomics sched-spec-load-dangerous toplevel-reorder live-patching"
semantic="^-f(no-)?($(printf '%s' "$semantic_names" | tr -s ' \n' '|'))(=.*)?\$"

# values JSON: every value of the space but "" (and the level), one a line.
values() {
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for dim in d["dimensions"]:
    if dim["kind"] != "level":
        for v in dim["values"][1:]:
            print(v)' "$1"
}

# json_get JSON KEY: a top-level value.
json_get() {
	python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2"
}

# study FILE NAME SPACE_YAML: a study over the fixture with that space
# (comment header and all, as `tuner space` prints it) and a budget.
study() {
	{
		echo "study: $2"
		echo "source: {repo: ., rev: HEAD, path: prog}"
		cat "$3"
		cat <<'YAML'
build: {command: 'make -s -f "$TUNER_SRC/Makefile"', artifact: prog, timeout: 300}
measure: {command: '"$TUNER_SRC/measure.sh"', parser: number, repeats: 1}
objectives:
  - {name: instructions, goal: min}
search: {strategy: random, budget: 5, seed: 1}
YAML
	} >"$1"
}

# space_ok CC NAME ARGS...: `tuner space --gcc CC ARGS` as YAML and as
# JSON, each with exit 0 and one line on stderr; the YAML in a study that
# `tuner check` takes, with the JSON's count of dimensions and
# configurations. Leaves $TMPDIR/NAME.yaml, .json, .err.
space_ok() {
	local cc=$1 name=$2 nd
	shift 2
	expect_exit 0 "$TMPDIR/$name.all" "$TUNER" space --gcc "$cc" "$@"
	"$TUNER" space --gcc "$cc" "$@" >"$TMPDIR/$name.yaml" 2>"$TMPDIR/$name.err"
	"$TUNER" space --gcc "$cc" "$@" --format json >"$TMPDIR/$name.json" 2>/dev/null ||
		fail "$name: --format json failed"
	[ "$(wc -l <"$TMPDIR/$name.err")" -eq 1 ] || fail "$name: stderr: $(cat "$TMPDIR/$name.err")"
	grep -Eq '^tuner: space: [0-9]+ switch dimensions, [0-9]+ param dimensions, .* configurations.*; [0-9]+ options left out$' \
		"$TMPDIR/$name.err" || fail "$name: summary: $(cat "$TMPDIR/$name.err")"
	study "$repo/$name.yaml" "$name" "$TMPDIR/$name.yaml"
	expect_exit 0 "$TMPDIR/$name.check" "$TUNER" check "$repo/$name.yaml"
	nd=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["space"]))' "$TMPDIR/$name.json")
	grep -q "^space: $nd dimensions, $(json_get "$TMPDIR/$name.json" configurations) configurations" \
		"$TMPDIR/$name.check" || fail "$name: check counts otherwise: $(grep '^space' "$TMPDIR/$name.check")"
}

# accepted CC LEVEL JSON: CC takes every value of the space at once, on an
# empty file and on the fixture's code, with exit 0 (gcc checks each
# switch it is given, also one a later one overrides, so all at once
# checks each one).
accepted() {
	local cc=$1 level=$2 json=$3 n
	values "$json" >"$TMPDIR/values"
	n=$(wc -l <"$TMPDIR/values")
	[ "$n" -gt 100 ] || fail "$cc $level: only $n values"
	# shellcheck disable=SC2046
	$cc $level -c "$TMPDIR/empty.c" -o /dev/null $(cat "$TMPDIR/values") 2>"$TMPDIR/cc.err" ||
		fail "$cc $level refuses the values together: $(grep -v warning "$TMPDIR/cc.err" | head -3)"
	# shellcheck disable=SC2046
	$cc $level -c "$repo/prog/flow.c" -o /dev/null $(cat "$TMPDIR/values") 2>"$TMPDIR/cc.err" ||
		fail "$cc $level refuses the values together on flow.c: $(grep -v warning "$TMPDIR/cc.err" | head -3)"
	echo "ok: $cc $level takes all $n values together"
}

for cc in gcc arm-linux-gnueabihf-gcc; do
	n=${cc%%-*}
	# -O2 by default: at least 2^20 configurations, nothing semantic.
	space_ok $cc $n
	grep -q '^  opt: \[-O2\]$' "$TMPDIR/$n.yaml" || fail "$n: no level dimension"
	grep -qF "# compiler: $($cc --version | head -n 1)" "$TMPDIR/$n.yaml" || fail "$n: no compiler line"
	python3 -c 'import json, sys; sys.exit(int(json.load(open(sys.argv[1]))["configurations"]) < 2**20)' \
		"$TMPDIR/$n.json" || fail "$n: fewer than 2^20 configurations"
	values "$TMPDIR/$n.json" >"$TMPDIR/$n.values"
	if grep -E "$semantic" "$TMPDIR/$n.values" >"$TMPDIR/bad"; then
		fail "$n: semantic switches without --unsafe: $(tr '\n' ' ' <"$TMPDIR/bad")"
	fi
	grep -qx -- -fno-tree-ch "$TMPDIR/$n.values" || fail "$n: no -fno-tree-ch"
	grep -q '^# Left out, what the language allows' "$TMPDIR/$n.yaml" || fail "$n: no reasons in the header"
	grep -q -- '-fstrict-aliasing' "$TMPDIR/$n.yaml" || fail "$n: -fstrict-aliasing not named as left out"
	echo "ok: $n -O2: $(cat "$TMPDIR/$n.err")"

	# --unsafe: some of them, and -Ofast.
	space_ok $cc $n-unsafe --unsafe
	values "$TMPDIR/$n-unsafe.json" >"$TMPDIR/$n-unsafe.values"
	for v in -fno-strict-aliasing -ffp-contract=off -fno-omit-frame-pointer -fwrapv; do
		grep -qx -- "$v" "$TMPDIR/$n-unsafe.values" || fail "$n --unsafe: no $v"
	done
	expect_exit 2 "$TMPDIR/out" "$TUNER" space --gcc $cc -Ofast
	grep -q -- '--unsafe' "$TMPDIR/out" || fail "-Ofast without --unsafe: $(cat "$TMPDIR/out")"
	space_ok $cc $n-ofast -Ofast --unsafe
	echo "ok: $n --unsafe: $(cat "$TMPDIR/$n-unsafe.err")"

	# --params, and at -Os.
	space_ok $cc $n-params --params
	[ "$(json_get "$TMPDIR/$n-params.json" param_dimensions)" -ge 100 ] ||
		fail "$n --params: $(cat "$TMPDIR/$n-params.err")"
	grep -Eq '^  param_max_unroll_times: \["", --param=max-unroll-times=[0-9]+, --param=max-unroll-times=[0-9]+\]$' \
		"$TMPDIR/$n-params.yaml" || fail "$n --params: no max-unroll-times"
	echo "ok: $n --params: $(cat "$TMPDIR/$n-params.err")"
	accepted $cc -O2 "$TMPDIR/$n-params.json"
	space_ok $cc $n-os -Os
	grep -q 'align_functions' "$TMPDIR/$n-os.yaml" && fail "$n -Os: -falign-functions, which gcc ignores at -Os"
	"$TUNER" space --gcc $cc -Os --params --format json >"$TMPDIR/$n-os-params.json" 2>/dev/null
	values "$TMPDIR/$n-os-params.json" >"$TMPDIR/values"
	# shellcheck disable=SC2046
	$cc -Os -c "$repo/prog/flow.c" -o /dev/null $(cat "$TMPDIR/values") 2>/dev/null ||
		fail "$cc -Os refuses its values together"
	echo "ok: $n -Os: $(cat "$TMPDIR/$n-os.err")"
done

# --exclude and --only.
space_ok gcc excl --exclude 'tree-*' --exclude '-fgcse*'
values "$TMPDIR/excl.json" >"$TMPDIR/excl.values"
if grep -E '^-f(no-)?(tree-|gcse)' "$TMPDIR/excl.values"; then
	fail "--exclude left these in"
fi
grep -q '^# Left out, --exclude:' "$TMPDIR/excl.yaml" || fail "--exclude: not said"
[ "$(json_get "$TMPDIR/excl.json" switch_dimensions)" -lt "$(json_get "$TMPDIR/gcc.json" switch_dimensions)" ] ||
	fail "--exclude: as many dimensions"
space_ok gcc only --only 'align-*' --only tree-ch
[ "$(json_get "$TMPDIR/only.json" switch_dimensions)" -eq 5 ] || fail "--only: $(cat "$TMPDIR/only.err")"
grep -q '^  tree_ch: \["", -fno-tree-ch\]$' "$TMPDIR/only.yaml" || fail "--only: no tree_ch"
echo "ok: --exclude and --only"

# CC of several words: the same space.
"$TUNER" space --gcc "env LC_ALL=C gcc" 2>/dev/null | sed -n '/^space:/,$p' >"$TMPDIR/env.block"
sed -n '/^space:/,$p' "$TMPDIR/gcc.yaml" | cmp -s - "$TMPDIR/env.block" || fail "'env LC_ALL=C gcc' gives another space"
echo "ok: CC of several words"

# --study: the study printed with its space replaced.
printf 'space:\n  opt: [-O1, -O2]\n  ch: ["", -fno-tree-ch]\n' >"$TMPDIR/small.space"
study "$repo/small.yaml" small "$TMPDIR/small.space"
expect_exit 0 "$TMPDIR/out" "$TUNER" space --gcc gcc --only 'align-*' --study "$repo/small.yaml"
"$TUNER" space --gcc gcc --only 'align-*' --study "$repo/small.yaml" >"$repo/spliced.yaml" 2>/dev/null
grep -q '^  ch:' "$repo/spliced.yaml" && fail "--study: the old space is still there"
grep -q '^study: small$' "$repo/spliced.yaml" || fail "--study: the study's name went"
expect_exit 0 "$TMPDIR/check" "$TUNER" check "$repo/spliced.yaml"
grep -q '^space: 5 dimensions, ' "$TMPDIR/check" || fail "--study: $(grep '^space' "$TMPDIR/check")"
expect_exit 2 "$TMPDIR/out" "$TUNER" space --gcc gcc --study "$TMPDIR/nothing.yaml"
echo "ok: --study"

# Errors: one line each, nothing on stdout.
# err CODE PATTERN ARGS...: exit CODE, one line on stderr matching PATTERN.
err() {
	local code=$1 pattern=$2 rc=0
	shift 2
	"$TUNER" space "$@" >"$TMPDIR/err.out" 2>"$TMPDIR/err.err" || rc=$?
	[ $rc -eq "$code" ] || fail "space $*: exit $rc, want $code: $(cat "$TMPDIR/err.err")"
	[ ! -s "$TMPDIR/err.out" ] || fail "space $*: printed $(head -3 "$TMPDIR/err.out")"
	[ "$(wc -l <"$TMPDIR/err.err")" -eq 1 ] || fail "space $*: $(cat "$TMPDIR/err.err")"
	grep -Eq "$pattern" "$TMPDIR/err.err" || fail "space $*: $(cat "$TMPDIR/err.err")"
	echo "ok: space $*: exit $code: $(cat "$TMPDIR/err.err")"
}
err 1 "^tuner: space: cannot start 'no-such-gcc-12': No such file or directory$" --gcc no-such-gcc-12
err 1 "^tuner: space: cannot start '$TMPDIR/nothing/gcc'" --gcc "$TMPDIR/nothing/gcc"
err 1 "^tuner: space: 'false --version' failed \(exit 1\)" --gcc false
err 1 "^tuner: space: 'gcc -mno-such-option -Q --help=optimizers -O2' failed \(exit 1\): .*no-such-option" \
	--gcc "gcc -mno-such-option"
err 1 "^tuner: space: 'true' printed no listing tuner can read: --help=optimizers: nothing printed$" --gcc true
err 1 "^tuner: space: 'echo' printed no listing tuner can read: --help=optimizers: line 1: not the listing's header" --gcc echo
err 2 "^tuner: space: the level is one of -O0, -O1, -O2, -O3, -Os, -Oz, -Ofast, not '-O7'" --gcc gcc -O7
err 2 "^tuner: space: which compiler\? --gcc CC is required" -O2
err 2 "^tuner: space: --format is yaml or json, not 'xml'" --gcc gcc --format xml
err 2 "^tuner: space: unknown option '--frobnicate'" --gcc gcc --frobnicate
err 2 "^tuner: space: one level, not '-O3' and another" --gcc gcc -O2 -O3
"$TUNER" space --help | grep -q '^usage: tuner space --gcc CC' || fail "no --help"
"$TUNER" help | grep -q "^  space     turn a compiler's optimisation switches into a search space$" ||
	fail "not in tuner help"
echo ok
