/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iptables targets: marks and connection marks, DSCP / TOS / TTL rewrites
 * with incremental header checksums, priority classification, TCP MSS
 * clamping, LOG (formatted into a ring), REJECT (TCP reset or ICMP error),
 * and the NAT targets that set up a connection's binding.
 */
#include "fp_int.h"
#include "fp_util.h"

char nb_log[NB_LOG_SIZE];
uint32_t nb_log_pos;

static uint8_t *skb_iph(const struct sk_buff *skb)
{
	return skb->head + skb->network;
}

int xt_mark_tg(struct xt_target_ctx *c, const void *info)
{
	const struct xt_mark_tginfo *t = info;
	struct sk_buff *skb = c->skb;

	switch (t->mode) {
	case XT_MARK_AND:
		skb->mark &= t->mark;
		break;
	case XT_MARK_OR:
		skb->mark |= t->mark;
		break;
	case XT_MARK_XOR:
		skb->mark ^= t->mark;
		break;
	default:
		skb->mark = (skb->mark & ~t->mask) ^ t->mark;
		break;
	}
	return XT_CONTINUE;
}

int xt_connmark_tg(struct xt_target_ctx *c, const void *info)
{
	const struct xt_connmark_tginfo *t = info;
	struct nf_conn *ct = c->skb->ct;
	uint32_t m;

	if (!ct)
		return XT_CONTINUE;
	switch (t->mode) {
	case XT_CONNMARK_SET:
		ct->mark = (ct->mark & ~t->ctmask) ^ t->ctmark;
		break;
	case XT_CONNMARK_SAVE:
		m = (ct->mark & ~t->ctmask) ^ (c->skb->mark & t->nfmask);
		ct->mark = m;
		break;
	default:
		m = (c->skb->mark & ~t->nfmask) ^ (ct->mark & t->ctmask);
		c->skb->mark = m;
		break;
	}
	return XT_CONTINUE;
}

static void set_tos(uint8_t *iph, uint8_t tos)
{
	if (iph[1] == tos)
		return;
	csum_replace2(iph + 10, (uint16_t)(iph[0] << 8 | iph[1]),
		      (uint16_t)(iph[0] << 8 | tos));
	iph[1] = tos;
}

int xt_dscp_tg(struct xt_target_ctx *c, const void *info)
{
	const struct xt_dscp_tginfo *t = info;
	uint8_t *iph = skb_iph(c->skb);

	set_tos(iph, (uint8_t)((iph[1] & 3u) | t->dscp << 2));
	return XT_CONTINUE;
}

int xt_tos_tg(struct xt_target_ctx *c, const void *info)
{
	const struct xt_tos_tginfo *t = info;
	uint8_t *iph = skb_iph(c->skb);

	set_tos(iph, (uint8_t)((iph[1] & ~t->tos_mask) ^ t->tos_value));
	return XT_CONTINUE;
}

int xt_ttl_tg(struct xt_target_ctx *c, const void *info)
{
	const struct xt_ttl_tginfo *t = info;
	uint8_t *iph = skb_iph(c->skb);
	unsigned ttl = iph[8];

	switch (t->mode) {
	case XT_TTL_SET:
		ttl = t->ttl;
		break;
	case XT_TTL_INC:
		ttl = ttl + t->ttl > 255 ? 255 : ttl + t->ttl;
		break;
	default:
		ttl = ttl > t->ttl ? ttl - t->ttl : 0;
		break;
	}
	if (ttl != iph[8]) {
		csum_replace2(iph + 10, (uint16_t)(iph[8] << 8 | iph[9]),
			      (uint16_t)(ttl << 8 | iph[9]));
		iph[8] = (uint8_t)ttl;
	}
	return XT_CONTINUE;
}

int xt_classify_tg(struct xt_target_ctx *c, const void *info)
{
	const struct xt_classify *t = info;

	c->skb->prio = (uint8_t)(t->priority & 7u);
	return XT_CONTINUE;
}

