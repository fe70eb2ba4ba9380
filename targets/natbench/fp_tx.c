/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The transmit side of the Ethernet driver: a frame goes on the descriptor
 * ring after its buffer is cleaned to memory (v7_dma_clean_range and
 * l2c210_clean_range through the DMA API), the doorbell register tells
 * the device, and the queue stops while the ring is nearly full. Sent
 * descriptors are reclaimed in the NAPI poll: unmapped, their sk_buffs
 * freed, the byte queue limits told, a stopped queue woken.
 */
#include "fp_int.h"
#include "fp_irq.h"
#include "fp_util.h"

#define ETH_ZLEN 60u
#define TX_STOP_THRESH 8u    /* free slots below which the queue stops */

struct bgmac_tx_slot {
	struct sk_buff *skb;
	uint32_t dma_addr;
};

static struct {
	struct bgmac_tx_slot slots[NB_TX_RING];
	uint32_t head;           /* next slot to fill */
	uint32_t clean;          /* next slot to reclaim */
	uint64_t packets, bytes, stops, wakes, busy;
} tx;

static unsigned tx_free_slots(void)
{
	return (tx.clean - tx.head - 1) % NB_TX_RING;
}

int bgmac_start_xmit(struct sk_buff *skb, unsigned nd)
{
	struct net_device *dev = &nb_devs[nd];
	uint32_t slot = tx.head;
	struct bgmac_tx_slot *s = &tx.slots[slot];
	struct dma_desc *d;
	uint32_t len = skb->len;

	if (unlikely(!tx_free_slots())) {
		/* Should not happen: the queue stops before. */
		dev->txq_state |= QUEUE_STATE_DRV_XOFF;
		tx.busy++;
		return NETDEV_TX_BUSY;
	}
	if (len < ETH_ZLEN) {
		/* Short frames are padded with zeroes, as the MAC would. */
		uint8_t *p = skb->data + len;

		while (len < ETH_ZLEN) {
			*p++ = 0;
			__asm__("" : "+r"(p));
			len++;
		}
		skb->len = len;
	}
	s->dma_addr = dma_map_single(skb->data, len, DMA_TO_DEVICE);
	s->skb = skb;
	d = &nb_nic.tx[slot];
	d->addr = s->dma_addr;
	d->ctrl = DESC_OWN | DESC_EOF | len;
	tx.head = (slot + 1) % NB_TX_RING;
	nb_stats.tx++;
	nb_stats.tx_bytes += len;
	dev_sw_netstats_tx_add(nd, skb->cpu, len);
	netdev_tx_sent_queue(len);
	/* The descriptor is in memory before the device is told. */
	__asm__ __volatile__("" ::: "memory");
	nic_write32(REG_TX_PTR, tx.head);
	if (tx_free_slots() < TX_STOP_THRESH) {
		dev->txq_state |= QUEUE_STATE_DRV_XOFF;
		tx.stops++;
	}
	return NETDEV_TX_OK;
}

void bgmac_tx_reclaim(void)
{
	uint32_t done = nic_read32(REG_TX_STATUS) % NB_TX_RING;
	unsigned pkts = 0, bytes = 0;

	while (tx.clean != done) {
		struct bgmac_tx_slot *s = &tx.slots[tx.clean];
		struct dma_desc *d = &nb_nic.tx[tx.clean];
		unsigned len = d->ctrl & DESC_LEN;

		dma_unmap_single(s->dma_addr, len, DMA_TO_DEVICE);
		if (likely(s->skb)) {
			consume_skb(s->skb);
			s->skb = NULL;
			pkts++;
			bytes += len;
		}
		d->ctrl = 0;
		tx.clean = (tx.clean + 1) % NB_TX_RING;
	}
	tx.packets += pkts;
	tx.bytes += bytes;
	netdev_tx_completed(pkts, bytes);
	if (nb_devs[ND_ETH0].txq_state & QUEUE_STATE_DRV_XOFF &&
	    tx_free_slots() >= TX_STOP_THRESH) {
		nb_devs[ND_ETH0].txq_state &= ~QUEUE_STATE_DRV_XOFF;
		tx.wakes++;
		__netif_schedule();
	}
}
