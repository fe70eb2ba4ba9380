/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * uarch_config: the presets and the key=value syntax of a uarch model
 * (tuner/uarch/uarch.h).
 *
 * Every preset number is defended below from published documentation;
 * where nothing is published it says ASSUMPTION and what it rests on.
 * These are the model's inputs, chosen before any result was seen, and
 * never fitted to the seeds' figures (../shared/seeds).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "uarch.h"
#include "uarch_priv.h"

/*
 * cortex-a9: the Broadcom BCM47094 (Northstar), dual Cortex-A9 at 1.4 GHz
 * with an ARM L2C-310 (PL310) L2. Sources:
 *   [TRM]  ARM Cortex-A9 Technical Reference Manual, DDI 0388G (r3p0;
 *          a BCM4709 boots as "ARMv7 Processor [413fc090]", r3p0) and
 *          DDI 0388I for 7.1.1:
 *          7.1.1 "Both caches are 4-way set-associative", "a fixed line
 *          length of 32 bytes", sizes 16, 32 or 64 KB; "Instruction cache
 *          replacement policy is either pseudo round-robin or pseudo
 *          random" (SCTLR.RR selects; a BCM4709's Linux boot log shows
 *          cr=10c5387d, RR = bit 14 clear: random); "Data cache
 *          replacement policy is pseudo random".
 *          7.3 "a 2-way BTAC of 512 entries", "a Global History Buffer
 *          (GHB) containing 4096 2-bit predictors", "a return stack with
 *          eight 32-bit entries"; 7.3.2: conditional, unconditional and
 *          indirect branches are predicted.
 *          7.4.3: Linux maps memory write-back write-allocate ("Memory
 *          policy: Data cache writealloc" in the same boot log).
 *   32 KB L1s and a 512 KB L2 are the BCM47094's (Broadcom publishes no
 *   datasheet; the figures). PL310: 32-byte lines (fixed by the
 *   L2C-310 TRM, DDI 0246); round-robin replacement, which Broadcom's own
 *   kernel sets (AUX_CTRL bit 25, "Cache replacement policy - round
 *   robin", bcm5301x.c of its 2.6.36 tree). 16 ways is an ASSUMPTION: no
 *   Northstar log gives the count; a 512 KB PL310 in another Broadcom
 *   dual-A9 SoC (BCM63138) reports "16 ways, 512 kB".
 *   The GHB's index function is not published. ASSUMPTION: gshare over
 *   the 4096 counters with 10 bits of global history, the history length
 *   the Cortex-A8 TRM (DDI 0344) gives for its own 4096-entry GHB.
 *   A BTAC miss predicts "not taken": the A8 TRM's statement ("An
 *   unpredicted branch executes in the same way as a branch that is
 *   predicted as not taken"), assumed for the A9. Indirect targets come
 *   from the BTAC (the A9 TRM says they are predicted, not how).
 * Penalties (cycles at 1.4 GHz):
 *   insn 1: one cycle per instruction. The A9 issues up to two per cycle
 *     (LLVM's and GCC's A9 models), kernel code rarely sustains it: an
 *     ASSUMPTION kept from the cachegrind model.
 *   l1i_miss 19: an L2 hit costs 23 cycles against an L1 hit's 4 on a
 *     Cortex-A9 with a PL310 (7-cpu.com, Exynos 4210, dependent loads);
 *     a fetch miss stalls the front end for the whole of it.
 *   l1d_miss 12: data misses are partly hidden (out-of-order issue,
 *     hit-under-miss, 4 outstanding misses, a merging store buffer; TRM
 *     7.1): the effective cost the cachegrind model assumed.
 *   l2_miss 100: DRAM, on top; 7-cpu gives 110 ns more (154 cycles) for
 *     a dependent load; 100 is the effective figure the cachegrind model
 *     assumed (its study.h comment says why).
 *   taken 0: no bubble for a BTAC hit (the prefetch unit fetches up to
 *     four instructions per cycle into a queue, TRM 7.3): ASSUMPTION.
 *   mispredict 8: LLVM's Cortex-A9 model ("MispredictPenalty = 8; Based
 *     on estimate of pipeline depth"): an estimate; ARM publishes none.
 *
 * 1004k: the MediaTek MT7621, MIPS 1004Kc (2 cores x 2 threads) at
 * 880 MHz. Sources:
 *   Linux's boot log on MT7621 boards (OpenWrt issue 10589): "Primary
 *   instruction cache 32kB, VIPT, 4-way, linesize 32 bytes", "Primary
 *   data cache 32kB, 4-way, PIPT", "MIPS secondary cache 256kB, 8-way,
 *   linesize 32 bytes"; U-Boot: "The CPU freq = 880 MHZ".
 *   LRU replacement in the L1s, and in the L2: ASSUMPTION (the MIPS
 *   24K/34K/1004K software user's manuals describe LRU bits in the way-
 *   select RAM; not checked against the PDFs here; the L2's is unknown).
 *   Branches: a 512-entry bimodal history table, a 4-entry return
 *   prediction stack (whose existence Linux's mips-mt.c shows: "34K return
 *   prediction stack override"), no BTB (targets are computed from the
 *   instruction in the fetch pipeline), JR other than r31 not predicted:
 *   ASSUMPTIONS from the 24K family's manuals, not verified here.
 * Penalties (cycles at 880 MHz):
 *   insn 1: a single-issue core (GCC's 24k.md, which -mtune=1004kc uses:
 *     "The 24K is a single-issue processor").
 *   l1i_miss 25, l1d_miss 25: an L2 hit through the coherence manager,
 *     ASSUMPTION (nothing published; an in-order core hides little).
 *   l2_miss 100: DDR3, ASSUMPTION (about 110 ns at 880 MHz).
 *   taken 0: the delay slot covers the redirect: ASSUMPTION.
 *   mispredict 5: ASSUMPTION from the nine-stage pipeline (MIPS's 1004K
 *     announcement) with branches resolved in execute.
 *
 * bcm47094: the cortex-a9 preset's core (caches, predictors, penalties as
 * above) with what a kernel on the SoC runs into besides, for the kernel
 * router (targets/qemu-linux/model.sh); the cortex-a9 preset stays as it
 * was, so the natbench figures measured with it keep their meaning.
 *   maint on: the kernel's cache maintenance by address acts on the
 *     modelled caches. The DMA API's streaming maintenance on a
 *     non-coherent device (v7_dma_inv_range / _clean_range: MCR c7 by MVA
 *     to the L1 D; l2c210_inv_range / _clean_range: the L2C-310's line
 *     operations by PA, written to its registers) invalidates or cleans
 *     lines, so a packet buffer the NIC wrote misses when the CPU reads it.
 *   fetch 16: the prefetch unit fetches up to four A32 instructions per
 *     cycle (the figure given for taken 0 above, TRM 7.3; not re-read in
 *     the TRM for this preset). ASSUMPTION: a group starts at a block's
 *     first byte (a branch target) and stops at a 32-byte line's end, so
 *     a loop that straddles a line needs one more group per iteration.
 *   fetch_split 1: ASSUMPTION: the second I-cache access of a group cut at
 *     a line end comes one cycle later, and after a redirect nothing is
 *     queued to hide it.
 *   taken 1: ASSUMPTION: a taken branch predicted by the BTAC still loses
 *     one fetch cycle (the target's fetch starts the cycle after the
 *     branch's own; the TRM gives no figure). Replaces the cortex-a9
 *     preset's taken 0.
 *   io_write 19: every store to device memory. The L2C-310's line
 *     operations by PA "are atomic" and "stall the slave ports until they
 *     are complete" (L2C-310 TRM, DDI 0246, 3.3.9): a loop of them runs at
 *     the controller's pace. ASSUMPTION: one L2 access each, the 19 cycles
 *     of l1i_miss (an L2 hit); other device writes (a NIC's doorbell, the
 *     GIC) are given the same.
 *   io_read 60: every load from device memory (a NIC's status register,
 *     bcma_host_soc_read32 on the BCM47094). A device read is not cached,
 *     not speculated, and the load waits for the peripheral's answer
 *     across the interconnect's slower clock domains. ASSUMPTION: between
 *     an L2 hit (23 cycles in all) and DRAM (about 154, 7-cpu.com), no
 *     published figure for this SoC.
 *   Chosen before any kernel was scored with them.
 *
 * mt7621: the 1004k preset's core with what its kernel runs into, for the
 * MIPS kernel router (targets/qemu-linux/model.sh malta); the 1004k preset
 * stays as it was for natbench.
 *   maint on: the CACHE instruction by address acts on the modelled
 *     caches: Hit_Invalidate_D / Hit_Writeback_Inv_D on the L1 D (Linux's
 *     r4k_dma_cache_inv / _wback_inv: the MT7621's DMA is not coherent,
 *     RALINK selects DMA_NONCOHERENT), and the same ops on S on the L2
 *     (mips_sc_inv / mips_sc_wback_inv, sc-mips.c: the L2 is not
 *     inclusive, so the kernel maintains both). Each costs its
 *     instruction, as the bcm47094 preset's MCR does (ASSUMPTION kept:
 *     nothing published gives a 1004K's cycles per cache op); the misses
 *     that follow an invalidate are charged as misses.
 *   io_read 100: every load from device memory (a NIC's status register;
 *     on the MT7621 the frame engine's registers on its internal bus).
 *     ASSUMPTION: an uncached load stalls the in-order pipeline until the
 *     answer comes back through the coherence manager and the bus, taken
 *     as long as the l2_miss above (DRAM, about 110 ns); no figure is
 *     published for this SoC.
 *   io_write 10: every store to device memory (doorbells, interrupt
 *     acknowledgements). ASSUMPTION: an uncached store is posted through
 *     the write buffer and the core goes on, but the next one waits for
 *     the bus; a tenth of a read. No published figure.
 *   taken, fetch: the 1004k preset's (no fetch-group cost modelled).
 *   Chosen before any kernel was scored with them.
 *
 * cachegrind: valgrind's cachegrind model with the geometry
 * targets/natbench/score.sh gives it (LRU, write-allocate, no write-backs
 * into the L2, no branch model), for checking the plugin's caches against
 * cachegrind on the same program; penalties as the cachegrind-model
 * parser's defaults (12 and 100 cycles, 1.4 GHz).
 */
