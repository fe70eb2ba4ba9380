/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The traffic generator: the LAN hosts and the Internet around the router,
 * as the seeds' benchmark has them: most frames belong to a few long TCP
 * uploads (iperf from LAN hosts to servers behind the WAN: full-sized
 * segments out, acknowledgements back), the rest to a background of
 * shorter flows of every other kind (applications, port forwards, pings,
 * traceroute, tunnels, scans, ...) and to odd frames (ARP, LCP, other
 * protocols, broken ones). A fixed number of flows is always active: the
 * bulk uploads in their own slots, each restarted when it ends, and the
 * background flows. Frames arrive in bursts (a few at a time between two
 * interrupts); each frame of a burst is a bulk one (the uploads in turn)
 * or, at the background's share, one of a background flow visited from a
 * random slot, one frame per flow and burst, so that the router never
 * sees a flow's frames out of order. A flow whose far side must answer
 * the router's translated packet waits until the wire has shown it
 * (gen_observe), as a real server learns the client's address from what
 * arrives. Everything comes from one seed.
 */
#include <stdio.h>
#include <string.h>

#include "apps.h"
#include "gen_int.h"

#define NBACKGROUND 24u
#define MAX_FLOWS (GEN_NBULK + NBACKGROUND)
/* Shares of the frames, in 1/1000: the bulk uploads, and odd frames
 * (emit_l2_misc); the rest is the background flows'. */
#ifndef BULK_SHARE
#define BULK_SHARE 880u
#endif
#define MISC_SHARE 5u
#define LCP_INTERVAL 48u     /* jiffies between the PPPoE peer's echoes */
#define MAX_EVENTS 256u

struct nb_rng gen_rng;

static struct flow flows[MAX_FLOWS];
static uint32_t serial_next = 1, id_next;
uint32_t gen_batch_no;
static struct {
	uint32_t serial;
	uint16_t slot;
	uint8_t dir;
} inflight[0x8000];
static uint8_t host_seen[NB_LAN_HOSTS + NB_NSERVERS];
static uint64_t nat_errors, route_errors, types_made[FT_NTYPES];
static uint32_t app_total;

enum { EV_ARP_REPLY, EV_ARP_ASK };
struct event {
	uint8_t kind, lan, uplink;
	uint8_t mac[6];
	uint32_t ip, tip;
};
static struct event evq[MAX_EVENTS];
static unsigned ev_head, ev_tail;
static unsigned bulk_next;
static uint32_t lcp_jiffy, lcp_id;
static uint64_t frames_bulk, frames_background, frames_other;

/* Share of new flows per type, in 1/1000. */
static const uint16_t type_share[FT_NTYPES] = {
	[FT_APP] = 880, [FT_INBOUND] = 30, [FT_PING] = 20, [FT_RPING] = 8,
	[FT_WPING] = 6, [FT_GENERIC] = 15, [FT_TRACE] = 6, [FT_PMTU] = 4,
	[FT_BOGON] = 6, [FT_BLOCKED] = 8, [FT_SCAN] = 10, [FT_STRAY] = 5,
	[FT_OPTS] = 2,
};

static void event(unsigned kind, int lan, unsigned uplink, const uint8_t *mac,
		  uint32_t ip, uint32_t tip)
{
	struct event *e;

	if (ev_tail - ev_head >= MAX_EVENTS)
		return;
	e = &evq[ev_tail++ % MAX_EVENTS];
	e->kind = (uint8_t)kind;
	e->lan = (uint8_t)lan;
	e->uplink = (uint8_t)uplink;
	memcpy(e->mac, mac, 6);
	e->ip = ip;
	e->tip = tip;
}

uint16_t gen_next_id(struct flow *f, int dir)
{
	uint32_t k = id_next++ % 0x8000u;

	inflight[k].serial = f->serial;
	inflight[k].slot = (uint16_t)(f - flows);
	inflight[k].dir = (uint8_t)dir;
	return (uint16_t)(GEN_ID_BASE + k);
}

static struct flow *flow_of_id(uint16_t id, int *dir)
{
	uint32_t k;
	struct flow *f;

	if (id < GEN_ID_BASE)
		return NULL;
	k = id - GEN_ID_BASE;
	f = &flows[inflight[k].slot];
	if (!inflight[k].serial || f->serial != inflight[k].serial)
		return NULL;
	*dir = inflight[k].dir;
	return f;
}

