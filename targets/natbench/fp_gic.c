/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The interrupt controller of the Cortex-A9 MPCore: an ARM GIC. Its root
 * handler (gic_handle_irq, what the exception entry calls) acknowledges
 * interrupts one after the other from the CPU interface and hands each to
 * the interrupt core by its hardware number; its chip operations mask,
 * unmask and end interrupts and send IPIs (software generated interrupts,
 * through the distributor).
 *
 * The registers are memory shared with the device side (nb_gic, which the
 * harness raises interrupts in). Two of them act when accessed: reading
 * the acknowledge register picks the highest-priority pending interrupt
 * and makes it active, writing the SGI register makes an SGI pending on
 * its target CPUs. The GIC does that in hardware; gic_read_iar and
 * gic_write_sgir do it here, as the register accesses they stand for.
 */
#include "fp_int.h"
#include "fp_irq.h"
#include "fp_mm.h"
#include "fp_util.h"

#define GICC_IAR_INT_ID_MASK 0x3ffu
#define GIC_DEF_PRI 0xa0u
#define GIC_DEF_PMR 0xf0u
#define GIC_IDLE_PRI 0xffu

struct gic_regs nb_gic;

static struct {
	uint32_t sgi_intid[NB_NCPUS];   /* the IAR value of an SGI, for EOI */
	uint64_t spurious, acks;
} gic_data;

/* GICC_IAR. Linux gives every interrupt the same priority, so the
 * highest-priority pending one is the lowest pending id. */
static uint32_t gic_read_iar(unsigned cpu)
{
	unsigned w;

	if (nb_gic.running[cpu] <= nb_gic.pmr[cpu] &&
	    nb_gic.running[cpu] != GIC_IDLE_PRI)
		return GIC_SPURIOUS;
	for (w = 0; w < NB_NIRQS / 32; w++) {
		uint32_t p = nb_gic.pending[cpu][w] & nb_gic.enabled[w];
		uint32_t irq, bit;

		if (!p)
			continue;
		bit = p & -p;
		irq = w * 32 + (uint32_t)__builtin_ctz(p);
		nb_gic.pending[cpu][w] &= ~bit;
		nb_gic.active[cpu][w] |= bit;
		nb_gic.running[cpu] = nb_gic.prio[irq];
		if (irq < 16)
			return irq | nb_gic.sgi_src[cpu] << 10;
		return irq;
	}
	return GIC_SPURIOUS;
}

/* GICC_EOIR. */
static void gic_write_eoi(unsigned cpu, uint32_t irqstat)
{
	uint32_t irq = irqstat & GICC_IAR_INT_ID_MASK;

	nb_gic.active[cpu][irq / 32] &= ~(1u << irq % 32);
	nb_gic.running[cpu] = GIC_IDLE_PRI;
}

/* GICD_SGIR: target list in bits 16-23, interrupt id in 0-3. */
static void gic_write_sgir(uint32_t val)
{
	unsigned cpu, irq = val & 15u, from = smp_processor_id();

	for (cpu = 0; cpu < NB_NCPUS; cpu++) {
		if (!(val >> 16 & 1u << cpu))
			continue;
		nb_gic.pending[cpu][0] |= 1u << irq;
		nb_gic.sgi_src[cpu] = from;
	}
}

void gic_handle_irq(void)
{
	unsigned cpu = smp_processor_id();

	for (;;) {
		uint32_t irqstat = gic_read_iar(cpu);
		uint32_t irqnr = irqstat & GICC_IAR_INT_ID_MASK;

		if (unlikely(irqnr >= 1020)) {
			if (irqnr == GIC_SPURIOUS)
				break;
			gic_data.spurious++;
			break;
		}
		gic_data.acks++;
		/* An SGI's EOI must write back the source CPU too: keep the
		 * whole value for gic_eoi_irq (SGIs do not nest). */
		if (irqnr <= 15)
			gic_data.sgi_intid[cpu] = irqstat;
		generic_handle_domain_irq(irqnr);
	}
}

static void gic_mask_irq(struct irq_data *d)
{
	nb_gic.enabled[d->hwirq / 32] &= ~(1u << d->hwirq % 32);
}

static void gic_unmask_irq(struct irq_data *d)
{
	nb_gic.enabled[d->hwirq / 32] |= 1u << d->hwirq % 32;
}

static void gic_eoi_irq(struct irq_data *d)
{
	unsigned cpu = smp_processor_id();
	uint32_t hwirq = d->hwirq;

	if (hwirq < 16)
		hwirq = gic_data.sgi_intid[cpu];
	gic_write_eoi(cpu, hwirq);
}

static void gic_ipi_send_mask(struct irq_data *d, unsigned cpumask)
{
	/* Barrier: what the IPI asks for is in memory before it arrives. */
	__asm__ __volatile__("" ::: "memory");
	gic_write_sgir(cpumask << 16 | d->hwirq);
}

const struct irq_chip gic_chip = {
	"GIC", gic_mask_irq, gic_unmask_irq, gic_eoi_irq, gic_ipi_send_mask,
};

/* Control plane at boot: priorities, SPIs to CPU 0, the CPU interfaces
 * open below GIC_DEF_PMR. */
void gic_init(void)
{
	unsigned i;

	for (i = 0; i < NB_NIRQS; i++) {
		nb_gic.prio[i] = GIC_DEF_PRI;
		nb_gic.target[i] = 1;
	}
	for (i = 0; i < NB_NCPUS; i++) {
		nb_gic.pmr[i] = GIC_DEF_PMR;
		nb_gic.running[i] = GIC_IDLE_PRI;
	}
}
