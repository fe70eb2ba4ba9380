/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Connection tracking helpers: after NAT, the application of a connection
 * is found by its server port (on the reply tuple, so port forwards find
 * the inside service) and every packet with payload goes to that
 * application's parser (generated, fp_app*.c). A parsed message can set the
 * connection's QoS class (a connmark the mangle table turns into DSCP) and
 * can carry the client's endpoint, which NAT rewrites (an ALG).
 */
#include "fp_int.h"
#include "fp_util.h"

static unsigned payload_start(const struct sk_buff *skb, uint32_t *plen)
{
	const uint8_t *iph = skb->head + skb->network;
	const uint8_t *l4 = skb->head + skb->transport;
	uint32_t l4len = skb->len - (skb->transport - skb->network);
	unsigned hl;

	if (iph[9] == IPPROTO_TCP) {
		if (l4len < 20)
			return 0;
		hl = (l4[12] >> 4) * 4u;
	} else if (iph[9] == IPPROTO_UDP) {
		hl = 8;
	} else {
		return 0;
	}
	if (l4len <= hl)
		return 0;
	*plen = l4len - hl;
	return skb->transport + hl;
}

/* The connection's helper, run from nf_confirm as its packets leave. */
unsigned nf_ct_helper(struct sk_buff *skb, struct nf_conn *ct)
{
	struct nf_conn_help *help = nf_ct_ext_find(ct, NF_CT_EXT_HELPER);
	const struct app_ops *app;
	struct app_res res;
	unsigned dir, off, cls;
	uint32_t plen = 0;

	if (skb->ctinfo == IP_CT_RELATED || skb->ctinfo == IP_CT_RELATED_REPLY)
		return NF_ACCEPT;
	if (!(ct->flags & CT_F_HELPER_CHECKED)) {
		/* After NAT: the reply tuple names the real server. */
		const struct nf_tuple *r = &ct->tuple[CT_DIR_REPLY];
		unsigned a = fp_app_lookup(r->proto, r->sport);

		ct->flags |= CT_F_HELPER_CHECKED;
		if (a) {
			help = nf_ct_ext_add(ct, NF_CT_EXT_HELPER);
			if (help) {
				help->app = (uint8_t)a;
				help->at.last = nb_jiffies;
			}
		}
	}
	if (!help || !help->app)
		return NF_ACCEPT;
	off = payload_start(skb, &plen);
	if (!off)
		return NF_ACCEPT;
	app = &fp_apps[help->app - 1];
	dir = skb->ctinfo >= IP_CT_IS_REPLY ? CT_DIR_REPLY : CT_DIR_ORIGINAL;
	res.key = 0;
	res.cls = 0;
	res.addr_off = 0;
	res.len = 0;
	if (app->parse[dir](skb->head + off, plen, &res) < 0) {
		help->app_bad++;
		nb_stats.app_bad++;
		return NF_ACCEPT;
	}
	nb_stats.app_ok++;
	help->app_msgs++;
	help->app_key = rol32(help->app_key, 5) ^ res.key;
	cls = app->track(&help->at, &res, dir, plen, nb_jiffies);
	if (!cls)
		cls = res.cls;
	if (cls && !(ct->mark & 0xf0u)) {
		help->cls = (uint8_t)cls;
		ct->mark = (ct->mark & ~0xf0u) | (cls & 0xfu) << 4;
	}
	if (res.addr_off && dir == CT_DIR_ORIGINAL)
		nf_nat_alg_rewrite(skb, ct, res.addr_off - 1u);
	return NF_ACCEPT;
}
