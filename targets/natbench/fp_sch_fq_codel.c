/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * eth0's queue discipline: fq_codel, OpenWrt's default qdisc (the seeds'
 * benchmark ran with it, thread 004), so every frame eth0 sends is
 * enqueued and dequeued here. Flow queueing: each frame goes to one of
 * 1024 queues by its flow hash (the one receive steering computed); the
 * queues with frames are served round robin by deficit (a quantum of
 * bytes per turn), queues that just became busy first (new flows), then
 * the others (old flows). CoDel on each queue (RFC 8289): a frame's time
 * in the queue (its sojourn) is measured as it leaves; once the sojourn
 * has stayed above the target (5 ms) for a whole interval (100 ms), the
 * queue drops (or, for ECN-capable packets, marks) a frame, then the
 * next ones at intervals shrinking with the square root of the count of
 * drops, until the sojourn falls below the target again. Beyond the
 * packet or memory limit, the fattest queue loses frames in a batch.
 */
#include "fp_int.h"
#include "fp_mm.h"
#include "fp_util.h"

#define FQ_FLOWS 1024u
#define FQ_LIMIT 10240u
#define FQ_MEMORY_LIMIT (32u << 20)
#define FQ_DROP_BATCH 64u
#define FQ_QUANTUM 1514u          /* psched_mtu: MTU + link header */

/* CoDel's clock: nanoseconds >> 10 (about microseconds), 32 bits. */
#define CODEL_SHIFT 10u
#define US2TIME(us) ((uint32_t)(((uint64_t)(us) * 1000u) >> CODEL_SHIFT))
#define CODEL_TARGET US2TIME(5000)
#define CODEL_INTERVAL US2TIME(100000)
#define CODEL_MTU 1514u

typedef uint32_t codel_time_t;

struct list_head {
	struct list_head *next, *prev;
};

struct codel_vars {
	uint32_t count;           /* drops since entering the drop state */
	uint32_t lastcount;       /* count when the last drop state ended */
	uint8_t dropping;
	uint32_t rec_inv_sqrt;    /* 1 / sqrt(count), 0.32 fixed point */
	codel_time_t first_above_time;  /* when the sojourn may start drops */
	codel_time_t drop_next;   /* the next drop (or mark) is due */
	codel_time_t ldelay;      /* the last frame's sojourn */
};

struct fq_codel_flow {
	struct sk_buff *head, *tail;
	struct list_head flowchain;
	int32_t deficit;
	struct codel_vars cvars;
};

struct codel_stats {
	uint32_t maxpacket;
	uint32_t drop_count, drop_len;
	uint32_t ecn_mark, ce_mark;
};

struct fq_codel_sched_data {
	struct fq_codel_flow flows[FQ_FLOWS];
	uint32_t backlogs[FQ_FLOWS];
	struct list_head new_flows, old_flows;
	uint32_t quantum, drop_batch_size, memory_limit;
	uint32_t memory_usage;
	codel_time_t target, interval;
	uint8_t ecn;
	struct codel_stats cstats;
	uint64_t new_flow_count, drop_overlimit, drop_overmemory;
};

static struct fq_codel_sched_data fq_codel_data;

/* ---- lists ---- */

static inline void INIT_LIST_HEAD(struct list_head *l)
{
	l->next = l->prev = l;
}

static inline int list_empty(const struct list_head *l)
{
	return l->next == l;
}

static inline void list_add_tail(struct list_head *n, struct list_head *h)
{
	n->prev = h->prev;
	n->next = h;
	h->prev->next = n;
	h->prev = n;
}

static inline void list_del_init(struct list_head *n)
{
	n->prev->next = n->next;
	n->next->prev = n->prev;
	INIT_LIST_HEAD(n);
}

static inline void list_move_tail(struct list_head *n, struct list_head *h)
{
	list_del_init(n);
	list_add_tail(n, h);
}

static inline struct fq_codel_flow *flow_of(struct list_head *l)
{
	return (struct fq_codel_flow *)(void *)((uint8_t *)l -
		offsetof(struct fq_codel_flow, flowchain));
}

/* ---- CoDel ---- */

