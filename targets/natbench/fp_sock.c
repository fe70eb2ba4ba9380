/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The router's own sockets, as early demux sees them: every received TCP
 * or UDP packet is looked up in the established TCP hash and the UDP hash
 * (ip_early_demux is on by default) before routing. Forwarded traffic
 * misses; the lookup is paid anyway. The tables hold the services an
 * OpenWrt router runs (dropbear, uhttpd, dnsmasq, ntpd, miniupnpd) and a
 * few web interface sessions.
 */
#include "fp_int.h"
#include "fp_util.h"

#define EHASH 64u
#define UHASH 32u
#define MAX_SOCKS 48u

enum { TCP_ESTABLISHED = 1, TCP_LISTEN = 10 };

struct sock {
	uint32_t daddr, rcv_saddr;
	uint16_t dport, num;
	uint8_t proto, state, bound_dev;
	uint32_t next;           /* index + 1 */
	uint64_t rx;
};

static struct {
	uint32_t ehash[EHASH], uhash[UHASH];
	struct sock s[MAX_SOCKS];
	unsigned n;
	uint32_t secret;
	uint64_t tcp_hits, udp_hits, lookups;
} socks;

static uint32_t inet_ehashfn(uint32_t laddr, uint16_t lport, uint32_t faddr,
			     uint16_t fport)
{
	return hash_3words(laddr, faddr, (uint32_t)fport << 16 | lport,
			   socks.secret) % EHASH;
}

static uint32_t udp_hashfn(uint16_t port)
{
	return (port ^ port >> 5) % UHASH;
}

static struct sock *inet_lookup_established(uint32_t saddr, uint16_t sport,
					    uint32_t daddr, uint16_t dport)
{
	uint32_t i = socks.ehash[inet_ehashfn(daddr, dport, saddr, sport)];

	while (i) {
		struct sock *sk = &socks.s[i - 1];

		if (sk->rcv_saddr == daddr && sk->num == dport &&
		    sk->daddr == saddr && sk->dport == sport)
			return sk;
		i = sk->next;
	}
	return NULL;
}

static struct sock *udp4_demux_lookup(uint32_t daddr, uint16_t dport,
				      uint32_t saddr, uint16_t sport)
{
	uint32_t i = socks.uhash[udp_hashfn(dport)];

	while (i) {
		struct sock *sk = &socks.s[i - 1];

		/* Only connected sockets match exactly. */
		if (sk->num == dport && sk->rcv_saddr == daddr &&
		    sk->daddr == saddr && sk->dport == sport)
			return sk;
		i = sk->next;
	}
	return NULL;
}

/* Returns 1 if the packet belongs to a local socket. */
int ip_early_demux(struct sk_buff *skb)
{
	const uint8_t *iph = skb->head + skb->network;
	const uint8_t *l4 = skb->head + skb->transport;
	struct sock *sk = NULL;

	if (rd16(iph + 6) & (IP_MF | IP_OFFSET))
		return 0;
	socks.lookups++;
	switch (iph[9]) {
	case IPPROTO_TCP:
		if (!pskb_may_pull(skb, (unsigned)(l4 - skb->data) + 20))
			return 0;
		sk = inet_lookup_established(rd32(iph + 12), rd16(l4),
					     rd32(iph + 16), rd16(l4 + 2));
		if (sk)
			socks.tcp_hits++;
		break;
	case IPPROTO_UDP:
		if (skb->pkt_type != PKT_HOST ||
		    !pskb_may_pull(skb, (unsigned)(l4 - skb->data) + 8))
			return 0;
		sk = udp4_demux_lookup(rd32(iph + 16), rd16(l4 + 2),
				       rd32(iph + 12), rd16(l4));
		if (sk)
			socks.udp_hits++;
		break;
	default:
		return 0;
	}
	if (!sk)
		return 0;
	sk->rx++;
	return 1;
}

static void sock_add(unsigned proto, uint32_t laddr, uint16_t lport,
		     uint32_t faddr, uint16_t fport, unsigned state)
{
	struct sock *sk;
	uint32_t h;

	if (socks.n >= MAX_SOCKS)
		return;
	sk = &socks.s[socks.n++];
	sk->proto = (uint8_t)proto;
	sk->rcv_saddr = laddr;
	sk->num = lport;
	sk->daddr = faddr;
	sk->dport = fport;
	sk->state = (uint8_t)state;
	if (proto == IPPROTO_TCP) {
		h = inet_ehashfn(laddr, lport, faddr, fport);
		sk->next = socks.ehash[h];
		socks.ehash[h] = socks.n;
	} else {
		h = udp_hashfn(lport);
		sk->next = socks.uhash[h];
		socks.uhash[h] = socks.n;
	}
}

/* Control plane: the router's services and sessions. */
void sock_init(void)
{
	static const uint16_t udp_ports[] = { 53, 67, 123, 1900, 5351, 5353 };
	uint32_t lan = nb_ifs[IF_LAN].addr;
	unsigned i;

	socks.secret = 0x736f636bu;
	for (i = 0; i < 6; i++)
		sock_add(IPPROTO_TCP, lan, 443, 0xc0a80164u + i,
			 (uint16_t)(50000 + i * 7), TCP_ESTABLISHED);
	sock_add(IPPROTO_TCP, lan, 22, 0xc0a80165u, 41022, TCP_ESTABLISHED);
	for (i = 0; i < 6; i++)
		sock_add(IPPROTO_UDP, lan, udp_ports[i], 0, 0, 7);
	/* ntpd and the DNS forwarder talk to upstream servers. */
	sock_add(IPPROTO_UDP, nb_ifs[IF_PPP].addr, 123, 0xc1000001u, 123, 1);
	sock_add(IPPROTO_UDP, nb_ifs[IF_PPP].addr, 40053, 0x08080808u, 53, 1);
}
