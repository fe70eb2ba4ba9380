/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for the uarch model (caches, branch predictor, decoders,
 * configuration) on synthetic address and branch streams whose answers
 * are known by hand.
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

/* 1 KB, 4-way, 32-byte lines: 8 sets; lines 8 * 32 = 256 bytes apart share
 * a set. */
#define SET_STRIDE 256

static struct ua_cache mkcache(enum ua_policy p)
{
	struct ua_cache c;
	struct ua_cache_geom g = { 1024, 4, 32, p };

	assert_int_equal(ua_cache_init(&c, &g, err, sizeof(err)), 0);
	assert_int_equal(c.sets, 8);
	return c;
}

/* Returns 1 on a hit. */
static int acc(struct ua_cache *c, uint64_t a)
{
	uint64_t wa;
	int wb;

	return ua_cache_access(c, a, 0, &wa, &wb);
}

static void test_uarch__lru_cycles(void **state)
{
	struct ua_cache c = mkcache(UA_LRU);
	int hits = 0;

	(void)state;
	/* Four lines of one set cycle: after the first round, all hit. */
	for (int r = 0; r < 10; r++)
		for (int i = 0; i < 4; i++)
			hits += acc(&c, 0x1000 + (uint64_t)i * SET_STRIDE);
	assert_int_equal(hits, 36);
	/* Five lines in four ways under LRU: every access misses. */
	ua_cache_flush(&c);
	hits = 0;
	for (int r = 0; r < 10; r++)
		for (int i = 0; i < 5; i++)
			hits += acc(&c, 0x1000 + (uint64_t)i * SET_STRIDE);
	assert_int_equal(hits, 0);
	/* Bytes of one line share it; the next line is another. */
	ua_cache_flush(&c);
	assert_int_equal(acc(&c, 0x2000), 0);
	assert_int_equal(acc(&c, 0x201f), 1);
	assert_int_equal(acc(&c, 0x2020), 0);
	ua_cache_release(&c);
}

static void test_uarch__lru_versus_round_robin(void **state)
{
	struct ua_cache lru = mkcache(UA_LRU), rr = mkcache(UA_RR);
	const uint64_t A = 0x0, B = SET_STRIDE, C = 2 * SET_STRIDE, D = 3 * SET_STRIDE,
		       E = 4 * SET_STRIDE;
	const uint64_t seq[] = { A, B, C, D, A, E };

	(void)state;
	for (size_t i = 0; i < 6; i++) {
		acc(&lru, seq[i]);
		acc(&rr, seq[i]);
	}
	/* LRU evicted B (A was used again); round-robin evicted A, the way
	 * filled first. */
	assert_int_equal(acc(&lru, A), 1);
	assert_int_equal(acc(&lru, B), 0);
	ua_cache_flush(&rr);
	for (size_t i = 0; i < 6; i++)
		acc(&rr, seq[i]);
	assert_int_equal(acc(&rr, B), 1);
	assert_int_equal(acc(&rr, A), 0);
	ua_cache_release(&lru);
	ua_cache_release(&rr);
}

static void test_uarch__random_is_repeatable(void **state)
{
	struct ua_cache a = mkcache(UA_RANDOM), b = mkcache(UA_RANDOM);
	int ha = 0, hb = 0, differ = 0;

	(void)state;
	/* Five lines cycling in four ways: random replacement keeps some of
	 * them (LRU keeps none), and the same stream gives the same hits. */
	for (int r = 0; r < 200; r++) {
		for (int i = 0; i < 5; i++) {
			int x = acc(&a, (uint64_t)i * SET_STRIDE), y = acc(&b, (uint64_t)i * SET_STRIDE);

			ha += x;
			hb += y;
			differ += x != y;
		}
	}
	assert_int_equal(differ, 0);
	assert_int_equal(ha, hb);
	assert_true(ha > 200 && ha < 1000);
	/* After a flush it starts over identically. */
	ua_cache_flush(&a);
	hb = 0;
	for (int r = 0; r < 200; r++)
		for (int i = 0; i < 5; i++)
			hb += acc(&a, (uint64_t)i * SET_STRIDE);
	assert_int_equal(hb, ha);
	ua_cache_release(&a);
	ua_cache_release(&b);
}

