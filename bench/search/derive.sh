# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# Sourced by oracle.sh and heaviest.sh.
# derive_study ROOT NAME SEARCH [SED-EXPRESSION...]: spaces/search-oracle.yaml
# on stdout as study NAME, its source named by absolute path (a derived
# study lives outside the repository), its search line SEARCH with 6
# layout seeds per configuration, and any further sed expressions applied.
derive_study() {
	local root=$1 name=$2 search=$3 e
	local extra=()
	shift 3
	for e in "$@"; do extra+=(-e "$e"); done
	sed -e "s/^study: search-oracle\$/study: $name/" \
		-e "s|^source: {repo: \.\., |source: {repo: $root, |" \
		-e "s/^search: .*/search: $search\nlayout: {samples: 6}/" \
		"${extra[@]}" "$root/spaces/search-oracle.yaml"
}
