/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * IPv4: receive checks (ip_rcv_core), options, the PRE_ROUTING / FORWARD /
 * POST_ROUTING and LOCAL_IN / LOCAL_OUT hooks around routing, then what the
 * route says (dst_input: forward, deliver locally or answer with an error;
 * dst_output: output): forwarding with the checksum state reset, the head
 * made our own, TTL decrement, MTU checks and the priority from the TOS,
 * output down to the neighbour with the route's device and gateway.
 */
#include "fp_int.h"
#include "fp_util.h"

#define IPOPT_END 0u
#define IPOPT_NOOP 1u
#define IPOPT_SEC 130u
#define IPOPT_LSRR 131u
#define IPOPT_SSRR 137u
#define IPOPT_RR 7u
#define IPOPT_TS 68u
#define IPOPT_RA 148u

#define OPT_SRR 0x1u
#define OPT_RR 0x2u
#define OPT_TS 0x4u
#define OPT_RA 0x8u
#define OPT_RR_OFF(f) ((f) >> 8 & 0xffu)

#define IPSKB_FORWARDED 0x1u

#define LL_RESERVED_SPACE 32u  /* link headers: VLAN tags, PPPoE */


/* Validates the options; returns 0 or the offset + 1 of the bad byte (for
 * a parameter problem). flags gets OPT_* and the record-route offset. */
int ip_options_compile(const uint8_t *iph, unsigned ihl, uint32_t *flags)
{
	const uint8_t *opt = iph + 20;
	unsigned len = ihl * 4u - 20u, off = 0;

	*flags = 0;
	while (off < len) {
		unsigned type = opt[off], olen, ptr;

		if (type == IPOPT_END)
			break;
		if (type == IPOPT_NOOP) {
			off++;
			continue;
		}
		if (off + 2 > len)
			return (int)(20 + off + 1);
		olen = opt[off + 1];
		if (olen < 2 || off + olen > len)
			return (int)(20 + off + 2);
		switch (type) {
		case IPOPT_SSRR:
		case IPOPT_LSRR:
			if (olen < 3 || opt[off + 2] < 4)
				return (int)(20 + off + 3);
			*flags |= OPT_SRR;
			break;
		case IPOPT_RR:
			ptr = opt[off + 2];
			if (olen < 3 || ptr < 4)
				return (int)(20 + off + 3);
			if (ptr + 3 <= olen) {
				*flags |= OPT_RR;
				*flags |= (uint32_t)(20 + off) << 8;
			}
			break;
		case IPOPT_TS:
			ptr = opt[off + 2];
			if (olen < 4 || ptr < 5)
				return (int)(20 + off + 3);
			if ((opt[off + 3] & 15u) > 3)
				return (int)(20 + off + 4);
			*flags |= OPT_TS;
			break;
		case IPOPT_RA:
			if (olen != 4)
				return (int)(20 + off + 2);
			*flags |= OPT_RA;
			break;
		case IPOPT_SEC:
			if (olen != 11)
				return (int)(20 + off + 2);
			break;
		default:
			/* Unknown options are passed on untouched. */
			break;
		}
		off += olen;
	}
	return 0;
}

static void ip_send_check(uint8_t *iph)
{
	unsigned ihl = (iph[0] & 15u) * 4u;

	wr16(iph + 10, 0);
	wr16(iph + 10, csum_finish(csum_partial(iph, ihl, 0)));
}

/* Record route: the address of the interface the packet leaves by. */
static void ip_forward_options(struct sk_buff *skb, uint32_t flags)
{
	uint8_t *iph = skb->data;
	uint8_t *rr = iph + OPT_RR_OFF(flags);
	unsigned ptr = rr[2];

	if (!(flags & OPT_RR) || ptr + 3 > rr[1])
		return;
	wr32(rr + ptr - 1, nb_ifs[skb->odev].addr);
	rr[2] = (uint8_t)(ptr + 4);
	ip_send_check(iph);
}

static int ip_martian_source(uint32_t src)
{
	return src == 0 || src >> 24 == 127 || src >> 28 == 0xe ||
	       src == 0xffffffffu;
}

/* The input of local routes. */
void ip_local_deliver(struct sk_buff *skb)
{
	const uint8_t *iph = skb->data;

	if (rd16(iph + 6) & (IP_MF | IP_OFFSET)) {
		/* No reassembly here: the router does not talk fragmented. */
		nb_stats.drop_ip++;
		kfree_skb(skb);
		return;
	}
	if (nf_hook(NF_INET_LOCAL_IN, skb, skb->dev, IF_LOCAL) != NF_ACCEPT)
		return;
	nb_stats.local_in++;
	ip_inc_stats(skb->cpu, IPSTATS_MIB_INDELIVERS);
	if (iph[9] == IPPROTO_ICMP) {
		icmp_rcv(skb);
		return;
	}
	/* Sockets of local daemons would get it here. */
	kfree_skb(skb);
}

