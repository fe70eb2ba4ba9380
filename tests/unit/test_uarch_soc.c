/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for what the uarch model charges a kernel on its SoC (the
 * bcm47094 preset): cache maintenance by address acting on the modelled
 * caches, device accesses, the front end's fetch groups, and the decoders
 * the QEMU plugin uses for them, on synthetic streams with answers known
 * by hand. Encodings are GNU as's for the instructions in the comments.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uarch/uarch.h"

static char err[256];

static void mkcore(struct ua_core *core, const char *preset, int maint)
{
	struct ua_config c;

	assert_int_equal(ua_config_preset(&c, preset, err, sizeof(err)), 0);
	c.maint = maint;
	assert_int_equal(ua_core_init(core, &c, err, sizeof(err)), 0);
}

#define PKT 0x61000000u /* a packet buffer's physical address */

/* A DMA receive as the kernel does it: the CPU reads the buffer (it was
 * used before), invalidates it for the device, the device writes it
 * (invisible to the model), the CPU reads it again. */
static void rx(struct ua_core *core, unsigned lines)
{
	for (unsigned i = 0; i < lines; i++)
		ua_core_data(core, UA_COUNTED, PKT + 32 * i, 4, 0);
	for (unsigned i = 0; i < lines; i++) {
		ua_core_maint(core, UA_COUNTED, 1, UA_MAINT_INV, PKT + 32 * i);
		ua_core_maint(core, UA_COUNTED, 2, UA_MAINT_INV, PKT + 32 * i);
	}
	for (unsigned i = 0; i < lines; i++)
		ua_core_data(core, UA_COUNTED, PKT + 32 * i, 4, 0);
}

static void test_uarch_soc__invalidate_makes_reads_miss(void **state)
{
	struct ua_core on, off;
	struct ua_counters *c;

	(void)state;
	mkcore(&on, "bcm47094", 1);
	mkcore(&off, "bcm47094", 0);
	rx(&on, 47); /* a 1,500-byte frame */
	rx(&off, 47);
	/* Both: 47 cold misses of the first reads, 94 operations counted. */
	c = &on.cnt[UA_COUNTED];
	assert_int_equal(c->maint_l1, 47);
	assert_int_equal(c->maint_l2, 47);
	assert_int_equal(off.cnt[UA_COUNTED].maint_l1, 47);
	/* maint on: every line was held by both caches and dropped, so the
	 * second reads miss the L1 and the L2 (DRAM) again. */
	assert_int_equal(c->maint_held, 94);
	assert_int_equal(c->l1d_read_miss, 94);
	assert_int_equal(c->l2d_miss, 94);
	assert_int_equal(c->maint_drop_dirty, 0);
	/* maint off: an ordinary instruction; the second reads hit. */
	assert_int_equal(off.cnt[UA_COUNTED].maint_held, 0);
	assert_int_equal(off.cnt[UA_COUNTED].l1d_read_miss, 47);
	assert_int_equal(off.cnt[UA_COUNTED].l2d_miss, 47);
	ua_core_release(&on);
	ua_core_release(&off);
}

static void test_uarch_soc__clean_and_invalidate(void **state)
{
	struct ua_core core;
	struct ua_counters *c = &core.cnt[UA_COUNTED];

	(void)state;
	mkcore(&core, "bcm47094", 1);
	/* A transmit: the CPU writes the frame, cleans it for the device. */
	ua_core_data(&core, UA_COUNTED, PKT, 4, 1);
	ua_core_maint(&core, UA_COUNTED, 1, UA_MAINT_CLEAN, PKT);
	assert_int_equal(c->maint_wb, 1);
	/* Clean again: held, nothing dirty to write. */
	ua_core_maint(&core, UA_COUNTED, 1, UA_MAINT_CLEAN, PKT);
	assert_int_equal(c->maint_held, 2);
	assert_int_equal(c->maint_wb, 1);
	/* The line stayed: a read hits. */
	ua_core_data(&core, UA_COUNTED, PKT + 8, 4, 0);
	assert_int_equal(c->l1d_read_miss, 0);
	/* Dirty again, then invalidated without a clean: the data is lost. */
	ua_core_data(&core, UA_COUNTED, PKT, 4, 1);
	ua_core_maint(&core, UA_COUNTED, 1, UA_MAINT_INV, PKT);
	assert_int_equal(c->maint_drop_dirty, 1);
	/* Clean and invalidate of a dirty line: written, then gone. */
	ua_core_data(&core, UA_COUNTED, PKT + 64, 4, 1);
	ua_core_maint(&core, UA_COUNTED, 1, UA_MAINT_CLEAN_INV, PKT + 64);
	assert_int_equal(c->maint_wb, 2);
	ua_core_data(&core, UA_COUNTED, PKT + 64, 4, 0);
	assert_int_equal(c->l1d_read_miss, 1); /* PKT + 64, the only read miss */
	/* A line the cache does not hold: counted, nothing done. */
	ua_core_maint(&core, UA_COUNTED, 1, UA_MAINT_INV, PKT + 4096);
	assert_int_equal(c->maint_l1, 5);
	assert_int_equal(c->maint_held, 4);
	ua_core_release(&core);
}

