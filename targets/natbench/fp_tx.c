/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The transmit side of the Ethernet driver: frames go on a descriptor ring
 * after their buffer is cleaned to memory (v7_dma_clean_range and
 * l2c210_clean_range through the DMA API), the doorbell register tells the
 * device, and completed descriptors are reclaimed at the next poll.
 */
#include "fp_int.h"
#include "fp_util.h"

#define ETH_ZLEN 60u

int bgmac_start_xmit(struct sk_buff *skb)
{
	uint32_t slot = nb_nic.tx_head;
	uint32_t next = (slot + 1) % NB_TX_RING;
	struct dma_desc *d;
	uint32_t len = skb->len;

	if (next == nb_nic.tx_clean)
		return -1;  /* ring full: the qdisc keeps the frame */
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
	dma_map_single(skb->data, len, DMA_TO_DEVICE);
	d = &nb_nic.tx[slot];
	d->buf = skb->buf;
	d->off = (uint16_t)(skb->data - skb->head);
	d->ctrl = DESC_OWN | DESC_EOF | len;
	nb_nic.tx_head = next;
	nb_stats.tx++;
	nb_stats.tx_bytes += len;
	nic_write32(REG_TX_PTR, next);
	return 0;
}

void bgmac_tx_reclaim(void)
{
	uint32_t done = nic_read32(REG_TX_STATUS) % NB_TX_RING;

	unsigned pkts = 0, bytes = 0;

	while (nb_nic.tx_clean != done) {
		struct dma_desc *d = &nb_nic.tx[nb_nic.tx_clean];
		uint8_t *frame = nb_bufs[d->buf] + d->off;
		unsigned len = d->ctrl & DESC_LEN;

		dma_unmap_single(frame, len, DMA_TO_DEVICE);
		consume_skb(skb_of_buf(d->buf));
		d->ctrl = 0;
		nb_nic.tx_clean = (nb_nic.tx_clean + 1) % NB_TX_RING;
		pkts++;
		bytes += len;
	}
	netdev_tx_completed(pkts, bytes);
}