static void test_uarch__writeback(void **state)
{
	struct ua_cache c = mkcache(UA_LRU);
	uint64_t wa = 0;
	int wb;

	(void)state;
	assert_int_equal(ua_cache_access(&c, 0x4010, 1, &wa, &wb), 0); /* write-allocate */
	assert_int_equal(wb, 0);
	assert_int_equal(ua_cache_access(&c, 0x4004, 0, &wa, &wb), 1);
	for (int i = 1; i <= 3; i++) {
		ua_cache_access(&c, 0x4000 + (uint64_t)i * SET_STRIDE, 0, &wa, &wb);
		assert_int_equal(wb, 0);
	}
	/* The fifth line evicts the dirty one (least recently used). */
	ua_cache_access(&c, 0x4000 + 4 * SET_STRIDE, 0, &wa, &wb);
	assert_int_equal(wb, 1);
	assert_int_equal(wa, 0x4000);
	/* A clean eviction reports nothing. */
	ua_cache_access(&c, 0x4000 + 5 * SET_STRIDE, 0, &wa, &wb);
	assert_int_equal(wb, 0);
	ua_cache_release(&c);
}

static void test_uarch__bad_geometry(void **state)
{
	struct ua_cache c;
	struct ua_cache_geom g1 = { 1000, 4, 32, UA_LRU }, g2 = { 1024, 4, 24, UA_LRU },
			     g3 = { 3 * 1024, 4, 32, UA_LRU };

	(void)state;
	assert_int_equal(ua_cache_init(&c, &g1, err, sizeof(err)), -1);
	assert_int_equal(ua_cache_init(&c, &g2, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "power of two"));
	assert_int_equal(ua_cache_init(&c, &g3, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "sets"));
}

/* A core with tiny known caches for fetch and data accounting. */
static void mkcore(struct ua_core *core, const char *preset)
{
	struct ua_config c;

	assert_int_equal(ua_config_preset(&c, preset, err, sizeof(err)), 0);
	assert_int_equal(ua_core_init(core, &c, err, sizeof(err)), 0);
}

static void test_uarch__core_fetch_and_data(void **state)
{
	struct ua_core core;
	struct ua_counters *c = &core.cnt[UA_COUNTED];

	(void)state;
	mkcore(&core, "cachegrind");
	/* A 48-byte block at 0x1018 spans lines 0x1000, 0x1020, 0x1040. */
	ua_core_fetch(&core, UA_COUNTED, 0x1018, 48, 10);
	assert_int_equal(c->insns, 10);
	assert_int_equal(c->l1i_access, 3);
	assert_int_equal(c->l1i_miss, 3);
	assert_int_equal(c->l2i_miss, 3);
	ua_core_fetch(&core, UA_COUNTED, 0x1018, 48, 10);
	assert_int_equal(c->l1i_miss, 3);
	assert_int_equal(c->blocks, 2);
	/* Ending on a line's last byte stays in it. */
	ua_core_fetch(&core, UA_COUNTED, 0x2018, 40, 10);
	assert_int_equal(c->l1i_access, 8);
	/* A 4-byte load across a line boundary looks up two lines. */
	ua_core_data(&core, UA_COUNTED, 0x801e, 4, 0);
	assert_int_equal(c->l1d_read, 2);
	assert_int_equal(c->l1d_read_miss, 2);
	ua_core_data(&core, UA_REST, 0x8000, 4, 1);
	assert_int_equal(core.cnt[UA_REST].l1d_write, 1);
	assert_int_equal(core.cnt[UA_REST].l1d_write_miss, 0);
	/* The region counters stay apart; a reset keeps the caches warm. */
	ua_core_reset_counters(&core);
	ua_core_fetch(&core, UA_COUNTED, 0x1018, 48, 10);
	assert_int_equal(c->l1i_miss, 0);
	assert_int_equal(c->insns, 10);
	ua_core_release(&core);
}

/* ---- branches ---- */

static struct ua_branch br(unsigned kind, uint64_t pc, uint64_t target)
{
	struct ua_branch b = { kind | UA_BR_BRANCH, pc, target, pc + 4, pc + 4 };

	return b;
}