/* Lowers the MSS option of a SYN to what the path can carry. */
int xt_tcpmss_tg(struct xt_target_ctx *c, const void *info)
{
	const struct xt_tcpmss_tginfo *t = info;
	struct sk_buff *skb = c->skb;
	uint8_t *iph = skb_iph(skb);
	uint8_t *th = skb->head + skb->transport;
	unsigned doff, i, newmss;

	if (iph[9] != IPPROTO_TCP || skb->len < (iph[0] & 15u) * 4u + 20u)
		return XT_CONTINUE;
	if (!(th[13] & TCPF_SYN))
		return XT_CONTINUE;
	doff = (th[12] >> 4) * 4u;
	if (t->mss)
		newmss = t->mss;
	else if (c->out < NB_NIFS)
		newmss = nb_ifs[c->out].mtu - 40u;
	else
		return XT_CONTINUE;
	for (i = 20; i + 4 <= doff; ) {
		unsigned kind = th[i];

		if (kind == 0)
			break;
		if (kind == 1) {
			i++;
			continue;
		}
		if (th[i + 1] < 2)
			break;
		if (kind == 2 && th[i + 1] == 4) {
			unsigned old = rd16(th + i + 2);

			if (old <= newmss)
				return XT_CONTINUE;
			wr16(th + i + 2, (uint16_t)newmss);
			csum_replace2(th + 16, (uint16_t)old, (uint16_t)newmss);
			return XT_CONTINUE;
		}
		i += th[i + 1];
	}
	return XT_CONTINUE;
}

static void log_put(char ch)
{
	nb_log[nb_log_pos++ % NB_LOG_SIZE] = ch;
}

static void log_str(const char *s)
{
	while (*s)
		log_put(*s++);
}

static void log_dec(uint32_t v)
{
	char tmp[10];
	unsigned n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		log_put(tmp[--n]);
}

static void log_ip(uint32_t a)
{
	log_dec(a >> 24);
	log_put('.');
	log_dec(a >> 16 & 0xff);
	log_put('.');
	log_dec(a >> 8 & 0xff);
	log_put('.');
	log_dec(a & 0xff);
}

static const char *const if_names[NB_NIFS] = {
	"br-lan", "eth0.2", "pppoe-wan", "eth0.2.100",
};

/* The kernel's LOG line, formatted into the log ring. */
int xt_log_tg(struct xt_target_ctx *c, const void *info)
{
	const struct xt_log *t = info;
	const struct sk_buff *skb = c->skb;
	const uint8_t *iph = skb_iph(skb);
	const uint8_t *l4 = skb->head + skb->transport;

	log_put('<');
	log_dec(t->level);
	log_put('>');
	log_str(t->prefix);
	log_str(" IN=");
	log_str(c->in < NB_NIFS ? if_names[c->in] : "");
	log_str(" OUT=");
	log_str(c->out < NB_NIFS ? if_names[c->out] : "");
	log_str(" SRC=");
	log_ip(rd32(iph + 12));
	log_str(" DST=");
	log_ip(rd32(iph + 16));
	log_str(" LEN=");
	log_dec(rd16(iph + 2));
	log_str(" TTL=");
	log_dec(iph[8]);
	log_str(" ID=");
	log_dec(rd16(iph + 4));
	switch (iph[9]) {
	case IPPROTO_TCP:
	case IPPROTO_UDP:
		log_str(iph[9] == IPPROTO_TCP ? " PROTO=TCP SPT=" : " PROTO=UDP SPT=");
		log_dec(rd16(l4));
		log_str(" DPT=");
		log_dec(rd16(l4 + 2));
		if (iph[9] == IPPROTO_TCP && t->flags & XT_LOG_TCPSEQ) {
			log_str(" SEQ=");
			log_dec(rd32(l4 + 4));
		}
		break;
	case IPPROTO_ICMP:
		log_str(" PROTO=ICMP TYPE=");
		log_dec(l4[0]);
		log_str(" CODE=");
		log_dec(l4[1]);
		break;
	default:
		log_str(" PROTO=");
		log_dec(iph[9]);
		break;
	}
	log_put('\n');
	return XT_CONTINUE;
}

