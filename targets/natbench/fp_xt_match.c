/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iptables match modules: each reads its own info block and the packet
 * (and its connection) and says whether the rule matches. Reached from
 * ipt_do_table through the rule's function pointers.
 */
#include "fp_int.h"
#include "fp_util.h"

static int port_in(uint16_t p, const uint16_t r[2])
{
	return p >= r[0] && p <= r[1];
}

/* Offset of the L4 payload from the L4 header, or -1. */
static int payload_off(const struct xt_match_ctx *c)
{
	const uint8_t *l4 = c->l4;

	if (!l4)
		return -1;
	switch (c->iph[9]) {
	case IPPROTO_TCP:
		if (c->l4len < 20)
			return -1;
		return (int)((l4[12] >> 4) * 4u);
	case IPPROTO_UDP:
		return c->l4len < 8 ? -1 : 8;
	case IPPROTO_ICMP:
		return c->l4len < 8 ? -1 : 8;
	default:
		return 0;
	}
}

static int tcp_find_option(const uint8_t *th, unsigned doff, unsigned kind,
			   const uint8_t **opt)
{
	unsigned i = 20;

	while (i < doff) {
		unsigned k = th[i], olen;

		if (k == 0)
			break;
		if (k == 1) {
			i++;
			continue;
		}
		if (i + 1 >= doff)
			break;
		olen = th[i + 1];
		if (olen < 2 || i + olen > doff)
			break;
		if (k == kind) {
			if (opt)
				*opt = th + i;
			return 1;
		}
		i += olen;
	}
	return 0;
}

int xt_tcp_mt(const struct xt_match_ctx *c, const void *info)
{
	const struct xt_tcp *m = info;
	const uint8_t *th = c->l4;
	unsigned inv = m->invflags;

	if (!th)
		return 0;
	if (c->l4len < 20) {
		((struct xt_match_ctx *)c)->hotdrop = 1;
		return 0;
	}
	if (!port_in(rd16(th), m->spts) ^ !!(inv & XT_TCP_INV_SRCPT))
		return 0;
	if (!port_in(rd16(th + 2), m->dpts) ^ !!(inv & XT_TCP_INV_DSTPT))
		return 0;
	if (((th[13] & m->flg_mask) != m->flg_cmp) ^
	    !!(inv & XT_TCP_INV_FLAGS))
		return 0;
	if (m->option)
		return tcp_find_option(th, (th[12] >> 4) * 4u, m->option, NULL);
	return 1;
}

int xt_udp_mt(const struct xt_match_ctx *c, const void *info)
{
	const struct xt_udp *m = info;
	const uint8_t *uh = c->l4;

	if (!uh)
		return 0;
	if (c->l4len < 8) {
		((struct xt_match_ctx *)c)->hotdrop = 1;
		return 0;
	}
	return (port_in(rd16(uh), m->spts) ^ !!(m->invflags & XT_TCP_INV_SRCPT)) &&
	       (port_in(rd16(uh + 2), m->dpts) ^
		!!(m->invflags & XT_TCP_INV_DSTPT));
}

int xt_icmp_mt(const struct xt_match_ctx *c, const void *info)
{
	const struct xt_icmp *m = info;
	const uint8_t *ih = c->l4;
	int r;

	if (!ih || c->l4len < 8)
		return 0;
	if (m->type == 0xff)
		r = 1;
	else
		r = ih[0] == m->type && ih[1] >= m->code[0] &&
		    ih[1] <= m->code[1];
	return r ^ m->invert;
}

static int multiport_hit(const struct xt_multiport *m, uint16_t port)
{
	unsigned i;

	for (i = 0; i < m->count; i++) {
		if (m->pflags[i] && i + 1 < m->count) {
			if (port >= m->ports[i] && port <= m->ports[i + 1])
				return 1;
			i++;
		} else if (port == m->ports[i]) {
			return 1;
		}
	}
	return 0;
}

