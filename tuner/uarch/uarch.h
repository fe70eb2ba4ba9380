/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * uarch: a deterministic model of a router CPU's front end and memory
 * hierarchy, fed by an executed instruction stream. It is a MODEL, not a
 * measurement: the QEMU plugin (tuner/uarch/qemu_plugin.c) drives it with
 * the blocks and memory accesses of real ARM or MIPS code, and it counts
 * what the modelled core would do with them:
 *
 *   - L1 instruction cache, looked up once for every line an executed
 *     block spans (a block is fetched sequentially from its first byte to
 *     its last);
 *   - L1 data cache, once for every line a load or store touches,
 *     write-allocate, with dirty lines written back to the L2 when evicted
 *     (config.writeback);
 *   - a unified L2 behind both, looked up on every L1 miss;
 *   - branches: a direction predictor (bimodal or gshare 2-bit counters),
 *     a branch target buffer, a return stack, and how each executed branch
 *     fared against them (ua_bpred_resolve below says exactly);
 *   - with config.maint, cache maintenance by address (ua_core_maint():
 *     the L1 D by MVA, the L2 by PA) invalidating and cleaning lines of
 *     the modelled caches; device accesses counted, not cached;
 *   - with config.fetch, a front end: each block fetched in groups of up
 *     to fetch bytes that never cross an I-cache line (ua_fetch_groups).
 *
 * Replacement per cache is LRU, round-robin per set, or pseudo-random (a
 * 32-bit Galois LFSR per cache with a fixed seed, so "random" is the same
 * sequence in every run: deterministic, but sensitive to layout as a real
 * random policy is).
 *
 * The model counts; it does not weigh. Penalties (cycles per miss, per
 * mispredict, per taken branch) live in the same configuration but are
 * applied by the scorer (uarch_model.h) to the counters the plugin wrote,
 * so penalties can change without running anything again.
 *
 * The presets (uarch_config.c) are a Broadcom BCM47094's Cortex-A9 (the
 * core alone, and bcm47094: with the SoC's costs and the front end) and a
 * MediaTek MT7621's MIPS 1004Kc; every number there cites its source.
 *
 * Everything here is plain C with no tuner dependency (it is compiled into
 * the plugin too): no I/O but ua_report_write(), errors as text in a
 * caller's buffer. Not thread-safe: one model per emulated core.
 */
#ifndef TUNER_UARCH_H
#define TUNER_UARCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define UA_REPORT_VERSION 1

enum ua_policy { UA_LRU, UA_RR, UA_RANDOM };

struct ua_cache_geom {
	uint32_t size; /* bytes; size / (ways * line) sets, a power of two */
	uint32_t ways;
	uint32_t line; /* bytes, a power of two */
	enum ua_policy policy;
};

enum ua_dir_kind { UA_DIR_NONE, UA_DIR_BIMODAL, UA_DIR_GSHARE };

struct ua_config {
	char preset[32]; /* the preset this started from, "" if none */
	struct ua_cache_geom l1i, l1d, l2;
	int has_l2;
	enum ua_dir_kind dir;
	uint32_t dir_entries; /* 2-bit counters, a power of two */
	uint32_t history;     /* gshare: global history bits (<= index bits) */
	uint32_t btb_entries; /* 0: no BTB (targets of direct branches are
	                         known at fetch) */
	uint32_t btb_ways;
	uint32_t ras;         /* return stack entries; 0: none */
	int indirect_btb;     /* 1: indirect targets predicted by the BTB;
	                         0: every taken indirect jump that is not a
	                         return mispredicts */
	int writeback;        /* dirty L1 D evictions are written to the L2 */
	int maint;            /* cache maintenance by address (ua_core_maint())
	                         acts on the modelled caches; 0: an ordinary
	                         instruction */
	uint32_t fetch;       /* front end: bytes fetched per cycle (a power of
	                         two <= the L1 I line); 0: no fetch model */

	/* Penalties in cycles, for the scorer only (never sent to the plugin). */
	double insn;       /* per instruction */
	double l1i_miss;   /* per L1 I miss that hits the L2 */
	double l1d_miss;   /* per L1 D miss (load or store) that hits the L2 */
	double l2_miss;    /* on top, per L2 miss (I or D): DRAM */
	double taken;      /* per taken branch */
	double mispredict; /* per mispredicted branch, of any kind */
	double io_read;    /* per load from device memory (system mode) */
	double io_write;   /* per store to device memory */
	double fetch_split; /* per fetch group cut at an L1 I line's end */
	double clock_mhz;
};

