/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * memcpy, memset and memmove of the fast path: its own (fp_mem.c), as a
 * kernel has its own (arch/arm/lib/memcpy.S and the like) and links no C
 * library.
 *
 * gcc calls these three by itself: for a structure assignment or
 * initialisation too large to inline, for a loop it recognises as a copy
 * or a fill (-ftree-loop-distribute-patterns, on from -O2), and for a
 * __builtin_memcpy it does not expand, more often at -Os and on ARM and
 * MIPS than on x86-64. Declared with an assembler name, they make gcc use
 * that name for its own calls as well as for written ones: the fast path
 * calls nb_memcpy, nb_memset and nb_memmove, code that is counted with
 * it, and never the C library (the Makefile's link check). The harness
 * does not include this file and keeps the C library's.
 *
 * Every fp_*.c includes it (through fp_util.h, or directly) before its
 * first function; fp_mem.c, which defines them, does not.
 */
#ifndef FP_MEM_H
#define FP_MEM_H

#include <stddef.h>

void *memcpy(void *restrict dst, const void *restrict src, size_t n)
	__asm__("nb_memcpy");
void *memmove(void *dst, const void *src, size_t n) __asm__("nb_memmove");
void *memset(void *dst, int c, size_t n) __asm__("nb_memset");

#endif