static void test_uarch_soc__invalidate_under_lru(void **state)
{
	struct ua_cache cache;
	struct ua_cache_geom g = { 1024, 4, 32, UA_LRU }; /* 8 sets, 256 B apart */
	uint64_t wa;
	int wb;

	(void)state;
	assert_int_equal(ua_cache_init(&cache, &g, err, sizeof(err)), 0);
	for (int i = 0; i < 4; i++)
		ua_cache_access(&cache, 0x1000 + 256u * i, 0, &wa, &wb);
	/* Drop the most recent line: the next fill takes its way, and the
	 * other three stay. */
	assert_int_equal(ua_cache_maint(&cache, 0x1000 + 256u * 3, UA_MAINT_INV), UA_HELD);
	assert_int_equal(ua_cache_maint(&cache, 0x1000 + 256u * 3, UA_MAINT_INV), 0);
	assert_int_equal(ua_cache_access(&cache, 0x1000 + 256u * 4, 0, &wa, &wb), 0);
	for (int i = 0; i < 3; i++)
		assert_int_equal(ua_cache_access(&cache, 0x1000 + 256u * i, 0, &wa, &wb), 1);
	/* The repeat shortcut forgets a dropped line. */
	assert_int_equal(ua_cache_maint(&cache, 0x1000 + 256u * 2, UA_MAINT_INV), UA_HELD);
	assert_int_equal(ua_cache_access(&cache, 0x1000 + 256u * 2, 0, &wa, &wb), 0);
	ua_cache_release(&cache);
}

static void test_uarch_soc__device_accesses(void **state)
{
	struct ua_core core;

	(void)state;
	mkcore(&core, "bcm47094", 1);
	ua_core_io(&core, UA_COUNTED, 0);
	ua_core_io(&core, UA_COUNTED, 1);
	ua_core_io(&core, UA_COUNTED, 1);
	ua_core_io(&core, UA_REST, 0);
	assert_int_equal(core.cnt[UA_COUNTED].io_read, 1);
	assert_int_equal(core.cnt[UA_COUNTED].io_write, 2);
	assert_int_equal(core.cnt[UA_REST].io_read, 1);
	/* Not cached: no D-cache lookup. */
	assert_int_equal(core.cnt[UA_COUNTED].l1d_read + core.cnt[UA_COUNTED].l1d_write, 0);
	ua_core_release(&core);
}

