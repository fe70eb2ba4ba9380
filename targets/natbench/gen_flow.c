/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What each kind of flow sends next. Directions: 0 client to server, 1
 * back. A flow that needs the far side to know the router's translation
 * waits for f->learned (set by gen_observe); one that expects the router
 * to answer (ICMP errors, resets, echo replies) waits for f->answered.
 */
#include <stddef.h>

#include "apps.h"
#include "gen_int.h"

#define WAIT_LIMIT 30u    /* batches a flow waits for an answer */
#define PROBE_LIMIT 8u    /* ... or for an error it provoked */

#define F_FIN 0x01u
#define F_SYN 0x02u
#define F_RST 0x04u
#define F_PSH 0x08u
#define F_ACK 0x10u

static int waited_out(const struct flow *f, uint32_t limit)
{
	return gen_batch_no - f->since > limit;
}

static uint32_t fill_len(const struct app_desc *ad, const struct flow *f)
{
	if (ad->fill[1] == 0xffff)
		return f->mss;
	return nb_range(&gen_rng, ad->fill[0], ad->fill[1]);
}

static uint32_t req_len(const struct app_desc *ad)
{
	uint32_t hi = ad->fill[1] == 0xffff ? 120 : ad->fill[1] / 3u;

	return nb_range(&gen_rng, 0, hi);
}

static void next_round(struct flow *f, unsigned again, unsigned done)
{
	f->rounds = f->rounds ? (uint16_t)(f->rounds - 1) : 0;
	f->state = (uint8_t)(f->rounds ? again : done);
}

/* What every TCP flow of the generator opens with, states 0-2: the
 * client's SYN, the server's SYN-ACK once the router has learned the
 * flow (or the flow gives up), the client's ACK. Returns as a flow's
 * step does. */
static int tcp_open(struct flow *f)
{
	switch (f->state) {
	case 0:
		emit_tcp(f, 0, F_SYN, 0, NULL);
		f->since = gen_batch_no;
		f->state = 1;
		return 1;
	case 1:
		if (!f->learned)
			return waited_out(f, WAIT_LIMIT) ? -1 : 0;
		emit_tcp(f, 1, F_SYN | F_ACK, 0, NULL);
		f->state = 2;
		return 1;
	default:
		emit_tcp(f, 0, F_ACK, 0, NULL);
		f->unacked = 0;
		f->state = 3;
		return 1;
	}
}

/* ... and closes with, from state 7: the client's FIN, the server's FIN,
 * the last ACK (the flow is done). */
static int tcp_close(struct flow *f)
{
	switch (f->state) {
	case 7:
		emit_tcp(f, 0, F_FIN | F_ACK, 0, NULL);
		f->state = 9;
		return 1;
	case 9:
		emit_tcp(f, 1, F_FIN | F_ACK, 0, NULL);
		f->state = 10;
		return 1;
	default:
		emit_tcp(f, 0, F_ACK, 0, NULL);
		return 2;
	}
}

static int tcp_flow(struct flow *f)
{
	const struct app_desc *ad = &app_descs[f->app];

	switch (f->state) {
	case 0:
	case 1:
	case 2:
		return tcp_open(f);
	case 3:
		f->pkts = (uint16_t)nb_range(&gen_rng, ad->resp_pkts[0],
					     ad->resp_pkts[1]);
		f->unacked = 0;
		if (f->kind == AK_BULK_UP) {
			f->state = 6;
			return tcp_flow(f);
		}
		emit_tcp(f, 0, F_ACK | F_PSH, req_len(ad), &ad->msg[0]);
		f->state = 4;
		return 1;
	case 4:
		emit_tcp(f, 1, F_ACK | F_PSH, fill_len(ad, f), &ad->msg[1]);
		f->pkts--;
		f->unacked++;
		if (f->unacked >= 2 || !f->pkts)
			f->state = 5;
		return 1;
	case 5:
		emit_tcp(f, 0, F_ACK, 0, NULL);
		f->unacked = 0;
		if (f->pkts)
			f->state = 4;
		else
			next_round(f, 3, 7);
		return 1;
	case 6:
		emit_tcp(f, 0, F_ACK | F_PSH, f->mss, &ad->msg[0]);
		f->pkts--;
		f->unacked++;
		if (f->unacked >= 2 || !f->pkts)
			f->state = 8;
		return 1;
	case 8:
		emit_tcp(f, 1, F_ACK | F_PSH, 0, &ad->msg[1]);
		f->unacked = 0;
		if (f->pkts)
			f->state = 6;
		else
			next_round(f, 3, 7);
		return 1;
	default:
		return tcp_close(f);
	}
}

static int udp_flow(struct flow *f)
{
	const struct app_desc *ad = &app_descs[f->app];

	switch (f->state) {
	case 0:
		emit_udp(f, 0, req_len(ad), &ad->msg[0], 0);
		f->pkts = (uint16_t)nb_range(&gen_rng, ad->resp_pkts[0],
					     ad->resp_pkts[1]);
		f->since = gen_batch_no;
		f->state = 1;
		return 1;
	default:
		if (!f->learned)
			return waited_out(f, WAIT_LIMIT) ? -1 : 0;
		emit_udp(f, 1, fill_len(ad, f), &ad->msg[1], 0);
		if (--f->pkts == 0) {
			next_round(f, 0, 9);
			if (!f->rounds)
				return 2;
		}
		return 1;
	}
}

