/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The generic transmit path (net/core/dev.c's half): every device a frame
 * goes down through (br-lan, the VLAN devices, pppoe-wan, eth0) runs
 * __dev_queue_xmit: bottom halves off, the queue picked, then either the
 * device's qdisc (eth0's fq_codel, fp_qdisc.c) or, for the software devices,
 * which have none, the driver at once: validate_xmit_skb, then
 * dev_hard_start_xmit under the queue's lock, with a recursion limit.
 * validate_xmit_skb asks what the device can do with this frame
 * (netif_skb_features: stacked tags, checksum offload), pushes a VLAN tag
 * the stack kept outside the frame into it when the device cannot insert
 * it in hardware (none here can), and completes a partial checksum the
 * device cannot. Byte queue limits (dynamic queue limits) keep eth0's
 * ring just full enough to never starve the hardware, the rest waits in
 * the qdisc.
 */
#include "fp_int.h"
#include "fp_irq.h"
#include "fp_mm.h"
#include "fp_util.h"

#define DQL_MAX_LIMIT 65536u
#define DQL_HOLD_TIME 16u    /* jiffies of slack before the limit shrinks */
#define XMIT_RECURSION_LIMIT 8u

static uint8_t xmit_recursion[NB_NCPUS];
static uint64_t recursion_alerts, xmit_dropped;

unsigned l3_dev(unsigned ifidx)
{
	switch (ifidx) {
	case IF_LAN:
		return ND_BR_LAN;
	case IF_PPP:
		return ND_PPP;
	case IF_QINQ:
		return ND_ETH0_2_100;
	default:
		return ND_ETH0_2;
	}
}

static int dql_avail(const struct dql *d)
{
	return (int)(d->adj_limit - d->num_queued);
}

static void dql_queued(struct dql *d, unsigned count)
{
	d->last_obj_cnt = count;
	d->num_queued += count;
}

/* After a completion: grow the limit if the queue ran dry while more was
 * waiting (starved), shrink it when slack persisted for a while. */
static void dql_completed(struct dql *d, unsigned count)
{
	uint32_t inprogress, prev_inprogress, limit = d->limit, ovlimit;
	uint32_t completed = d->num_completed + count, slack;

	if (completed > d->num_queued)
		completed = d->num_queued;
	ovlimit = (uint32_t)((int)(d->num_queued - d->num_completed) - (int)limit > 0);
	inprogress = d->num_queued - completed;
	prev_inprogress = d->prev_num_queued - d->num_completed;
	if ((ovlimit && !inprogress) ||
	    (d->prev_ovlimit && !prev_inprogress)) {
		limit += completed - d->prev_num_queued + d->prev_last_obj_cnt;
		if (limit > d->max_limit)
			limit = d->max_limit;
		d->slack_start_time = nb_jiffies;
		d->lowest_slack = 0xffffffffu;
	} else if (inprogress && prev_inprogress && !ovlimit) {
		slack = limit > inprogress ? limit - inprogress : 0;
		if (slack < d->lowest_slack)
			d->lowest_slack = slack;
		if (nb_jiffies - d->slack_start_time > DQL_HOLD_TIME) {
			limit = limit > d->lowest_slack ? limit - d->lowest_slack
							: 0;
			if (limit < d->min_limit)
				limit = d->min_limit;
			d->slack_start_time = nb_jiffies;
			d->lowest_slack = 0xffffffffu;
		}
	}
	d->adj_limit = limit + completed;
	d->limit = limit;
	d->prev_ovlimit = ovlimit;
	d->prev_last_obj_cnt = d->last_obj_cnt;
	d->num_completed = completed;
	d->prev_num_queued = d->num_queued;
}

/* The driver queued bytes on the ring (netdev_sent_queue). */
void netdev_tx_sent_queue(unsigned bytes)
{
	struct net_device *dev = &nb_devs[ND_ETH0];

	dql_queued(&dev->dql, bytes);
	if (dql_avail(&dev->dql) < 0)
		dev->txq_state |= QUEUE_STATE_STACK_XOFF;
}

