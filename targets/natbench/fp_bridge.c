/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The LAN bridge (br-lan): ports eth0.1 (the switch) and wlan0, a
 * forwarding database learned from source addresses and aged out, VLAN
 * filtering (each port and the bridge itself have VLAN groups: an
 * untagged frame gets its port's PVID on the way in, a VLAN sent
 * untagged loses its tag on the way out), link-local frames kept from
 * forwarding, frames for the bridge's own address passed up through the
 * bridge device (a second round of __netif_receive_skb_core, as br-lan),
 * and on transmit the database deciding the port (unknown unicast and
 * broadcast flooded, with a clone per extra port).
 */
#include "fp_int.h"
#include "fp_irq.h"
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

#define BRIDGE_VLAN_INFO_PVID 0x2u
#define BRIDGE_VLAN_INFO_UNTAGGED 0x4u
#define BR_MAX_VLANS 4u
#define BR_LEARNING 0x1u
#define BR_FLOOD 0x2u

struct net_bridge_vlan {
	uint16_t vid, flags;
	uint8_t state;
	uint64_t rx_packets, rx_bytes, tx_packets, tx_bytes;
};

struct net_bridge_vlan_group {
	struct net_bridge_vlan v[BR_MAX_VLANS];
	uint16_t num_vlans, pvid;
	uint8_t pvid_state;
};

struct br_port {
	uint8_t dev;             /* ND_* of the port, ND_NONE: wlan0 */
	uint8_t state;
	uint32_t flags;          /* BR_LEARNING, BR_FLOOD */
	struct net_bridge_vlan_group vg;
	uint64_t rx, fwd, flood, dropped;
};

static struct {
	uint32_t hash[BR_HASH];
	struct fdb_entry e[BR_FDB_MAX];
	uint32_t count, free_hint, gc_cursor, salt;
	struct br_port ports[BR_NPORTS];
	struct net_bridge_vlan_group vg;  /* the bridge device's own */
	uint8_t vlan_filtering;
	uint16_t vlan_proto;
	uint64_t local, unicast, flood, link_local, stp, vlan_drops;
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

static struct timer_list br_gc_timer;

/* Ages a few buckets a jiffy (the bridge's gc work). */
static void br_fdb_cleanup(struct timer_list *t)
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
	mod_timer(t, nb_jiffies + 1);
}

static int port_of(unsigned nd)
{
	unsigned p;

	for (p = 0; p < BR_NPORTS; p++)
		if (br.ports[p].dev == nd)
			return (int)p;
	return -1;
}

static struct net_bridge_vlan *br_vlan_find(struct net_bridge_vlan_group *vg,
					     uint16_t vid)
{
	unsigned i;

	for (i = 0; i < vg->num_vlans; i++)
		if (vg->v[i].vid == vid)
			return &vg->v[i];
	return NULL;
}

/* VLAN filtering on the way in (br_allowed_ingress): the frame's VLAN,
 * from its tag or the PVID (an untagged frame gets it as a held tag);
 * 0 if it may enter, -1 if not. */
static int br_allowed_ingress(struct net_bridge_vlan_group *vg,
			      struct sk_buff *skb, uint16_t *vid, uint8_t *state)
{
	struct net_bridge_vlan *v;

	if (!br.vlan_filtering) {
		skb->br_vlan_filtered = 0;
		*vid = 0;
		return 0;
	}
	skb->br_vlan_filtered = 1;
	if (skb->vlan_present && skb->vlan_proto == br.vlan_proto) {
		*vid = skb->vlan_tci & 0x0fff;  /* tagged */
	} else {
		*vid = 0;
		skb->vlan_present = 0;
	}
	if (!*vid) {
		/* Untagged or priority-tagged: the port's PVID. */
		if (!vg->pvid)
			goto drop;
		*vid = vg->pvid;
		skb->vlan_tci = (uint16_t)((skb->vlan_present ? skb->vlan_tci
					     : 0) | vg->pvid);
		skb->vlan_proto = br.vlan_proto;
		skb->vlan_present = 1;
		if (*state == BR_STATE_FORWARDING) {
			*state = vg->pvid_state;
			if (*state != BR_STATE_FORWARDING &&
			    *state != BR_STATE_LEARNING)
				goto drop;
		}
	}
	v = br_vlan_find(vg, *vid);
	if (!v)
		goto drop;
	v->rx_packets++;
	v->rx_bytes += skb->len;
	return 0;
drop:
	br.vlan_drops++;
	return -1;
}

