/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Function calls on another CPU: the caller queues a call on the target's
 * list and, if the list was empty, sends it an IPI; the target's IPI
 * handler runs the queued calls in the order they came. Receive packet
 * steering kicks the other CPU's backlog this way (one IPI per NAPI
 * round, not per packet). Also the IPI handler of the ARM port with its
 * per-IPI counts.
 */
#include "fp_int.h"
#include "fp_irq.h"
#include "fp_mm.h"
#include "fp_util.h"

enum { IPI_WAKEUP, IPI_TIMER, IPI_RESCHEDULE, IPI_CALL_FUNC, IPI_CPU_STOP,
	IPI_IRQ_WORK, IPI_COMPLETION, NR_IPI };

/* IPI n is SGI n (nb.h names IPI_CALL_FUNC's for the device side). */
_Static_assert(IRQ_IPI_CALL_FUNC == IPI_CALL_FUNC, "IPI n is SGI n");

static struct {
	struct call_single_data *first, *last;
} call_single_queue[NB_NCPUS];

static uint64_t ipi_stat[NB_NCPUS][NR_IPI], ipi_unknown;

/* Runs what other CPUs queued for this one. */
static void flush_smp_call_function_queue(void)
{
	unsigned cpu = smp_processor_id();
	struct call_single_data *csd = call_single_queue[cpu].first;

	call_single_queue[cpu].first = call_single_queue[cpu].last = NULL;
	while (csd) {
		struct call_single_data *next = csd->next;
		void (*func)(void *info) = csd->func;
		void *info = csd->info;

		/* Unlocked before the call: it may queue itself again. */
		csd->next = NULL;
		csd->flags &= ~CSD_FLAG_LOCK;
		func(info);
		csd = next;
	}
}

int smp_call_function_single_async(unsigned cpu, struct call_single_data *csd)
{
	int was_empty;

	if (csd->flags & CSD_FLAG_LOCK)
		return -1;  /* still queued from last time */
	csd->flags |= CSD_FLAG_LOCK;
	if (cpu == smp_processor_id()) {
		csd->flags &= ~CSD_FLAG_LOCK;
		csd->func(csd->info);
		return 0;
	}
	csd->next = NULL;
	was_empty = !call_single_queue[cpu].first;
	if (was_empty)
		call_single_queue[cpu].first = csd;
	else
		call_single_queue[cpu].last->next = csd;
	call_single_queue[cpu].last = csd;
	/* Only the first queued call needs the IPI: the handler runs
	 * them all. */
	if (was_empty)
		ipi_send_mask(IPI_CALL_FUNC, 1u << cpu);
	return 0;
}

static void do_handle_IPI(unsigned ipinr)
{
	unsigned cpu = smp_processor_id();

	if (ipinr < NR_IPI)
		ipi_stat[cpu][ipinr]++;
	switch (ipinr) {
	case IPI_WAKEUP:
	case IPI_TIMER:
	case IPI_RESCHEDULE:
		break;
	case IPI_CALL_FUNC:
		flush_smp_call_function_queue();
		break;
	default:
		ipi_unknown++;
		break;
	}
}

static int ipi_handler(unsigned irq, void *data)
{
	do_handle_IPI((unsigned)(uintptr_t)data);
	return IRQ_HANDLED;
}

/* Control plane at boot: the IPIs as per-CPU interrupts. */
void smp_init(void)
{
	unsigned i;

	for (i = 0; i < NR_IPI; i++)
		request_percpu_irq(i, ipi_handler, "IPI",
				   (void *)(uintptr_t)i);
}
