/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Flow dissector: walks the headers of a received frame (tags, PPPoE, MPLS,
 * IPv4, IPv6 with extension headers, GRE and IP-in-IP tunnels, ...) and
 * stores what it finds as the keys a dissector asks for (a bitmap of keys
 * and each key's place in the caller's structure), then the flow hash for
 * receive packet steering: the keys made direction-independent, SipHash
 * over their hashed part. The protocol switch is wide on purpose: the
 * router's kernel dissects every frame with a switch like this, whatever
 * the traffic holds.
 */
#include "fp_int.h"
#include "fp_util.h"

enum {
	FLOW_DISSECTOR_KEY_CONTROL, FLOW_DISSECTOR_KEY_BASIC,
	FLOW_DISSECTOR_KEY_IPV4_ADDRS, FLOW_DISSECTOR_KEY_IPV6_ADDRS,
	FLOW_DISSECTOR_KEY_PORTS, FLOW_DISSECTOR_KEY_ICMP,
	FLOW_DISSECTOR_KEY_TIPC, FLOW_DISSECTOR_KEY_VLAN,
	FLOW_DISSECTOR_KEY_FLOW_LABEL, FLOW_DISSECTOR_KEY_GRE_KEYID,
	FLOW_DISSECTOR_KEY_MPLS_ENTROPY, FLOW_DISSECTOR_KEY_MAX
};

#define FLOW_DIS_IS_FRAGMENT 0x1u
#define FLOW_DIS_FIRST_FRAG 0x2u
#define FLOW_DIS_ENCAPSULATION 0x4u

#define DISSECT_MAX_DEPTH 6

struct key_control { uint16_t thoff, addr_type; uint32_t flags; };
struct key_basic { uint16_t n_proto; uint8_t ip_proto, padding; };
struct key_tags { uint32_t flow_label; };
struct key_vlan { uint16_t vlan_id, vlan_tpid; };
struct key_keyid { uint32_t keyid; };
struct key_ports { uint16_t src, dst; };
struct key_icmp { uint8_t type, code; uint16_t id; };
struct key_addrs {
	uint32_t v4src, v4dst;
	uint32_t v6src[4], v6dst[4];
};

/* What flow hashing asks for (struct flow_keys): the hashed part starts
 * at basic. */
struct flow_keys {
	struct key_control control;
	struct key_basic basic;
	struct key_tags tags;
	struct key_vlan vlan;
	struct key_keyid keyid;
	struct key_ports ports;
	struct key_icmp icmp;
	struct key_addrs addrs;
};

struct flow_dissector {
	uint32_t used_keys;
	uint16_t offset[FLOW_DISSECTOR_KEY_MAX];
};

static struct flow_dissector flow_keys_dissector;

/* The flow hash's secret key (hashrnd). */
static const struct siphash_key hashrnd = {
	{ 0x5eed12345eed1234ull, 0x736b625f68617368ull },
};

static inline int dissector_uses_key(const struct flow_dissector *d,
				     unsigned key)
{
	return (d->used_keys >> key) & 1u;
}

static inline void *dissector_target(const struct flow_dissector *d,
				     unsigned key, void *target)
{
	return (uint8_t *)target + d->offset[key];
}

/* Ports by IP protocol: their offset in the L4 header, or -1. */
static int proto_ports_offset(unsigned proto)
{
	switch (proto) {
	case IPPROTO_TCP:
	case IPPROTO_UDP:
	case IPPROTO_DCCP:
	case IPPROTO_ESP:
	case IPPROTO_SCTP:
	case IPPROTO_UDPLITE:
		return 0;
	case IPPROTO_AH:
		return 4;
	default:
		return -1;
	}
}

