/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Internet checksums over buffers and packets: csum_partial, the ones'
 * complement sum of a buffer (RFC 1071) a machine word at a time, eight
 * words a round, as the kernel's assembly does (arch/arm/lib/csumpartial.S
 * stands for it: out of line, called for every buffer); and the sk_buff
 * side: skb_checksum over a packet's bytes, __skb_checksum_complete,
 * which checks a packet's L4 checksum against a pseudo-header sum the
 * caller left in skb->csum and records the packet's full sum
 * (CHECKSUM_COMPLETE) for whoever comes next.
 *
 * The sum is taken on native words and turned into network order at the
 * end: ones' complement addition commutes with swapping the bytes of
 * every 16-bit word, so this is the same sum on either byte order.
 */
#include "fp_int.h"
#include "fp_util.h"

/* Words of packet data, which may alias anything. */
typedef uint32_t __attribute__((__may_alias__)) csum_w32;
typedef uint16_t __attribute__((__may_alias__)) csum_w16;

/* A 16-bit native-order sum as the network-order value it stands for. */
static inline uint32_t native16_to_net(uint32_t s)
{
	uint16_t h = (uint16_t)s;
	uint8_t b[2];

	__builtin_memcpy(b, &h, 2);
	return (uint32_t)b[0] << 8 | b[1];
}

/* Two bytes as the native 16-bit word they would be in memory. */
static inline uint32_t bytes_as_native16(uint8_t first, uint8_t second)
{
	uint8_t b[2] = { first, second };
	uint16_t h;

	__builtin_memcpy(&h, b, 2);
	return h;
}

static inline uint32_t fold64(uint64_t s)
{
	s = (s & 0xffffffffu) + (s >> 32);
	s = (s & 0xffffffffu) + (s >> 32);
	s = (s & 0xffff) + (s >> 16);
	s = (s & 0xffff) + (s >> 16);
	return (uint32_t)s;
}

/* The ones' complement sum of n bytes at p, folded to 16 bits, in
 * network order, added to sum (which is in network order too). */
uint32_t csum_partial(const uint8_t *p, uint32_t n, uint32_t sum)
{
	uint64_t s = 0;
	int odd = (uintptr_t)p & 1;
	uint32_t r;

	if (unlikely(odd) && n) {
		/* The first byte is the second of an aligned word: sum in
		 * the other lane, swap at the end. */
		s += bytes_as_native16(0, p[0]);
		p++;
		n--;
	}
	if (n >= 2 && ((uintptr_t)p & 2)) {
		s += *(const csum_w16 *)(const void *)p;
		p += 2;
		n -= 2;
	}
	while (n >= 32) {
		const csum_w32 *w = (const csum_w32 *)(const void *)p;

		s += w[0];
		s += w[1];
		s += w[2];
		s += w[3];
		s += w[4];
		s += w[5];
		s += w[6];
		s += w[7];
		p += 32;
		n -= 32;
	}
	while (n >= 4) {
		s += *(const csum_w32 *)(const void *)p;
		p += 4;
		n -= 4;
	}
	if (n >= 2) {
		s += *(const csum_w16 *)(const void *)p;
		p += 2;
		n -= 2;
	}
	if (n)
		s += bytes_as_native16(p[0], 0);
	r = fold64(s);
	if (unlikely(odd))
		r = (r >> 8 | r << 8) & 0xffff;
	r = native16_to_net(r) + sum;
	r = (r & 0xffff) + (r >> 16);
	return (r & 0xffff) + (r >> 16);
}

/* The sum of len bytes of the packet from offset (from skb->data). */
uint32_t skb_checksum(const struct sk_buff *skb, uint32_t offset,
		      uint32_t len, uint32_t csum)
{
	if (unlikely(offset + len > skb->len))
		len = offset < skb->len ? skb->len - offset : 0;
	/* Linear data only: the sk_buffs of this router have no page
	 * fragments (bgmac builds them around whole buffers). */
	return csum_partial(skb->data + offset, len, csum);
}

/* 0 if the packet's sum with skb->csum (a pseudo-header) folds to all
 * ones, i.e. its checksum is right; remembers the packet's sum. */
uint16_t __skb_checksum_complete(struct sk_buff *skb)
{
	uint32_t csum = skb_checksum(skb, 0, skb->len, 0);
	uint32_t s = csum + skb->csum;
	uint16_t sum;

	s = (s & 0xffff) + (s >> 16);
	s = (s & 0xffff) + (s >> 16);
	sum = (uint16_t)~s;
	if (skb->users == 1) {
		skb->csum = csum;
		skb->ip_summed = CHECKSUM_COMPLETE;
		skb->csum_valid = !sum;
	}
	return sum;
}

/* The pseudo-header of TCP and UDP over IPv4: both addresses, the
 * protocol and the L4 length, in network order, unfolded. */
uint32_t csum_tcpudp_nofold(uint32_t saddr, uint32_t daddr, uint32_t len,
			    unsigned proto, uint32_t sum)
{
	uint64_t s = sum;

	s += saddr >> 16;
	s += saddr & 0xffff;
	s += daddr >> 16;
	s += daddr & 0xffff;
	s += proto;
	s += len;
	return fold64(s);
}

/* The L4 checksum at sum after a 32-bit field changed from one value to
 * another (inet_proto_csum_replace4); pseudohdr: the field is part of the
 * pseudo-header too (an address), so a full sum kept for the packet
 * (CHECKSUM_COMPLETE) moves with it, and a partial checksum (which holds
 * the pseudo-header's sum for the device to finish) is updated the other
 * way round. */
void inet_proto_csum_replace4(uint8_t *sum, struct sk_buff *skb,
			      uint32_t from, uint32_t to, int pseudohdr)
{
	if (skb->ip_summed != CHECKSUM_PARTIAL) {
		csum_replace4(sum, from, to);
		if (skb->ip_summed == CHECKSUM_COMPLETE && pseudohdr) {
			uint64_t s = skb->csum;

			s += (uint16_t)~(from >> 16);
			s += (uint16_t)~from;
			s += to >> 16;
			s += to & 0xffff;
			skb->csum = fold64(s);
		}
	} else if (pseudohdr) {
		wr16(sum, (uint16_t)~csum32_replace((uint16_t)~rd16(sum),
						    from, to));
	}
}

void inet_proto_csum_replace2(uint8_t *sum, struct sk_buff *skb,
			      uint16_t from, uint16_t to, int pseudohdr)
{
	if (skb->ip_summed != CHECKSUM_PARTIAL) {
		csum_replace2(sum, from, to);
		if (skb->ip_summed == CHECKSUM_COMPLETE && pseudohdr)
			skb->csum = fold64((uint64_t)skb->csum +
					   (uint16_t)~from + to);
	} else if (pseudohdr) {
		wr16(sum, (uint16_t)~csum16_replace((uint16_t)~rd16(sum),
						    from, to));
	}
}