static const struct ua_config presets[] = {
	{
		.preset = "cortex-a9",
		.l1i = { 32768, 4, 32, UA_RANDOM },
		.l1d = { 32768, 4, 32, UA_RANDOM },
		.l2 = { 524288, 16, 32, UA_RR },
		.has_l2 = 1,
		.dir = UA_DIR_GSHARE, .dir_entries = 4096, .history = 10,
		.btb_entries = 512, .btb_ways = 2,
		.ras = 8, .indirect_btb = 1, .writeback = 1,
		.insn = 1, .l1i_miss = 19, .l1d_miss = 12, .l2_miss = 100,
		.taken = 0, .mispredict = 8, .clock_mhz = 1400,
	},
	{
		.preset = "1004k",
		.l1i = { 32768, 4, 32, UA_LRU },
		.l1d = { 32768, 4, 32, UA_LRU },
		.l2 = { 262144, 8, 32, UA_LRU },
		.has_l2 = 1,
		.dir = UA_DIR_BIMODAL, .dir_entries = 512, .history = 0,
		.btb_entries = 0, .btb_ways = 0,
		.ras = 4, .indirect_btb = 0, .writeback = 1,
		.insn = 1, .l1i_miss = 25, .l1d_miss = 25, .l2_miss = 100,
		.taken = 0, .mispredict = 5, .clock_mhz = 880,
	},
	{
		.preset = "cachegrind",
		.l1i = { 32768, 4, 32, UA_LRU },
		.l1d = { 32768, 4, 32, UA_LRU },
		.l2 = { 524288, 8, 32, UA_LRU },
		.has_l2 = 1,
		.dir = UA_DIR_NONE,
		.insn = 1, .l1i_miss = 12, .l1d_miss = 12, .l2_miss = 100,
		.clock_mhz = 1400,
	},
};