static void dissect_ports(const struct flow_dissector *d, void *target,
			  const uint8_t *p, uint32_t len, unsigned proto)
{
	struct key_ports *ports;
	struct key_icmp *icmp;
	int off;

	if (proto == IPPROTO_ICMP) {
		if (!dissector_uses_key(d, FLOW_DISSECTOR_KEY_ICMP) || len < 8)
			return;
		icmp = dissector_target(d, FLOW_DISSECTOR_KEY_ICMP, target);
		icmp->type = p[0];
		icmp->code = p[1];
		/* Echo: the identifier keeps both directions together. */
		icmp->id = p[0] == ICMP_ECHO || p[0] == ICMP_ECHOREPLY ?
			   rd16(p + 4) : 0;
		return;
	}
	if (!dissector_uses_key(d, FLOW_DISSECTOR_KEY_PORTS))
		return;
	off = proto_ports_offset(proto);
	if (off < 0 || len < (uint32_t)off + 4)
		return;
	ports = dissector_target(d, FLOW_DISSECTOR_KEY_PORTS, target);
	ports->src = rd16(p + off);
	ports->dst = rd16(p + off + 2);
}

/* GRE: version 0 with optional checksum, key and sequence; the key names
 * the flow better than the outer addresses. *next 0: stop. */
static int dissect_gre(const struct flow_dissector *d, void *target,
		       struct key_control *ctl, const uint8_t *p, uint32_t len,
		       uint16_t *next, uint32_t *hlen)
{
	uint16_t flags;
	uint32_t off = 4;
	struct key_keyid *keyid;

	if (len < 4)
		return -1;
	flags = rd16(p);
	if (flags & 0x0007) {
		/* version 1: PPTP enhanced GRE, call id in the key field */
		if ((flags & 0x0007) != 1 || len < 8)
			return -1;
		if (dissector_uses_key(d, FLOW_DISSECTOR_KEY_GRE_KEYID)) {
			keyid = dissector_target(d, FLOW_DISSECTOR_KEY_GRE_KEYID,
						 target);
			keyid->keyid = rd16(p + 6);
		}
		*next = 0;
		*hlen = len;
		return 0;
	}
	if (flags & 0x8000)
		off += 4;
	if (flags & 0x2000) {
		if (len < off + 4)
			return -1;
		if (dissector_uses_key(d, FLOW_DISSECTOR_KEY_GRE_KEYID)) {
			keyid = dissector_target(d, FLOW_DISSECTOR_KEY_GRE_KEYID,
						 target);
			keyid->keyid = rd32(p + off);
		}
		off += 4;
	}
	if (flags & 0x1000)
		off += 4;
	if (len < off)
		return -1;
	*next = rd16(p + 2);
	*hlen = off;
	ctl->flags |= FLOW_DIS_ENCAPSULATION;
	return 0;
}

static int dissect_ipv4(const struct flow_dissector *d, void *target,
			struct key_control *ctl, const uint8_t *p,
			uint32_t len, unsigned *ip_proto, uint32_t *hlen)
{
	unsigned ihl;
	uint16_t frag;

	if (len < 20 || (p[0] >> 4) != 4)
		return -1;
	ihl = (p[0] & 15u) * 4u;
	if (ihl < 20 || ihl > len)
		return -1;
	if (dissector_uses_key(d, FLOW_DISSECTOR_KEY_IPV4_ADDRS)) {
		struct key_addrs *a =
			dissector_target(d, FLOW_DISSECTOR_KEY_IPV4_ADDRS, target);

		a->v4src = rd32(p + 12);
		a->v4dst = rd32(p + 16);
		ctl->addr_type = FLOW_DISSECTOR_KEY_IPV4_ADDRS;
	}
	frag = rd16(p + 6);
	if (frag & (IP_MF | IP_OFFSET)) {
		ctl->flags |= FLOW_DIS_IS_FRAGMENT;
		if (!(frag & IP_OFFSET))
			ctl->flags |= FLOW_DIS_FIRST_FRAG;
	}
	*hlen = ihl;
	*ip_proto = p[9];
	return 0;
}

