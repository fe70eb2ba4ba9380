/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Netfilter's checksum helper: conntrack verifies the L4 checksum of a
 * packet that arrives at PRE_ROUTING (nf_conntrack_checksum, on by
 * default) unless the NIC already did; bgmac does not checksum what it
 * receives, so every TCP and UDP packet is summed in full here once. The
 * result is kept in the sk_buff (CHECKSUM_COMPLETE with its sum, or
 * CHECKSUM_UNNECESSARY), so a second look costs nothing.
 */
#include "fp_int.h"
#include "fp_util.h"

static uint16_t nf_ip_checksum(struct sk_buff *skb, unsigned hook,
			       unsigned dataoff, unsigned protocol)
{
	const uint8_t *iph = skb->head + skb->network;
	uint16_t csum = 0;

	switch (skb->ip_summed) {
	case CHECKSUM_COMPLETE:
		if (hook != NF_INET_PRE_ROUTING && hook != NF_INET_LOCAL_IN)
			break;
		/* The packet's sum is known: add the pseudo-header. */
		if (protocol == IPPROTO_TCP || protocol == IPPROTO_UDP) {
			uint32_t s = csum_tcpudp_nofold(rd32(iph + 12),
							rd32(iph + 16),
							skb->len - dataoff,
							protocol, skb->csum);

			if ((uint16_t)~s == 0) {
				skb->ip_summed = CHECKSUM_UNNECESSARY;
				break;
			}
		} else if ((uint16_t)~skb->csum == 0) {
			skb->ip_summed = CHECKSUM_UNNECESSARY;
			break;
		}
		/* Wrong after all: sum it again. */
		/* fall through */
	case CHECKSUM_NONE:
		if (protocol != IPPROTO_TCP && protocol != IPPROTO_UDP)
			skb->csum = 0;
		else
			skb->csum = csum_tcpudp_nofold(rd32(iph + 12),
						       rd32(iph + 16),
						       skb->len - dataoff,
						       protocol, 0);
		csum = __skb_checksum_complete(skb);
		break;
	default:
		break;
	}
	return csum;
}

uint16_t nf_checksum(struct sk_buff *skb, unsigned hook, unsigned dataoff,
		     unsigned protocol)
{
	return nf_ip_checksum(skb, hook, dataoff, protocol);
}
