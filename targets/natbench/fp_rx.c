/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The Ethernet driver (bgmac-like): its interrupt handler, which masks
 * the device's interrupts and schedules the NAPI poll; the poll, which
 * reclaims sent frames, receives up to its weight and unmasks the device
 * when done; and the receive ring: descriptors pointing at page
 * fragments, each replaced by a fresh fragment (mapped for the device)
 * before its frame goes up in an sk_buff built around it, through GRO.
 * Buffers are invalidated when mapped for the device and again, header
 * first, when taken back.
 */
#include "fp_int.h"
#include "fp_irq.h"
#include "fp_mm.h"
#include "fp_util.h"

struct nic nb_nic;
struct nb_stats nb_stats;

#define RX_POISON 0xdeadu

struct bgmac_slot {
	uint8_t *buf;            /* the fragment (device header at 0) */
	uint32_t dma_addr;
};

static struct {
	/* the bus glue's register access (bgmac->read, bgmac->write) */
	uint32_t (*read)(unsigned reg);
	void (*write)(unsigned reg, uint32_t v);
	struct napi_struct napi;
	struct bgmac_slot rx[NB_RX_RING];
	uint32_t rx_start;       /* next slot to process */
	uint32_t int_mask;
	uint64_t rx_packets, rx_bytes, rx_dropped, alloc_failed, poisoned;
	uint64_t unknown_irqs;
} bgmac;

/* bgmac's register access: through the hooks of its bus glue
 * (bgmac-bcma: bcma_bgmac_read/write), to the BCMA core's (fp_bcma.c). */
static uint32_t bcma_bgmac_read(unsigned reg)
{
	return bcma_read32(reg);
}

static void bcma_bgmac_write(unsigned reg, uint32_t v)
{
	bcma_write32(reg, v);
}

uint32_t nic_read32(unsigned reg)
{
	return bgmac.read(reg);
}

void nic_write32(unsigned reg, uint32_t v)
{
	bgmac.write(reg, v);
}

/* A fresh buffer for a slot, mapped for the device. */
static int bgmac_dma_rx_skb_for_slot(struct bgmac_slot *slot)
{
	uint8_t *buf = netdev_alloc_frag(NB_RX_BUF_SIZE);

	if (unlikely(!buf)) {
		bgmac.alloc_failed++;
		return -1;
	}
	/* Poison: the device overwrites it with the frame's length. */
	buf[0] = (uint8_t)RX_POISON;
	buf[1] = (uint8_t)(RX_POISON >> 8);
	slot->dma_addr = dma_map_single(buf, NB_RX_MAP, DMA_FROM_DEVICE);
	slot->buf = buf;
	return 0;
}

static void bgmac_dma_rx_setup_desc(unsigned idx)
{
	struct dma_desc *d = &nb_nic.rx[idx];

	d->addr = bgmac.rx[idx].dma_addr;
	d->ctrl = DESC_OWN | NB_RX_MAP;
}

/* Link-layer classification of a received frame (eth_type_trans). */
static void eth_type_trans(struct sk_buff *skb)
{
	const uint8_t *h = skb->data;

	skb->mac = (uint16_t)(skb->data - skb->head);
	if (h[0] & 1) {
		if ((h[0] & h[1] & h[2] & h[3] & h[4] & h[5]) == 0xff)
			skb->pkt_type = PKT_BROADCAST;
		else
			skb->pkt_type = PKT_MULTICAST;
	} else if (!mac_equal(h, nb_ifs[IF_LAN].mac)) {
		skb->pkt_type = PKT_OTHERHOST;
	}
	skb->protocol = rd16(h + 12);
	skb->data += ETH_HLEN;
	skb->len -= ETH_HLEN;
}

