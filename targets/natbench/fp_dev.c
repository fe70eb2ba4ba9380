/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The device layer's receive core: NAPI scheduling (a device's poll put
 * on its CPU's list, the NET_RX softirq running the list with a budget of
 * 300 packets and two jiffies, polls that used their whole weight going
 * round again), receive packet steering (every packet's flow hash picks
 * a CPU of eth0's rps_cpus map, here the seeds' "echo 2 > rps_cpus": the
 * mask 0x2, CPU 1 only, while CPU 0 takes the interrupts and runs the
 * driver; the packet waits in that CPU's backlog, a remote CPU is kicked
 * with one IPI per round), the
 * backlog's own NAPI poll handing packets to __netif_receive_skb, and the
 * NET_TX softirq that restarts a woken transmit queue's qdisc.
 */
#include "fp_int.h"
#include "fp_irq.h"
#include "fp_mm.h"
#include "fp_util.h"

#define NETDEV_BUDGET 300
#define NETDEV_BUDGET_JIFFIES 2u
#define NETDEV_MAX_BACKLOG 1000u
#define DEV_RX_WEIGHT 64

struct skb_queue {
	struct sk_buff *head, *tail;
	uint32_t qlen;
};

struct softnet_data {
	struct napi_struct *poll_head, *poll_tail;  /* poll_list */
	struct softnet_data *rps_ipi_list;  /* CPUs to kick after this round */
	struct softnet_data *rps_ipi_next;
	struct call_single_data csd;
	struct napi_struct backlog;
	struct skb_queue input_pkt_queue;   /* filled by other CPUs */
	struct skb_queue process_queue;     /* being processed */
	uint32_t input_queue_head, input_queue_tail;
	uint32_t processed, time_squeeze, received_rps, dropped;
	unsigned cpu;
};

static struct softnet_data softnet_data[NB_NCPUS];
/* rps_cpus of eth0's receive queue ("echo 2 > rps_cpus": mask 0x2). */
static const uint8_t rps_map[] = { 1 };
#define RPS_MAP_LEN (sizeof(rps_map) / sizeof(rps_map[0]))
static unsigned tx_scheduled;

static void skb_queue_tail(struct skb_queue *q, struct sk_buff *skb)
{
	skb->next = NULL;
	if (q->tail)
		q->tail->next = skb;
	else
		q->head = skb;
	q->tail = skb;
	q->qlen++;
}

static struct sk_buff *skb_dequeue(struct skb_queue *q)
{
	struct sk_buff *skb = q->head;

	if (!skb)
		return NULL;
	q->head = skb->next;
	if (!q->head)
		q->tail = NULL;
	q->qlen--;
	skb->next = NULL;
	return skb;
}

static void skb_queue_splice_tail_init(struct skb_queue *from,
				       struct skb_queue *to)
{
	if (!from->head)
		return;
	if (to->tail)
		to->tail->next = from->head;
	else
		to->head = from->head;
	to->tail = from->tail;
	to->qlen += from->qlen;
	from->head = from->tail = NULL;
	from->qlen = 0;
}

/* ---- NAPI ---- */

static void poll_list_add_tail(struct softnet_data *sd, struct napi_struct *n)
{
	n->poll_next = NULL;
	if (sd->poll_tail)
		sd->poll_tail->poll_next = n;
	else
		sd->poll_head = n;
	sd->poll_tail = n;
}

int napi_schedule_prep(struct napi_struct *n)
{
	/* Already scheduled: the running poll must look again. */
	if (n->state & NAPI_STATE_SCHED) {
		n->state |= NAPI_STATE_MISSED;
		return 0;
	}
	n->state |= NAPI_STATE_SCHED;
	return 1;
}

static void ____napi_schedule(struct softnet_data *sd, struct napi_struct *n)
{
	poll_list_add_tail(sd, n);
	__raise_softirq_irqoff(NET_RX_SOFTIRQ);
}

void __napi_schedule(struct napi_struct *n)
{
	____napi_schedule(&softnet_data[smp_processor_id()], n);
}

int napi_complete_done(struct napi_struct *n, int work_done)
{
	/* What GRO handed on goes up before the poll ends. */
	gro_normal_list(n);
	if (n->state & NAPI_STATE_MISSED) {
		/* Scheduled while we ran: poll again. */
		n->state &= ~NAPI_STATE_MISSED;
		__napi_schedule(n);
		return 0;
	}
	n->state &= ~NAPI_STATE_SCHED;
	return work_done >= 0;
}

static int napi_poll(struct napi_struct *n, struct napi_struct **repoll)
{
	int work = 0, weight = n->weight;

	if (n->state & NAPI_STATE_SCHED)
		work = n->poll(n, weight);
	if (work < weight)
		return work;
	/* The whole weight: flush what GRO holds, go round again. */
	gro_normal_list(n);
	n->poll_next = *repoll;
	*repoll = n;
	return work;
}

/* Kicks the CPUs this round gave packets to (net_rps_action_and_irq_enable). */
static void net_rps_send_ipi(struct softnet_data *sd)
{
	struct softnet_data *remsd = sd->rps_ipi_list;

	sd->rps_ipi_list = NULL;
	while (remsd) {
		struct softnet_data *next = remsd->rps_ipi_next;

		smp_call_function_single_async(remsd->cpu, &remsd->csd);
		remsd = next;
	}
}

