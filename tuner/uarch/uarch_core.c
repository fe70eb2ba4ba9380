/* SPDX-License-Identifier: GPL-2.0-or-later */
/* uarch_core: one modelled core (tuner/uarch/uarch.h). */
#include <string.h>

#include "uarch.h"
#include "uarch_priv.h"

const char *const ua_counter_names[] = {
#define UA_NAME(n) #n,
	UA_COUNTERS(UA_NAME)
#undef UA_NAME
};
const size_t ua_ncounters = sizeof(ua_counter_names) / sizeof(ua_counter_names[0]);

uint64_t *ua_counter(struct ua_counters *c, size_t i)
{
	return (uint64_t *)c + i;
}

int ua_core_init(struct ua_core *core, const struct ua_config *c, char *err, size_t errlen)
{
	memset(core, 0, sizeof(*core));
	core->cfg = *c;
	if (ua_config_check(c, err, errlen) < 0 ||
	    ua_cache_init(&core->l1i, &c->l1i, err, errlen) < 0 ||
	    ua_cache_init(&core->l1d, &c->l1d, err, errlen) < 0 ||
	    (c->has_l2 && ua_cache_init(&core->l2, &c->l2, err, errlen) < 0) ||
	    ua_bpred_init(&core->bp, c, err, errlen) < 0) {
		ua_core_release(core);
		return -1;
	}
	return 0;
}

void ua_core_release(struct ua_core *core)
{
	ua_cache_release(&core->l1i);
	ua_cache_release(&core->l1d);
	ua_cache_release(&core->l2);
	ua_bpred_release(&core->bp);
}

void ua_core_reset_counters(struct ua_core *core)
{
	memset(core->cnt, 0, sizeof(core->cnt));
}

/* An L1 miss goes to the L2 (if any); 1 if the L2 missed too. */
static int l2_access(struct ua_core *core, uint64_t addr, int write)
{
	uint64_t wb_addr;
	int wb;

	if (!core->cfg.has_l2)
		return 1;
	return !ua_cache_access(&core->l2, addr, write, &wb_addr, &wb);
}

void ua_core_fetch(struct ua_core *core, enum ua_region r, uint64_t vaddr, uint32_t size,
		   uint32_t ninsns)
{
	struct ua_counters *c = &core->cnt[r];
	uint32_t shift = core->l1i.line_shift;
	uint64_t first = vaddr >> shift, last = (vaddr + (size ? size : 1) - 1) >> shift;

	c->insns += ninsns;
	c->blocks++;
	if (core->cfg.fetch) {
		uint64_t split;

		c->fetch_groups += ua_fetch_groups(vaddr, size, core->cfg.fetch,
						   1u << shift, &split);
		c->fetch_split += split;
	}
	for (uint64_t line = first; line <= last; line++) {
		uint64_t wb_addr;
		int wb;

		c->l1i_access++;
		if (ua_cache_repeat(&core->l1i, line, 0))
			continue;
		if (!ua_cache_access(&core->l1i, line << shift, 0, &wb_addr, &wb)) {
			c->l1i_miss++;
			c->l2i_miss += l2_access(core, line << shift, 0);
		}
	}
}

void ua_core_data(struct ua_core *core, enum ua_region r, uint64_t addr, uint32_t size,
		  int store)
{
	struct ua_counters *c = &core->cnt[r];
	uint32_t shift = core->l1d.line_shift;
	uint64_t first = addr >> shift, last = (addr + (size ? size : 1) - 1) >> shift;

	for (uint64_t line = first; line <= last; line++) {
		uint64_t wb_addr;
		int wb;

		if (store)
			c->l1d_write++;
		else
			c->l1d_read++;
		if (ua_cache_repeat(&core->l1d, line, store))
			continue;
		if (ua_cache_access(&core->l1d, line << shift, store, &wb_addr, &wb))
			continue;
		if (store)
			c->l1d_write_miss++;
		else
			c->l1d_read_miss++;
		c->l2d_miss += l2_access(core, line << shift, store);
		if (wb) {
			c->l1d_writeback++;
			if (core->cfg.writeback)
				c->l2_wb_miss += l2_access(core, wb_addr, 1);
		}
	}
}

uint64_t ua_fetch_groups(uint64_t vaddr, uint32_t size, uint32_t fetch, uint32_t line,
			 uint64_t *split)
{
	uint64_t groups = 0, end = vaddr + (size ? size : 1), a = vaddr;

	*split = 0;
	if (!fetch)
		return 0;
	while (a < end) {
		uint64_t line_end = (a | (line - 1)) + 1, stop = line_end < end ? line_end : end;

		groups += (stop - a + fetch - 1) / fetch;
		a = stop;
	}
	*split = groups - ((end - vaddr) + fetch - 1) / fetch;
	return groups;
}

void ua_core_io(struct ua_core *core, enum ua_region r, int store)
{
	if (store)
		core->cnt[r].io_write++;
	else
		core->cnt[r].io_read++;
}

void ua_core_maint(struct ua_core *core, enum ua_region r, int level, enum ua_maint_op op,
		   uint64_t addr)
{
	struct ua_counters *c = &core->cnt[r];
	struct ua_cache *cache = level == 1 ? &core->l1d : &core->l2;
	int was;

	if (level == 1)
		c->maint_l1++;
	else
		c->maint_l2++;
	if (!core->cfg.maint || (level != 1 && !core->cfg.has_l2))
		return;
	was = ua_cache_maint(cache, addr, op);
	if (!(was & UA_HELD))
		return;
	c->maint_held++;
	if (!(was & UA_WAS_DIRTY))
		return;
	if (op & UA_MAINT_CLEAN) {
		c->maint_wb++;
		/* A cleaned L1 line goes to the L2 (as a write-back would). */
		if (level == 1 && core->cfg.writeback)
			c->l2_wb_miss += l2_access(core, addr, 1);
	} else {
		c->maint_drop_dirty++;
	}
}

int ua_report_write(FILE *f, const struct ua_core *core, const char *arch)
{
	static const char *const region_names[UA_NREGIONS] = { "counted", "rest" };
	char machine[512];

	ua_config_machine(&core->cfg, machine, sizeof(machine));
	if (fprintf(f, "uarch-report %d\narch %s\nconfig %s\n", UA_REPORT_VERSION, arch,
		    machine) < 0)
		return -1;
	for (int r = 0; r < UA_NREGIONS; r++) {
		struct ua_counters cnt = core->cnt[r];

		if (fprintf(f, "region %s\n", region_names[r]) < 0)
			return -1;
		for (size_t i = 0; i < ua_ncounters; i++)
			if (fprintf(f, "%s %llu\n", ua_counter_names[i],
				    (unsigned long long)*ua_counter(&cnt, i)) < 0)
				return -1;
	}
	return fprintf(f, "end\n") < 0 ? -1 : 0;
}
