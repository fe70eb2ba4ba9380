/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Flow dissector: walks the headers of a received frame (tags, PPPoE, MPLS,
 * IPv4, IPv6 with extension headers, GRE and IP-in-IP tunnels, ...) and
 * turns what it finds into a flow hash for receive packet steering. The
 * protocol switch is wide on purpose: the router's kernel dissects every
 * frame with a switch like this, whatever the traffic holds.
 */
#include "fp_int.h"
#include "fp_util.h"

struct flow_keys {
	uint32_t src, dst;      /* IPv4, or folded IPv6 */
	uint32_t ports;         /* sport << 16 | dport, or an SPI / key */
	uint16_t n_proto;
	uint16_t vlan;
	uint8_t ip_proto;
	uint8_t flags;
	uint8_t depth;
};

#define FLOW_FRAG 0x1u
#define FLOW_FIRST_FRAG 0x2u
#define FLOW_ENCAP 0x4u

#define DISSECT_MAX_DEPTH 6

static uint32_t hashrnd = 0x5eed1234u;

static uint32_t fold128(const uint8_t *a)
{
	return rd32(a) ^ rd32(a + 4) ^ rd32(a + 8) ^ rd32(a + 12);
}

static int dissect_ports(struct flow_keys *k, const uint8_t *p, uint32_t len,
			 unsigned proto)
{
	switch (proto) {
	case IPPROTO_TCP:
	case IPPROTO_UDP:
	case IPPROTO_UDPLITE:
	case IPPROTO_SCTP:
	case IPPROTO_DCCP:
		if (len < 4)
			return -1;
		k->ports = rd32(p);
		return 0;
	case IPPROTO_ESP:
		if (len < 4)
			return -1;
		k->ports = rd32(p);  /* SPI */
		return 0;
	case IPPROTO_AH:
		if (len < 8)
			return -1;
		k->ports = rd32(p + 4);
		return 0;
	case IPPROTO_ICMP:
		if (len < 8)
			return -1;
		/* Echo: the identifier keeps both directions together. */
		if (p[0] == ICMP_ECHO || p[0] == ICMP_ECHOREPLY)
			k->ports = rd16(p + 4);
		else
			k->ports = (uint32_t)p[0] << 8 | p[1];
		return 0;
	case IPPROTO_L2TP:
		if (len < 4)
			return -1;
		k->ports = rd32(p);  /* session id */
		return 0;
	case IPPROTO_IGMP:
		if (len < 8)
			return -1;
		k->ports = rd32(p + 4);  /* group */
		return 0;
	default:
		return 0;
	}
}

static int dissect_ipv4(struct flow_keys *k, const uint8_t *p, uint32_t len,
			uint16_t *next, uint32_t *hlen);
static int dissect_ipv6(struct flow_keys *k, const uint8_t *p, uint32_t len,
			uint16_t *next, uint32_t *hlen);

/* GRE: version 0 with optional checksum, key and sequence; the key names
 * the flow better than the outer addresses. */
static int dissect_gre(struct flow_keys *k, const uint8_t *p, uint32_t len,
		       uint16_t *next, uint32_t *hlen)
{
	uint16_t flags;
	uint32_t off = 4;

	if (len < 4)
		return -1;
	flags = rd16(p);
	if (flags & 0x0007) {
		/* version 1: PPTP enhanced GRE, call id in the key field */
		if ((flags & 0x0007) != 1 || len < 8)
			return -1;
		k->ports = rd16(p + 6);
		*next = 0;
		*hlen = len;
		return 0;
	}
	if (flags & 0x8000)
		off += 4;
	if (flags & 0x2000) {
		if (len < off + 4)
			return -1;
		k->ports = rd32(p + off);
		off += 4;
	}
	if (flags & 0x1000)
		off += 4;
	if (len < off)
		return -1;
	*next = rd16(p + 2);
	*hlen = off;
	k->flags |= FLOW_ENCAP;
	return 0;
}

static int dissect_l4(struct flow_keys *k, const uint8_t *p, uint32_t len,
		      unsigned proto, uint16_t *next, uint32_t *hlen)
{
	*next = 0;
	*hlen = 0;
	k->ip_proto = (uint8_t)proto;
	if (k->flags & FLOW_FRAG && !(k->flags & FLOW_FIRST_FRAG))
		return 0;
	switch (proto) {
	case IPPROTO_GRE:
		return dissect_gre(k, p, len, next, hlen);
	case IPPROTO_IPIP:
		k->flags |= FLOW_ENCAP;
		*next = ETH_P_IP;
		return 0;
	case IPPROTO_IPV6:
		k->flags |= FLOW_ENCAP;
		*next = ETH_P_IPV6;
		return 0;
	default:
		return dissect_ports(k, p, len, proto);
	}
}

static int dissect_ipv4(struct flow_keys *k, const uint8_t *p, uint32_t len,
			uint16_t *next, uint32_t *hlen)
{
	unsigned ihl;
	uint16_t frag;

	if (len < 20 || (p[0] >> 4) != 4)
		return -1;
	ihl = (p[0] & 15u) * 4u;
	if (ihl < 20 || ihl > len)
		return -1;
	k->src = rd32(p + 12);
	k->dst = rd32(p + 16);
	frag = rd16(p + 6);
	if (frag & (IP_MF | IP_OFFSET)) {
		k->flags |= FLOW_FRAG;
		if (!(frag & IP_OFFSET))
			k->flags |= FLOW_FIRST_FRAG;
	}
	*hlen = ihl;
	*next = p[9];
	return 0;
}

