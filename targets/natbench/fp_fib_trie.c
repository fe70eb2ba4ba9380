/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The routing table as a level-compressed trie (the kernel's fib_trie,
 * which every IPv4 route lookup walks): a leaf per distinct prefix value
 * holding its routes (fib_alias, longest prefix first), internal nodes
 * that index 2^bits children with the address bits [pos, pos + bits) and
 * skip, by their key, whatever bits no route tells apart. The lookup
 * follows the destination's bits down, then backtracks for shorter
 * prefixes: in each node it tries the child indexes the destination's
 * index becomes with its lowest set bits cleared one at a time (the only
 * places a shorter prefix covering the destination can be), and a
 * subtree whose routes are all too long to cover the address where it
 * differs from the subtree's key is skipped whole (the node's slen, the
 * longest suffix below it). The first leaf that covers the destination
 * holds the longest match.
 *
 * Routes are added one at a time (control plane): a new leaf hangs off
 * a new one-bit node where its key first differs from what is there, and
 * every node on the way back up is widened (inflated: twice the children,
 * one bit lower) while it would be at least half full, a quarter for the
 * root, so that a lookup crosses few nodes. Routes are never removed in
 * the model, so nodes are never halved.
 */
#include "fp_int.h"
#include "fp_mm.h"
#include "fp_util.h"

#define KEYLENGTH 32u
#define TNODE_MAX_BITS 8u

struct key_vector {
	uint32_t key;         /* tnode: the bits above pos + bits; leaf: all */
	uint8_t pos;          /* tnode: the index's lowest bit */
	uint8_t bits;         /* tnode: bits in the index; 0 for a leaf */
	uint8_t slen;         /* longest suffix (32 - prefix) below */
	uint8_t full_children;  /* children that are tnodes right below */
	uint32_t empty_children;
	struct key_vector *parent;
	struct fib_alias *leaf;  /* a leaf's routes, longest prefix first */
	struct key_vector *tnode[];  /* a tnode's children */
};

#define IS_LEAF(n) ((n)->bits == 0)

struct fib_table nb_fib;
static struct kmem_cache *trie_leaf_kmem, *fn_alias_kmem;
static uint64_t lookups, backtracks;

static inline uint32_t shr32(uint32_t v, unsigned s)
{
	return s < KEYLENGTH ? v >> s : 0;
}

/* The child index of key in tnode kv (the key must share kv's prefix). */
static inline uint32_t get_index(uint32_t key, const struct key_vector *kv)
{
	return (key ^ kv->key) >> kv->pos;
}

/* 1 if no route below n can cover key: key differs from n's key above
 * the longest suffix of n's routes (or above n's index, for a tnode). */
static inline int prefix_mismatch(uint32_t key, const struct key_vector *n)
{
	unsigned s = n->slen;

	if (!IS_LEAF(n) && s < (unsigned)n->pos + n->bits)
		s = (unsigned)n->pos + n->bits;
	return shr32(key ^ n->key, s) != 0;
}

/* ---- lookup ---- */

/* The longest of a leaf's routes that covers key. */
static struct fib_alias *leaf_match(const struct key_vector *l, uint32_t key)
{
	struct fib_alias *fa;
	uint32_t diff = key ^ l->key;

	for (fa = l->leaf; fa; fa = fa->fa_next) {
		if (!shr32(diff, fa->slen))
			return fa;  /* the same within the prefix */
	}
	return NULL;
}

int fib_table_lookup(struct fib_table *tb, uint32_t key,
		     struct fib_result *res)
{
	struct key_vector *n = tb->root, *pn = NULL;
	struct fib_alias *fa;
	uint32_t cindex = 0;

	lookups++;
	for (;;) {
		if (n && !prefix_mismatch(key, n)) {
			if (IS_LEAF(n)) {
				fa = leaf_match(n, key);
				if (fa)
					break;
			} else {
				/* Down to the child the key's own bits name. */
				pn = n;
				cindex = shr32(key, pn->pos) &
					 ((1u << pn->bits) - 1);
				n = pn->tnode[cindex];
				continue;
			}
		}
		/* Backtrack: the next index with one set bit fewer, up a
		 * level when none is left. */
		if (!pn)
			return -1;
		backtracks++;
		while (!cindex) {
			n = pn;
			pn = n->parent;
			if (!pn)
				return -1;
			cindex = get_index(n->key, pn);
		}
		cindex &= cindex - 1;
		n = pn->tnode[cindex];
	}
	fa->hits++;
	res->type = fa->type;
	res->oif = fa->oif;
	res->plen = fa->plen;
	res->gw = fa->gw;
	res->prefsrc = fa->prefsrc;
	res->fa = fa;
	return 0;
}

