/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Frame building for the generator: link headers as the switch delivers
 * them (802.1Q VID 1 from the LAN; VID 2 from the WAN, with a PPPoE session
 * or an inner VID 100), IPv4 with valid checksums, TCP / UDP / ICMP,
 * tunnels, ARP, LCP and the odd frames a real port also sees.
 */
#include <string.h>

#include "apps.h"
#include "gen_int.h"

uint8_t gen_router_mac[6] = { 0x02, 0, 0, 0, 0, 0x01 };
static uint8_t fill_pool[4096];

void host_mac(uint8_t *mac, unsigned host)
{
	mac[0] = 0x02;
	mac[1] = mac[2] = mac[3] = 0;
	mac[4] = 0x01;
	mac[5] = (uint8_t)host;
}

uint32_t host_ip(unsigned host)
{
	if (host < NB_LAN_HOSTS)
		return 0xc0a80100u + NB_LAN_HOST_BASE + host;
	return 0xc0a80100u + NB_LAN_SERVER_BASE + (host - NB_LAN_HOSTS);
}

static void put16(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, v >> 16);
	put16(p + 2, v);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

/* RFC 1071 sum: 32-bit halves of 64-bit native words into a 64-bit
 * accumulator, folded, then put in network order (the sum does not care
 * about byte order until the end). sum is in network order. */
uint16_t pkt_csum(const uint8_t *d, uint32_t n, uint32_t sum)
{
	uint64_t s = 0;
	uint32_t i = 0, r;
	uint16_t h;
	uint8_t b[2];

	for (; i + 32 <= n; i += 32) {
		uint32_t w[8];

		memcpy(w, d + i, 32);
		s += (uint64_t)w[0] + w[1] + w[2] + w[3];
		s += (uint64_t)w[4] + w[5] + w[6] + w[7];
	}
	for (; i + 8 <= n; i += 8) {
		uint64_t w;

		memcpy(&w, d + i, 8);
		s += (uint32_t)w;
		s += w >> 32;
	}
	for (; i + 1 < n; i += 2) {
		memcpy(&h, d + i, 2);
		s += h;
	}
	if (i < n) {
		/* The high byte of a network-order word, as a native word. */
		b[0] = d[i];
		b[1] = 0;
		memcpy(&h, b, 2);
		s += h;
	}
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	/* Native to network order: the folded sum's two bytes as they lie
	 * in memory, read big-endian (a swap on a little-endian machine,
	 * nothing on a big-endian one). */
	h = (uint16_t)s;
	memcpy(b, &h, 2);
	r = (uint32_t)b[0] << 8 | b[1];
	r += sum;
	while (r >> 16)
		r = (r & 0xffff) + (r >> 16);
	return (uint16_t)~r;
}

void pkt_fill(uint8_t *d, uint32_t n)
{
	uint32_t off = nb_rand(&gen_rng) % 2048;

	if (!fill_pool[1]) {
		struct nb_rng r = { 0x66696c6cull };
		uint32_t i;

		for (i = 0; i < sizeof(fill_pool); i++)
			fill_pool[i] = (uint8_t)nb_rand(&r);
	}
	while (n) {
		uint32_t k = n < 2048 ? n : 2048;

		memcpy(d, fill_pool + off, k);
		d += k;
		n -= k;
	}
}

static void put_mac(uint8_t *d, const uint8_t *m)
{
	memcpy(d, m, 6);
}

void pkt_l2_lan(struct gpkt *p, const uint8_t *src_mac, uint16_t type)
{
	put_mac(p->f, gen_router_mac);
	put_mac(p->f + 6, src_mac);
	put16(p->f + 12, 0x8100);
	put16(p->f + 14, 1);
	put16(p->f + 16, type);
	p->l3 = p->len = 18;
	p->pppoe = 0;
}