const char *ua_preset_names(void)
{
	return "cortex-a9, bcm47094, 1004k, mt7621, cachegrind";
}

/* A core preset with the SoC's costs added (the comment above). */
static void soc_bcm47094(struct ua_config *c)
{
	snprintf(c->preset, sizeof(c->preset), "bcm47094");
	c->maint = 1;
	c->fetch = 16;
	c->taken = 1;
	c->io_read = 60;
	c->io_write = 19;
	c->fetch_split = 1;
}

/* The 1004k core with the MT7621's costs (the comment above). */
static void soc_mt7621(struct ua_config *c)
{
	snprintf(c->preset, sizeof(c->preset), "mt7621");
	c->maint = 1;
	c->io_read = 100;
	c->io_write = 10;
}

int ua_config_preset(struct ua_config *c, const char *name, char *err, size_t errlen)
{
	if (!strcmp(name, "bcm47094") || !strcmp(name, "mt7621")) {
		int arm = name[0] == 'b';

		if (ua_config_preset(c, arm ? "cortex-a9" : "1004k", err, errlen) < 0)
			return -1;
		(arm ? soc_bcm47094 : soc_mt7621)(c);
		return 0;
	}
	for (size_t i = 0; i < sizeof(presets) / sizeof(presets[0]); i++) {
		if (!strcmp(presets[i].preset, name)) {
			*c = presets[i];
			return 0;
		}
	}
	return ua_err(err, errlen, "unknown preset '%s' (known: %s)", name, ua_preset_names());
}

