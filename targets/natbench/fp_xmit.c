/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The generic transmit path: device dispatch down the stack of L2 devices,
 * __dev_queue_xmit with the empty-qdisc bypass, validate_xmit_skb (device
 * features, checksum help), the driver hand-off, and byte queue limits
 * (dynamic queue limits: the ring is kept just full enough to never starve
 * the hardware, the rest waits in the qdisc).
 */
#include "fp_int.h"
#include "fp_util.h"

#define DQL_MAX_LIMIT 65536u
#define DQL_HOLD_TIME 16u    /* jiffies of slack before the limit shrinks */

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

static void netdev_tx_sent_queue(struct net_device *dev, unsigned bytes)
{
	dql_queued(&dev->dql, bytes);
	if (dql_avail(&dev->dql) < 0)
		dev->txq_stopped = 1;
}

/* Transmit completion (from the driver's reclaim): may restart the queue. */
void netdev_tx_completed(unsigned pkts, unsigned bytes)
{
	struct net_device *dev = &nb_devs[ND_ETH0];

	if (!pkts)
		return;
	dql_completed(&dev->dql, bytes);
	if (dev->txq_stopped && dql_avail(&dev->dql) >= 0) {
		dev->txq_stopped = 0;
		qdisc_run();
	}
}

static uint32_t netif_skb_features(const struct sk_buff *skb)
{
	uint32_t f = nb_devs[ND_ETH0].features;
	const uint8_t *eth = skb->data;

	/* Stacked tags: offloads do not look inside the second one. */
	if (rd16(eth + 12) == ETH_P_8021Q && rd16(eth + 16) == ETH_P_8021Q)
		f &= ~(NETIF_F_HW_CSUM | NETIF_F_SG);
	return f;
}

static struct sk_buff *validate_xmit_skb(struct sk_buff *skb)
{
	uint32_t features = netif_skb_features(skb);

	if (unlikely(skb->ip_summed && !(features & NETIF_F_HW_CSUM))) {
		/* A partial checksum the device cannot finish: do it here. */
		uint8_t *l4 = skb->head + skb->transport;
		uint32_t len = skb->len - (uint32_t)(l4 - skb->data);

		wr16(l4 + 16, 0);
		wr16(l4 + 16, csum_finish(csum_partial(l4, len, 0)));
		skb->ip_summed = 0;
	}
	return skb;
}

/* Returns 0 if the driver took it, -1 if the ring is busy (the caller
 * keeps the frame). */
int sch_direct_xmit(struct sk_buff *skb)
{
	struct net_device *dev = &nb_devs[ND_ETH0];
	unsigned len = skb->len;

	if (dev->txq_stopped)
		return -1;
	skb = validate_xmit_skb(skb);
	if (bgmac_start_xmit(skb) < 0)
		return -1;
	dev_sw_netstats_tx_add(ND_ETH0, skb->cpu, len);
	netdev_tx_sent_queue(dev, len);
	return 0;
}

/* eth0 transmits: skb->data at a complete frame. */
void dev_queue_xmit(struct sk_buff *skb)
{
	unsigned dev = skb->odev;

	/* The connection reference ends here (nf_reset_ct). */
	if (skb->ct)
		nf_ct_put_unconfirmed(skb->ct);
	skb->ct = NULL;
	skb->mac = (uint16_t)(skb->data - skb->head);
	skb->ldev = ND_ETH0;
	if (dev < NB_NIFS) {
		nb_ifs[dev].tx_packets++;
		nb_ifs[dev].tx_bytes += skb->len;
	}
	/* An empty queue and an open ring: straight to the driver. */
	if (qdisc_empty() && sch_direct_xmit(skb) == 0)
		return;
	if (qdisc_enqueue(skb) < 0) {
		nb_stats.drop_qdisc++;
		if (dev < NB_NIFS)
			nb_ifs[dev].tx_dropped++;
		kfree_skb_reason(skb, SKB_DROP_QDISC);
		return;
	}
	qdisc_run();
}

/* Down the device stack: skb->data at a frame (or, for PPP, the packet)
 * for device nd. */
void dev_xmit(struct sk_buff *skb, unsigned nd)
{
	switch (nb_devs[nd].type) {
	case NDT_BRIDGE:
		br_dev_xmit(skb);
		return;
	case NDT_VLAN:
		vlan_dev_xmit(skb, nd);
		return;
	case NDT_PPP:
		ppp_xmit(skb, PPP_IP);
		return;
	default:
		dev_queue_xmit(skb);
		return;
	}
}

/* Control plane: queue limits of eth0. */
void xmit_init(void)
{
	struct dql *d = &nb_devs[ND_ETH0].dql;

	d->max_limit = DQL_MAX_LIMIT;
	d->min_limit = 0;
	d->limit = 3000;
	d->adj_limit = d->limit;
	d->lowest_slack = 0xffffffffu;
	d->slack_hold_time = DQL_HOLD_TIME;
}
