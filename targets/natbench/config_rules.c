/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The firewall, as fw3 would lay it out on an OpenWrt router: filter
 * chains per zone (lan may go anywhere, wan only where port forwards
 * allow, rejects with resets or ICMP), a mangle table that classifies the
 * first packets of each connection for QoS and turns the class into DSCP
 * on the way out, MSS clamping for the PPPoE uplink, masquerade and port
 * forwards in nat. The user rules are drawn from a fixed seed.
 */
#include <stdlib.h>
#include <string.h>

#include "apps.h"
#include "fp_int.h"
#include "harness.h"

static struct nb_rng rr = { 0x6669726577616c6cull };  /* "firewall" */

static void *info(size_t n)
{
	void *p = calloc(1, n);

	if (!p)
		abort();
	return p;
}

static int chain_declare(struct ipt_table *t, int policy)
{
	struct ipt_chain *c = &t->chains[t->nchains];

	c->first = c->count = 0;
	c->policy = policy;
	return (int)t->nchains++;
}

static void chain_begin(struct ipt_table *t, int c)
{
	t->chains[c].first = t->nentries;
}

static void chain_end(struct ipt_table *t, int c)
{
	t->chains[c].count = t->nentries - t->chains[c].first;
}

static struct ipt_entry *rule(struct ipt_table *t)
{
	struct ipt_entry *e = &t->entries[t->nentries++];

	memset(e, 0, sizeof(*e));
	e->iif = e->oif = IF_NONE;
	e->verdict = NF_ACCEPT;
	return e;
}

static void match(struct ipt_entry *e, xt_matchfn fn, const void *i, int inv)
{
	e->m[e->nmatch].fn = fn;
	e->m[e->nmatch].info = i;
	e->m[e->nmatch].invert = (uint8_t)inv;
	e->nmatch++;
}

static void target(struct ipt_entry *e, xt_targetfn fn, const void *i)
{
	e->target = fn;
	e->tinfo = i;
}

static const void *ctstate(unsigned mask)
{
	struct xt_conntrack *c = info(sizeof(*c));

	c->match_flags = XT_CT_STATE;
	c->state_mask = (uint16_t)mask;
	return c;
}

static const void *tcp_flags(unsigned mask, unsigned cmp)
{
	struct xt_tcp *t = info(sizeof(*t));

	t->spts[1] = t->dpts[1] = 0xffff;
	t->flg_mask = (uint8_t)mask;
	t->flg_cmp = (uint8_t)cmp;
	return t;
}

static const void *dport(unsigned proto, unsigned lo, unsigned hi)
{
	if (proto == IPPROTO_TCP) {
		struct xt_tcp *t = info(sizeof(*t));

		t->spts[1] = 0xffff;
		t->dpts[0] = (uint16_t)lo;
		t->dpts[1] = (uint16_t)hi;
		return t;
	} else {
		struct xt_udp *u = info(sizeof(*u));

		u->spts[1] = 0xffff;
		u->dpts[0] = (uint16_t)lo;
		u->dpts[1] = (uint16_t)hi;
		return u;
	}
}

static const void *limit(unsigned per_jiffy64, unsigned burst)
{
	struct xt_rateinfo *r = info(sizeof(*r));

	r->cost = 64u * 64u / (per_jiffy64 ? per_jiffy64 : 1);
	r->credit_cap = r->cost * burst;
	r->credit = r->credit_cap;
	return r;
}

static const void *markinfo(uint32_t mark, uint32_t mask)
{
	struct xt_mark_info *m = info(sizeof(*m));

	m->mark = mark;
	m->mask = mask;
	return m;
}

static const void *reject(unsigned with)
{
	struct xt_reject *r = info(sizeof(*r));

	r->with = (uint8_t)with;
	return r;
}

static void jump_rule(struct ipt_table *t, unsigned iif, int chain)
{
	struct ipt_entry *e = rule(t);

	e->iif = (uint8_t)iif;
	e->verdict = XT_JUMP(chain);
}

/* A user rule of zone_lan_forward: a few matches over ports no
 * application uses (they cost every new connection, rarely hit). */