/* A decimal integer in full, 0 < v < 2^32 (or 0 when zero_ok). */
static int parse_u32(uint32_t *out, const char *s, int zero_ok)
{
	char *end;
	unsigned long long v;

	if (!*s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v > UINT32_MAX || (!v && !zero_ok))
		return -1;
	*out = (uint32_t)v;
	return 0;
}

/* Splits "a:b:c" into at most max fields (a copy of s in buf). */
static size_t split(char **f, size_t max, char *buf, size_t buflen, const char *s)
{
	size_t n = 0;

	snprintf(buf, buflen, "%s", s);
	f[n++] = buf;
	for (char *p = buf; *p; p++) {
		if (*p == ':') {
			*p = '\0';
			if (n == max)
				return max + 1;
			f[n++] = p + 1;
		}
	}
	return n;
}

static const char *const policy_names[] = { "lru", "rr", "random" };

static int parse_geom(struct ua_cache_geom *g, const char *key, const char *val,
		      char *err, size_t errlen)
{
	char buf[128], *f[4];
	size_t n = split(f, 4, buf, sizeof(buf), val);
	struct ua_cache_geom t = { 0, 0, 0, UA_LRU };

	if (n < 3 || n > 4 || parse_u32(&t.size, f[0], 0) < 0 || parse_u32(&t.ways, f[1], 0) < 0 ||
	    parse_u32(&t.line, f[2], 0) < 0)
		return ua_err(err, errlen, "%s: '%s' is not SIZE:WAYS:LINE[:lru|rr|random]",
			      key, val);
	if (n == 4) {
		size_t i;

		for (i = 0; i < 3; i++)
			if (!strcmp(f[3], policy_names[i]))
				break;
		if (i == 3)
			return ua_err(err, errlen, "%s: unknown replacement '%s' (lru, rr, random)",
				      key, f[3]);
		t.policy = (enum ua_policy)i;
	}
	if (ua_geom_check(&t, key, err, errlen) < 0)
		return -1;
	*g = t;
	return 0;
}

static int parse_dir(struct ua_config *c, const char *val, char *err, size_t errlen)
{
	char buf[128], *f[3];
	size_t n = split(f, 3, buf, sizeof(buf), val);
	uint32_t e = 0, h = 0;

	if (n == 1 && !strcmp(f[0], "none")) {
		c->dir = UA_DIR_NONE;
		c->dir_entries = c->history = 0;
		return 0;
	}
	if (n == 2 && !strcmp(f[0], "bimodal") && !parse_u32(&e, f[1], 0) && ua_is_pow2(e)) {
		c->dir = UA_DIR_BIMODAL;
		c->dir_entries = e;
		c->history = 0;
		return 0;
	}
	if (n == 3 && !strcmp(f[0], "gshare") && !parse_u32(&e, f[1], 0) && ua_is_pow2(e) &&
	    !parse_u32(&h, f[2], 1) && h <= 31 && (1ull << h) <= e) {
		c->dir = UA_DIR_GSHARE;
		c->dir_entries = e;
		c->history = h;
		return 0;
	}
	return ua_err(err, errlen, "dir: '%s' is not none, bimodal:ENTRIES or "
		      "gshare:ENTRIES:HISTORY (entries a power of two, 2^HISTORY <= ENTRIES)", val);
}

