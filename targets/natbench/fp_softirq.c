/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Softirqs: the work interrupt handlers defer (a NAPI poll, expired
 * timers, a woken transmit queue) runs when the last interrupt level is
 * left, or when bottom halves are enabled again outside interrupts. A
 * CPU's pending bits are served in priority order and served again if
 * handlers raised more, ten rounds or two jiffies at most; what is left
 * then waits for the next chance (ksoftirqd on a real kernel). The
 * preempt count says whether the CPU is in a hard interrupt, in a
 * softirq, or has bottom halves disabled.
 */
#include "fp_int.h"
#include "fp_irq.h"
#include "fp_mm.h"
#include "fp_util.h"

#define SOFTIRQ_OFFSET 0x100u
#define SOFTIRQ_DISABLE_OFFSET (2u * SOFTIRQ_OFFSET)
#define SOFTIRQ_MASK 0xff00u
#define HARDIRQ_OFFSET 0x10000u
#define HARDIRQ_MASK 0xf0000u
#define MAX_SOFTIRQ_RESTART 10u
#define MAX_SOFTIRQ_TIME 2u      /* jiffies */

static uint32_t preempt_count[NB_NCPUS];
static uint32_t softirq_pending[NB_NCPUS];
static void (*softirq_vec[NR_SOFTIRQS])(void);
static uint64_t softirq_stat[NB_NCPUS][NR_SOFTIRQS];
static uint64_t ksoftirqd_wakeups, irq_entries[NB_NCPUS];

int in_interrupt(void)
{
	return (preempt_count[smp_processor_id()] &
		(HARDIRQ_MASK | SOFTIRQ_MASK)) != 0;
}

void __raise_softirq_irqoff(unsigned nr)
{
	softirq_pending[smp_processor_id()] |= 1u << nr;
}

/* Raised outside any interrupt: nobody will run it on the way out, the
 * softirq thread would. */
static void wakeup_softirqd(void)
{
	ksoftirqd_wakeups++;
}

void raise_softirq_irqoff(unsigned nr)
{
	__raise_softirq_irqoff(nr);
	if (!in_interrupt())
		wakeup_softirqd();
}

static void __do_softirq(void)
{
	unsigned cpu = smp_processor_id(), restart = MAX_SOFTIRQ_RESTART;
	uint32_t end = nb_jiffies + MAX_SOFTIRQ_TIME;
	uint32_t pending = softirq_pending[cpu];

	preempt_count[cpu] += SOFTIRQ_OFFSET;
again:
	softirq_pending[cpu] = 0;
	while (pending) {
		unsigned nr = (unsigned)__builtin_ctz(pending);

		pending &= pending - 1;
		softirq_stat[cpu][nr]++;
		softirq_vec[nr]();
	}
	pending = softirq_pending[cpu];
	if (pending) {
		if ((int32_t)(nb_jiffies - end) < 0 && --restart)
			goto again;
		wakeup_softirqd();
	}
	preempt_count[cpu] -= SOFTIRQ_OFFSET;
}

void irq_enter(void)
{
	unsigned cpu = smp_processor_id();

	preempt_count[cpu] += HARDIRQ_OFFSET;
	irq_entries[cpu]++;
}

void irq_exit(void)
{
	unsigned cpu = smp_processor_id();

	preempt_count[cpu] -= HARDIRQ_OFFSET;
	if (!in_interrupt() && softirq_pending[cpu])
		__do_softirq();
}

void local_bh_disable(void)
{
	preempt_count[smp_processor_id()] += SOFTIRQ_DISABLE_OFFSET;
}

/* __local_bh_enable_ip: what was raised meanwhile runs now, unless this
 * is interrupt or softirq context, which will run it on its way out. */
void local_bh_enable(void)
{
	unsigned cpu = smp_processor_id();

	preempt_count[cpu] -= SOFTIRQ_DISABLE_OFFSET - 1;
	if (unlikely(!in_interrupt() && softirq_pending[cpu]))
		__do_softirq();
	preempt_count[cpu]--;
}

void open_softirq(unsigned nr, void (*action)(void))
{
	softirq_vec[nr] = action;
}