static inline int codel_time_after(codel_time_t a, codel_time_t b)
{
	return (int32_t)(a - b) > 0;
}

static inline int codel_time_after_eq(codel_time_t a, codel_time_t b)
{
	return (int32_t)(a - b) >= 0;
}

static inline int codel_time_before(codel_time_t a, codel_time_t b)
{
	return (int32_t)(a - b) < 0;
}

static codel_time_t codel_get_time(void)
{
	return (codel_time_t)(ktime_get_ns() >> CODEL_SHIFT);
}

/* One Newton step towards 1 / sqrt(count): x' = x (3 - count x^2) / 2. */
static void codel_newton_step(struct codel_vars *v)
{
	uint64_t x = v->rec_inv_sqrt, x2, t;

	x2 = (x * x) >> 32;
	t = (3ull << 32) - (uint64_t)v->count * x2;
	t >>= 2;                  /* keeps the product below in 64 bits */
	t = (t * x) >> 31;
	v->rec_inv_sqrt = t > 0xffffffffull ? 0xffffffffu : (uint32_t)t;
}

/* When the next drop is due: interval / sqrt(count) after t. */
static codel_time_t codel_control_law(codel_time_t t, codel_time_t interval,
				      uint32_t rec_inv_sqrt)
{
	return t + (codel_time_t)(((uint64_t)interval * rec_inv_sqrt) >> 32);
}

/* Congestion Experienced into an ECN-capable IPv4 packet; 0 if it is
 * not ECN-capable (it must be dropped instead). */
static int INET_ECN_set_ce(struct sk_buff *skb)
{
	uint8_t *iph;
	unsigned ecn;

	if (skb->protocol != ETH_P_IP)
		return 0;
	iph = skb->head + skb->network;
	ecn = iph[1] & 3u;
	if (ecn == 0)
		return 0;  /* Not-ECT */
	if (ecn != 3) {
		uint16_t old = rd16(iph);

		iph[1] |= 3u;
		csum_replace2(iph + 10, old, rd16(iph));
	}
	return 1;
}

static struct sk_buff *fq_codel_dequeue_func(struct Qdisc *sch,
					     struct fq_codel_flow *flow)
{
	struct fq_codel_sched_data *q = sch->priv;
	struct sk_buff *skb = flow->head;

	if (!skb)
		return NULL;
	flow->head = skb->next;
	skb->next = NULL;
	q->backlogs[flow - q->flows] -= skb->qcb.pkt_len;
	q->memory_usage -= skb->truesize;
	sch->qlen--;
	sch->qstats.backlog -= skb->qcb.pkt_len;
	return skb;
}

static void fq_codel_drop_func(struct Qdisc *sch, struct sk_buff *skb)
{
	sch->qstats.drops++;
	nb_stats.drop_qdisc++;
	kfree_skb_reason(skb, SKB_DROP_QDISC);
}

/* Should this frame, just dequeued, start or continue the drops? Only
 * once its sojourn has been above the target for an interval, and never
 * when no more than a frame is queued. */
static int codel_should_drop(const struct sk_buff *skb, struct Qdisc *sch,
			     struct codel_vars *v, struct codel_stats *st,
			     codel_time_t now)
{
	struct fq_codel_sched_data *q = sch->priv;

	if (!skb) {
		v->first_above_time = 0;
		return 0;
	}
	v->ldelay = now - skb->qcb.enqueue_time;
	if (unlikely(skb->qcb.pkt_len > st->maxpacket))
		st->maxpacket = skb->qcb.pkt_len;
	if (codel_time_before(v->ldelay, q->target) ||
	    sch->qstats.backlog <= CODEL_MTU) {
		/* Below target: it must stay above a whole interval again
		 * before anything is dropped. */
		v->first_above_time = 0;
		return 0;
	}
	if (v->first_above_time == 0) {
		v->first_above_time = now + q->interval;
		return 0;
	}
	return codel_time_after(now, v->first_above_time);
}

static struct sk_buff *codel_dequeue(struct Qdisc *sch,
				     struct fq_codel_flow *flow)
{
	struct fq_codel_sched_data *q = sch->priv;
	struct codel_vars *v = &flow->cvars;
	struct codel_stats *st = &q->cstats;
	struct sk_buff *skb = fq_codel_dequeue_func(sch, flow);
	codel_time_t now;
	int drop;

