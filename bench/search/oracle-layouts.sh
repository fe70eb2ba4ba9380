#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The search benchmark's second dataset (bench/search/layouts/, README.md
# "The layout-mean dataset"): every configuration of
# spaces/search-oracle.yaml built on 6 layout seeds (0..5) and scored on
# the A9 router model (MODELLED), so that a configuration's truth is the
# mean over its layouts, the flags' effect without one layout's luck, and
# the noise the replay adds is the spread between layouts pooled over the
# whole space. The fast path compiles once per flag set (NB_CCACHE_FP=1:
# the other seeds only link again), so the cost is the scoring: about
# 6,900 runs of the model.
#
#   bench/search/oracle-layouts.sh [TUNER]            run what is missing, then write
#   bench/search/oracle-layouts.sh --extract [TUNER]  only write, from the results
#
# Resumable: stopped at any point (Ctrl-C, a crash, the machine's end of
# day), it builds and scores only what its journal does not hold.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
extract=0
if [ "${1:-}" = --extract ]; then extract=1; shift; fi
tuner=$(readlink -f "${1:-$root/build/release/tuner}")
res=$root/results/search-oracle-layouts
out=$root/bench/search/layouts
tmp=$(mktemp -d /tmp/tuner-oracle-layouts.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

. "$root/bench/search/derive.sh"
derive_study "$root" search-oracle-layouts "{strategy: exhaustive, seed: 1}" \
	's/NB_ARCH=a9$/NB_ARCH=a9 NB_CCACHE_FP=1/' >"$tmp/layouts.yaml"
grep -q 'NB_CCACHE_FP=1' "$tmp/layouts.yaml" ||
	{ echo "oracle-layouts.sh: spaces/search-oracle.yaml's build command changed; update the sed" >&2; exit 1; }
if [ "$extract" = 0 ]; then
	"$tuner" run -q --results "$res" "$tmp/layouts.yaml" >/dev/null
fi
[ -s "$res/results.csv" ] || { echo "oracle-layouts.sh: no $res/results.csv (run without --extract)" >&2; exit 1; }
