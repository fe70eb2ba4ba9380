# SPDX-License-Identifier: GPL-2.0-or-later
# The uarch plugin's front end and per-block counters, and `tuner profile`,
# on a real ARM program under qemu-user: two copies of one 16-byte loop,
# one at the start of a 32-byte line and one straddling two lines. Known
# answers: the straddling loop costs exactly one split fetch group per
# iteration (1000) and the aligned one none; every counter of the report
# is the sum of the blocks' (attribution loses nothing); the profile
# names both functions with their instructions and the cost difference.
. "$ROOT/tests/e2e/lib.sh"

P=$(dirname "$TUNER")/tuner-uarch.so
[ -f "$P" ] || fail "no plugin at $P (make builds it)"
cd "$TMPDIR"
arm-linux-gnueabihf-gcc -nostdlib -static -o lf.arm "$ROOT/tests/fixtures/uarch/loop-fetch-a32.S"
qemu-arm -plugin "$P,preset=bcm47094,out=$TMPDIR/lf,blocks=on" ./lf.arm ||
	fail "qemu-arm with blocks=on failed"
qemu-arm -plugin "$P,preset=cortex-a9,out=$TMPDIR/la" ./lf.arm || fail "qemu-arm (cortex-a9) failed"

# get REPORT NAME: a counter of the counted region
get() {
	awk -v n="$2" '/^region / { on = ($2 == "counted") } on && $1 == n { print $2 }' "$1"
}
grep -q ',maint=on,fetch=16$' lf || fail "lf: not the bcm47094 machine: $(grep config lf)"
[ "$(get lf fetch_split)" = 1000 ] || fail "fetch_split $(get lf fetch_split), expected 1000"
[ "$(get lf insns)" = 8009 ] || fail "insns $(get lf insns), expected 8009"
[ "$(get la fetch_groups)" = 0 ] || fail "cortex-a9 has no front end, yet $(get la fetch_groups) groups"

# 1. The blocks add up to the report, counter by counter.
head -1 lf.blocks | grep -qx 'uarch-blocks 1' || fail "lf.blocks: $(head -2 lf.blocks)"
tail -1 lf.blocks | grep -qx end || fail "lf.blocks has no end"
awk 'NR == 2 { for (i = 2; i <= NF; i++) name[i + 3] = $i; next }
	NR > 2 && $1 != "end" { for (i = 5; i <= NF; i++) sum[name[i]] += $i }
	END { for (n in sum) print n, sum[n] }' lf.blocks | sort >sums.txt
[ "$(wc -l <sums.txt)" -ge 30 ] || fail "too few counters in lf.blocks: $(cat sums.txt)"
while read -r name v; do
	[ "$(get lf "$name")" = "$v" ] || fail "$name: blocks sum to $v, the report says $(get lf "$name")"
done <sums.txt

# 2. The profile: per function, every function.
"$TUNER" profile --preset bcm47094 --elf lf.arm --csv lf.blocks >p1.csv || fail "profile failed"
"$TUNER" profile --preset bcm47094 --set fetch_split=0 --elf lf.arm --csv lf.blocks >p0.csv ||
	fail "profile --set failed"
col() { # FILE FUNCTION COLUMN
	awk -F, -v f="\"$2\"" -v c="$3" '$1 == f { print $c }' "$1"
}
[ "$(col p1.csv straddle 12)" = 1000.0000 ] || fail "straddle: splits $(col p1.csv straddle 12): $(cat p1.csv)"
[ "$(col p1.csv aligned 12)" = 0.0000 ] || fail "aligned: splits $(col p1.csv aligned 12)"
for f in straddle aligned; do
	[ "$(col p1.csv $f 5)" = 4001.000 ] || fail "$f: insns $(col p1.csv $f 5), expected 4001"
done
# The split groups are the whole of the difference they make: 1000 cycles.
d1=$(echo "$(col p1.csv straddle 4) - $(col p1.csv aligned 4)" | bc)
d0=$(echo "$(col p0.csv straddle 4) - $(col p0.csv aligned 4)" | bc)
[ "$(echo "$d1 - $d0" | bc)" = 1000.000 ] || fail "splits cost $d1 - $d0, expected 1000"
# Shares add up to 100% and the total is tuner uarch's (one packet).
awk -F, 'NR > 1 { s += $3 } END { if (s < 99.99 || s > 100.01) exit 1 }' p1.csv ||
	fail "shares do not add up: $(cat p1.csv)"
