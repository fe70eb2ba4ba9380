/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Neighbours: the ARP cache (hash of entries with NUD states, a cached link
 * header per entry, one queued packet while a lookup is outstanding), ARP
 * request / reply handling, solicitation and ageing, and the output step
 * that puts the link header in front of a routed packet.
 */
#include "fp_int.h"
#include "fp_irq.h"
#include "fp_util.h"

struct neigh_table nb_arp;

#define REACHABLE_TIME 300u   /* jiffies before an entry goes stale */
#define GC_STALE_TIME 1200u   /* unused stale entries are dropped */
#define RETRANS_TIME 8u
#define MAX_PROBES 3u

static const uint8_t bcast_mac[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

static uint32_t neigh_hash(uint32_t ip, unsigned ifidx)
{
	return hash_3words(ip, ifidx, 0, nb_arp.rnd) % NEIGH_BUCKETS;
}

static struct neighbour *neigh_lookup(uint32_t ip, unsigned ifidx)
{
	uint32_t i = nb_arp.hash[neigh_hash(ip, ifidx)];

	nb_arp.lookups++;
	while (i) {
		struct neighbour *n = &nb_arp.n[i - 1];

		if (n->ip == ip && n->ifidx == ifidx)
			return n;
		i = n->next;
	}
	nb_arp.misses++;
	return NULL;
}

static void neigh_fill_hh(struct neighbour *n)
{
	uint8_t *h = n->hh + sizeof(n->hh) - ETH_HLEN;

	mac_copy(h, n->mac);
	mac_copy(h + 6, nb_devs[l3_dev(n->ifidx)].mac);
	wr16(h + 12, ETH_P_IP);
	n->hh_len = ETH_HLEN;
}

static struct neighbour *neigh_create(uint32_t ip, unsigned ifidx)
{
	struct neighbour *n;
	uint32_t h, i;

	for (i = 0; i < NEIGH_MAX; i++) {
		if (nb_arp.n[i].state == NUD_NONE)
			break;
	}
	if (i == NEIGH_MAX)
		return NULL;
	n = &nb_arp.n[i];
	n->ip = ip;
	n->ifidx = (uint8_t)ifidx;
	n->state = NUD_INCOMPLETE;
	n->probes = 0;
	n->hh_len = 0;
	n->updated = n->used = nb_jiffies;
	n->queue = NULL;
	h = neigh_hash(ip, ifidx);
	n->next = nb_arp.hash[h];
	nb_arp.hash[h] = i + 1;
	nb_arp.count++;
	return n;
}

static void neigh_destroy(struct neighbour *n)
{
	uint32_t idx = (uint32_t)(n - nb_arp.n) + 1;
	uint32_t *pp = &nb_arp.hash[neigh_hash(n->ip, n->ifidx)];

	while (*pp && *pp != idx)
		pp = &nb_arp.n[*pp - 1].next;
	if (*pp)
		*pp = n->next;
	if (n->queue) {
		kfree_skb(n->queue);
		nb_stats.drop_neigh++;
	}
	n->queue = NULL;
	n->state = NUD_NONE;
	nb_arp.count--;
}

/* Right-aligned 16-byte copy of the cached header, like neigh_hh_output:
 * fixed size, so no length-dependent loop (and no library call). */
static void neigh_hh_output(const struct neighbour *n, struct sk_buff *skb)
{
	uint8_t *d = skb->data - sizeof(n->hh);
	uint64_t w0, w1;

	__builtin_memcpy(&w0, n->hh, 8);
	__builtin_memcpy(&w1, n->hh + 8, 8);
	__builtin_memcpy(d, &w0, 8);
	__builtin_memcpy(d + 8, &w1, 8);
	skb->data -= n->hh_len;
	skb->len += n->hh_len;
	dev_xmit(skb, l3_dev(n->ifidx));
}

static void arp_send(unsigned op, unsigned ifidx, const uint8_t *dst_hw,
		     uint32_t tip, const uint8_t *tha)
{
	struct sk_buff *skb = skb_alloc_local(28);
	const struct nb_iface *d = &nb_ifs[ifidx];
	unsigned nd = l3_dev(ifidx);
	uint8_t *a;

	if (!skb)
		return;
	a = skb_put(skb, 28);
	wr16(a, 1);
	wr16(a + 2, ETH_P_IP);
	a[4] = 6;
	a[5] = 4;
	wr16(a + 6, (uint16_t)op);
	mac_copy(a + 8, nb_devs[nd].mac);
	wr32(a + 14, d->addr);
	mac_copy(a + 18, tha);
	wr32(a + 24, tip);
	if (eth_header(skb, nd, dst_hw, ETH_P_ARP) < 0) {
		kfree_skb(skb);
		return;
	}
	skb->odev = (uint8_t)ifidx;
	nb_stats.arp_tx++;
	dev_xmit(skb, nd);
}

static void arp_solicit(struct neighbour *n, int unicast)
{
	static const uint8_t zero[6];

	n->probes++;
	nb_arp.solicits++;
	arp_send(1, n->ifidx, unicast ? n->mac : bcast_mac, n->ip,
		 unicast ? n->mac : zero);
}

static void neigh_update(struct neighbour *n, const uint8_t *mac)
{
	struct sk_buff *q = n->queue;

	if (n->state == NUD_PERMANENT)
		return;
	if (n->hh_len == 0 || !mac_equal(n->mac, mac)) {
		mac_copy(n->mac, mac);
		neigh_fill_hh(n);
	}
	n->state = NUD_REACHABLE;
	n->probes = 0;
	n->updated = nb_jiffies;
	n->queue = NULL;
	if (q)
		neigh_hh_output(n, q);
}

void neigh_output(struct sk_buff *skb)
{
	struct neighbour *n;
	unsigned oif = skb->odev;

	if (oif == IF_PPP) {
		/* Point-to-point: no neighbours, the PPP unit frames it. */
		dev_xmit(skb, ND_PPP);
		return;
	}
	n = neigh_lookup(skb->nexthop, oif);
	if (!n) {
		n = neigh_create(skb->nexthop, oif);
		if (!n)
			goto drop;
	}
	n->used = nb_jiffies;
	switch (n->state) {
	case NUD_REACHABLE:
	case NUD_PERMANENT:
		neigh_hh_output(n, skb);
		return;
	case NUD_STALE:
		/* Send now, confirm the address with a unicast probe. */
		if (n->probes == 0)
			arp_solicit(n, 1);
		neigh_hh_output(n, skb);
		return;
	case NUD_INCOMPLETE:
		if (n->queue) {
			kfree_skb(n->queue);
			nb_stats.drop_neigh++;
		}
		n->queue = skb;
		if (n->probes == 0 ||
		    nb_jiffies - n->updated >= RETRANS_TIME * n->probes)
			arp_solicit(n, 0);
		return;
	default:
		break;
	}
drop:
	nb_stats.drop_neigh++;
	kfree_skb(skb);
}

void arp_rcv(struct sk_buff *skb)
{
	uint8_t *a = skb->data;
	const struct nb_iface *d;
	struct neighbour *n;
	uint32_t sip, tip;
	unsigned op;

	nb_stats.arp_rx++;
	if (skb->len < 28 || rd16(a) != 1 || rd16(a + 2) != ETH_P_IP ||
	    a[4] != 6 || a[5] != 4)
		goto drop;
	op = rd16(a + 6);
	sip = rd32(a + 14);
	tip = rd32(a + 24);
	d = &nb_ifs[skb->dev];
	if (sip >> 28 == 0xe || (a[8] & 1))
		goto drop;
	n = neigh_lookup(sip, skb->dev);
	if (tip != d->addr) {
		/* Not for us: a gratuitous announcement refreshes an entry. */
		if (n && sip == tip)
			neigh_update(n, a + 8);
		goto drop;
	}
	if (!n)
		n = neigh_create(sip, skb->dev);
	if (n)
		neigh_update(n, a + 8);
	if (op != 1)
		goto drop;
	/* Reply in place: swap the addresses, answer with ours. */
	wr16(a + 6, 2);
	mac_copy(a + 18, a + 8);
	wr32(a + 24, sip);
	mac_copy(a + 8, nb_devs[l3_dev(skb->dev)].mac);
	wr32(a + 14, d->addr);
	skb_trim(skb, 28);
	if (eth_header(skb, l3_dev(skb->dev), a + 18, ETH_P_ARP) < 0)
		goto drop;
	skb->odev = skb->dev;
	skb->local = 1;
	nb_stats.arp_tx++;
	dev_xmit(skb, l3_dev(skb->dev));
	return;
drop:
	kfree_skb(skb);
}

static struct timer_list neigh_timer;

/* Ages a few entries a jiffy (neigh_periodic_work). */
static void neigh_periodic(struct timer_list *t)
{
	static uint32_t cursor;
	unsigned k;

	for (k = 0; k < 4; k++) {
		struct neighbour *n = &nb_arp.n[cursor];

		cursor = (cursor + 1) % NEIGH_MAX;
		switch (n->state) {
		case NUD_REACHABLE:
			if (nb_jiffies - n->updated > REACHABLE_TIME) {
				n->state = NUD_STALE;
				n->probes = 0;
			}
			break;
		case NUD_STALE:
			if (nb_jiffies - n->used > GC_STALE_TIME)
				neigh_destroy(n);
			else if (n->probes >= MAX_PROBES)
				n->state = NUD_FAILED;
			break;
		case NUD_INCOMPLETE:
			if (n->probes >= MAX_PROBES &&
			    nb_jiffies - n->updated > RETRANS_TIME * MAX_PROBES) {
				n->state = NUD_FAILED;
				n->updated = nb_jiffies;
			}
			break;
		case NUD_FAILED:
			if (nb_jiffies - n->updated > RETRANS_TIME * 4)
				neigh_destroy(n);
			break;
		default:
			break;
		}
	}
	mod_timer(t, nb_jiffies + 1);
}

/* Control plane: the ARP table's hash key and its periodic work. */
void neigh_init(uint32_t rnd)
{
	nb_arp.rnd = rnd;
	timer_setup(&neigh_timer, neigh_periodic);
	mod_timer(&neigh_timer, nb_jiffies + 1);
}

/* Control plane: a static entry (e.g. a gateway configured by hand). */
int neigh_add_permanent(uint32_t ip, unsigned ifidx, const uint8_t *mac)
{
	struct neighbour *n = neigh_create(ip, ifidx);

	if (!n)
		return -1;
	mac_copy(n->mac, mac);
	neigh_fill_hh(n);
	n->state = NUD_PERMANENT;
	return 0;
}