static void test_uarch_soc__fetch_groups(void **state)
{
	uint64_t split;
	struct ua_core core;

	(void)state;
	/* A 4-instruction loop (16 bytes), 16-byte fetch, 32-byte lines. */
	assert_int_equal(ua_fetch_groups(0x1010, 16, 16, 32, &split), 1);
	assert_int_equal(split, 0);
	assert_int_equal(ua_fetch_groups(0x1004, 16, 16, 32, &split), 1);
	assert_int_equal(split, 0);
	/* Straddling a line: 12 + 4 bytes, two groups where one would do. */
	assert_int_equal(ua_fetch_groups(0x1014, 16, 16, 32, &split), 2);
	assert_int_equal(split, 1);
	assert_int_equal(ua_fetch_groups(0x101c, 8, 16, 32, &split), 2);
	assert_int_equal(split, 1);
	/* 64 aligned bytes: four groups; from offset 8: 24 + 32 + 8. */
	assert_int_equal(ua_fetch_groups(0x1000, 64, 16, 32, &split), 4);
	assert_int_equal(split, 0);
	assert_int_equal(ua_fetch_groups(0x1008, 64, 16, 32, &split), 5);
	assert_int_equal(split, 1);
	assert_int_equal(ua_fetch_groups(0x1014, 16, 0, 32, &split), 0);
	assert_int_equal(split, 0);
	/* The core counts them per executed block. */
	mkcore(&core, "bcm47094", 1);
	for (int i = 0; i < 1000; i++)
		ua_core_fetch(&core, UA_COUNTED, 0x1014, 16, 4);
	assert_int_equal(core.cnt[UA_COUNTED].fetch_groups, 2000);
	assert_int_equal(core.cnt[UA_COUNTED].fetch_split, 1000);
	ua_core_release(&core);
	mkcore(&core, "cortex-a9", 0); /* no front end */
	ua_core_fetch(&core, UA_COUNTED, 0x1014, 16, 4);
	assert_int_equal(core.cnt[UA_COUNTED].fetch_groups, 0);
	ua_core_release(&core);
}

static void test_uarch_soc__decode(void **state)
{
	enum ua_maint_op op = 0;
	unsigned rt = 99;

	(void)state;
	/* mcrcc p15, 0, r0, c7, c6, 1 (DCIMVAC, v7_dma_inv_range's loop) */
	assert_int_equal(ua_decode_a32_maint(0x3e070f36u, &op, &rt), 3);
	assert_int_equal(op, UA_MAINT_INV);
	assert_int_equal(rt, 0);
	/* mcrne p15, 0, r0, c7, c14, 1 (DCCIMVAC) */
	assert_int_equal(ua_decode_a32_maint(0x1e070f3eu, &op, &rt), 1);
	assert_int_equal(op, UA_MAINT_CLEAN_INV);
	/* mcr p15, 0, r0, c7, c10, 1 (DCCMVAC); mcr p15, 0, r3, c7, c11, 1 */
	assert_int_equal(ua_decode_a32_maint(0xee070f3au, &op, &rt), 14);
	assert_int_equal(op, UA_MAINT_CLEAN);
	assert_int_equal(ua_decode_a32_maint(0xee073f3bu, &op, &rt), 14);
	assert_int_equal(rt, 3);
	/* ICIMVAU, an MRC, opc2 2: not data maintenance by address */
	assert_int_equal(ua_decode_a32_maint(0xee070f35u, &op, &rt), -1);
	assert_int_equal(ua_decode_a32_maint(0xee170f36u, &op, &rt), -1);
	assert_int_equal(ua_decode_a32_maint(0xee070f56u, &op, &rt), -1);
	/* Conditions: CC passes with C clear; NE with Z clear; GE, LE. */
	assert_true(ua_a32_cond(3, 0x0));
	assert_false(ua_a32_cond(3, 0x2));
	assert_true(ua_a32_cond(1, 0x0));
	assert_false(ua_a32_cond(1, 0x4));
	assert_true(ua_a32_cond(10, 0x9)); /* N and V set */
	assert_false(ua_a32_cond(10, 0x8));
	assert_true(ua_a32_cond(13, 0x4));
	assert_true(ua_a32_cond(14, 0xf));
	/* Word stores name their register; others are not. */
	assert_int_equal(ua_decode_a32_str(0xe5823770u, &rt), 1); /* str r3, [r2, #0x770] */
	assert_int_equal(rt, 3);
	assert_int_equal(ua_decode_a32_str(0xe5801000u, &rt), 1); /* str r1, [r0] */
	assert_int_equal(rt, 1);
	assert_int_equal(ua_decode_a32_str(0xe7823001u, &rt), 1); /* str r3, [r2, r1] */
	assert_int_equal(ua_decode_a32_str(0xe5225004u, &rt), 1); /* str r5, [r2, #-4]! */
	assert_int_equal(rt, 5);
	assert_int_equal(ua_decode_a32_str(0xe5c01000u, &rt), 0); /* strb */
	assert_int_equal(ua_decode_a32_str(0xe5901000u, &rt), 0); /* ldr */
	assert_int_equal(ua_decode_a32_str(0xe1c010b0u, &rt), 0); /* strh */
	assert_int_equal(ua_decode_a32_str(0xe8800006u, &rt), 0); /* stm */
	assert_int_equal(ua_decode_a32_str(0xe6510f92u, &rt), 0); /* uadd8 */
	/* The L2C-310's line operations by PA. */
	assert_int_equal(ua_l2c310_line_op(0x770), UA_MAINT_INV);
	assert_int_equal(ua_l2c310_line_op(0x7b0), UA_MAINT_CLEAN);
	assert_int_equal(ua_l2c310_line_op(0x7f0), UA_MAINT_CLEAN_INV);
	assert_int_equal(ua_l2c310_line_op(0x730), 0); /* cache sync */
	assert_int_equal(ua_l2c310_line_op(0x77c), 0); /* by way */
}

