/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Connection tracking core: tuples, the hash of both directions of every
 * connection, lookup with expiry on the way, unconfirmed connections that
 * enter the hash only when their first packet leaves (confirm), early drop
 * when the table is full, and the incremental garbage collector.
 */
#include "fp_int.h"
#include "fp_util.h"

struct ct_table nb_ct;

#define GC_SCAN_BUCKETS 24u
#define GC_MAX_EVICTS 16u

static uint32_t tuple_hash(const struct nf_tuple *t)
{
	return hash_3words(t->src, t->dst ^ t->proto,
			   (uint32_t)t->sport << 16 | t->dport, nb_ct.seed) %
	       CT_HASH_SIZE;
}

static int tuple_equal(const struct nf_tuple *a, const struct nf_tuple *b)
{
	return a->src == b->src && a->dst == b->dst && a->sport == b->sport &&
	       a->dport == b->dport && a->proto == b->proto;
}

static inline struct nf_conn *node_ct(uint32_t node)
{
	return &nb_ct.conn[(node - 1) >> 1];
}

static inline unsigned node_dir(uint32_t node)
{
	return (node - 1) & 1;
}

static inline uint32_t make_node(const struct nf_conn *ct, unsigned dir)
{
	return ((uint32_t)(ct - nb_ct.conn) << 1 | dir) + 1;
}

static void hash_unlink(struct nf_conn *ct, unsigned dir)
{
	uint32_t node = make_node(ct, dir);
	uint32_t *pp = &nb_ct.hash[tuple_hash(&ct->tuple[dir])];

	while (*pp) {
		if (*pp == node) {
			*pp = ct->hnext[dir];
			return;
		}
		pp = &node_ct(*pp)->hnext[node_dir(*pp)];
	}
}

static void ct_free(struct nf_conn *ct)
{
	ct->status = IPS_DYING;
	ct->free_next = nb_ct.free_head;
	nb_ct.free_head = (uint32_t)(ct - nb_ct.conn) + 1;
	nb_ct.count--;
}

static void ct_kill(struct nf_conn *ct)
{
	if (ct->status & IPS_CONFIRMED) {
		hash_unlink(ct, CT_DIR_ORIGINAL);
		hash_unlink(ct, CT_DIR_REPLY);
	}
	ct_free(ct);
}

static int ct_expired(const struct nf_conn *ct)
{
	return (int32_t)(ct->timeout - nb_jiffies) <= 0;
}

void nf_ct_refresh(struct nf_conn *ct, uint32_t timeout)
{
	ct->timeout = nb_jiffies + timeout;
}

/* Finds the connection a tuple belongs to; *dir says which direction.
 * Expired entries met on the way are reaped. */
struct nf_conn *nf_ct_find(const struct nf_tuple *t, unsigned *dir)
{
	uint32_t node = nb_ct.hash[tuple_hash(t)];

	nb_ct.searched++;
	while (node) {
		struct nf_conn *ct = node_ct(node);
		unsigned d = node_dir(node);
		uint32_t next = ct->hnext[d];

		if (tuple_equal(&ct->tuple[d], t)) {
			if (ct_expired(ct)) {
				nb_ct.expired++;
				ct_kill(ct);
				return NULL;
			}
			nb_ct.found++;
			*dir = d;
			return ct;
		}
		node = next;
	}
	return NULL;
}

/* Is the tuple in use by a confirmed connection other than ignore? */
int nf_ct_tuple_taken(const struct nf_tuple *t, const struct nf_conn *ignore)
{
	unsigned dir;
	struct nf_conn *ct = nf_ct_find(t, &dir);

	return ct && ct != ignore;
}

void nf_ct_invert_tuple(struct nf_tuple *inv, const struct nf_tuple *t)
{
	inv->src = t->dst;
	inv->dst = t->src;
	inv->proto = t->proto;
	inv->dir = (uint8_t)!t->dir;
	if (t->proto == IPPROTO_ICMP) {
		unsigned type = t->dport >> 8;

		switch (type) {
		case ICMP_ECHO: type = ICMP_ECHOREPLY; break;
		case ICMP_ECHOREPLY: type = ICMP_ECHO; break;
		case 13: type = 14; break;
		case 14: type = 13; break;
		case 15: type = 16; break;
		case 16: type = 15; break;
		case 17: type = 18; break;
		case 18: type = 17; break;
		default: break;
		}
		inv->sport = t->sport;
		inv->dport = (uint16_t)(type << 8 | (t->dport & 0xff));
		return;
	}
	inv->sport = t->dport;
	inv->dport = t->sport;
}

/* Tuple of an IPv4 packet at iph with len bytes; inner: a header quoted in
 * an ICMP error (only 8 bytes of it follow). 0 or -1. */