static void test_uarch__bimodal_learns_a_bias(void **state)
{
	struct ua_core core;
	struct ua_counters *c = &core.cnt[UA_COUNTED];
	struct ua_branch b = br(UA_BR_COND | UA_BR_DIRECT, 0x400, 0x100);

	(void)state;
	mkcore(&core, "1004k");
	/* Counters start weakly not taken: one miss, then taken is learnt. */
	for (int i = 0; i < 100; i++)
		ua_bpred_resolve(&core.bp, &b, 0x100, c);
	assert_int_equal(c->branches, 100);
	assert_int_equal(c->cond_taken, 100);
	assert_int_equal(c->mp_direction, 1);
	/* Alternating outcomes defeat a bimodal counter half the time... */
	memset(c, 0, sizeof(*c));
	for (int i = 0; i < 100; i++)
		ua_bpred_resolve(&core.bp, &b, i % 2 ? 0x100 : b.fallthrough, c);
	assert_true(c->mp_direction >= 49);
	ua_core_release(&core);
}

static void test_uarch__gshare_learns_a_pattern(void **state)
{
	struct ua_config cfg;
	struct ua_core core;
	struct ua_counters *c = &core.cnt[UA_COUNTED];
	struct ua_branch b = br(UA_BR_COND | UA_BR_DIRECT, 0x400, 0x100);

	(void)state;
	/* ...and a history of its own outcomes predicts them all (no BTB,
	 * so only the direction can be wrong). */
	assert_int_equal(ua_config_preset(&cfg, "cortex-a9", err, sizeof(err)), 0);
	assert_int_equal(ua_config_set(&cfg, "btb", "none", err, sizeof(err)), 0);
	assert_int_equal(ua_core_init(&core, &cfg, err, sizeof(err)), 0);
	for (int i = 0; i < 1000; i++)
		ua_bpred_resolve(&core.bp, &b, i % 2 ? 0x100 : b.fallthrough, c);
	assert_true(c->mp_direction <= 20);
	memset(c, 0, sizeof(*c));
	for (int i = 0; i < 1000; i++)
		ua_bpred_resolve(&core.bp, &b, i % 2 ? 0x100 : b.fallthrough, c);
	assert_int_equal(c->mp_direction, 0);
	ua_core_release(&core);
}

static void test_uarch__btb(void **state)
{
	struct ua_core core;
	struct ua_counters *c = &core.cnt[UA_COUNTED];
	/* The A9's BTAC: 256 sets of 2 ways, indexed by word address: pcs
	 * 1 KB apart share a set. */
	struct ua_branch b1 = br(UA_BR_DIRECT, 0x10000, 0x20000),
			 b2 = br(UA_BR_DIRECT, 0x10400, 0x20000),
			 b3 = br(UA_BR_DIRECT, 0x10800, 0x20000);

	(void)state;
	mkcore(&core, "cortex-a9");
	/* An unconditional branch misses the BTB once, then hits. */
	for (int i = 0; i < 10; i++)
		ua_bpred_resolve(&core.bp, &b1, 0x20000, c);
	assert_int_equal(c->mp_btb, 1);
	assert_int_equal(c->taken, 10);
	/* Two branches of one set fit its two ways... */
	memset(c, 0, sizeof(*c));
	for (int i = 0; i < 10; i++) {
		ua_bpred_resolve(&core.bp, &b1, 0x20000, c);
		ua_bpred_resolve(&core.bp, &b2, 0x20000, c);
	}
	assert_int_equal(c->mp_btb, 1);
	/* ...three evict each other every time (LRU), once b1 and b2, which
	 * the set held, are gone. */
	memset(c, 0, sizeof(*c));
	for (int i = 0; i < 10; i++) {
		ua_bpred_resolve(&core.bp, &b1, 0x20000, c);
		ua_bpred_resolve(&core.bp, &b2, 0x20000, c);
		ua_bpred_resolve(&core.bp, &b3, 0x20000, c);
	}
	assert_int_equal(c->mp_btb, 28);
	/* An indirect jump whose target changes: the BTB holds the last one. */
	memset(c, 0, sizeof(*c));
	struct ua_branch ind = br(0, 0x30000, 0);
	for (int i = 0; i < 10; i++)
		ua_bpred_resolve(&core.bp, &ind, i < 5 ? 0x40000 : 0x50000, c);
	assert_int_equal(c->indirect, 10);
	assert_int_equal(c->mp_btb, 1);
	assert_int_equal(c->mp_target, 1);
	ua_core_release(&core);
}

