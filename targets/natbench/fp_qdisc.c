/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * eth0's queueing, the discipline-independent part (sch_generic.c and
 * __dev_xmit_skb): a frame is enqueued into the root qdisc (fq_codel,
 * fp_sch_fq_codel.c; a work-conserving qdisc marked TCQ_F_CAN_BYPASS
 * would let a frame for an empty, idle queue go straight to the driver)
 * and the CPU that owns the queue (qdisc_run_begin) sends from it until
 * it is empty, the driver's queue stops, or a quota is used (the rest
 * left to the NET_TX softirq). A frame the driver refuses is taken back
 * and sent first next time. Frames the qdisc drops on enqueue are freed
 * once the queue is left.
 */
#include "fp_int.h"
#include "fp_irq.h"
#include "fp_mm.h"
#include "fp_util.h"

#define DEV_TX_WEIGHT 64

struct Qdisc nb_qdisc;

static int qdisc_run_begin(struct Qdisc *q)
{
	if (q->running)
		return 0;
	q->running = 1;
	return 1;
}

static void qdisc_run_end(struct Qdisc *q)
{
	q->running = 0;
}

/* The driver would not take it: first in line next time. */
static void dev_requeue_skb(struct sk_buff *skb, struct Qdisc *q)
{
	skb->next = q->gso_skb;
	q->gso_skb = skb;
	q->qstats.requeues++;
	q->qlen++;
	__netif_schedule();
}

/* The next frame to send: one taken back first, unless the driver's queue
 * is still stopped. */
static struct sk_buff *dequeue_skb(struct Qdisc *q, int *validate)
{
	const struct net_device *dev = &nb_devs[ND_ETH0];
	struct sk_buff *skb = q->gso_skb;

	if (unlikely(skb)) {
		if (dev->txq_state)
			return NULL;
		q->gso_skb = skb->next;
		skb->next = NULL;
		q->qlen--;
		*validate = 0;
		return skb;
	}
	*validate = 1;
	if (dev->txq_state)
		return NULL;
	return q->ops->dequeue(q);
}

/* 1 if the driver took it and more may follow; 0 if it was taken back. */
static int sch_direct_xmit(struct sk_buff *skb, struct Qdisc *q, int validate)
{
	struct net_device *dev = &nb_devs[ND_ETH0];
	unsigned cpu = smp_processor_id();
	struct sk_buff *rest = skb;
	int rc = NETDEV_TX_BUSY;

	if (validate)
		skb = validate_xmit_skb_list(skb, ND_ETH0);
	if (unlikely(!skb))
		return q->qlen != 0;
	dev->xmit_lock_owner = (int8_t)cpu;  /* HARD_TX_LOCK */
	if (!dev->txq_state)
		rc = dev_hard_start_xmit(skb, ND_ETH0, &rest);
	dev->xmit_lock_owner = -1;
	if (rc != NETDEV_TX_OK) {
		dev_requeue_skb(rest, q);
		return 0;
	}
	return 1;
}

static int qdisc_restart(struct Qdisc *q)
{
	int validate;
	struct sk_buff *skb = dequeue_skb(q, &validate);

	if (unlikely(!skb))
		return 0;
	return sch_direct_xmit(skb, q, validate);
}

static void __qdisc_run(struct Qdisc *q)
{
	int quota = DEV_TX_WEIGHT;

	while (qdisc_restart(q)) {
		if (--quota <= 0) {
			/* Enough for now: the NET_TX softirq goes on. */
			__netif_schedule();
			break;
		}
	}
}

void qdisc_run(void)
{
	struct Qdisc *q = &nb_qdisc;

	if (qdisc_run_begin(q)) {
		__qdisc_run(q);
		qdisc_run_end(q);
	}
}

static void kfree_skb_list_reason(struct sk_buff *skb, unsigned reason)
{
	while (skb) {
		struct sk_buff *next = skb->next;

		skb->next = NULL;
		kfree_skb_reason(skb, reason);
		skb = next;
	}
}

/* eth0's dev_queue_xmit below the generic part. */
void __dev_xmit_skb(struct sk_buff *skb, unsigned nd)
{
	struct Qdisc *q = &nb_qdisc;
	struct sk_buff *to_free = NULL;
	int rc;

	if (q->running)
		q->contended++;  /* would spin on the busylock */
	if (q->flags & TCQ_F_CAN_BYPASS && !q->qlen && qdisc_run_begin(q)) {
		/* Empty and idle: straight to the driver, then whatever
		 * queued up meanwhile. */
		q->bypass++;
		q->bstats.bytes += skb->qcb.pkt_len;
		q->bstats.packets++;
		if (sch_direct_xmit(skb, q, 1))
			__qdisc_run(q);
		qdisc_run_end(q);
		return;
	}
	rc = q->ops->enqueue(skb, q, &to_free);
	if (rc != NET_XMIT_SUCCESS)
		nb_devs[nd].tx_dropped++;
	qdisc_run();
	if (unlikely(to_free))
		kfree_skb_list_reason(to_free, SKB_DROP_QDISC);
}

/* Control plane: the device's root qdisc, the default one
 * (net.core.default_qdisc). */
void dev_activate(unsigned nd)
{
	struct Qdisc *q = &nb_qdisc;

	q->ops = &fq_codel_qdisc_ops;
	q->flags = 0;
	q->ops->init(q);
	nb_devs[nd].has_qdisc = 1;
}
