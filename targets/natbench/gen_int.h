/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The traffic generator's internals, shared by gen.c (flows, scheduling,
 * what the wire shows) and gen_pkt.c (frame building). Harness only.
 */
#ifndef GEN_INT_H
#define GEN_INT_H

#include <stdint.h>

#include "harness.h"

#define FRAME_MAX 1600u
#define GEN_ID_BASE 0x8000u  /* IP ids of generated packets: 0x8000.. */

enum ftype {
	FT_APP,      /* LAN client, Internet server, an application */
	FT_INBOUND,  /* Internet client to a port forward */
	FT_PING,     /* LAN host pings the Internet */
	FT_RPING,    /* LAN host pings the router */
	FT_WPING,    /* the Internet pings the router's WAN address */
	FT_GENERIC,  /* tunnels: GRE, ESP, IP-in-IP, 6in4 */
	FT_TRACE,    /* traceroute: UDP probes with growing TTL */
	FT_PMTU,     /* DF datagrams too big for the PPPoE link */
	FT_BOGON,    /* to unreachable / prohibited destinations */
	FT_BLOCKED,  /* to a port the firewall rejects */
	FT_SCAN,     /* the Internet probes closed WAN ports */
	FT_STRAY,    /* a TCP segment of no connection */
	FT_OPTS,     /* a ping with the record-route option */
	FT_BULK,     /* iperf: a long TCP upload, LAN client to Internet */
	FT_NTYPES
};

#define GEN_NBULK 4u         /* concurrent bulk uploads (iperf -P 4) */
#define GEN_BULK_PORT 5201u  /* iperf3's */

struct flow {
	uint32_t serial;     /* 0: free slot */
	uint8_t type, app, proto, uplink;
	uint8_t state, host, ts, zero_csum;
	uint8_t df, tos, ttl_c, ttl_s;
	uint8_t learned, tunnel, answered, kind;
	uint32_t cip, sip, xip, lip;
	uint16_t cport, sport, xport, lport;
	uint32_t seq[2];
	uint16_t mss, rounds, pkts, unacked, probe, id_icmp;
	uint32_t since;      /* batch the current wait began */
	uint32_t sent_in;    /* batch it last sent a frame in */
	uint8_t quote[28];   /* a probe as the Internet saw it */
};

struct gpkt {
	uint8_t f[FRAME_MAX];
	uint32_t len;        /* frame bytes written */
	uint32_t l3;         /* IP header offset */
	uint32_t l4;         /* L4 header offset */
	uint32_t pppoe;      /* PPPoE header offset, 0 none */
};

extern struct nb_rng gen_rng;
extern uint32_t gen_batch_no;

/* A random Internet address the router reaches through uplink. */
uint32_t gen_remote_via(unsigned uplink);
/* The next packet of a flow: 1 sent, 2 sent and finished, 0 waiting,
 * -1 finished (gen_flow.c). */
int flow_step(struct flow *f);
extern uint8_t gen_router_mac[6];

void host_mac(uint8_t *mac, unsigned host);
uint32_t host_ip(unsigned host);

/* Frames: link header from a LAN host or from an uplink's far end, then an
 * IPv4 header (optlen bytes of options left zero), then pkt_ip_done() once
 * the L4 part of l4len bytes is written (lengths and checksums). */
void pkt_l2_lan(struct gpkt *p, const uint8_t *src_mac, uint16_t type);
void pkt_l2_wan(struct gpkt *p, unsigned uplink, uint16_t type);
void pkt_ip(struct gpkt *p, uint32_t src, uint32_t dst, unsigned proto,
	    unsigned ttl, unsigned tos, uint16_t id, int df, unsigned optlen);
void pkt_ip_done(struct gpkt *p, uint32_t l4len);
/* L4 checksum over the pseudo-header and l4len bytes at p->l4. */
void pkt_l4_csum(struct gpkt *p, uint32_t l4len, unsigned csum_off);
uint16_t pkt_csum(const uint8_t *d, uint32_t n, uint32_t sum);
void pkt_fill(uint8_t *d, uint32_t n);

/* Builders for the flows (gen_pkt.c): each puts one frame on the ring. */
int emit_tcp(struct flow *f, int dir, unsigned flags, uint32_t paylen,
	     const struct app_msg *msg);
int emit_udp(struct flow *f, int dir, uint32_t paylen,
	     const struct app_msg *msg, unsigned ttl);
int emit_icmp_echo(struct flow *f, int dir, unsigned type);
int emit_icmp_error(struct flow *f, uint32_t from, unsigned type,
		    unsigned code);
int emit_tunnel(struct flow *f, int dir);
int emit_arp(unsigned op, int lan, unsigned uplink, const uint8_t *sha,
	     uint32_t sip, const uint8_t *tha, uint32_t tip);
int emit_lcp_echo(uint32_t id);
int emit_l2_misc(unsigned kind);

uint16_t gen_next_id(struct flow *f, int dir);

#endif