static int dissect_ipv6(const struct flow_dissector *d, void *target,
			struct key_control *ctl, const uint8_t *p,
			uint32_t len, unsigned *ip_proto, uint32_t *hlen)
{
	unsigned nh, i;
	uint32_t off = 40;

	if (len < 40 || (p[0] >> 4) != 6)
		return -1;
	if (dissector_uses_key(d, FLOW_DISSECTOR_KEY_IPV6_ADDRS)) {
		struct key_addrs *a =
			dissector_target(d, FLOW_DISSECTOR_KEY_IPV6_ADDRS, target);

		for (i = 0; i < 4; i++) {
			a->v6src[i] = rd32(p + 8 + 4 * i);
			a->v6dst[i] = rd32(p + 24 + 4 * i);
		}
		ctl->addr_type = FLOW_DISSECTOR_KEY_IPV6_ADDRS;
	}
	/* The flow label alone is enough when the sender sets one. */
	if ((rd32(p) & 0xfffff) &&
	    dissector_uses_key(d, FLOW_DISSECTOR_KEY_FLOW_LABEL)) {
		struct key_tags *tags =
			dissector_target(d, FLOW_DISSECTOR_KEY_FLOW_LABEL, target);

		tags->flow_label = rd32(p) & 0xfffff;
	}
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
			ctl->flags |= FLOW_DIS_IS_FRAGMENT;
			if ((rd16(p + off + 2) & 0xfff8) == 0)
				ctl->flags |= FLOW_DIS_FIRST_FRAG;
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
	*ip_proto = nh;
	return 0;
}

/* __skb_flow_dissect: walks from an ethertype at p. 0 with the keys the
 * dissector uses stored in target, -1 on a frame it cannot make sense
 * of (the keys found so far stay). */
static int skb_flow_dissect(const struct flow_dissector *d, void *target,
			    uint16_t proto, const uint8_t *p, uint32_t len)
{
	struct key_control *ctl =
		dissector_target(d, FLOW_DISSECTOR_KEY_CONTROL, target);
	struct key_basic *basic =
		dissector_target(d, FLOW_DISSECTOR_KEY_BASIC, target);
	uint32_t nhoff = 0, hlen;
	unsigned ip_proto = 0, depth = 0;
	int ret = 0;
	uint16_t next;

proto_again:
	if (++depth > DISSECT_MAX_DEPTH)
		goto out;
	switch (proto) {
	case ETH_P_8021Q:
	case ETH_P_8021AD:
		if (len < nhoff + 4)
			goto out_bad;
		if (dissector_uses_key(d, FLOW_DISSECTOR_KEY_VLAN)) {
			struct key_vlan *v =
				dissector_target(d, FLOW_DISSECTOR_KEY_VLAN, target);

			if (!v->vlan_id) {
				v->vlan_id = rd16(p + nhoff) & 0x0fff;
				v->vlan_tpid = proto;
			}
		}
		proto = rd16(p + nhoff + 2);
		nhoff += 4;
		goto proto_again;
	case ETH_P_PPP_SES:
		if (len < nhoff + 8)
			goto out_bad;
		switch (rd16(p + nhoff + 6)) {
		case PPP_IP:
			proto = ETH_P_IP;
			break;
		case PPP_IPV6:
			proto = ETH_P_IPV6;
			break;
		default:
			goto out;
		}
		nhoff += 8;
		goto proto_again;
	case ETH_P_IP:
		if (dissect_ipv4(d, target, ctl, p + nhoff, len - nhoff,
				 &ip_proto, &hlen) < 0)
			goto out_bad;
		break;
	case ETH_P_IPV6:
		if (dissect_ipv6(d, target, ctl, p + nhoff, len - nhoff,
				 &ip_proto, &hlen) < 0)
			goto out_bad;
		break;
	case ETH_P_MPLS_UC:
	case ETH_P_MPLS_MC:
		if (len < nhoff + 4)
			goto out_bad;
		/* Entropy label or the top label itself. */
		if (dissector_uses_key(d, FLOW_DISSECTOR_KEY_MPLS_ENTROPY)) {
			struct key_keyid *k = dissector_target(
				d, FLOW_DISSECTOR_KEY_MPLS_ENTROPY, target);

			k->keyid = rd32(p + nhoff) >> 12;
		}
		goto out;
	case ETH_P_ARP:
		if (len < nhoff + 28)
			goto out_bad;
		if (dissector_uses_key(d, FLOW_DISSECTOR_KEY_IPV4_ADDRS)) {
			struct key_addrs *a = dissector_target(
				d, FLOW_DISSECTOR_KEY_IPV4_ADDRS, target);

			a->v4src = rd32(p + nhoff + 14);
			a->v4dst = rd32(p + nhoff + 24);
			ctl->addr_type = FLOW_DISSECTOR_KEY_IPV4_ADDRS;
		}
		goto out;
	case ETH_P_FCOE:
		if (len < nhoff + 38)
			goto out_bad;
		ctl->thoff = (uint16_t)(nhoff + 38);
		goto out;
	case ETH_P_TIPC:
		if (len < nhoff + 28)
			goto out_bad;
		if (dissector_uses_key(d, FLOW_DISSECTOR_KEY_TIPC)) {
			struct key_addrs *a = dissector_target(
				d, FLOW_DISSECTOR_KEY_TIPC, target);

			a->v4src = rd32(p + nhoff + 24);
			ctl->addr_type = FLOW_DISSECTOR_KEY_TIPC;
		}
		goto out;
	case ETH_P_BATMAN:
		/* batman-adv unicast: 10-byte header, then a frame. */
		if (len < nhoff + 24)
			goto out_bad;
		proto = rd16(p + nhoff + 22);
		nhoff += 24;
		ctl->flags |= FLOW_DIS_ENCAPSULATION;
		goto proto_again;
	case ETH_P_LLDP:
	case ETH_P_EAPOL:
	case ETH_P_1588:
	case ETH_P_LOOP:
	case ETH_P_PPP_DISC:
	default:
		goto out;
	}
	/* After an IP header: ports, or an encapsulated packet. */
	nhoff += hlen;
	if (ctl->flags & FLOW_DIS_IS_FRAGMENT &&
	    !(ctl->flags & FLOW_DIS_FIRST_FRAG))
		goto out;
	switch (ip_proto) {
	case IPPROTO_GRE:
		if (dissect_gre(d, target, ctl, p + nhoff, len - nhoff, &next,
				&hlen) < 0)
			goto out_bad;
		if (!next)
			goto out;
		proto = next;
		nhoff += hlen;
		goto proto_again;
	case IPPROTO_IPIP:
		ctl->flags |= FLOW_DIS_ENCAPSULATION;
		proto = ETH_P_IP;
		goto proto_again;
	case IPPROTO_IPV6:
		ctl->flags |= FLOW_DIS_ENCAPSULATION;
		proto = ETH_P_IPV6;
		goto proto_again;
	default:
		dissect_ports(d, target, p + nhoff, len - nhoff, ip_proto);
		break;
	}
	goto out;
out_bad:
	ret = -1;
out:
	ctl->thoff = (uint16_t)(nhoff < len ? nhoff : len);
	basic->n_proto = proto;
	basic->ip_proto = (uint8_t)ip_proto;
	return ret;
}