/* The input of error routes: the sender is told why, if it is to be. */
void ip_error(struct sk_buff *skb)
{
	switch (skb->dst ? skb->dst->error : RTN_UNREACHABLE) {
	case RTN_UNREACHABLE:
		icmp_send(skb, ICMP_DEST_UNREACH, ICMP_NET_UNREACH, 0);
		break;
	case RTN_PROHIBIT:
		icmp_send(skb, ICMP_DEST_UNREACH, ICMP_PKT_FILTERED, 0);
		break;
	default:
		break;  /* blackhole: silently */
	}
	nb_stats.drop_route++;
	ip_inc_stats(skb->cpu, IPSTATS_MIB_INNOROUTES);
	kfree_skb_reason(skb, SKB_DROP_IP_NOROUTE);
}

static void ip_rcv_finish(struct sk_buff *skb)
{
	const uint8_t *iph = skb->data;
	uint32_t src = rd32(iph + 12), dst = rd32(iph + 16);

	if (ip_martian_source(src))
		goto martian;
	/* Early demux: is it for one of our sockets? (Looked up for every
	 * packet, forwarded or not.) */
	ip_early_demux(skb);
	if (!skb->dst && ip_route_input_noref(skb, dst, src) < 0)
		goto martian;
	skb->dst->input(skb);  /* dst_input */
	return;
martian:
	nb_stats.drop_route++;
	ip_inc_stats(skb->cpu, IPSTATS_MIB_INADDRERRORS);
	kfree_skb_reason(skb, SKB_DROP_IP_NOROUTE);
}

/* ip_rcv_core: the header's checks, the packet trimmed to its length
 * (Ethernet pads short frames), the control block cleared, options
 * compiled into it. NULL if the packet was dropped. */
static struct sk_buff *ip_rcv_core(struct sk_buff *skb)
{
	const uint8_t *iph = skb->data;
	unsigned ihl;
	uint32_t tot;
	int bad;

	ip_upd_po_stats(skb->cpu, IPSTATS_MIB_IN_PKTS, skb->len);
	if (!pskb_may_pull(skb, 20) || (iph[0] >> 4) != 4)
		goto inhdr_error;
	ihl = iph[0] & 15u;
	if (ihl < 5 || skb->len < ihl * 4u)
		goto inhdr_error;
	if (unlikely(ip_fast_csum_bad(iph, ihl))) {
		nb_stats.drop_csum++;
		ip_inc_stats(skb->cpu, IPSTATS_MIB_CSUMERRORS);
		kfree_skb_reason(skb, SKB_DROP_IP_CSUM);
		return NULL;
	}
	tot = rd16(iph + 2);
	if (tot > skb->len || tot < ihl * 4u)
		goto inhdr_error;
	if (pskb_trim_rcsum(skb, tot))
		goto inhdr_error;
	skb->network = (uint16_t)(skb->data - skb->head);
	skb->transport = (uint16_t)(skb->network + ihl * 4u);
	skb->l4proto = iph[9];
	memset(&skb->ipcb, 0, sizeof(skb->ipcb));
	if (unlikely(ihl > 5)) {
		bad = ip_options_compile(iph, ihl, &skb->ipcb.opt);
		if (bad) {
			icmp_send(skb, ICMP_PARAMETERPROB, 0,
				  (uint32_t)(bad - 1) << 24);
			goto inhdr_error;
		}
		if (skb->ipcb.opt & OPT_SRR)
			goto inhdr_error;  /* accept_source_route = 0 */
	}
	return skb;
inhdr_error:
	nb_stats.drop_ip++;
	ip_inc_stats(skb->cpu, IPSTATS_MIB_INHDRERRORS);
	kfree_skb_reason(skb, SKB_DROP_IP_INHDR);
	return NULL;
}

void ip_rcv(struct sk_buff *skb)
{
	skb = ip_rcv_core(skb);
	if (!skb)
		return;
	if (nf_hook(NF_INET_PRE_ROUTING, skb, skb->dev, IF_NONE) != NF_ACCEPT)
		return;
	ip_rcv_finish(skb);
}

/* rt_tos2priority: the TOS bits' classic meaning as a priority band. */
static uint8_t rt_tos2priority(uint8_t tos)
{
	unsigned t = (tos & 0x1eu) >> 1;

	if (t & 8)      /* low delay */
		return t & 4 ? 4 : 6;  /* interactive bulk, interactive */
	if (t & 4)      /* throughput */
		return 2;              /* bulk */
	return t == 1 ? 1 : 0;         /* filler (min cost), best effort */
}