/* May the frame's VLAN leave here (br_allowed_egress)? */
static int br_allowed_egress(struct net_bridge_vlan_group *vg,
			     const struct sk_buff *skb)
{
	struct net_bridge_vlan *v;

	if (!skb->br_vlan_filtered)
		return 1;
	v = br_vlan_find(vg, skb->vlan_tci & 0x0fff);
	return v && v->state == BR_STATE_FORWARDING;
}

/* On the way out: a VLAN sent untagged here loses its tag. */
static struct sk_buff *br_handle_vlan(struct net_bridge_vlan_group *vg,
				      struct sk_buff *skb)
{
	struct net_bridge_vlan *v;

	if (!skb->br_vlan_filtered)
		return skb;
	v = br_vlan_find(vg, skb->vlan_tci & 0x0fff);
	if (!v) {
		kfree_skb_reason(skb, SKB_DROP_BRIDGE);
		return NULL;
	}
	v->tx_packets++;
	v->tx_bytes += skb->len;
	if (v->flags & BRIDGE_VLAN_INFO_UNTAGGED)
		skb->vlan_present = 0;
	return skb;
}

/* Down to the port's device (br_dev_queue_push_xmit): skb->data at the
 * Ethernet header; too big for the port, dropped. */
static void br_dev_queue_push_xmit(unsigned nd, struct sk_buff *skb)
{
	if (unlikely(skb->len > (unsigned)nb_devs[nd].mtu + ETH_HLEN)) {
		kfree_skb_reason(skb, SKB_DROP_BRIDGE);
		return;
	}
	dev_xmit(skb, nd);
}

/* The frame leaves through a port (wlan0 has no wire in this model: its
 * driver takes the frame and the radio is not simulated). */
static void br_forward(unsigned port, struct sk_buff *skb)
{
	struct br_port *p = &br.ports[port];

	/* should_deliver */
	if (p->state != BR_STATE_FORWARDING || !br_allowed_egress(&p->vg, skb)) {
		p->dropped++;
		kfree_skb_reason(skb, SKB_DROP_BRIDGE);
		return;
	}
	/* __br_forward */
	skb = br_handle_vlan(&p->vg, skb);
	if (!skb)
		return;
	p->fwd++;
	if (p->dev == ND_NONE) {
		consume_skb(skb);
		return;
	}
	br_dev_queue_push_xmit(p->dev, skb);
}

/* A clone of the frame for every port but the one it came from (the
 * data shared: a port that writes headers copies them first). */
static void br_flood(struct sk_buff *skb, int in_port)
{
	unsigned p;

	br.flood++;
	for (p = 0; p < BR_NPORTS; p++) {
		struct sk_buff *c;

		if ((int)p == in_port || br.ports[p].state != BR_STATE_FORWARDING ||
		    !(br.ports[p].flags & BR_FLOOD))
			continue;
		c = skb_clone(skb);
		if (!c)
			continue;
		br.ports[p].flood++;
		br_forward(p, c);
	}
}

/* Up the bridge device, as if it had received the frame itself. */
static void br_pass_frame_up(struct sk_buff *skb)
{
	dev_sw_netstats_rx_add(ND_BR_LAN, skb->cpu, skb->len);
	if (!br_allowed_egress(&br.vg, skb)) {
		kfree_skb_reason(skb, SKB_DROP_BRIDGE);
		return;
	}
	skb = br_handle_vlan(&br.vg, skb);
	if (!skb)
		return;
	/* br_netif_receive_skb: no steering on br-lan, straight in. */
	skb->ldev = ND_BR_LAN;
	__netif_receive_skb_core(skb);
}

/* After the port's checks (br_handle_frame_finish): VLAN, learning, and
 * the frame's way: up, out of one port, or every port. */
static void br_handle_frame_finish(struct sk_buff *skb, unsigned port)
{
	const uint8_t *eth = skb->head + skb->mac;
	struct br_port *p = &br.ports[port];
	uint8_t state = p->state;
	struct fdb_entry *f;
	uint16_t vid;

	if (br_allowed_ingress(&p->vg, skb, &vid, &state) < 0)
		goto drop;
	/* Learn after filtering: no spoofed entries. */
	if (p->flags & BR_LEARNING)
		br_fdb_update(port, eth + 6, vid);
	if (state == BR_STATE_LEARNING)
		goto drop;
	if (eth[0] & 1) {
		/* Broadcast (ARP) and multicast: every port, and up. */
		br_flood(skb, (int)port);
		br_pass_frame_up(skb);
		return;
	}
	f = br_fdb_find(eth, vid);
	if (f && f->is_local) {
		br.local++;
		br_pass_frame_up(skb);
		return;
	}
	if (f) {
		if (f->used != nb_jiffies)
			f->used = nb_jiffies;
		if (f->port == port)
			goto drop;  /* no hairpin */
		skb_push(skb, ETH_HLEN);
		br.unicast++;
		br_forward(f->port, skb);
		return;
	}
	skb_push(skb, ETH_HLEN);
	br_flood(skb, (int)port);
	consume_skb(skb);
	return;
drop:
	p->dropped++;
	kfree_skb_reason(skb, SKB_DROP_BRIDGE);
}