static void test_uarch__return_stack(void **state)
{
	struct ua_core core;
	struct ua_counters *c = &core.cnt[UA_COUNTED];

	(void)state;
	mkcore(&core, "cortex-a9"); /* 8 entries */
	/* Ten nested calls, then ten returns: the 8 innermost are predicted,
	 * the outer two were overwritten. */
	for (uint64_t d = 0; d < 10; d++) {
		struct ua_branch call = br(UA_BR_DIRECT | UA_BR_CALL, 0x1000 + d * 0x100, 0x9000);

		ua_bpred_resolve(&core.bp, &call, 0x9000, c);
	}
	for (uint64_t d = 10; d-- > 0;) {
		struct ua_branch ret = br(UA_BR_RETURN, 0x9100, 0);

		ua_bpred_resolve(&core.bp, &ret, 0x1000 + d * 0x100 + 4, c);
	}
	assert_int_equal(c->calls, 10);
	assert_int_equal(c->returns, 10);
	assert_int_equal(c->mp_return, 2);
	ua_core_release(&core);
}

static void test_uarch__no_btb(void **state)
{
	struct ua_core core;
	struct ua_counters *c = &core.cnt[UA_COUNTED];
	struct ua_branch j = br(UA_BR_DIRECT, 0x400, 0x800), jr = br(0, 0x500, 0);

	(void)state;
	mkcore(&core, "1004k"); /* no BTB, indirect jumps unpredicted */
	for (int i = 0; i < 10; i++) {
		ua_bpred_resolve(&core.bp, &j, 0x800, c);
		ua_bpred_resolve(&core.bp, &jr, 0x900, c);
	}
	assert_int_equal(c->mp_btb, 0);
	assert_int_equal(c->mp_direction, 0);
	assert_int_equal(c->mp_target, 10);
	ua_core_release(&core);
}

static void test_uarch__async(void **state)
{
	struct ua_core core;
	struct ua_counters *c = &core.cnt[UA_COUNTED];
	struct ua_branch b = br(UA_BR_DIRECT | UA_BR_COND, 0x400, 0x800);

	(void)state;
	mkcore(&core, "cortex-a9");
	/* Neither target nor fallthrough: an interrupt, not a branch outcome. */
	ua_bpred_resolve(&core.bp, &b, 0xffff0018, c);
	assert_int_equal(c->async, 1);
	assert_int_equal(c->branches, 0);
	ua_core_release(&core);
}

/* ---- decoders ---- */

struct dcase {
	uint32_t insn;
	unsigned kind;
	uint64_t target; /* checked when DIRECT */
};

/* Decodes every case at pc: its kind, its target when direct, and the
 * fallthrough and link a branch of the ISA has (pc + step). */
static void check_decoder(void (*decode)(struct ua_branch *, uint32_t, uint64_t),
			  const struct dcase *cases, size_t n, uint64_t pc, uint64_t step)
{
	for (size_t i = 0; i < n; i++) {
		struct ua_branch b;

		decode(&b, cases[i].insn, pc);
		if (b.kind != cases[i].kind)
			fail_msg("0x%08x: kind %u, expected %u", cases[i].insn, b.kind,
				 cases[i].kind);
		if ((b.kind & UA_BR_DIRECT) && b.target != cases[i].target)
			fail_msg("0x%08x: target 0x%llx, expected 0x%llx", cases[i].insn,
				 (unsigned long long)b.target, (unsigned long long)cases[i].target);
		assert_int_equal(b.fallthrough, pc + step);
		assert_int_equal(b.link, pc + step);
	}
}