static void user_rule(struct ipt_table *t, int reject_chain)
{
	struct ipt_entry *e = rule(t);
	unsigned proto = nb_rand(&rr) % 2 ? IPPROTO_TCP : IPPROTO_UDP;
	unsigned kind = nb_rand(&rr) % 6, base = 40000 + nb_rand(&rr) % 9000;
	struct xt_multiport *mp;
	struct xt_iprange *ir;
	struct xt_log *lg;
	unsigned i;

	e->proto = (uint8_t)proto;
	e->iif = IF_LAN;
	switch (kind) {
	case 0:
		mp = info(sizeof(*mp));
		mp->flags = XT_MP_DST;
		mp->count = (uint8_t)nb_range(&rr, 2, 8);
		for (i = 0; i < mp->count; i++)
			mp->ports[i] = (uint16_t)(base + i * 7);
		match(e, xt_multiport_mt, mp, 0);
		break;
	case 1:
		ir = info(sizeof(*ir));
		ir->flags = IPRANGE_SRC;
		ir->src_min = 0xc0a80100u + 100 + nb_rand(&rr) % 40;
		ir->src_max = ir->src_min + 4;
		match(e, xt_iprange_mt, ir, 0);
		match(e, proto == IPPROTO_TCP ? xt_tcp_mt : xt_udp_mt,
		      dport(proto, base, base + 20), 0);
		break;
	case 2:
		match(e, proto == IPPROTO_TCP ? xt_tcp_mt : xt_udp_mt,
		      dport(proto, base, base + 99), 0);
		break;
	default:
		e->smsk = 0xffffffffu;
		e->src = 0xc0a80100u + 100 + nb_rand(&rr) % 48;
		match(e, proto == IPPROTO_TCP ? xt_tcp_mt : xt_udp_mt,
		      dport(proto, base, base + 9), 0);
		break;
	}
	switch (nb_rand(&rr) % 4) {
	case 0:
		lg = info(sizeof(*lg));
		strcpy(lg->prefix, "parental: ");
		lg->level = 4;
		target(e, xt_log_tg, lg);
		break;
	case 1:
		e->verdict = XT_JUMP(reject_chain);
		break;
	case 2:
		e->verdict = NF_DROP;
		break;
	default:
		e->verdict = NF_ACCEPT;
		break;
	}
}

static const void *mark_tg(uint32_t mark, uint32_t mask)
{
	struct xt_mark_tginfo *m = info(sizeof(*m));

	m->mark = mark;
	m->mask = mask;
	m->mode = XT_MARK_SET;
	return m;
}