static void ip_forward_finish(struct sk_buff *skb)
{
	nb_stats.fwd++;
	nb_stats.fwd_bytes += skb->len;
	ip_upd_po_stats(skb->cpu, IPSTATS_MIB_FORW_PKTS, skb->len);
	if (unlikely(skb->ipcb.opt))
		ip_forward_options(skb, skb->ipcb.opt);
	skb->dst->output(skb);  /* dst_output */
}

/* The input of forwarding routes. */
void ip_forward(struct sk_buff *skb)
{
	uint8_t *iph = skb->data;
	struct rtable *rt = skb->dst;
	uint32_t mtu = rt->mtu;

	if (skb->pkt_type != PKT_HOST)
		goto drop;
	/* skb_forward_csum: the packet's full sum is stale once the TTL
	 * changes. */
	if (skb->ip_summed == CHECKSUM_COMPLETE)
		skb->ip_summed = CHECKSUM_NONE;
	if (iph[8] <= 1) {
		nb_stats.drop_ttl++;
		icmp_send(skb, ICMP_TIME_EXCEEDED, 0, 0);
		goto drop;
	}
	if (skb->len > mtu && rd16(iph + 6) & IP_DF) {
		nb_stats.drop_mtu++;
		ip_inc_stats(skb->cpu, IPSTATS_MIB_FRAGFAILS);
		icmp_send(skb, ICMP_DEST_UNREACH, ICMP_FRAG_NEEDED, mtu);
		goto drop;
	}
	/* About to write the header: a head of our own, with room for
	 * the link headers (skb_cow). */
	if (skb_cow_head(skb, LL_RESERVED_SPACE))
		goto drop;
	iph = skb->data;
	/* ip_decrease_ttl: the checksum moves by 0x0100, RFC 1624 style. */
	csum_replace2(iph + 10, (uint16_t)(iph[8] << 8 | iph[9]),
		      (uint16_t)((iph[8] - 1) << 8 | iph[9]));
	iph[8]--;
	skb->ipcb.flags |= IPSKB_FORWARDED;
	/* net.ipv4.ip_forward_update_priority */
	skb->prio = rt_tos2priority(iph[1]);
	if (nf_hook(NF_INET_FORWARD, skb, skb->dev, skb->odev) != NF_ACCEPT)
		return;
	ip_forward_finish(skb);
	return;
drop:
	ip_inc_stats(skb->cpu, IPSTATS_MIB_INDISCARDS);
	kfree_skb_reason(skb, SKB_DROP_TTL);
}

/* Down to the neighbour of the route's next hop. */
static void ip_finish_output2(struct sk_buff *skb)
{
	const struct rtable *rt = skb->dst;

	if (unlikely(skb->data - skb->head < (long)LL_RESERVED_SPACE) &&
	    skb_cow_head(skb, LL_RESERVED_SPACE)) {
		kfree_skb(skb);
		return;
	}
	/* rt_nexthop: the gateway, or the destination itself. */
	if (rt && rt->rt_uses_gateway)
		skb->nexthop = rt->rt_gw4;
	neigh_output(skb);
}

static void ip_finish_output(struct sk_buff *skb)
{
	uint32_t mtu = skb->dst ? skb->dst->mtu : nb_ifs[skb->odev].mtu;

	if (skb->len > mtu) {
		/* No fragmentation on this path: senders use DF. */
		nb_stats.drop_mtu++;
		ip_inc_stats(skb->cpu, IPSTATS_MIB_FRAGFAILS);
		kfree_skb_reason(skb, SKB_DROP_MTU);
		return;
	}
	ip_finish_output2(skb);
}

/* The output of unicast routes. */
void ip_output(struct sk_buff *skb)
{
	ip_upd_po_stats(skb->cpu, IPSTATS_MIB_OUT_PKTS, skb->len);
	skb->protocol = ETH_P_IP;
	if (nf_hook(NF_INET_POST_ROUTING, skb, IF_NONE, skb->odev) != NF_ACCEPT)
		return;
	ip_finish_output(skb);
}

/* A packet the router made (ICMP, resets): data at a complete IPv4 header
 * with its checksum. */
void ip_local_out(struct sk_buff *skb)
{
	const uint8_t *iph = skb->data;

	skb->network = (uint16_t)(skb->data - skb->head);
	skb->transport = (uint16_t)(skb->network + (iph[0] & 15u) * 4u);
	skb->l4proto = iph[9];
	if (ip_route_output(skb, rd32(iph + 16)) != RTN_UNICAST) {
		nb_stats.drop_route++;
		kfree_skb(skb);
		return;
	}
	if (nf_hook(NF_INET_LOCAL_OUT, skb, IF_LOCAL, skb->odev) != NF_ACCEPT)
		return;
	skb->dst->output(skb);  /* dst_output */
}