static void test_uarch__decode_a32(void **state)
{
	const uint64_t pc = 0x10000;
	const unsigned B = UA_BR_BRANCH, D = UA_BR_DIRECT, C = UA_BR_COND, L = UA_BR_CALL,
		       R = UA_BR_RETURN;
	const struct dcase cases[] = {
		{ 0xEA000002, B | D, pc + 16 },          /* b pc+16 */
		{ 0xEBFFFFFE, B | D | L, pc },           /* bl . */
		{ 0x0A000000, B | D | C, pc + 8 },       /* beq */
		{ 0x1AFFFFFD, B | D | C, pc - 4 },       /* bne backwards */
		{ 0xFA000000, B | D | L, pc + 8 },       /* blx to Thumb */
		{ 0xFB000000, B | D | L, pc + 10 },      /* blx, H set */
		{ 0xE12FFF1E, B | R, 0 },                /* bx lr */
		{ 0x012FFF1E, B | R | C, 0 },            /* bxeq lr */
		{ 0xE12FFF13, B, 0 },                    /* bx r3 */
		{ 0xE12FFF33, B | L, 0 },                /* blx r3 */
		{ 0xE8BD8010, B | R, 0 },                /* pop {r4, pc} */
		{ 0xE49DF004, B | R, 0 },                /* ldr pc, [sp], #4 */
		{ 0xE79FF103, B, 0 },                    /* ldr pc, [pc, r3, lsl #2] */
		{ 0xE593F000, B, 0 },                    /* ldr pc, [r3] */
		{ 0xE1A0F00E, B | R, 0 },                /* mov pc, lr */
		{ 0xE08FF103, B, 0 },                    /* add pc, pc, r3, lsl #2 */
		{ 0xE1B0F00E, UA_BR_NOPRED, 0 },         /* movs pc, lr */
		{ 0xE8FD8000, UA_BR_NOPRED, 0 },         /* ldm sp!, {pc}^ */
		{ 0xE0000291, 0, 0 },                    /* mul r0, r1, r2 */
		{ 0xE3500001, 0, 0 },                    /* cmp r0, #1 */
		{ 0xE5910000, 0, 0 },                    /* ldr r0, [r1] */
		{ 0xE8BD4010, 0, 0 },                    /* pop {r4, lr} */
		{ 0xEF000000, 0, 0 },                    /* svc 0 */
		{ 0xE1A0000F, 0, 0 },                    /* mov r0, pc */
	};

	(void)state;
	check_decoder(ua_decode_a32, cases, sizeof(cases) / sizeof(cases[0]), pc, 4);
}

static void test_uarch__decode_mips(void **state)
{
	const uint64_t pc = 0x400100;
	const unsigned B = UA_BR_BRANCH, D = UA_BR_DIRECT, C = UA_BR_COND, L = UA_BR_CALL,
		       R = UA_BR_RETURN;
	const struct dcase cases[] = {
		{ 0x03E00008, B | R, 0 },                /* jr ra */
		{ 0x03200008, B, 0 },                    /* jr t9 */
		{ 0x0320F809, B | L, 0 },                /* jalr t9 */
		{ 0x10850004, B | D | C, pc + 20 },      /* beq a0, a1, +4 */
		{ 0x1000FFFF, B | D, pc },               /* b . */
		{ 0x14A0FFFE, B | D | C, pc - 4 },       /* bne a1, zero, -2 */
		{ 0x04110002, B | D | L, pc + 12 },      /* bal */
		{ 0x04910002, B | D | C | L, pc + 12 },  /* bgezal a0 */
		{ 0x04800001, B | D | C, pc + 8 },       /* bltz a0 */
		{ 0x54850001, B | D | C, pc + 8 },       /* bnel a0, a1 */
		{ 0x08100000, B | D, 0x400000 },         /* j 0x400000 */
		{ 0x0C100040, B | D | L, 0x400100 },     /* jal 0x400100 */
		{ 0x42000018, UA_BR_NOPRED, 0 },         /* eret */
		{ 0x00000000, 0, 0 },                    /* nop */
		{ 0x27BDFFE0, 0, 0 },                    /* addiu sp, sp, -32 */
		{ 0x8C820000, 0, 0 },                    /* lw v0, 0(a0) */
	};

	(void)state;
	check_decoder(ua_decode_mips, cases, sizeof(cases) / sizeof(cases[0]), pc, 8);
}

/* ---- configuration ---- */

