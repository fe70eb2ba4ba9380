/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The receive side of the Ethernet driver (bgmac-like): a ring of DMA
 * descriptors, buffers invalidated when mapped for the device and again when
 * taken back, a NAPI poll with a budget, and receive packet steering over
 * two modelled CPUs.
 */
#include "fp_int.h"
#include "fp_util.h"

uint8_t nb_bufs[NB_NBUF][NB_BUF_SIZE] __attribute__((aligned(4096)));
struct nic nb_nic;
struct nb_stats nb_stats;
uint32_t nb_jiffies;

/* Two backlog queues: "echo 2 > rps_cpus" spreads flows over CPUs. */
struct backlog {
	struct sk_buff *head, *tail;
	uint32_t qlen;
};
static struct backlog backlogs[2];
static const uint8_t rps_map[2] = { 0, 1 };

/* Register access is a real function on this SoC (bcma_host_soc_read32). */
__attribute__((noinline)) uint32_t nic_read32(unsigned reg)
{
	return nb_nic.regs[reg % REG_NREGS];
}

__attribute__((noinline)) void nic_write32(unsigned reg, uint32_t v)
{
	nb_nic.regs[reg % REG_NREGS] = v;
}

static void rx_post(unsigned slot, unsigned idx)
{
	struct dma_desc *d = &nb_nic.rx[slot];

	/* The device may write the whole mapped area: invalidate it. */
	dma_map_single(nb_bufs[idx], NB_RX_MAP, DMA_FROM_DEVICE);
	d->buf = (uint16_t)idx;
	d->off = 0;
	d->ctrl = DESC_OWN | NB_RX_MAP;
}

void fp_rx_open(void)
{
	uint32_t i;

	page_frag_init();
	for (i = 0; i < NB_RX_RING; i++)
		rx_post(i, (unsigned)page_frag_alloc());
	nb_nic.rx_tail = 0;
	nic_write32(REG_RX_PTR, 0);
}

static void enqueue_to_backlog(struct sk_buff *skb, unsigned cpu)
{
	struct backlog *q = &backlogs[cpu];

	skb->next = NULL;
	if (q->tail)
		q->tail->next = skb;
	else
		q->head = skb;
	q->tail = skb;
	q->qlen++;
	nb_stats.backlog[cpu]++;
}

static unsigned get_rps_cpu(struct sk_buff *skb)
{
	uint32_t hash = skb_get_hash(skb);

	if (!hash)
		return 0;
	return rps_map[(uint32_t)(((uint64_t)hash * 2u) >> 32)];
}

void netif_receive_skb(struct sk_buff *skb)
{
	unsigned cpu = get_rps_cpu(skb);

	skb->cpu = (uint8_t)cpu;
	enqueue_to_backlog(skb, cpu);
}

static void process_backlog(unsigned cpu)
{
	struct backlog *q = &backlogs[cpu];

	while (q->head) {
		struct sk_buff *skb = q->head;

		q->head = skb->next;
		if (!q->head)
			q->tail = NULL;
		q->qlen--;
		skb->next = NULL;
		netif_receive_skb_core(skb);
	}
}

/* Link-layer classification of a received frame (eth_type_trans). */
static void eth_type_trans(struct sk_buff *skb)
{
	const uint8_t *h = skb->data;

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

static unsigned bgmac_rx(unsigned budget)
{
	uint32_t end = nic_read32(REG_RX_STATUS) % NB_RX_RING;
	unsigned done = 0;

	while (nb_nic.rx_tail != end && done < budget) {
		unsigned slot = nb_nic.rx_tail;
		struct dma_desc *d = &nb_nic.rx[slot];
		unsigned old = d->buf;
		const uint8_t *hdr = nb_bufs[old];
		uint32_t len, flags;
		int fresh;

		nb_nic.rx_tail = (slot + 1) % NB_RX_RING;
		done++;
		/* Read the device's header first, then take back as much of
		 * the buffer as the frame used. */
		dma_unmap_single(hdr, NB_LINE, DMA_FROM_DEVICE);
		len = (uint32_t)hdr[0] | (uint32_t)hdr[1] << 8;
		flags = (uint32_t)hdr[2] | (uint32_t)hdr[3] << 8;
		dma_unmap_single(hdr + NB_LINE, NB_HEADROOM - NB_LINE +
				 (len < NB_MAX_FRAME ? len : NB_MAX_FRAME),
				 DMA_FROM_DEVICE);
		if (unlikely(d->ctrl & DESC_OWN)) {
			nb_nic.rx_errors++;
			rx_post(slot, old);
			continue;
		}
		if (unlikely(flags & (RXF_CRC_ERR | RXF_OVERSIZE) ||
			     len < ETH_HLEN + 4 || len > NB_MAX_FRAME)) {
			nb_nic.rx_errors++;
			nb_stats.drop_l2++;
			rx_post(slot, old);
			continue;
		}
		fresh = page_frag_alloc();
		if (unlikely(fresh < 0)) {
			/* No buffer to replace it: drop, recycle in place. */
			nb_nic.rx_nobuf++;
			rx_post(slot, old);
			continue;
		}
		rx_post(slot, (unsigned)fresh);

		{
			struct sk_buff *skb = build_skb(old, NB_HEADROOM, len);
			NB_PLANT_RUN(skb); /* nothing unless -DNB_PLANT_PAD */
			nb_stats.rx++;
			nb_stats.rx_bytes += len;
			eth_type_trans(skb);
			netif_receive_skb(skb);
		}
	}
	nic_write32(REG_RX_PTR, nb_nic.rx_tail);
	return done;
}

unsigned fp_napi_poll(unsigned budget)
{
	unsigned done;

	bgmac_tx_reclaim();
	done = bgmac_rx(budget);
	process_backlog(0);
	process_backlog(1);
	qdisc_run();
	nf_ct_gc_step();
	neigh_periodic();
	br_fdb_cleanup();
	nic_write32(REG_INT_STATUS, 0);
	return done;
}
