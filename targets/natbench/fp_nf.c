/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Netfilter core: per-hook chains of functions called through pointers
 * (nf_hook_slow), and the iptables interpreter (ipt_do_table) that walks a
 * table's chains rule by rule: the IP header part of each rule inline, its
 * matches and its target through function pointers, with jumps into and
 * returns from user chains.
 */
#include "fp_int.h"
#include "fp_util.h"

struct nf_hook_entries nb_hooks[NF_INET_NUMHOOKS];
struct ipt_table nb_filter, nb_mangle, nb_nat;

#define IPT_STACK 8

static unsigned nf_hook_slow(struct sk_buff *skb,
			     const struct nf_hook_state *st,
			     const struct nf_hook_entries *e)
{
	unsigned i;

	for (i = 0; i < e->num; i++) {
		unsigned v = e->e[i].hook(e->e[i].priv, skb, st);

		switch (v) {
		case NF_ACCEPT:
			continue;
		case NF_DROP:
			nb_stats.drop_filter++;
			kfree_skb(skb);
			return NF_DROP;
		case NF_STOLEN:
			return NF_STOLEN;
		default:
			nb_stats.drop_other++;
			kfree_skb(skb);
			return NF_DROP;
		}
	}
	return NF_ACCEPT;
}

/* Returns NF_ACCEPT if the packet goes on; otherwise it was consumed. */
unsigned nf_hook(unsigned hook, struct sk_buff *skb, unsigned in, unsigned out)
{
	const struct nf_hook_entries *e = &nb_hooks[hook];
	struct nf_hook_state st;

	if (e->num == 0)
		return NF_ACCEPT;
	st.hook = (uint8_t)hook;
	st.in = (uint8_t)in;
	st.out = (uint8_t)out;
	return nf_hook_slow(skb, &st, e);
}

/* The rule's IP header part, on fields read once per table walk (the
 * packet is bytes, and bytes may alias the counters the loop updates). */
struct ipt_pkt {
	uint32_t src, dst;
	uint8_t proto, in, out;
};

static int ip_packet_match(const struct ipt_entry *e, const struct ipt_pkt *k)
{
	unsigned inv = e->invflags;

	if ((((k->src & e->smsk) != e->src) ^ !!(inv & IPT_INV_SRC)) ||
	    (((k->dst & e->dmsk) != e->dst) ^ !!(inv & IPT_INV_DST)))
		return 0;
	if (e->iif != IF_NONE && ((e->iif != k->in) ^ !!(inv & IPT_INV_IIF)))
		return 0;
	if (e->oif != IF_NONE && ((e->oif != k->out) ^ !!(inv & IPT_INV_OIF)))
		return 0;
	if (e->proto && ((e->proto != k->proto) ^ !!(inv & IPT_INV_PROTO)))
		return 0;
	return 1;
}

unsigned ipt_do_table(struct ipt_table *t, struct sk_buff *skb,
		      const struct nf_hook_state *st)
{
	int base = t->hook_chain[st->hook];
	uint32_t stack_chain[IPT_STACK], stack_rule[IPT_STACK];
	unsigned sp = 0, chain, rule, end;
	const uint8_t *iph = skb->head + skb->network;
	unsigned ihl = (iph[0] & 15u) * 4u;
	struct xt_match_ctx mc;
	struct xt_target_ctx tc;
	struct ipt_pkt pk;

	if (base < 0)
		return NF_ACCEPT;
	pk.src = rd32(iph + 12);
	pk.dst = rd32(iph + 16);
	pk.proto = iph[9];
	pk.in = st->in;
	pk.out = st->out;
	mc.skb = skb;
	mc.iph = iph;
	mc.l4 = rd16(iph + 6) & IP_OFFSET ? NULL : iph + ihl;
	mc.l4len = skb->len - ihl;
	mc.in = st->in;
	mc.out = st->out;
	mc.hook = st->hook;
	mc.hotdrop = 0;
	tc.skb = skb;
	tc.in = st->in;
	tc.out = st->out;
	tc.hook = st->hook;
	chain = (unsigned)base;
	rule = t->chains[chain].first;
	end = rule + t->chains[chain].count;
	for (;;) {
		struct ipt_entry *e;
		unsigned k;
		int v;

		if (rule >= end) {
			/* Fell off a chain: policy, or back to the caller. */
			if (sp == 0)
				return (unsigned)t->chains[base].policy;
			sp--;
			chain = stack_chain[sp];
			rule = stack_rule[sp];
			end = t->chains[chain].first + t->chains[chain].count;
			continue;
		}
		e = &t->entries[rule];
		if (!ip_packet_match(e, &pk)) {
			rule++;
			continue;
		}
		for (k = 0; k < e->nmatch; k++) {
			const struct xt_entry_match *m = &e->m[k];

			if ((m->fn(&mc, m->info) != 0) == (m->invert != 0))
				break;
			if (mc.hotdrop)
				return NF_DROP;
		}
		if (k < e->nmatch) {
			rule++;
			continue;
		}
		e->pcnt++;
		e->bcnt += skb->len;
		if (e->target) {
			v = e->target(&tc, e->tinfo);
			if (v == XT_CONTINUE) {
				rule++;
				continue;
			}
			return (unsigned)v;
		}
		v = e->verdict;
		if (v == XT_RETURN) {
			if (sp == 0)
				return (unsigned)t->chains[base].policy;
			sp--;
			chain = stack_chain[sp];
			rule = stack_rule[sp];
			end = t->chains[chain].first + t->chains[chain].count;
			continue;
		}
		if (v >= XT_JUMP(0)) {
			if (sp == IPT_STACK)
				return NF_DROP;
			stack_chain[sp] = chain;
			stack_rule[sp] = rule + 1;
			sp++;
			chain = (unsigned)(v - XT_JUMP(0));
			rule = t->chains[chain].first;
			end = rule + t->chains[chain].count;
			continue;
		}
		return (unsigned)v;
	}
}

unsigned iptable_filter_hook(void *priv, struct sk_buff *skb,
			     const struct nf_hook_state *st)
{
	return ipt_do_table(&nb_filter, skb, st);
}

unsigned iptable_mangle_hook(void *priv, struct sk_buff *skb,
			     const struct nf_hook_state *st)
{
	uint32_t mark = skb->mark;
	unsigned v = ipt_do_table(&nb_mangle, skb, st);

	/* The mark's class bits pick the priority band (a tc fw filter). */
	if (v == NF_ACCEPT && skb->mark != mark)
		skb->prio = (uint8_t)(skb->mark & 7);
	return v;
}
