/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Generic receive offload's entry, where every packet a NAPI driver
 * receives goes first: napi_gro_receive. GRO is off on eth0 ("ethtool -K
 * eth0 gro off", the seeds' fast LAN to WAN setting, and the kernel
 * router this model is measured against): dev_gro_receive sees the
 * device feature off and passes the packet on untouched (GRO_NORMAL).
 * Packets passed on are not handed up one by one but gathered on the
 * NAPI instance's list and given to netif_receive_skb_list_internal
 * eight at a time (gro_normal_batch), and whatever is left when the poll
 * ends.
 */
#include "fp_int.h"
#include "fp_irq.h"
#include "fp_util.h"

#define GRO_NORMAL_BATCH 8

enum { GRO_MERGED, GRO_MERGED_FREE, GRO_HELD, GRO_NORMAL, GRO_CONSUMED };

static uint64_t gro_normal, gro_batches, gro_elided;

void gro_normal_list(struct napi_struct *napi)
{
	struct sk_buff *head = napi->rx_head;

	if (!napi->rx_count)
		return;
	napi->rx_head = napi->rx_tail = NULL;
	napi->rx_count = 0;
	gro_batches++;
	netif_receive_skb_list_internal(head);
}

static void gro_normal_one(struct napi_struct *napi, struct sk_buff *skb,
			   int segs)
{
	skb->next = NULL;
	if (napi->rx_tail)
		napi->rx_tail->next = skb;
	else
		napi->rx_head = skb;
	napi->rx_tail = skb;
	napi->rx_count += segs;
	if (napi->rx_count >= GRO_NORMAL_BATCH)
		gro_normal_list(napi);
}

/* netif_elide_gro: no GRO on this device (or an XDP program on it). */
static int netif_elide_gro(const struct sk_buff *skb)
{
	return !(nb_devs[ND_ETH0].features & NETIF_F_GRO);
}

/* With GRO on, this would look for a held packet of the same flow to
 * merge with; eth0 has it off, so every packet is passed on as it is. */
static int dev_gro_receive(struct napi_struct *napi, struct sk_buff *skb)
{
	if (netif_elide_gro(skb))
		gro_elided++;
	return GRO_NORMAL;
}

static int napi_skb_finish(struct napi_struct *napi, struct sk_buff *skb,
			   int ret)
{
	switch (ret) {
	case GRO_NORMAL:
		gro_normal++;
		gro_normal_one(napi, skb, 1);
		break;
	case GRO_MERGED_FREE:
		consume_skb(skb);
		break;
	default:
		break;
	}
	return ret;
}

int napi_gro_receive(struct napi_struct *napi, struct sk_buff *skb)
{
	return napi_skb_finish(napi, skb, dev_gro_receive(napi, skb));
}
