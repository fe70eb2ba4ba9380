# SPDX-License-Identifier: GPL-2.0-or-later
# The uarch plugin's cache maintenance model in system emulation, on a
# real (bare-metal) A32 program under qemu-system-arm -M vexpress-a9: the
# plugin reads each MCR's register and condition through QEMU's own
# functions, and each L2C-310 line operation's physical address from the
# stored register, and the modelled caches do what the ops say. Known
# answers (tests/fixtures/uarch/maint-a32.S says why each is what it is);
# with maint off, the same program's loads all hit and no operation is
# modelled. Then the same for MIPS CACHE operations on
# qemu-system-mipsel -M malta (tests/fixtures/uarch/maint-mips.S).
. "$ROOT/tests/e2e/lib.sh"

P=$(dirname "$TUNER")/tuner-uarch.so
[ -f "$P" ] || fail "no plugin at $P (make builds it)"
command -v qemu-system-arm >/dev/null || fail "no qemu-system-arm (make deps installs it)"
cd "$TMPDIR"
arm-linux-gnueabihf-gcc -nostdlib -static -Wl,-Ttext=0x60010000 -o maint.elf \
	"$ROOT/tests/fixtures/uarch/maint-a32.S"

# run OUT PLUGIN-ARGS: boots the program until the plugin's report is
# written at dbg #2 (the program then spins), at most 60 s.
run() {
	local out=$1 args=$2 pid i
	qemu-system-arm -M vexpress-a9 -m 256M -audiodev none,id=snd0 -display none -monitor none \
		-serial none -kernel maint.elf -plugin "$P,$args,count=60000000-6fffffff,marks=on,out=$TMPDIR/$out" \
		>"$out.log" 2>&1 &
	pid=$!
	for i in $(seq 600); do
		grep -qx end "$out" 2>/dev/null && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	kill "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	grep -qx end "$out" 2>/dev/null || fail "$out: no report ($(tail -3 "$out.log"))"
}
get() {
	awk -v n="$2" '/^region / { on = ($2 == "counted") } on && $1 == n { print $2 }' "$1"
}
expect() {
	[ "$(get "$1" "$2")" = "$3" ] || fail "$1: $2 is '$(get "$1" "$2")', expected $3"
}

run on preset=bcm47094,l2c=1e00a000
for kv in maint_l1=4 maint_l2=1 maint_held=4 maint_wb=1 maint_drop_dirty=0 l1d_read=2 \
	l1d_read_miss=2 l2d_miss=1 l1d_write=0 io_write=1 io_read=0; do
	expect on "${kv%=*}" "${kv#*=}"
done
# Without l2c= the store to the L2C-310 is a device write, nothing more.
run nol2 preset=bcm47094
for kv in maint_l1=4 maint_l2=0 maint_held=3 l1d_read_miss=2 l2d_miss=0 io_write=1; do
	expect nol2 "${kv%=*}" "${kv#*=}"
done
# maint off (the cortex-a9 preset): ordinary instructions.
run off preset=cortex-a9,l2c=1e00a000
for kv in maint_l1=0 maint_l2=0 maint_held=0 l1d_read_miss=0 l2d_miss=0 io_write=1; do
	expect off "${kv%=*}" "${kv#*=}"
done

# MIPS (qemu-system-mipsel -M malta, the 1004k preset with maint=on): the
# plugin decodes CACHE by address and reads its base register through
# QEMU's mips_cpu_gdb_read_register: 4 D-cache operations and 1 on the
# secondary (L2) in the counted window, the I-cache's not modelled, with
# the same known effects as the A32 program's (maint-mips.S).
command -v qemu-system-mipsel >/dev/null || fail "no qemu-system-mipsel (make deps installs it)"
mipsel-linux-gnu-gcc -march=mips32r2 -mno-abicalls -fno-pic -nostdlib -static -e _start \
	-Wl,-Ttext=0x80100000 -Wl,--section-start=.window=0x80200000 -o maint-mips.elf \
	"$ROOT/tests/fixtures/uarch/maint-mips.S"
# run_mips OUT PLUGIN-ARGS: the program until it resets the board (QEMU
# exits with -no-reboot; the plugin writes its report), at most 60 s.
run_mips() {
	timeout 60 qemu-system-mipsel -M malta -m 64M -nic none -vga none -display none -monitor none -serial none \
		-no-reboot -kernel "${elf:-maint-mips.elf}" \
		-plugin "$P,$2,count=80200000-802fffff,out=$TMPDIR/$1" >"$1.log" 2>&1 ||
		fail "qemu-system-mipsel ($2): $(tail -3 "$1.log")"
	grep -qx end "$1" 2>/dev/null || fail "$1: no report ($(tail -3 "$1.log"))"
}
run_mips mips preset=1004k,maint=on
for kv in insns=10 maint_l1=4 maint_l2=1 maint_held=4 maint_wb=1 maint_drop_dirty=0 l1d_read=2 \
	l1d_read_miss=2 l2d_miss=1 undecoded=0; do
	expect mips "${kv%=*}" "${kv#*=}"
done
grep -q 'could not be read' mips.log && fail "mips: addresses not read: $(cat mips.log)"
run_mips mips-off preset=1004k
for kv in insns=10 maint_l1=0 maint_l2=0 maint_held=0 l1d_read_miss=0 l2d_miss=0; do
	expect mips-off "${kv%=*}" "${kv#*=}"
done

# The window marks on MIPS (sll $0,$0,17 and 18, as natgen's for the
# malta kernel): with marks=on the report is the middle of three calls
# (tests/fixtures/uarch/marks-mips.S), written at the dump mark; without,
# all three. The mt7621 preset, as the malta kernel's study uses it.
mipsel-linux-gnu-gcc -march=mips32r2 -mno-abicalls -fno-pic -nostdlib -static -e _start \
	-Wl,-Ttext=0x80100000 -Wl,--section-start=.window=0x80200000 -o marks-mips.elf \
	"$ROOT/tests/fixtures/uarch/marks-mips.S"
elf=marks-mips.elf run_mips marks preset=mt7621,marks=on
expect marks insns 4
elf=marks-mips.elf run_mips nomarks preset=mt7621
expect nomarks insns 12
echo ok