int xt_multiport_mt(const struct xt_match_ctx *c, const void *info)
{
	const struct xt_multiport *m = info;
	uint16_t sp, dp;
	int r;

	if (!c->l4 || c->l4len < 4)
		return 0;
	sp = rd16(c->l4);
	dp = rd16(c->l4 + 2);
	switch (m->flags) {
	case XT_MP_SRC:
		r = multiport_hit(m, sp);
		break;
	case XT_MP_DST:
		r = multiport_hit(m, dp);
		break;
	default:
		r = multiport_hit(m, sp) || multiport_hit(m, dp);
		break;
	}
	return r ^ m->invert;
}

int xt_iprange_mt(const struct xt_match_ctx *c, const void *info)
{
	const struct xt_iprange *m = info;
	uint32_t s = rd32(c->iph + 12), d = rd32(c->iph + 16);

	if (m->flags & IPRANGE_SRC) {
		int in = s >= m->src_min && s <= m->src_max;

		if (!(in ^ !!(m->flags & IPRANGE_SRC_INV)))
			return 0;
	}
	if (m->flags & IPRANGE_DST) {
		int in = d >= m->dst_min && d <= m->dst_max;

		if (!(in ^ !!(m->flags & IPRANGE_DST_INV)))
			return 0;
	}
	return 1;
}

static unsigned ct_state_bits(const struct sk_buff *skb)
{
	const struct nf_conn *ct = skb->ct;
	unsigned bits = 0;

	switch (skb->ctinfo) {
	case IP_CT_INVALID:
		return XT_STATE_INVALID;
	case IP_CT_UNTRACKED:
		return XT_STATE_UNTRACKED;
	case IP_CT_NEW:
		bits = XT_STATE_NEW;
		break;
	case IP_CT_RELATED:
	case IP_CT_RELATED_REPLY:
		bits = XT_STATE_RELATED;
		break;
	default:
		bits = XT_STATE_ESTABLISHED;
		break;
	}
	if (ct && ct->status & IPS_SRC_NAT)
		bits |= XT_STATE_SNAT;
	if (ct && ct->status & IPS_DST_NAT)
		bits |= XT_STATE_DNAT;
	return bits;
}

int xt_conntrack_mt(const struct xt_match_ctx *c, const void *info)
{
	const struct xt_conntrack *m = info;
	const struct nf_conn *ct = c->skb->ct;
	unsigned f = m->match_flags, inv = m->invert_flags;

	if (f & XT_CT_STATE &&
	    !(ct_state_bits(c->skb) & m->state_mask) ^ !!(inv & XT_CT_STATE))
		return 0;
	if (!ct)
		return !(f & (XT_CT_STATUS | XT_CT_DIRECTION | XT_CT_ORIGSRC |
			      XT_CT_REPLSRC | XT_CT_ORIGDST));
	if (f & XT_CT_STATUS &&
	    !(ct->status & m->status_mask) ^ !!(inv & XT_CT_STATUS))
		return 0;
	if (f & XT_CT_DIRECTION &&
	    ((c->skb->ctinfo >= IP_CT_IS_REPLY) != m->dir) ^
		    !!(inv & XT_CT_DIRECTION))
		return 0;
	if (f & XT_CT_ORIGSRC &&
	    ((ct->tuple[0].src & m->mask) != m->addr) ^ !!(inv & XT_CT_ORIGSRC))
		return 0;
	if (f & XT_CT_ORIGDST &&
	    ((ct->tuple[0].dst & m->mask) != m->addr) ^ !!(inv & XT_CT_ORIGDST))
		return 0;
	if (f & XT_CT_REPLSRC &&
	    ((ct->tuple[1].src & m->mask) != m->addr) ^ !!(inv & XT_CT_REPLSRC))
		return 0;
	return 1;
}

int xt_mark_mt(const struct xt_match_ctx *c, const void *info)
{
	const struct xt_mark_info *m = info;

	return ((c->skb->mark & m->mask) == m->mark) ^ m->invert;
}

int xt_connmark_mt(const struct xt_match_ctx *c, const void *info)
{
	const struct xt_mark_info *m = info;
	const struct nf_conn *ct = c->skb->ct;

	if (!ct)
		return 0;
	return ((ct->mark & m->mask) == m->mark) ^ m->invert;
}