int nf_ct_get_tuple(struct nf_tuple *t, const uint8_t *iph, uint32_t len,
		    int inner)
{
	unsigned ihl = (iph[0] & 15u) * 4u;
	const uint8_t *l4 = iph + ihl;

	if (len < ihl)
		return -1;
	t->src = rd32(iph + 12);
	t->dst = rd32(iph + 16);
	t->proto = iph[9];
	t->dir = CT_DIR_ORIGINAL;
	t->sport = t->dport = 0;
	if (!inner && rd16(iph + 6) & (IP_MF | IP_OFFSET))
		return -1;
	switch (t->proto) {
	case IPPROTO_TCP:
	case IPPROTO_UDP:
	case IPPROTO_UDPLITE:
	case IPPROTO_SCTP:
	case IPPROTO_DCCP:
		if (len < ihl + 4)
			return -1;
		t->sport = rd16(l4);
		t->dport = rd16(l4 + 2);
		return 0;
	case IPPROTO_ICMP:
		if (len < ihl + 8)
			return -1;
		t->sport = rd16(l4 + 4);
		t->dport = (uint16_t)(l4[0] << 8 | l4[1]);
		return 0;
	default:
		return 0;  /* generic: addresses only (GRE, ESP, ...) */
	}
}

static struct nf_conn *ct_alloc(void)
{
	struct nf_conn *ct;

	if (!nb_ct.free_head)
		return NULL;
	ct = &nb_ct.conn[nb_ct.free_head - 1];
	nb_ct.free_head = ct->free_next;
	nb_ct.count++;
	return ct;
}

/* The table is full: drop a connection that never saw a reply from the
 * bucket the new one hashes to. */
static int early_drop(const struct nf_tuple *t)
{
	uint32_t node = nb_ct.hash[tuple_hash(t)];

	while (node) {
		struct nf_conn *ct = node_ct(node);

		if (!(ct->status & IPS_ASSURED)) {
			ct_kill(ct);
			nb_ct.early_drop++;
			return 0;
		}
		node = ct->hnext[node_dir(node)];
	}
	return -1;
}

static struct nf_conn *init_conntrack(const struct nf_tuple *t,
				      const uint8_t *iph, const uint8_t *l4,
				      uint32_t l4len, unsigned dev)
{
	struct nf_conn *ct;

	if (nb_ct.count >= CT_MAX - 1 && early_drop(t) < 0)
		return NULL;
	ct = ct_alloc();
	if (!ct)
		return NULL;
	ct->tuple[0] = *t;
	nf_ct_invert_tuple(&ct->tuple[1], t);
	ct->hnext[0] = ct->hnext[1] = 0;
	ct->status = 0;
	ct->mark = 0;
	ct->state = TCP_CONNTRACK_NONE;
	ct->last_dir = ct->last_flags = ct->retrans = 0;
	ct->last_seq = ct->last_ack = ct->last_end = 0;
	ct->last_win = 0;
	ct->app = 0;
	ct->cls = 0;
	ct->oif = IF_NONE;
	ct->flags = 0;
	ct->app_key = ct->app_msgs = ct->app_bad = 0;
	ct->at.state = ct->at.flags = 0;
	ct->at.msgs[0] = ct->at.msgs[1] = 0;
	ct->at.bytes[0] = ct->at.bytes[1] = 0;
	ct->at.last = nb_jiffies;
	ct->at.v[0] = ct->at.v[1] = ct->at.v[2] = 0;
	ct->packets[0] = ct->packets[1] = 0;
	ct->bytes[0] = ct->bytes[1] = 0;
	nf_ct_refresh(ct, 600);
	if (nf_ct_l4_new(ct, iph, l4, l4len) < 0) {
		ct_free(ct);
		return NULL;
	}
	nb_ct.new++;
	return ct;
}

/* Drops the tracking of a packet whose connection never got confirmed. */
void nf_ct_put_unconfirmed(struct nf_conn *ct)
{
	if (!(ct->status & (IPS_CONFIRMED | IPS_DYING)))
		ct_free(ct);
}

