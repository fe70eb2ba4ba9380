/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * PPP over Ethernet: the session table (by session id and the access
 * concentrator's address), the PPPoE session header on receive and
 * transmit, and the PPP unit above it: protocol demultiplexing with the
 * network-protocol modes (IPv4 passes, IPv6 is off), control protocols
 * (LCP echo) answered, statistics and idle timers.
 */
#include "fp_int.h"
#include "fp_util.h"

#define PPPOE_HASH 16u
#define PPPOE_MAX 4u

enum { NPMODE_PASS, NPMODE_DROP, NPMODE_ERROR, NPMODE_QUEUE };
enum { NP_IP, NP_IPV6, NP_MAX };

struct pppoe_session {
	uint16_t sid;
	uint8_t remote[6];
	uint8_t dev, connected;
	uint32_t next;
	uint64_t rx, tx;
};

static struct {
	uint32_t hash[PPPOE_HASH];
	struct pppoe_session s[PPPOE_MAX];
	unsigned n;
} pppoe;

static struct {
	uint8_t npmode[NP_MAX];
	uint16_t mru;
	uint32_t last_recv, last_xmit;
	uint64_t rx_errors, rx_length_errors, rx_dropped, tx_dropped, ctrl_rx;
	struct pppoe_session *chan;
} ppp;

static uint32_t hash_item(uint16_t sid, const uint8_t *mac)
{
	uint32_t h = sid;
	unsigned i;

	for (i = 0; i < 6; i++)
		h ^= (uint32_t)mac[i] << (i & 1 ? 8 : 0);
	return (h ^ h >> 4) % PPPOE_HASH;
}

static struct pppoe_session *get_item(uint16_t sid, const uint8_t *mac)
{
	uint32_t i = pppoe.hash[hash_item(sid, mac)];

	while (i) {
		struct pppoe_session *s = &pppoe.s[i - 1];

		if (s->sid == sid && mac_equal(s->remote, mac))
			return s;
		i = s->next;
	}
	return NULL;
}

/* LCP echo request: answered with our magic number (pppd's job on a real
 * router, kept in the model as the control path a session sees). */
static void ppp_control(struct sk_buff *skb, uint16_t proto)
{
	uint8_t *lcp = skb->data;

	ppp.ctrl_rx++;
	nb_stats.lcp++;
	if (proto != PPP_LCP || skb->len < 8 || lcp[0] != 9) {
		kfree_skb_reason(skb, SKB_DROP_PPP);
		return;
	}
	lcp[0] = 10;
	wr32(lcp + 4, nb_ifs[IF_PPP].lcp_magic);
	nb_ifs[IF_PPP].lcp_echo++;
	skb->local = 1;
	skb->odev = IF_PPP;
	ppp_xmit(skb, PPP_LCP);
}

static void ppp_receive_nonmp_frame(struct sk_buff *skb, uint16_t proto)
{
	unsigned np;

	switch (proto) {
	case PPP_IP:
		np = NP_IP;
		break;
	case PPP_IPV6:
		np = NP_IPV6;
		break;
	default:
		ppp.rx_dropped++;
		kfree_skb_reason(skb, SKB_DROP_PPP);
		return;
	}
	if (ppp.npmode[np] != NPMODE_PASS) {
		if (np == NP_IPV6)
			nb_stats.punt_v6++;
		ppp.rx_dropped++;
		kfree_skb_reason(skb, SKB_DROP_PPP);
		return;
	}
	ppp.last_recv = nb_jiffies;
	skb->protocol = ETH_P_IP;
	skb->dev = IF_PPP;
	skb->ldev = ND_PPP;
	nb_ifs[IF_PPP].rx_packets++;
	nb_ifs[IF_PPP].rx_bytes += skb->len;
	dev_sw_netstats_rx_add(ND_PPP, skb->cpu, skb->len);
	ip_rcv(skb);
}

/* skb->data at the PPP protocol field. */
static void ppp_input(struct sk_buff *skb)
{
	uint16_t proto;

	if (!pskb_may_pull(skb, 2)) {
		ppp.rx_length_errors++;
		kfree_skb_reason(skb, SKB_DROP_PPP);
		return;
	}
	proto = rd16(skb->data);
	skb_pull(skb, 2);
	if (proto >= 0xc000) {
		ppp_control(skb, proto);
		return;
	}
	if (skb->len > ppp.mru) {
		ppp.rx_errors++;
		kfree_skb_reason(skb, SKB_DROP_PPP);
		return;
	}
	ppp_receive_nonmp_frame(skb, proto);
}

/* ETH_P_PPP_SES on eth0.2: skb->data at the PPPoE header. */
void pppoe_rcv(struct sk_buff *skb)
{
	const uint8_t *eth = skb->head + skb->mac;
	const uint8_t *h = skb->data;
	struct pppoe_session *po;
	uint16_t len;

	if (skb->ldev != ND_ETH0_2 || !pskb_may_pull(skb, PPPOE_SES_HLEN))
		goto drop;
	if (h[0] != 0x11 || h[1] != 0)
		goto drop;
	len = rd16(h + 4);
	if (len + 6u > skb->len)
		goto drop;
	po = get_item(rd16(h + 2), eth + 6);
	if (!po || !po->connected)
		goto drop;
	po->rx++;
	skb_pull(skb, 6);
	skb_trim(skb, len);
	ppp_input(skb);
	return;
drop:
	nb_stats.drop_l2++;
	kfree_skb_reason(skb, SKB_DROP_PPP);
}

static void pppoe_xmit(struct pppoe_session *po, struct sk_buff *skb)
{
	uint16_t len = (uint16_t)skb->len;
	uint8_t *h = NULL;

	/* The session header and the link's, in a head of our own. */
	if (!skb_cow_head(skb, 6 + 32))
		h = skb_push(skb, 6);
	if (!h || eth_header(skb, po->dev, po->remote, ETH_P_PPP_SES) < 0) {
		ppp.tx_dropped++;
		kfree_skb_reason(skb, SKB_DROP_PPP);
		return;
	}
	h[0] = 0x11;
	h[1] = 0;
	wr16(h + 2, po->sid);
	wr16(h + 4, len);
	po->tx++;
	dev_xmit(skb, po->dev);
}

/* pppoe-wan transmits: skb->data at the payload of protocol proto. */
void ppp_xmit(struct sk_buff *skb, uint16_t proto)
{
	uint8_t *p;

	if (proto == PPP_IP && ppp.npmode[NP_IP] != NPMODE_PASS) {
		ppp.tx_dropped++;
		kfree_skb_reason(skb, SKB_DROP_PPP);
		return;
	}
	if (!ppp.chan) {
		ppp.tx_dropped++;
		kfree_skb_reason(skb, SKB_DROP_PPP);
		return;
	}
	dev_sw_netstats_tx_add(ND_PPP, skb->cpu, skb->len);
	p = skb_cow_head(skb, 4) ? NULL : skb_push(skb, 2);
	if (!p) {
		kfree_skb_reason(skb, SKB_DROP_PPP);
		return;
	}
	wr16(p, proto);
	ppp.last_xmit = nb_jiffies;
	pppoe_xmit(ppp.chan, skb);
}

/* pppoe-wan's start_xmit: an IP packet at skb->data. */
int ppp_start_xmit(struct sk_buff *skb, unsigned nd)
{
	ppp_xmit(skb, PPP_IP);
	return NETDEV_TX_OK;
}

/* Control plane: the session pppd negotiated. */
void pppoe_init(void)
{
	struct pppoe_session *s = &pppoe.s[0];
	uint32_t h;

	s->sid = nb_ifs[IF_PPP].sid;
	mac_copy(s->remote, nb_ifs[IF_PPP].peer);
	s->dev = ND_ETH0_2;
	s->connected = 1;
	h = hash_item(s->sid, s->remote);
	s->next = pppoe.hash[h];
	pppoe.hash[h] = 1;
	pppoe.n = 1;
	ppp.npmode[NP_IP] = NPMODE_PASS;
	ppp.npmode[NP_IPV6] = NPMODE_DROP;
	ppp.mru = 1492;
	ppp.chan = s;
}
