/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * SipHash-2-4 (Aumasson and Bernstein, 2012): a keyed 64-bit hash of a
 * byte string, two compression rounds per 8-byte word and four to
 * finish, on four 64-bit words of state. The kernel hashes conntrack
 * tuples with it (hash_conntrack_raw) and flow keys for packet steering
 * (__flow_hash_from_keys): a secret key keeps hash chains from being
 * lengthened on purpose from outside. Words are read little-endian
 * whatever the machine, so every machine computes the same hashes.
 */
#include "fp_int.h"
#include "fp_util.h"

static inline uint64_t rol64(uint64_t w, unsigned s)
{
	return w << s | w >> (64 - s);
}

/* Eight bytes at any address, as a little-endian number. */
static inline uint64_t get_unaligned_le64(const uint8_t *p)
{
	uint64_t v;

	__builtin_memcpy(&v, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	return v;
}

#define SIPROUND(v0, v1, v2, v3) do { \
	v0 += v1; v1 = rol64(v1, 13); v1 ^= v0; v0 = rol64(v0, 32); \
	v2 += v3; v3 = rol64(v3, 16); v3 ^= v2; \
	v0 += v3; v3 = rol64(v3, 21); v3 ^= v0; \
	v2 += v1; v1 = rol64(v1, 17); v1 ^= v2; v2 = rol64(v2, 32); \
} while (0)

uint64_t siphash(const void *data, size_t len, const struct siphash_key *key)
{
	const uint8_t *p = data, *end = p + (len - len % 8);
	uint64_t v0 = 0x736f6d6570736575ull ^ key->key[0];
	uint64_t v1 = 0x646f72616e646f6dull ^ key->key[1];
	uint64_t v2 = 0x6c7967656e657261ull ^ key->key[0];
	uint64_t v3 = 0x7465646279746573ull ^ key->key[1];
	uint64_t b = (uint64_t)len << 56;

	for (; p != end; p += 8) {
		uint64_t m = get_unaligned_le64(p);

		v3 ^= m;
		SIPROUND(v0, v1, v2, v3);
		SIPROUND(v0, v1, v2, v3);
		v0 ^= m;
	}
	/* The last 0-7 bytes, under the length in the top byte. */
	switch (len & 7) {
	case 7:
		b |= (uint64_t)p[6] << 48;
		/* fall through */
	case 6:
		b |= (uint64_t)p[5] << 40;
		/* fall through */
	case 5:
		b |= (uint64_t)p[4] << 32;
		/* fall through */
	case 4:
		b |= (uint64_t)p[3] << 24;
		/* fall through */
	case 3:
		b |= (uint64_t)p[2] << 16;
		/* fall through */
	case 2:
		b |= (uint64_t)p[1] << 8;
		/* fall through */
	case 1:
		b |= p[0];
		break;
	default:
		break;
	}
	v3 ^= b;
	SIPROUND(v0, v1, v2, v3);
	SIPROUND(v0, v1, v2, v3);
	v0 ^= b;
	v2 ^= 0xff;
	SIPROUND(v0, v1, v2, v3);
	SIPROUND(v0, v1, v2, v3);
	SIPROUND(v0, v1, v2, v3);
	SIPROUND(v0, v1, v2, v3);
	return (v0 ^ v1) ^ (v2 ^ v3);
}