static int parse_onoff(int *out, const char *key, const char *val, const char *on,
		       const char *off, char *err, size_t errlen)
{
	if (!strcmp(val, on))
		*out = 1;
	else if (!strcmp(val, off))
		*out = 0;
	else
		return ua_err(err, errlen, "%s: '%s' is not %s or %s", key, val, on, off);
	return 0;
}

/* The penalty keys and where they go. */
static double *penalty(struct ua_config *c, const char *key)
{
	static const struct {
		const char *key;
		size_t off;
	} keys[] = {
		{ "insn", offsetof(struct ua_config, insn) },
		{ "l1i_miss", offsetof(struct ua_config, l1i_miss) },
		{ "l1d_miss", offsetof(struct ua_config, l1d_miss) },
		{ "l2_miss", offsetof(struct ua_config, l2_miss) },
		{ "taken", offsetof(struct ua_config, taken) },
		{ "mispredict", offsetof(struct ua_config, mispredict) },
		{ "io_read", offsetof(struct ua_config, io_read) },
		{ "io_write", offsetof(struct ua_config, io_write) },
		{ "fetch_split", offsetof(struct ua_config, fetch_split) },
		{ "clock_mhz", offsetof(struct ua_config, clock_mhz) },
	};

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strcmp(keys[i].key, key))
			return (double *)((char *)c + keys[i].off);
	return NULL;
}

int ua_config_set(struct ua_config *c, const char *key, const char *val,
		  char *err, size_t errlen)
{
	double *pen;

	if (!strcmp(key, "preset"))
		return ua_config_preset(c, val, err, errlen);
	if (!strcmp(key, "l1i"))
		return parse_geom(&c->l1i, key, val, err, errlen);
	if (!strcmp(key, "l1d"))
		return parse_geom(&c->l1d, key, val, err, errlen);
	if (!strcmp(key, "l2")) {
		if (!strcmp(val, "none")) {
			c->has_l2 = 0;
			return 0;
		}
		if (parse_geom(&c->l2, key, val, err, errlen) < 0)
			return -1;
		c->has_l2 = 1;
		return 0;
	}
	if (!strcmp(key, "dir"))
		return parse_dir(c, val, err, errlen);
	if (!strcmp(key, "btb")) {
		char buf[64], *f[2];
		uint32_t e, w;

		if (!strcmp(val, "none")) {
			c->btb_entries = c->btb_ways = 0;
			return 0;
		}
		if (split(f, 2, buf, sizeof(buf), val) != 2 || parse_u32(&e, f[0], 0) < 0 ||
		    parse_u32(&w, f[1], 0) < 0 || e % w || !ua_is_pow2(e / w))
			return ua_err(err, errlen, "btb: '%s' is not none or ENTRIES:WAYS "
				      "(a power-of-two number of sets)", val);
		c->btb_entries = e;
		c->btb_ways = w;
		return 0;
	}
	if (!strcmp(key, "ras")) {
		if (parse_u32(&c->ras, val, 1) < 0 || c->ras > 4096)
			return ua_err(err, errlen, "ras: '%s' is not a number of entries (0-4096)", val);
		return 0;
	}
	if (!strcmp(key, "indirect"))
		return parse_onoff(&c->indirect_btb, key, val, "btb", "none", err, errlen);
	if (!strcmp(key, "writeback"))
		return parse_onoff(&c->writeback, key, val, "on", "off", err, errlen);
	if (!strcmp(key, "maint"))
		return parse_onoff(&c->maint, key, val, "on", "off", err, errlen);
	if (!strcmp(key, "fetch")) {
		uint32_t f;

		if (!strcmp(val, "none")) {
			c->fetch = 0;
			return 0;
		}
		if (parse_u32(&f, val, 0) < 0 || !ua_is_pow2(f) || f < 2 || f > 4096)
			return ua_err(err, errlen, "fetch: '%s' is not none or a power of two "
				      "of bytes (2-4096)", val);
		c->fetch = f;
		return 0;
	}
	pen = penalty(c, key);
	if (pen) {
		char *end;
		double v;

		errno = 0;
		v = strtod(val, &end);
		if (!*val || *end || errno || !(v >= 0) || v > 1e9 ||
		    (!strcmp(key, "clock_mhz") && v <= 0))
			return ua_err(err, errlen, "%s: '%s' is not a number of %s", key, val,
				      strcmp(key, "clock_mhz") ? "cycles (>= 0)" : "MHz (> 0)");
		*pen = v;
		return 0;
	}
	return ua_err(err, errlen, "unknown key '%s' (preset, l1i, l1d, l2, dir, btb, ras, "
		      "indirect, writeback, maint, fetch, insn, l1i_miss, l1d_miss, l2_miss, "
		      "taken, mispredict, io_read, io_write, fetch_split, clock_mhz)", key);
}

