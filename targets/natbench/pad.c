/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The layout pad: PAD_BYTES of never-executed code placed at the start of
 * the hot text. The section name sorts it into .text.hot, which the
 * default linker script places before .text, so the pad shifts every
 * function after it, with or without PGO (which moves hot functions into
 * .text.hot). Linked first; not linked at all for layout seed 0.
 * (%progbits, not @progbits: "@" starts a comment in ARM assembly.)
 */
#ifndef PAD_BYTES
#define PAD_BYTES 16
#endif
#define STR2(x) #x
#define STR(x) STR2(x)

__asm__(".section .text.hot.natbench_pad,\"ax\",%progbits\n"
	".globl natbench_pad\n"
	"natbench_pad:\n"
	".skip " STR(PAD_BYTES) ", 0xcc\n"
	".previous\n");
