/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Connection tracking core: the L4 protocol and the tuple of a packet
 * (get_l4proto, tuples read through skb_header_pointer), the SipHash
 * hash of both directions of every connection, lookup with expiry on the
 * way and a reference taken on what is found (resolve_normal_ct), then
 * the protocol's tracker (nf_conntrack_handle_packet); unconfirmed
 * connections that enter the hash only when their first packet leaves
 * (confirm); references counted (the hash holds one, each packet another:
 * a connection killed while a packet holds it is freed by that packet);
 * early drop when the table is full, and the incremental garbage
 * collector.
 */
#include "fp_int.h"
#include "fp_irq.h"
#include "fp_mm.h"
#include "fp_util.h"

struct ct_table nb_ct;

#define GC_SCAN_BUCKETS 24u
#define GC_MAX_EVICTS 16u

/* The secret key of the tuple hash (nf_conntrack_hash_rnd). */
static struct siphash_key nf_conntrack_hash_rnd;

/* SipHash of the tuple as the kernel lays it out for hashing (IPv4 or
 * IPv6: 16-byte address unions, the zone, the namespace's mix), scaled
 * to the table. */
static uint32_t hash_conntrack_raw(const struct nf_tuple *t)
{
	uint8_t combined[48];

	/* src: address union, port, l3 number */
	put_le32(combined, t->src);
	put_le32(combined + 4, 0);
	put_le32(combined + 8, 0);
	put_le32(combined + 12, 0);
	put_le16(combined + 16, t->sport);
	put_le16(combined + 18, 2);  /* AF_INET */
	/* dst address union */
	put_le32(combined + 20, t->dst);
	put_le32(combined + 24, 0);
	put_le32(combined + 28, 0);
	put_le32(combined + 32, 0);
	put_le32(combined + 36, 0);  /* zone */
	put_le32(combined + 40, nb_ct.seed);  /* net_hash_mix */
	put_le16(combined + 44, t->dport);
	put_le16(combined + 46, t->proto);
	return (uint32_t)siphash(combined, sizeof(combined),
				 &nf_conntrack_hash_rnd);
}

