/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * natbench harness: the router's configuration, the traffic generator
 * (the LAN hosts, the Internet and the NIC's receive DMA), the wire that
 * takes transmitted frames off the ring, and the checksum verifier. None of
 * this is fast-path code: it lives outside fp_* files and is not scored.
 */
#ifndef HARNESS_H
#define HARNESS_H

#include <stdint.h>

#include "nb.h"

/* ---- configuration (config.c) ---- */

#define NB_LAN_HOSTS 48u
#define NB_LAN_HOST_BASE 100u   /* 192.168.1.100 .. */
#define NB_LAN_SERVER_BASE 10u  /* 192.168.1.10 .. (port forward targets) */
#define NB_NSERVERS 4u

struct nb_route_cfg {
	uint32_t prefix;
	uint8_t plen, type, oif;
	uint32_t gw;
};

struct nb_forward {
	uint8_t proto, oif;
	uint16_t ext_port;
	uint32_t host;
	uint16_t int_port;
};

#define NB_MAX_ROUTES 256u
extern struct nb_route_cfg nb_routes[NB_MAX_ROUTES];
extern unsigned nb_nroutes;
extern struct nb_forward nb_forwards[];
extern const unsigned nb_nforwards;
extern uint8_t nb_gw_mac[NB_NIFS][6];
extern uint32_t nb_gw_ip[NB_NIFS];
extern uint8_t nb_switch_mac[6];
/* Ports the firewall rejects from the LAN (the generator's blocked flows). */
extern const uint16_t nb_blocked_ports[];
extern const unsigned nb_nblocked;

/* Sets up interfaces, routes, netfilter hooks and tables, conntrack, the
 * qdisc and the receive ring. Same result for every traffic seed. */
void nb_config(void);
/* The firewall's tables (config_rules.c), called by nb_config(). */
void nb_config_rules(void);

/* Longest-prefix match over the configured routes (slow, for the
 * generator): index into nb_routes or -1. */
int nb_route_find(uint32_t dst);

/* ---- random numbers, for generator and configuration ---- */

struct nb_rng {
	uint64_t s;          /* any value; 0 is remapped */
};

/* xorshift64* (Vigna 2016): cheap, and the harness draws a lot. */
static inline uint32_t nb_rand(struct nb_rng *r)
{
	uint64_t x = r->s ? r->s : 0x9e3779b97f4a7c15ull;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	r->s = x;
	return (uint32_t)((x * 0x2545f4914f6cdd1dull) >> 32);
}

/* Uniform in [lo, hi] (up to the modulo bias, which does not matter). */
static inline uint32_t nb_range(struct nb_rng *r, uint32_t lo, uint32_t hi)
{
	return lo + nb_rand(r) % (hi - lo + 1);
}

/* ---- traffic generator (gen.c, gen_msg.c) ---- */

void gen_init(uint64_t seed);
/* How many frames arrive before the NIC interrupts next. */
unsigned gen_burst(void);
/* Puts up to max frames on the receive ring; returns how many. */
unsigned gen_batch(unsigned max);
/* Learns from a frame the router transmitted. */
void gen_observe(const uint8_t *frame, uint32_t len);
/* Problems seen on the wire (wrong translations); 0 when all is well. */
uint64_t gen_errors(void);
void gen_report(void);

struct app_msg;
/* Builds one message of a grammar at p (room bytes): its length, or -1 if
 * it does not fit. addr/port: the client endpoint for FK_ADDR fields. */
int gen_msg(uint8_t *p, uint32_t room, const struct app_msg *m,
	    struct nb_rng *r, uint32_t addr, uint16_t port);

/* Puts a frame on the receive ring, as the NIC's DMA does: 0, or -1 if
 * the ring is full. */
int nic_rx_push(const uint8_t *frame, uint32_t len);

/* ---- wire (wire.c) and verifier (verify.c) ---- */

struct wire_totals {
	uint64_t frames, bytes;
	uint64_t hash;
	uint64_t verified, bad;
};

void wire_drain(int verify);
const struct wire_totals *wire_totals(void);
/* The NIC raises its interrupt if an unmasked event is set; the CPUs
 * take whatever is pending (and the IPIs that follow). */
void nic_interrupt(void);
/* Every CPU's private timer expires: one jiffy. */
void timer_tick(void);

/* Full recomputation of a transmitted frame's IPv4 header checksum and
 * TCP / UDP / ICMP checksums: 0 if valid (or not IPv4), -1 if not. */
int verify_frame(const uint8_t *frame, uint32_t len);

#endif