static int ping_flow(struct flow *f)
{
	if (f->state == 0) {
		f->probe++;
		emit_icmp_echo(f, 0, 8);
		f->since = gen_batch_no;
		f->state = 1;
		return 1;
	}
	if (!f->learned)
		return waited_out(f, WAIT_LIMIT) ? -1 : 0;
	emit_icmp_echo(f, 1, 0);
	next_round(f, 0, 9);
	return f->rounds ? 1 : 2;
}

/* Pings the router answers itself (LAN side or WAN side). */
static int router_ping_flow(struct flow *f)
{
	if (f->state == 1) {
		if (!f->answered && !waited_out(f, PROBE_LIMIT))
			return 0;
		next_round(f, 0, 9);
		if (!f->rounds)
			return -1;
	}
	f->probe++;
	f->answered = 0;
	emit_icmp_echo(f, 0, 8);
	f->since = gen_batch_no;
	f->state = 1;
	return 1;
}

static int tunnel_flow(struct flow *f)
{
	if (f->state == 0) {
		emit_tunnel(f, 0);
		f->since = gen_batch_no;
		f->state = 1;
		return 1;
	}
	if (!f->learned)
		return waited_out(f, WAIT_LIMIT) ? -1 : 0;
	if (f->state == 2) {
		emit_tunnel(f, 0);
		f->state = 1;
		return 1;
	}
	emit_tunnel(f, 1);
	next_round(f, 2, 9);
	return f->rounds ? 1 : 2;
}

/* traceroute: probe n has TTL n; the router answers the first, hops of
 * the Internet the next ones, the destination the last. */
static int trace_flow(struct flow *f)
{
	if (f->state == 1 && !f->answered) {
		if (f->learned) {
			int last = f->probe >= 5;

			emit_icmp_error(f, last ? f->sip : gen_remote_via(f->uplink),
					last ? 3 : 11, last ? 3 : 0);
			f->since = gen_batch_no;
			f->state = 2;
			return 1;
		}
		if (!waited_out(f, PROBE_LIMIT))
			return 0;
	}
	if (f->state == 2 && !f->answered && !waited_out(f, PROBE_LIMIT))
		return 0;
	if (f->state != 0 && ++f->probe > 5)
		return -1;
	f->sport = (uint16_t)(33433 + f->probe);
	f->learned = f->answered = 0;
	emit_udp(f, 0, 32, NULL, f->probe);
	f->since = gen_batch_no;
	f->state = 1;
	return 1;
}

/* Sends once, then waits for the router's answer (an ICMP error or a
 * reset) or gives up. */
static int provoke_flow(struct flow *f)
{
	if (f->state == 0) {
		if (f->proto == 6)
			emit_tcp(f, 0, F_SYN, 0, NULL);
		else
			emit_udp(f, 0, f->type == FT_PMTU ? 1472 : 24, NULL, 0);
		f->since = gen_batch_no;
		f->state = 1;
		return 1;
	}
	if (f->answered || waited_out(f, PROBE_LIMIT))
		return -1;
	return 0;
}

/* iperf: handshake, then full-sized segments from the client, the server
 * acknowledging every second one (delayed ACKs), until the amount is
 * sent; then both sides close. */
static int bulk_flow(struct flow *f)
{
	switch (f->state) {
	case 0:
	case 1:
	case 2:
		return tcp_open(f);
	case 3:
		/* The sender pushes at the end of each of its writes. */
		emit_tcp(f, 0, f->pkts % 22 == 1 ? F_ACK | F_PSH : F_ACK,
			 f->mss, NULL);
		f->pkts--;
		if (++f->unacked >= 2 || !f->pkts)
			f->state = 4;
		return 1;
	case 4:
		emit_tcp(f, 1, F_ACK, 0, NULL);
		f->unacked = 0;
		f->state = f->pkts ? 3 : 7;
		return 1;
	default:
		return tcp_close(f);
	}
}

int flow_step(struct flow *f)
{
	switch (f->type) {
	case FT_BULK:
		return bulk_flow(f);
	case FT_APP:
	case FT_INBOUND:
		return f->proto == 6 ? tcp_flow(f) : udp_flow(f);
	case FT_PING:
	case FT_OPTS:
		return ping_flow(f);
	case FT_RPING:
	case FT_WPING:
		return router_ping_flow(f);
	case FT_GENERIC:
		return tunnel_flow(f);
	case FT_TRACE:
		return trace_flow(f);
	case FT_STRAY:
		emit_tcp(f, 0, F_ACK, nb_range(&gen_rng, 0, 100), NULL);
		next_round(f, 0, 9);
		return f->rounds ? 1 : 2;
	default:
		return provoke_flow(f);
	}
}