/* Fills c with the named preset: 0, or -1 with a message in err. */
int ua_config_preset(struct ua_config *c, const char *name, char *err, size_t errlen);
/* The preset names, comma-separated (a static string). */
const char *ua_preset_names(void);

/*
 * Sets one key of c from text, as the plugin's arguments and the study's
 * measure.uarch section write them:
 *   preset=NAME            (replaces everything; give it first)
 *   l1i|l1d|l2=SIZE:WAYS:LINE[:lru|rr|random]   (l2=none: no L2)
 *   dir=none | bimodal:ENTRIES | gshare:ENTRIES:HISTORY
 *   btb=ENTRIES:WAYS | none, ras=N, indirect=btb|none, writeback=on|off
 *   maint=on|off, fetch=BYTES|none
 *   insn|l1i_miss|l1d_miss|l2_miss|taken|mispredict|io_read|io_write|
 *   fetch_split|clock_mhz=NUMBER
 * 0, or -1 with a one-line message in err. Unknown keys are errors.
 */
int ua_config_set(struct ua_config *c, const char *key, const char *val,
		  char *err, size_t errlen);
/* Checks the geometry is consistent (powers of two, ways <= lines...). */
int ua_config_check(const struct ua_config *c, char *err, size_t errlen);
/*
 * The machine part of c (caches, predictor, front end; not the penalties)
 * as comma-separated key=value text, canonical: the same machine always
 * gives the same string, and ua_config_set() reads it back. maint= and
 * fetch= appear only when on, so a machine without them has the string
 * it had before they existed (saved reports still match). Truncated to
 * len - 1 bytes (len >= 1). Returns the length it needed.
 */
size_t ua_config_machine(const struct ua_config *c, char *buf, size_t len);

/* ---- caches ---- */

struct ua_cache {
	uint32_t sets, ways, line_shift;
	enum ua_policy policy;
	uint64_t *tag;  /* sets * ways: line address << 1 | dirty; UA_INVALID */
	uint32_t *next; /* round-robin: per set, the next way to replace */
	uint32_t lfsr;  /* random: the LFSR state */
	uint64_t last;  /* the line accessed last (UA_INVALID: none), and */
	uint64_t *last_slot; /* its way: a repeat is a hit that changes
	                        nothing but the dirty bit, under any policy */
};
#define UA_INVALID UINT64_MAX

/* 0, or -1 with a message (bad geometry). Release with ua_cache_release(). */
int ua_cache_init(struct ua_cache *c, const struct ua_cache_geom *g, char *err, size_t errlen);
void ua_cache_release(struct ua_cache *c);
/* Forgets every line (cold cache); keeps the geometry. */
void ua_cache_flush(struct ua_cache *c);
/*
 * Looks up the line holding byte address addr, allocating it on a miss
 * (write-allocate for write != 0, which also marks it dirty). Returns 1 on
 * a hit, 0 on a miss. On a miss that evicted a dirty line, *wb_addr is set
 * to that line's first byte address and *wb to 1; else *wb is 0.
 */
int ua_cache_access(struct ua_cache *c, uint64_t addr, int write, uint64_t *wb_addr, int *wb);
/*
 * Cache maintenance of the line holding addr, if the cache holds it:
 * UA_MAINT_INV drops it (its data is lost, dirty or not), UA_MAINT_CLEAN
 * clears its dirty bit (the data is written out), UA_MAINT_CLEAN_INV does
 * both. Returns UA_HELD | UA_WAS_DIRTY bits for what the line was; 0 when
 * the cache does not hold it (nothing changes).
 */
enum ua_maint_op { UA_MAINT_INV = 1, UA_MAINT_CLEAN = 2, UA_MAINT_CLEAN_INV = 3 };
#define UA_HELD 1
#define UA_WAS_DIRTY 2
int ua_cache_maint(struct ua_cache *c, uint64_t addr, enum ua_maint_op op);
/*
 * ua_cache_access()'s first case, inline for the hot paths: 1 if line (an
 * address >> line_shift) is the line accessed last, a hit that changes
 * nothing but its dirty bit (set by write), under any policy; else 0 and
 * nothing changed (then call ua_cache_access()).
 */
