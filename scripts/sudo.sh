# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by the install scripts: sets SUDO to how this user runs a command
# as root ("" when root already, "sudo" when it exists, "need-root" when
# neither, for the caller to refuse with its own message).
if [ "$(id -u)" -eq 0 ]; then
	SUDO=""
elif command -v sudo >/dev/null 2>&1; then
	SUDO="sudo"
else
	SUDO="need-root"
fi
