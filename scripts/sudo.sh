# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by the install scripts: sets SUDO to how this user runs a command
# as root ("" when root already, "sudo" when it exists, "need-root" when
# neither, for the caller to refuse with its own message), and defines
# missing_packages and apt_install.
if [ "$(id -u)" -eq 0 ]; then
	SUDO=""
elif command -v sudo >/dev/null 2>&1; then
	SUDO="sudo"
else
	SUDO="need-root"
fi

# missing_packages PKG...: the ones dpkg does not have installed, each
# after a space (nothing when all are).
missing_packages() {
	for p in "$@"; do
		if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
			printf ' %s' "$p"
		fi
	done
}

# apt_install WHO PKG...: installs the packages (no recommends), said on
# stderr as WHO; exits 1 when this user cannot become root.
apt_install() {
	who=$1
	shift
	echo "$who: installing: $*" >&2
	if [ "$SUDO" = need-root ]; then
		echo "$who: need root (or sudo) to install: $*" >&2
		exit 1
	fi
	export DEBIAN_FRONTEND=noninteractive
	$SUDO apt-get update -qq
	$SUDO apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}