static int dissect_ipv6(struct flow_keys *k, const uint8_t *p, uint32_t len,
			uint16_t *next, uint32_t *hlen)
{
	unsigned nh;
	uint32_t off = 40;

	if (len < 40 || (p[0] >> 4) != 6)
		return -1;
	k->src = fold128(p + 8);
	k->dst = fold128(p + 24);
	/* The flow label alone is enough when the sender sets one. */
	if ((rd32(p) & 0xfffff) != 0)
		k->ports = rd32(p) & 0xfffff;
	nh = p[6];
	for (;;) {
		switch (nh) {
		case 0:   /* hop-by-hop */
		case 43:  /* routing */
		case 60:  /* destination options */
			if (len < off + 8)
				return -1;
			nh = p[off];
			off += 8u + p[off + 1] * 8u;
			continue;
		case 44:  /* fragment */
			if (len < off + 8)
				return -1;
			k->flags |= FLOW_FRAG;
			if ((rd16(p + off + 2) & 0xfff8) == 0)
				k->flags |= FLOW_FIRST_FRAG;
			nh = p[off];
			off += 8;
			continue;
		default:
			break;
		}
		break;
	}
	if (off > len)
		return -1;
	*hlen = off;
	*next = (uint16_t)nh;
	return 0;
}

/* Walks from an ethertype at p; returns 0 with keys filled, -1 on a frame
 * it cannot make sense of (hashed by what was found so far). */
static int flow_dissect(struct flow_keys *k, uint16_t proto, const uint8_t *p,
			uint32_t len)
{
	uint16_t next;
	uint32_t hlen;

	while (k->depth++ < DISSECT_MAX_DEPTH) {
		k->n_proto = proto;
		switch (proto) {
		case ETH_P_8021Q:
		case ETH_P_8021AD:
			if (len < 4)
				return -1;
			if (!k->vlan)
				k->vlan = rd16(p) & 0x0fff;
			proto = rd16(p + 2);
			p += 4;
			len -= 4;
			continue;
		case ETH_P_PPP_SES:
			if (len < 8)
				return -1;
			switch (rd16(p + 6)) {
			case PPP_IP:
				proto = ETH_P_IP;
				break;
			case PPP_IPV6:
				proto = ETH_P_IPV6;
				break;
			default:
				return 0;
			}
			p += 8;
			len -= 8;
			continue;
		case ETH_P_IP:
			if (dissect_ipv4(k, p, len, &next, &hlen) < 0)
				return -1;
			break;
		case ETH_P_IPV6:
			if (dissect_ipv6(k, p, len, &next, &hlen) < 0)
				return -1;
			break;
		case ETH_P_MPLS_UC:
		case ETH_P_MPLS_MC:
			if (len < 4)
				return -1;
			/* Entropy label or the top label itself. */
			k->ports = rd32(p) >> 12;
			return 0;
		case ETH_P_ARP:
			if (len < 28)
				return -1;
			k->src = rd32(p + 14);
			k->dst = rd32(p + 24);
			return 0;
		case ETH_P_FCOE:
			if (len < 38)
				return -1;
			k->src = rd32(p + 14) & 0xffffff;
			k->dst = rd32(p + 18) & 0xffffff;
			return 0;
		case ETH_P_TIPC:
			if (len < 28)
				return -1;
			k->src = rd32(p + 24);
			return 0;
		case ETH_P_BATMAN:
			/* batman-adv unicast: 10-byte header, then a frame. */
			if (len < 24)
				return -1;
			proto = rd16(p + 22);
			p += 24;
			len -= 24;
			continue;
		case ETH_P_LLDP:
		case ETH_P_EAPOL:
		case ETH_P_1588:
		case ETH_P_LOOP:
		case ETH_P_PPP_DISC:
			return 0;
		default:
			return 0;
		}
		/* After an IP header: ports, or an encapsulated packet. */
		p += hlen;
		len -= hlen;
		if (dissect_l4(k, p, len, next, &next, &hlen) < 0)
			return -1;
		if (!next)
			return 0;
		proto = next;
		p += hlen;
		len -= hlen;
	}
	return 0;
}

uint32_t skb_get_hash(struct sk_buff *skb)
{
	struct flow_keys k;
	uint32_t a, b, hash;

	k.src = k.dst = k.ports = 0;
	k.n_proto = k.vlan = 0;
	k.ip_proto = k.flags = k.depth = 0;
	if (flow_dissect(&k, skb->protocol, skb->data, skb->len) < 0)
		nb_stats.proto_seen[15]++;
	nb_stats.proto_seen[k.ip_proto & 15]++;
	/* Symmetric: both directions of a flow land on the same CPU. */
	a = k.src;
	b = k.dst;
	if (a > b) {
		uint32_t t = a;

		a = b;
		b = t;
		k.ports = k.ports >> 16 | k.ports << 16;
	}
	if ((k.ports >> 16) > (k.ports & 0xffff))
		k.ports = k.ports >> 16 | k.ports << 16;
	hash = hash_3words(a, b, k.ports ^ (uint32_t)k.ip_proto << 24 ^
			   k.n_proto, hashrnd ^ k.vlan);
	if (!hash)
		hash = 1;
	skb->hash = hash;
	return hash;
}
