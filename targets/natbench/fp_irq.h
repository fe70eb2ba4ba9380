/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Interrupts and deferred work of the fast path: interrupt descriptors
 * and chips (fp_irq.c, fp_gic.c), softirqs (fp_softirq.c), cross-CPU
 * calls (fp_smp.c), the tick and timers (fp_time.c), interrupt entropy
 * (fp_random.c) and NAPI (fp_dev.c, fp_gro.c). Declarations only.
 */
#ifndef FP_IRQ_H
#define FP_IRQ_H

#include <stdint.h>

#include "nb.h"

/* ---- hard interrupts ---- */

enum { IRQ_NONE, IRQ_HANDLED, IRQ_WAKE_THREAD };
typedef int (*irq_handler_t)(unsigned irq, void *dev_id);

#define IRQD_IRQ_DISABLED 0x1u
#define IRQD_IRQ_MASKED 0x2u
#define IRQD_IRQ_INPROGRESS 0x4u
#define IRQD_PER_CPU 0x8u

struct irq_data {
	unsigned irq;            /* Linux interrupt number */
	unsigned hwirq;          /* the controller's */
	const struct irq_chip *chip;
	uint32_t state;          /* IRQD_* */
};

struct irq_chip {
	const char *name;
	void (*irq_mask)(struct irq_data *d);
	void (*irq_unmask)(struct irq_data *d);
	void (*irq_eoi)(struct irq_data *d);
	void (*ipi_send_mask)(struct irq_data *d, unsigned cpumask);
};

extern const struct irq_chip gic_chip;

/* The controller's root handler (handle_arch_irq). */
void gic_handle_irq(void);
void gic_init(void);

int request_irq(unsigned hwirq, irq_handler_t handler, const char *name,
		void *dev_id);
int request_percpu_irq(unsigned hwirq, irq_handler_t handler,
		       const char *name, void *dev_id);
int generic_handle_domain_irq(unsigned hwirq);
/* Sends an IPI (an SGI) to the CPUs of cpumask. */
void ipi_send_mask(unsigned hwirq, unsigned cpumask);
void irq_init(void);

/* ---- softirqs ---- */

enum { HI_SOFTIRQ, TIMER_SOFTIRQ, NET_TX_SOFTIRQ, NET_RX_SOFTIRQ,
	BLOCK_SOFTIRQ, IRQ_POLL_SOFTIRQ, TASKLET_SOFTIRQ, SCHED_SOFTIRQ,
	HRTIMER_SOFTIRQ, RCU_SOFTIRQ, NR_SOFTIRQS };

void open_softirq(unsigned nr, void (*action)(void));
void __raise_softirq_irqoff(unsigned nr);
void raise_softirq_irqoff(unsigned nr);
int in_interrupt(void);
void irq_enter(void);
void irq_exit(void);
void local_bh_disable(void);
void local_bh_enable(void);

/* ---- cross-CPU function calls ---- */

#define CSD_FLAG_LOCK 0x1u

struct call_single_data {
	struct call_single_data *next;
	void (*func)(void *info);
	void *info;
	uint32_t flags;
};

int smp_call_function_single_async(unsigned cpu, struct call_single_data *csd);
void smp_init(void);

/* ---- time ---- */

#define HZ 250u

struct timer_list {
	struct timer_list *next, **pprev;
	uint32_t expires;
	void (*function)(struct timer_list *t);
	uint32_t flags;          /* low bits: CPU; TIMER_* */
};

#define TIMER_PENDING 0x100u

static inline int time_after_eq(uint32_t a, uint32_t b)
{
	return (int32_t)(a - b) >= 0;
}

void timer_setup(struct timer_list *t, void (*fn)(struct timer_list *t));
int mod_timer(struct timer_list *t, uint32_t expires);
int del_timer(struct timer_list *t);
void time_init(void);

/* ---- entropy ---- */

void add_interrupt_randomness(unsigned irq);
void random_init(void);

/* ---- NAPI ---- */

#define NAPI_STATE_SCHED 0x1u    /* scheduled or running */
#define NAPI_STATE_MISSED 0x2u   /* scheduled again while running */

struct napi_struct {
	struct napi_struct *poll_next;   /* a CPU's poll list */
	uint32_t state;
	int weight;
	int (*poll)(struct napi_struct *n, int budget);
	/* Packets GRO passed on, handed up in batches (gro_normal_list). */
	struct sk_buff *rx_head, *rx_tail;
	int rx_count;
	uint32_t gro_bitmask;
	uint8_t dev;             /* ND_* */
	uint8_t cpu;             /* a backlog's CPU */
};

int napi_schedule_prep(struct napi_struct *n);
void __napi_schedule(struct napi_struct *n);
int napi_complete_done(struct napi_struct *n, int work_done);
void netif_napi_add(struct napi_struct *n, unsigned dev,
		    int (*poll)(struct napi_struct *n, int budget), int weight);

static inline void napi_schedule(struct napi_struct *n)
{
	if (napi_schedule_prep(n))
		__napi_schedule(n);
}

/* fp_dev.c: a list of skbs (chained through next) up the stack. */
void netif_receive_skb_list_internal(struct sk_buff *head);
/* A transmit queue woken: NET_TX softirq runs its qdisc. */
void __netif_schedule(void);
void net_dev_init(void);

/* fp_gro.c */
int napi_gro_receive(struct napi_struct *napi, struct sk_buff *skb);
void gro_normal_list(struct napi_struct *napi);

#endif
