/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * NAT: bindings made by the nat table's targets on a connection's first
 * packet (masquerade, DNAT port forwards), unique source ports, the packet
 * rewrite with RFC 1624 incremental checksum updates of the IPv4 header and
 * of TCP / UDP / ICMP, translation of ICMP errors (outer and quoted inner
 * header), and the rewrite of endpoints embedded in payloads (ALGs).
 */
#include "fp_int.h"
#include "fp_util.h"

enum { NF_NAT_MANIP_SRC, NF_NAT_MANIP_DST };

#define NAT_MAX_ATTEMPTS 128u

static int nat_initialized(const struct nf_conn *ct, int manip)
{
	return ct->status & (manip == NF_NAT_MANIP_SRC ? IPS_SRC_NAT_DONE
						       : IPS_DST_NAT_DONE);
}

static int has_ports(unsigned proto)
{
	return proto == IPPROTO_TCP || proto == IPPROTO_UDP ||
	       proto == IPPROTO_UDPLITE || proto == IPPROTO_SCTP ||
	       proto == IPPROTO_DCCP;
}

static int tuple_same(const struct nf_tuple *a, const struct nf_tuple *b)
{
	return a->src == b->src && a->dst == b->dst && a->sport == b->sport &&
	       a->dport == b->dport && a->proto == b->proto;
}

/* Would this original-direction tuple clash with a connection's reply? */
static int nat_used_tuple(const struct nf_tuple *t, const struct nf_conn *ct)
{
	struct nf_tuple reply;

	nf_ct_invert_tuple(&reply, t);
	return nf_ct_tuple_taken(&reply, ct);
}

/* Picks a free port (or ICMP id) in range for the manipulated side. */
static int unique_l4(struct nf_tuple *t, const struct nf_nat_range *r,
		     const struct nf_conn *ct, int manip)
{
	uint16_t *keyptr;
	uint32_t min, range, off, i;

	if (t->proto == IPPROTO_ICMP) {
		if (manip != NF_NAT_MANIP_SRC)
			return nat_used_tuple(t, ct) ? -1 : 0;
		keyptr = &t->sport;
		min = 1;
		range = 0xffff;
	} else if (has_ports(t->proto)) {
		keyptr = manip == NF_NAT_MANIP_SRC ? &t->sport : &t->dport;
		if (r->flags & NF_NAT_RANGE_PROTO_SPECIFIED) {
			min = r->min_port;
			range = (uint32_t)r->max_port - r->min_port + 1;
		} else if (manip == NF_NAT_MANIP_DST) {
			return nat_used_tuple(t, ct) ? -1 : 0;
		} else if (*keyptr < 1024) {
			/* Keep privileged ports privileged. */
			min = *keyptr < 512 ? 1 : 600;
			range = *keyptr < 512 ? 511 : 424;
		} else {
			min = 1024;
			range = 65535 - 1024 + 1;
		}
	} else {
		return 0;  /* nothing to vary: addresses only */
	}
	off = hash_3words(t->src ^ t->dst, *keyptr, t->proto, nb_ct.seed);
	if (r->flags & NF_NAT_RANGE_PROTO_RANDOM)
		off ^= nb_jiffies * 2654435761u;
	for (i = 0; i < NAT_MAX_ATTEMPTS; i++) {
		*keyptr = (uint16_t)(min + (off + i) % range);
		if (!nat_used_tuple(t, ct))
			return 0;
	}
	return -1;
}

static int get_unique_tuple(struct nf_tuple *t, const struct nf_tuple *orig,
			    const struct nf_nat_range *r,
			    const struct nf_conn *ct, int manip)
{
	*t = *orig;
	if (r->flags & NF_NAT_RANGE_MAP_IPS) {
		uint32_t span = r->max_addr - r->min_addr + 1;
		uint32_t pick = r->min_addr;

		if (span > 1)
			pick += hash_3words(orig->src, orig->dst, 0,
					    nb_ct.seed) % span;
		if (manip == NF_NAT_MANIP_SRC)
			t->src = pick;
		else
			t->dst = pick;
	}
	if (r->flags & NF_NAT_RANGE_PROTO_SPECIFIED && has_ports(t->proto)) {
		uint16_t *p = manip == NF_NAT_MANIP_SRC ? &t->sport : &t->dport;

		if (*p < r->min_port || *p > r->max_port)
			*p = r->min_port;
	}
	/* The original port if nobody holds it, as Linux prefers. */
	if (!(r->flags & NF_NAT_RANGE_PROTO_RANDOM) && !nat_used_tuple(t, ct))
		return 0;
	return unique_l4(t, r, ct, manip);
}

