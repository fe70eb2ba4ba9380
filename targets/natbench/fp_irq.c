/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The generic interrupt core: the exception's C entry (interrupt context
 * in, the root handler, softirqs on the way out), the controller domain
 * that turns a hardware number into an interrupt descriptor, the flow
 * handlers (fasteoi for shared peripherals like the Ethernet core, per-CPU
 * for the local timer and the IPIs), the action chain of a descriptor and
 * its statistics, and the spurious-interrupt detector that watches every
 * handler's answer (note_interrupt). Interrupts are requested at boot
 * (the control plane here).
 */
#include "fp_int.h"
#include "fp_irq.h"
#include "fp_mm.h"
#include "fp_util.h"

#define NR_IRQS 32u
#define MAX_ACTIONS 16u
#define IRQS_PENDING 0x1u
#define IRQS_ONESHOT 0x2u
#define IRQS_REPLAY 0x4u
#define IRQS_WAITING 0x8u
#define IRQS_POLL_INPROGRESS 0x10u
#define SPURIOUS_DEFERRED 0x80000000u

unsigned nb_cpu;

struct irqaction {
	irq_handler_t handler;
	void *dev_id;
	struct irqaction *next;
	unsigned irq;
	const char *name;
};

struct irq_desc {
	struct irq_data irq_data;
	void (*handle_irq)(struct irq_desc *desc);
	struct irqaction *action;
	uint32_t istate;             /* IRQS_* */
	unsigned depth;              /* nested disables */
	uint32_t tot_count;
	uint32_t kstat_irqs[NB_NCPUS];
	uint32_t percpu_enabled;
	/* note_interrupt: unhandled interrupts among the last 100,000 */
	uint32_t irq_count, irqs_unhandled, last_unhandled;
	uint32_t threads_handled_last;
	const char *name;
};

static struct irq_desc irq_desc[NR_IRQS];
static unsigned nr_irqs = 1;         /* 0 is no interrupt */
static struct irqaction actions[MAX_ACTIONS];
static unsigned nactions;

/* The GIC's linear domain: hardware number to Linux number. */
static struct {
	uint8_t revmap[NB_NIRQS];
	unsigned revmap_size;
} gic_domain = { { 0 }, NB_NIRQS };

static uint64_t irq_err_count, bad_irqs;

static struct irq_desc *irq_resolve_mapping(unsigned hwirq)
{
	unsigned irq;

	if (hwirq >= gic_domain.revmap_size)
		return NULL;
	irq = gic_domain.revmap[hwirq];
	return irq ? &irq_desc[irq] : NULL;
}

static inline void kstat_incr_irqs_this_cpu(struct irq_desc *desc)
{
	desc->kstat_irqs[smp_processor_id()]++;
	desc->tot_count++;
}

static int irq_may_run(const struct irq_desc *desc)
{
	return !(desc->irq_data.state & IRQD_IRQ_INPROGRESS);
}

static void mask_irq(struct irq_desc *desc)
{
	if (desc->irq_data.state & IRQD_IRQ_MASKED)
		return;
	desc->irq_data.chip->irq_mask(&desc->irq_data);
	desc->irq_data.state |= IRQD_IRQ_MASKED;
}

static void unmask_irq(struct irq_desc *desc)
{
	if (!(desc->irq_data.state & IRQD_IRQ_MASKED))
		return;
	desc->irq_data.chip->irq_unmask(&desc->irq_data);
	desc->irq_data.state &= ~IRQD_IRQ_MASKED;
}

/* Each action of the descriptor in turn: one of them should say it was
 * its device's. */
static int __handle_irq_event_percpu(struct irq_desc *desc)
{
	unsigned irq = desc->irq_data.irq;
	struct irqaction *action;
	int retval = IRQ_NONE;

	for (action = desc->action; action; action = action->next) {
		int res = action->handler(irq, action->dev_id);

		switch (res) {
		case IRQ_WAKE_THREAD:
			/* No threaded handlers on this router. */
			irq_err_count++;
			break;
		case IRQ_HANDLED:
			break;
		default:
			break;
		}
		retval |= res;
	}
	return retval;
}

/* The spurious interrupt detector: a line whose handlers disown almost
 * all of 100,000 interrupts is stuck, and gets disabled. */
static void note_interrupt(struct irq_desc *desc, int action_ret)
{
	if (desc->istate & IRQS_POLL_INPROGRESS)
		return;
	if (unlikely(action_ret & ~(IRQ_HANDLED | IRQ_WAKE_THREAD))) {
		bad_irqs++;
		return;
	}
	if (unlikely(action_ret == IRQ_NONE)) {
		/* Only a burst of unhandled ones counts: reset after a
		 * tenth of a second without. */
		if (nb_jiffies - desc->last_unhandled > HZ / 10)
			desc->irqs_unhandled = 1;
		else
			desc->irqs_unhandled++;
		desc->last_unhandled = nb_jiffies;
	}
	desc->irq_count++;
	if (likely(desc->irq_count < 100000))
		return;
	desc->irq_count = 0;
	if (unlikely(desc->irqs_unhandled > 99900)) {
		bad_irqs++;
		desc->depth++;
		desc->irq_data.state |= IRQD_IRQ_DISABLED;
		mask_irq(desc);
	}
	desc->irqs_unhandled = 0;
}

