# SPDX-License-Identifier: GPL-2.0-or-later
# tuner: a compiler-flag autotuner for router kernels.
#
#   make            build build/release/tuner
#   make test       install missing Debian packages, then make check
#   make check      unit tests (plain, ASan+UBSan, the threaded modules under
#                   TSan) and end-to-end tests, never touching apt
#   make demo       run the bundled default study
#   make test-kernel opt-in: a real ARM kernel as a NAT router in QEMU, -O2
#                   vs -Os, 3 iperf3 runs each, tuner compare (not in test)
#   make test-kernel-pgo opt-in: that kernel, -O2 against -O2 with kernel PGO
#   make bench-kernel opt-in: the real kernel on the modelled A9
#                   (bench/kernel/model.sh): determinism over 3 boots, the
#                   seeds' flag sets on 5 layout seeds, tuner compare
#   make test-lab   opt-in: a 4-configuration study on two QEMU lab routers
#                   flashed over ssh, a kernel that panics, a power cut
#   make test-cluster opt-in, root: builds as jobs of a real Slurm, then the
#                   kernel through distcc
#   make bench      every bench/*.sh: the tuner's own overhead per
#                   evaluation, racing and compare against known truth
#   make fuzz       each libFuzzer target (tests/fuzz) for FUZZ_TIME seconds
#                   (default 60); make check replays their seeds and every
#                   input that once crashed them
#   make install    PREFIX=/usr/local DESTDIR=
#   make clean
#
# Every goal that runs something needing packages installs them first, by
# depending on one of (each quick, and a no-op when everything is there):
#   deps          scripts/install-deps.sh: what make test needs (test,
#                 demo, bench, fuzz)
#   deps-kernel   deps, then scripts/install-kernel-deps.sh and Debian's
#                 kernel source as a git repository (prepare-source.sh)
#                 (test-kernel, test-kernel-pgo, bench-kernel, test-lab)
#   deps-cluster  deps-kernel, then scripts/install-cluster-deps.sh: slurm,
#                 munge, distcc (test-cluster: its distcc test builds the
#                 kernel)
# The goals in NO_APT_GOALS install nothing: what is missing is reported
# (the plugin's build fetches qemu-plugin.h the first time, but under make
# check's TUNER_NO_APT=1).
# tests/e2e/t_optin_deps.sh holds every goal to one of the two lists.

PREFIX ?= /usr/local
DESTDIR ?=
VARIANT ?= release
CC ?= cc

PKGS := libgit2 yaml-0.1 jansson
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS = $(shell pkg-config --libs $(PKGS) 2>/dev/null)

B := build/$(VARIANT)
CFLAGS_release := -O2 -g
CFLAGS_debug := -O0 -g3
CFLAGS_asan := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
CFLAGS_tsan := -O1 -g -fsanitize=thread
# libFuzzer targets (make fuzz): clang, coverage for the fuzzer, ASan+UBSan.
CFLAGS_fuzz := -O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined
CFLAGS_VARIANT = $(CFLAGS_$(VARIANT))

WARN := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wno-unused-parameter
ALL_CFLAGS = -std=c11 -D_GNU_SOURCE $(WARN) $(CFLAGS_VARIANT) -Iinclude -Ituner $(PKG_CFLAGS) $(CFLAGS) -MMD -MP
ALL_LDFLAGS = $(CFLAGS_VARIANT) $(LDFLAGS)
LIBS = $(PKG_LIBS) -lpthread -lm

