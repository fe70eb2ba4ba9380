/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Statistics the stack keeps per packet: per-CPU software counters of
 * every device a packet passes (updated inside a u64_stats sequence, as a
 * 32-bit SMP kernel must), and the IP MIB (RFC 4293 counters: packets and
 * octets in, forwarded, out, and the reasons for discards).
 */
#include "fp_int.h"
#include "fp_util.h"

static uint64_t ip_mib[2][IPSTATS_MIB_MAX];
static uint64_t icmp_mib[2][256][2];

static inline void u64_stats_update_begin(uint32_t *seq)
{
	(*seq)++;
	__asm__ __volatile__("" ::: "memory");
}

static inline void u64_stats_update_end(uint32_t *seq)
{
	__asm__ __volatile__("" ::: "memory");
	(*seq)++;
}

void dev_sw_netstats_rx_add(unsigned nd, unsigned cpu, unsigned len)
{
	struct pcpu_sw_netstats *s = &nb_devs[nd].stats[cpu & 1];

	u64_stats_update_begin(&s->syncp);
	s->rx_packets++;
	s->rx_bytes += len;
	u64_stats_update_end(&s->syncp);
}

void dev_sw_netstats_tx_add(unsigned nd, unsigned cpu, unsigned len)
{
	struct pcpu_sw_netstats *s = &nb_devs[nd].stats[cpu & 1];

	u64_stats_update_begin(&s->syncp);
	s->tx_packets++;
	s->tx_bytes += len;
	u64_stats_update_end(&s->syncp);
}

void ip_inc_stats(unsigned cpu, unsigned field)
{
	ip_mib[cpu & 1][field]++;
}

/* A packet counter and its octet counter, which follows it in the MIB. */
void ip_upd_po_stats(unsigned cpu, unsigned field, unsigned len)
{
	uint64_t *m = ip_mib[cpu & 1];

	m[field]++;
	m[field + 1] += len;
}

void icmp_out_count(unsigned cpu, unsigned type, int out)
{
	icmp_mib[cpu & 1][type & 0xff][!!out]++;
}

/* The sum over CPUs, as /proc/net/snmp reads it. */
uint64_t ip_mib_read(unsigned field)
{
	return ip_mib[0][field] + ip_mib[1][field];
}
