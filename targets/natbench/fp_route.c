/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Routing decisions: where a received packet goes (ip_route_input_noref:
 * the martian checks, the table lookup, the source validation, the
 * nexthop's cached route) and the route of a packet the router sends,
 * both on the longest-prefix-match table of fp_fib_trie.c, local /32
 * routes for the router's own addresses included.
 */
#include "fp_int.h"
#include "fp_mm.h"
#include "fp_util.h"

#define DST_OBSOLETE_FORCE_CHK 0xffffu

static struct kmem_cache *ip_dst_cache;
/* The routes' generation: bumped when the table changes, which makes
 * every cached route stale (rt_genid). */
static uint32_t rt_genid = 1;
static uint64_t in_slow_tot, in_no_route, in_martian_src, out_slow_tot;
/* Broadcast and multicast received: delivered locally. */
static struct rtable rt_local_bcast;

/* The routes changed: every cached route is stale from now on. */
void rt_cache_flush(void)
{
	rt_genid++;
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

/* inet_lookup_ifaddr: is the address one of the router's? */
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

static int rt_cache_valid(const struct rtable *rt)
{
	return rt && rt->rt_genid == rt_genid;
}

/* A route object from its slab (rt_dst_alloc). */
static struct rtable *rt_dst_alloc(unsigned dev, unsigned type)
{
	struct rtable *rt = kmem_cache_alloc(ip_dst_cache);

	if (!rt)
		return NULL;
	memset(rt, 0, sizeof(*rt));
	rt->dev = (uint8_t)dev;
	rt->rt_type = (uint8_t)type;
	rt->rt_genid = rt_genid;
	rt->refcnt = 1;
	rt->mtu = dev < NB_NIFS ? nb_ifs[dev].mtu : 1500;
	rt->lastuse = nb_jiffies;
	return rt;
}

void dst_release(struct rtable *rt)
{
	if (!rt->cached && --rt->refcnt == 0)
		kmem_cache_free(ip_dst_cache, rt);
}

/* The nexthop's cached route, made on first use or when stale. */
static struct rtable *rt_cached(struct rtable **slot, const struct fib_result *res,
				unsigned type, void (*input)(struct sk_buff *skb),
				void (*output)(struct sk_buff *skb))
{
	struct rtable *rt = *slot;

	if (likely(rt_cache_valid(rt)))
		return rt;
	if (rt) {
		/* Stale: nobody holds cached routes, free it. */
		rt->cached = 0;
		dst_release(rt);
		*slot = NULL;
	}
	rt = rt_dst_alloc(type == RTN_LOCAL ? IF_LOCAL : res->oif, type);
	if (!rt)
		return NULL;
	rt->input = input;
	rt->output = output;
	rt->rt_gw4 = res->gw;
	rt->rt_uses_gateway = res->gw != 0;
	rt->cached = 1;
	*slot = rt;
	return rt;
}

static void skb_dst_set(struct sk_buff *skb, struct rtable *rt, int held)
{
	rt->use++;
	rt->lastuse = nb_jiffies;
	skb->dst = rt;
	skb->dst_ref = (uint8_t)held;
}

/* No route: an uncached route whose input answers with an error. */
static int ip_route_input_error(struct sk_buff *skb, unsigned type)
{
	struct rtable *rt = rt_dst_alloc(IF_NONE, type);

	if (!rt)
		return -1;
	rt->input = ip_error;
	rt->output = ip_error;
	rt->error = (int8_t)type;
	in_no_route++;
	skb_dst_set(skb, rt, 1);
	return 0;
}

/* Where a received packet goes (ip_route_input_slow and
 * __mkroute_input): the route on skb->dst, and for a forward the output
 * device and next hop. -1: a martian source. */
int ip_route_input_noref(struct sk_buff *skb, uint32_t daddr, uint32_t saddr)
{
	struct fib_result res;
	struct rtable *rt;

	if (is_broadcast(daddr, skb->dev) || daddr >> 28 == 0xe) {
		skb->odev = IF_LOCAL;
		skb_dst_set(skb, &rt_local_bcast, 0);
		return 0;
	}
	in_slow_tot++;
	if (fib_lookup(&res, daddr) < 0)
		return ip_route_input_error(skb, RTN_UNREACHABLE);
	switch (res.type) {
	case RTN_LOCAL:
		rt = rt_cached(&res.fa->rth_input, &res, RTN_LOCAL,
			       ip_local_deliver, ip_error);
		if (!rt)
			return -1;
		skb->odev = IF_LOCAL;
		skb_dst_set(skb, rt, 0);
		return 0;
	case RTN_UNICAST:
		break;
	default:
		return ip_route_input_error(skb, res.type);
	}
	/* fib_validate_source: a source that claims to be us, or nobody,
	 * is spoofed. */
	if (saddr >> 24 == 0 || is_local_addr(saddr)) {
		in_martian_src++;
		return -1;
	}
	rt = rt_cached(&res.fa->rth_input, &res, RTN_UNICAST, ip_forward,
		       ip_output);
	if (!rt)
		return -1;
	rt->rt_is_input = 1;
	skb_dst_set(skb, rt, 0);
	skb->odev = rt->dev;
	skb->nexthop = rt->rt_uses_gateway ? rt->rt_gw4 : daddr;
	return 0;
}

/* The route of a packet the router sends: RTN_UNICAST with skb->dst
 * set, or the type that stops it. */
int ip_route_output(struct sk_buff *skb, uint32_t dst)
{
	struct fib_result res;
	struct rtable *rt;

	out_slow_tot++;
	if (fib_lookup(&res, dst) < 0)
		return RTN_UNREACHABLE;
	if (res.type != RTN_UNICAST)
		return res.type;
	rt = rt_cached(&res.fa->rth_output, &res, RTN_UNICAST, ip_error,
		       ip_output);
	if (!rt)
		return RTN_UNREACHABLE;
	skb_dst_set(skb, rt, 0);
	skb->odev = rt->dev;
	skb->nexthop = rt->rt_uses_gateway ? rt->rt_gw4 : dst;
	return RTN_UNICAST;
}

/* Control plane at boot: the route objects' cache. */
void route_init(void)
{
	fib_trie_init();
	ip_dst_cache = kmem_cache_create("ip_dst_cache",
					 (unsigned)sizeof(struct rtable), NB_LINE);
	rt_local_bcast.input = ip_local_deliver;
	rt_local_bcast.output = ip_error;
	rt_local_bcast.dev = IF_LOCAL;
	rt_local_bcast.rt_type = RTN_LOCAL;
	rt_local_bcast.cached = 1;
	rt_local_bcast.rt_genid = rt_genid;
}