void pkt_l2_wan(struct gpkt *p, unsigned uplink, uint16_t type)
{
	put_mac(p->f, gen_router_mac);
	put_mac(p->f + 6, nb_gw_mac[uplink]);
	put16(p->f + 12, 0x8100);
	put16(p->f + 14, 2);
	p->pppoe = 0;
	if (uplink == IF_PPP) {
		put16(p->f + 16, 0x8864);
		p->f[18] = 0x11;
		p->f[19] = 0;
		put16(p->f + 20, nb_ifs[IF_PPP].sid);
		put16(p->f + 22, 0);
		put16(p->f + 24, type == 0x0800 ? 0x0021 : type);
		p->pppoe = 18;
		p->l3 = 26;
	} else if (uplink == IF_QINQ) {
		put16(p->f + 16, 0x8100);
		put16(p->f + 18, 100);
		put16(p->f + 20, type);
		p->l3 = 22;
	} else {
		put16(p->f + 16, type);
		p->l3 = 18;
	}
	p->len = p->l3;
}

void pkt_ip(struct gpkt *p, uint32_t src, uint32_t dst, unsigned proto,
	    unsigned ttl, unsigned tos, uint16_t id, int df, unsigned optlen)
{
	uint8_t *h = p->f + p->l3;

	h[0] = (uint8_t)(0x40 | (20 + optlen) / 4);
	h[1] = (uint8_t)tos;
	put16(h + 4, id);
	put16(h + 6, df ? 0x4000 : 0);
	h[8] = (uint8_t)ttl;
	h[9] = (uint8_t)proto;
	put32(h + 12, src);
	put32(h + 16, dst);
	memset(h + 20, 0, optlen);
	p->l4 = p->l3 + 20 + optlen;
}

void pkt_ip_done(struct gpkt *p, uint32_t l4len)
{
	uint8_t *h = p->f + p->l3;
	uint32_t hl = (h[0] & 15u) * 4u, tot = hl + l4len;

	put16(h + 2, tot);
	put16(h + 10, 0);
	put16(h + 10, pkt_csum(h, hl, 0));
	p->len = p->l3 + tot;
	if (p->pppoe)
		put16(p->f + p->pppoe + 4, tot + 2);
}

void pkt_l4_csum(struct gpkt *p, uint32_t l4len, unsigned csum_off)
{
	const uint8_t *h = p->f + p->l3;
	uint8_t *l4 = p->f + p->l4;
	uint32_t sum = (get32(h + 12) >> 16) + (get32(h + 12) & 0xffff) +
		       (get32(h + 16) >> 16) + (get32(h + 16) & 0xffff) +
		       h[9] + l4len;
	uint16_t c;

	put16(l4 + csum_off, 0);
	c = pkt_csum(l4, l4len, sum);
	if (h[9] == 17 && c == 0)
		c = 0xffff;
	put16(l4 + csum_off, c);
}

static int push(struct gpkt *p)
{
	while (p->len < 60)
		p->f[p->len++] = 0;  /* the MAC pads short frames */
	return nic_rx_push(p->f, p->len);
}

/* Link header and addresses of a packet of flow f in direction dir
 * (0: client to server). Returns 1 if the sender is on the LAN. */
static int flow_l2(struct gpkt *p, const struct flow *f, int dir,
		   uint32_t *src, uint16_t *sp, uint32_t *dst, uint16_t *dp)
{
	uint8_t mac[6];
	int inbound = f->type == FT_INBOUND || f->type == FT_WPING ||
		      f->type == FT_SCAN;
	int lan = inbound ? dir == 1 : dir == 0;

	if (!inbound) {
		*src = dir ? f->sip : f->cip;
		*sp = dir ? f->sport : f->cport;
		*dst = dir ? f->xip : f->sip;
		*dp = dir ? f->xport : f->sport;
	} else {
		*src = dir ? f->lip : f->cip;
		*sp = dir ? f->lport : f->cport;
		*dst = dir ? f->cip : f->sip;
		*dp = dir ? f->cport : f->sport;
	}
	if (lan) {
		host_mac(mac, f->host);
		pkt_l2_lan(p, mac, 0x0800);
	} else {
		pkt_l2_wan(p, f->uplink, 0x0800);
	}
	return lan;
}

