# SPDX-License-Identifier: GPL-2.0-or-later
# targets/qemu-linux/mk-dtb.sh, the device tree of model.sh's DMA path, on
# a small vexpress-like tree made here (no kernel build): its four
# virtio,mmio nodes are QEMU's own (qemu-system-arm -M
# vexpress-a9,dumpdtb= on the same tree) but for dma-coherent, QEMU adds
# none of its own to the tree it makes, the input is left alone, and what
# it cannot amend it refuses with a clear message. Needs dtc, fdtget and
# fdtput (device-tree-compiler) and qemu-system-arm, which `make
# deps-kernel` installs: without them it says so and passes.
# make-deps: deps (qemu-system-arm and device-tree-compiler are the kernel
# targets' packages: skipped when absent)
. "$ROOT/tests/e2e/lib.sh"

for tool in dtc fdtget fdtput qemu-system-arm; do
	if ! command -v $tool >/dev/null; then
		echo "t_mk_dtb: SKIP: no $tool (make deps-kernel installs it)"
		exit 0
	fi
done
mk=$ROOT/targets/qemu-linux/mk-dtb.sh
d=$TMPDIR

# The parts of vexpress-v2p-ca9.dts that matter here: the root's cells
# and interrupt parent, the A9 GIC (with its phandle), a PL310, a bus
# below the root, memory and chosen.
cat >"$d/in.dts" <<'DTS'
/dts-v1/;
/ {
	model = "V2P-CA9";
	compatible = "arm,vexpress,v2p-ca9", "arm,vexpress";
	interrupt-parent = <&gic>;
	#address-cells = <1>;
	#size-cells = <1>;
	chosen { };
	memory@60000000 {
		device_type = "memory";
		reg = <0x60000000 0x40000000>;
	};
	gic: interrupt-controller@1e001000 {
		compatible = "arm,cortex-a9-gic";
		#interrupt-cells = <3>;
		#address-cells = <0>;
		interrupt-controller;
		reg = <0x1e001000 0x1000>, <0x1e000100 0x100>;
	};
	cache-controller@1e00a000 {
		compatible = "arm,pl310-cache";
		reg = <0x1e00a000 0x1000>;
		cache-unified;
		cache-level = <2>;
	};
	bus@40000000 {
		compatible = "simple-bus";
		#address-cells = <1>;
		#size-cells = <1>;
		ranges;
		uart@10009000 {
			compatible = "arm,pl011", "arm,primecell";
			reg = <0x10009000 0x1000>;
			interrupts = <0 5 4>;
		};
	};
};
DTS
dtc -q -I dts -O dtb -o "$d/in.dtb" "$d/in.dts" || fail "dtc: the test's tree"
cp "$d/in.dtb" "$d/in.orig"
"$mk" "$d/in.dtb" "$d/out.dtb" 2>"$d/err" || fail "mk-dtb.sh: $(cat "$d/err")"
cmp -s "$d/in.dtb" "$d/in.orig" || fail "mk-dtb.sh changed its input"
grep -q '4 virtio,mmio nodes' "$d/err" || fail "mk-dtb.sh said: $(cat "$d/err")"

# The GIC as arm,pl390 alone; nothing else changed but the four nodes.
gic=/interrupt-controller@1e001000
[ "$(fdtget -t s "$d/out.dtb" $gic compatible)" = arm,pl390 ] ||
	fail "GIC compatible: $(fdtget -t s "$d/out.dtb" $gic compatible)"
ph=$(fdtget -t u "$d/in.dtb" $gic phandle)
for i in 0 1 2 3; do
	n=$(printf '/virtio_mmio@%x' $((0x10013000 + 0x200 * i)))
	[ "$(fdtget -t s "$d/out.dtb" "$n" compatible)" = virtio,mmio ] || fail "$n: compatible"
	[ "$(fdtget -t x "$d/out.dtb" "$n" reg)" = "$(printf '%x 200' $((0x10013000 + 0x200 * i)))" ] ||
		fail "$n: reg $(fdtget -t x "$d/out.dtb" "$n" reg)"
	[ "$(fdtget -t u "$d/out.dtb" "$n" interrupt-parent)" = "$ph" ] || fail "$n: interrupt-parent"
	[ "$(fdtget -t u "$d/out.dtb" "$n" interrupts)" = "0 $((40 + i)) 1" ] ||
		fail "$n: interrupts $(fdtget -t u "$d/out.dtb" "$n" interrupts)"
	if fdtget "$d/out.dtb" "$n" dma-coherent >/dev/null 2>&1; then fail "$n is dma-coherent"; fi
