/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ICMP: errors the router sends about packets it cannot forward (time
 * exceeded, unreachable, fragmentation needed, parameter problem), rate
 * limited; echo replies to pings of the router's own addresses.
 */
#include "fp_int.h"
#include "fp_util.h"

#define ICMP_RATE_JIFFIES 4u   /* one token per 4 jiffies */
#define ICMP_BURST 48u

static uint32_t icmp_tokens = ICMP_BURST, icmp_last;
static uint16_t icmp_ip_id = 0x4000;

static int icmp_is_error(unsigned type)
{
	switch (type) {
	case ICMP_DEST_UNREACH:
	case ICMP_REDIRECT:
	case ICMP_TIME_EXCEEDED:
	case ICMP_PARAMETERPROB:
	case 4:  /* source quench */
		return 1;
	default:
		return 0;
	}
}

static int icmp_ratelimit(unsigned type)
{
	uint32_t now = nb_jiffies;

	if (type != ICMP_DEST_UNREACH && type != ICMP_TIME_EXCEEDED &&
	    type != ICMP_PARAMETERPROB)
		return 1;
	icmp_tokens += (now - icmp_last) / ICMP_RATE_JIFFIES;
	if (now - icmp_last >= ICMP_RATE_JIFFIES)
		icmp_last = now;
	if (icmp_tokens > ICMP_BURST)
		icmp_tokens = ICMP_BURST;
	if (icmp_tokens == 0)
		return 0;
	icmp_tokens--;
	return 1;
}

static uint32_t icmp_source(unsigned dev)
{
	if (dev < NB_NIFS)
		return nb_ifs[dev].addr;
	return nb_ifs[IF_LAN].addr;
}

void icmp_send(struct sk_buff *skb_in, unsigned type, unsigned code,
	       uint32_t info)
{
	const uint8_t *oiph = skb_in->head + skb_in->network;
	unsigned oihl = (oiph[0] & 15u) * 4u, quote;
	struct sk_buff *skb;
	uint8_t *iph, *icmp;
	uint32_t dst = rd32(oiph + 12);

	if (skb_in->pkt_type != PKT_HOST || skb_in->local)
		return;
	if (rd16(oiph + 6) & IP_OFFSET)
		return;  /* only about the first fragment */
	if (dst >> 28 == 0xe || dst == 0 || dst == 0xffffffffu)
		return;
	if (oiph[9] == IPPROTO_ICMP) {
		const uint8_t *inner = oiph + oihl;

		if (skb_in->len < oihl + 1 || icmp_is_error(inner[0]))
			return;
	}
	if (!icmp_ratelimit(type))
		return;
	skb = skb_alloc_local(20 + 8 + 60 + 8);
	if (!skb)
		return;
	/* The original header and 64 bits of its payload (RFC 792). */
	quote = oihl + 8u;
	if (quote > skb_in->len)
		quote = skb_in->len;
	iph = skb->data;
	icmp = iph + 20;
	iph[0] = 0x45;
	iph[1] = 0xc0;
	wr16(iph + 2, (uint16_t)(20 + 8 + quote));
	wr16(iph + 4, icmp_ip_id++);
	wr16(iph + 6, 0);
	iph[8] = 64;
	iph[9] = IPPROTO_ICMP;
	wr16(iph + 10, 0);
	wr32(iph + 12, icmp_source(skb_in->dev));
	wr32(iph + 16, dst);
	wr16(iph + 10, csum_finish(csum_partial(iph, 20, 0)));
	icmp[0] = (uint8_t)type;
	icmp[1] = (uint8_t)code;
	wr16(icmp + 2, 0);
	if (type == ICMP_DEST_UNREACH && code == ICMP_FRAG_NEEDED)
		wr32(icmp + 4, info & 0xffff);
	else
		wr32(icmp + 4, info);
	copy_bytes(icmp + 8, oiph, quote);
	wr16(icmp + 2, csum_finish(csum_partial(icmp, 8 + quote, 0)));
	skb->len = 28 + quote;
	nb_stats.icmp_sent++;
	icmp_out_count(skb_in->cpu, type, 1);
	ip_local_out(skb);
}

/* ICMP addressed to the router. */
void icmp_rcv(struct sk_buff *skb)
{
	uint8_t *iph = skb->data;
	unsigned ihl = (iph[0] & 15u) * 4u;
	uint8_t *icmp = iph + ihl;
	uint32_t len = skb->len - ihl, src, dst;

	if (len < 8 || csum_fold32(csum_partial(icmp, len, 0)) != 0xffff)
		goto drop;
	icmp_out_count(skb->cpu, icmp[0], 0);
	if (icmp[0] != ICMP_ECHO || icmp[1] != 0)
		goto drop;  /* errors about our own traffic: nothing to do */
	src = rd32(iph + 12);
	dst = rd32(iph + 16);
	if (dst >> 28 == 0xe || (dst & 0xff) == 0xff)
		goto drop;  /* no replies to broadcast pings */
	/* Echo reply in place. */
	csum_replace2(icmp + 2, (uint16_t)(icmp[0] << 8 | icmp[1]),
		      (uint16_t)(ICMP_ECHOREPLY << 8 | icmp[1]));
	icmp[0] = ICMP_ECHOREPLY;
	wr32(iph + 12, dst);
	wr32(iph + 16, src);
	iph[8] = 64;
	iph[1] &= 0xfc;
	wr16(iph + 10, 0);
	wr16(iph + 10, csum_finish(csum_partial(iph, ihl, 0)));
	skb->pkt_type = PKT_HOST;
	skb->local = 1;
	if (skb->ct)
		nf_ct_put(skb->ct);  /* nf_reset_ct */
	skb->ct = NULL;
	skb->ctinfo = IP_CT_UNTRACKED;
	skb_dst_drop(skb);
	skb->mark = 0;
	ip_local_out(skb);
	return;
drop:
	kfree_skb(skb);
}
