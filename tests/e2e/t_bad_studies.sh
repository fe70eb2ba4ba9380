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