static int handle_irq_event(struct irq_desc *desc)
{
	int ret;

	desc->istate &= ~IRQS_PENDING;
	desc->irq_data.state |= IRQD_IRQ_INPROGRESS;
	ret = __handle_irq_event_percpu(desc);
	add_interrupt_randomness(desc->irq_data.irq);
	note_interrupt(desc, ret);
	desc->irq_data.state &= ~IRQD_IRQ_INPROGRESS;
	return ret;
}

/* Shared peripherals: handle, then end the interrupt at the controller. */
static void handle_fasteoi_irq(struct irq_desc *desc)
{
	const struct irq_chip *chip = desc->irq_data.chip;

	if (!irq_may_run(desc))
		goto out;
	desc->istate &= ~(IRQS_REPLAY | IRQS_WAITING);
	/* Disabled, or nobody to handle it: remember it, keep it masked. */
	if (unlikely(!desc->action ||
		     desc->irq_data.state & IRQD_IRQ_DISABLED)) {
		desc->istate |= IRQS_PENDING;
		mask_irq(desc);
		goto out;
	}
	kstat_incr_irqs_this_cpu(desc);
	if (desc->istate & IRQS_ONESHOT)
		mask_irq(desc);
	handle_irq_event(desc);
	/* cond_unmask_eoi_irq */
	if (!(desc->istate & IRQS_ONESHOT)) {
		chip->irq_eoi(&desc->irq_data);
		return;
	}
	if (!(desc->irq_data.state & IRQD_IRQ_DISABLED))
		unmask_irq(desc);
out:
	chip->irq_eoi(&desc->irq_data);
}

/* Per-CPU interrupts (the local timer, IPIs): one action, this CPU's. */
static void handle_percpu_devid_irq(struct irq_desc *desc)
{
	const struct irq_chip *chip = desc->irq_data.chip;
	struct irqaction *action = desc->action;
	unsigned irq = desc->irq_data.irq;

	kstat_incr_irqs_this_cpu(desc);
	if (likely(action)) {
		action->handler(irq, action->dev_id);
	} else {
		/* Enabled on this CPU, no handler: disable it here. */
		desc->percpu_enabled &= ~(1u << smp_processor_id());
		irq_err_count++;
	}
	chip->irq_eoi(&desc->irq_data);
}

int generic_handle_domain_irq(unsigned hwirq)
{
	struct irq_desc *desc = irq_resolve_mapping(hwirq);

	if (unlikely(!desc)) {
		irq_err_count++;
		return -1;
	}
	desc->handle_irq(desc);
	return 0;
}

/* The exception's C part (__irq_svc, generic_handle_arch_irq): interrupt
 * context, the controller's handler, and softirqs on the way out. */
void fp_irq_entry(unsigned cpu)
{
	nb_cpu = cpu;
	irq_enter();
	gic_handle_irq();
	irq_exit();
}

void ipi_send_mask(unsigned hwirq, unsigned cpumask)
{
	struct irq_desc *desc = irq_resolve_mapping(hwirq);

	if (desc)
		desc->irq_data.chip->ipi_send_mask(&desc->irq_data, cpumask);
}

/* ---- control plane: interrupts requested at boot ---- */

static struct irq_desc *irq_domain_map(unsigned hwirq, const char *name,
				       void (*flow)(struct irq_desc *desc))
{
	struct irq_desc *desc;

	if (hwirq >= NB_NIRQS || nr_irqs == NR_IRQS)
		return NULL;
	if (gic_domain.revmap[hwirq])
		return &irq_desc[gic_domain.revmap[hwirq]];
	desc = &irq_desc[nr_irqs];
	desc->irq_data.irq = nr_irqs;
	desc->irq_data.hwirq = hwirq;
	desc->irq_data.chip = &gic_chip;
	desc->irq_data.state = IRQD_IRQ_MASKED;
	desc->handle_irq = flow;
	desc->name = name;
	gic_domain.revmap[hwirq] = (uint8_t)nr_irqs++;
	return desc;
}

static int setup_irq(struct irq_desc *desc, irq_handler_t handler,
		     const char *name, void *dev_id)
{
	struct irqaction *a, **pp;

	if (!desc || nactions == MAX_ACTIONS)
		return -1;
	a = &actions[nactions++];
	a->handler = handler;
	a->dev_id = dev_id;
	a->irq = desc->irq_data.irq;
	a->name = name;
	for (pp = &desc->action; *pp; pp = &(*pp)->next)
		;
	*pp = a;
	desc->irq_data.state &= ~IRQD_IRQ_DISABLED;
	unmask_irq(desc);
	return 0;
}

int request_irq(unsigned hwirq, irq_handler_t handler, const char *name,
		void *dev_id)
{
	return setup_irq(irq_domain_map(hwirq, name, handle_fasteoi_irq),
			 handler, name, dev_id);
}

int request_percpu_irq(unsigned hwirq, irq_handler_t handler,
		       const char *name, void *dev_id)
{
	struct irq_desc *desc = irq_domain_map(hwirq, name,
					       handle_percpu_devid_irq);

	if (!desc)
		return -1;
	desc->irq_data.state |= IRQD_PER_CPU;
	desc->percpu_enabled = (1u << NB_NCPUS) - 1;
	return setup_irq(desc, handler, name, dev_id);
}

void irq_init(void)
{
	gic_init();
}
