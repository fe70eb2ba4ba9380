# SPDX-License-Identifier: GPL-2.0-or-later
# Bad study files: each gives one line "tuner: FILE:LINE:COL: message" (or
# "tuner: FILE: message" where there is no location), exit 2, and nothing
# runs: no results directory appears.
. "$ROOT/tests/e2e/lib.sh"

repo=$TMPDIR/repo
make_repo "$repo"
cp "$ROOT"/tests/fixtures/bad/*.yaml "$repo/"
git -C "$repo" add -A && git -C "$repo" commit -q -m bad
cd "$repo"

check_one() { # file expected-location fragment
	local f=$1 loc=$2 frag=$3 cmd out rc
	for cmd in check run; do
		set +e
		if [ $cmd = run ]; then
			out=$("$TUNER" run -q --results "$TMPDIR/r" "$f" 2>&1 >/dev/null)
		else
			out=$("$TUNER" check "$f" 2>&1 >/dev/null)
		fi
		rc=$?
		set -e
		[ $rc -eq 2 ] || fail "$cmd $f: exit $rc, want 2 ($out)"
		[ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] || fail "$cmd $f: not one line: $out"
		case "$out" in
		"tuner: $f:$loc: "*"$frag"*) ;;
		*) fail "$cmd $f: got '$out', want 'tuner: $f:$loc: ...$frag...'" ;;
		esac
		[ ! -e "$TMPDIR/r" ] || fail "$cmd $f: results were created"
	done
	echo "ok: $f -> $out"
}

n=0
for f in *.yaml; do
	expect=$(sed -n '1s/^# expect: //p' "$f")
	[ -n "$expect" ] || fail "$f has no '# expect:' line"
	check_one "$f" "${expect%% *}" "${expect#* }"
	n=$((n + 1))
done
[ $n -ge 11 ] || fail "only $n bad study files"

# Unreadable: a missing file and a directory. No line:col to give.
for f in missing.yaml adir.yaml; do
	[ $f = adir.yaml ] && mkdir -p adir.yaml
	set +e
	out=$("$TUNER" check "$f" 2>&1 >/dev/null)
	rc=$?
	set -e
	[ $rc -eq 2 ] || fail "check $f: exit $rc"
	case "$out" in
	"tuner: $f: cannot "*) echo "ok: $f -> $out" ;;
	*) fail "check $f: got '$out'" ;;
	esac
done

# Options: after the study file as before it; counts that cannot be.
good=$repo/good.yaml
cp "$ROOT/tests/fixtures/good-minimal.yaml" "$good"
git -C "$repo" add good.yaml && git -C "$repo" commit -q -m good
"$TUNER" check "$good" --show 1 >"$TMPDIR/show" 2>&1 || fail "check FILE --show 1: $(cat "$TMPDIR/show")"
[ "$(grep -c '^  [0-9a-f]\{16\}  pgo=' "$TMPDIR/show")" -eq 1 ] || fail "--show 1 after the file: $(cat "$TMPDIR/show")"
# expect_usage MESSAGE ARGS...: exit 2 and MESSAGE on stderr
expect_usage() {
	local want=$1 out rc
	shift
	set +e
	out=$("$TUNER" "$@" 2>&1 >/dev/null)
	rc=$?
	set -e
	[ $rc -eq 2 ] && [ "$out" = "$want" ] || fail "tuner $*: exit $rc, '$out' (want '$want')"
}
expect_usage "tuner: run: --jobs takes a whole number from 1 to 1024, not '0'" run -j 0 "$good"
expect_usage "tuner: run: --budget must be at least 1 (leave it out for the whole space)" run --budget 0 "$good"
expect_usage "tuner: check: --show needs a value" check "$good" --show

# Exit codes follow the kind of error: a runtime error (results that
# cannot be made: a file is in the way) is exit 1; the bad studies above
# are exit 2.
set +e
out=$("$TUNER" run -q --results "$good/res" "$good" 2>&1 >/dev/null)
rc=$?
set -e
[ $rc -eq 1 ] || fail "results under a file: exit $rc, want 1 ($out)"
case "$out" in "tuner: "*"$good/res"*) ;; *) fail "results under a file: '$out'" ;; esac
# A build that cannot be done (its directory cannot be made) stops the run
# with exit 1 and the reason the worker met, not a guess.
mkdir -p "$TMPDIR/r2" && : >"$TMPDIR/r2/builds"
set +e
out=$("$TUNER" run -q -j 2 --results "$TMPDIR/r2" "$good" 2>&1 >/dev/null)
rc=$?
set -e
[ $rc -eq 1 ] || fail "builds/ is a file: exit $rc, want 1 ($out)"
case "$out" in
*"could not be done or recorded: "*"'$TMPDIR/r2/builds/"*"': Not a directory"*) ;;
*) fail "builds/ is a file: '$out'" ;;
esac
echo ok