/* A random Internet address the router sends through uplink. */
uint32_t gen_remote_via(unsigned uplink)
{
	for (;;) {
		uint32_t a;
		int r;

		if (uplink == IF_PPP) {
			a = nb_rand(&gen_rng);
		} else {
			const struct nb_route_cfg *rc =
				&nb_routes[nb_rand(&gen_rng) % nb_nroutes];

			if (rc->oif != uplink || rc->type != RTN_UNICAST ||
			    rc->gw == 0)
				continue;
			a = rc->prefix | (nb_rand(&gen_rng) &
					  (rc->plen ? ~(0xffffffffu << (32 - rc->plen)) : ~0u));
		}
		if ((a & 0xff) == 0 || (a & 0xff) == 0xff || a >> 28 >= 0xe)
			continue;
		r = nb_route_find(a);
		if (r >= 0 && nb_routes[r].type == RTN_UNICAST &&
		    nb_routes[r].oif == uplink && a != nb_ifs[uplink].addr &&
		    a != nb_gw_ip[uplink] && (uplink != IF_PPP || nb_routes[r].plen == 0))
			return a;
	}
}

static unsigned pick_uplink(void)
{
	uint32_t r = nb_rand(&gen_rng) % 100;

	return r < 65 ? IF_PPP : r < 90 ? IF_WAN : IF_QINQ;
}

static unsigned pick_app(void)
{
	uint32_t x = nb_rand(&gen_rng) % app_total;
	unsigned a;

	for (a = 0; a + 1 < app_ndescs; a++) {
		if (x < app_descs[a].weight)
			break;
		x -= app_descs[a].weight;
	}
	return a;
}

static unsigned pick_type(void)
{
	uint32_t x = nb_rand(&gen_rng) % 1000;
	unsigned t;

	for (t = 0; t + 1 < FT_NTYPES; t++) {
		if (x < type_share[t])
			break;
		x -= type_share[t];
	}
	return t;
}

static unsigned app_of_port(unsigned proto, unsigned port)
{
	unsigned a;

	for (a = 0; a < app_ndescs; a++)
		if (app_descs[a].proto == proto && app_descs[a].port == port)
			return a;
	return 0;
}

