/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * qemu_plugin_priv: the state the two files of tuner-uarch.so share,
 * private to the plugin (built with -fvisibility=hidden: none of these
 * names reaches QEMU). qemu_plugin.c is the QEMU glue: arguments,
 * translation, execution and memory callbacks, marks; qemu_plugin_files.c
 * the plugin's files: the ranges it reads, the reports it writes, the ctl
 * FIFO it obeys.
 */
#ifndef TUNER_QEMU_PLUGIN_PRIV_H
#define TUNER_QEMU_PLUGIN_PRIV_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "uarch.h"

/* What the plugin knows of one translated block; shared by every
 * translation of the same code (looked up by address and bytes). */
struct block {
	uint64_t vaddr, key;
	uint32_t size, ninsns;
	uint8_t region, decoded;
	struct ua_branch br;
	uint64_t count;       /* executions, for lines= and blocks= */
	uint16_t *offs;       /* lines=: each instruction's offset */
	uint64_t *acc;        /* blocks=: the counters its executions added
	                         (ua_ncounters of them), counted region only */
	struct block *next;   /* hash chain */
};

struct range {
	uint64_t lo, hi;
	int counted;
};

#define NBUCKETS 65536

/* qemu_plugin.c's */
extern struct ua_core core;
extern const char *arch_name; /* QEMU's target name, for the report */
extern int want_lines;        /* lines=on */
extern int want_blocks;       /* blocks=on */
extern pthread_mutex_t lock;  /* blocks, ctl */
extern struct block *buckets[NBUCKETS];

/* qemu_plugin_files.c's */
extern size_t nranges;
extern int have_ranges;       /* ranges= or count= given */
/* ctl: set by the reader thread, acted on by the vCPU thread. */
extern volatile int ctl_pending;

/* ---- where code is ---- */

/* The range holding address a, or NULL. */
const struct range *find_range(uint64_t a);
/* Adds [lo, hi), counted (fp) or only A32 (own). */
void add_range(uint64_t lo, uint64_t hi, int counted);
/* Reads the ranges= file at path. 0, or -1 said on stderr. */
int load_ranges(const char *path);

/* ---- reports (lock held) ---- */

/* Writes PATH.lines and PATH.blocks when asked for, then PATH (each
 * through a .tmp file renamed into place). */
void write_report(const char *path);
/* Zeroes the counters; caches and predictors stay warm. */
void reset_counts(void);
/* blocks=: the counted region's counters when the last block began. */
extern struct ua_counters block_snap;
/* blocks=: gives the block running now what it added so far (lock held;
 * before a report is written). */
void blocks_flush(void);

/* ---- the guest's registers (qemu_plugin_regs.c) ---- */

/* Finds QEMU's functions, reader the target's gdb register reader
 * ("arm_cpu_gdb_read_register", "mips_cpu_gdb_read_register"): 0, or -1
 * when this QEMU does not export them. */
int find_qemu_internals(const char *reader);
/* Register n of vcpu (gdb's numbering: ARM r0-r15 0-15, CPSR 25; MIPS
 * GPRs 0-31): 0, or -1. */
int read_reg(unsigned vcpu, int n, uint32_t *out);
/* The physical address vaddr maps to now; UINT64_MAX if none. */
uint64_t phys_of(unsigned vcpu, uint64_t vaddr);

/* ---- ctl ---- */

/* The reader thread of the FIFO at arg (malloced path). */
void *ctl_loop(void *arg);
/* Does what ctl asked (on the vCPU thread, ctl_pending set). */
void ctl_act(void);

#endif