/* Transmit completion (from the driver's reclaim): may restart the queue. */
void netdev_tx_completed(unsigned pkts, unsigned bytes)
{
	struct net_device *dev = &nb_devs[ND_ETH0];

	if (!pkts)
		return;
	dql_completed(&dev->dql, bytes);
	if (dev->txq_state & QUEUE_STATE_STACK_XOFF &&
	    dql_avail(&dev->dql) >= 0) {
		dev->txq_state &= ~QUEUE_STATE_STACK_XOFF;
		__netif_schedule();
	}
}

/* The ethertype under any tags at the frame's start (skb_network_protocol). */
static uint16_t skb_network_protocol(const struct sk_buff *skb, unsigned *depth)
{
	uint16_t type = skb->protocol;
	unsigned off = ETH_HLEN - 2;

	if (skb->len >= ETH_HLEN)
		type = rd16(skb->data + off);
	while ((type == ETH_P_8021Q || type == ETH_P_8021AD) &&
	       off + VLAN_HLEN + 2 <= skb->len) {
		off += VLAN_HLEN;
		type = rd16(skb->data + off);
	}
	*depth = off + 2;
	return type;
}

/* What the device can do for this frame. */
static uint32_t netif_skb_features(const struct sk_buff *skb, unsigned nd)
{
	uint32_t f = nb_devs[nd].features;
	unsigned depth;
	uint16_t type;

	/* A held tag: what the device offloads on tagged frames. */
	if (skb->vlan_present)
		f &= NETIF_F_HW_CSUM | NETIF_F_SG | NETIF_F_HW_VLAN_TX;
	/* dflt_features_check: offloads see through one tag, no more. */
	type = skb_network_protocol(skb, &depth);
	if (depth > ETH_HLEN + VLAN_HLEN || (type != ETH_P_IP && type != ETH_P_IPV6))
		f &= ~(uint32_t)(NETIF_F_HW_CSUM | NETIF_F_SG);
	return f;
}

/* __vlan_hwaccel_push_inside: the held tag into the frame, after the
 * MAC addresses (the addresses move four bytes forward). */
static struct sk_buff *vlan_push_inside(struct sk_buff *skb)
{
	uint16_t tci = skb->vlan_tci, proto = skb->vlan_proto;
	uint64_t w0;
	uint32_t w1;
	uint8_t *p;

	skb->vlan_present = 0;
	if (skb_cow_head(skb, VLAN_HLEN) || !(p = skb_push(skb, VLAN_HLEN))) {
		kfree_skb_reason(skb, SKB_DROP_VLAN);
		return NULL;
	}
	/* Both reads before the writes: the ranges overlap. */
	__builtin_memcpy(&w0, p + VLAN_HLEN, 8);
	__builtin_memcpy(&w1, p + VLAN_HLEN + 8, 4);
	__builtin_memcpy(p, &w0, 8);
	__builtin_memcpy(p + 8, &w1, 4);
	wr16(p + 12, proto);
	wr16(p + 14, tci);
	skb->mac = (uint16_t)(skb->data - skb->head);
	return skb;
}

static struct sk_buff *validate_xmit_skb(struct sk_buff *skb, unsigned nd)
{
	uint32_t features = netif_skb_features(skb, nd);

	/* validate_xmit_vlan */
	if (skb->vlan_present && !(features & NETIF_F_HW_VLAN_TX)) {
		skb = vlan_push_inside(skb);
		if (!skb)
			return NULL;
	}
	if (unlikely(skb->ip_summed == CHECKSUM_PARTIAL &&
		     !(features & NETIF_F_HW_CSUM))) {
		/* A partial checksum the device cannot finish: do it here. */
		uint8_t *l4 = skb->head + skb->transport;
		uint32_t len = skb->len - (uint32_t)(l4 - skb->data);

		wr16(l4 + 16, 0);
		wr16(l4 + 16, csum_finish(csum_partial(l4, len, 0)));
		skb->ip_summed = CHECKSUM_NONE;
	}
	return skb;
}

/* validate_xmit_skb_list: each frame of a list (a bulk dequeue). */
struct sk_buff *validate_xmit_skb_list(struct sk_buff *skb, unsigned nd)
{
	struct sk_buff *head = NULL, **tail = &head;

	while (skb) {
		struct sk_buff *next = skb->next;

		skb->next = NULL;
		skb = validate_xmit_skb(skb, nd);
		if (skb) {
			*tail = skb;
			tail = &skb->next;
		}
		skb = next;
	}
	return head;
}