/* The rx_handler of the bridge's ports: skb->data after the Ethernet
 * header, skb->ldev a port. 1: the bridge took it; 0: not a port. */
int br_handle_frame(struct sk_buff *skb)
{
	const uint8_t *eth = skb->head + skb->mac;
	const uint8_t *dst = eth, *src = eth + 6;
	int port = port_of(skb->ldev);
	struct br_port *p;

	if (port < 0)
		return 0;
	p = &br.ports[port];
	p->rx++;
	/* is_valid_ether_addr of the source */
	if (unlikely(src[0] & 1 || !(src[0] | src[1] | src[2] | src[3] |
				     src[4] | src[5])))
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
	switch (p->state) {
	case BR_STATE_FORWARDING:
	case BR_STATE_LEARNING:
		if (mac_equal(dst, nb_devs[ND_BR_LAN].mac))
			skb->pkt_type = PKT_HOST;
		/* no bridge netfilter: NF_BR_PRE_ROUTING is empty */
		br_handle_frame_finish(skb, (unsigned)port);
		return 1;
	default:
		break;
	}
drop:
	p->dropped++;
	kfree_skb_reason(skb, SKB_DROP_BRIDGE);
	return 1;
}

/* br-lan transmits: skb->data at the Ethernet header. */
int br_dev_xmit(struct sk_buff *skb, unsigned nd)
{
	const uint8_t *dst = skb->data;
	uint8_t state = BR_STATE_FORWARDING;
	struct fdb_entry *f;
	uint16_t vid;

	dev_sw_netstats_tx_add(nd, skb->cpu, skb->len);
	if (br_allowed_ingress(&br.vg, skb, &vid, &state) < 0) {
		kfree_skb_reason(skb, SKB_DROP_BRIDGE);
		return NETDEV_TX_OK;
	}
	if (dst[0] & 1) {
		br_flood(skb, -1);
		consume_skb(skb);
		return NETDEV_TX_OK;
	}
	f = br_fdb_find(dst, vid);
	if (likely(f && !f->is_local)) {
		f->used = nb_jiffies;
		br.unicast++;
		br_forward(f->port, skb);
		return NETDEV_TX_OK;
	}
	br_flood(skb, -1);
	consume_skb(skb);
	return NETDEV_TX_OK;
}

static void br_vlan_add(struct net_bridge_vlan_group *vg, uint16_t vid,
			uint16_t flags)
{
	struct net_bridge_vlan *v = &vg->v[vg->num_vlans++];

	v->vid = vid;
	v->flags = flags;
	v->state = BR_STATE_FORWARDING;
	if (flags & BRIDGE_VLAN_INFO_PVID) {
		vg->pvid = vid;
		vg->pvid_state = v->state;
	}
}

/* Control plane: ports and the bridge's own address. */
void br_init(void)
{
	struct fdb_entry *f;
	unsigned p;

	br.salt = 0x62726c61u;
	br.vlan_filtering = 1;
	br.vlan_proto = ETH_P_8021Q;
	/* VLAN 1 untagged everywhere, the PVID of the ports and the
	 * bridge (OpenWrt's bridge-vlan defaults). */
	for (p = 0; p < BR_NPORTS; p++) {
		br.ports[p].dev = p == 0 ? ND_ETH0_1 : ND_NONE;
		if (br.ports[p].dev != ND_NONE)
			nb_devs[br.ports[p].dev].rx_handler = 1;
		br.ports[p].state = BR_STATE_FORWARDING;
		br.ports[p].flags = BR_LEARNING | BR_FLOOD;
		br_vlan_add(&br.ports[p].vg, 1, BRIDGE_VLAN_INFO_PVID |
			    BRIDGE_VLAN_INFO_UNTAGGED);
	}
	br_vlan_add(&br.vg, 1, BRIDGE_VLAN_INFO_PVID | BRIDGE_VLAN_INFO_UNTAGGED);
	f = fdb_create(nb_devs[ND_BR_LAN].mac, 1, 0);
	if (f)
		f->is_local = f->is_static = 1;
	timer_setup(&br_gc_timer, br_fdb_cleanup);
	mod_timer(&br_gc_timer, nb_jiffies + 1);
}
