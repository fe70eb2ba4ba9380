/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The pfifo qdisc of eth0 (the seeds' routers run pfifo): a tail-drop
 * queue with a packet limit, and qdisc_run handing frames to the driver
 * while the transmit queue is open, putting one back when it is not.
 */
#include "fp_int.h"
#include "fp_util.h"

struct pfifo nb_qdisc;

int qdisc_empty(void)
{
	return nb_qdisc.qlen == 0;
}

int qdisc_enqueue(struct sk_buff *skb)
{
	struct pfifo *q = &nb_qdisc;

	if (unlikely(q->qlen >= q->limit)) {
		q->dropped++;
		return -1;
	}
	skb->next = NULL;
	if (q->tail)
		q->tail->next = skb;
	else
		q->head = skb;
	q->tail = skb;
	q->qlen++;
	q->enqueued++;
	q->backlog += skb->len;
	return 0;
}

struct sk_buff *qdisc_dequeue(void)
{
	struct pfifo *q = &nb_qdisc;
	struct sk_buff *skb = q->head;

	if (!skb)
		return NULL;
	q->head = skb->next;
	if (!q->head)
		q->tail = NULL;
	q->qlen--;
	q->backlog -= skb->len;
	skb->next = NULL;
	return skb;
}

void qdisc_requeue(struct sk_buff *skb)
{
	struct pfifo *q = &nb_qdisc;

	skb->next = q->head;
	q->head = skb;
	if (!q->tail)
		q->tail = skb;
	q->qlen++;
	q->backlog += skb->len;
}

void qdisc_run(void)
{
	unsigned quota = 64;

	while (quota--) {
		struct sk_buff *skb = qdisc_dequeue();

		if (!skb)
			return;
		if (sch_direct_xmit(skb) < 0) {
			qdisc_requeue(skb);
			nb_nic.tx_busy++;
			return;
		}
	}
}