static unsigned bgmac_dma_rx_read(unsigned weight)
{
	uint32_t end = nic_read32(REG_RX_STATUS) % NB_RX_RING;
	unsigned handled = 0;

	while (bgmac.rx_start != end) {
		unsigned idx = bgmac.rx_start;
		struct bgmac_slot *slot = &bgmac.rx[idx];
		uint8_t *buf = slot->buf;
		uint32_t dma_addr = slot->dma_addr, len, flags;
		struct sk_buff *skb;

		/* The device's header first: how much of the buffer the
		 * frame took. */
		dma_sync_single_for_cpu(dma_addr, NB_LINE, DMA_FROM_DEVICE);
		len = (uint32_t)buf[0] | (uint32_t)buf[1] << 8;
		flags = (uint32_t)buf[2] | (uint32_t)buf[3] << 8;
		do {
			if (unlikely(nb_nic.rx[idx].ctrl & DESC_OWN)) {
				/* Not filled: the ring is out of step. */
				nb_nic.rx_errors++;
				break;
			}
			/* A replacement first; without one the frame is
			 * dropped and its buffer stays in the ring. */
			if (unlikely(bgmac_dma_rx_skb_for_slot(slot) < 0)) {
				nb_nic.rx_nobuf++;
				bgmac.rx_dropped++;
				break;
			}
			if (unlikely(len == RX_POISON)) {
				bgmac.poisoned++;
				page_frag_free(buf);
				break;
			}
			if (unlikely(flags & (RXF_CRC_ERR | RXF_OVERSIZE) ||
				     len < ETH_HLEN + 4 || len > NB_MAX_FRAME)) {
				nb_nic.rx_errors++;
				nb_stats.drop_l2++;
				page_frag_free(buf);
				break;
			}
			/* The rest of the frame, then it is the CPU's. */
			dma_unmap_single(dma_addr + NB_LINE,
					 NB_HEADROOM - NB_LINE + len,
					 DMA_FROM_DEVICE);
			skb = build_skb(buf, NB_RX_BUF_SIZE);
			if (unlikely(!skb)) {
				bgmac.rx_dropped++;
				page_frag_free(buf);
				break;
			}
			skb_put(skb, NB_HEADROOM + len);
			skb_pull(skb, NB_HEADROOM);
			NB_PLANT_RUN(skb); /* nothing unless -DNB_PLANT_PAD */
			nb_stats.rx++;
			nb_stats.rx_bytes += len;
			bgmac.rx_packets++;
			bgmac.rx_bytes += len;
			eth_type_trans(skb);
			napi_gro_receive(&bgmac.napi, skb);
			handled++;
		} while (0);
		bgmac_dma_rx_setup_desc(idx);
		bgmac.rx_start = (idx + 1) % NB_RX_RING;
		if (handled >= weight)
			break;
	}
	nic_write32(REG_RX_PTR, bgmac.rx_start);
	return handled;
}

static int bgmac_poll(struct napi_struct *napi, int weight)
{
	int handled;

	nic_write32(REG_INT_STATUS, NIC_INT_RX | NIC_INT_TX);
	bgmac_tx_reclaim();
	handled = (int)bgmac_dma_rx_read((unsigned)weight);
	/* More arrived meanwhile: poll again. */
	if (nic_read32(REG_INT_STATUS) & (NIC_INT_RX | NIC_INT_TX))
		return weight;
	if (handled < weight) {
		napi_complete_done(napi, handled);
		nic_write32(REG_INT_MASK, bgmac.int_mask);
	}
	return handled;
}

static int bgmac_interrupt(unsigned irq, void *dev_id)
{
	uint32_t status = nic_read32(REG_INT_STATUS) & bgmac.int_mask;

	if (!status)
		return IRQ_NONE;
	if (status & ~(NIC_INT_RX | NIC_INT_TX))
		bgmac.unknown_irqs++;
	/* No more interrupts until the poll has handled these. */
	nic_write32(REG_INT_MASK, 0);
	napi_schedule(&bgmac.napi);
	return IRQ_HANDLED;
}

/* Driver open: the receive ring filled, NAPI, the interrupt. */
void fp_rx_open(void)
{
	uint32_t i;

	bgmac.read = bcma_bgmac_read;
	bgmac.write = bcma_bgmac_write;
	for (i = 0; i < NB_RX_RING; i++) {
		if (bgmac_dma_rx_skb_for_slot(&bgmac.rx[i]) < 0)
			break;
		bgmac_dma_rx_setup_desc(i);
	}
	bgmac.rx_start = 0;
	nic_write32(REG_RX_PTR, 0);
	netif_napi_add(&bgmac.napi, ND_ETH0, bgmac_poll, NB_BUDGET);
	request_irq(IRQ_BGMAC, bgmac_interrupt, "bgmac", &bgmac);
	bgmac.int_mask = NIC_INT_RX | NIC_INT_TX;
	nic_write32(REG_INT_MASK, bgmac.int_mask);
}
