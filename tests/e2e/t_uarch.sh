# SPDX-License-Identifier: GPL-2.0-or-later
# The uarch QEMU plugin (tuner-uarch.so) on real programs under qemu-user:
# hand-written ARM and MIPS loops give the branch counts they must (exact
# known answers); a program scored twice gives identical counters (ARM,
# MIPS); its caches agree with valgrind's cachegrind on one x86-64 binary
# with the same geometry; ctl= dumps and resets; marks=on resets and
# dumps at the guest's own marks; lines= writes the
# footprint; bad arguments are refused.
. "$ROOT/tests/e2e/lib.sh"

P=$(dirname "$TUNER")/tuner-uarch.so
F=$ROOT/tests/fixtures/uarch
[ -f "$P" ] || fail "no plugin at $P (make builds it)"
cd "$TMPDIR"

# get REPORT NAME: a counter of the counted region
get() {
	awk -v n="$2" '/^region / { on = ($2 == "counted") } on && $1 == n { print $2 }' "$1"
}
# expect REPORT NAME VALUE
expect() {
	local v
	v=$(get "$1" "$2")
	[ "$v" = "$3" ] || fail "$1: $2 is '$v', expected $3"
}

# 1. Known answers. The A32 loop: 1 + 1000 x 5 + 3 instructions; BL, BX lr
# and BNE 1000 times each, BNE taken 999 times. Mispredicts on the A9:
# the BTAC misses BL and BNE once each (predicted not taken); the return
# stack predicts every BX lr; the GHB (gshare, 10 history bits) meets BNE
# under 10 new histories before its history settles, then mispredicts the
# final fall-through: 11. MIPS: 1 + 1000 x 7 + 3 (delay slots included);
# the bimodal counter misses BNEZ's first taken and its last fall-through.
arm-linux-gnueabihf-gcc -nostdlib -static -o loop.arm "$F/loop-a32.S"
mipsel-linux-gnu-gcc -nostdlib -static -mno-abicalls -fno-pic -o loop.mips "$F/loop-mips.S"
qemu-arm -plugin "$P,preset=cortex-a9,out=$TMPDIR/la,lines=on" ./loop.arm ||
	fail "qemu-arm with the plugin failed"
qemu-mipsel -plugin "$P,preset=1004k,out=$TMPDIR/lm" ./loop.mips ||
	fail "qemu-mipsel with the plugin failed"
head -3 la | grep -qx 'arch arm' || fail "la: no 'arch arm'"
grep -qx 'config l1i=32768:4:32:lru,l1d=32768:4:32:lru,l2=262144:8:32:lru,dir=bimodal:512,btb=none,ras=4,indirect=none,writeback=on' lm ||
	fail "lm: not the 1004k machine: $(grep config lm)"
for r in la lm; do
	expect $r branches 3000
	expect $r cond 1000
	expect $r cond_taken 999
	expect $r taken 2999
	expect $r calls 1000
	expect $r returns 1000
	expect $r indirect 0
	expect $r mp_return 0
	expect $r mp_target 0
	expect $r undecoded 0
	expect $r async 0
	expect $r l1d_read 0
done
expect la insns 5004
expect la mp_btb 2
expect la mp_direction 11
expect lm insns 7004
expect lm mp_btb 0
expect lm mp_direction 2
# lines=on: the loop's two 32-byte lines, each run 1000 times at most.
[ "$(grep -vc '^#' la.lines)" = 2 ] || fail "la.lines: $(cat la.lines)"
awk '!/^#/ && $2 != 1000 { exit 1 }' la.lines || fail "la.lines: $(cat la.lines)"

# 2. Determinism: a real program (libc, caches, predictors) scored twice.
sh "$F/gen-xcheck.sh" 24 40 >xcheck.c
arm-linux-gnueabihf-gcc -O2 -marm -mcpu=cortex-a9 -static -o x.arm xcheck.c
mipsel-linux-gnu-gcc -O2 -march=mips32r2 -mno-abicalls -fno-pic -static -o x.mips xcheck.c
for i in 1 2; do
	qemu-arm -plugin "$P,preset=cortex-a9,out=$TMPDIR/xa$i" ./x.arm >/dev/null
	qemu-mipsel -plugin "$P,preset=1004k,out=$TMPDIR/xm$i" ./x.mips >/dev/null
done
cmp xa1 xa2 || fail "ARM: two runs of one binary differ"
cmp xm1 xm2 || fail "MIPS: two runs of one binary differ"
[ "$(get xa1 insns)" -gt 1000000 ] || fail "ARM xcheck ran $(get xa1 insns) instructions"
[ "$(get xa1 mp_direction)" -gt 0 ] || fail "ARM xcheck: no branch was mispredicted"