int ua_config_check(const struct ua_config *c, char *err, size_t errlen)
{
	if (ua_geom_check(&c->l1i, "l1i", err, errlen) < 0 ||
	    ua_geom_check(&c->l1d, "l1d", err, errlen) < 0 ||
	    (c->has_l2 && ua_geom_check(&c->l2, "l2", err, errlen) < 0))
		return -1;
	if (c->btb_entries && (!c->btb_ways || c->btb_entries % c->btb_ways ||
			       !ua_is_pow2(c->btb_entries / c->btb_ways)))
		return ua_err(err, errlen, "btb: bad geometry");
	if (c->dir != UA_DIR_NONE && !ua_is_pow2(c->dir_entries))
		return ua_err(err, errlen, "dir: bad size");
	if (c->fetch && (!ua_is_pow2(c->fetch) || c->fetch > c->l1i.line))
		return ua_err(err, errlen, "fetch: %u bytes is not a power of two within the "
			      "%u-byte I line", c->fetch, c->l1i.line);
	return 0;
}

static void geom_str(char *buf, size_t len, const struct ua_cache_geom *g)
{
	snprintf(buf, len, "%u:%u:%u:%s", g->size, g->ways, g->line, policy_names[g->policy]);
}

size_t ua_config_machine(const struct ua_config *c, char *buf, size_t len)
{
	char i[64], d[64], l2[64], dir[64], btb[32], fe[48];
	int n;

	geom_str(i, sizeof(i), &c->l1i);
	geom_str(d, sizeof(d), &c->l1d);
	if (c->has_l2)
		geom_str(l2, sizeof(l2), &c->l2);
	else
		snprintf(l2, sizeof(l2), "none");
	if (c->dir == UA_DIR_GSHARE)
		snprintf(dir, sizeof(dir), "gshare:%u:%u", c->dir_entries, c->history);
	else if (c->dir == UA_DIR_BIMODAL)
		snprintf(dir, sizeof(dir), "bimodal:%u", c->dir_entries);
	else
		snprintf(dir, sizeof(dir), "none");
	if (c->btb_entries)
		snprintf(btb, sizeof(btb), "%u:%u", c->btb_entries, c->btb_ways);
	else
		snprintf(btb, sizeof(btb), "none");
	fe[0] = '\0';
	if (c->maint)
		snprintf(fe, sizeof(fe), ",maint=on");
	if (c->fetch)
		snprintf(fe + strlen(fe), sizeof(fe) - strlen(fe), ",fetch=%u", c->fetch);
	n = snprintf(buf, len, "l1i=%s,l1d=%s,l2=%s,dir=%s,btb=%s,ras=%u,indirect=%s,writeback=%s%s",
		     i, d, l2, dir, btb, c->ras, c->indirect_btb ? "btb" : "none",
		     c->writeback ? "on" : "off", fe);
	return n < 0 ? 0 : (size_t)n;
}