static void config_filter(void)
{
	struct ipt_table *t = &nb_filter;
	int input, forward, output, syn_flood, lan_in, wan_in, lan_fwd, wan_fwd;
	int rej;
	struct ipt_entry *e;
	struct xt_icmp *ic;
	struct xt_log *lg;
	struct xt_conntrack *ct;
	unsigned i, w;

	memset(t, 0, sizeof(*t));
	t->name = "filter";
	for (i = 0; i < NF_INET_NUMHOOKS; i++)
		t->hook_chain[i] = -1;
	input = chain_declare(t, NF_ACCEPT);
	forward = chain_declare(t, NF_DROP);
	output = chain_declare(t, NF_ACCEPT);
	syn_flood = chain_declare(t, 0);
	lan_in = chain_declare(t, 0);
	wan_in = chain_declare(t, 0);
	lan_fwd = chain_declare(t, 0);
	wan_fwd = chain_declare(t, 0);
	rej = chain_declare(t, 0);
	t->hook_chain[NF_INET_LOCAL_IN] = input;
	t->hook_chain[NF_INET_FORWARD] = forward;
	t->hook_chain[NF_INET_LOCAL_OUT] = output;

	chain_begin(t, input);
	match(rule(t), xt_conntrack_mt,
	      ctstate(XT_STATE_ESTABLISHED | XT_STATE_RELATED), 0);
	e = rule(t);
	match(e, xt_conntrack_mt, ctstate(XT_STATE_INVALID), 0);
	e->verdict = NF_DROP;
	e = rule(t);
	e->proto = IPPROTO_TCP;
	match(e, xt_tcp_mt, tcp_flags(TCPF_SYN | TCPF_RST | TCPF_ACK, TCPF_SYN), 0);
	e->verdict = XT_JUMP(syn_flood);
	jump_rule(t, IF_LAN, lan_in);
	for (w = IF_WAN; w <= IF_QINQ; w++)
		jump_rule(t, w, wan_in);
	chain_end(t, input);

	chain_begin(t, syn_flood);
	e = rule(t);
	e->proto = IPPROTO_TCP;
	match(e, xt_limit_mt, limit(40, 50), 0);
	e->verdict = XT_RETURN;
	rule(t)->verdict = NF_DROP;
	chain_end(t, syn_flood);

	chain_begin(t, lan_in);
	e = rule(t);
	e->proto = IPPROTO_ICMP;
	e = rule(t);
	e->proto = IPPROTO_UDP;
	match(e, xt_udp_mt, dport(IPPROTO_UDP, 53, 53), 0);
	e = rule(t);
	e->proto = IPPROTO_TCP;
	match(e, xt_tcp_mt, dport(IPPROTO_TCP, 22, 22), 0);
	rule(t);
	chain_end(t, lan_in);

	chain_begin(t, wan_in);
	e = rule(t);
	e->proto = IPPROTO_UDP;
	match(e, xt_udp_mt, dport(IPPROTO_UDP, 68, 68), 0);
	e = rule(t);
	e->proto = IPPROTO_ICMP;
	ic = info(sizeof(*ic));
	ic->type = ICMP_ECHO;
	ic->code[1] = 0xff;
	match(e, xt_icmp_mt, ic, 0);
	match(e, xt_limit_mt, limit(64, 100), 0);
	e = rule(t);
	ct = info(sizeof(*ct));
	ct->match_flags = XT_CT_STATE;
	ct->state_mask = XT_STATE_DNAT;
	match(e, xt_conntrack_mt, ct, 0);
	e = rule(t);
	match(e, xt_limit_mt, limit(8, 10), 0);
	lg = info(sizeof(*lg));
	strcpy(lg->prefix, "reject wan in: ");
	lg->level = 4;
	lg->flags = XT_LOG_TCPSEQ;
	target(e, xt_log_tg, lg);
	rule(t)->verdict = XT_JUMP(rej);
	chain_end(t, wan_in);

	chain_begin(t, forward);
	match(rule(t), xt_conntrack_mt,
	      ctstate(XT_STATE_ESTABLISHED | XT_STATE_RELATED), 0);
	e = rule(t);
	match(e, xt_conntrack_mt, ctstate(XT_STATE_INVALID), 0);
	e->verdict = NF_DROP;
	jump_rule(t, IF_LAN, lan_fwd);
	for (w = IF_WAN; w <= IF_QINQ; w++)
		jump_rule(t, w, wan_fwd);
	rule(t)->verdict = XT_JUMP(rej);
	chain_end(t, forward);

	chain_begin(t, lan_fwd);
	for (i = 0; i < nb_nblocked; i++) {
		e = rule(t);
		e->proto = IPPROTO_TCP;
		match(e, xt_tcp_mt, dport(IPPROTO_TCP, nb_blocked_ports[i],
					  nb_blocked_ports[i]), 0);
		e->verdict = XT_JUMP(rej);
	}
	for (i = 0; i < 28; i++)
		user_rule(t, rej);
	rule(t);
	chain_end(t, lan_fwd);

	chain_begin(t, wan_fwd);
	e = rule(t);
	ct = info(sizeof(*ct));
	ct->match_flags = XT_CT_STATE;
	ct->state_mask = XT_STATE_DNAT;
	match(e, xt_conntrack_mt, ct, 0);
	rule(t)->verdict = XT_JUMP(rej);
	chain_end(t, wan_fwd);

	chain_begin(t, rej);
	e = rule(t);
	e->proto = IPPROTO_TCP;
	target(e, xt_reject_tg, reject(IPT_TCP_RESET));
	target(rule(t), xt_reject_tg, reject(IPT_ICMP_PORT_UNREACHABLE));
	chain_end(t, rej);

	chain_begin(t, output);
	match(rule(t), xt_conntrack_mt,
	      ctstate(XT_STATE_ESTABLISHED | XT_STATE_RELATED), 0);
	rule(t);
	chain_end(t, output);
}

/* A word of an application's first text token, for string matches. */
static const char *app_word(unsigned a)
{
	const struct app_msg *m = &app_descs[a].msg[0];
	unsigned k;

	for (k = 0; k < m->nfields; k++)
		if (m->f[k].kind == FK_TOKEN)
			return m->f[k].words[0];
	return NULL;
}

