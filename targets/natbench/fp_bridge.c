/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The LAN bridge (br-lan): ports eth0.1 (the switch) and wlan0, a
 * forwarding database learned from source addresses and aged out, VLAN
 * filtering on ingress, link-local frames kept from forwarding, frames for
 * the bridge's own address passed up to IP, and on transmit the database
 * deciding the port (unknown unicast and broadcast flooded, with a copy per
 * extra port).
 */
#include "fp_int.h"
#include "fp_util.h"

#define BR_HASH 256u
#define BR_FDB_MAX 384u
#define BR_AGEING 2400u       /* jiffies an unused learned entry lives */
#define BR_NPORTS 2u

enum { BR_STATE_DISABLED, BR_STATE_LISTENING, BR_STATE_LEARNING,
	BR_STATE_FORWARDING, BR_STATE_BLOCKING };

struct fdb_entry {
	uint8_t mac[6];
	uint16_t vid;
	uint8_t port, is_local, is_static, added;
	uint32_t updated, used;
	uint32_t next;           /* index + 1 */
};

struct br_port {
	uint8_t dev;             /* ND_* of the port, ND_NONE: wlan0 */
	uint8_t state;
	uint16_t pvid;
	uint32_t vlans[4];       /* VIDs 0..127 the port carries */
	uint64_t rx, fwd, flood, dropped;
};

static struct {
	uint32_t hash[BR_HASH];
	struct fdb_entry e[BR_FDB_MAX];
	uint32_t count, free_hint, gc_cursor, salt;
	struct br_port ports[BR_NPORTS];
	uint8_t vlan_filtering;
	uint64_t local, unicast, flood, link_local, stp;
} br;

static uint32_t br_hash(const uint8_t *mac, uint16_t vid)
{
	return hash_3words(rd32(mac), (uint32_t)rd16(mac + 4) << 16 | vid, 0,
			   br.salt) % BR_HASH;
}

static struct fdb_entry *br_fdb_find(const uint8_t *mac, uint16_t vid)
{
	uint32_t i = br.hash[br_hash(mac, vid)];

	while (i) {
		struct fdb_entry *f = &br.e[i - 1];

		if (f->vid == vid && mac_equal(f->mac, mac))
			return f;
		i = f->next;
	}
	return NULL;
}

static struct fdb_entry *fdb_create(const uint8_t *mac, uint16_t vid,
				    unsigned port)
{
	struct fdb_entry *f = NULL;
	uint32_t i, h;

	for (i = 0; i < BR_FDB_MAX; i++) {
		uint32_t k = (br.free_hint + i) % BR_FDB_MAX;

		if (!br.e[k].added) {
			f = &br.e[k];
			br.free_hint = k + 1;
			break;
		}
	}
	if (!f)
		return NULL;
	mac_copy(f->mac, mac);
	f->vid = vid;
	f->port = (uint8_t)port;
	f->is_local = f->is_static = 0;
	f->added = 1;
	f->updated = f->used = nb_jiffies;
	h = br_hash(mac, vid);
	f->next = br.hash[h];
	br.hash[h] = (uint32_t)(f - br.e) + 1;
	br.count++;
	return f;
}

static void fdb_delete(struct fdb_entry *f)
{
	uint32_t idx = (uint32_t)(f - br.e) + 1;
	uint32_t *pp = &br.hash[br_hash(f->mac, f->vid)];

	while (*pp && *pp != idx)
		pp = &br.e[*pp - 1].next;
	if (*pp)
		*pp = f->next;
	f->added = 0;
	br.count--;
}

/* Learning: where a source address was last seen. */
static void br_fdb_update(unsigned port, const uint8_t *src, uint16_t vid)
{
	struct fdb_entry *f = br_fdb_find(src, vid);

	if (likely(f)) {
		if (unlikely(f->is_local))
			return;  /* someone uses our address: ignore */
		if (unlikely(f->port != port))
			f->port = (uint8_t)port;  /* the station moved */
		if (f->updated != nb_jiffies)
			f->updated = nb_jiffies;
		return;
	}
	fdb_create(src, vid, port);
}

/* Ages a few buckets per poll. */
void br_fdb_cleanup(void)
{
	unsigned k;

	for (k = 0; k < 4; k++) {
		uint32_t i = br.hash[br.gc_cursor];

		br.gc_cursor = (br.gc_cursor + 1) % BR_HASH;
		while (i) {
			struct fdb_entry *f = &br.e[i - 1];

			i = f->next;
			if (!f->is_local && !f->is_static &&
			    nb_jiffies - f->updated > BR_AGEING)
				fdb_delete(f);
		}
	}
}

static int port_of(unsigned nd)
{
	unsigned p;

	for (p = 0; p < BR_NPORTS; p++)
		if (br.ports[p].dev == nd)
			return (int)p;
	return -1;
}

static int port_has_vlan(const struct br_port *p, uint16_t vid)
{
	return vid < 128 && (p->vlans[vid >> 5] >> (vid & 31) & 1);
}

/* The frame leaves through a port (wlan0 has no wire in this model: its
 * driver takes the frame and the radio is not simulated). */