/* __flow_hash_consistentify: both directions of a flow alike (the lower
 * address, and the lower port, first). */
static void flow_hash_consistentify(struct flow_keys *k)
{
	unsigned i;
	int diff = 0;

	switch (k->control.addr_type) {
	case FLOW_DISSECTOR_KEY_IPV4_ADDRS:
		if (k->addrs.v4dst < k->addrs.v4src) {
			uint32_t t = k->addrs.v4src;

			k->addrs.v4src = k->addrs.v4dst;
			k->addrs.v4dst = t;
		}
		if (k->ports.dst < k->ports.src) {
			uint16_t t = k->ports.src;

			k->ports.src = k->ports.dst;
			k->ports.dst = t;
		}
		break;
	case FLOW_DISSECTOR_KEY_IPV6_ADDRS:
		for (i = 0; i < 4 && !diff; i++)
			diff = k->addrs.v6dst[i] < k->addrs.v6src[i] ? -1 :
			       k->addrs.v6dst[i] > k->addrs.v6src[i];
		if (diff < 0) {
			for (i = 0; i < 4; i++) {
				uint32_t t = k->addrs.v6src[i];

				k->addrs.v6src[i] = k->addrs.v6dst[i];
				k->addrs.v6dst[i] = t;
			}
		}
		if (k->ports.dst < k->ports.src) {
			uint16_t t = k->ports.src;

			k->ports.src = k->ports.dst;
			k->ports.dst = t;
		}
		break;
	default:
		break;
	}
}