int emit_tcp(struct flow *f, int dir, unsigned flags, uint32_t paylen,
	     const struct app_msg *msg)
{
	struct gpkt p;
	uint32_t src, dst, optlen, maxpay, mlen = 0, seg;
	uint16_t sp, dp;
	int lan = flow_l2(&p, f, dir, &src, &sp, &dst, &dp);
	uint8_t *th, *o;

	optlen = flags & 0x02 ? 20u : f->ts ? 12u : 0u;
	pkt_ip(&p, src, dst, 6, lan ? f->ttl_c : f->ttl_s, f->tos,
	       gen_next_id(f, dir), 1, 0);
	th = p.f + p.l4;
	maxpay = f->mss - optlen;
	if (paylen > maxpay)
		paylen = maxpay;
	if (msg) {
		int n = gen_msg(th + 20 + optlen, maxpay, msg, &gen_rng,
				f->cip, f->cport);

		mlen = n < 0 ? 0 : (uint32_t)n;
	}
	if (paylen < mlen)
		paylen = mlen;
	pkt_fill(th + 20 + optlen + mlen, paylen - mlen);
	put16(th, sp);
	put16(th + 2, dp);
	put32(th + 4, f->seq[dir]);
	put32(th + 8, flags & 0x10 ? f->seq[!dir] : 0);
	th[12] = (uint8_t)((20 + optlen) / 4 << 4);
	th[13] = (uint8_t)flags;
	put16(th + 14, flags & 0x02 ? (dir ? 65160 : 64240) : 502);
	put16(th + 18, 0);
	o = th + 20;
	if (flags & 0x02) {
		o[0] = 2; o[1] = 4;
		put16(o + 2, lan ? 1460 : (f->mss < 1460 ? f->mss : 1460));
		o[4] = 4; o[5] = 2;
		o[6] = 8; o[7] = 10;
		put32(o + 8, nb_rand(&gen_rng));
		put32(o + 12, 0);
		o[16] = 1;
		o[17] = 3; o[18] = 3; o[19] = 7;
	} else if (f->ts) {
		o[0] = 1; o[1] = 1; o[2] = 8; o[3] = 10;
		put32(o + 4, nb_rand(&gen_rng));
		put32(o + 8, nb_rand(&gen_rng));
	}
	seg = 20 + optlen + paylen;
	pkt_ip_done(&p, seg);
	pkt_l4_csum(&p, seg, 16);
	f->seq[dir] += paylen + !!(flags & 0x02) + !!(flags & 0x01);
	return push(&p);
}

int emit_udp(struct flow *f, int dir, uint32_t paylen,
	     const struct app_msg *msg, unsigned ttl)
{
	struct gpkt p;
	uint32_t src, dst, mlen = 0, maxpay;
	uint16_t sp, dp;
	int lan = flow_l2(&p, f, dir, &src, &sp, &dst, &dp);
	uint8_t *uh;

	if (!ttl)
		ttl = lan ? f->ttl_c : f->ttl_s;
	pkt_ip(&p, src, dst, 17, ttl, f->tos, gen_next_id(f, dir), f->df, 0);
	uh = p.f + p.l4;
	maxpay = (f->uplink == IF_PPP ? 1492u : 1500u) - 28u;
	if (f->type == FT_PMTU)
		maxpay = 1472;  /* on purpose: too big for PPPoE */
	if (paylen > maxpay)
		paylen = maxpay;
	if (msg) {
		int n = gen_msg(uh + 8, maxpay, msg, &gen_rng, f->cip, f->cport);

		mlen = n < 0 ? 0 : (uint32_t)n;
	}
	if (paylen < mlen)
		paylen = mlen;
	pkt_fill(uh + 8 + mlen, paylen - mlen);
	put16(uh, sp);
	put16(uh + 2, dp);
	put16(uh + 4, 8 + paylen);
	pkt_ip_done(&p, 8 + paylen);
	if (f->zero_csum)
		put16(uh + 6, 0);
	else
		pkt_l4_csum(&p, 8 + paylen, 6);
	return push(&p);
}

int emit_icmp_echo(struct flow *f, int dir, unsigned type)
{
	struct gpkt p;
	uint32_t src, dst, optlen = f->type == FT_OPTS && dir == 0 ? 40 : 0;
	uint16_t sp, dp, id;
	int lan = flow_l2(&p, f, dir, &src, &sp, &dst, &dp);
	uint8_t *ih;

	if (f->type == FT_RPING)
		dst = 0xc0a80101u;
	pkt_ip(&p, src, dst, 1, lan ? f->ttl_c : f->ttl_s, 0,
	       gen_next_id(f, dir), 0, optlen);
	if (optlen) {
		uint8_t *rr = p.f + p.l3 + 20;

		rr[0] = 7;   /* record route, nine slots */
		rr[1] = 39;
		rr[2] = 4;
	}
	ih = p.f + p.l4;
	id = f->type == FT_PING || f->type == FT_OPTS ? (dir ? f->xport : f->cport)
						      : f->cport;
	ih[0] = (uint8_t)type;
	ih[1] = 0;
	put16(ih + 4, id);
	put16(ih + 6, f->probe);
	pkt_fill(ih + 8, 56);
	pkt_ip_done(&p, 64);
	put16(ih + 2, 0);
	put16(ih + 2, pkt_csum(ih, 64, 0));
	return push(&p);
}