unsigned nf_nat_setup_info(struct nf_conn *ct,
			   const struct nf_nat_range *range, int src)
{
	int manip = src ? NF_NAT_MANIP_SRC : NF_NAT_MANIP_DST;
	struct nf_tuple curr, nt, reply;

	if (nat_initialized(ct, manip))
		return NF_ACCEPT;
	/* What the packet looks like now, after earlier manips. */
	nf_ct_invert_tuple(&curr, &ct->tuple[CT_DIR_REPLY]);
	if (get_unique_tuple(&nt, &curr, range, ct, manip) < 0) {
		nb_ct.insert_failed++;
		return NF_DROP;
	}
	if (!tuple_same(&nt, &curr)) {
		nf_ct_invert_tuple(&reply, &nt);
		reply.dir = CT_DIR_REPLY;
		ct->tuple[CT_DIR_REPLY] = reply;
		ct->status |= manip == NF_NAT_MANIP_SRC ? IPS_SRC_NAT
							 : IPS_DST_NAT;
	}
	ct->status |= manip == NF_NAT_MANIP_SRC ? IPS_SRC_NAT_DONE
						 : IPS_DST_NAT_DONE;
	return NF_ACCEPT;
}

/* The port (or ICMP id) and the checksums of one side, per protocol:
 * l4 the header, l4len the bytes of it there are (8 when quoted in an
 * ICMP error), poff the port's offset. The address change enters the
 * checksum as part of the pseudo-header. */
static void tcp_manip_pkt(struct sk_buff *skb, uint8_t *l4, uint32_t l4len,
			  uint32_t oldip, uint32_t newip, unsigned poff,
			  uint16_t newport)
{
	uint16_t oldport;

	if (l4len < 4)
		return;
	oldport = rd16(l4 + poff);
	wr16(l4 + poff, newport);
	/* A quoted header may lack the checksum: leave it. */
	if (l4len < 18)
		return;
	inet_proto_csum_replace4(l4 + 16, skb, oldip, newip, 1);
	inet_proto_csum_replace2(l4 + 16, skb, oldport, newport, 0);
}

static void udp_manip_pkt(struct sk_buff *skb, uint8_t *l4, uint32_t l4len,
			  uint32_t oldip, uint32_t newip, unsigned poff,
			  uint16_t newport)
{
	uint16_t oldport;

	if (l4len < 8)
		return;
	oldport = rd16(l4 + poff);
	wr16(l4 + poff, newport);
	/* No checksum stays none; a computed zero is sent as 0xffff. */
	if (!rd16(l4 + 6) && skb->ip_summed != CHECKSUM_PARTIAL)
		return;
	inet_proto_csum_replace4(l4 + 6, skb, oldip, newip, 1);
	inet_proto_csum_replace2(l4 + 6, skb, oldport, newport, 0);
	if (!rd16(l4 + 6))
		wr16(l4 + 6, 0xffff);
}

static void icmp_manip_pkt(struct sk_buff *skb, uint8_t *l4, uint32_t l4len,
			   uint16_t newid)
{
	uint16_t oldid;

	/* Queries: the identifier plays the source port. */
	if (l4len < 8 || (l4[0] != ICMP_ECHO && l4[0] != ICMP_ECHOREPLY))
		return;
	oldid = rd16(l4 + 4);
	wr16(l4 + 4, newid);
	inet_proto_csum_replace2(l4 + 2, skb, oldid, newid, 0);
}

/* Rewrites one side of an IPv4 packet at iph (len bytes available from
 * iph) to match target (nf_nat_ipv4_manip_pkt). inner: a header quoted in
 * an ICMP error, whose L4 checksum is updated only if it lies in the 8
 * bytes quoted. */