/* MIPS32 CACHE by address, as Linux's r4k_dma_cache_* and the 1004K's L2
 * (sc-mips.c) use them: D ops level 1, S ops level 2, the rest refused. */
static void test_uarch_soc__decode_mips_cache(void **state)
{
	enum ua_maint_op op = 0;
	unsigned base = 99;
	int32_t off = 99;

	(void)state;
	/* cache 0x15, 0(t0): Hit_Writeback_Inv_D */
	assert_int_equal(ua_decode_mips_cache(0xbd150000u, &op, &base, &off), 1);
	assert_int_equal(op, UA_MAINT_CLEAN_INV);
	assert_int_equal(base, 8);
	assert_int_equal(off, 0);
	/* cache 0x11, 64(t0): Hit_Invalidate_D */
	assert_int_equal(ua_decode_mips_cache(0xbd110040u, &op, &base, &off), 1);
	assert_int_equal(op, UA_MAINT_INV);
	assert_int_equal(off, 64);
	/* cache 0x13, -64(a0): Hit_Invalidate_SD */
	assert_int_equal(ua_decode_mips_cache(0xbc93ffc0u, &op, &base, &off), 2);
	assert_int_equal(op, UA_MAINT_INV);
	assert_int_equal(base, 4);
	assert_int_equal(off, -64);
	/* cache 0x1b, 32(t1): Hit_Writeback_SD; cache 0x19: Hit_Writeback_D */
	assert_int_equal(ua_decode_mips_cache(0xbd3b0020u, &op, &base, &off), 2);
	assert_int_equal(op, UA_MAINT_CLEAN);
	assert_int_equal(base, 9);
	assert_int_equal(ua_decode_mips_cache(0xbd190000u, &op, &base, &off), 1);
	assert_int_equal(op, UA_MAINT_CLEAN);
	/* Hit_Invalidate_I, Index_Writeback_Inv_D, Index_Store_Tag_SD, a
	 * tertiary op, a load word: not modelled */
	assert_int_equal(ua_decode_mips_cache(0xbd100000u, &op, &base, &off), -1);
	assert_int_equal(ua_decode_mips_cache(0xbd010000u, &op, &base, &off), -1);
	assert_int_equal(ua_decode_mips_cache(0xbd0b0000u, &op, &base, &off), -1);
	assert_int_equal(ua_decode_mips_cache(0xbd120000u, &op, &base, &off), -1);
	assert_int_equal(ua_decode_mips_cache(0x8d150000u, &op, &base, &off), -1);
}

/* The window marks: the A32 hints and the MIPS shifts to $0, each only in
 * its own ISA, and their neighbours not. */
static void test_uarch_soc__decode_mark(void **state)
{
	(void)state;
	assert_int_equal(ua_decode_mark(0xe320f0f1u, 0), 1); /* dbg #1 */
	assert_int_equal(ua_decode_mark(0xe320f0f2u, 0), 2); /* dbg #2 */
	assert_int_equal(ua_decode_mark(0xe320f0f0u, 0), 0); /* dbg #0 */
	assert_int_equal(ua_decode_mark(0xe320f0f3u, 0), 0);
	assert_int_equal(ua_decode_mark(0x00000440u, 1), 1); /* sll $0,$0,17 */
	assert_int_equal(ua_decode_mark(0x00000480u, 1), 2); /* sll $0,$0,18 */
	assert_int_equal(ua_decode_mark(0x000000c0u, 1), 0); /* ehb */
	assert_int_equal(ua_decode_mark(0x00000140u, 1), 0); /* pause */
	assert_int_equal(ua_decode_mark(0x00000000u, 1), 0); /* nop */
	assert_int_equal(ua_decode_mark(0x000004c0u, 1), 0); /* sll $0,$0,19 */
	assert_int_equal(ua_decode_mark(0x00000440u, 0), 0);
	assert_int_equal(ua_decode_mark(0xe320f0f1u, 1), 0);
}