/* The driver's start_xmit of each device type (net_device_ops). */
static int (*const ndo_start_xmit[])(struct sk_buff *skb, unsigned nd) = {
	[NDT_ETHER] = bgmac_start_xmit,
	[NDT_VLAN] = vlan_dev_hard_start_xmit,
	[NDT_BRIDGE] = br_dev_xmit,
	[NDT_PPP] = ppp_start_xmit,
};

static int xmit_one(struct sk_buff *skb, unsigned nd)
{
	struct net_device *dev = &nb_devs[nd];
	int rc = ndo_start_xmit[dev->type](skb, nd);

	if (rc == NETDEV_TX_OK)
		dev->trans_start = nb_jiffies;  /* txq_trans_update */
	return rc;
}

/* Hands a list of frames to the driver; returns NETDEV_TX_OK, or
 * NETDEV_TX_BUSY with *rest the frames it did not take. */
int dev_hard_start_xmit(struct sk_buff *skb, unsigned nd, struct sk_buff **rest)
{
	int rc = NETDEV_TX_OK;

	while (skb) {
		struct sk_buff *next = skb->next;

		skb->next = NULL;
		rc = xmit_one(skb, nd);
		if (unlikely(rc != NETDEV_TX_OK)) {
			skb->next = next;
			break;
		}
		skb = next;
		if (nb_devs[nd].txq_state && skb) {
			rc = NETDEV_TX_BUSY;
			break;
		}
	}
	*rest = skb;
	return rc;
}

/* Every device's transmit: skb->data at a frame (or, for PPP, the
 * packet) for device skb->ldev. */
void dev_queue_xmit(struct sk_buff *skb)
{
	unsigned nd = skb->ldev, cpu = smp_processor_id();
	struct net_device *dev = &nb_devs[nd];
	struct sk_buff *rest;

	skb->mac = (uint16_t)(skb->data - skb->head);  /* skb_reset_mac_header */
	skb->qcb.pkt_len = skb->len;  /* qdisc_pkt_len_init (no GSO here) */
	local_bh_disable();
	/* The connection reference and the route are not needed below
	 * the IP layer (nf_reset_ct, skb_dst_drop with
	 * IFF_XMIT_DST_RELEASE). */
	if (skb->ct)
		nf_ct_put(skb->ct);
	skb->ct = NULL;
	skb_dst_drop(skb);
	if (dev->has_qdisc) {
		__dev_xmit_skb(skb, nd);
		goto out;
	}
	/* No queue: software devices go straight to their driver. */
	if (!dev->up)
		goto drop;
	if (dev->xmit_lock_owner == (int8_t)cpu ||
	    xmit_recursion[cpu] > XMIT_RECURSION_LIMIT) {
		recursion_alerts++;
		goto drop;
	}
	skb = validate_xmit_skb(skb, nd);
	if (!skb)
		goto out;
	dev->xmit_lock_owner = (int8_t)cpu;  /* HARD_TX_LOCK */
	if (!dev->txq_state) {
		xmit_recursion[cpu]++;
		dev_hard_start_xmit(skb, nd, &rest);
		xmit_recursion[cpu]--;
		if (!rest) {
			dev->xmit_lock_owner = -1;
			goto out;
		}
		skb = rest;
	}
	dev->xmit_lock_owner = -1;
	/* A software device that asks to queue: drop. */
drop:
	xmit_dropped++;
	dev->tx_dropped++;
	kfree_skb_reason(skb, SKB_DROP_QDISC);
out:
	local_bh_enable();
}

/* Down the device stack: a frame for device nd. */
void dev_xmit(struct sk_buff *skb, unsigned nd)
{
	skb->ldev = (uint8_t)nd;
	dev_queue_xmit(skb);
}

/* Control plane: queue limits of eth0. */
void xmit_init(void)
{
	struct dql *d = &nb_devs[ND_ETH0].dql;
	unsigned i;

	d->max_limit = DQL_MAX_LIMIT;
	d->min_limit = 0;
	d->limit = 3000;
	d->adj_limit = d->limit;
	d->lowest_slack = 0xffffffffu;
	d->slack_hold_time = DQL_HOLD_TIME;
	for (i = 0; i < NB_NDEVS; i++)
		nb_devs[i].xmit_lock_owner = -1;
	dev_activate(ND_ETH0);
}
