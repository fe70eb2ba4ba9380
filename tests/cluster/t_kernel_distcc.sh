# SPDX-License-Identifier: GPL-2.0-or-later
# The kernel target (targets/qemu-linux/build.sh) through distcc and a
# per-study ccache, its documented options: distccd on loopback (Debian's,
# started here), TUNER_KERNEL_CC_PREFIX=distcc, DISTCC_HOSTS naming only
# it, TUNER_KERNEL_CCACHE=study. One flag set, -O2, on two layout seeds,
# one after the other: the first build compiles every file on distccd
# (misses), the second (the same objects, other pads at link) is answered
# by the study's ccache. Each build's counts come from its
# tuner-sizes.txt. A kernel build takes 6-15 minutes here.
. "$ROOT/tests/e2e/lib.sh"

command -v distccd >/dev/null || fail "distccd missing (make deps-cluster installs it)"
src=$("$ROOT/targets/qemu-linux/prepare-source.sh")

# distccd on loopback, an unused port. It runs as its own user, which
# must reach its directory (mktemp -d makes the scratch directory 0700).
port=$((20000 + RANDOM % 20000))
chmod 755 "$TMPDIR"
mkdir -p "$TMPDIR/distccd"
chmod 777 "$TMPDIR/distccd"
# distccd runs as its own user: its TMPDIR must be one it can write.
TMPDIR=$TMPDIR/distccd distccd --daemon --listen 127.0.0.1 --allow 127.0.0.1 --port "$port" \
	--jobs 2 --pid-file "$TMPDIR/distccd/pid" --log-file "$TMPDIR/distccd/log"
trap 'pkill -f "distccd --daemon --listen 127.0.0.1 --allow 127.0.0.1 --port $port" || true' EXIT
up=0
for _ in $(seq 1 50); do
	if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then up=1; break; fi
	sleep 0.1
done
[ "$up" = 1 ] || fail "distccd did not listen on 127.0.0.1:$port"

cat >"$TMPDIR/study.yaml" <<EOF2
study: kernel-distcc
source: {repo: $src, rev: HEAD}
space:
  opt: [-O2]
build:
  command: '"$ROOT/targets/qemu-linux/build.sh"'
  artifact: arch/arm/boot/zImage
  timeout: 3600
size: {of: artifact, measure: file}
objectives:
  - {name: size, unit: bytes, goal: min}
layout: {samples: 2}
EOF2
export TUNER_KERNEL_CC_PREFIX=distcc TUNER_KERNEL_CCACHE=study
export DISTCC_HOSTS="127.0.0.1:$port/2" DISTCC_DIR=$TMPDIR/distcc-client
mkdir -p "$DISTCC_DIR"
start=$(date +%s)
"$TUNER" run -q -j 1 --results "$TMPDIR/res" "$TMPDIR/study.yaml" >"$TMPDIR/out" 2>&1 ||
	fail "the kernel study failed: $(tail -n 20 "$TMPDIR/out"; tail -n 20 "$TMPDIR"/res/builds/*/build.log)"
echo "2 kernel builds through distcc and the study's ccache: $(( $(date +%s) - start )) s"
python3 - "$TMPDIR/res/journal.jsonl" <<'PY' || fail "the counts are not as expected"
import json, os, sys
builds = sorted((json.loads(l) for l in open(sys.argv[1]) if '"type":"build"' in l),
                key=lambda b: b["seed"])
assert [b["seed"] for b in builds] == [0, 1] and all(b["status"] == "ok" for b in builds), builds
got = []
for b in builds:
    kv = dict(line.strip().split("=", 1) for line in open(os.path.join(b["dir"], "tuner-sizes.txt")))
    n = {k: int(kv[k]) for k in ("ccache_hits", "ccache_misses", "distcc_remote", "distcc_local",
                                 "distcc_probes")}
    got.append(n)
    print("layout seed %d, %.0f s: ccache %d hits, %d misses (%.1f%% hits); distcc %d compilations "
          "on 127.0.0.1, %d here (%.1f%% distributed), %d compiler probes here"
          % (b["seed"], b["seconds"], n["ccache_hits"], n["ccache_misses"],
             100 * n["ccache_hits"] / max(1, n["ccache_hits"] + n["ccache_misses"]),
             n["distcc_remote"], n["distcc_local"],
             100 * n["distcc_remote"] / max(1, n["distcc_remote"] + n["distcc_local"]),
             n["distcc_probes"]))
first, second = got
# The first build: a cold cache, every miss compiled, nearly all on distccd.
assert first["ccache_misses"] >= 300 and first["ccache_hits"] <= first["ccache_misses"] // 4, first
assert first["distcc_remote"] >= 300, first
assert first["distcc_remote"] >= 0.95 * (first["distcc_remote"] + first["distcc_local"]), first
# The second: the same objects, answered by the study's cache.
assert second["ccache_hits"] >= 0.95 * first["ccache_misses"], second
assert second["ccache_misses"] <= 0.05 * first["ccache_misses"], second
PY
[ -d "$TMPDIR/res/cache/ccache" ] || fail "the study's ccache is not in its results' cache directory"
echo "t_kernel_distcc: ok"
