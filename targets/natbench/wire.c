/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The device side of the NIC and the cable: received frames are written
 * into the buffers the driver posted (as the NIC's DMA engine would),
 * transmitted frames are taken off the transmit ring, hashed into the run's
 * checksum, optionally verified, and shown to the generator.
 */
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
	buf = nb_bufs[d->buf];
	/* bgmac-style receive header: little-endian length and flags. */
	buf[0] = (uint8_t)len;
	buf[1] = (uint8_t)(len >> 8);
	buf[2] = 0;
	buf[3] = 0;
	memcpy(buf + NB_HEADROOM, frame, len);
	d->ctrl = len;
	nb_nic.regs[REG_RX_STATUS] = (slot + 1) % NB_RX_RING;
	return 0;
}

/* Eight bytes as a little-endian number, whatever the machine's order. */
static uint64_t le64(const uint8_t *p)
{
	uint64_t v = 0;
	int k;

	for (k = 7; k >= 0; k--)
		v = v << 8 | p[k];
	return v;
}

/* FNV-1a style over 64-bit words in two lanes, then the tail and the
 * length. Only needs to be the same for the same bytes, on every machine
 * (the words are read little-endian: the same hash as ever on x86, ARM
 * and MIPS little-endian, and on a big-endian machine too). */
static uint64_t hash_frame(uint64_t h, const uint8_t *p, uint32_t len)
{
	uint64_t g = h ^ 0x9e3779b97f4a7c15ull;
	uint32_t i = 0;

	for (; i + 16 <= len; i += 16) {
		uint64_t a = le64(p + i), b = le64(p + i + 8);

		h = (h ^ a) * 0x100000001b3ull;
		g = (g ^ b) * 0x100000001b3ull;
	}
	for (; i < len; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return (h ^ g ^ len) * 0x100000001b3ull;
}

void wire_drain(int verify)
{
	uint32_t slot = nb_nic.regs[REG_TX_STATUS] % NB_TX_RING;
	uint32_t end = nb_nic.regs[REG_TX_PTR] % NB_TX_RING;

	while (slot != end) {
		struct dma_desc *d = &nb_nic.tx[slot];
		const uint8_t *frame = nb_bufs[d->buf] + d->off;
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