static void new_flow(struct flow *f)
{
	const struct app_desc *ad;
	const struct nb_forward *fw;
	int bulk = f - flows < (long)GEN_NBULK;

	memset(f, 0, sizeof(*f));
	f->serial = serial_next++;
	f->type = (uint8_t)(bulk ? FT_BULK : pick_type());
	types_made[f->type]++;
	f->host = (uint8_t)(nb_rand(&gen_rng) % NB_LAN_HOSTS);
	f->ttl_c = 64;
	f->ttl_s = (uint8_t)nb_range(&gen_rng, 40, 60);
	f->ts = nb_rand(&gen_rng) % 2;
	f->df = 1;
	f->mss = 1460;
	f->cip = host_ip(f->host);
	f->cport = (uint16_t)nb_range(&gen_rng, 32768, 60999);
	f->uplink = (uint8_t)pick_uplink();
	f->sip = gen_remote_via(f->uplink);
	f->since = gen_batch_no;
	f->seq[0] = nb_rand(&gen_rng);
	f->seq[1] = nb_rand(&gen_rng);
	switch (f->type) {
	case FT_BULK:
		/* iperf: a few hosts upload to servers behind the IPoE
		 * uplink, with timestamps, for a long time. */
		f->host = (uint8_t)((f - flows) * 7 % NB_LAN_HOSTS);
		f->cip = host_ip(f->host);
		f->uplink = IF_WAN;
		f->sip = gen_remote_via(IF_WAN);
		f->proto = 6;
		f->sport = GEN_BULK_PORT;
		f->ts = 1;
		f->pkts = (uint16_t)nb_range(&gen_rng, 4000, 16000);
		break;
	case FT_APP:
		f->app = (uint8_t)pick_app();
		ad = &app_descs[f->app];
		f->proto = ad->proto;
		f->kind = ad->kind;
		f->sport = ad->port;
		f->tos = (uint8_t)(ad->dscp << 2);
		f->rounds = (uint16_t)nb_range(&gen_rng, ad->rounds[0],
					       ad->rounds[1]);
		if (f->proto == 17) {
			f->df = nb_rand(&gen_rng) % 2;
			f->zero_csum = nb_rand(&gen_rng) % 20 == 0;
		}
		break;
	case FT_INBOUND:
		fw = &nb_forwards[nb_rand(&gen_rng) % nb_nforwards];
		f->uplink = fw->oif;
		f->cip = gen_remote_via(f->uplink);
		f->sip = nb_ifs[f->uplink].addr;
		f->sport = fw->ext_port;
		f->lip = fw->host;
		f->lport = fw->int_port;
		f->host = (uint8_t)(NB_LAN_HOSTS + (fw->host & 0xff) -
				    NB_LAN_SERVER_BASE);
		f->proto = fw->proto;
		f->app = (uint8_t)app_of_port(fw->proto, fw->int_port);
		f->kind = app_descs[f->app].kind;
		f->rounds = (uint16_t)nb_range(&gen_rng, 1, 4);
		f->learned = 1;
		if (f->uplink == IF_PPP)
			f->mss = 1452;
		break;
	case FT_RPING:
		f->sip = 0xc0a80101u;
		f->rounds = (uint16_t)nb_range(&gen_rng, 2, 6);
		break;
	case FT_WPING:
	case FT_SCAN:
		f->cip = gen_remote_via(f->uplink);
		f->sip = nb_ifs[f->uplink].addr;
		f->proto = nb_rand(&gen_rng) % 3 ? 6 : 17;
		f->sport = (uint16_t)nb_range(&gen_rng, 1, 1023);
		f->rounds = (uint16_t)nb_range(&gen_rng, 2, 6);
		break;
	case FT_GENERIC:
		f->tunnel = (uint8_t)(nb_rand(&gen_rng) % 4);
		f->rounds = (uint16_t)nb_range(&gen_rng, 4, 30);
		break;
	case FT_TRACE:
		f->proto = 17;
		f->probe = 1;
		f->sport = 33435;
		break;
	case FT_PMTU:
		f->uplink = IF_PPP;
		f->sip = gen_remote_via(IF_PPP);
		f->proto = 17;
		f->sport = 4500;
		break;
	case FT_BOGON:
		switch (nb_rand(&gen_rng) % 3) {
		case 0: f->sip = 0x0a000000u | (nb_rand(&gen_rng) & 0xffffff); break;
		case 1: f->sip = 0xc0000200u | (nb_rand(&gen_rng) & 0xff); break;
		default: f->sip = 0xf0000000u | (nb_rand(&gen_rng) & 0xffffff); break;
		}
		f->proto = 6;
		f->sport = 443;
		break;
	case FT_BLOCKED:
		f->proto = 6;
		f->sport = nb_blocked_ports[nb_rand(&gen_rng) % nb_nblocked];
		break;
	case FT_STRAY:
		f->proto = 6;
		f->sport = 443;
		f->rounds = (uint16_t)nb_range(&gen_rng, 1, 3);
		break;
	default:  /* FT_PING, FT_OPTS */
		f->rounds = (uint16_t)nb_range(&gen_rng, 2, 8);
		break;
	}
	if (f->host < NB_LAN_HOSTS && !host_seen[f->host]) {
		uint8_t mac[6];

		host_seen[f->host] = 1;
		host_mac(mac, f->host);
		event(EV_ARP_ASK, 1, 0, mac, f->cip, nb_ifs[IF_LAN].addr);
	}
}


static unsigned host_of_ip(uint32_t ip)
{
	uint32_t last = ip & 0xff;

	if ((ip & 0xffffff00u) != 0xc0a80100u)
		return ~0u;
	if (last >= NB_LAN_HOST_BASE && last < NB_LAN_HOST_BASE + NB_LAN_HOSTS)
		return last - NB_LAN_HOST_BASE;
	if (last >= NB_LAN_SERVER_BASE &&
	    last < NB_LAN_SERVER_BASE + NB_NSERVERS)
		return NB_LAN_HOSTS + last - NB_LAN_SERVER_BASE;
	return ~0u;
}

static uint16_t rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)rd16(p) << 16 | rd16(p + 2);
}

/* The router asked who has an address: its owner answers next batch. */
static void observe_arp(const uint8_t *a, uint32_t len, int lan,
			unsigned uplink)
{
	uint32_t tip;
	uint8_t mac[6];
	unsigned h;

	if (len < 28 || rd16(a + 6) != 1)
		return;
	tip = rd32(a + 24);
	if (lan) {
		h = host_of_ip(tip);
		if (h == ~0u)
			return;
		host_mac(mac, h);
		event(EV_ARP_REPLY, 1, 0, mac, tip, rd32(a + 14));
	} else if (uplink < NB_NIFS && tip == nb_gw_ip[uplink]) {
		event(EV_ARP_REPLY, 0, uplink, nb_gw_mac[uplink], tip,
		      rd32(a + 14));
	}
}

static uint16_t tcp_mss(const uint8_t *th, uint32_t len)
{
	uint32_t doff = (uint32_t)(th[12] >> 4) * 4u, i = 20;

	while (i + 4 <= doff && doff <= len) {
		if (th[i] == 0)
			break;
		if (th[i] == 1) {
			i++;
			continue;
		}
		if (th[i] == 2 && th[i + 1] == 4)
			return rd16(th + i + 2);
		if (th[i + 1] < 2)
			break;
		i += th[i + 1];
	}
	return 0;
}

