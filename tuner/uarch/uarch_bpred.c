/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * uarch_bpred: the branch predictor model of tuner/uarch/uarch.h.
 *
 * Direction: a table of 2-bit saturating counters (Smith 1981), indexed by
 * the instruction's word address (bimodal) or by it XORed with the global
 * history of conditional outcomes (gshare; McFarling, "Combining Branch
 * Predictors", DEC WRL TN-36, 1993). Counters start weakly not taken (1).
 * Targets: a set-associative BTB of taken branches, LRU within a set, and
 * a circular return stack that overwrites its oldest entry when full.
 */
#include <stdlib.h>
#include <string.h>

#include "uarch.h"
#include "uarch_priv.h"

int ua_bpred_init(struct ua_bpred *bp, const struct ua_config *c, char *err, size_t errlen)
{
	memset(bp, 0, sizeof(*bp));
	bp->dir = c->dir;
	bp->indirect_btb = c->indirect_btb;
	if (c->dir != UA_DIR_NONE) {
		if (!ua_is_pow2(c->dir_entries))
			return ua_err(err, errlen, "dir: %u entries is not a power of two",
				      c->dir_entries);
		if (c->dir == UA_DIR_GSHARE && (c->history > 31 ||
						(1ull << c->history) > c->dir_entries))
			return ua_err(err, errlen, "dir: %u history bits exceed the %u-entry index",
				      c->history, c->dir_entries);
		bp->dir_mask = c->dir_entries - 1;
		bp->hist_mask = c->dir == UA_DIR_GSHARE ? (uint32_t)((1ull << c->history) - 1) : 0;
		bp->ctr = malloc(c->dir_entries);
		if (!bp->ctr)
			goto oom;
		memset(bp->ctr, 1, c->dir_entries);
	}
	if (c->btb_entries) {
		if (!c->btb_ways || c->btb_entries % c->btb_ways ||
		    !ua_is_pow2(c->btb_entries / c->btb_ways))
			return ua_err(err, errlen, "btb: %u entries in %u ways is not a power-of-two "
				      "number of sets", c->btb_entries, c->btb_ways);
		bp->btb_ways = c->btb_ways;
		bp->btb_sets = c->btb_entries / c->btb_ways;
		bp->btb_pc = malloc(c->btb_entries * sizeof(*bp->btb_pc));
		bp->btb_target = calloc(c->btb_entries, sizeof(*bp->btb_target));
		if (!bp->btb_pc || !bp->btb_target)
			goto oom;
		for (uint32_t i = 0; i < c->btb_entries; i++)
			bp->btb_pc[i] = UA_INVALID;
	}
	if (c->ras) {
		bp->ras_size = c->ras;
		bp->ras = calloc(c->ras, sizeof(*bp->ras));
		if (!bp->ras)
			goto oom;
	}
	return 0;
oom:
	ua_bpred_release(bp);
	return ua_err(err, errlen, "out of memory");
}

void ua_bpred_release(struct ua_bpred *bp)
{
	free(bp->ctr);
	free(bp->btb_pc);
	free(bp->btb_target);
	free(bp->ras);
	memset(bp, 0, sizeof(*bp));
}

static uint32_t dir_index(const struct ua_bpred *bp, uint64_t pc)
{
	return ((uint32_t)(pc >> 2) ^ (bp->hist & bp->hist_mask)) & bp->dir_mask;
}

/* The first entry of pc's BTB set. */
static size_t btb_set(const struct ua_bpred *bp, uint64_t pc)
{
	return (size_t)((pc >> 2) & (bp->btb_sets - 1)) * bp->btb_ways;
}

/* Moves way i of the set at s to the front (most recent). */
static void btb_touch(struct ua_bpred *bp, size_t s, uint32_t i)
{
	uint64_t pc = bp->btb_pc[s + i], tg = bp->btb_target[s + i];

	for (; i > 0; i--) {
		bp->btb_pc[s + i] = bp->btb_pc[s + i - 1];
		bp->btb_target[s + i] = bp->btb_target[s + i - 1];
	}
	bp->btb_pc[s] = pc;
	bp->btb_target[s] = tg;
}

/* Looks pc up: 1 with its entry moved to the front of its set, else 0. */
static int btb_find(struct ua_bpred *bp, uint64_t pc)
{
	size_t s = btb_set(bp, pc);

	for (uint32_t i = 0; i < bp->btb_ways; i++) {
		if (bp->btb_pc[s + i] == pc) {
			btb_touch(bp, s, i);
			return 1;
		}
	}
	return 0;
}

/* Records pc -> target as the most recent entry of its set; hit: pc was
 * just found (and is at the front). */
static void btb_learn(struct ua_bpred *bp, uint64_t pc, uint64_t target, int hit)
{
	size_t s = btb_set(bp, pc);

	if (!hit) {
		/* Evict the least recent: the last way, moved to the front. */
		btb_touch(bp, s, bp->btb_ways - 1);
		bp->btb_pc[s] = pc;
	}
	bp->btb_target[s] = target;
}

static void ras_push(struct ua_bpred *bp, uint64_t addr)
{
	if (!bp->ras_size)
		return;
	bp->ras_top = (bp->ras_top + 1) % bp->ras_size;
	bp->ras[bp->ras_top] = addr;
	if (bp->ras_count < bp->ras_size)
		bp->ras_count++;
}

/* Pops into *out; -1 when empty. */
static int ras_pop(struct ua_bpred *bp, uint64_t *out)
{
	if (!bp->ras_count)
		return -1;
	*out = bp->ras[bp->ras_top];
	bp->ras_top = (bp->ras_top + bp->ras_size - 1) % bp->ras_size;
	bp->ras_count--;
	return 0;
}

void ua_bpred_resolve(struct ua_bpred *bp, const struct ua_branch *b, uint64_t next,
		      struct ua_counters *cnt)
{
	unsigned k = b->kind;
	int taken = next != b->fallthrough, pred_taken, dir_taken = 1, btb_hit = 1;
	int is_ret = k & UA_BR_RETURN, use_ras = is_ret && bp->ras_size;
	uint64_t pred_target = UA_INVALID;
	uint32_t idx = 0;

	if (!(k & UA_BR_BRANCH))
		return;
	if ((k & UA_BR_DIRECT) && taken && next != b->target) {
		cnt->async++;
		return;
	}
	cnt->branches++;
	if (k & UA_BR_COND) {
		cnt->cond++;
		cnt->cond_taken += taken;
	}
	cnt->taken += taken;
	if ((k & UA_BR_CALL) && taken)
		cnt->calls++;
	if (is_ret)
		cnt->returns++;
	else if (!(k & UA_BR_DIRECT))
		cnt->indirect++;

	/* What fetch predicted. */
	if ((k & UA_BR_COND) && bp->dir != UA_DIR_NONE) {
		idx = dir_index(bp, b->pc);
		dir_taken = bp->ctr[idx] >= 2;
	} else if (k & UA_BR_COND) {
		dir_taken = 0; /* no predictor: fall through */
	}
	if (use_ras) {
		pred_taken = dir_taken;
		if (pred_taken && ras_pop(bp, &pred_target) < 0)
			pred_target = UA_INVALID;
	} else if (bp->btb_sets) {
		btb_hit = btb_find(bp, b->pc);
		pred_taken = btb_hit && dir_taken;
		if (btb_hit)
			pred_target = bp->btb_target[btb_set(bp, b->pc)];
	} else {
		pred_taken = dir_taken;
		if (k & UA_BR_DIRECT)
			pred_target = b->target;
	}
	if (use_ras && taken && !pred_taken)
		ras_pop(bp, &pred_target); /* the stack still unwinds */

	/* What happened. */
	if (pred_taken != taken) {
		if (taken && !btb_hit)
			cnt->mp_btb++;
		else
			cnt->mp_direction++;
	} else if (taken && pred_target != next) {
		if (is_ret)
			cnt->mp_return++;
		else
			cnt->mp_target++;
	}

	/* Learning. */
	if ((k & UA_BR_COND) && bp->dir != UA_DIR_NONE) {
		if (taken && bp->ctr[idx] < 3)
			bp->ctr[idx]++;
		else if (!taken && bp->ctr[idx] > 0)
			bp->ctr[idx]--;
		bp->hist = bp->hist << 1 | (uint32_t)taken;
	}
	if (taken && !use_ras && bp->btb_sets &&
	    ((k & UA_BR_DIRECT) || bp->indirect_btb))
		btb_learn(bp, b->pc, next, btb_hit);
	if ((k & UA_BR_CALL) && taken)
		ras_push(bp, b->link);
}
