/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Independent checks of what the router transmits: the IPv4 header
 * checksum and the TCP, UDP and ICMP checksums recomputed in full, and the
 * header checksum of the packet an ICMP error quotes. Written apart from
 * the fast path's incremental updates so that it can catch them wrong.
 */
#include "harness.h"

static uint32_t be16(const uint8_t *p)
{
	return (uint32_t)p[0] << 8 | p[1];
}

static uint32_t sum16(const uint8_t *p, uint32_t n, uint32_t s)
{
	uint32_t i;

	for (i = 0; i + 1 < n; i += 2)
		s += be16(p + i);
	if (n & 1)
		s += (uint32_t)p[n - 1] << 8;
	return s;
}

static int folds_to_ones(uint32_t s)
{
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return s == 0xffff;
}

static int check_ipv4(const uint8_t *ip, uint32_t len)
{
	uint32_t ihl, tot, l4len, ph;
	const uint8_t *l4;

	if (len < 20 || ip[0] >> 4 != 4)
		return -1;
	ihl = (ip[0] & 15u) * 4u;
	tot = be16(ip + 2);
	if (ihl < 20 || tot < ihl || tot > len)
		return -1;
	if (!folds_to_ones(sum16(ip, ihl, 0)))
		return -1;
	if (be16(ip + 6) & 0x3fff)
		return 0;  /* a fragment: its L4 sum spans others */
	l4 = ip + ihl;
	l4len = tot - ihl;
	ph = sum16(ip + 12, 8, 0) + ip[9] + l4len;
	switch (ip[9]) {
	case 6:
		return l4len >= 20 && folds_to_ones(sum16(l4, l4len, ph)) ? 0 : -1;
	case 17:
		if (l4len < 8 || be16(l4 + 4) != l4len)
			return -1;
		if (be16(l4 + 6) == 0)
			return 0;  /* sent without a checksum */
		return folds_to_ones(sum16(l4, l4len, ph)) ? 0 : -1;
	case 1:
		if (l4len < 8 || !folds_to_ones(sum16(l4, l4len, 0)))
			return -1;
		if ((l4[0] == 3 || l4[0] == 11 || l4[0] == 12) && l4len >= 28) {
			const uint8_t *in = l4 + 8;
			uint32_t inl = (in[0] & 15u) * 4u;

			if (in[0] >> 4 != 4 || inl < 20 || inl > l4len - 8 ||
			    !folds_to_ones(sum16(in, inl, 0)))
				return -1;
		}
		return 0;
	default:
		return 0;
	}
}

int verify_frame(const uint8_t *f, uint32_t len)
{
	uint32_t off = 12;
	uint32_t type;

	for (;;) {
		if (len < off + 2)
			return -1;
		type = be16(f + off);
		if (type != 0x8100 && type != 0x88a8)
			break;
		off += 4;
	}
	off += 2;
	if (type == 0x8864) {
		if (len < off + 8)
			return -1;
		if (be16(f + off + 6) != 0x0021)
			return 0;
		if (be16(f + off + 4) + off + 6 > len)
			return -1;
		off += 8;
		type = 0x0800;
	}
	if (type != 0x0800)
		return 0;
	return check_ipv4(f + off, len - off);
}