static void test_uarch__config(void **state)
{
	struct ua_config c, d;
	char m[512], m2[512];

	(void)state;
	assert_int_equal(ua_config_preset(&c, "cortex-a9", err, sizeof(err)), 0);
	ua_config_machine(&c, m, sizeof(m));
	assert_string_equal(m, "l1i=32768:4:32:random,l1d=32768:4:32:random,"
			       "l2=524288:16:32:rr,dir=gshare:4096:10,btb=512:2,ras=8,"
			       "indirect=btb,writeback=on");
	assert_true(c.clock_mhz == 1400 && c.mispredict == 8);
	assert_int_equal(ua_config_preset(&c, "1004k", err, sizeof(err)), 0);
	ua_config_machine(&c, m, sizeof(m));
	assert_string_equal(m, "l1i=32768:4:32:lru,l1d=32768:4:32:lru,l2=262144:8:32:lru,"
			       "dir=bimodal:512,btb=none,ras=4,indirect=none,writeback=on");
	/* The machine string reads back to the same machine. */
	assert_int_equal(ua_config_preset(&d, "cachegrind", err, sizeof(err)), 0);
	{
		char buf[512], *p = buf, *tok;

		snprintf(buf, sizeof(buf), "%s", m);
		while ((tok = strsep(&p, ","))) {
			char *eq = strchr(tok, '=');

			*eq = '\0';
			assert_int_equal(ua_config_set(&d, tok, eq + 1, err, sizeof(err)), 0);
		}
	}
	ua_config_machine(&d, m2, sizeof(m2));
	assert_string_equal(m, m2);
	/* Keys and their errors. */
	assert_int_equal(ua_config_set(&c, "l1i", "16384:2:64:rr", err, sizeof(err)), 0);
	assert_int_equal(c.l1i.size, 16384);
	assert_int_equal(c.l1i.policy, UA_RR);
	assert_int_equal(ua_config_set(&c, "l2", "none", err, sizeof(err)), 0);
	assert_int_equal(c.has_l2, 0);
	assert_int_equal(ua_config_set(&c, "mispredict", "13.5", err, sizeof(err)), 0);
	assert_true(c.mispredict == 13.5);
	assert_int_equal(ua_config_set(&c, "l1i", "16384:2", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "SIZE:WAYS:LINE"));
	assert_int_equal(ua_config_set(&c, "l1d", "32768:4:32:fifo", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "fifo"));
	assert_int_equal(ua_config_set(&c, "dir", "gshare:4096:13", err, sizeof(err)), -1);
	assert_int_equal(ua_config_set(&c, "dir", "bimodal:1000", err, sizeof(err)), -1);
	assert_int_equal(ua_config_set(&c, "btb", "500:2", err, sizeof(err)), -1);
	assert_int_equal(ua_config_set(&c, "clock_mhz", "0", err, sizeof(err)), -1);
	assert_int_equal(ua_config_set(&c, "taken", "-1", err, sizeof(err)), -1);
	assert_int_equal(ua_config_set(&c, "writeback", "yes", err, sizeof(err)), -1);
	assert_int_equal(ua_config_set(&c, "l3", "1", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "unknown key 'l3'"));
	assert_int_equal(ua_config_preset(&c, "cortex-a15", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "cortex-a9"));
}

static void test_uarch__report(void **state)
{
	struct ua_core core;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	mkcore(&core, "1004k");
	core.cnt[UA_COUNTED].insns = 1234;
	core.cnt[UA_REST].mp_btb = 7;
	assert_int_equal(ua_report_write(f, &core, "mipsel"), 0);
	fclose(f);
	assert_non_null(strstr(buf, "uarch-report 1\narch mipsel\nconfig l1i=32768:4:32:lru,"));
	assert_non_null(strstr(buf, "region counted\ninsns 1234\n"));
	assert_non_null(strstr(buf, "region rest\n"));
	assert_non_null(strstr(buf, "mp_btb 7\n"));
	assert_non_null(strstr(buf, "\nend\n"));
	free(buf);
	ua_core_release(&core);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_uarch__lru_cycles),
		cmocka_unit_test(test_uarch__lru_versus_round_robin),
		cmocka_unit_test(test_uarch__random_is_repeatable),
		cmocka_unit_test(test_uarch__writeback),
		cmocka_unit_test(test_uarch__bad_geometry),
		cmocka_unit_test(test_uarch__core_fetch_and_data),
		cmocka_unit_test(test_uarch__bimodal_learns_a_bias),
		cmocka_unit_test(test_uarch__gshare_learns_a_pattern),
		cmocka_unit_test(test_uarch__btb),
		cmocka_unit_test(test_uarch__return_stack),
		cmocka_unit_test(test_uarch__no_btb),
		cmocka_unit_test(test_uarch__async),
		cmocka_unit_test(test_uarch__decode_a32),
		cmocka_unit_test(test_uarch__decode_mips),
		cmocka_unit_test(test_uarch__config),
		cmocka_unit_test(test_uarch__report),
	};

	return cmocka_run_group_tests_name("uarch", tests, NULL, NULL);
}