static void check(int ok, uint64_t *counter)
{
	if (!ok)
		(*counter)++;
}

static void observe_flow(struct flow *f, int dir, const uint8_t *ip,
			 uint32_t len, int lan, unsigned uplink)
{
	unsigned ihl = (ip[0] & 15u) * 4u, proto = ip[9];
	const uint8_t *l4 = ip + ihl;
	uint32_t src = rd32(ip + 12), dst = rd32(ip + 16);
	uint16_t sp = 0, dp = 0;
	int inbound = f->type == FT_INBOUND;

	if (proto == 6 || proto == 17) {
		sp = rd16(l4);
		dp = rd16(l4 + 2);
	} else if (proto == 1) {
		sp = dp = rd16(l4 + 4);
	}
	if (f->type == FT_RPING || f->type == FT_WPING) {
		if (proto == 1 && l4[0] == 0)
			f->answered = 1;
		return;
	}
	if (inbound) {
		if (dir == 0) {
			check(lan && dst == f->lip && dp == f->lport, &nat_errors);
			if (proto == 6 && l4[13] & 0x02 && tcp_mss(l4, len - ihl))
				f->mss = tcp_mss(l4, len - ihl);
		} else {
			check(!lan && src == f->sip && sp == f->sport, &nat_errors);
			check(uplink == f->uplink, &route_errors);
		}
		return;
	}
	if (dir == 1) {
		check(lan && dst == f->cip && (proto > 17 || dp == f->cport ||
					       f->type == FT_GENERIC),
		      &nat_errors);
		return;
	}
	check(!lan && uplink == f->uplink, &route_errors);
	check(src == nb_ifs[f->uplink].addr, &nat_errors);
	if (f->learned) {
		check(src == f->xip && (proto > 17 || sp == f->xport),
		      &nat_errors);
		return;
	}
	f->xip = src;
	f->xport = sp;
	f->learned = 1;
	if (proto == 6 && l4[13] & 0x02) {
		uint16_t mss = tcp_mss(l4, len - ihl);

		if (mss && mss < f->mss)
			f->mss = mss;
	}
	if (f->type == FT_TRACE)
		memcpy(f->quote, ip, sizeof(f->quote));
}

static void observe_ip(const uint8_t *ip, uint32_t len, int lan,
		       unsigned uplink)
{
	unsigned ihl, proto;
	const uint8_t *l4;
	struct flow *f;
	int dir;
	unsigned i;

	if (len < 20 || (ip[0] >> 4) != 4)
		return;
	ihl = (ip[0] & 15u) * 4u;
	proto = ip[9];
	l4 = ip + ihl;
	if (len < ihl + 8)
		return;
	if (proto == 1 && (l4[0] == 3 || l4[0] == 11 || l4[0] == 12)) {
		if (len < ihl + 8 + 20)
			return;
		f = flow_of_id(rd16(l4 + 8 + 4), &dir);
		if (f)
			f->answered = 1;
		return;
	}
	if (proto == 6 && l4[13] & 0x04 && rd16(ip + 4) < GEN_ID_BASE) {
		/* A reset the router made: whose connection was it? */
		uint32_t dst = rd32(ip + 16);
		uint16_t dp = rd16(l4 + 2);

		for (i = 0; i < MAX_FLOWS; i++) {
			f = &flows[i];
			if (f->serial && f->cip == dst && f->cport == dp &&
			    (f->type == FT_BLOCKED || f->type == FT_SCAN))
				f->answered = 1;
		}
		return;
	}
	f = flow_of_id(rd16(ip + 4), &dir);
	if (f)
		observe_flow(f, dir, ip, len, lan, uplink);
}

void gen_observe(const uint8_t *fr, uint32_t len)
{
	uint32_t off = 18;
	uint16_t type, vid, inner = 0;
	unsigned uplink;
	int pppoe = 0;

	if (len < 22 || rd16(fr + 12) != 0x8100)
		return;
	vid = rd16(fr + 14) & 0x0fff;
	type = rd16(fr + 16);
	if (type == 0x8100) {
		inner = rd16(fr + 18) & 0x0fff;
		type = rd16(fr + 20);
		off = 22;
	}
	if (type == 0x8864) {
		if (len < off + 8 || rd16(fr + off + 6) != 0x0021)
			return;  /* LCP echo replies and such */
		pppoe = 1;
		type = 0x0800;
		off += 8;
	}
	uplink = vid == 1 ? IF_LAN : pppoe ? IF_PPP : inner == 100 ? IF_QINQ
								    : IF_WAN;
	if (type == 0x0806)
		observe_arp(fr + off, len - off, vid == 1, uplink);
	else if (type == 0x0800)
		observe_ip(fr + off, len - off, vid == 1, uplink);
}