	if (!skb) {
		v->dropping = 0;
		return NULL;
	}
	now = codel_get_time();
	drop = codel_should_drop(skb, sch, v, st, now);
	if (v->dropping) {
		if (!drop) {
			v->dropping = 0;  /* sojourn back below target */
		} else {
			/* Drop (or mark) each due frame, the next one due
			 * sooner each time. */
			while (v->dropping && codel_time_after_eq(now, v->drop_next)) {
				v->count++;
				codel_newton_step(v);
				if (q->ecn && INET_ECN_set_ce(skb)) {
					st->ecn_mark++;
					v->drop_next = codel_control_law(v->drop_next,
						q->interval, v->rec_inv_sqrt);
					return skb;
				}
				st->drop_len += skb->qcb.pkt_len;
				fq_codel_drop_func(sch, skb);
				st->drop_count++;
				skb = fq_codel_dequeue_func(sch, flow);
				if (!codel_should_drop(skb, sch, v, st, now))
					v->dropping = 0;
				else
					v->drop_next = codel_control_law(v->drop_next,
						q->interval, v->rec_inv_sqrt);
			}
		}
	} else if (drop) {
		uint32_t delta;

		if (q->ecn && INET_ECN_set_ce(skb)) {
			st->ecn_mark++;
		} else {
			st->drop_len += skb->qcb.pkt_len;
			fq_codel_drop_func(sch, skb);
			st->drop_count++;
			skb = fq_codel_dequeue_func(sch, flow);
			drop = codel_should_drop(skb, sch, v, st, now);
		}
		v->dropping = 1;
		/* Back in the drop state soon after leaving it: start from
		 * about the rate it ended with. */
		delta = v->count - v->lastcount;
		if (delta > 1 &&
		    codel_time_before(now - v->drop_next, 16 * q->interval)) {
			v->count = delta;
			codel_newton_step(v);
		} else {
			v->count = 1;
			v->rec_inv_sqrt = 0xffffffffu;
		}
		v->lastcount = v->count;
		v->drop_next = codel_control_law(now, q->interval,
						 v->rec_inv_sqrt);
	}
	return skb;
}

/* ---- flow queueing ---- */

static unsigned fq_codel_classify(struct sk_buff *skb)
{
	/* reciprocal_scale: the hash's high bits pick the queue */
	return (unsigned)(((uint64_t)skb_get_hash(skb) * FQ_FLOWS) >> 32);
}

static void flow_queue_add(struct fq_codel_flow *flow, struct sk_buff *skb)
{
	skb->next = NULL;
	if (!flow->head)
		flow->head = skb;
	else
		flow->tail->next = skb;
	flow->tail = skb;
}

/* Over a limit: up to half of the fattest queue's bytes (at most a
 * batch of frames) from its head. Returns that queue's index. */
static unsigned fq_codel_drop(struct Qdisc *sch, unsigned max_packets,
			      struct sk_buff **to_free)
{
	struct fq_codel_sched_data *q = sch->priv;
	struct fq_codel_flow *flow;
	uint32_t maxbacklog = 0, threshold, len = 0, mem = 0;
	unsigned i, idx = 0, n = 0;

	for (i = 0; i < FQ_FLOWS; i++) {
		if (q->backlogs[i] > maxbacklog) {
			maxbacklog = q->backlogs[i];
			idx = i;
		}
	}
	threshold = maxbacklog >> 1;
	flow = &q->flows[idx];
	do {
		struct sk_buff *skb = flow->head;

		flow->head = skb->next;
		len += skb->qcb.pkt_len;
		mem += skb->truesize;
		skb->next = *to_free;
		*to_free = skb;
	} while (++n < max_packets && len < threshold && flow->head);
	flow->cvars.count += n;
	q->backlogs[idx] -= len;
	q->memory_usage -= mem;
	sch->qstats.drops += n;
	sch->qstats.backlog -= len;
	sch->qlen -= n;
	return idx;
}

