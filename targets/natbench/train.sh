#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The PGO training command: runs the instrumented artifact on the training
# traffic (another seed than the scored traffic, so the profile does not
# fit the scored packets exactly, as on a real router) and leaves the .gcda
# files in TUNER_PROFILE_DIR. The artifact runs through run.sh: natively,
# or under qemu-user for an ARM or MIPS build (the emulated program writes
# its .gcda files where the instrumented objects are, as a native one does).
#
# Needs TUNER_ARTIFACT, TUNER_OUT (the instrumented build's directory, where
# the profiles are written) and TUNER_PROFILE_DIR.
set -eu

PACKETS=30000
SEED=2

: "${TUNER_ARTIFACT:?train.sh: TUNER_ARTIFACT is not set}"
: "${TUNER_OUT:?train.sh: TUNER_OUT is not set}"
: "${TUNER_PROFILE_DIR:?train.sh: TUNER_PROFILE_DIR is not set}"

rm -f "$TUNER_OUT"/*.gcda
sh "$(dirname "$0")/run.sh" "$TUNER_ARTIFACT" --seed "$SEED" --packets "$PACKETS" >/dev/null
mkdir -p "$TUNER_PROFILE_DIR"
set -- "$TUNER_OUT"/*.gcda
if [ ! -e "$1" ]; then
	echo "train.sh: no profile written in $TUNER_OUT" >&2
	exit 1
fi
cp "$@" "$TUNER_PROFILE_DIR"/
# What does not depend on the flags (harness objects, generated sources)
# goes along, so the use build does not compile it again. Times preserved.
mkdir -p "$TUNER_PROFILE_DIR/reuse"
(cd "$TUNER_OUT" && cp -p mkapps .generated fp_app[0-9]*.c fp_apps.c apps_tab.c \
	apps_tab.o main.o gen.o gen_flow.o gen_pkt.o gen_msg.o wire.o verify.o \
	mkapps.host.o mkapps_emit.host.o \
	config.o config_rules.o "$TUNER_PROFILE_DIR/reuse/")