int xt_length_mt(const struct xt_match_ctx *c, const void *info)
{
	const struct xt_length *m = info;
	uint32_t len = rd16(c->iph + 2);

	return (len >= m->min && len <= m->max) ^ m->invert;
}

int xt_dscp_mt(const struct xt_match_ctx *c, const void *info)
{
	const struct xt_dscp *m = info;

	return ((c->iph[1] >> 2) == m->dscp) ^ m->invert;
}

int xt_tos_mt(const struct xt_match_ctx *c, const void *info)
{
	const struct xt_tos_match *m = info;

	return ((c->iph[1] & m->mask) == m->tos) ^ m->invert;
}

int xt_ttl_mt(const struct xt_match_ctx *c, const void *info)
{
	const struct xt_ttl *m = info;
	unsigned ttl = c->iph[8];

	switch (m->mode) {
	case XT_TTL_EQ:
		return ttl == m->ttl;
	case XT_TTL_NE:
		return ttl != m->ttl;
	case XT_TTL_LT:
		return ttl < m->ttl;
	case XT_TTL_GT:
		return ttl > m->ttl;
	default:
		return 0;
	}
}

/* Token bucket: credit accrues with time, each match spends cost. */
int xt_limit_mt(const struct xt_match_ctx *c, const void *info)
{
	struct xt_rateinfo *r = (struct xt_rateinfo *)(uintptr_t)info;
	uint32_t now = nb_jiffies;

	r->credit += (now - r->prev) * 64u;
	r->prev = now;
	if (r->credit > r->credit_cap)
		r->credit = r->credit_cap;
	if (r->credit >= r->cost) {
		r->credit -= r->cost;
		return 1;
	}
	return 0;
}

int xt_connbytes_mt(const struct xt_match_ctx *c, const void *info)
{
	const struct xt_connbytes *m = info;
	const struct nf_conn *ct = c->skb->ct;
	const struct nf_conn_acct *acct;
	uint64_t what = 0, pk, by;

	if (!ct)
		return 0;
	acct = nf_ct_ext_find(ct, NF_CT_EXT_ACCT);
	if (!acct)
		return 0;
	switch (m->dir) {
	case XT_CONNBYTES_DIR_ORIGINAL:
		pk = acct->counter[0].packets;
		by = acct->counter[0].bytes;
		break;
	case XT_CONNBYTES_DIR_REPLY:
		pk = acct->counter[1].packets;
		by = acct->counter[1].bytes;
		break;
	default:
		pk = acct->counter[0].packets + acct->counter[1].packets;
		by = acct->counter[0].bytes + acct->counter[1].bytes;
		break;
	}
	switch (m->what) {
	case XT_CONNBYTES_PKTS:
		what = pk;
		break;
	case XT_CONNBYTES_BYTES:
		what = by;
		break;
	default:
		what = pk ? by / pk : 0;
		break;
	}
	if (m->to)
		return what >= m->from && what <= m->to;
	return what >= m->from;
}

static uint8_t fold_case(uint8_t ch)
{
	return ch >= 'A' && ch <= 'Z' ? (uint8_t)(ch + 32) : ch;
}

/* Horspool search of the pattern in a window of the payload. */
int xt_string_mt(const struct xt_match_ctx *c, const void *info)
{
	const struct xt_string *m = info;
	int po = payload_off(c);
	const uint8_t *p;
	uint32_t n, from, to, i, k, last;

	if (po < 0 || (uint32_t)po >= c->l4len)
		return m->invert;
	p = c->l4 + po;
	n = c->l4len - (uint32_t)po;
	from = m->from;
	to = m->to < n ? m->to : n;
	if (m->plen == 0 || to < from + m->plen)
		return m->invert;
	last = m->plen - 1u;
	i = from;
	while (i + last < to) {
		uint8_t ch = p[i + last];

		if (m->icase)
			ch = fold_case(ch);
		for (k = last; ; k--) {
			uint8_t a = p[i + k];

			if (m->icase)
				a = fold_case(a);
			if (a != m->pattern[k])
				break;
			if (k == 0)
				return !m->invert;
		}
		i += m->shift[ch];
	}
	return m->invert;
}