/* An ICMP error from the Internet about a packet of f, as seen there. */
int emit_icmp_error(struct flow *f, uint32_t from, unsigned type,
		    unsigned code)
{
	struct gpkt p;
	uint8_t *ih;

	pkt_l2_wan(&p, f->uplink, 0x0800);
	pkt_ip(&p, from, f->xip, 1, f->ttl_s, 0, gen_next_id(f, 1), 0, 0);
	ih = p.f + p.l4;
	ih[0] = (uint8_t)type;
	ih[1] = (uint8_t)code;
	put32(ih + 4, 0);
	memcpy(ih + 8, f->quote, 28);
	pkt_ip_done(&p, 36);
	put16(ih + 2, 0);
	put16(ih + 2, pkt_csum(ih, 36, 0));
	return push(&p);
}

int emit_tunnel(struct flow *f, int dir)
{
	static const uint8_t proto[4] = { 47, 50, 4, 41 };
	struct gpkt p;
	uint32_t src, dst, len = nb_range(&gen_rng, 80, 1200);
	uint16_t sp, dp;
	int lan = flow_l2(&p, f, dir, &src, &sp, &dst, &dp);
	uint8_t *t;

	pkt_ip(&p, src, dst, proto[f->tunnel], lan ? f->ttl_c : f->ttl_s, 0,
	       gen_next_id(f, dir), 1, 0);
	t = p.f + p.l4;
	pkt_fill(t, len);
	switch (f->tunnel) {
	case 0:  /* GRE with a key, carrying IPv4 */
		put16(t, 0x2000);
		put16(t + 2, 0x0800);
		put32(t + 4, f->cport);
		t[8] = 0x45;
		break;
	case 1:  /* ESP: SPI and sequence */
		put32(t, 0x1000u + f->cport + (uint32_t)dir);
		put32(t + 4, f->probe);
		break;
	case 2:  /* IP in IP */
		t[0] = 0x45;
		break;
	default:  /* IPv6 in IPv4 */
		t[0] = 0x60;
		t[6] = 17;
		break;
	}
	f->probe++;
	pkt_ip_done(&p, len);
	return push(&p);
}

int emit_arp(unsigned op, int lan, unsigned uplink, const uint8_t *sha,
	     uint32_t sip, const uint8_t *tha, uint32_t tip)
{
	struct gpkt p;
	uint8_t *a;

	if (lan)
		pkt_l2_lan(&p, sha, 0x0806);
	else
		pkt_l2_wan(&p, uplink, 0x0806);
	if (op == 1) {
		memset(p.f, 0xff, 6);
	}
	a = p.f + p.l3;
	put16(a, 1);
	put16(a + 2, 0x0800);
	a[4] = 6;
	a[5] = 4;
	put16(a + 6, op);
	put_mac(a + 8, sha);
	put32(a + 14, sip);
	put_mac(a + 18, tha);
	put32(a + 24, tip);
	p.len = p.l3 + 28;
	return push(&p);
}

int emit_lcp_echo(uint32_t id)
{
	struct gpkt p;
	uint8_t *l;

	pkt_l2_wan(&p, IF_PPP, 0xc021);
	l = p.f + p.l3;
	l[0] = 9;
	l[1] = (uint8_t)id;
	put16(l + 2, 8);
	put32(l + 4, 0xacacacacu);
	put16(p.f + p.pppoe + 4, 10);
	p.len = p.l3 + 8;
	return push(&p);
}

/* Frames a switch port sees besides IPv4: discovery protocols, IPv6,
 * tunnels of other kinds, broken or misaddressed frames. */
