# SPDX-License-Identifier: GPL-2.0-or-later
# spaces/openwrt.yaml, the recipe for real OpenWrt routers: valid, its
# testbeds' env listed by name only, its ${...} secrets reported when
# unset and refused by a run before anything is created; its lifecycle
# scripts are the lab router's (make test-lab runs them); its build
# refuses a tree that is not an OpenWrt buildroot, saying so.
# make-deps: deps (its run is refused before a lab script runs)
. "$ROOT/tests/e2e/lib.sh"

git_test_env
# The study in $w/spaces; its source.repo, ../../openwrt, is $TMPDIR/openwrt.
w=$TMPDIR/w
mkdir -p "$w/spaces" "$TMPDIR/openwrt"
cp "$ROOT/spaces/openwrt.yaml" "$w/spaces/"
ln -s "$ROOT/targets" "$w/targets"
git -C "$TMPDIR/openwrt" init -q -b main
echo 'not an OpenWrt tree' >"$TMPDIR/openwrt/README"
git -C "$TMPDIR/openwrt" add -A && git -C "$TMPDIR/openwrt" commit -q -m stub

unset TUNER_BENCH_KEY TUNER_BENCH_GOOD_IMAGE
"$TUNER" check "$w/spaces/openwrt.yaml" >"$TMPDIR/out" 2>&1 || fail "check: $(cat "$TMPDIR/out")"
cat "$TMPDIR/out"
grep -q "study 'openwrt' is valid" "$TMPDIR/out" || fail "not valid"
grep -q '^testbeds: 2, lab.mode split, lab.order builds' "$TMPDIR/out" || fail "no testbeds line"
grep -q '^  r1: env ROUTER_HOST, ROUTER_NS, ROUTER_KEY, LAN_NS, WAN_NS, WAN_ADDR, ROUTER_POWER, ROUTER_GOOD_IMAGE, IPERF_TIME$' "$TMPDIR/out" ||
	fail "r1's env: $(grep r1 "$TMPDIR/out")"
grep -q "^warning: testbed 'r1' names \${TUNER_BENCH_KEY}, \${TUNER_BENCH_GOOD_IMAGE}, not set here: a run needs them" "$TMPDIR/out" ||
	fail "no unset warning"
grep -q '192.168.1.1' "$TMPDIR/out" && fail "check printed an env value"
# The lifecycle commands are the lab's scripts, and they exist.
for c in deploy ready reboot recover measure; do
	grep -q "targets/lab-router/testbed/$c.sh" "$w/spaces/openwrt.yaml" ||
		fail "$c is not the lab's script"
	[ -x "$ROOT/targets/lab-router/testbed/$c.sh" ] || fail "no targets/lab-router/testbed/$c.sh"
done
# A run needs the secrets: refused before anything is created.
expect_exit 2 "$TMPDIR/out" "$TUNER" run -q --results "$TMPDIR/res" "$w/spaces/openwrt.yaml"
grep -q "openwrt.yaml:[0-9]*:[0-9]*: testbed 'r1' names \${TUNER_BENCH_KEY}, \${TUNER_BENCH_GOOD_IMAGE}, not set in tuner's environment (set them before the run)" "$TMPDIR/out" ||
	fail "run: $(cat "$TMPDIR/out")"
[ ! -e "$TMPDIR/res" ] || fail "run created results"
# The build on a tree that is not OpenWrt's: a clear failure.
expect_exit 1 "$TMPDIR/out" env TUNER_SRC="$TMPDIR/openwrt" TUNER_OUT="$TMPDIR/o" \
	TUNER_CACHE="$TMPDIR/c" TUNER_FLAGS=-O2 "$ROOT/targets/openwrt/build.sh"
grep -q 'is not an OpenWrt buildroot tree' "$TMPDIR/out" || fail "build: $(cat "$TMPDIR/out")"
echo "t_openwrt: ok"