static inline int ua_cache_repeat(struct ua_cache *c, uint64_t line, int write)
{
	if (line != c->last)
		return 0;
	*c->last_slot |= write ? 1u : 0u;
	return 1;
}

/* ---- counters ---- */

/* Regions: what the scorer counts (the fast path, the kernel) and the rest
 * (traffic generator, libc, user space), which shares caches and
 * predictors with it. */
enum ua_region { UA_COUNTED, UA_REST, UA_NREGIONS };

/*
 * The counters, per region (an array of uint64_t in this order; the
 * names are ua_counter_names[]):
 *   insns, blocks          executed instructions and blocks
 *   l1i_access, l1i_miss   I-cache line lookups (one per line a block
 *                          spans) and misses; l2i_miss: of those, L2 misses
 *   l1d_read, l1d_write    D-cache line lookups by loads and stores (an
 *                          access crossing a line counts twice), their
 *   l1d_read_miss, ..      misses, l1d_writeback dirty lines evicted,
 *   l2d_miss               L2 misses of D-side misses, l2_wb_miss
 *                          write-backs that missed the L2 (allocated there)
 *   branches ... indirect  executed branches: all, conditional, conditional
 *                          taken, taken (any kind), calls, returns,
 *                          indirect jumps (neither direct nor returns)
 *   mp_direction, mp_btb,  mispredicted, by cause (ua_bpred_resolve)
 *   mp_target, mp_return
 *   undecoded              blocks whose last instruction was not decoded
 *                          (Thumb code, x86): no branch model for them
 *   async                  control transfers no branch explains
 *                          (exceptions, interrupts)
 *   io_read, io_write      loads and stores to device memory (system
 *                          mode: QEMU says the access is I/O); not cached
 *   maint_l1, maint_l2     cache maintenance operations by address on the
 *                          L1 D (A32 MCR c7 by MVA) and on the L2 (the
 *                          L2C-310's line operations by PA), executed;
 *   maint_held             of those, lines the cache held (the rest found
 *                          nothing to do), maint_wb dirty lines they
 *                          wrote out (clean), maint_drop_dirty dirty
 *                          lines an invalidate discarded
 *   fetch_groups           front end (config.fetch): fetch groups, each
 *                          up to fetch bytes within one I line, starting
 *                          at every block's first byte;
 *   fetch_split            of those, the ones beyond ceil(size / fetch):
 *                          a group cut at a line's end
 */
#define UA_COUNTERS(X) \
	X(insns) X(blocks) \
	X(l1i_access) X(l1i_miss) X(l2i_miss) \
	X(l1d_read) X(l1d_write) X(l1d_read_miss) X(l1d_write_miss) \
	X(l1d_writeback) X(l2d_miss) X(l2_wb_miss) \
	X(branches) X(cond) X(cond_taken) X(taken) X(calls) X(returns) X(indirect) \
	X(mp_direction) X(mp_btb) X(mp_target) X(mp_return) \
	X(undecoded) X(async) \
	X(io_read) X(io_write) \
	X(maint_l1) X(maint_l2) X(maint_held) X(maint_wb) X(maint_drop_dirty) \
	X(fetch_groups) X(fetch_split)

struct ua_counters {
#define UA_FIELD(n) uint64_t n;
	UA_COUNTERS(UA_FIELD)
#undef UA_FIELD
};

/* The counter names in struct order, and their number. */
extern const char *const ua_counter_names[];
extern const size_t ua_ncounters;
/* Counter i of c (i < ua_ncounters). */
uint64_t *ua_counter(struct ua_counters *c, size_t i);

/* ---- branches ---- */

enum ua_branch_kind {
	UA_BR_NONE = 0,
	UA_BR_BRANCH = 1,   /* set for every branch; without DIRECT or RETURN
	                       an indirect jump (register, table, PC load) */
	UA_BR_COND = 2,     /* may fall through */
	UA_BR_DIRECT = 4,   /* target encoded in the instruction */
	UA_BR_CALL = 8,     /* pushes the return stack */
	UA_BR_RETURN = 16,  /* pops it */
	UA_BR_NOPRED = 32,  /* alone: an exception return, never predicted and
	                       not counted as a branch */
};

