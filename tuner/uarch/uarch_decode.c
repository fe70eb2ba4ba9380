/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * uarch_decode: which instructions are branches, of what kind, for the
 * predictor model (tuner/uarch/uarch.h). Encodings from the ARM
 * Architecture Reference Manual ARMv7-A (DDI 0406C, chapter A5, "ARM
 * instruction set encoding") and the MIPS32 Architecture for Programmers
 * Volume II (MD00086, the opcode tables of appendix A).
 *
 * Which A32 branches push or pop the return stack is the Cortex-A9's rule
 * (DDI 0388, 7.3.2 "Program flow prediction"): BL, BLX (immediate and
 * register) push; BX r14, MOV pc, r14, LDM r13 {.., pc} and LDR pc, [r13]
 * pop. Instructions with the S suffix writing the PC, and LDM with ^ and
 * the PC, are exception returns: "not predicted". On MIPS, JAL, JALR and
 * the branch-and-link forms push, JR r31 pops (the 24K/34K family's return
 * prediction stack).
 */
#include <string.h>

#include "uarch.h"

static uint64_t sext(uint32_t v, unsigned bits)
{
	uint32_t m = 1u << (bits - 1);

	return (uint64_t)(int64_t)(int32_t)((v ^ m) - m);
}

void ua_decode_a32(struct ua_branch *o, uint32_t insn, uint64_t pc)
{
	uint32_t cond = insn >> 28;
	unsigned c = cond < 0xE ? UA_BR_COND : 0;
	unsigned rd = (insn >> 12) & 0xF, rn = (insn >> 16) & 0xF;

	memset(o, 0, sizeof(*o));
	o->pc = pc;
	o->fallthrough = pc + 4;
	o->link = pc + 4;
	if (cond == 0xF) {
		/* The unconditional space: BLX (immediate) to Thumb, whose H
		 * bit adds a halfword; RFE returns from an exception. */
		if ((insn & 0x0E000000) == 0x0A000000) {
			o->kind = UA_BR_BRANCH | UA_BR_DIRECT | UA_BR_CALL;
			o->target = (pc + 8 + (sext(insn & 0xFFFFFF, 24) << 2) +
				     ((insn >> 23) & 2)) & 0xFFFFFFFFu;
		} else if ((insn & 0x0E500000) == 0x08100000) {
			o->kind = UA_BR_NOPRED;
		}
		return;
	}
	/* B, BL. */
	if ((insn & 0x0E000000) == 0x0A000000) {
		o->kind = UA_BR_BRANCH | UA_BR_DIRECT | c | (insn & 0x01000000 ? UA_BR_CALL : 0);
		o->target = (pc + 8 + (sext(insn & 0xFFFFFF, 24) << 2)) & 0xFFFFFFFFu;
		return;
	}
	/* BX Rm, BLX Rm. */
	if ((insn & 0x0FFFFFD0) == 0x012FFF10) {
		if (insn & 0x20)
			o->kind = UA_BR_BRANCH | c | UA_BR_CALL;
		else
			o->kind = UA_BR_BRANCH | c | ((insn & 0xF) == 14 ? UA_BR_RETURN : 0);
		return;
	}
	/* LDR pc, [...] (not the media space, bit 25 and bit 4 set). */
	if ((insn & 0x0C100000) == 0x04100000 && rd == 15 && (insn & 0x02000010) != 0x02000010) {
		o->kind = UA_BR_BRANCH | c | (rn == 13 ? UA_BR_RETURN : 0);
		return;
	}
	/* LDM with the PC in the list; with ^ it returns from an exception. */
	if ((insn & 0x0E100000) == 0x08100000 && (insn & 0x8000)) {
		if (insn & 0x00400000)
			o->kind = UA_BR_NOPRED;
		else
			o->kind = UA_BR_BRANCH | c | (rn == 13 ? UA_BR_RETURN : 0);
		return;
	}
	/* Data processing writing the PC. */
	if ((insn & 0x0C000000) == 0 && rd == 15) {
		unsigned op = (insn >> 21) & 0xF, s = (insn >> 20) & 1, imm = (insn >> 25) & 1;

		if (!imm && (insn & 0x90) == 0x90)
			return; /* multiplies, extra loads and stores */
		if (op >= 8 && op <= 11)
			return; /* compares (no result), or the miscellaneous space */
		if (s) {
			o->kind = UA_BR_NOPRED; /* MOVS pc, lr and the like */
			return;
		}
		if (op == 13 && !imm && (insn & 0xFF0) == 0 && (insn & 0xF) == 14)
			o->kind = UA_BR_BRANCH | c | UA_BR_RETURN; /* MOV pc, lr */
		else
			o->kind = UA_BR_BRANCH | c;
	}
}

void ua_decode_mips(struct ua_branch *o, uint32_t insn, uint64_t pc)
{
	unsigned op = insn >> 26, rs = (insn >> 21) & 31, rt = (insn >> 16) & 31;
	uint64_t rel = (pc + 4 + (sext(insn & 0xFFFF, 16) << 2)) & 0xFFFFFFFFu;
	const unsigned cd = UA_BR_BRANCH | UA_BR_COND | UA_BR_DIRECT;

	memset(o, 0, sizeof(*o));
	o->pc = pc;
	o->fallthrough = pc + 8;
	o->link = pc + 8;
	switch (op) {
	case 0x00: /* SPECIAL: JR, JALR */
		if ((insn & 0x3F) == 0x08)
			o->kind = UA_BR_BRANCH | (rs == 31 ? UA_BR_RETURN : 0);
		else if ((insn & 0x3F) == 0x09)
			o->kind = UA_BR_BRANCH | UA_BR_CALL;
		return;
	case 0x01: /* REGIMM: BLTZ, BGEZ(L), ...AL (BAL is BGEZAL r0) */
		if (rt <= 3) {
			o->kind = cd;
		} else if (rt >= 0x10 && rt <= 0x13) {
			o->kind = cd | UA_BR_CALL;
			if (rs == 0 && rt == 0x11)
				o->kind &= ~(unsigned)UA_BR_COND;
		} else {
			return;
		}
		o->target = rel;
		return;
	case 0x02: /* J */
	case 0x03: /* JAL */
		o->kind = UA_BR_BRANCH | UA_BR_DIRECT | (op == 3 ? UA_BR_CALL : 0);
		o->target = ((pc + 4) & 0xF0000000u) | ((insn & 0x03FFFFFFu) << 2);
		return;
	case 0x04: /* BEQ (B is BEQ r0, r0) */
		o->kind = rs == 0 && rt == 0 ? UA_BR_BRANCH | UA_BR_DIRECT : cd;
		o->target = rel;
		return;
	case 0x05: case 0x06: case 0x07: /* BNE, BLEZ, BGTZ */
	case 0x14: case 0x15: case 0x16: case 0x17: /* the "likely" forms */
		o->kind = cd;
		o->target = rel;
		return;
	case 0x10: /* COP0: ERET */
		if ((insn & 0x0200003F) == 0x02000018)
			o->kind = UA_BR_NOPRED;
		return;
	case 0x11: case 0x12: /* COP1, COP2: BC1F/BC1T, BC2F/BC2T */
		if (rs == 8) {
			o->kind = cd;
			o->target = rel;
		}
		return;
	default:
		return;
	}
}

/*
 * MCR p15, 0, Rt, c7, CRm, 1 (ARM ARM, ARMv7-A, B4.2.1 "Cache and branch
 * predictor maintenance operations"): cond 1110 000 0 0111 Rt 1111 001 1
 * CRm.
 */
int ua_decode_a32_maint(uint32_t insn, enum ua_maint_op *op, unsigned *rt)
{
	unsigned cond = insn >> 28;

	if (cond == 15 || (insn & 0x0fff0ff0u) != 0x0e070f30u)
		return -1;
	switch (insn & 0xfu) {
	case 6: /* DCIMVAC: invalidate by MVA to the point of coherency */
		*op = UA_MAINT_INV;
		break;
	case 10: /* DCCMVAC: clean by MVA to the point of coherency */
	case 11: /* DCCMVAU: clean by MVA to the point of unification */
		*op = UA_MAINT_CLEAN;
		break;
	case 14: /* DCCIMVAC: clean and invalidate by MVA */
		*op = UA_MAINT_CLEAN_INV;
		break;
	default:
		return -1;
	}
	*rt = (insn >> 12) & 0xfu;
	return (int)cond;
}

int ua_decode_mips_cache(uint32_t insn, enum ua_maint_op *op, unsigned *base, int32_t *offset)
{
	unsigned which = (insn >> 16) & 0x1fu, cache = which & 3u, level;

	if (insn >> 26 != 0x2fu)
		return -1;
	if (cache == 1) /* D: the primary data cache */
		level = 1;
	else if (cache == 3) /* S: the secondary (the 1004K's L2) */
		level = 2;
	else
		return -1; /* I and T: not modelled */
	switch (which >> 2) {
	case 4: /* Hit_Invalidate */
		*op = UA_MAINT_INV;
		break;
	case 5: /* Hit_Writeback_Inv */
		*op = UA_MAINT_CLEAN_INV;
		break;
	case 6: /* Hit_Writeback */
		*op = UA_MAINT_CLEAN;
		break;
	default:
		return -1; /* index operations, tags, fills: not by address */
	}
	*base = (insn >> 21) & 0x1fu;
	*offset = (int32_t)(int16_t)(insn & 0xffffu);
	return (int)level;
}

int ua_a32_cond(unsigned cond, unsigned nzcv)
{
	unsigned n = nzcv >> 3 & 1, z = nzcv >> 2 & 1, c = nzcv >> 1 & 1, v = nzcv & 1;

	switch (cond) {
	case 0: return z;                 /* EQ */
	case 1: return !z;                /* NE */
	case 2: return c;                 /* CS */
	case 3: return !c;                /* CC (LO) */
	case 4: return n;                 /* MI */
	case 5: return !n;                /* PL */
	case 6: return v;                 /* VS */
	case 7: return !v;                /* VC */
	case 8: return c && !z;           /* HI */
	case 9: return !c || z;           /* LS */
	case 10: return n == v;           /* GE */
	case 11: return n != v;           /* LT */
	case 12: return !z && n == v;     /* GT */
	case 13: return z || n != v;      /* LE */
	default: return 1;                /* AL */
	}
}

/* STR (immediate, register): cond 01 I P U 0 W 0 Rn Rt ...; with I set,
 * bit 4 clear (bit 4 set is the media instruction space). */
int ua_decode_a32_str(uint32_t insn, unsigned *rt)
{
	if (insn >> 28 == 15 || (insn & 0x0c500000u) != 0x04000000u ||
	    (insn & 0x02000010u) == 0x02000010u)
		return 0;
	*rt = (insn >> 12) & 0xfu;
	return *rt != 15;
}

enum ua_maint_op ua_l2c310_line_op(uint64_t off)
{
	switch (off) {
	case 0x770:
		return UA_MAINT_INV;
	case 0x7b0:
		return UA_MAINT_CLEAN;
	case 0x7f0:
		return UA_MAINT_CLEAN_INV;
	default:
		return 0;
	}
}

int ua_decode_mark(uint32_t insn, int mips)
{
	uint32_t base = mips ? 0x00000400u : 0xe320f0f0u;
	uint32_t step = mips ? 0x40u : 1u;

	if (insn == base + step)
		return 1;
	if (insn == base + 2 * step)
		return 2;
	return 0;
}