static void classify_rule(struct ipt_table *t, unsigned cls)
{
	struct ipt_entry *e = rule(t);
	unsigned a = nb_rand(&rr) % app_ndescs, kind = nb_rand(&rr) % 8, k;
	struct xt_multiport *mp;
	struct xt_length *ln;
	struct xt_string *st;
	struct xt_u32 *u;
	struct xt_dscp *ds;
	struct xt_helper *hp;
	struct xt_connbytes *cb;
	const char *w;

	match(e, xt_mark_mt, markinfo(0, 0xf0), 0);
	switch (kind) {
	case 0:
		mp = info(sizeof(*mp));
		mp->flags = XT_MP_ANY;
		mp->count = (uint8_t)nb_range(&rr, 1, 6);
		e->proto = app_descs[a].proto;
		for (k = 0; k < mp->count; k++)
			mp->ports[k] = app_descs[(a + k * 3) % app_ndescs].port;
		match(e, xt_multiport_mt, mp, 0);
		break;
	case 1:
		ln = info(sizeof(*ln));
		ln->min = 0;
		ln->max = (uint16_t)nb_range(&rr, 60, 160);
		match(e, xt_length_mt, ln, 0);
		e->proto = IPPROTO_TCP;
		match(e, xt_tcp_mt, tcp_flags(TCPF_ACK | TCPF_SYN | TCPF_FIN,
					      TCPF_ACK), 0);
		break;
	case 2:
		w = app_word(a);
		if (!w)
			w = "GET";
		st = info(sizeof(*st));
		st->plen = (uint8_t)strlen(w);
		memcpy(st->pattern, w, st->plen);
		st->from = 0;
		st->to = 64;
		for (k = 0; k < 256; k++)
			st->shift[k] = st->plen;
		for (k = 0; k + 1 < st->plen; k++)
			st->shift[st->pattern[k]] = (uint8_t)(st->plen - 1 - k);
		match(e, xt_string_mt, st, 0);
		break;
	case 3:
		u = info(sizeof(*u));
		u->ntests = 1;
		/* 0>>22&0x3C@0>>16=lo:hi : the source port, via the IHL. */
		u->tests[0].nnums = 4;
		u->tests[0].location[0].number = 0;
		u->tests[0].location[1].nextop = XT_U32_RIGHTSH;
		u->tests[0].location[1].number = 22;
		u->tests[0].location[2].nextop = XT_U32_AND;
		u->tests[0].location[2].number = 0x3c;
		u->tests[0].location[3].nextop = XT_U32_AT;
		u->tests[0].location[3].number = 0;
		u->tests[0].nvalues = 1;
		u->tests[0].value[0].min = (uint32_t)app_descs[a].port << 16;
		u->tests[0].value[0].max = u->tests[0].value[0].min | 0xffff;
		e->proto = app_descs[a].proto;
		match(e, xt_u32_mt, u, 0);
		break;
	case 4:
		ds = info(sizeof(*ds));
		ds->dscp = (uint8_t)nb_range(&rr, 8, 46);
		match(e, xt_dscp_mt, ds, 0);
		break;
	case 5:
		hp = info(sizeof(*hp));
		hp->app = (uint8_t)(a + 1);
		match(e, xt_helper_mt, hp, 0);
		break;
	case 6:
		cb = info(sizeof(*cb));
		cb->what = XT_CONNBYTES_AVGPKT;
		cb->dir = XT_CONNBYTES_DIR_BOTH;
		cb->from = nb_range(&rr, 600, 1200);
		match(e, xt_connbytes_mt, cb, 0);
		break;
	default:
		e->proto = app_descs[a].proto;
		match(e, app_descs[a].proto == IPPROTO_TCP ? xt_tcp_mt
							   : xt_udp_mt,
		      dport(app_descs[a].proto, app_descs[a].port,
			    app_descs[a].port), 0);
		break;
	}
	target(e, xt_mark_tg, mark_tg(cls << 4, 0xf0));
}

