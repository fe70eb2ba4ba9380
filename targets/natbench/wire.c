/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The device side of the NIC and the cable: received frames are written
 * into the buffers the driver posted (as the NIC's DMA engine would),
 * transmitted frames are taken off the transmit ring, hashed into the run's
 * checksum, optionally verified, and shown to the generator. Also the
 * interrupt lines: the NIC's (raised when its unmasked events are set),
 * each CPU's private timer, and the delivery of what the interrupt
 * controller has pending to the CPUs (fp_irq_entry), until none is left.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

static struct wire_totals totals = { 0, 0, 0xcbf29ce484222325ull, 0, 0 };

int nic_rx_push(const uint8_t *frame, uint32_t len)
{
	uint32_t slot = nb_nic.regs[REG_RX_STATUS] % NB_RX_RING;
	struct dma_desc *d = &nb_nic.rx[slot];
	uint8_t *buf;

	if (!(d->ctrl & DESC_OWN) || len > NB_MAX_FRAME)
		return -1;
	buf = nb_bus_to_virt(d->addr);
	/* bgmac-style receive header: little-endian length and flags. */
	buf[0] = (uint8_t)len;
	buf[1] = (uint8_t)(len >> 8);
	buf[2] = 0;
	buf[3] = 0;
	memcpy(buf + NB_HEADROOM, frame, len);
	d->ctrl = len;
	nb_nic.regs[REG_RX_STATUS] = (slot + 1) % NB_RX_RING;
	nb_nic.regs[REG_INT_STATUS] |= NIC_INT_RX;
	/* Time passes on the wire: a byte is 11.2 cycles at 1 Gbit/s and
	 * 1.4 GHz, a frame has 24 more (preamble, FCS, gap). */
	nb_cycle_counter += (len + 24) * 112 / 10;
	return 0;
}

/* Four bytes as a little-endian number, whatever the machine's order. */
static inline uint32_t le32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap32(v);
#endif
	return v;
}

/* FNV-1a style over 32-bit words in four lanes, then the tail and the
 * length, mixed into the running 64-bit value. Only needs to be the same
 * for the same bytes, on every machine (words are read little-endian),
 * and cheap: it runs over every transmitted byte, under emulation too. */
static uint64_t hash_frame(uint64_t h, const uint8_t *p, uint32_t len)
{
	uint32_t a = (uint32_t)h, b = (uint32_t)(h >> 32);
	uint32_t c = a ^ 0x9e3779b9u, d = b ^ 0x7f4a7c15u;
	uint32_t i = 0;

	for (; i + 16 <= len; i += 16) {
		a = (a ^ le32(p + i)) * 0x01000193u;
		b = (b ^ le32(p + i + 4)) * 0x01000193u;
		c = (c ^ le32(p + i + 8)) * 0x01000193u;
		d = (d ^ le32(p + i + 12)) * 0x01000193u;
	}
	for (; i < len; i++)
		a = (a ^ p[i]) * 0x01000193u;
	h = ((uint64_t)(a ^ c ^ len) << 32 | (b ^ d)) * 0x100000001b3ull;
	return h ^ h >> 29;
}

void wire_drain(int verify)
{
	uint32_t slot = nb_nic.regs[REG_TX_STATUS] % NB_TX_RING;
	uint32_t end = nb_nic.regs[REG_TX_PTR] % NB_TX_RING;

	if (slot != end)
		nb_nic.regs[REG_INT_STATUS] |= NIC_INT_TX;
	while (slot != end) {
		struct dma_desc *d = &nb_nic.tx[slot];
		const uint8_t *frame = nb_bus_to_virt(d->addr);
		uint32_t len = d->ctrl & DESC_LEN;

		totals.frames++;
		totals.bytes += len;
		totals.hash = hash_frame(totals.hash, frame, len);
		if (verify) {
			totals.verified++;
			if (verify_frame(frame, len) < 0)
				totals.bad++;
		}
		gen_observe(frame, len);
		d->ctrl &= ~DESC_OWN;
		slot = (slot + 1) % NB_TX_RING;
	}
	nb_nic.regs[REG_TX_STATUS] = slot;
}

const struct wire_totals *wire_totals(void)
{
	return &totals;
}

static int cpu_has_pending(unsigned cpu)
{
	unsigned w;

	for (w = 0; w < NB_NIRQS / 32; w++)
		if (nb_gic.pending[cpu][w] & nb_gic.enabled[w])
			return 1;
	return 0;
}

static void raise_irq(unsigned cpu, unsigned irq)
{
	nb_gic.pending[cpu][irq / 32] |= 1u << irq % 32;
}

/* Each CPU takes its pending interrupts (one handles several in one
 * entry); handlers may send IPIs, which the loop delivers too. */
static void run_cpus(void)
{
	unsigned rounds = 0, cpu;
	int again;

	do {
		again = 0;
		for (cpu = 0; cpu < NB_NCPUS; cpu++) {
			if (!cpu_has_pending(cpu))
				continue;
			fp_irq_entry(cpu);
			again = 1;
		}
		if (++rounds > 1000) {
			fprintf(stderr, "natbench: interrupts keep coming\n");
			exit(1);
		}
	} while (again);
}

void nic_interrupt(void)
{
	unsigned cpu;

	if (nb_nic.regs[REG_INT_STATUS] & nb_nic.regs[REG_INT_MASK]) {
		/* The shared peripheral goes to its target CPU. */
		for (cpu = 0; cpu < NB_NCPUS; cpu++)
			if (nb_gic.target[IRQ_BGMAC] & 1u << cpu)
				break;
		raise_irq(cpu < NB_NCPUS ? cpu : 0, IRQ_BGMAC);
	}
	run_cpus();
}

void timer_tick(void)
{
	unsigned cpu;

	for (cpu = 0; cpu < NB_NCPUS; cpu++) {
		nb_twd_intstat[cpu] = 1;
		raise_irq(cpu, IRQ_LOCAL_TIMER);
	}
	run_cpus();
}