static unsigned run_events(unsigned max)
{
	unsigned n = 0;

	while (ev_head != ev_tail && n < max) {
		const struct event *e = &evq[ev_head++ % MAX_EVENTS];

		if (e->kind == EV_ARP_REPLY)
			emit_arp(2, e->lan, e->uplink, e->mac, e->ip,
				 gen_router_mac, e->tip);
		else
			emit_arp(1, 1, 0, e->mac, e->ip, gen_router_mac,
				 e->tip);
		n++;
	}
	return n;
}

/* One frame of a flow, if it has one to send now: 1 if it did. A
 * finished flow's slot gets a new flow next time. One frame per flow and
 * burst: the router has forwarded a burst before the far ends react to
 * it (a reply must not overtake, on the other CPU, what it answers). */
static int flow_send(struct flow *f)
{
	int r;

	if (f->serial && f->sent_in == gen_batch_no)
		return 0;
	if (!f->serial)
		new_flow(f);
	r = flow_step(f);
	if (r > 0)
		f->sent_in = gen_batch_no;
	if (r == 2 || r < 0)
		f->serial = 0;
	return r > 0;
}

/* The bulk uploads in turn. */
static int bulk_send(void)
{
	unsigned k;

	for (k = 0; k < GEN_NBULK; k++) {
		unsigned slot = (bulk_next + k) % GEN_NBULK;

		if (flow_send(&flows[slot])) {
			bulk_next = (slot + 1) % GEN_NBULK;
			frames_bulk++;
			return 1;
		}
	}
	return 0;
}

/* A background flow from a random slot on. */
static int background_send(void)
{
	unsigned start = nb_rand(&gen_rng) % NBACKGROUND, k;

	for (k = 0; k < NBACKGROUND; k++) {
		if (flow_send(&flows[GEN_NBULK + (start + k) % NBACKGROUND])) {
			frames_background++;
			return 1;
		}
	}
	return 0;
}

unsigned gen_burst(void)
{
	uint32_t r = nb_rand(&gen_rng) % 100;

	if (r < 60)
		return 1;
	if (r < 85)
		return 2;
	if (r < 93)
		return 3;
	if (r < 97)
		return 4;
	return nb_range(&gen_rng, 5, 12);
}

unsigned gen_batch(unsigned max)
{
	unsigned n;

	gen_batch_no++;
	n = run_events(max);
	if (n < max && nb_jiffies - lcp_jiffy >= LCP_INTERVAL) {
		lcp_jiffy = nb_jiffies;
		emit_lcp_echo(++lcp_id);
		frames_other++;
		n++;
	}
	while (n < max) {
		uint32_t r = nb_rand(&gen_rng) % 1000;

		if (r < MISC_SHARE) {
			emit_l2_misc(nb_rand(&gen_rng) % 16);
			frames_other++;
		} else if (r < MISC_SHARE + BULK_SHARE) {
			if (!bulk_send() && !background_send())
				break;
		} else if (!background_send() && !bulk_send()) {
			break;
		}
		n++;
	}
	return n;
}

void gen_init(uint64_t seed)
{
	unsigned a;

	gen_rng.s = seed * 0x9e3779b97f4a7c15ull + 0x67656eull;
	app_total = 0;
	for (a = 0; a < app_ndescs; a++)
		app_total += app_descs[a].weight;
}

uint64_t gen_errors(void)
{
	return nat_errors + route_errors;
}

void gen_report(void)
{
	static const char *const names[FT_NTYPES] = {
		"app", "inbound", "ping", "rping", "wping", "tunnel", "trace",
		"pmtu", "bogon", "blocked", "scan", "stray", "opts", "bulk",
	};
	unsigned t;

	fprintf(stderr, "gen: batches=%u flows=%u nat_errors=%llu "
		"route_errors=%llu\ngen: flows by type:", gen_batch_no,
		serial_next - 1, (unsigned long long)nat_errors,
		(unsigned long long)route_errors);
	for (t = 0; t < FT_NTYPES; t++)
		fprintf(stderr, " %s=%llu", names[t],
			(unsigned long long)types_made[t]);
	fprintf(stderr, "\ngen: frames bulk=%llu background=%llu other=%llu\n",
		(unsigned long long)frames_bulk,
		(unsigned long long)frames_background,
		(unsigned long long)frames_other);
}