static void net_rx_action(void)
{
	struct softnet_data *sd = &softnet_data[smp_processor_id()];
	uint32_t time_limit = nb_jiffies + NETDEV_BUDGET_JIFFIES;
	struct napi_struct *list = sd->poll_head, *repoll = NULL;
	int budget = NETDEV_BUDGET;

	sd->poll_head = sd->poll_tail = NULL;
	while (list) {
		struct napi_struct *n = list;

		list = n->poll_next;
		budget -= napi_poll(n, &repoll);
		if (unlikely(budget <= 0 ||
			     (int32_t)(nb_jiffies - time_limit) >= 0)) {
			sd->time_squeeze++;
			break;
		}
	}
	/* Left over, then scheduled meanwhile, then repolled: the next
	 * round's order. */
	{
		struct napi_struct *fresh = sd->poll_head;

		sd->poll_head = sd->poll_tail = NULL;
		while (list) {
			struct napi_struct *n = list;

			list = n->poll_next;
			poll_list_add_tail(sd, n);
		}
		while (fresh) {
			struct napi_struct *n = fresh;

			fresh = n->poll_next;
			poll_list_add_tail(sd, n);
		}
	}
	while (repoll) {
		struct napi_struct *n = repoll;

		repoll = n->poll_next;
		poll_list_add_tail(sd, n);
	}
	if (sd->poll_head)
		__raise_softirq_irqoff(NET_RX_SOFTIRQ);
	net_rps_send_ipi(sd);
}

/* ---- receive packet steering and the backlog ---- */

static int get_rps_cpu(struct sk_buff *skb)
{
	uint32_t hash = skb_get_hash(skb);

	if (!hash)
		return -1;
	/* reciprocal_scale: the hash's high bits pick the CPU */
	return rps_map[(uint32_t)(((uint64_t)hash * RPS_MAP_LEN) >> 32)];
}

/* The backlog of another CPU gets packets: kick it after this round. */
static void napi_schedule_rps(struct softnet_data *sd)
{
	struct softnet_data *mysd = &softnet_data[smp_processor_id()];

	if (sd != mysd) {
		sd->rps_ipi_next = mysd->rps_ipi_list;
		mysd->rps_ipi_list = sd;
		__raise_softirq_irqoff(NET_RX_SOFTIRQ);
		return;
	}
	__napi_schedule(&mysd->backlog);
}

static void enqueue_to_backlog(struct sk_buff *skb, unsigned cpu)
{
	struct softnet_data *sd = &softnet_data[cpu];
	uint32_t qlen = sd->input_pkt_queue.qlen;

	if (unlikely(qlen > NETDEV_MAX_BACKLOG)) {
		sd->dropped++;
		nb_stats.drop_other++;
		kfree_skb(skb);
		return;
	}
	if (!qlen && !(sd->backlog.state & NAPI_STATE_SCHED)) {
		sd->backlog.state |= NAPI_STATE_SCHED;
		napi_schedule_rps(sd);
	}
	skb->cpu = (uint8_t)cpu;
	skb_queue_tail(&sd->input_pkt_queue, skb);
	sd->input_queue_tail++;
	nb_stats.backlog[cpu]++;
}

/* The other CPU's IPI: its backlog joins its poll list. */
static void rps_trigger_softirq(void *data)
{
	struct softnet_data *sd = data;

	____napi_schedule(sd, &sd->backlog);
	sd->received_rps++;
}

static int process_backlog(struct napi_struct *napi, int quota)
{
	struct softnet_data *sd = &softnet_data[napi->cpu];
	int work = 0;

	/* Kicks owed to other CPUs go out before the long work. */
	if (sd->rps_ipi_list)
		net_rps_send_ipi(sd);
	for (;;) {
		struct sk_buff *skb;

		while ((skb = skb_dequeue(&sd->process_queue))) {
			netif_receive_skb_core(skb);
			sd->input_queue_head++;
			sd->processed++;
			if (++work >= quota)
				return work;
		}
		if (!sd->input_pkt_queue.head) {
			/* Empty: the backlog is off the poll list for
			 * good (it was taken off by net_rx_action). */
			napi->state = 0;
			return work;
		}
		skb_queue_splice_tail_init(&sd->input_pkt_queue,
					   &sd->process_queue);
	}
}

/* What GRO hands up, in batches: each packet to the CPU its flow hashes
 * to, or up the stack here if steering has no CPU for it. */
void netif_receive_skb_list_internal(struct sk_buff *head)
{
	while (head) {
		struct sk_buff *skb = head;
		int cpu;

		head = skb->next;
		skb->next = NULL;
		cpu = get_rps_cpu(skb);
		if (cpu >= 0) {
			enqueue_to_backlog(skb, (unsigned)cpu);
			continue;
		}
		skb->cpu = (uint8_t)smp_processor_id();
		netif_receive_skb_core(skb);
	}
}

/* ---- transmit ---- */

void __netif_schedule(void)
{
	if (tx_scheduled)
		return;
	tx_scheduled = 1;
	raise_softirq_irqoff(NET_TX_SOFTIRQ);
}

static void net_tx_action(void)
{
	tx_scheduled = 0;
	qdisc_run();
}

/* ---- control plane ---- */

void netif_napi_add(struct napi_struct *n, unsigned dev,
		    int (*poll)(struct napi_struct *n, int budget), int weight)
{
	n->poll = poll;
	n->weight = weight;
	n->dev = (uint8_t)dev;
	n->state = 0;
}

void net_dev_init(void)
{
	unsigned cpu;

	for (cpu = 0; cpu < NB_NCPUS; cpu++) {
		struct softnet_data *sd = &softnet_data[cpu];

		sd->cpu = cpu;
		sd->csd.func = rps_trigger_softirq;
		sd->csd.info = sd;
		netif_napi_add(&sd->backlog, ND_ETH0, process_backlog,
			       DEV_RX_WEIGHT);
		sd->backlog.cpu = (uint8_t)cpu;
	}
	open_softirq(NET_TX_SOFTIRQ, net_tx_action);
	open_softirq(NET_RX_SOFTIRQ, net_rx_action);
}
