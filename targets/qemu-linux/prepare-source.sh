#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Unpacks Debian's linux-source-6.1 (/usr/src/linux-source-6.1.tar.xz) into a
# local git repository, one commit per package version, so the tuner's git
# handling (exported trees, commits in every result, --a-rev/--b-rev)
# applies to the kernel. Running it again with the same version does
# nothing; a newer linux-source-6.1 becomes a new commit on top.
#
#   TUNER_KERNEL_WORK   work area (default: <repo>/results/qemu-linux-work);
#                       the repository is $TUNER_KERNEL_WORK/linux
#
# Branch tuner-malta: the Debian commit and malta-caches.patch (the MIPS
# kernel model's caches for QEMU's malta, given on the command line), which
# spaces/qemu-linux-mt7621.yaml builds; made again when the patch or the
# Debian commit changes. The master branch stays Debian's tree.
#
# Prints the repository's path on stdout. Any other kernel git tree works
# too: name it in the study's source.repo instead.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=${TUNER_KERNEL_WORK:-$root/results/qemu-linux-work}
repo=$work/linux
tarball=/usr/src/linux-source-6.1.tar.xz

[ -f "$tarball" ] || { echo "prepare-source: $tarball missing (make deps-kernel, or scripts/install-kernel-deps.sh)" >&2; exit 1; }
version=$(dpkg-query -W -f='${Version}' linux-source-6.1)
tag="debian-linux-source-$version"
tag=${tag//[:~]/_}

# tuner-malta: the tag's tree with malta-caches.patch applied, committed
# through a temporary index (the work tree is not touched), unless the
# branch already is that commit (its message names the patch's hash).
malta_branch() {
	local sum idx tree c
	sum=$(sha1sum "$here/malta-caches.patch" | cut -c1-12)
	if git -C "$repo" log -1 --format=%B refs/heads/tuner-malta 2>/dev/null | grep -qx "malta-caches.patch $sum" &&
		[ "$(git -C "$repo" rev-parse tuner-malta^)" = "$(git -C "$repo" rev-parse "$tag^{commit}")" ]; then
		return 0
	fi
	idx=$(mktemp)
	GIT_INDEX_FILE=$idx git -C "$repo" read-tree "$tag"
	GIT_INDEX_FILE=$idx git -C "$repo" apply --cached "$here/malta-caches.patch"
	tree=$(GIT_INDEX_FILE=$idx git -C "$repo" write-tree)
	rm -f "$idx"
	c=$(git -C "$repo" commit-tree "$tree" -p "$tag" \
		-m "tuner: the MT7621's caches for QEMU's malta on the command line" -m "malta-caches.patch $sum")
	git -C "$repo" update-ref refs/heads/tuner-malta "$c"
	echo "prepare-source: branch tuner-malta = $tag + malta-caches.patch ($sum)" >&2
}

if [ -d "$repo/.git" ] && git -C "$repo" rev-parse -q --verify "refs/tags/$tag" >/dev/null; then
	malta_branch
	echo "$repo"
	exit 0
fi

echo "prepare-source: unpacking linux-source-6.1 $version into $repo" >&2
mkdir -p "$repo"
if [ ! -d "$repo/.git" ]; then
	git -C "$repo" init -q
	git -C "$repo" config user.name tuner
	git -C "$repo" config user.email tuner@localhost
	git -C "$repo" config gc.auto 0
fi
# Replace the tree with the new version's (git add -A records deletions).
find "$repo" -mindepth 1 -maxdepth 1 ! -name .git -exec rm -rf {} +
tar -xJf "$tarball" -C "$repo" --strip-components=1
# Debian's tarball ignores everything at the top (.gitignore "/*"): force.
git -C "$repo" add -A -f .
git -C "$repo" commit -q -m "linux-source-6.1 $version (Debian)"
git -C "$repo" tag "$tag"
malta_branch
echo "$repo"
