/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The fast path's memcpy, memmove and memset (fp_mem.h says why it has
 * its own), in plain C and a machine word at a time where the addresses
 * allow it, the way a kernel's are: bytes up to the first word boundary,
 * then blocks of four words, single words, and the last bytes. A source
 * and a destination that are not aligned alike go byte by byte (a
 * kernel's assembly shifts and merges words there; gcc's own calls copy
 * structures, which are aligned alike). Nothing depends on the byte order.
 *
 * This file does not include fp_mem.h: if gcc ever turned one of these
 * loops into a call of the very function, the call would go to the C
 * library and the link check would refuse it, rather than the program
 * recursing. The empty asm statements (as in copy_bytes, fp_util.h) hide
 * the pointers' steps from gcc so that it does not recognise the loops.
 */
#include <stddef.h>
#include <stdint.h>

/* A machine word that may alias anything, as the bytes it moves do. */
typedef uintptr_t __attribute__((__may_alias__)) nb_word;

#define WSIZE sizeof(nb_word)
#define WMASK ((uintptr_t)WSIZE - 1)

#define HIDE(d, s) __asm__("" : "+r"(d), "+r"(s))

void *nb_memcpy(void *restrict dst, const void *restrict src, size_t n);
void *nb_memmove(void *dst, const void *src, size_t n);
void *nb_memset(void *dst, int c, size_t n);

static inline int aligned_alike(const void *a, const void *b)
{
	return (((uintptr_t)a ^ (uintptr_t)b) & WMASK) == 0;
}

/* Upwards: also right for overlapping buffers when d is below s (each
 * block is read before it is written, and a distance of whole words). */
static inline void copy_up(unsigned char *d, const unsigned char *s,
			   size_t n)
{
	if (n >= 2 * WSIZE && aligned_alike(d, s)) {
		while ((uintptr_t)d & WMASK) {
			*d++ = *s++;
			HIDE(d, s);
			n--;
		}
		while (n >= 4 * WSIZE) {
			const nb_word *sw = (const nb_word *)(const void *)s;
			nb_word *dw = (nb_word *)(void *)d;
			nb_word w0 = sw[0], w1 = sw[1], w2 = sw[2], w3 = sw[3];

			dw[0] = w0;
			dw[1] = w1;
			dw[2] = w2;
			dw[3] = w3;
			d += 4 * WSIZE;
			s += 4 * WSIZE;
			HIDE(d, s);
			n -= 4 * WSIZE;
		}
		while (n >= WSIZE) {
			*(nb_word *)(void *)d = *(const nb_word *)(const void *)s;
			d += WSIZE;
			s += WSIZE;
			HIDE(d, s);
			n -= WSIZE;
		}
	}
	while (n) {
		*d++ = *s++;
		HIDE(d, s);
		n--;
	}
}

/* Downwards from the ends, for a d above an overlapping s. */
static inline void copy_down(unsigned char *d, const unsigned char *s,
			     size_t n)
{
	d += n;
	s += n;
	if (n >= 2 * WSIZE && aligned_alike(d, s)) {
		while ((uintptr_t)d & WMASK) {
			*--d = *--s;
			HIDE(d, s);
			n--;
		}
		while (n >= 4 * WSIZE) {
			const nb_word *sw;
			nb_word *dw, w0, w1, w2, w3;

			d -= 4 * WSIZE;
			s -= 4 * WSIZE;
			HIDE(d, s);
			sw = (const nb_word *)(const void *)s;
			dw = (nb_word *)(void *)d;
			w3 = sw[3];
			w2 = sw[2];
			w1 = sw[1];
			w0 = sw[0];
			dw[3] = w3;
			dw[2] = w2;
			dw[1] = w1;
			dw[0] = w0;
			n -= 4 * WSIZE;
		}
		while (n >= WSIZE) {
			d -= WSIZE;
			s -= WSIZE;
			HIDE(d, s);
			*(nb_word *)(void *)d = *(const nb_word *)(const void *)s;
			n -= WSIZE;
		}
	}
	while (n) {
		*--d = *--s;
		HIDE(d, s);
		n--;
	}
}

void *nb_memcpy(void *restrict dst, const void *restrict src, size_t n)
{
	copy_up(dst, src, n);
	return dst;
}

void *nb_memmove(void *dst, const void *src, size_t n)
{
	/* As unsigned differences: d below s, or at or past its end. */
	if ((uintptr_t)dst - (uintptr_t)src >= n)
		copy_up(dst, src, n);
	else if (dst != src)
		copy_down(dst, src, n);
	return dst;
}

void *nb_memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst, b = (unsigned char)c;

	if (n >= 2 * WSIZE) {
		/* The byte in every byte of a word: 0x0101...01 times b. */
		nb_word w = (nb_word)-1 / 0xff * b;

		while ((uintptr_t)d & WMASK) {
			*d++ = b;
			HIDE(d, w);
			n--;
		}
		while (n >= 4 * WSIZE) {
			nb_word *dw = (nb_word *)(void *)d;

			dw[0] = w;
			dw[1] = w;
			dw[2] = w;
			dw[3] = w;
			d += 4 * WSIZE;
			HIDE(d, w);
			n -= 4 * WSIZE;
		}
		while (n >= WSIZE) {
			*(nb_word *)(void *)d = w;
			d += WSIZE;
			HIDE(d, w);
			n -= WSIZE;
		}
	}
	while (n) {
		*d++ = b;
		HIDE(d, b);
		n--;
	}
	return dst;
}