# 3. Against cachegrind, on the same x86-64 binary with the same geometry
# (the "cachegrind" preset: LRU, no write-backs into the L2): the
# program's own functions (count= their address range; cachegrind's
# counts of xcheck.c). Measured here: every counter within 0.1%.
sh "$F/gen-xcheck.sh" >xcheck.c
gcc -O1 -g -static -o x.x86 xcheck.c
lo=
hi=0
for l in $(nm -S x.x86 | awk '$3 ~ /^[tT]$/ && ($4 ~ /^xc_/ || $4 == "main") { print $1 ":" $2 }'); do
	a=$((0x${l%%:*}))
	e=$((a + 0x${l##*:}))
	if [ -z "$lo" ] || [ "$a" -lt "$lo" ]; then lo=$a; fi
	if [ "$e" -gt "$hi" ]; then hi=$e; fi
done
range=$(printf '%x-%x' "$lo" $((hi - 1)))
valgrind --tool=cachegrind --cache-sim=yes --I1=32768,4,32 --D1=32768,4,32 \
	--LL=524288,8,32 --cachegrind-out-file="$TMPDIR/cg.out" ./x.x86 >/dev/null 2>cg.log ||
	fail "cachegrind failed: $(tail -3 cg.log)"
qemu-x86_64 -plugin "$P,preset=cachegrind,count=$range,out=$TMPDIR/xx" ./x.x86 >/dev/null
awk '/^events:/ { for (i = 2; i <= NF; i++) col[$i] = i - 1 }
	/^fl=/ { on = ($0 ~ /xcheck\.c$/) }
	on && /^[0-9]/ { for (e in col) s[e] += $(col[e] + 1) }
	END { for (e in s) print e, s[e] }' cg.out >cg.sums
cg() { awk -v n="$1" '$1 == n { print $2 }' cg.sums; }
# near NAME CACHEGRIND PLUGIN: within 1%
near() {
	awk -v a="$2" -v b="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a > 0 && d <= 0.01 * a) }' ||
		fail "$1: cachegrind $2, plugin $3 (more than 1% apart)"
	echo "$1: cachegrind $2, plugin $3"
}
near instructions "$(cg Ir)" "$(get xx insns)"
near "D reads" "$(cg Dr)" "$(get xx l1d_read)"
near "I1 misses" "$(cg I1mr)" "$(get xx l1i_miss)"
near "D1 misses" "$(( $(cg D1mr) + $(cg D1mw) ))" "$(( $(get xx l1d_read_miss) + $(get xx l1d_write_miss) ))"
near "LL misses" "$(( $(cg ILmr) + $(cg DLmr) + $(cg DLmw) ))" "$(( $(get xx l2i_miss) + $(get xx l2d_miss) ))"
[ "$(get xx l1i_miss)" -gt 10000 ] || fail "xcheck barely misses the I-cache: the check proves little"

# 4. ctl=: dump while the program waits on stdin, then reset; the exit
# report holds only what ran after.
gcc -O1 -static -o ctl "$F/ctl.c"
mkfifo cfifo ififo
qemu-x86_64 -plugin "$P,preset=cachegrind,ctl=$TMPDIR/cfifo,out=$TMPDIR/cend" ./ctl <ififo >ctl.out &
qpid=$!
exec 7>ififo
sleep 1
printf 'dump %s\nreset\n' "$TMPDIR/cmid" >cfifo
sleep 1
printf 'x' >&7
exec 7>&-
wait $qpid || fail "qemu with ctl= failed"
grep -q 'ctl: done' ctl.out || fail "the ctl program did not finish"
[ -f cmid ] || fail "no report dumped through ctl"
grep -qx end cmid || fail "the dumped report is not whole"
[ "$(get cmid insns)" -gt 3000000 ] || fail "dump: $(get cmid insns) instructions before the pause"
[ "$(get cend insns)" -lt 100000 ] || fail "after reset: $(get cend insns) instructions (not reset?)"
[ "$(get cend insns)" -gt 3000 ] || fail "after reset: $(get cend insns) instructions"

# 4b. marks=on: the guest's own dbg #1 resets and dbg #2 dumps, at exact
# instructions (the kernel router's in-guest generator relies on it); the
# report written at the mark survives QEMU's exit. Without marks=on the
# hints are plain no-ops and the whole program counts.
arm-linux-gnueabihf-gcc -nostdlib -static -o marks.arm "$F/marks-a32.S"
qemu-arm -plugin "$P,preset=cortex-a9,out=$TMPDIR/mk,marks=on" ./marks.arm ||
	fail "qemu-arm with marks=on failed"
expect mk insns 2004
expect mk branches 1002
qemu-arm -plugin "$P,preset=cortex-a9,out=$TMPDIR/mk0" ./marks.arm ||
	fail "qemu-arm without marks failed"
expect mk0 insns 4411

# 5. Bad arguments: refused, with the reason.
bad() {
	if qemu-arm -plugin "$P,$1" ./loop.arm 2>err.txt; then fail "accepted: $1"; fi
	grep -q "$2" err.txt || fail "'$1': $(cat err.txt)"
}
bad "preset=cortex-a15,out=$TMPDIR/o" "unknown preset 'cortex-a15'"
bad "preset=cortex-a9,l1i=1000:4:32,out=$TMPDIR/o" "l1i: size 1000"
bad "preset=cortex-a9,mispredict=9,out=$TMPDIR/o" "penalties are the scorer's"
bad "preset=cortex-a9" "needs out=PATH"
bad "preset=cortex-a9,count=zz,out=$TMPDIR/o" "count: 'zz'"
bad "preset=cortex-a9,ranges=$TMPDIR/none,out=$TMPDIR/o" "none"
bad "bogus=1,out=$TMPDIR/o" "unknown key 'bogus'"
bad "preset=cortex-a9,marks=on,ctl=$TMPDIR/cfifo" "marks=on needs out=PATH"
bad "preset=cortex-a9,marks=yes,out=$TMPDIR/o" "marks: 'yes'"
exit 0
