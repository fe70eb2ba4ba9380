/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Interrupt entropy: every hardware interrupt stirs the cycle counter and
 * the interrupt number into its CPU's fast pool (four words and an
 * add-rotate-xor permutation, the 32-bit SipHash round); once the pool has
 * seen 1024 interrupts, or a second has passed, it is hashed into the
 * input pool with BLAKE2s (RFC 7693) and starts over. The kernel defers
 * that mixing to a worker; here it runs at once.
 */
#include "fp_int.h"
#include "fp_irq.h"
#include "fp_mm.h"
#include "fp_util.h"

#define BLAKE2S_BLOCK 64u
#define FAST_POOL_MIX 1024u

struct fast_pool {
	uint32_t pool[4];
	uint32_t last;           /* jiffy of the last mix */
	uint32_t count;
};

static struct fast_pool irq_randomness[NB_NCPUS];

static struct {
	uint32_t h[8], t[2], f[2];
	uint8_t buf[BLAKE2S_BLOCK];
	unsigned buflen;
	uint32_t init_bits;
} input_pool;

static const uint32_t blake2s_iv[8] = {
	0x6a09e667u, 0xbb67ae85u, 0x3c6ef372u, 0xa54ff53au,
	0x510e527fu, 0x9b05688cu, 0x1f83d9abu, 0x5be0cd19u,
};

static const uint8_t blake2s_sigma[10][16] = {
	{ 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 },
	{ 14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3 },
	{ 11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4 },
	{ 7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8 },
	{ 9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13 },
	{ 2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9 },
	{ 12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11 },
	{ 13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10 },
	{ 6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5 },
	{ 10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0 },
};

static inline uint32_t ror32(uint32_t w, unsigned s)
{
	return w >> s | w << (32 - s);
}

static inline uint32_t le32_at(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

#define G(a, b, c, d, x, y) do { \
	a += b + (x); d = ror32(d ^ a, 16); c += d; b = ror32(b ^ c, 12); \
	a += b + (y); d = ror32(d ^ a, 8); c += d; b = ror32(b ^ c, 7); \
} while (0)

static void blake2s_compress(const uint8_t *block, uint32_t inc)
{
	uint32_t m[16], v[16];
	unsigned i, r;

	for (i = 0; i < 16; i++)
		m[i] = le32_at(block + 4 * i);
	input_pool.t[0] += inc;
	input_pool.t[1] += input_pool.t[0] < inc;
	for (i = 0; i < 8; i++) {
		v[i] = input_pool.h[i];
		v[i + 8] = blake2s_iv[i];
	}
	v[12] ^= input_pool.t[0];
	v[13] ^= input_pool.t[1];
	v[14] ^= input_pool.f[0];
	v[15] ^= input_pool.f[1];
	for (r = 0; r < 10; r++) {
		const uint8_t *s = blake2s_sigma[r];

		G(v[0], v[4], v[8], v[12], m[s[0]], m[s[1]]);
		G(v[1], v[5], v[9], v[13], m[s[2]], m[s[3]]);
		G(v[2], v[6], v[10], v[14], m[s[4]], m[s[5]]);
		G(v[3], v[7], v[11], v[15], m[s[6]], m[s[7]]);
		G(v[0], v[5], v[10], v[15], m[s[8]], m[s[9]]);
		G(v[1], v[6], v[11], v[12], m[s[10]], m[s[11]]);
		G(v[2], v[7], v[8], v[13], m[s[12]], m[s[13]]);
		G(v[3], v[4], v[9], v[14], m[s[14]], m[s[15]]);
	}
	for (i = 0; i < 8; i++)
		input_pool.h[i] ^= v[i] ^ v[i + 8];
}

/* blake2s_update: whole blocks are compressed once more input follows
 * (the last block waits for the final, which mixing never does). */
static void mix_pool_bytes(const uint8_t *in, unsigned len)
{
	while (len) {
		unsigned fill = BLAKE2S_BLOCK - input_pool.buflen;

		if (input_pool.buflen == BLAKE2S_BLOCK) {
			blake2s_compress(input_pool.buf, BLAKE2S_BLOCK);
			input_pool.buflen = 0;
			fill = BLAKE2S_BLOCK;
		}
		if (fill > len)
			fill = len;
		memcpy(input_pool.buf + input_pool.buflen, in, fill);
		input_pool.buflen += fill;
		in += fill;
		len -= fill;
	}
}

/* The 32-bit SipHash round (HalfSipHash's), twice per input word. */
#define PERM(s) do { \
	s[0] += s[1]; s[1] = rol32(s[1], 5); s[1] ^= s[0]; \
	s[0] = rol32(s[0], 16); s[2] += s[3]; s[3] = rol32(s[3], 8); \
	s[3] ^= s[2]; s[0] += s[3]; s[3] = rol32(s[3], 7); s[3] ^= s[0]; \
	s[2] += s[1]; s[1] = rol32(s[1], 13); s[1] ^= s[2]; \
	s[2] = rol32(s[2], 16); \
} while (0)

static void fast_mix(uint32_t s[4], uint32_t v1, uint32_t v2)
{
	s[3] ^= v1;
	PERM(s);
	s[0] ^= v1;
	s[3] ^= v2;
	PERM(s);
	s[0] ^= v2;
}

static void mix_interrupt_randomness(struct fast_pool *fp)
{
	uint8_t bytes[16];
	unsigned i;

	for (i = 0; i < 4; i++) {
		bytes[4 * i] = (uint8_t)fp->pool[i];
		bytes[4 * i + 1] = (uint8_t)(fp->pool[i] >> 8);
		bytes[4 * i + 2] = (uint8_t)(fp->pool[i] >> 16);
		bytes[4 * i + 3] = (uint8_t)(fp->pool[i] >> 24);
	}
	fp->count = 0;
	fp->last = nb_jiffies;
	mix_pool_bytes(bytes, sizeof(bytes));
	if (input_pool.init_bits < 256)
		input_pool.init_bits++;
}

void add_interrupt_randomness(unsigned irq)
{
	struct fast_pool *fp = &irq_randomness[smp_processor_id()];
	uint32_t entropy = nb_cycle_counter;  /* random_get_entropy */

	fast_mix(fp->pool, entropy, irq << 24 | irq >> 8 | nb_jiffies << 8);
	if (++fp->count < FAST_POOL_MIX && nb_jiffies - fp->last < HZ)
		return;
	mix_interrupt_randomness(fp);
}

/* Control plane at boot: BLAKE2s-256 state, unkeyed. */
void random_init(void)
{
	unsigned i;

	for (i = 0; i < 8; i++)
		input_pool.h[i] = blake2s_iv[i];
	input_pool.h[0] ^= 0x01010000u | 32u;
}