static void send_reset(struct sk_buff *old)
{
	const uint8_t *oiph = skb_iph(old);
	const uint8_t *oth = old->head + old->transport;
	unsigned ohl = (oiph[0] & 15u) * 4u;
	uint32_t olen, seq, ack;
	struct sk_buff *skb;
	uint8_t *iph, *th;
	uint32_t sum;

	if (old->len < ohl + 20 || oth[13] & TCPF_RST)
		return;
	if (rd16(oiph + 6) & IP_OFFSET)
		return;
	skb = skb_alloc_local(40);
	if (!skb)
		return;
	olen = old->len - ohl - (oth[12] >> 4) * 4u;
	iph = skb->data;
	th = iph + 20;
	iph[0] = 0x45;
	iph[1] = 0;
	wr16(iph + 2, 40);
	wr16(iph + 4, 0);
	wr16(iph + 6, IP_DF);
	iph[8] = 64;
	iph[9] = IPPROTO_TCP;
	wr16(iph + 10, 0);
	wr32(iph + 12, rd32(oiph + 16));
	wr32(iph + 16, rd32(oiph + 12));
	wr16(iph + 10, csum_finish(csum_partial(iph, 20, 0)));
	wr16(th, rd16(oth + 2));
	wr16(th + 2, rd16(oth));
	if (oth[13] & TCPF_ACK) {
		seq = rd32(oth + 8);
		ack = 0;
		th[13] = TCPF_RST;
	} else {
		seq = 0;
		ack = rd32(oth + 4) + olen + !!(oth[13] & TCPF_SYN) +
		      !!(oth[13] & TCPF_FIN);
		th[13] = TCPF_RST | TCPF_ACK;
	}
	wr32(th + 4, seq);
	wr32(th + 8, ack);
	th[12] = 5 << 4;
	wr16(th + 14, 0);
	wr16(th + 16, 0);
	wr16(th + 18, 0);
	sum = csum_partial(iph + 12, 8, IPPROTO_TCP + 20);
	wr16(th + 16, csum_finish(csum_partial(th, 20, sum)));
	skb->len = 40;
	ip_local_out(skb);
}

int xt_reject_tg(struct xt_target_ctx *c, const void *info)
{
	const struct xt_reject *t = info;
	struct sk_buff *skb = c->skb;

	switch (t->with) {
	case IPT_TCP_RESET:
		if (skb_iph(skb)[9] == IPPROTO_TCP) {
			send_reset(skb);
			break;
		}
		/* fall through */
	case IPT_ICMP_PORT_UNREACHABLE:
		icmp_send(skb, ICMP_DEST_UNREACH, ICMP_PORT_UNREACH, 0);
		break;
	case IPT_ICMP_NET_UNREACHABLE:
		icmp_send(skb, ICMP_DEST_UNREACH, ICMP_NET_UNREACH, 0);
		break;
	case IPT_ICMP_HOST_UNREACHABLE:
		icmp_send(skb, ICMP_DEST_UNREACH, ICMP_HOST_UNREACH, 0);
		break;
	default:
		icmp_send(skb, ICMP_DEST_UNREACH, ICMP_PKT_FILTERED, 0);
		break;
	}
	return NF_DROP;
}

int xt_masquerade_tg(struct xt_target_ctx *c, const void *info)
{
	const struct nf_nat_range *r = info;
	struct nf_conn *ct = c->skb->ct;
	struct nf_nat_range range;
	struct nf_conn_nat *nat;

	if (!ct || c->out >= NB_NIFS || !nb_ifs[c->out].addr)
		return NF_DROP;
	range.min_addr = range.max_addr = nb_ifs[c->out].addr;
	range.min_port = r->min_port;
	range.max_port = r->max_port;
	range.flags = (uint8_t)(r->flags | NF_NAT_RANGE_MAP_IPS);
	nat = nf_ct_ext_add(ct, NF_CT_EXT_NAT);
	if (nat)
		nat->masq_index = (uint8_t)(c->out + 1);  /* 0: none */
	return (int)nf_nat_setup_info(ct, &range, 1);
}

int xt_dnat_tg(struct xt_target_ctx *c, const void *info)
{
	struct nf_conn *ct = c->skb->ct;

	if (!ct)
		return NF_DROP;
	return (int)nf_nat_setup_info(ct, info, 0);
}

int xt_snat_tg(struct xt_target_ctx *c, const void *info)
{
	struct nf_conn *ct = c->skb->ct;

	if (!ct)
		return NF_DROP;
	return (int)nf_nat_setup_info(ct, info, 1);
}