static int fq_codel_enqueue(struct sk_buff *skb, struct Qdisc *sch,
			    struct sk_buff **to_free)
{
	struct fq_codel_sched_data *q = sch->priv;
	unsigned idx = fq_codel_classify(skb), ret, dropped;
	struct fq_codel_flow *flow = &q->flows[idx];
	uint32_t prev_qlen;
	int memory_limited;

	skb->qcb.enqueue_time = codel_get_time();
	flow_queue_add(flow, skb);
	q->backlogs[idx] += skb->qcb.pkt_len;
	sch->qstats.backlog += skb->qcb.pkt_len;
	if (list_empty(&flow->flowchain)) {
		/* Busy again: served first, with a fresh quantum. */
		list_add_tail(&flow->flowchain, &q->new_flows);
		q->new_flow_count++;
		flow->deficit = (int32_t)q->quantum;
	}
	q->memory_usage += skb->truesize;
	memory_limited = q->memory_usage > q->memory_limit;
	if (++sch->qlen <= sch->limit && !memory_limited)
		return NET_XMIT_SUCCESS;
	prev_qlen = sch->qlen;
	ret = fq_codel_drop(sch, q->drop_batch_size, to_free);
	dropped = prev_qlen - sch->qlen;
	q->drop_overlimit += dropped;
	if (memory_limited)
		q->drop_overmemory += dropped;
	nb_stats.drop_qdisc += dropped;
	/* Our own frame's queue lost frames: tell the sender to back off. */
	return ret == idx ? NET_XMIT_CN : NET_XMIT_SUCCESS;
}

static struct sk_buff *fq_codel_dequeue(struct Qdisc *sch)
{
	struct fq_codel_sched_data *q = sch->priv;
	struct fq_codel_flow *flow;
	struct list_head *head;
	struct sk_buff *skb;

	for (;;) {
		head = &q->new_flows;
		if (list_empty(head)) {
			head = &q->old_flows;
			if (list_empty(head))
				return NULL;
		}
		flow = flow_of(head->next);
		if (flow->deficit <= 0) {
			/* Its turn is used: to the back of the old flows
			 * with a new quantum. */
			flow->deficit += (int32_t)q->quantum;
			list_move_tail(&flow->flowchain, &q->old_flows);
			continue;
		}
		skb = codel_dequeue(sch, flow);
		if (skb)
			break;
		/* Empty: a new flow takes one pass through the old flows
		 * (so that new flows cannot starve them), an old one
		 * leaves the lists. */
		if (head == &q->new_flows && !list_empty(&q->old_flows))
			list_move_tail(&flow->flowchain, &q->old_flows);
		else
			list_del_init(&flow->flowchain);
	}
	sch->bstats.bytes += skb->qcb.pkt_len;
	sch->bstats.packets++;
	flow->deficit -= (int32_t)skb->qcb.pkt_len;
	if (q->cstats.drop_count) {
		/* qdisc_tree_reduce_backlog: nothing above eth0's root */
		q->cstats.drop_count = 0;
		q->cstats.drop_len = 0;
	}
	return skb;
}

/* Control plane: the qdisc's setup (fq_codel_init). */
static int fq_codel_init(struct Qdisc *sch)
{
	struct fq_codel_sched_data *q = &fq_codel_data;
	unsigned i;

	sch->priv = q;
	sch->limit = FQ_LIMIT;
	q->quantum = FQ_QUANTUM;
	q->drop_batch_size = FQ_DROP_BATCH;
	q->memory_limit = FQ_MEMORY_LIMIT;
	q->target = CODEL_TARGET;
	q->interval = CODEL_INTERVAL;
	q->ecn = 1;
	INIT_LIST_HEAD(&q->new_flows);
	INIT_LIST_HEAD(&q->old_flows);
	for (i = 0; i < FQ_FLOWS; i++) {
		INIT_LIST_HEAD(&q->flows[i].flowchain);
		q->flows[i].cvars.rec_inv_sqrt = 0xffffffffu;
	}
	return 0;
}

const struct Qdisc_ops fq_codel_qdisc_ops = {
	.id = "fq_codel",
	.enqueue = fq_codel_enqueue,
	.dequeue = fq_codel_dequeue,
	.init = fq_codel_init,
};
