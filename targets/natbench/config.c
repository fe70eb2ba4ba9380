/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The router's configuration, made once at start (the control plane, not
 * scored): interfaces as on an OpenWrt router with a VLAN-tagged switch
 * port (LAN eth0.1, WAN eth0.2 with IPoE, a PPPoE session and a QinQ
 * service VLAN), the routing table, the netfilter hooks and the firewall
 * (config_rules.c). Deterministic: the same for every traffic seed.
 */
#include <string.h>

#include "fp_int.h"
#include "harness.h"

struct nb_route_cfg nb_routes[NB_MAX_ROUTES];
unsigned nb_nroutes;
uint8_t nb_gw_mac[NB_NIFS][6];
uint32_t nb_gw_ip[NB_NIFS];
uint8_t nb_switch_mac[6] = { 0x02, 0, 0, 0, 0x05, 0x01 };

#define IP4(a, b, c, d) ((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | \
			 (uint32_t)(c) << 8 | (uint32_t)(d))

struct nb_forward nb_forwards[] = {
	{ IPPROTO_TCP, IF_PPP, 8080, IP4(192, 168, 1, 10), 80 },
	{ IPPROTO_TCP, IF_PPP, 2222, IP4(192, 168, 1, 11), 22 },
	{ IPPROTO_UDP, IF_PPP, 51820, IP4(192, 168, 1, 12), 51820 },
	{ IPPROTO_TCP, IF_WAN, 8443, IP4(192, 168, 1, 13), 443 },
};
const unsigned nb_nforwards = sizeof(nb_forwards) / sizeof(nb_forwards[0]);

static void set_mac(uint8_t *m, unsigned a, unsigned b)
{
	m[0] = 0x02;
	m[1] = 0;
	m[2] = 0;
	m[3] = 0;
	m[4] = (uint8_t)a;
	m[5] = (uint8_t)b;
}

static void config_ifaces(void)
{
	struct nb_iface *d;
	unsigned i;

	memset(nb_ifs, 0, sizeof(nb_ifs));
	for (i = 0; i < NB_NIFS; i++) {
		set_mac(nb_ifs[i].mac, 0, 1);  /* VLANs share eth0's MAC */
		nb_ifs[i].mtu = 1500;
	}
	d = &nb_ifs[IF_LAN];
	d->addr = IP4(192, 168, 1, 1);
	d->mask = 0xffffff00u;
	d->vid = 1;
	d = &nb_ifs[IF_WAN];
	d->addr = IP4(198, 51, 100, 23);
	d->mask = 0xffffff00u;
	d->vid = 2;
	d->masq = d->wan = 1;
	d = &nb_ifs[IF_PPP];
	d->addr = IP4(100, 70, 12, 34);
	d->mask = 0xffffffffu;
	d->mtu = 1492;
	d->sid = 0x1a2b;
	d->vid = 2;
	d->masq = d->wan = 1;
	set_mac(d->peer, 3, 1);
	d->lcp_magic = 0x5eedf00du;
	d = &nb_ifs[IF_QINQ];
	d->addr = IP4(100, 100, 5, 5);
	d->mask = 0xffff0000u;
	d->vid = 2;
	d->inner_vid = 100;
	d->masq = d->wan = 1;

	nb_gw_ip[IF_WAN] = IP4(198, 51, 100, 1);
	set_mac(nb_gw_mac[IF_WAN], 2, 2);
	nb_gw_ip[IF_PPP] = IP4(100, 70, 0, 1);
	set_mac(nb_gw_mac[IF_PPP], 3, 1);
	nb_gw_ip[IF_QINQ] = IP4(100, 100, 0, 1);
	set_mac(nb_gw_mac[IF_QINQ], 2, 4);
}

static void route(uint32_t prefix, unsigned plen, unsigned type, unsigned oif,
		  uint32_t gw)
{
	struct nb_route_cfg *r;
	uint32_t mask = plen ? 0xffffffffu << (32 - plen) : 0;
	uint32_t src = oif < NB_NIFS ? nb_ifs[oif].addr : 0;

	unsigned i;

	if (nb_nroutes >= NB_MAX_ROUTES)
		return;
	for (i = 0; i < nb_nroutes; i++)
		if (nb_routes[i].prefix == (prefix & mask) &&
		    nb_routes[i].plen == plen)
			return;  /* one route per prefix: no duplicates drawn */
	r = &nb_routes[nb_nroutes++];
	r->prefix = prefix & mask;
	r->plen = (uint8_t)plen;
	r->type = (uint8_t)type;
	r->oif = (uint8_t)oif;
	r->gw = gw;
	fib_insert(prefix, plen, type, oif, gw, src);
}

/* A public prefix away from the special-purpose blocks. */
static uint32_t public_prefix(struct nb_rng *r)
{
	for (;;) {
		uint32_t a = nb_rand(r);
		unsigned o = a >> 24;

		if (o == 0 || o == 10 || o == 100 || o == 127 || o == 169 ||
		    o == 172 || o == 192 || o == 198 || o >= 224)
			continue;
		return a;
	}
}

int nb_route_find(uint32_t dst)
{
	int best = -1;
	unsigned i;

	for (i = 0; i < nb_nroutes; i++) {
		const struct nb_route_cfg *r = &nb_routes[i];
		uint32_t mask = r->plen ? 0xffffffffu << (32 - r->plen) : 0;

		if ((dst & mask) != r->prefix)
			continue;
		if (best < 0 || r->plen > nb_routes[best].plen)
			best = (int)i;
	}
	return best;
}