static void config_mangle(void)
{
	struct ipt_table *t = &nb_mangle;
	int pre, fwd, post, classify, dscp;
	struct ipt_entry *e;
	struct xt_connmark_tginfo *cm;
	struct xt_connbytes *cb;
	struct xt_tcpmss_tginfo *mss;
	struct xt_dscp_tginfo *ds;
	struct xt_ttl_tginfo *tt;
	unsigned i;

	memset(t, 0, sizeof(*t));
	t->name = "mangle";
	for (i = 0; i < NF_INET_NUMHOOKS; i++)
		t->hook_chain[i] = -1;
	pre = chain_declare(t, NF_ACCEPT);
	fwd = chain_declare(t, NF_ACCEPT);
	post = chain_declare(t, NF_ACCEPT);
	classify = chain_declare(t, 0);
	dscp = chain_declare(t, 0);
	t->hook_chain[NF_INET_PRE_ROUTING] = pre;
	t->hook_chain[NF_INET_FORWARD] = fwd;
	t->hook_chain[NF_INET_POST_ROUTING] = post;

	chain_begin(t, pre);
	cm = info(sizeof(*cm));
	cm->mode = XT_CONNMARK_RESTORE;
	cm->ctmask = cm->nfmask = 0xff;
	target(rule(t), xt_connmark_tg, cm);
	e = rule(t);
	match(e, xt_mark_mt, markinfo(0, 0xf0), 0);
	cb = info(sizeof(*cb));
	cb->what = XT_CONNBYTES_PKTS;
	cb->dir = XT_CONNBYTES_DIR_BOTH;
	cb->from = 0;
	cb->to = 3;
	match(e, xt_connbytes_mt, cb, 0);
	e->verdict = XT_JUMP(classify);
	chain_end(t, pre);

	chain_begin(t, classify);
	for (i = 0; i < 20; i++)
		classify_rule(t, 1 + nb_rand(&rr) % 6);
	e = rule(t);
	match(e, xt_mark_mt, markinfo(0, 0xf0), 1);
	cm = info(sizeof(*cm));
	cm->mode = XT_CONNMARK_SAVE;
	cm->ctmask = cm->nfmask = 0xf0;
	target(e, xt_connmark_tg, cm);
	chain_end(t, classify);

	chain_begin(t, fwd);
	mss = info(sizeof(*mss));
	e = rule(t);
	e->proto = IPPROTO_TCP;
	e->oif = IF_PPP;
	match(e, xt_tcp_mt, tcp_flags(TCPF_SYN | TCPF_RST, TCPF_SYN), 0);
	target(e, xt_tcpmss_tg, mss);
	e = rule(t);
	e->proto = IPPROTO_TCP;
	e->iif = IF_PPP;
	match(e, xt_tcp_mt, tcp_flags(TCPF_SYN | TCPF_RST, TCPF_SYN), 0);
	target(e, xt_tcpmss_tg, mss);
	chain_end(t, fwd);

	chain_begin(t, post);
	e = rule(t);
	e->oif = IF_LAN;
	e->invflags = IPT_INV_OIF;
	match(e, xt_connmark_mt, markinfo(0, 0xf0), 1);
	e->verdict = XT_JUMP(dscp);
	e = rule(t);
	e->oif = IF_QINQ;
	tt = info(sizeof(*tt));
	tt->mode = XT_TTL_SET;
	tt->ttl = 64;
	target(e, xt_ttl_tg, tt);
	chain_end(t, post);

	chain_begin(t, dscp);
	for (i = 1; i <= 6; i++) {
		e = rule(t);
		match(e, xt_connmark_mt, markinfo(i << 4, 0xf0), 0);
		ds = info(sizeof(*ds));
		ds->dscp = (uint8_t)(i * 8 - (i == 6 ? 2 : 0));
		target(e, xt_dscp_tg, ds);
	}
	chain_end(t, dscp);
}

static void config_nat(void)
{
	struct ipt_table *t = &nb_nat;
	int pre, post;
	struct ipt_entry *e;
	struct nf_nat_range *r;
	unsigned i, w;

	memset(t, 0, sizeof(*t));
	t->name = "nat";
	for (i = 0; i < NF_INET_NUMHOOKS; i++)
		t->hook_chain[i] = -1;
	pre = chain_declare(t, NF_ACCEPT);
	post = chain_declare(t, NF_ACCEPT);
	t->hook_chain[NF_INET_PRE_ROUTING] = pre;
	t->hook_chain[NF_INET_POST_ROUTING] = post;

	chain_begin(t, pre);
	for (i = 0; i < nb_nforwards; i++) {
		const struct nb_forward *f = &nb_forwards[i];

		e = rule(t);
		e->iif = f->oif;
		e->proto = f->proto;
		e->dst = nb_ifs[f->oif].addr;
		e->dmsk = 0xffffffffu;
		match(e, f->proto == IPPROTO_TCP ? xt_tcp_mt : xt_udp_mt,
		      dport(f->proto, f->ext_port, f->ext_port), 0);
		r = info(sizeof(*r));
		r->min_addr = r->max_addr = f->host;
		r->min_port = r->max_port = f->int_port;
		r->flags = NF_NAT_RANGE_MAP_IPS | NF_NAT_RANGE_PROTO_SPECIFIED;
		target(e, xt_dnat_tg, r);
	}
	chain_end(t, pre);

	chain_begin(t, post);
	for (w = IF_WAN; w <= IF_QINQ; w++) {
		e = rule(t);
		e->oif = (uint8_t)w;
		target(e, xt_masquerade_tg, info(sizeof(struct nf_nat_range)));
	}
	chain_end(t, post);
}

const uint16_t nb_blocked_ports[] = { 135, 445, 6667 };
const unsigned nb_nblocked = sizeof(nb_blocked_ports) /
			     sizeof(nb_blocked_ports[0]);

void nb_config_rules(void)
{
	config_filter();
	config_mangle();
	config_nat();
}
