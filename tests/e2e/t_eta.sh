# SPDX-License-Identifier: GPL-2.0-or-later
# The ETA covers the measurements: 3 configurations build at once, then
# each is measured twice for 2 s on one testbed (12 s). Once every build
# is done the status line (plain lines on a non-TTY, every 5 s) still
# gives the time the measurements need, not nothing or seconds.
. "$ROOT/tests/e2e/lib.sh"

repo=$TMPDIR/repo
make_repo "$repo"
cat >"$repo/eta.yaml" <<'EOF2'
study: eta
source: {path: prog}
space:
  a: [-DA=1, -DA=2, -DA=3]
build: {command: 'echo "$TUNER_FLAGS" >a', artifact: a}
measure: {command: 'sleep 2; echo 1', repeats: 2}
objectives:
  - {name: speed, goal: max}
EOF2
git -C "$repo" add -A && git -C "$repo" commit -q -m eta
"$TUNER" run -j 2 --results "$TMPDIR/res" "$repo/eta.yaml" >/dev/null 2>"$TMPDIR/err" ||
	fail "run: $(cat "$TMPDIR/err")"
# A line with every build done, a measurement timed and at least 2 left.
line=$(grep '^tuner: builds 3/3 done.*measurements [1-4] done' "$TMPDIR/err" | head -1)
[ -n "$line" ] || fail "no status line between the builds and the end: $(cat "$TMPDIR/err")"
eta=$(echo "$line" | sed -n 's/.*, ETA \([0-9]*\)s$/\1/p')
[ -n "$eta" ] || fail "no ETA once the builds were done: $line"
n=$(echo "$line" | sed -n 's/.*measurements \([0-9]\) done.*/\1/p')
[ "$eta" -ge $(( (6 - n) * 2 - 2 )) ] || fail "ETA ${eta}s with $((6 - n)) measurements of 2 s left: $line"
echo "ok: $line"