struct ua_branch {
	unsigned kind;        /* UA_BR_* bits; UA_BR_NONE: no branch */
	uint64_t pc;          /* the branch instruction */
	uint64_t target;      /* UA_BR_DIRECT: where it goes when taken */
	uint64_t fallthrough; /* where execution continues when not taken
	                         (after a MIPS delay slot) */
	uint64_t link;        /* UA_BR_CALL: the return address it pushes */
};

/* Decoders: the branch that ends a block, from the raw instruction word
 * (as a number: the caller reads it in the target's byte order). *out is
 * filled; its kind is UA_BR_NONE when the word is not a branch. */
/* A32 (ARM state) instruction at pc. */
void ua_decode_a32(struct ua_branch *out, uint32_t insn, uint64_t pc);
/* MIPS32 instruction at pc; a branch's fallthrough and link are pc + 8. */
void ua_decode_mips(struct ua_branch *out, uint32_t insn, uint64_t pc);

struct ua_bpred {
	uint32_t dir_mask, hist_mask;
	enum ua_dir_kind dir;
	uint8_t *ctr;          /* 2-bit counters, 0..3, >= 2 predicts taken */
	uint32_t hist;         /* global history of conditional outcomes */
	uint32_t btb_sets, btb_ways;
	uint64_t *btb_pc;      /* sets * ways, MRU first; UA_INVALID */
	uint64_t *btb_target;
	uint32_t ras_size, ras_top, ras_count;
	uint64_t *ras;
	int indirect_btb;
};

int ua_bpred_init(struct ua_bpred *bp, const struct ua_config *c, char *err, size_t errlen);
void ua_bpred_release(struct ua_bpred *bp);
/*
 * Resolves branch b, executed, given the address that executed next:
 * taken when next != b->fallthrough. What the model predicted at fetch:
 *   - a return (with a return stack): taken (conditional: the direction
 *     predictor says), to the address it pops;
 *   - with a BTB: taken only if the BTB holds the branch (a BTB miss is
 *     predicted not taken, as ARM documents for the Cortex-A8), to the
 *     BTB's target, conditional ones if the direction predictor agrees;
 *   - without a BTB: the direction predictor's direction (unconditional:
 *     taken), direct targets known, indirect ones not (mispredicted when
 *     taken, unless indirect_btb).
 * A mismatch counts once, as mp_direction (taken/not taken wrong), mp_btb
 * (taken but unknown to the BTB), mp_target (wrong target) or mp_return
 * (return stack wrong or empty). Then the predictor learns: counters and
 * history for conditional branches, the BTB for taken non-returns, the
 * return stack for calls and returns.
 * A direct branch whose next address is neither its target nor its
 * fallthrough was interrupted (an exception or interrupt came between it
 * and its target): counted as async, nothing learnt. Counters go to cnt.
 */
void ua_bpred_resolve(struct ua_bpred *bp, const struct ua_branch *b, uint64_t next,
		      struct ua_counters *cnt);

/* ---- the whole core ---- */

struct ua_core {
	struct ua_config cfg;
	struct ua_cache l1i, l1d, l2;
	struct ua_bpred bp;
	struct ua_counters cnt[UA_NREGIONS];
};

/* 0 or -1 with a message; release with ua_core_release(). */
int ua_core_init(struct ua_core *core, const struct ua_config *c, char *err, size_t errlen);
void ua_core_release(struct ua_core *core);
/* Zeroes the counters; caches and predictors stay warm. */
void ua_core_reset_counters(struct ua_core *core);
/* A block of ninsns instructions, bytes [vaddr, vaddr + size), executed. */
void ua_core_fetch(struct ua_core *core, enum ua_region r, uint64_t vaddr, uint32_t size,
		   uint32_t ninsns);
/* A load or store of size bytes at addr by an instruction of region r. */
void ua_core_data(struct ua_core *core, enum ua_region r, uint64_t addr, uint32_t size,
		  int store);