static void manip_pkt(struct sk_buff *skb, uint8_t *iph, uint32_t len,
		      const struct nf_tuple *t, int manip, int inner)
{
	unsigned ihl = (iph[0] & 15u) * 4u;
	uint8_t *l4 = iph + ihl;
	uint32_t l4len = len - ihl;
	unsigned aoff = manip == NF_NAT_MANIP_SRC ? 12 : 16;
	unsigned poff = manip == NF_NAT_MANIP_SRC ? 0 : 2;
	uint32_t oldip = rd32(iph + aoff);
	uint32_t newip = manip == NF_NAT_MANIP_SRC ? t->src : t->dst;
	uint16_t newport = manip == NF_NAT_MANIP_SRC ? t->sport : t->dport;

	/* nf_nat_l4proto_manip_pkt */
	switch (iph[9]) {
	case IPPROTO_TCP:
		tcp_manip_pkt(skb, l4, l4len, oldip, newip, poff, newport);
		break;
	case IPPROTO_UDP:
	case IPPROTO_UDPLITE:
		udp_manip_pkt(skb, l4, l4len, oldip, newip, poff, newport);
		break;
	case IPPROTO_ICMP:
		if (manip == NF_NAT_MANIP_SRC && !inner &&
		    t->proto == IPPROTO_ICMP)
			icmp_manip_pkt(skb, l4, l4len, newport);
		break;
	default:
		break;
	}
	wr32(iph + aoff, newip);
	csum_replace4(iph + 10, oldip, newip);
}

static int status_bit(int manip, unsigned dir)
{
	uint32_t bit = manip == NF_NAT_MANIP_SRC ? IPS_SRC_NAT : IPS_DST_NAT;

	/* In the reply direction a source NAT is undone on the destination. */
	if (dir == CT_DIR_REPLY)
		bit ^= IPS_SRC_NAT | IPS_DST_NAT;
	return (int)bit;
}

static unsigned nat_packet(struct sk_buff *skb, struct nf_conn *ct, int manip)
{
	unsigned dir = skb->ctinfo >= IP_CT_IS_REPLY ? CT_DIR_REPLY
						     : CT_DIR_ORIGINAL;
	struct nf_tuple target;

	unsigned ihl, hdrsize;

	if (!(ct->status & (uint32_t)status_bit(manip, dir)))
		return NF_ACCEPT;
	/* The headers to rewrite must be the packet's own (a clone's are
	 * shared): first the IP header, then what L4 needs of its own. */
	if (skb_ensure_writable(skb, 20))
		return NF_DROP;
	ihl = (skb->head[skb->network] & 15u) * 4u;
	switch (skb->head[skb->network + 9]) {
	case IPPROTO_TCP:
		hdrsize = skb->len >= ihl + 20 ? 20 : 8;
		break;
	case IPPROTO_UDP:
	case IPPROTO_UDPLITE:
	case IPPROTO_ICMP:
		hdrsize = 8;
		break;
	default:
		hdrsize = 0;
		break;
	}
	if (skb->len >= ihl + hdrsize && skb_ensure_writable(skb, ihl + hdrsize))
		return NF_DROP;
	nf_ct_invert_tuple(&target, &ct->tuple[!dir]);
	manip_pkt(skb, skb->head + skb->network, skb->len, &target, manip, 0);
	return NF_ACCEPT;
}

static unsigned icmp_reply_translation(struct sk_buff *skb, struct nf_conn *ct,
				       int manip)
{
	uint8_t *iph = skb->head + skb->network;
	unsigned ihl = (iph[0] & 15u) * 4u;
	uint8_t *icmp = iph + ihl;
	uint32_t len = skb->len - ihl;
	unsigned dir = skb->ctinfo == IP_CT_RELATED_REPLY ? CT_DIR_REPLY
							   : CT_DIR_ORIGINAL;
	struct nf_tuple target;

	if (!(ct->status & (uint32_t)status_bit(manip, dir)))
		return NF_ACCEPT;
	/* The quoted packet went the other way: undo the opposite manip. */
	manip_pkt(skb, icmp + 8, len - 8, &ct->tuple[!dir], !manip, 1);
	wr16(icmp + 2, 0);
	wr16(icmp + 2, csum_finish(csum_partial(icmp, len, 0)));
	nf_ct_invert_tuple(&target, &ct->tuple[!dir]);
	target.proto = IPPROTO_ICMP;
	manip_pkt(skb, iph, skb->len, &target, manip, 1);
	return NF_ACCEPT;
}

/* A masqueraded connection whose packets now leave by another uplink:
 * its binding is stale (nf_nat_oif_changed). */
static int nf_nat_oif_changed(const struct nf_hook_state *st,
			      const struct sk_buff *skb,
			      const struct nf_conn_nat *nat)
{
	return nat && nat->masq_index && st->hook == NF_INET_POST_ROUTING &&
	       skb->ctinfo < IP_CT_IS_REPLY && nat->masq_index != st->out + 1;
}

/* nf_nat_inet_fn: the binding of a new connection from the nat table,
 * then the packet rewritten to it. */