static void test_uarch_soc__config(void **state)
{
	struct ua_config c, d;
	char m[512], m2[512];

	(void)state;
	assert_int_equal(ua_config_preset(&c, "bcm47094", err, sizeof(err)), 0);
	ua_config_machine(&c, m, sizeof(m));
	assert_string_equal(m, "l1i=32768:4:32:random,l1d=32768:4:32:random,"
			       "l2=524288:16:32:rr,dir=gshare:4096:10,btb=512:2,ras=8,"
			       "indirect=btb,writeback=on,maint=on,fetch=16");
	assert_true(c.io_read == 60 && c.io_write == 19 && c.fetch_split == 1 && c.taken == 1);
	/* The same core as cortex-a9, whose string is what it always was. */
	assert_int_equal(ua_config_preset(&d, "cortex-a9", err, sizeof(err)), 0);
	ua_config_machine(&d, m2, sizeof(m2));
	assert_int_equal(strncmp(m, m2, strlen(m2)), 0);
	assert_null(strstr(m2, "maint"));
	assert_null(strstr(m2, "fetch"));
	/* mt7621: the 1004k core and its string, with maint on and the SoC's
	 * device costs. */
	{
		struct ua_config mt, core;
		char m3[512], m4[512];

		assert_int_equal(ua_config_preset(&mt, "mt7621", err, sizeof(err)), 0);
		assert_int_equal(ua_config_preset(&core, "1004k", err, sizeof(err)), 0);
		ua_config_machine(&mt, m3, sizeof(m3));
		ua_config_machine(&core, m4, sizeof(m4));
		assert_int_equal(strncmp(m3, m4, strlen(m4)), 0);
		assert_string_equal(m3 + strlen(m4), ",maint=on");
		assert_true(mt.io_read == 100 && mt.io_write == 10 && mt.fetch == 0 &&
			    mt.taken == core.taken);
		assert_string_equal(mt.preset, "mt7621");
	}
	/* Keys read back. */
	assert_int_equal(ua_config_set(&d, "maint", "on", err, sizeof(err)), 0);
	assert_int_equal(ua_config_set(&d, "fetch", "16", err, sizeof(err)), 0);
	ua_config_machine(&d, m2, sizeof(m2));
	assert_string_equal(m, m2);
	assert_int_equal(ua_config_set(&d, "fetch", "none", err, sizeof(err)), 0);
	assert_int_equal(d.fetch, 0);
	assert_int_equal(ua_config_set(&d, "io_read", "75", err, sizeof(err)), 0);
	assert_true(d.io_read == 75);
	/* Refused: not a power of two, wider than the line, not on/off. */
	assert_int_equal(ua_config_set(&d, "fetch", "12", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "power of two"));
	assert_int_equal(ua_config_set(&d, "fetch", "64", err, sizeof(err)), 0);
	assert_int_equal(ua_config_check(&d, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "I line"));
	assert_int_equal(ua_config_set(&d, "maint", "yes", err, sizeof(err)), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_uarch_soc__invalidate_makes_reads_miss),
		cmocka_unit_test(test_uarch_soc__clean_and_invalidate),
		cmocka_unit_test(test_uarch_soc__invalidate_under_lru),
		cmocka_unit_test(test_uarch_soc__device_accesses),
		cmocka_unit_test(test_uarch_soc__fetch_groups),
		cmocka_unit_test(test_uarch_soc__decode),
		cmocka_unit_test(test_uarch_soc__decode_mips_cache),
		cmocka_unit_test(test_uarch_soc__decode_mark),
		cmocka_unit_test(test_uarch_soc__config),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