static void br_forward(unsigned port, struct sk_buff *skb)
{
	struct br_port *p = &br.ports[port];

	if (p->state != BR_STATE_FORWARDING) {
		p->dropped++;
		kfree_skb_reason(skb, SKB_DROP_BRIDGE);
		return;
	}
	p->fwd++;
	if (p->dev == ND_NONE) {
		consume_skb(skb);
		return;
	}
	dev_xmit(skb, p->dev);
}

/* A copy of the frame for every port but the one it came from. */
static void br_flood(struct sk_buff *skb, int in_port)
{
	unsigned p;

	br.flood++;
	for (p = 0; p < BR_NPORTS; p++) {
		struct sk_buff *c;

		if ((int)p == in_port || br.ports[p].state != BR_STATE_FORWARDING)
			continue;
		c = skb_alloc_local();
		if (!c)
			continue;
		copy_bytes(c->data, skb->data, skb->len);
		c->len = skb->len;
		c->prio = skb->prio;
		c->cpu = skb->cpu;
		br.ports[p].flood++;
		br_forward(p, c);
	}
}

static void br_pass_frame_up(struct sk_buff *skb)
{
	skb->ldev = ND_BR_LAN;
	skb->dev = IF_LAN;
	dev_sw_netstats_rx_add(ND_BR_LAN, skb->cpu, skb->len);
	deliver_ptype(skb);
}

/* skb->data after the Ethernet header, skb->ldev a bridge port. Returns
 * 1: the bridge took it; 0: not a bridge port. */
int br_handle_frame(struct sk_buff *skb)
{
	const uint8_t *eth = skb->head + skb->mac;
	const uint8_t *dst = eth, *src = eth + 6;
	int port = port_of(skb->ldev);
	struct br_port *p;
	struct fdb_entry *f;
	uint16_t vid = 0;

	if (port < 0)
		return 0;
	p = &br.ports[port];
	p->rx++;
	if (unlikely(src[0] & 1))
		goto drop;
	if (unlikely(dst[0] == 0x01 && dst[1] == 0x80 && dst[2] == 0xc2 &&
		     dst[3] == 0 && dst[4] == 0 && (dst[5] & 0xf0) == 0)) {
		/* Link-local: never forwarded. STP BPDUs stop here. */
		br.link_local++;
		if (dst[5] == 0) {
			br.stp++;
			goto drop;
		}
		skb->dev = IF_LAN;
		deliver_ptype(skb);
		return 1;
	}
	if (p->state != BR_STATE_FORWARDING && p->state != BR_STATE_LEARNING)
		goto drop;
	if (br.vlan_filtering) {
		vid = p->pvid;
		if (!port_has_vlan(p, vid))
			goto drop;
	}
	br_fdb_update((unsigned)port, src, vid);
	if (p->state == BR_STATE_LEARNING)
		goto drop;
	if (dst[0] & 1) {
		br_flood(skb, port);
		br_pass_frame_up(skb);
		return 1;
	}
	f = br_fdb_find(dst, vid);
	if (f && f->is_local) {
		br.local++;
		br_pass_frame_up(skb);
		return 1;
	}
	if (f) {
		f->used = nb_jiffies;
		if (f->port == (unsigned)port)
			goto drop;  /* no hairpin */
		skb_push(skb, ETH_HLEN);
		br.unicast++;
		br_forward(f->port, skb);
		return 1;
	}
	skb_push(skb, ETH_HLEN);
	br_flood(skb, port);
	consume_skb(skb);
	return 1;
drop:
	p->dropped++;
	kfree_skb_reason(skb, SKB_DROP_BRIDGE);
	return 1;
}

/* br-lan transmits: skb->data at the Ethernet header. */
void br_dev_xmit(struct sk_buff *skb)
{
	const uint8_t *dst = skb->data;
	uint16_t vid = br.vlan_filtering ? br.ports[0].pvid : 0;
	struct fdb_entry *f;

	dev_sw_netstats_tx_add(ND_BR_LAN, skb->cpu, skb->len);
	if (dst[0] & 1) {
		br_flood(skb, -1);
		consume_skb(skb);
		return;
	}
	f = br_fdb_find(dst, vid);
	if (likely(f && !f->is_local)) {
		f->used = nb_jiffies;
		br.unicast++;
		br_forward(f->port, skb);
		return;
	}
	br_flood(skb, -1);
	consume_skb(skb);
}

/* Control plane: ports and the bridge's own address. */
void br_init(void)
{
	struct fdb_entry *f;
	unsigned p;

	br.salt = 0x62726c61u;
	br.vlan_filtering = 1;
	for (p = 0; p < BR_NPORTS; p++) {
		br.ports[p].dev = p == 0 ? ND_ETH0_1 : ND_NONE;
		br.ports[p].state = BR_STATE_FORWARDING;
		br.ports[p].pvid = 1;
		br.ports[p].vlans[0] = 1u << 1;
	}
	f = fdb_create(nb_devs[ND_BR_LAN].mac, 1, 0);
	if (f)
		f->is_local = f->is_static = 1;
}