static unsigned nat_fn(struct sk_buff *skb, const struct nf_hook_state *st,
		       int manip)
{
	struct nf_conn *ct = skb->ct;
	struct nf_conn_nat *nat;
	unsigned ret;

	if (!ct)
		return NF_ACCEPT;
	nat = nf_ct_ext_find(ct, NF_CT_EXT_NAT);
	switch (skb->ctinfo) {
	case IP_CT_RELATED:
	case IP_CT_RELATED_REPLY:
		if (skb->l4proto == IPPROTO_ICMP)
			return icmp_reply_translation(skb, ct, manip);
		break;
	case IP_CT_NEW:
		if (nat_initialized(ct, manip))
			break;
		ret = ipt_do_table(&nb_nat, skb, st);
		if (ret != NF_ACCEPT)
			return ret;
		if (!nat_initialized(ct, manip)) {
			/* Null binding: remember that nothing is done. */
			ct->status |= manip == NF_NAT_MANIP_SRC
					      ? IPS_SRC_NAT_DONE
					      : IPS_DST_NAT_DONE;
		}
		break;
	default:
		/* Established: still leaving where it was bound to? */
		if (unlikely(nf_nat_oif_changed(st, skb, nat)))
			goto oif_changed;
		break;
	}
	return nat_packet(skb, ct, manip);
oif_changed:
	nf_ct_kill(ct);
	return NF_DROP;
}

unsigned nf_nat_ipv4_pre(void *priv, struct sk_buff *skb,
			 const struct nf_hook_state *st)
{
	return nat_fn(skb, st, NF_NAT_MANIP_DST);
}

unsigned nf_nat_ipv4_post(void *priv, struct sk_buff *skb,
			  const struct nf_hook_state *st)
{
	return nat_fn(skb, st, NF_NAT_MANIP_SRC);
}

unsigned nf_nat_ipv4_local(void *priv, struct sk_buff *skb,
			   const struct nf_hook_state *st)
{
	return nat_fn(skb, st, st->hook == NF_INET_LOCAL_OUT
				       ? NF_NAT_MANIP_DST : NF_NAT_MANIP_SRC);
}

/* Ones' complement sum of n bytes that sit at offset pos of the summed
 * area: a byte at an even offset is the high half of its 16-bit word. */
static uint16_t bytes_sum(const uint8_t *p, unsigned n, unsigned pos)
{
	uint32_t s = 0;
	unsigned i;

	for (i = 0; i < n; i++)
		s += (pos + i) & 1 ? p[i] : (uint32_t)p[i] << 8;
	return (uint16_t)csum_fold32(s);
}

/* An application message carries the client's own address and port (as
 * FTP PORT or SIP Contact do): after source NAT it must carry the
 * translated ones. payload_off: offset of the be32 + be16 from the L4
 * payload start; it may be odd, so the checksum update works on bytes. */
void nf_nat_alg_rewrite(struct sk_buff *skb, struct nf_conn *ct,
			uint32_t payload_off)
{
	uint8_t *iph = skb->head + skb->network;
	uint8_t *l4 = skb->head + skb->transport;
	unsigned hl, csum_off, pos;
	uint16_t m_old, m_new, c;
	uint8_t *p;

	if (!(ct->status & IPS_SRC_NAT) || skb->ctinfo >= IP_CT_IS_REPLY)
		return;
	if (iph[9] == IPPROTO_TCP) {
		hl = (l4[12] >> 4) * 4u;
		csum_off = 16;
	} else {
		hl = 8;
		csum_off = 6;
	}
	if (skb->transport - skb->network + hl + payload_off + 6 > skb->len)
		return;
	pos = hl + payload_off;
	p = l4 + pos;
	if (rd32(p) != ct->tuple[CT_DIR_ORIGINAL].src ||
	    rd16(p + 4) != ct->tuple[CT_DIR_ORIGINAL].sport)
		return;
	m_old = bytes_sum(p, 6, pos);
	wr32(p, ct->tuple[CT_DIR_REPLY].dst);
	wr16(p + 4, ct->tuple[CT_DIR_REPLY].dport);
	m_new = bytes_sum(p, 6, pos);
	c = rd16(l4 + csum_off);
	if (iph[9] == IPPROTO_TCP) {
		wr16(l4 + csum_off, csum16_replace(c, m_old, m_new));
	} else if (c != 0) {
		c = csum16_replace(c, m_old, m_new);
		wr16(l4 + csum_off, c ? c : 0xffff);
	}
	nb_stats.alg_rewrites++;
}