/* SipHash over the hashed part of the keys, as its bytes would lie in
 * memory on a little-endian machine (the same on every machine). The
 * IPv6 addresses only when the flow has them. */
static uint32_t flow_hash_from_keys(struct flow_keys *k)
{
	uint8_t b[60];
	unsigned n = 32, i;
	uint32_t hash;

	flow_hash_consistentify(k);
	put_le16(b, k->basic.n_proto);
	b[2] = k->basic.ip_proto;
	b[3] = 0;
	put_le32(b + 4, k->tags.flow_label);
	put_le16(b + 8, k->vlan.vlan_id);
	put_le16(b + 10, k->vlan.vlan_tpid);
	put_le32(b + 12, k->keyid.keyid);
	put_le16(b + 16, k->ports.src);
	put_le16(b + 18, k->ports.dst);
	b[20] = k->icmp.type;
	b[21] = k->icmp.code;
	put_le16(b + 22, k->icmp.id);
	if (k->control.addr_type == FLOW_DISSECTOR_KEY_IPV6_ADDRS) {
		for (i = 0; i < 4; i++) {
			put_le32(b + 24 + 4 * i, k->addrs.v6src[i]);
			put_le32(b + 40 + 4 * i, k->addrs.v6dst[i]);
		}
		n = 56;
	} else {
		put_le32(b + 24, k->addrs.v4src);
		put_le32(b + 28, k->addrs.v4dst);
	}
	hash = (uint32_t)siphash(b, n, &hashrnd);
	return hash ? hash : 1;
}

/* The flow hash of a packet from its network header on (the link
 * header is not part of the flow), kept in the skb: sw_hash says it was
 * computed, l4_hash that ports went into it. */
void __skb_get_hash(struct sk_buff *skb)
{
	struct flow_keys k;
	uint32_t doff = (uint32_t)(skb->data - skb->head), noff = doff;
	uint32_t hash;

	if (skb->network > doff && skb->network < doff + skb->len)
		noff = skb->network;  /* skb_network_offset */
	memset(&k, 0, sizeof(k));
	if (skb_flow_dissect(&flow_keys_dissector, &k, skb->protocol,
			     skb->head + noff, skb->len - (noff - doff)) < 0)
		nb_stats.proto_seen[15]++;
	nb_stats.proto_seen[k.basic.ip_proto & 15]++;
	hash = flow_hash_from_keys(&k);
	skb->hash = hash;
	skb->sw_hash = 1;
	skb->l4_hash = k.ports.src || k.ports.dst;
}

/* Control plane at boot: the keys flow hashing asks for. */
void flow_dissector_init(void)
{
	struct flow_dissector *d = &flow_keys_dissector;
	static const struct { unsigned key; uint16_t off; } keys[] = {
		{ FLOW_DISSECTOR_KEY_CONTROL, offsetof(struct flow_keys, control) },
		{ FLOW_DISSECTOR_KEY_BASIC, offsetof(struct flow_keys, basic) },
		{ FLOW_DISSECTOR_KEY_IPV4_ADDRS, offsetof(struct flow_keys, addrs) },
		{ FLOW_DISSECTOR_KEY_IPV6_ADDRS, offsetof(struct flow_keys, addrs) },
		{ FLOW_DISSECTOR_KEY_TIPC, offsetof(struct flow_keys, addrs) },
		{ FLOW_DISSECTOR_KEY_PORTS, offsetof(struct flow_keys, ports) },
		{ FLOW_DISSECTOR_KEY_ICMP, offsetof(struct flow_keys, icmp) },
		{ FLOW_DISSECTOR_KEY_VLAN, offsetof(struct flow_keys, vlan) },
		{ FLOW_DISSECTOR_KEY_FLOW_LABEL, offsetof(struct flow_keys, tags) },
		{ FLOW_DISSECTOR_KEY_GRE_KEYID, offsetof(struct flow_keys, keyid) },
		{ FLOW_DISSECTOR_KEY_MPLS_ENTROPY, offsetof(struct flow_keys, keyid) },
	};
	unsigned i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		d->used_keys |= 1u << keys[i].key;
		d->offset[keys[i].key] = keys[i].off;
	}
}
