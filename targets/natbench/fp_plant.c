/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The planted alignment effect (tuner layout's test): a small hot function,
 * nb_plant_mix, whose offset in a 32-byte cache line the study sets with
 * the flag -DNB_PLANT_PAD=N (0..31), and nothing else moves.
 *
 * Without NB_PLANT_PAD the Makefile leaves this file out and natbench is
 * what it always was. With it, it is linked after the fast-path objects,
 * outside the layout shuffle, so the other objects keep their order.
 *
 * With it, every received frame calls nb_plant_run, which mixes the
 * frame's length into a sum NB_PLANT_ROUNDS times through nb_plant_mix.
 * Both live in a slot of their own (section .text.nb_plant, aligned to
 * 8192 bytes, one way of the A9's 32 KB 4-way I-cache): N bytes of pad,
 * then nb_plant_mix at slot + N, nb_plant_run at slot + 512, and the slot
 * ends at the next 8192 bytes, so its size never changes and every other
 * function keeps its address whatever N is. This file is compiled with
 * -falign-functions=1 -fno-toplevel-reorder after the candidate's flags,
 * so that the pad alone sets nb_plant_mix's offset and the pieces stay in
 * source order; a user section also keeps gcc from splitting the
 * functions into hot and cold parts.
 *
 * The cache set of the slot's second line (slot + 32..63) is also used,
 * between two calls of nb_plant_mix, by four one-instruction stubs
 * (nb_plant_evict1..4, at 8192-byte strides in .text.nb_plant_x): they
 * stand for the other hot code that shares a set with a hot function in a
 * kernel. Four lines fill the 4-way set and stay cached. When
 * nb_plant_mix is short enough to fit in the slot's first line (N + its
 * size <= 32) it never touches that set; when the pad pushes it across
 * the line boundary, five lines take turns in four ways and, in LRU order,
 * each of them misses every round: NB_PLANT_ROUNDS instruction misses per
 * packet more in nb_plant_mix alone. The stubs are assembly without line
 * information, outside the model's counted files (fp_*), like the traffic
 * generator: only the planted function's misses are in the score.
 *
 * The sum is written to nb_plant_sum, which nothing else reads: the
 * transmitted bytes, the checksum and --verify do not change.
 */
#include "fp_int.h"
#include "fp_mem.h"

#ifdef NB_PLANT_PAD

#if NB_PLANT_PAD < 0 || NB_PLANT_PAD > 31
#error "NB_PLANT_PAD must be 0..31 (bytes before nb_plant_mix in its line)"
#endif

#ifndef NB_PLANT_ROUNDS
#define NB_PLANT_ROUNDS 48
#endif

#define PLANT_STR2(x) #x
#define PLANT_STR(x) PLANT_STR2(x)
#define PLANT_SECTION ".text.nb_plant"

uint32_t nb_plant_sum;

void nb_plant_evict1(void);
void nb_plant_evict2(void);
void nb_plant_evict3(void);
void nb_plant_evict4(void);

/* The slot's start and the pad. */
__asm__(".section " PLANT_SECTION ",\"ax\",%progbits\n"
	".balign 8192\n"
	".globl nb_plant_slot\n"
	"nb_plant_slot:\n"
	".skip " PLANT_STR(NB_PLANT_PAD) ", 0xcc\n"
	".previous\n");

__attribute__((noipa, section(PLANT_SECTION)))
uint32_t nb_plant_mix(uint32_t h, uint32_t v)
{
	h = (h ^ v) * 0x9e3779b1u;
	h ^= h >> 15;
	return h + (h << 7);
}

__asm__(".section " PLANT_SECTION ",\"ax\",%progbits\n"
	".balign 512\n"
	".previous\n");

__attribute__((noipa, section(PLANT_SECTION)))
void nb_plant_run(const struct sk_buff *skb)
{
	uint32_t h = nb_plant_sum;

	for (uint32_t r = 0; r < NB_PLANT_ROUNDS; r++) {
		h = nb_plant_mix(h, skb->len + r);
		nb_plant_evict1();
		nb_plant_evict2();
		nb_plant_evict3();
		nb_plant_evict4();
	}
	nb_plant_sum = h;
}

/* The slot's end; then the four stubs, each in the set of the slot's
 * second line. "ret" is the return instruction of x86, arm64 and riscv;
 * 32-bit ARM returns with "bx lr", MIPS with "jr $31" and its delay slot
 * (two instructions there). */
#if defined(__arm__)
#define PLANT_RET "bx lr\n"
#elif defined(__mips__)
#define PLANT_RET ".set push\n.set noreorder\njr $31\nnop\n.set pop\n"
#else
#define PLANT_RET "ret\n"
#endif
#define PLANT_STUB(n) \
	".balign 8192\n" \
	".skip 32\n" \
	".globl nb_plant_evict" #n "\n" \
	".type nb_plant_evict" #n ", %function\n" \
	"nb_plant_evict" #n ":\n" \
	PLANT_RET \
	".size nb_plant_evict" #n ", . - nb_plant_evict" #n "\n"

__asm__(".section " PLANT_SECTION ",\"ax\",%progbits\n"
	".balign 8192\n"
	".previous\n"
	".section " PLANT_SECTION "_x,\"ax\",%progbits\n"
	PLANT_STUB(1) PLANT_STUB(2) PLANT_STUB(3) PLANT_STUB(4)
	".previous\n");

#else
/* The Makefile compiles this file only with -DNB_PLANT_PAD=N; ISO C wants
 * a declaration in every translation unit all the same. */
typedef int nb_plant_absent;
#endif
