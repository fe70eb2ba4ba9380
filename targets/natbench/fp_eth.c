/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Link layer receive: __netif_receive_skb_core peels 802.1Q / QinQ tags
 * onto the VLAN devices, gives bridge ports to the bridge, drops what is
 * not for us, and offers the rest to the protocol handlers (IPv4, ARP,
 * PPPoE, and the ones that only count: IPv6 is off, LLDP goes to a
 * daemon). Also writes Ethernet headers for the devices above eth0.
 */
#include "fp_int.h"
#include "fp_util.h"

struct nb_iface nb_ifs[NB_NIFS];

struct packet_type {
	uint16_t type;
	void (*func)(struct sk_buff *skb);
};

static void punt_rcv(struct sk_buff *skb);
static void ipv6_rcv(struct sk_buff *skb);
static void lldp_rcv(struct sk_buff *skb);

/* The protocol handlers a frame is offered to, hashed by ethertype
 * (ptype_base[type & 15], each bucket a list). */
#define PTYPE_HASH_SIZE 16u

static const struct packet_type ptypes[] = {
	{ ETH_P_IP, ip_rcv },
	{ ETH_P_PPP_SES, pppoe_rcv },
	{ ETH_P_ARP, arp_rcv },
	{ ETH_P_IPV6, ipv6_rcv },
	{ ETH_P_LLDP, lldp_rcv },
	{ ETH_P_PPP_DISC, punt_rcv },
	{ ETH_P_EAPOL, punt_rcv },
	{ ETH_P_1588, punt_rcv },
	{ ETH_P_LOOP, punt_rcv },
};

#define NPTYPES (sizeof(ptypes) / sizeof(ptypes[0]))

static struct ptype_node {
	const struct packet_type *pt;
	struct ptype_node *next;
} ptype_nodes[NPTYPES], *ptype_base[PTYPE_HASH_SIZE];

void deliver_ptype(struct sk_buff *skb)
{
	const struct ptype_node *n = ptype_base[skb->protocol & (PTYPE_HASH_SIZE - 1)];

	for (; n; n = n->next) {
		if (n->pt->type == skb->protocol) {
			n->pt->func(skb);
			return;
		}
	}
	nb_stats.punt_other++;
	nb_devs[skb->ldev < NB_NDEVS ? skb->ldev : ND_ETH0].rx_nohandler++;
	kfree_skb(skb);
}

/* A frame arriving on device skb->ldev (eth0, or br-lan for what the
 * bridge passes up): VLAN devices, the bridge, the protocol handlers. */
void __netif_receive_skb_core(struct sk_buff *skb)
{
	unsigned rounds = 0;

	skb->network = (uint16_t)(skb->data - skb->head);
another_round:
	if (skb->protocol == ETH_P_8021Q || skb->protocol == ETH_P_8021AD) {
		if (skb_vlan_untag(skb) < 0) {
			nb_stats.drop_l2++;
			return;
		}
	}
	/* A tag: the frame goes to its VLAN device, and round again (a
	 * second tag inside, QinQ). */
	if (skb->vlan_present) {
		if (++rounds > 2 || vlan_do_receive(skb) < 0)
			goto drop;
		goto another_round;
	}
	if (skb->ldev == ND_ETH0)
		goto drop;  /* the switch tags everything it sends the CPU */
	/* rx_handler: a bridge port belongs to its bridge. */
	if (nb_devs[skb->ldev].rx_handler && br_handle_frame(skb))
		return;
	if (skb->pkt_type == PKT_OTHERHOST) {
		kfree_skb_reason(skb, SKB_DROP_OTHERHOST);
		return;
	}
	skb->dev = nb_devs[skb->ldev].l3;
	if (skb->dev < NB_NIFS) {
		nb_ifs[skb->dev].rx_packets++;
		nb_ifs[skb->dev].rx_bytes += skb->len;
	}
	deliver_ptype(skb);
	return;
drop:
	nb_stats.drop_l2++;
	kfree_skb_reason(skb, SKB_DROP_VLAN);
}

/* eth0's frames, from the backlog (__netif_receive_skb). */
void netif_receive_skb_core(struct sk_buff *skb)
{
	skb->ldev = ND_ETH0;
	dev_sw_netstats_rx_add(ND_ETH0, skb->cpu, skb->len + ETH_HLEN);
	__netif_receive_skb_core(skb);
}

/* Control plane at boot: the handlers into their hash buckets. */
void ptype_init(void)
{
	unsigned i;

	for (i = 0; i < NPTYPES; i++) {
		struct ptype_node *n = &ptype_nodes[i];
		unsigned h = ptypes[i].type & (PTYPE_HASH_SIZE - 1);

		n->pt = &ptypes[i];
		n->next = ptype_base[h];
		ptype_base[h] = n;
	}
}

static void ipv6_rcv(struct sk_buff *skb)
{
	/* IPv6 forwarding is off on this router: counted, dropped. */
	nb_stats.punt_v6++;
	kfree_skb(skb);
}

/* LLDP frames go to a daemon; the kernel only checks the mandatory TLVs. */
static void lldp_rcv(struct sk_buff *skb)
{
	const uint8_t *p = skb->data;
	uint32_t off = 0, seen = 0;

	while (off + 2 <= skb->len) {
		unsigned type = p[off] >> 1;
		unsigned len = (unsigned)(p[off] & 1) << 8 | p[off + 1];

		if (type == 0)
			break;
		if (type < 4)
			seen |= 1u << type;
		off += 2 + len;
	}
	if (seen != 0xe)
		nb_stats.drop_l2++;
	punt_rcv(skb);
}

static void punt_rcv(struct sk_buff *skb)
{
	nb_stats.punt_other++;
	kfree_skb(skb);
}

/* Pushes the Ethernet header of a frame from device nd to dst. */
int eth_header(struct sk_buff *skb, unsigned nd, const uint8_t *dst,
	       uint16_t proto)
{
	uint8_t *h = skb_push(skb, ETH_HLEN);

	if (!h)
		return -1;
	mac_copy(h, dst);
	mac_copy(h + 6, nb_devs[nd].mac);
	wr16(h + 12, proto);
	return 0;
}