"$TUNER" profile --preset bcm47094 --elf lf.arm lf.blocks >p.txt || fail "profile (table) failed"
grep -q 'straddle$' p.txt && grep -q 'aligned$' p.txt || fail "the table: $(cat p.txt)"
grep -q '^MODELLED (bcm47094): 3 functions' p.txt || fail "the table's head: $(head -1 p.txt)"
tot=$(awk -F, 'NR > 1 { s += $4 } END { printf "%.1f", s }' p1.csv)
{ echo "packets=1 bytes=1"; cat lf; } >lf.out
u=$("$TUNER" uarch --preset bcm47094 --csv lf.out | awk -F, 'NR == 2 { printf "%.1f", $2 }')
[ "$tot" = "$u" ] || fail "profile total $tot, tuner uarch $u"

# 3. A build directory: model.blocks.N, vmlinux, packets from its log;
#    tuner uarch on its model.report.*.
mkdir -p bd
cp lf.blocks bd/model.blocks.0
cp lf.arm bd/vmlinux
echo "packets=1000 bytes=1514000 wall_seconds=1" >bd/measure-local.log
"$TUNER" profile --preset bcm47094 --csv bd >pd.csv || fail "profile DIR failed"
[ "$(col pd.csv straddle 12)" = 1.0000 ] || fail "per packet: $(cat pd.csv)"
# The measure log is appended to: its last packets line is the run's; a
# testbed's run (model.blocks.TESTBED.RUN) takes measure-TESTBED.log's.
{ echo "packets=7 bytes=1"; echo "packets=100 bytes=151400 wall_seconds=1"; } >bd/measure-gro-on.log
cp lf.blocks bd/model.blocks.gro-on.0
"$TUNER" profile --preset bcm47094 --elf lf.arm --csv bd/model.blocks.gro-on.0 >pg.csv ||
	fail "profile of a testbed's blocks failed"
[ "$(col pg.csv straddle 12)" = 10.0000 ] || fail "testbed's packets: $(cat pg.csv)"
# tuner uarch on the same directory: each model.report.* with the packets
# of its measure log, labelled with the testbed's run.
cp lf bd/model.report.0
cp lf bd/model.report.gro-on.0
"$TUNER" uarch --preset bcm47094 --csv bd >ud.csv || fail "uarch DIR failed: $(cat ud.csv)"
uc() { awk -F, -v r="\"$1\"" '$1 == r { print $20 }' ud.csv; } # fetch_splits per packet
[ "$(uc 'bd run 0')" = 1.000 ] && [ "$(uc 'bd run gro-on.0')" = 10.000 ] ||
	fail "uarch DIR: $(cat ud.csv)"

# 4. Bad input: clear errors, the right exit status.
set +e
"$TUNER" profile --preset bcm47094 lf.blocks 2>e1; r1=$?
head -3 lf.blocks >cut.blocks
"$TUNER" profile --preset bcm47094 --elf lf.arm cut.blocks 2>e2; r2=$?
sed '3s/^0x[0-9a-f]*/zz/' lf.blocks >bad.blocks
"$TUNER" profile --preset bcm47094 --elf lf.arm bad.blocks 2>e3; r3=$?
"$TUNER" profile --preset bcm47094 nowhere 2>e4; r4=$?
"$TUNER" profile --elf lf.arm lf.blocks 2>e5; r5=$?
qemu-arm -plugin "$P,preset=bcm47094,out=$TMPDIR/x,l2c=1e00a000" ./lf.arm 2>e6; r6=$?
qemu-arm -plugin "$P,preset=bcm47094,out=$TMPDIR/x,blocks=maybe" ./lf.arm 2>e7; r7=$?
set -e
[ $r1 = 2 ] && grep -q -- '--elf' e1 || fail "no --elf: exit $r1, $(cat e1)"
[ $r2 = 1 ] && grep -q 'cut.blocks:3: no .end. line' e2 || fail "cut: exit $r2, $(cat e2)"
[ $r3 = 1 ] && grep -q 'bad.blocks:3: ' e3 || fail "bad line: exit $r3, $(cat e3)"
[ $r4 = 1 ] && grep -q "no model.blocks" e4 || fail "no file: exit $r4, $(cat e4)"
[ $r5 = 2 ] && grep -q -- '--study or --preset' e5 || fail "no preset: exit $r5, $(cat e5)"
[ $r6 != 0 ] && grep -q 'l2c= needs system emulation' e6 || fail "l2c= in user mode: exit $r6, $(cat e6)"
[ $r7 != 0 ] && grep -q 'blocks:' e7 || fail "blocks=maybe: exit $r7, $(cat e7)"
echo "ok"
