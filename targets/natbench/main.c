/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * natbench: a user-space model of a home router's NAT forwarding path (LAN
 * on VLAN 1 to WAN on VLAN 2 with masquerade), driven by seeded synthetic
 * traffic. See README.md.
 *
 *   natbench [--seed N] [--packets N] [--verify] [--stats]
 *
 * Prints one line, "natbench: packets=N bytes=B tx=T checksum=XXXXXXXX":
 * frames received, IPv4 bytes forwarded, frames transmitted and a hash of
 * every transmitted byte (the same for every compiler flag set, layout and
 * PGO mode). --verify recomputes every transmitted checksum and checks
 * every translation the traffic's far ends saw; exits 1 on any error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#define DEFAULT_PACKETS 30000u

static int parse_u64(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || !*s)
		return -1;
	v = strtoull(s, &end, 10);
	if (*end)
		return -1;
	*out = v;
	return 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: natbench [--seed N] [--packets N] [--verify] "
		"[--stats]\n");
	exit(2);
}

static void print_stats(void)
{
	const struct nb_stats *s = &nb_stats;

	fprintf(stderr,
		"rx=%llu fwd=%llu tx=%llu local_in=%llu icmp_sent=%llu "
		"arp_rx=%llu arp_tx=%llu lcp=%llu punt_v6=%llu punt_other=%llu\n"
		"drops: l2=%llu ip=%llu csum=%llu route=%llu filter=%llu "
		"neigh=%llu qdisc=%llu ttl=%llu mtu=%llu other=%llu\n"
		"apps: ok=%llu bad=%llu alg_rewrites=%llu backlog=%llu/%llu\n",
		(unsigned long long)s->rx, (unsigned long long)s->fwd,
		(unsigned long long)s->tx, (unsigned long long)s->local_in,
		(unsigned long long)s->icmp_sent, (unsigned long long)s->arp_rx,
		(unsigned long long)s->arp_tx, (unsigned long long)s->lcp,
		(unsigned long long)s->punt_v6,
		(unsigned long long)s->punt_other,
		(unsigned long long)s->drop_l2, (unsigned long long)s->drop_ip,
		(unsigned long long)s->drop_csum,
		(unsigned long long)s->drop_route,
		(unsigned long long)s->drop_filter,
		(unsigned long long)s->drop_neigh,
		(unsigned long long)s->drop_qdisc,
		(unsigned long long)s->drop_ttl, (unsigned long long)s->drop_mtu,
		(unsigned long long)s->drop_other,
		(unsigned long long)s->app_ok, (unsigned long long)s->app_bad,
		(unsigned long long)s->alg_rewrites,
		(unsigned long long)s->backlog[0],
		(unsigned long long)s->backlog[1]);
	fprintf(stderr,
		"conntrack: count=%u new=%llu found=%llu invalid=%llu "
		"expired=%llu insert_failed=%llu early_drop=%llu\n",
		nb_ct.count, (unsigned long long)nb_ct.new,
		(unsigned long long)nb_ct.found,
		(unsigned long long)nb_ct.invalid,
		(unsigned long long)nb_ct.expired,
		(unsigned long long)nb_ct.insert_failed,
		(unsigned long long)nb_ct.early_drop);
	fprintf(stderr, "neigh: count=%u solicits=%llu\n", nb_arp.count,
		(unsigned long long)nb_arp.solicits);
	gen_report();
}

int main(int argc, char **argv)
{
	uint64_t seed = 1, packets = DEFAULT_PACKETS, sent = 0;
	uint64_t next_tick = NB_BUDGET;
	int verify = 0, stats = 0, i;
	const struct wire_totals *w;
	uint32_t sum;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--seed")) {
			if (parse_u64(argv[++i], &seed) < 0)
				usage();
		} else if (!strcmp(argv[i], "--packets")) {
			if (parse_u64(argv[++i], &packets) < 0 || !packets)
				usage();
		} else if (!strcmp(argv[i], "--verify")) {
			verify = 1;
		} else if (!strcmp(argv[i], "--stats")) {
			stats = 1;
		} else {
			usage();
		}
	}
	nb_config();
	gen_init(seed);
	while (sent < packets) {
		uint64_t left = packets - sent;
		unsigned burst = gen_burst();

		/* Frames arrive, the NIC interrupts, the CPUs forward them,
		 * the wire takes what they sent; a tick every NB_BUDGET
		 * frames (one jiffy). */
		sent += gen_batch(left < burst ? (unsigned)left : burst);
		nic_interrupt();
		wire_drain(verify);
		while (sent >= next_tick) {
			next_tick += NB_BUDGET;
			timer_tick();
		}
	}
	/* What is still queued goes out; nothing new arrives. */
	for (i = 0; i < 8; i++) {
		nic_interrupt();
		wire_drain(verify);
		timer_tick();
	}
	w = wire_totals();
	sum = (uint32_t)(w->hash ^ w->hash >> 32);
	printf("natbench: packets=%llu bytes=%llu tx=%llu checksum=%08x\n",
	       (unsigned long long)sent,
	       (unsigned long long)nb_stats.fwd_bytes,
	       (unsigned long long)w->frames, sum);
	if (stats)
		print_stats();
	if (verify) {
		fprintf(stderr, "natbench: verified=%llu bad=%llu "
			"translation_errors=%llu\n",
			(unsigned long long)w->verified,
			(unsigned long long)w->bad,
			(unsigned long long)gen_errors());
		if (w->bad || gen_errors())
			return 1;
	}
	return 0;
}