static void config_routes(void)
{
	static const uint8_t plens[] = { 8, 16, 16, 24, 24, 24, 24 };
	struct nb_rng r = { 0x726f75746573ull };  /* "routes" */
	unsigned i;

	route(nb_ifs[IF_LAN].addr, 32, RTN_LOCAL, IF_LAN, 0);
	route(IP4(192, 168, 1, 255), 32, RTN_LOCAL, IF_LAN, 0);
	route(nb_ifs[IF_WAN].addr, 32, RTN_LOCAL, IF_WAN, 0);
	route(nb_ifs[IF_PPP].addr, 32, RTN_LOCAL, IF_PPP, 0);
	route(nb_ifs[IF_QINQ].addr, 32, RTN_LOCAL, IF_QINQ, 0);
	route(IP4(192, 168, 1, 0), 24, RTN_UNICAST, IF_LAN, 0);
	route(IP4(198, 51, 100, 0), 24, RTN_UNICAST, IF_WAN, 0);
	route(IP4(100, 100, 0, 0), 16, RTN_UNICAST, IF_QINQ, 0);
	route(nb_gw_ip[IF_PPP], 32, RTN_UNICAST, IF_PPP, 0);
	route(0, 0, RTN_UNICAST, IF_PPP, 0);
	route(IP4(10, 0, 0, 0), 8, RTN_UNREACHABLE, IF_NONE, 0);
	route(IP4(172, 16, 0, 0), 12, RTN_UNREACHABLE, IF_NONE, 0);
	route(IP4(192, 168, 0, 0), 16, RTN_UNREACHABLE, IF_NONE, 0);
	route(IP4(192, 0, 2, 0), 24, RTN_PROHIBIT, IF_NONE, 0);
	route(IP4(240, 0, 0, 0), 4, RTN_BLACKHOLE, IF_NONE, 0);
	/* Routes the ISP pushes: CDNs over the IPoE uplink, IPTV and VoIP
	 * over the service VLAN. */
	for (i = 0; i < 150; i++) {
		unsigned oif = i % 5 < 3 ? IF_WAN : IF_QINQ;
		/* Two draws, in this order: as arguments of one call, C
		 * leaves their order to the compiler (gcc draws the last
		 * argument first on x86-64, the first first on ARM and MIPS). */
		uint32_t prefix = public_prefix(&r);
		unsigned plen = plens[nb_rand(&r) % 7];

		route(prefix, plen, RTN_UNICAST, oif, nb_gw_ip[oif]);
	}
	for (i = 0; i < 12; i++)
		route(public_prefix(&r), 32, RTN_UNICAST, IF_WAN,
		      nb_gw_ip[IF_WAN]);
}

static void hook(unsigned h, nf_hookfn fn, int prio)
{
	struct nf_hook_entries *e = &nb_hooks[h];
	unsigned i;

	/* Kept sorted by priority, as nf_register_net_hook does. */
	for (i = e->num; i > 0 && e->e[i - 1].prio > prio; i--)
		e->e[i] = e->e[i - 1];
	e->e[i].hook = fn;
	e->e[i].priv = NULL;
	e->e[i].prio = prio;
	e->num++;
}

static void config_hooks(void)
{
	memset(nb_hooks, 0, sizeof(nb_hooks));
	hook(NF_INET_PRE_ROUTING, ipv4_conntrack_defrag, -400);
	hook(NF_INET_PRE_ROUTING, nf_conntrack_in, -200);
	hook(NF_INET_PRE_ROUTING, iptable_mangle_hook, -150);
	hook(NF_INET_PRE_ROUTING, nf_nat_ipv4_pre, -100);
	hook(NF_INET_LOCAL_IN, iptable_mangle_hook, -150);
	hook(NF_INET_LOCAL_IN, iptable_filter_hook, 0);
	hook(NF_INET_LOCAL_IN, nf_nat_ipv4_local, 100);
	hook(NF_INET_LOCAL_IN, nf_confirm, 0x7fffffff);
	hook(NF_INET_FORWARD, iptable_mangle_hook, -150);
	hook(NF_INET_FORWARD, iptable_filter_hook, 0);
	hook(NF_INET_LOCAL_OUT, ipv4_conntrack_defrag, -400);
	hook(NF_INET_LOCAL_OUT, nf_conntrack_in, -200);
	hook(NF_INET_LOCAL_OUT, iptable_mangle_hook, -150);
	hook(NF_INET_LOCAL_OUT, nf_nat_ipv4_local, -100);
	hook(NF_INET_LOCAL_OUT, iptable_filter_hook, 0);
	hook(NF_INET_POST_ROUTING, iptable_mangle_hook, -150);
	hook(NF_INET_POST_ROUTING, nf_nat_ipv4_post, 100);
	hook(NF_INET_POST_ROUTING, nf_confirm, 0x7fffffff);
}

void nb_config(void)
{
	fp_kernel_init();
	config_ifaces();
	config_routes();
	config_hooks();
	nb_config_rules();
	nf_ct_init(0x63747261u);
	neigh_init(0x6e656967u);
	netdev_init();
	br_init();
	pppoe_init();
	sock_init();
	xmit_init();
	fp_rx_open();
}