unsigned nf_conntrack_in(void *priv, struct sk_buff *skb,
			 const struct nf_hook_state *st)
{
	const uint8_t *iph = skb->head + skb->network;
	unsigned ihl = (iph[0] & 15u) * 4u, dir = CT_DIR_ORIGINAL;
	const uint8_t *l4 = iph + ihl;
	uint32_t l4len = skb->len - ihl;
	struct nf_tuple t;
	struct nf_conn *ct;

	if (skb->ct)
		return NF_ACCEPT;
	if (iph[9] == IPPROTO_ICMP && l4len >= 8 &&
	    (l4[0] == ICMP_DEST_UNREACH || l4[0] == ICMP_TIME_EXCEEDED ||
	     l4[0] == ICMP_PARAMETERPROB || l4[0] == ICMP_REDIRECT)) {
		if (nf_ct_icmp_error(skb, iph, l4, l4len) < 0) {
			skb->ctinfo = IP_CT_INVALID;
			nb_ct.invalid++;
		}
		return NF_ACCEPT;
	}
	if (nf_ct_get_tuple(&t, iph, skb->len, 0) < 0) {
		skb->ctinfo = IP_CT_UNTRACKED;
		return NF_ACCEPT;
	}
	ct = nf_ct_find(&t, &dir);
	if (!ct) {
		ct = init_conntrack(&t, iph, l4, l4len, st->in);
		if (!ct) {
			skb->ctinfo = IP_CT_INVALID;
			nb_ct.invalid++;
			return NF_ACCEPT;
		}
	}
	if (nf_ct_l4_packet(ct, skb, iph, l4, l4len, dir) < 0) {
		nf_ct_put_unconfirmed(ct);
		skb->ctinfo = IP_CT_INVALID;
		nb_ct.invalid++;
		return NF_ACCEPT;
	}
	ct->packets[dir]++;
	ct->bytes[dir] += skb->len;
	if (dir == CT_DIR_REPLY) {
		skb->ctinfo = IP_CT_ESTABLISHED_REPLY;
		ct->status |= IPS_SEEN_REPLY;
	} else if (ct->status & IPS_SEEN_REPLY) {
		skb->ctinfo = IP_CT_ESTABLISHED;
	} else {
		skb->ctinfo = IP_CT_NEW;
	}
	skb->ct = ct;
	return NF_ACCEPT;
}

unsigned nf_conntrack_confirm(void *priv, struct sk_buff *skb,
			      const struct nf_hook_state *st)
{
	struct nf_conn *ct = skb->ct;
	uint32_t h0, h1;

	if (!ct || ct->status & IPS_CONFIRMED)
		return NF_ACCEPT;
	if (skb->ctinfo == IP_CT_RELATED || skb->ctinfo == IP_CT_RELATED_REPLY)
		return NF_ACCEPT;
	/* NAT may have picked a reply tuple someone else got first. */
	if (nf_ct_tuple_taken(&ct->tuple[CT_DIR_REPLY], ct) ||
	    nf_ct_tuple_taken(&ct->tuple[CT_DIR_ORIGINAL], ct)) {
		nb_ct.insert_failed++;
		nb_ct.dropped++;
		kfree_skb(skb);
		return NF_STOLEN;
	}
	h0 = tuple_hash(&ct->tuple[CT_DIR_ORIGINAL]);
	h1 = tuple_hash(&ct->tuple[CT_DIR_REPLY]);
	ct->hnext[CT_DIR_ORIGINAL] = nb_ct.hash[h0];
	nb_ct.hash[h0] = make_node(ct, CT_DIR_ORIGINAL);
	ct->hnext[CT_DIR_REPLY] = nb_ct.hash[h1];
	nb_ct.hash[h1] = make_node(ct, CT_DIR_REPLY);
	ct->status |= IPS_CONFIRMED;
	return NF_ACCEPT;
}

/* Scans a few buckets per call and reaps what has expired, like the
 * kernel's gc worker. */
void nf_ct_gc_step(void)
{
	unsigned b, evicted = 0;

	for (b = 0; b < GC_SCAN_BUCKETS && evicted < GC_MAX_EVICTS; b++) {
		uint32_t bucket = nb_ct.gc_bucket;
		uint32_t node = nb_ct.hash[bucket];

		nb_ct.gc_bucket = (bucket + 1) % CT_HASH_SIZE;
		while (node) {
			struct nf_conn *ct = node_ct(node);
			uint32_t next = ct->hnext[node_dir(node)];

			if (ct_expired(ct)) {
				/* The other direction may be the next node. */
				if (next && node_ct(next) == ct)
					next = ct->hnext[node_dir(next)];
				nb_ct.expired++;
				ct_kill(ct);
				evicted++;
			}
			node = next;
		}
	}
}

/* Control plane: an empty table with every entry on the free list. */
void nf_ct_init(uint32_t seed)
{
	uint32_t i;

	nb_ct.seed = seed;
	nb_ct.free_head = 0;
	for (i = CT_MAX; i > 0; i--) {
		nb_ct.conn[i - 1].free_next = nb_ct.free_head;
		nb_ct.conn[i - 1].status = IPS_DYING;
		nb_ct.free_head = i;
	}
	nb_ct.count = 0;
}