done
dts() { dtc -q -I dtb -O dts "$1"; }
# virtio_nodes DTB: its virtio_mmio nodes as dtc writes them, in order.
virtio_nodes() { dts "$1" | awk '/virtio_mmio@/ { p = 1 } p { print } p && /};/ { p = 0 }'; }
diff <(dts "$d/in.dtb" | sed "s/\"arm,cortex-a9-gic\"/\"arm,pl390\"/") \
	<(dts "$d/out.dtb" | awk '/virtio_mmio@/ { p = 1 } !p { print } p && /};/ { p = 0; getline }') \
	>"$d/diff" || fail "mk-dtb.sh changed more than the GIC and the nodes: $(cat "$d/diff")"

# QEMU's own nodes (it dumps the tree it would boot with: -kernel a file
# of any bytes) are mk-dtb.sh's with dma-coherent; given mk-dtb.sh's tree,
# QEMU adds none.
echo x >"$d/kernel"
q() { # IN.dtb DUMP.dtb
	timeout 60 qemu-system-arm -M "vexpress-a9,dumpdtb=$2" -display none -audiodev none,id=snd0 \
		-kernel "$d/kernel" -dtb "$1" </dev/null >"$2.log" 2>&1 || fail "qemu dumpdtb: $(cat "$2.log")"
}
q "$d/in.dtb" "$d/qemu-in.dtb"
virtio_nodes "$d/qemu-in.dtb" >"$d/qemu.nodes"
[ "$(grep -c 'virtio_mmio@' "$d/qemu.nodes")" = 4 ] || fail "QEMU made no 4 nodes: $(cat "$d/qemu.nodes")"
grep -q 'dma-coherent' "$d/qemu.nodes" || fail "QEMU's nodes are not dma-coherent: the premise changed"
diff <(grep -v 'dma-coherent' "$d/qemu.nodes") <(virtio_nodes "$d/out.dtb") >"$d/diff" ||
	fail "mk-dtb.sh's nodes are not QEMU's without dma-coherent: $(cat "$d/diff")"
q "$d/out.dtb" "$d/qemu-out.dtb"
grep -q "couldn't find interrupt controller" "$d/qemu-out.dtb.log" ||
	fail "QEMU found the GIC: $(cat "$d/qemu-out.dtb.log")"
diff <(virtio_nodes "$d/out.dtb") <(virtio_nodes "$d/qemu-out.dtb") >"$d/diff" ||
	fail "QEMU changed mk-dtb.sh's nodes: $(cat "$d/diff")"

# Refusals: a tree with the nodes already (QEMU's dump), one without an A9
# GIC, a GIC without a phandle, a file that is no tree, wrong arguments.
refuse() { # WHAT MESSAGE ARGS...
	local what=$1 msg=$2
	shift 2
	if "$mk" "$@" 2>"$d/err"; then fail "mk-dtb.sh accepted $what"; fi
	grep -qF "$msg" "$d/err" || fail "mk-dtb.sh, $what: $(cat "$d/err")"
}
refuse "QEMU's dump" "/virtio_mmio@10013000 is a virtio,mmio node already" "$d/qemu-in.dtb" "$d/x.dtb"
refuse "its own tree" "is a virtio,mmio node already" "$d/out.dtb" "$d/x.dtb"
sed 's/"arm,cortex-a9-gic"/"arm,gic-400"/' "$d/in.dts" | dtc -q -I dts -O dtb -o "$d/nogic.dtb" -
refuse "no A9 GIC" "no arm,cortex-a9-gic node" "$d/nogic.dtb" "$d/x.dtb"
sed -e 's/interrupt-parent = <&gic>;//' -e 's/gic: interrupt-controller/interrupt-controller/' \
	"$d/in.dts" | dtc -q -I dts -O dtb -o "$d/noph.dtb" -
refuse "a GIC without phandle" "has no phandle" "$d/noph.dtb" "$d/x.dtb"
refuse "a text file" "not a device tree blob" "$d/in.dts" "$d/x.dtb"
refuse "a missing file" "no device tree $d/none" "$d/none" "$d/x.dtb"
refuse "one argument" "usage: mk-dtb.sh IN.dtb OUT.dtb" "$d/in.dtb"
[ ! -e "$d/x.dtb" ] || fail "mk-dtb.sh left an output after refusing"
ls "$d"/x.dtb.tmp.* >/dev/null 2>&1 && fail "mk-dtb.sh left its temporary file"
echo "t_mk_dtb: ok"