# tuner/cli: the commands (not in the library); tuner/uarch/qemu_plugin*.c:
# the QEMU glue of the plugin (below). Every other tuner/*/*.c is libtuner.a.
CLI_SRC := $(wildcard tuner/cli/*.c)
PLUGIN_GLUE := tuner/uarch/qemu_plugin.c tuner/uarch/qemu_plugin_files.c tuner/uarch/qemu_plugin_regs.c
LIB_DIRS := run report build journal study search analysis formats uarch sys
LIB_SRC := $(filter-out $(PLUGIN_GLUE),$(wildcard $(LIB_DIRS:%=tuner/%/*.c)))
LIB_OBJ := $(LIB_SRC:tuner/%.c=$(B)/obj/%.o)
CLI_OBJ := $(CLI_SRC:tuner/%.c=$(B)/obj/%.o)
UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(B)/%)
# Tests of the threaded modules, also run under ThreadSanitizer.
TSAN_TESTS := test_pool test_runner test_journal test_gitsrc

# The uarch QEMU plugin (tuner-uarch.so, beside the binary): the model's
# core (plain C, no tuner dependency) and the QEMU glue, always optimised
# and position-independent whatever VARIANT is, since QEMU loads it.
# qemu-plugin.h comes from Debian's qemu source (scripts/qemu-plugin-h.sh).
PLUGIN_SRC := $(PLUGIN_GLUE) tuner/uarch/uarch_cache.c tuner/uarch/uarch_decode.c \
	tuner/uarch/uarch_bpred.c tuner/uarch/uarch_config.c tuner/uarch/uarch_core.c
PLUGIN_HDR := tuner/uarch/uarch.h tuner/uarch/uarch_priv.h tuner/uarch/qemu_plugin_priv.h

.PHONY: pkg-check cmocka-check test-cluster all deps deps-kernel deps-cluster test check unit tsan e2e \
	demo bench install clean test-kernel test-kernel-pgo bench-kernel test-lab plugin \
	fuzz fuzz-build fuzz-replay
all: $(B)/tuner $(B)/tuner-uarch.so

plugin: $(B)/tuner-uarch.so

$(B)/tuner-uarch.so: $(PLUGIN_SRC) $(PLUGIN_HDR) | $(B)/obj pkg-check
	@inc=$$(scripts/qemu-plugin-h.sh) && \
	echo "$(CC) -shared -fPIC ... -o $@" && \
	$(CC) -std=c11 -D_GNU_SOURCE $(WARN) -O2 -flto -fvisibility=hidden -g -fPIC -shared -Iinclude -Ituner -Ituner/uarch -I"$$inc" \
		-o $@ $(PLUGIN_SRC) -lpthread

# DEPS_GOALS install first (deps, deps-kernel or deps-cluster, above);
# NO_APT_GOALS never touch apt. Every goal is in one of the two
# (tests/e2e/t_optin_deps.sh). Before the first compiler error on a new
# machine, one line saying what to run; a DEPS goal checks after make deps.
DEPS_GOALS := deps deps-kernel deps-cluster test demo test-kernel test-kernel-pgo bench-kernel \
	test-lab test-cluster fuzz bench
NO_APT_GOALS := all plugin pkg-check cmocka-check check unit tsan e2e fuzz-build fuzz-replay \
	install clean
pkg-check: $(if $(filter $(DEPS_GOALS),$(MAKECMDGOALS)),deps)
	@command -v pkg-config >/dev/null 2>&1 && pkg-config --exists $(PKGS) || { \
		echo "tuner: missing libgit2/libyaml/jansson development packages: run 'make deps' (or 'make test' / 'make demo', which install them)" >&2; \
		exit 1; }

cmocka-check: $(if $(filter $(DEPS_GOALS),$(MAKECMDGOALS)),deps)
	@pkg-config --exists cmocka 2>/dev/null || { \
		echo "tuner: missing the cmocka development package for the unit tests: run 'make deps' (or 'make test', which installs it)" >&2; \
		exit 1; }

$(B)/obj/%.o: tuner/%.c | $(B)/obj pkg-check
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(B)/obj:
	mkdir -p $@

$(B)/libtuner.a: $(LIB_OBJ)
	rm -f $@
	ar rcs $@ $^

$(B)/tuner: $(CLI_OBJ) $(B)/libtuner.a
	$(CC) $(ALL_LDFLAGS) -o $@ $(CLI_OBJ) $(B)/libtuner.a $(LIBS)

$(B)/test_%: tests/unit/test_%.c $(B)/libtuner.a | cmocka-check
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(B)/libtuner.a -lcmocka $(LIBS)

deps:
	@scripts/install-deps.sh

# The kernel targets' packages, armhf userspace and source (the kernel
# tree at results/qemu-linux-work/linux, or $TUNER_KERNEL_WORK/linux).
deps-kernel: deps
	@scripts/install-kernel-deps.sh
	@targets/qemu-linux/prepare-source.sh >/dev/null

# make test-cluster's: Slurm, munge, distcc, and the kernel's (after
# deps-kernel, never beside it: one apt at a time under -j).
deps-cluster: deps-kernel
	@scripts/install-cluster-deps.sh

# Builds and runs the unit tests of this VARIANT.
unit: $(UNIT_BIN)
	@scripts/run-unit.sh $(UNIT_BIN)

# The threaded modules' tests under ThreadSanitizer.
tsan:
	@$(MAKE) --no-print-directory VARIANT=tsan unit UNIT_BIN="$(TSAN_TESTS:%=build/tsan/%)"

test: deps
	@$(MAKE) --no-print-directory check

# The tests alone: what is missing is reported, not installed.
check:
	@TUNER_NO_APT=1 scripts/test.sh

# E2E_TESTS: some of tests/e2e/t_*.sh (default: all).
e2e: all
	@scripts/run-e2e.sh $(B)/tuner $(E2E_TESTS)

demo: deps all
	$(B)/tuner run spaces/natbench-a9.yaml

# Opt-in, not part of test: installs the kernel tools, builds two kernels.
test-kernel: deps-kernel all
	@targets/qemu-linux/test-kernel.sh $(B)/tuner

# Opt-in: -O2 against -O2 with kernel PGO (gcov profile of the NAT workload).
test-kernel-pgo: deps-kernel all
	@targets/qemu-linux/test-kernel.sh $(B)/tuner pgo

# Opt-in: the kernel router on the modelled core (bench/kernel/model.sh);
# builds five kernels on five layout seeds the first time (about 1.5 h).
bench-kernel: deps-kernel all
	@bench/kernel/model.sh --tuner $(B)/tuner

# Opt-in: real-router testbeds on two lab routers in QEMU (targets/lab-router):
# builds three kernels the first time.
test-lab: deps-kernel all
	@scripts/test-lab.sh $(B)/tuner

# Opt-in: build.executor: slurm on a real Slurm (controller and node on this
# machine, started and stopped by the test; installs Debian's slurm and
# munge), then the kernel through distccd. Needs root.
test-cluster: deps-cluster all
	@scripts/test-cluster.sh $(B)/tuner

# libFuzzer targets: the study loader, the output parsers, the journal
# reader. Always built with clang in build/fuzz (VARIANT=fuzz).
FUZZ_TARGETS := $(patsubst tests/fuzz/%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_TIME ?= 60

build/fuzz/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz_input.h build/fuzz/libtuner.a
	$(CC) $(ALL_CFLAGS) -fsanitize=fuzzer -o $@ $< build/fuzz/libtuner.a $(LIBS)

# After make deps when the goal installs (make fuzz), as pkg-check.
fuzz-build: $(if $(filter $(DEPS_GOALS),$(MAKECMDGOALS)),deps)
	@$(MAKE) --no-print-directory VARIANT=fuzz CC=clang $(FUZZ_TARGETS:%=build/fuzz/%)

# Each target for FUZZ_TIME seconds, from its seeds and the corpus kept
# in build/fuzz/corpus; a crash leaves its input in build/fuzz/crashes.
fuzz: deps fuzz-build
	@scripts/fuzz.sh run $(FUZZ_TIME) $(FUZZ_TARGETS)

# Every seed and every input that once crashed a target, run once each.
fuzz-replay: fuzz-build
	@scripts/fuzz.sh replay 0 $(FUZZ_TARGETS)

# Every bench/*.sh, the tuner's own overhead first; fails if any fails.
bench: deps all
	@st=0; for b in bench/overhead.sh $$(ls bench/*.sh | grep -vx bench/overhead.sh); do \
		echo "== $$b"; $$b $(B)/tuner || st=1; done; exit $$st

install: all
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 $(B)/tuner $(DESTDIR)$(PREFIX)/bin/tuner
	install -d $(DESTDIR)$(PREFIX)/lib/tuner
	install -m 644 $(B)/tuner-uarch.so $(DESTDIR)$(PREFIX)/lib/tuner/tuner-uarch.so

# Keeps build/deps (the downloaded qemu-plugin.h).
clean:
	rm -rf build/release build/debug build/asan build/tsan build/fuzz

-include $(wildcard $(B)/obj/*/*.d $(B)/*.d)