int fib_lookup(struct fib_result *res, uint32_t dst)
{
	return fib_table_lookup(&nb_fib, dst, res);
}

/* ---- insertion (control plane) ---- */

static struct key_vector *leaf_new(uint32_t key)
{
	struct key_vector *l = kmem_cache_alloc(trie_leaf_kmem);

	if (!l)
		return NULL;
	memset(l, 0, sizeof(*l));
	l->key = key;
	return l;
}

static struct key_vector *tnode_new(uint32_t key, unsigned pos, unsigned bits)
{
	size_t sz = sizeof(struct key_vector) +
		    ((size_t)1 << bits) * sizeof(struct key_vector *);
	struct key_vector *tn = kmalloc(sz);

	if (!tn)
		return NULL;
	memset(tn, 0, sz);
	tn->key = pos + bits >= KEYLENGTH ? 0 : key >> (pos + bits) << (pos + bits);
	tn->pos = (uint8_t)pos;
	tn->bits = (uint8_t)bits;
	tn->slen = (uint8_t)pos;
	tn->empty_children = 1u << bits;
	return tn;
}

/* A child "full": a tnode whose index ends right below tn's. */
static int tnode_full(const struct key_vector *tn, const struct key_vector *n)
{
	return n && !IS_LEAF(n) && (unsigned)n->pos + n->bits == tn->pos;
}

static void put_child(struct key_vector *tn, uint32_t i, struct key_vector *n)
{
	struct key_vector *chi = tn->tnode[i];

	if (!n && chi)
		tn->empty_children++;
	else if (n && !chi)
		tn->empty_children--;
	if (tnode_full(tn, chi))
		tn->full_children--;
	if (tnode_full(tn, n))
		tn->full_children++;
	if (n && n->slen > tn->slen)
		tn->slen = n->slen;
	tn->tnode[i] = n;
	if (n)
		n->parent = tn;
}

static void replace_child(struct fib_table *tb, struct key_vector *pn,
			  uint32_t key, struct key_vector *n)
{
	if (!pn) {
		tb->root = n;
		if (n)
			n->parent = NULL;
	} else {
		put_child(pn, get_index(key, pn), n);
	}
}

static void update_slen(struct key_vector *n)
{
	for (; n && !IS_LEAF(n); n = n->parent) {
		uint32_t i;
		unsigned slen = n->pos;

		for (i = 0; i < 1u << n->bits; i++)
			if (n->tnode[i] && n->tnode[i]->slen > slen)
				slen = n->tnode[i]->slen;
		n->slen = (uint8_t)slen;
	}
}

/* Children tn would have non-empty with one more bit: a full child
 * splits in two, any other moves whole. */
static unsigned inflated_children(const struct key_vector *tn)
{
	return (1u << tn->bits) - tn->empty_children + tn->full_children;
}

static int should_inflate(const struct key_vector *tn, int root)
{
	unsigned size = 2u << tn->bits;

	if (tn->bits >= TNODE_MAX_BITS || tn->pos == 0)
		return 0;
	return inflated_children(tn) * (root ? 4u : 2u) >= size;
}

/* A one-bit-lower half of a full child: its children whose top index bit
 * is b, under a node of one bit fewer (or the child itself if only one). */
static struct key_vector *split_half(struct key_vector *c, unsigned b)
{
	uint32_t half = 1u << (c->bits - 1), i, used = 0;
	struct key_vector *h, *only = NULL;

	for (i = 0; i < half; i++)
		if (c->tnode[b * half + i]) {
			used++;
			only = c->tnode[b * half + i];
		}
	if (used <= 1)
		return only;
	h = tnode_new(c->key | (uint32_t)b << (c->pos + c->bits - 1),
		      c->pos, c->bits - 1u);
	if (!h)
		return NULL;
	for (i = 0; i < half; i++)
		if (c->tnode[b * half + i])
			put_child(h, i, c->tnode[b * half + i]);
	return h;
}

/* tn with one more bit: each child moves to the slot its next key bit
 * names, full children split in two. */
static struct key_vector *inflate(struct fib_table *tb, struct key_vector *oldtn)
{
	struct key_vector *tn, *pn = oldtn->parent;
	uint32_t i;