/* A load or store to device memory (not cached): counted only. */
void ua_core_io(struct ua_core *core, enum ua_region r, int store);
/*
 * A cache maintenance operation by address, executed by region r: on the
 * L1 D (level 1; addr is the physical address the instruction's virtual
 * one maps to) or on the L2 (level 2: an outer cache controller's line
 * operation by physical address). Counted always (maint_l1, maint_l2);
 * acts on the modelled cache only when config.maint is on: an invalidated
 * line misses on its next access, a cleaned dirty line is written to the
 * next level (the L2, for the L1 with writeback on). With no L2, a level 2
 * operation is counted and does nothing.
 */
void ua_core_maint(struct ua_core *core, enum ua_region r, int level, enum ua_maint_op op,
		   uint64_t addr);
/*
 * The fetch groups of a block [vaddr, vaddr + size) under a fetch width of
 * fetch bytes and line-byte I lines (both powers of two, fetch <= line):
 * from vaddr, groups of up to fetch bytes that never cross a line end.
 * *split gets how many more than ceil(size / fetch) that is. 0 if fetch
 * is 0.
 */
uint64_t ua_fetch_groups(uint64_t vaddr, uint32_t size, uint32_t fetch, uint32_t line,
			 uint64_t *split);

/*
 * The A32 decode of a cache maintenance instruction: for MCR p15, 0, Rt,
 * c7, CRm, 1 with CRm c6 (DCIMVAC), c10 (DCCMVAC), c11 (DCCMVAU), c14
 * (DCCIMVAC), sets *op and *rt and returns its condition field (0-14);
 * -1 for any other word. ICIMVAU and the set/way forms are not ops on
 * data by address and give -1.
 */
int ua_decode_a32_maint(uint32_t insn, enum ua_maint_op *op, unsigned *rt);
/*
 * A MIPS32 (release 1/2) CACHE instruction that acts on a line by address:
 * Hit_Invalidate, Hit_Writeback_Inv or Hit_Writeback on the primary data
 * cache (returns 1, the level ua_core_maint() takes) or on the secondary
 * (returns 2), the address GPR[*base] + *offset. -1 for any other word,
 * the instruction cache's and tertiary's operations and the index ones
 * included (not modelled).
 */
int ua_decode_mips_cache(uint32_t insn, enum ua_maint_op *op, unsigned *base, int32_t *offset);
/* 1 if an A32 condition (0-14) passes with the CPSR flags nzcv (bits
 * 31-28 of the CPSR, as bits 3-0). */
int ua_a32_cond(unsigned cond, unsigned nzcv);
/*
 * The register an A32 word store names (STR Rt, [Rn, ...], immediate or
 * register offset, any indexing): 0-14 in *rt, returns 1; 0 for anything
 * else (byte and halfword stores, STM, STRD, loads).
 */
int ua_decode_a32_str(uint32_t insn, unsigned *rt);
/*
 * An ARM L2C-310 (PL310) line operation from a store to its register at
 * offset off from its base (L2C-310 TRM, DDI 0246, "Cache maintenance
 * operations": 0x770 Invalidate Line by PA, 0x7B0 Clean Line by PA, 0x7F0
 * Clean and Invalidate Line by PA). 0 for another register.
 */
enum ua_maint_op ua_l2c310_line_op(uint64_t off);
/*
 * The guest's marks of a counted window (the plugin's marks=on): 1 for
 * "reset the counters", 2 for "write the report", 0 for any other word.
 * A32 (mips 0): the hints `dbg #1` (0xe320f0f1) and `dbg #2`
 * (0xe320f0f2); MIPS32 (mips 1): `sll $0,$0,17` (0x00000440) and
 * `sll $0,$0,18` (0x00000480), no-ops no compiler emits (GCC writes no
 * shift to $0; ssnop, ehb and pause are the shift amounts 1, 3 and 5).
 */
int ua_decode_mark(uint32_t insn, int mips);

/*
 * Writes the report (the tuner's uarch-model parsers read it):
 *   uarch-report 1
 *   arch ARCH
 *   config MACHINE                 (ua_config_machine())
 *   region counted|rest
 *   NAME VALUE                     (every counter, in ua_counter_names order)
 *   end
 * -1 on a write error (errno set).
 */
int ua_report_write(FILE *f, const struct ua_core *core, const char *arch);

#endif
