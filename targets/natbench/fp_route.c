/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Routing: a longest-prefix-match table in the style of the old fib_hash,
 * one hash zone per prefix length searched from the longest non-empty zone
 * down, local /32 routes for the router's own addresses, and the input and
 * output route decisions built on it.
 */
#include "fp_int.h"
#include "fp_util.h"

struct fib_table nb_fib;

static uint32_t fz_hash(uint32_t key, unsigned plen)
{
	uint32_t h;

	if (plen == 0)
		return 0;
	h = key >> (32 - plen);
	h ^= h >> 19;
	h ^= h >> 11;
	h ^= h >> 6;
	return h % FIB_ZONE_BUCKETS;
}

static uint32_t plen_mask(unsigned plen)
{
	return plen ? 0xffffffffu << (32 - plen) : 0;
}

/* Control plane (runs at configuration time): adds a route. 0 or -1. */
int fib_insert(uint32_t prefix, unsigned plen, unsigned type, unsigned oif,
	       uint32_t gw, uint32_t prefsrc)
{
	struct fib_zone *z = &nb_fib.zones[plen];
	struct fib_alias *fa;
	uint32_t h, i, j;

	if (plen > 32 || nb_fib.nalias >= FIB_MAX_ALIAS)
		return -1;
	prefix &= plen_mask(plen);
	fa = &nb_fib.alias[nb_fib.nalias++];
	fa->key = prefix;
	fa->plen = (uint8_t)plen;
	fa->type = (uint8_t)type;
	fa->oif = (uint8_t)oif;
	fa->scope = 0;
	fa->gw = gw;
	fa->prefsrc = prefsrc;
	fa->hits = 0;
	h = fz_hash(prefix, plen);
	fa->next = z->head[h];
	z->head[h] = nb_fib.nalias;
	z->mask = plen_mask(plen);
	if (z->count++ == 0) {
		/* Keep the zone order longest first. */
		for (i = 0; i < nb_fib.nzones && nb_fib.order[i] > plen; i++)
			;
		for (j = nb_fib.nzones; j > i; j--) {
			nb_fib.order[j] = nb_fib.order[j - 1];
			__asm__("" : "+r"(j));  /* a loop, not memmove() */
		}
		nb_fib.order[i] = (uint8_t)plen;
		nb_fib.nzones++;
	}
	return 0;
}

int fib_lookup(struct fib_result *res, uint32_t dst)
{
	unsigned i;

	for (i = 0; i < nb_fib.nzones; i++) {
		unsigned plen = nb_fib.order[i];
		const struct fib_zone *z = &nb_fib.zones[plen];
		uint32_t key = dst & z->mask;
		uint32_t a = z->head[fz_hash(key, plen)];

		while (a) {
			struct fib_alias *fa = &nb_fib.alias[a - 1];

			if (fa->key == key && fa->plen == plen) {
				res->type = fa->type;
				res->oif = fa->oif;
				res->plen = fa->plen;
				res->gw = fa->gw;
				res->prefsrc = fa->prefsrc;
				fa->hits++;
				return 0;
			}
			a = fa->next;
		}
	}
	return -1;
}

unsigned inet_addr_type(uint32_t addr)
{
	struct fib_result res;

	if (addr >> 28 == 0xe)
		return XT_ADDRTYPE_MULTICAST;
	if (addr == 0xffffffffu)
		return XT_ADDRTYPE_BROADCAST;
	if (fib_lookup(&res, addr) < 0)
		return XT_ADDRTYPE_UNREACHABLE;
	switch (res.type) {
	case RTN_LOCAL:
		return XT_ADDRTYPE_LOCAL;
	case RTN_UNICAST:
		return XT_ADDRTYPE_UNICAST;
	case RTN_BLACKHOLE:
		return XT_ADDRTYPE_BLACKHOLE;
	default:
		return XT_ADDRTYPE_UNREACHABLE;
	}
}

static int is_local_addr(uint32_t a)
{
	unsigned i;

	for (i = 0; i < NB_NIFS; i++)
		if (nb_ifs[i].addr == a)
			return 1;
	return 0;
}

static int is_broadcast(uint32_t dst, unsigned dev)
{
	const struct nb_iface *d;

	if (dst == 0xffffffffu)
		return 1;
	if (dev >= NB_NIFS)
		return 0;
	d = &nb_ifs[dev];
	return d->mask && (dst | d->mask) == 0xffffffffu &&
	       (dst & d->mask) == (d->addr & d->mask);
}

/* Decides what happens to a received packet: returns an RTN_* type and,
 * for RTN_UNICAST, sets the output device and next hop. */
int ip_route_input(struct sk_buff *skb, uint32_t dst, uint32_t src)
{
	struct fib_result res;

	if (is_broadcast(dst, skb->dev) || dst >> 28 == 0xe) {
		skb->odev = IF_LOCAL;
		return RTN_LOCAL;
	}
	if (fib_lookup(&res, dst) < 0)
		return RTN_UNREACHABLE;
	if (res.type == RTN_LOCAL) {
		skb->odev = IF_LOCAL;
		return RTN_LOCAL;
	}
	if (res.type != RTN_UNICAST)
		return res.type;
	/* A source that claims to be us is spoofed. */
	if (src >> 24 == 0 || is_local_addr(src))
		return RTN_BLACKHOLE;
	skb->odev = res.oif;
	skb->nexthop = res.gw ? res.gw : dst;
	return RTN_UNICAST;
}

int ip_route_output(struct sk_buff *skb, uint32_t dst)
{
	struct fib_result res;

	if (fib_lookup(&res, dst) < 0)
		return RTN_UNREACHABLE;
	if (res.type != RTN_UNICAST)
		return res.type;
	skb->odev = res.oif;
	skb->nexthop = res.gw ? res.gw : dst;
	return RTN_UNICAST;
}