	tn = tnode_new(oldtn->key, oldtn->pos - 1u, oldtn->bits + 1u);
	if (!tn)
		return oldtn;
	for (i = 0; i < 1u << oldtn->bits; i++) {
		struct key_vector *c = oldtn->tnode[i];

		if (!c)
			continue;
		if (!tnode_full(oldtn, c)) {
			put_child(tn, get_index(c->key, tn), c);
			continue;
		}
		if (c->bits == 1) {
			if (c->tnode[0])
				put_child(tn, 2 * i, c->tnode[0]);
			if (c->tnode[1])
				put_child(tn, 2 * i + 1, c->tnode[1]);
		} else {
			struct key_vector *lo = split_half(c, 0);
			struct key_vector *hi = split_half(c, 1);

			if (lo)
				put_child(tn, 2 * i, lo);
			if (hi)
				put_child(tn, 2 * i + 1, hi);
		}
		kfree(c);
	}
	replace_child(tb, pn, tn->key, tn);
	kfree(oldtn);
	update_slen(tn);
	return tn;
}

static void trie_rebalance(struct fib_table *tb, struct key_vector *tn)
{
	while (tn) {
		while (should_inflate(tn, tn->parent == NULL)) {
			struct key_vector *n = inflate(tb, tn);

			if (n == tn)
				break;
			tn = n;
		}
		update_slen(tn);
		tn = tn->parent;
	}
}

/* The leaf of key, or NULL with *tp the tnode it would hang from. */
static struct key_vector *fib_find_node(struct fib_table *tb,
					struct key_vector **tp, uint32_t key)
{
	struct key_vector *pn = NULL, *n = tb->root;

	while (n) {
		uint32_t index = get_index(key, n);

		if (shr32(index, n->bits))
			break;  /* the key leaves n's prefix here */
		if (IS_LEAF(n))
			return n;
		pn = n;
		n = n->tnode[index];
	}
	*tp = pn;
	return NULL;
}

static int fib_insert_node(struct fib_table *tb, struct key_vector *tp,
			   uint32_t key, struct fib_alias *fa)
{
	struct key_vector *l = leaf_new(key), *n;

	if (!l)
		return -1;
	l->leaf = fa;
	l->slen = fa->slen;
	n = tp ? tp->tnode[get_index(key, tp)] : tb->root;
	if (n) {
		/* A node where key and n's key first differ. */
		uint32_t diff = key ^ n->key;
		unsigned pos = 31u - (unsigned)__builtin_clz(diff);
		struct key_vector *tn = tnode_new(key, pos, 1);

		if (!tn)
			return -1;
		put_child(tn, get_index(key, tn), l);
		put_child(tn, get_index(n->key, tn), n);
		replace_child(tb, tp, key, tn);
		tp = tn;
	} else {
		replace_child(tb, tp, key, l);
	}
	update_slen(tp);
	trie_rebalance(tb, tp);
	return 0;
}

/* Control plane (runs at configuration time): adds a route. 0 or -1. */
int fib_insert(uint32_t prefix, unsigned plen, unsigned type, unsigned oif,
	       uint32_t gw, uint32_t prefsrc)
{
	struct key_vector *l, *tp = NULL;
	struct fib_alias *fa, **pp;
	uint32_t key;

	if (plen > KEYLENGTH)
		return -1;
	key = plen ? prefix & (0xffffffffu << (KEYLENGTH - plen)) : 0;
	fa = kmem_cache_alloc(fn_alias_kmem);
	if (!fa)
		return -1;
	memset(fa, 0, sizeof(*fa));
	fa->key = key;
	fa->plen = (uint8_t)plen;
	fa->slen = (uint8_t)(KEYLENGTH - plen);
	fa->type = (uint8_t)type;
	fa->oif = (uint8_t)oif;
	fa->gw = gw;
	fa->prefsrc = prefsrc;
	nb_fib.nalias++;
	rt_cache_flush();
	l = fib_find_node(&nb_fib, &tp, key);
	if (!l)
		return fib_insert_node(&nb_fib, tp, key, fa);
	/* Another prefix length of the same value: into the leaf's list,
	 * longest first. */
	for (pp = &l->leaf; *pp && (*pp)->plen > plen; pp = &(*pp)->fa_next)
		;
	fa->fa_next = *pp;
	*pp = fa;
	if (fa->slen > l->slen) {
		l->slen = fa->slen;
		update_slen(l->parent);
	}
	return 0;
}

void fib_trie_init(void)
{
	fn_alias_kmem = kmem_cache_create("ip_fib_alias",
					  (unsigned)sizeof(struct fib_alias), 8);
	trie_leaf_kmem = kmem_cache_create("ip_fib_trie",
					   (unsigned)sizeof(struct key_vector), 8);
	nb_fib.root = NULL;
}