static int u32_test(const struct xt_u32_test *t, const uint8_t *base,
		    uint32_t len)
{
	uint32_t pos = 0, val, at, i;

	at = t->location[0].number;
	if (at + 4 > len)
		return 0;
	val = rd32(base + at);
	for (i = 1; i < t->nnums; i++) {
		uint32_t num = t->location[i].number;

		switch (t->location[i].nextop) {
		case XT_U32_AND:
			val &= num;
			break;
		case XT_U32_LEFTSH:
			val <<= num & 31;
			break;
		case XT_U32_RIGHTSH:
			val >>= num & 31;
			break;
		case XT_U32_AT:
			if (pos + val < pos || pos + val + num + 4 > len)
				return 0;
			pos += val;
			val = rd32(base + pos + num);
			break;
		default:
			return 0;
		}
	}
	for (i = 0; i < t->nvalues; i++) {
		if (val >= t->value[i].min && val <= t->value[i].max)
			return 1;
	}
	return 0;
}

int xt_u32_mt(const struct xt_match_ctx *c, const void *info)
{
	const struct xt_u32 *m = info;
	uint32_t len = rd16(c->iph + 2);
	unsigned i;

	if (len > c->skb->len)
		len = c->skb->len;
	for (i = 0; i < m->ntests; i++) {
		if (!u32_test(&m->tests[i], c->iph, len))
			return m->invert;
	}
	return !m->invert;
}

int xt_addrtype_mt(const struct xt_match_ctx *c, const void *info)
{
	const struct xt_addrtype *m = info;

	if (m->source &&
	    !(inet_addr_type(rd32(c->iph + 12)) & m->source) ^ m->invert_source)
		return 0;
	if (m->dest &&
	    !(inet_addr_type(rd32(c->iph + 16)) & m->dest) ^ m->invert_dest)
		return 0;
	return 1;
}

int xt_pkttype_mt(const struct xt_match_ctx *c, const void *info)
{
	const struct xt_pkttype *m = info;

	return (c->skb->pkt_type == m->pkttype) ^ m->invert;
}

int xt_helper_mt(const struct xt_match_ctx *c, const void *info)
{
	const struct xt_helper *m = info;
	const struct nf_conn *ct = c->skb->ct;
	const struct nf_conn_help *help = ct ? nf_ct_ext_find(ct, NF_CT_EXT_HELPER)
					     : NULL;

	return (help && help->app == m->app) ^ m->invert;
}

int xt_tcpmss_mt(const struct xt_match_ctx *c, const void *info)
{
	const struct xt_tcpmss_match *m = info;
	const uint8_t *th = c->l4, *opt = NULL;
	unsigned mss;

	if (!th || c->iph[9] != IPPROTO_TCP || c->l4len < 20)
		return 0;
	if (!(th[13] & TCPF_SYN))
		return 0;
	if (!tcp_find_option(th, (th[12] >> 4) * 4u, 2, &opt) || opt[1] != 4)
		return m->invert;
	mss = rd16(opt + 2);
	return (mss >= m->mss_min && mss <= m->mss_max) ^ m->invert;
}

int xt_ecn_mt(const struct xt_match_ctx *c, const void *info)
{
	const struct xt_ecn *m = info;
	int r = 1;

	if (m->operation & XT_ECN_IP)
		r = (c->iph[1] & 3u) == m->ip_ect;
	if (r && m->operation & (XT_ECN_TCP_CWR | XT_ECN_TCP_ECE)) {
		if (!c->l4 || c->iph[9] != IPPROTO_TCP || c->l4len < 20)
			return 0;
		if (m->operation & XT_ECN_TCP_ECE)
			r = r && (c->l4[13] & TCPF_ECE);
		if (m->operation & XT_ECN_TCP_CWR)
			r = r && (c->l4[13] & TCPF_CWR);
	}
	return r ^ m->invert;
}