int emit_l2_misc(unsigned kind)
{
	static const uint16_t types[] = { 0x8847, 0x8906, 0x88ca, 0x4305,
					  0x88f7, 0x888e, 0x9000, 0x8863 };
	struct gpkt p;
	uint8_t mac[6], *d;
	unsigned host = nb_rand(&gen_rng) % NB_LAN_HOSTS, i;

	host_mac(mac, host);
	switch (kind) {
	case 0:  /* LLDP from the switch */
		pkt_l2_lan(&p, nb_switch_mac, 0x88cc);
		p.f[0] = 0x01; p.f[1] = 0x80; p.f[2] = 0xc2;
		p.f[3] = 0; p.f[4] = 0; p.f[5] = 0x0e;
		d = p.f + p.l3;
		d[0] = 1 << 1; d[1] = 7; d[2] = 4;
		put_mac(d + 3, nb_switch_mac);
		d[9] = 2 << 1; d[10] = 3; d[11] = 7; d[12] = '1'; d[13] = '0';
		d[14] = 3 << 1; d[15] = 2; put16(d + 16, 120);
		d[18] = 0; d[19] = 0;
		p.len = p.l3 + 20;
		break;
	case 1:  /* IPv6 router solicitation from a host */
		pkt_l2_lan(&p, mac, 0x86dd);
		p.f[0] = 0x33; p.f[1] = 0x33; p.f[2] = 0; p.f[3] = 0;
		p.f[4] = 0; p.f[5] = 2;
		d = p.f + p.l3;
		memset(d, 0, 48);
		d[0] = 0x60; put16(d + 4, 8); d[6] = 58; d[7] = 255;
		d[8] = 0xfe; d[9] = 0x80; put_mac(d + 18, mac);
		d[24] = 0xff; d[25] = 0x02; d[39] = 2;
		d[40] = 133;
		p.len = p.l3 + 48;
		break;
	case 2: case 3: case 4: case 5: case 6: case 7: case 8: case 9:
		pkt_l2_lan(&p, mac, types[kind - 2]);
		if (kind == 9)
			memset(p.f, 0xff, 6);
		d = p.f + p.l3;
		pkt_fill(d, 64);
		if (kind == 5) {  /* batman-adv unicast carrying IPv4/UDP */
			put16(d + 22, 0x0800);
			d[24] = 0x45;
			d[33] = 17;
		}
		p.len = p.l3 + 64;
		break;
	case 10:  /* untagged: the CPU port only carries tagged frames */
		put_mac(p.f, gen_router_mac);
		put_mac(p.f + 6, mac);
		put16(p.f + 12, 0x0800);
		pkt_fill(p.f + 14, 46);
		p.len = 60;
		break;
	case 11:  /* a VLAN nobody configured */
		pkt_l2_lan(&p, mac, 0x0800);
		put16(p.f + 14, 7);
		pkt_fill(p.f + 18, 46);
		p.len = 64;
		break;
	case 12:  /* unicast to another station (flooded by the switch) */
		pkt_l2_lan(&p, mac, 0x0800);
		host_mac(p.f, (host + 1) % NB_LAN_HOSTS);
		pkt_fill(p.f + 18, 46);
		p.len = 64;
		break;
	case 13:  /* IPv4 with a broken header checksum */
	case 14:  /* IPv4 with a header length below five words */
		pkt_l2_lan(&p, mac, 0x0800);
		pkt_ip(&p, host_ip(host), 0x08080808u, 17, 64, 0,
		       (uint16_t)nb_rand(&gen_rng), 0, 0);
		pkt_fill(p.f + p.l4, 40);
		pkt_ip_done(&p, 40);
		if (kind == 13)
			p.f[p.l3 + 10] ^= 0x5a;
		else
			p.f[p.l3] = 0x44;
		break;
	default:  /* IPv6 over the PPPoE session */
		pkt_l2_wan(&p, IF_PPP, 0x0057);
		d = p.f + p.l3;
		memset(d, 0, 40);
		d[0] = 0x60; d[6] = 59; d[7] = 64;
		for (i = 8; i < 40; i++)
			d[i] = (uint8_t)nb_rand(&gen_rng);
		put16(p.f + p.pppoe + 4, 42);
		p.len = p.l3 + 40;
		break;
	}
	return push(&p);
}