static uint32_t tuple_hash(const struct nf_tuple *t)
{
	/* reciprocal_scale: the high bits pick the bucket */
	return (uint32_t)(((uint64_t)hash_conntrack_raw(t) * CT_HASH_SIZE) >> 32);
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

static const uint8_t nf_ct_ext_size[NF_CT_EXT_NUM] = {
	[NF_CT_EXT_HELPER] = sizeof(struct nf_conn_help),
	[NF_CT_EXT_NAT] = sizeof(struct nf_conn_nat),
	[NF_CT_EXT_ACCT] = sizeof(struct nf_conn_acct),
};

/* An extension added to a connection (the area grown, as krealloc
 * would), zeroed; NULL when memory is short. */
void *nf_ct_ext_add(struct nf_conn *ct, unsigned id)
{
	struct nf_ct_ext *old = ct->ext, *new;
	unsigned oldlen = old ? old->len : offsetof(struct nf_ct_ext, align);
	unsigned off = (oldlen + 7u) & ~7u, newlen = off + nf_ct_ext_size[id];

	if (old && old->offset[id])
		return (uint8_t *)old + old->offset[id];
	new = kmalloc(newlen);
	if (!new)
		return NULL;
	if (old) {
		memcpy(new, old, oldlen);
		kfree(old);
	} else {
		memset(new, 0, oldlen);
	}
	memset((uint8_t *)new + oldlen, 0, newlen - oldlen);
	new->offset[id] = (uint8_t)off;
	new->len = (uint8_t)newlen;
	ct->ext = new;
	return (uint8_t *)new + off;
}

static void ct_free(struct nf_conn *ct)
{
	kfree(ct->ext);
	ct->ext = NULL;
	ct->status = IPS_DYING;
	ct->free_next = nb_ct.free_head;
	nb_ct.free_head = (uint32_t)(ct - nb_ct.conn) + 1;
	nb_ct.count--;
}

/* A reference dropped: the last one frees the connection. */
void nf_ct_put(struct nf_conn *ct)
{
	if (--ct->use == 0)
		ct_free(ct);
}

/* Out of the table (nf_ct_delete): the table's reference goes. */
void nf_ct_kill(struct nf_conn *ct)
{
	if (!(ct->status & IPS_CONFIRMED) || ct->status & IPS_DYING)
		return;
	hash_unlink(ct, CT_DIR_ORIGINAL);
	hash_unlink(ct, CT_DIR_REPLY);
	ct->status |= IPS_DYING;
	nf_ct_put(ct);
}

static int ct_expired(const struct nf_conn *ct)
{
	return (int32_t)(ct->timeout - nb_jiffies) <= 0;
}

void nf_ct_refresh(struct nf_conn *ct, uint32_t timeout)
{
	ct->timeout = nb_jiffies + timeout;
}

/* The tuple, zone and namespace of a hash node match (nf_ct_key_equal). */
static int nf_ct_key_equal(const struct nf_conn *ct, unsigned dir,
			   const struct nf_tuple *t)
{
	return tuple_equal(&ct->tuple[dir], t) && !(ct->status & IPS_DYING);
}

/* The connection a tuple belongs to, no reference taken; *dir says
 * which direction. Expired entries met on the way are reaped. */
static struct nf_conn *____nf_conntrack_find(const struct nf_tuple *t,
					     unsigned *dir)
{
	uint32_t node = nb_ct.hash[tuple_hash(t)];

	nb_ct.searched++;
	while (node) {
		struct nf_conn *ct = node_ct(node);
		unsigned d = node_dir(node);
		uint32_t next = ct->hnext[d];

		if (ct_expired(ct)) {
			/* nf_ct_gc_expired: out of the way, and on. */
			if (next && node_ct(next) == ct)
				next = ct->hnext[node_dir(next)];
			nb_ct.expired++;
			nf_ct_kill(ct);
		} else if (nf_ct_key_equal(ct, d, t)) {
			*dir = d;
			return ct;
		}
		node = next;
	}
	return NULL;
}

/* The same with a reference (__nf_conntrack_find_get). */
struct nf_conn *nf_ct_find(const struct nf_tuple *t, unsigned *dir)
{
	struct nf_conn *ct = ____nf_conntrack_find(t, dir);

	if (!ct || ct->use <= 0)
		return NULL;
	nf_conntrack_get(ct);
	nb_ct.found++;
	return ct;
}

/* Is the tuple in use by a confirmed connection other than ignore? */
int nf_ct_tuple_taken(const struct nf_tuple *t, const struct nf_conn *ignore)
{
	unsigned dir;
	struct nf_conn *ct = ____nf_conntrack_find(t, &dir);

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
			nf_ct_kill(ct);
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
	ct->use = 1;  /* the packet's */
	ct->status = 0;
	ct->mark = 0;
	ct->state = TCP_CONNTRACK_NONE;
	ct->last_dir = ct->last_flags = ct->retrans = ct->last_index = 0;
	ct->last_seq = ct->last_ack = ct->last_end = 0;
	ct->last_win = 0;
	ct->flags = 0;
	ct->ext = NULL;
	/* nf_ct_acct_ext_add: byte and packet counters (connbytes) */
	nf_ct_ext_add(ct, NF_CT_EXT_ACCT);
	nf_ct_refresh(ct, 600);
	if (nf_ct_l4_new(ct, iph, l4, l4len) < 0) {
		nf_ct_put(ct);
		return NULL;
	}
	nb_ct.new++;
	return ct;
}

/* ipv4_get_l4proto: the L4 protocol and its offset from skb->data, or
 * -1 for a later fragment or a bogus header. */
static int get_l4proto(const struct sk_buff *skb, unsigned *protonum)
{
	uint8_t buf[20];
	const uint8_t *iph = skb_header_pointer(skb, 0, 20, buf);
	unsigned dataoff;

	if (!iph)
		return -1;
	/* Conntrack sees reassembled packets; fragments only inside
	 * ICMP errors. */
	if (rd16(iph + 6) & IP_OFFSET)
		return -1;
	dataoff = (iph[0] & 15u) * 4u;
	*protonum = iph[9];
	if (dataoff > skb->len)
		return -1;
	return (int)dataoff;
}

/* The connection of the packet, found or new, on skb->ct with its
 * ctinfo; *dir its direction. 0, or -1 when the table is full. */
static int resolve_normal_ct(struct sk_buff *skb, unsigned dataoff,
			     unsigned *dir, const struct nf_hook_state *st)
{
	const uint8_t *iph = skb->data;
	struct nf_tuple t;
	struct nf_conn *ct;

	if (nf_ct_get_tuple(&t, iph, skb->len, 0) < 0)
		return 0;  /* not trackable: untracked */
	*dir = CT_DIR_ORIGINAL;
	ct = nf_ct_find(&t, dir);
	if (!ct) {
		ct = init_conntrack(&t, iph, iph + dataoff, skb->len - dataoff,
				    st->in);
		if (!ct)
			return -1;
	}
	if (*dir == CT_DIR_REPLY)
		skb->ctinfo = IP_CT_ESTABLISHED_REPLY;
	else if (ct->status & IPS_SEEN_REPLY)
		skb->ctinfo = IP_CT_ESTABLISHED;
	else
		skb->ctinfo = IP_CT_NEW;
	skb->ct = ct;  /* nf_ct_set: the reference is the packet's */
	return 0;
}

unsigned nf_conntrack_in(void *priv, struct sk_buff *skb,
			 const struct nf_hook_state *st)
{
	unsigned protonum, dir = CT_DIR_ORIGINAL;
	const uint8_t *iph, *l4;
	struct nf_conn_acct *acct;
	struct nf_conn *ct;
	uint32_t l4len;
	int dataoff;

	if (skb->ct)
		return NF_ACCEPT;  /* seen already */
	dataoff = get_l4proto(skb, &protonum);
	if (dataoff <= 0) {
		nb_ct.invalid++;
		return NF_ACCEPT;
	}
	iph = skb->data;
	l4 = iph + dataoff;
	l4len = skb->len - (unsigned)dataoff;
	if (protonum == IPPROTO_ICMP && l4len >= 8 &&
	    (l4[0] == ICMP_DEST_UNREACH || l4[0] == ICMP_TIME_EXCEEDED ||
	     l4[0] == ICMP_PARAMETERPROB || l4[0] == ICMP_REDIRECT)) {
		/* An error: related to the connection it quotes. */
		if (nf_ct_icmp_error(skb, iph, l4, l4len) < 0) {
			skb->ctinfo = IP_CT_INVALID;
			nb_ct.invalid++;
		}
		return NF_ACCEPT;
	}
	if (resolve_normal_ct(skb, (unsigned)dataoff, &dir, st) < 0) {
		/* Too stressed to deal. */
		skb->ctinfo = IP_CT_INVALID;
		nb_ct.invalid++;
		return NF_ACCEPT;
	}
	ct = skb->ct;
	if (!ct) {
		skb->ctinfo = IP_CT_UNTRACKED;
		return NF_ACCEPT;
	}
	/* nf_conntrack_handle_packet: the protocol's tracker */
	if (nf_ct_l4_packet(ct, skb, iph, l4, l4len, dir, st->hook) < 0) {
		skb->ct = NULL;
		nf_ct_put(ct);
		skb->ctinfo = IP_CT_INVALID;
		nb_ct.invalid++;
		return NF_ACCEPT;
	}
	/* nf_ct_acct_update */
	acct = nf_ct_ext_find(ct, NF_CT_EXT_ACCT);
	if (acct) {
		acct->counter[dir].packets++;
		acct->counter[dir].bytes += skb->len;
	}
	if (dir == CT_DIR_REPLY)
		ct->status |= IPS_SEEN_REPLY;
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
	nf_conntrack_get(ct);  /* the table's reference */
	ct->status |= IPS_CONFIRMED;
	return NF_ACCEPT;
}

static struct timer_list gc_timer;

/* The last hook a packet meets (ipv4_confirm): the connection's helper,
 * then the connection into the table if it is new. */
unsigned nf_confirm(void *priv, struct sk_buff *skb,
		    const struct nf_hook_state *st)
{
	struct nf_conn *ct = skb->ct;

	if (ct && skb->ctinfo != IP_CT_RELATED_REPLY) {
		unsigned ret = nf_ct_helper(skb, ct);

		if (ret != NF_ACCEPT)
			return ret;
	}
	return nf_conntrack_confirm(priv, skb, st);
}

/* nf_defrag_ipv4: conntrack wants whole packets; a fragment would be
 * queued for reassembly. This router does not reassemble (senders use
 * DF): fragments go on, untracked. */
unsigned ipv4_conntrack_defrag(void *priv, struct sk_buff *skb,
			       const struct nf_hook_state *st)
{
	const uint8_t *iph = skb->data;

	if (skb->ct)
		return NF_ACCEPT;
	if (unlikely(rd16(iph + 6) & (IP_MF | IP_OFFSET)))
		nb_ct.defrag_seen++;
	return NF_ACCEPT;
}

/* Scans a few buckets a jiffy and reaps what has expired, like the
 * kernel's gc worker. */
static void nf_ct_gc_step(struct timer_list *t)
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
				nf_ct_kill(ct);
				evicted++;
			}
			node = next;
		}
	}
	mod_timer(t, nb_jiffies + 1);
}

/* Control plane: an empty table with every entry on the free list. */
void nf_ct_init(uint32_t seed)
{
	uint32_t i;

	nb_ct.seed = seed;
	nf_conntrack_hash_rnd.key[0] = seed * 0x9e3779b97f4a7c15ull;
	nf_conntrack_hash_rnd.key[1] = ~(uint64_t)seed * 0xc2b2ae3d27d4eb4full;
	nb_ct.free_head = 0;
	for (i = CT_MAX; i > 0; i--) {
		nb_ct.conn[i - 1].free_next = nb_ct.free_head;
		nb_ct.conn[i - 1].status = IPS_DYING;
		nb_ct.free_head = i;
	}
	nb_ct.count = 0;
	timer_setup(&gc_timer, nf_ct_gc_step);
	mod_timer(&gc_timer, nb_jiffies + 1);
}
