# SPDX-License-Identifier: GPL-2.0-or-later
# The qemu-linux target's cheap parts (no kernel build, no QEMU; `make
# test-kernel` runs the real thing): every script parses, the router config
# fragment has what the router needs, the study file is valid over a git
# repository (and the model's), natgen builds, build.sh, measure.sh and
# model.sh refuse what they cannot do with a
# clear message, and applied.sh picks the cross compiler's C command lines
# out of Kbuild's .cmd files.
# make-deps: deps (it parses the kernel scripts; what it runs of them
# refuses before it needs the kernel's packages)
. "$ROOT/tests/e2e/lib.sh"

t=$ROOT/targets/qemu-linux
for f in "$t"/*.sh "$ROOT/scripts/install-kernel-deps.sh"; do
	bash -n "$f" || fail "$f does not parse"
done
# /init runs under busybox sh: POSIX sh is the bar.
if command -v dash >/dev/null; then
	dash -n "$t/router-init.sh" || fail "router-init.sh is not POSIX sh"
fi

# The router's options, and each board's (build.sh merges board-B.config
# with router.config).
for opt in CONFIG_BLK_DEV_INITRD CONFIG_DEVTMPFS CONFIG_COMPAT_32BIT_TIME CONFIG_POSIX_TIMERS \
	CONFIG_FILE_LOCKING CONFIG_VIRTIO_NET CONFIG_NETFILTER \
	CONFIG_NF_CONNTRACK CONFIG_NF_NAT CONFIG_NF_TABLES CONFIG_NFT_MASQ CONFIG_NET_SCHED; do
	grep -qx "$opt=y" "$t/router.config" || fail "router.config lacks $opt=y"
done
for opt in vexpress:CONFIG_MMU vexpress:CONFIG_ARCH_VEXPRESS vexpress:CONFIG_SERIAL_AMBA_PL011_CONSOLE \
	vexpress:CONFIG_VIRTIO_MMIO malta:CONFIG_MIPS_MALTA malta:CONFIG_CPU_MIPS32_R2 \
	malta:CONFIG_CPU_LITTLE_ENDIAN malta:CONFIG_SERIAL_8250_CONSOLE malta:CONFIG_PCI \
	malta:CONFIG_VIRTIO_PCI malta:CONFIG_MIPS_FP_SUPPORT; do
	grep -qx "${opt#*:}=y" "$t/board-${opt%%:*}.config" || fail "board-${opt%%:*}.config lacks ${opt#*:}=y"
done
if grep -q '^CONFIG_CC_OPTIMIZE' "$t/router.config" "$t"/board-*.config; then
	fail "a config fragment sets the optimisation level (build.sh picks it from the flags)"
fi
if TUNER_SRC=$TMPDIR TUNER_OUT=$TMPDIR/o "$t/build.sh" sparc 2>"$TMPDIR/err"; then
	fail "build.sh built for board sparc"
fi
grep -q "unknown board 'sparc' (vexpress or malta)" "$TMPDIR/err" || fail "build.sh sparc: $(cat "$TMPDIR/err")"
# malta-caches.patch (prepare-source.sh's branch tuner-malta) is a patch of
# c-r4k.c, sc-mips.c and malta-time.c alone.
git apply --numstat "$t/malta-caches.patch" >"$TMPDIR/numstat" || fail "malta-caches.patch is not a patch"
[ "$(cut -f3 "$TMPDIR/numstat" | tr "\n" " ")" = "arch/mips/mm/c-r4k.c arch/mips/mm/sc-mips.c arch/mips/mti-malta/malta-time.c " ] || fail "malta-caches.patch: $(cat "$TMPDIR/numstat")"

# The study over a repository of our own (its real source is made by
# prepare-source.sh, which this test does not run).
repo=$TMPDIR/repo
make_repo "$repo"
# in_repo STUDY: spaces/STUDY over that repository, on stdout. (Its inputs
# and commands are named relative to spaces/: here, from the checkout.)
in_repo() {
	sed -e 's|^source: .*|source: {repo: ., rev: HEAD}|' \
		-e "s|\\\$TUNER_STUDY_DIR/\.\./targets/|$ROOT/targets/|g" -e "s|\.\./targets/|$ROOT/targets/|g" \
		"$ROOT/spaces/$1"
}
in_repo qemu-linux.yaml >"$repo/k.yaml"
out=$("$TUNER" check "$repo/k.yaml") || fail "tuner check: $out"
echo "$out" | grep -q '2 configurations' || fail "expected -O2 and -Os: $out"
echo "$out" | grep -q -- ' -Os$' || fail "no -Os configuration: $out"
# Kernel PGO is one line away: the study has its train command.
sed -i 's|^  # pgo:     \[off, on\]|  pgo: [off, on]|' "$repo/k.yaml"
out=$("$TUNER" check "$repo/k.yaml") || fail "tuner check with pgo: $out"
echo "$out" | grep -q '4 configurations' || fail "expected 4 configurations with pgo: $out"
echo "$out" | grep -q 'pgo=on   -O2$' || fail "no PGO -O2 configuration: $out"

export TUNER_KERNEL_WORK=$TMPDIR/work
# PGO: only off, generate and use; use needs a profile tree with .gcda.
mkdir -p "$TMPDIR/noprof"
for args in "TUNER_PGO=sometimes:bad TUNER_PGO 'sometimes'" \
	"TUNER_PGO=use:TUNER_PGO=use needs TUNER_PROFILE_DIR" \
	"TUNER_PGO=use TUNER_PROFILE_DIR=$TMPDIR/noprof:no .gcda under $TMPDIR/noprof"; do
	# shellcheck disable=SC2086
	if env TUNER_SRC=$TMPDIR TUNER_OUT=$TMPDIR/o ${args%%:*} "$t/build.sh" 2>"$TMPDIR/err"; then
		fail "build.sh accepted ${args%%:*}"
	fi
	grep -qF "${args#*:}" "$TMPDIR/err" || fail "build.sh ${args%%:*}: $(cat "$TMPDIR/err")"
done
if "$t/pgo-effect.sh" "$TMPDIR" 2>"$TMPDIR/err"; then
	fail "pgo-effect.sh accepted a directory that is no build"
fi
grep -q "no $TMPDIR/net/core/.dev.o.cmd" "$TMPDIR/err" || fail "pgo-effect.sh: $(cat "$TMPDIR/err")"
if TUNER_ARTIFACT=$TMPDIR/none TUNER_OUT=$TMPDIR/o "$t/train.sh" 2>"$TMPDIR/err"; then
	fail "train.sh ran without TUNER_PROFILE_DIR"
fi
grep -q 'TUNER_PROFILE_DIR not set' "$TMPDIR/err" || fail "train.sh: $(cat "$TMPDIR/err")"
if TUNER_ARTIFACT=$TMPDIR/none TUNER_OUT=$TMPDIR/o TUNER_PROFILE_DIR=$TMPDIR/p "$t/train.sh" 2>"$TMPDIR/err"; then
	fail "train.sh trained a missing kernel"
fi
grep -q "no kernel image $TMPDIR/none" "$TMPDIR/err" || fail "train.sh: $(cat "$TMPDIR/err")"
if TUNER_SRC=$TMPDIR TUNER_OUT=$TMPDIR/o TUNER_LAYOUT_SEED=x "$t/build.sh" 2>"$TMPDIR/err"; then
	fail "build.sh accepted layout seed x"
fi
grep -q "bad TUNER_LAYOUT_SEED 'x'" "$TMPDIR/err" || fail "build.sh seed: $(cat "$TMPDIR/err")"
if TUNER_ARTIFACT=$TMPDIR/none "$t/measure.sh" >"$TMPDIR/out" 2>"$TMPDIR/err"; then
	fail "measure.sh measured a missing kernel"
fi
grep -q "no kernel image $TMPDIR/none" "$TMPDIR/err" || fail "measure.sh: $(cat "$TMPDIR/err")"
[ ! -s "$TMPDIR/out" ] || fail "measure.sh printed on stdout without a measurement"

# The model (model.sh, natgen.c): the study is valid, the generator builds
# as mk-initramfs.sh builds it (A32, so that its two marks are the A32
# hints the plugin looks for) and refuses bad arguments, model.sh refuses
# what it cannot run and options it does not know (mk-dtb.sh, its DMA
# path's device tree: t_mk_dtb.sh).
in_repo qemu-linux-model.yaml >"$repo/km.yaml"
out=$("$TUNER" check "$repo/km.yaml") || fail "tuner check (model study): $out"
echo "$out" | grep -q '4 configurations' || fail "model study: $out"
in_repo qemu-linux-mt7621.yaml >"$repo/kmips.yaml"
out=$("$TUNER" check "$repo/kmips.yaml") || fail "tuner check (mt7621 study): $out"
echo "$out" | grep -q '4 configurations' || fail "mt7621 study: $out"
"$t/mk-initramfs.sh" --natgen "$TMPDIR/natgen" || fail "natgen.c does not build"
marks=$(arm-linux-gnueabihf-objdump -d "$TMPDIR/natgen" | grep -cE '\se320f0f[12]\s' || true)
[ "$marks" = 2 ] || fail "natgen holds $marks mark instructions, not 2"
# For malta: MIPS32, its marks the two shifts to $0 the plugin looks for.
"$t/mk-initramfs.sh" --arch mipsel --natgen "$TMPDIR/natgen-mips" || fail "natgen.c does not build for mipsel"
marks=$(mipsel-linux-gnu-objdump -d "$TMPDIR/natgen-mips" | grep -cE '\s0000(0440|0480)\s+sll\s+zero,zero,0x1[12]$' || true)
[ "$marks" = 2 ] || fail "natgen (mipsel) holds $marks mark instructions, not 2"
if "$t/mk-initramfs.sh" --arch sparc 2>"$TMPDIR/err"; then fail "mk-initramfs.sh took --arch sparc"; fi
grep -q "'sparc': armhf or mipsel" "$TMPDIR/err" || fail "mk-initramfs.sh: $(cat "$TMPDIR/err")"
if qemu-arm "$TMPDIR/natgen" lo lo 2>"$TMPDIR/err"; then fail "natgen ran without its arguments"; fi
grep -q 'usage: natgen' "$TMPDIR/err" || fail "natgen: $(cat "$TMPDIR/err")"
if qemu-arm "$TMPDIR/natgen" l w s k 1 1 1 sometimes 2>"$TMPDIR/err"; then fail "natgen took mode 'sometimes'"; fi
grep -q 'usage: natgen' "$TMPDIR/err" || fail "natgen: $(cat "$TMPDIR/err")"
if TUNER_ARTIFACT=$TMPDIR/none TUNER_UARCH=preset=cortex-a9 TUNER_UARCH_PLUGIN=$TMPDIR/none \
	"$t/model.sh" >"$TMPDIR/out" 2>"$TMPDIR/err"; then
	fail "model.sh measured a missing kernel"
fi
grep -q "no kernel image $TMPDIR/none" "$TMPDIR/err" || fail "model.sh: $(cat "$TMPDIR/err")"
[ ! -s "$TMPDIR/out" ] || fail "model.sh printed on stdout without a measurement"
if TUNER_ARTIFACT=$TMPDIR/none "$t/model.sh" 2>"$TMPDIR/err"; then fail "model.sh ran without TUNER_UARCH"; fi
grep -q "TUNER_UARCH not set" "$TMPDIR/err" || fail "model.sh: $(cat "$TMPDIR/err")"
mkdir -p "$TMPDIR/zi/dts"
: >"$TMPDIR/zi/zImage"
: >"$TMPDIR/zi/dts/vexpress-v2p-ca9.dtb"
if TUNER_ARTIFACT=$TMPDIR/zi/zImage TUNER_UARCH=preset=cortex-a9 TUNER_UARCH_PLUGIN=$(dirname "$TUNER")/tuner-uarch.so \
	TUNER_KERNEL_MODEL_ROUNDS=lots "$t/model.sh" 2>"$TMPDIR/err"; then
	fail "model.sh accepted ROUNDS=lots"
fi
grep -q "'lots' is not a whole number" "$TMPDIR/err" || fail "model.sh: $(cat "$TMPDIR/err")"
if TUNER_ARTIFACT=$TMPDIR/zi/zImage TUNER_UARCH=preset=mt7621 TUNER_UARCH_PLUGIN=$TMPDIR/none \
	"$t/model.sh" sparc 2>"$TMPDIR/err"; then
	fail "model.sh ran board sparc"
fi
grep -q "unknown board 'sparc'" "$TMPDIR/err" || fail "model.sh sparc: $(cat "$TMPDIR/err")"
# The path, GRO and plugin options: one of their values, or refused.
for args in "TUNER_KERNEL_MODEL_PATH=pci:TUNER_KERNEL_MODEL_PATH is 'pci': dma or virtio" \
	"TUNER_KERNEL_MODEL_GRO=yes:TUNER_KERNEL_MODEL_GRO is 'yes': on or off" \
	"TUNER_KERNEL_MODEL_L2C=1e00a000:TUNER_KERNEL_MODEL_L2C is '1e00a000': an address" \
	"TUNER_KERNEL_MODEL_L2C=0x1e00a00g:TUNER_KERNEL_MODEL_L2C is '0x1e00a00g': an address" \
	"TUNER_KERNEL_MODEL_BLOCKS=yes:TUNER_KERNEL_MODEL_BLOCKS is 'yes': 0 or 1"; do
	if env TUNER_ARTIFACT="$TMPDIR/zi/zImage" TUNER_UARCH=preset=cortex-a9 \
		TUNER_UARCH_PLUGIN="$(dirname "$TUNER")/tuner-uarch.so" "${args%%:*}" \
		"$t/model.sh" >"$TMPDIR/out" 2>"$TMPDIR/err"; then
		fail "model.sh accepted ${args%%:*}"
	fi
	grep -qF "${args#*:}" "$TMPDIR/err" || fail "model.sh ${args%%:*}: $(cat "$TMPDIR/err")"
done

# applied.sh: the kernel's C compilations only.
o=$TMPDIR/kout
mkdir -p "$o/init" "$o/arch/arm/kernel" "$o/scripts/basic"
echo 'cmd_init/main.o := ccache arm-linux-gnueabihf-gcc -Wp,-MMD,init/.main.o.d -Os -fno-tree-ch -c -o init/main.o /k/init/main.c  ' >"$o/init/.main.o.cmd"
echo 'source_init/main.o := /k/init/main.c' >>"$o/init/.main.o.cmd"
echo 'cmd_arch/arm/kernel/entry.o := arm-linux-gnueabihf-gcc -D__ASSEMBLY__ -c -o arch/arm/kernel/entry.o /k/arch/arm/kernel/entry.S' >"$o/arch/arm/kernel/.entry.o.cmd"
echo 'cmd_scripts/basic/fixdep.o := gcc -O2 -c -o scripts/basic/fixdep.o /k/scripts/basic/fixdep.c' >"$o/scripts/basic/.fixdep.o.cmd"
# A PGO build's instrumented kernel (tuner builds it in pgo-generate/) is
# not the one measured.
mkdir -p "$o/pgo-generate/init"
echo 'cmd_init/main.o := arm-linux-gnueabihf-gcc -O2 -fprofile-arcs -c -o init/main.o /k/init/main.c' >"$o/pgo-generate/init/.main.o.cmd"
got=$(TUNER_OUT=$o "$t/applied.sh") || fail "applied.sh failed"
want='ccache arm-linux-gnueabihf-gcc -Wp,-MMD,init/.main.o.d -Os -fno-tree-ch -c -o init/main.o /k/init/main.c'
[ "$got" = "$want" ] || fail "applied.sh printed '$got'"
echo ok
