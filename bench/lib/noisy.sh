# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by the benchmarks on targets/noisy: a scratch directory $work
# (removed on exit) holding the noisy binary and a git repository
# $work/repo with an empty source directory src/ (the target needs none).
# Needs $root (the tuner checkout); takes the scratch name as $1.
work=$(mktemp -d "/tmp/tuner-bench-$1.XXXXXX")
trap 'rm -rf "$work"' EXIT
export GIT_CONFIG_NOSYSTEM=1 HOME=$work GIT_AUTHOR_NAME=b GIT_AUTHOR_EMAIL=b@b.invalid \
	GIT_COMMITTER_NAME=b GIT_COMMITTER_EMAIL=b@b.invalid
make -s -C "$root/targets/noisy" OUT="$work" >/dev/null
mkdir -p "$work/repo/src"
echo 'the noisy target needs no source' >"$work/repo/src/README"
git -C "$work/repo" init -q && git -C "$work/repo" add -A && git -C "$work/repo" commit -q -m bench

# noisy_study NAME SEED RUN_SD LAYOUT_SD: prints a one-configuration study
# whose build is instant and whose measure is the noisy target (truth file
# $work/truth), for commands that pick their own flags (compare, blame).
noisy_study() {
	cat <<EOF2
study: $1
source: {repo: $work/repo, path: src}
space:
  x: [""]
build: {command: ': > "\$TUNER_OUT/a"', artifact: a}
measure:
  command: '$work/noisy --truth $work/truth --seed $2 --run-sd $3 --layout-sd $4 --state "\$TUNER_OUT/draws"'
  # The builds are all alike; the noisy target judges the flags: each
  # build is measured.
  same_code: separate
objectives:
  - {name: speed, goal: max}
EOF2
}
