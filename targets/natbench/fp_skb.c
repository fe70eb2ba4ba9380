/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Socket buffers: the sk_buff heads come from their own slab cache, the
 * data either from a page fragment (a receive buffer the driver hands to
 * build_skb) or from kmalloc (alloc_skb, for the packets the router makes
 * and for expanded heads). Every data buffer ends with its shared info
 * (fragment list, data reference count). Clones share the data; writing
 * to the headers of a shared buffer, or pushing more headers than its
 * headroom holds, first copies the head (pskb_expand_head, through
 * skb_cow_head and skb_ensure_writable). The release path drops the
 * connection reference, the data reference (the buffer goes back to the
 * page-fragment or kmalloc allocator with the last) and the head, and
 * counts drop reasons as the kernel does.
 */
#include "fp_int.h"
#include "fp_mm.h"
#include "fp_util.h"

#define MAX_SKB_FRAGS 17u
#define NET_SKB_PAD 32u
#define SKB_DATA_ALIGN(x) (((x) + (NB_LINE - 1)) & ~(uint32_t)(NB_LINE - 1))

struct skb_frag {
	struct page *page;
	uint32_t offset, size;
};

/* At the end of every data buffer (skb->head + skb->end). */
struct skb_shared_info {
	uint8_t flags, meta_len, nr_frags, tx_flags;
	uint16_t gso_size, gso_segs;
	struct sk_buff *frag_list;
	uint32_t gso_type, tskey;
	/* build_skb clears everything above */
	int32_t dataref;
	void *destructor_arg;
	struct skb_frag frags[MAX_SKB_FRAGS];
};

#define SHINFO_SIZE SKB_DATA_ALIGN((uint32_t)sizeof(struct skb_shared_info))
#define SKB_TRUESIZE(x) ((x) + SKB_DATA_ALIGN((uint32_t)sizeof(struct sk_buff)) + \
			 SHINFO_SIZE)

static struct kmem_cache *skbuff_head_cache;
static struct page_frag_cache netdev_alloc_cache[NB_NCPUS];
static uint64_t drop_reasons[SKB_DROP_MAX];
static uint64_t skb_panics, consumed, expanded, clones;

static inline struct skb_shared_info *skb_shinfo(const struct sk_buff *skb)
{
	return (struct skb_shared_info *)(void *)(skb->head + skb->end);
}

static inline unsigned skb_headroom(const struct sk_buff *skb)
{
	return (unsigned)(skb->data - skb->head);
}

/* A receive buffer for a driver: a page fragment of this CPU's cache. */
void *netdev_alloc_frag(unsigned fragsz)
{
	return page_frag_alloc(&netdev_alloc_cache[smp_processor_id()],
			       SKB_DATA_ALIGN(fragsz), ~(NB_LINE - 1));
}

static void __finalize_skb_around(struct sk_buff *skb, uint8_t *data,
				  unsigned size)
{
	struct skb_shared_info *shinfo;

	/* The shared info takes the end of the buffer. */
	size -= SHINFO_SIZE;
	skb->truesize = SKB_TRUESIZE(size);
	skb->users = 1;
	skb->head = data;
	skb->data = data;
	skb->len = 0;
	skb->end = size;
	skb->dev = IF_NONE;
	skb->odev = IF_NONE;
	skb->ctinfo = IP_CT_UNTRACKED;
	skb->ldev = ND_NONE;
	shinfo = skb_shinfo(skb);
	memset(shinfo, 0, offsetof(struct skb_shared_info, dataref));
	shinfo->dataref = 1;
}

/* An sk_buff around a buffer the device filled (frag_size: its size). */
struct sk_buff *build_skb(void *data, unsigned frag_size)
{
	struct sk_buff *skb = kmem_cache_alloc(skbuff_head_cache);

	if (unlikely(!skb))
		return NULL;
	memset(skb, 0, sizeof(*skb));
	__finalize_skb_around(skb, data, frag_size);
	skb->head_frag = 1;
	return skb;
}

/* An sk_buff with a kmalloc'ed buffer of at least size bytes. */
struct sk_buff *alloc_skb(unsigned size)
{
	struct sk_buff *skb = kmem_cache_alloc(skbuff_head_cache);
	uint8_t *data;

	if (unlikely(!skb))
		return NULL;
	/* kmalloc_reserve: round up to what the slab gives anyway, and
	 * use all of it. */
	size = (unsigned)kmalloc_size_roundup(SKB_DATA_ALIGN(size) + SHINFO_SIZE);
	data = kmalloc(size);
	if (unlikely(!data)) {
		kmem_cache_free(skbuff_head_cache, skb);
		return NULL;
	}
	memset(skb, 0, sizeof(*skb));
	__finalize_skb_around(skb, data, size);
	return skb;
}

/* A buffer for a packet the router makes itself (ARP, ICMP, resets):
 * size bytes of payload after room for every link header. */
struct sk_buff *skb_alloc_local(unsigned size)
{
	struct sk_buff *skb = alloc_skb(NB_HEADROOM + size);

	if (!skb)
		return NULL;
	skb->data += NB_HEADROOM;  /* skb_reserve */
	skb->local = 1;
	return skb;
}

/* Header space in front of the data; the kernel panics on underflow, the
 * model counts it and refuses. */
uint8_t *skb_push(struct sk_buff *skb, unsigned len)
{
	if (unlikely(skb_headroom(skb) < len)) {
		skb_panics++;
		return NULL;
	}
	skb->data -= len;
	skb->len += len;
	return skb->data;
}

uint8_t *skb_pull(struct sk_buff *skb, unsigned len)
{
	if (unlikely(len > skb->len))
		return NULL;
	skb->len -= len;
	skb->data += len;
	return skb->data;
}

uint8_t *skb_put(struct sk_buff *skb, unsigned len)
{
	uint8_t *tail = skb->data + skb->len;

	if (unlikely(tail + len > skb->head + skb->end)) {
		skb_panics++;
		return NULL;
	}
	skb->len += len;
	return tail;
}

int pskb_may_pull(const struct sk_buff *skb, unsigned len)
{
	return likely(len <= skb->len);
}

void skb_trim(struct sk_buff *skb, unsigned len)
{
	if (len < skb->len)
		skb->len = len;
}

/* Trims to len bytes, taking the dropped ones out of a full sum. */
int pskb_trim_rcsum(struct sk_buff *skb, unsigned len)
{
	if (len >= skb->len)
		return 0;
	if (skb->ip_summed == CHECKSUM_COMPLETE) {
		uint32_t s = skb->csum + (uint16_t)~csum_partial(skb->data + len,
							       skb->len - len, 0);

		s = (s & 0xffff) + (s >> 16);
		skb->csum = (s & 0xffff) + (s >> 16);
	}
	skb->len = len;
	return 0;
}

/* skb_postpull_rcsum: a known full sum loses the pulled bytes. */
uint8_t *skb_pull_rcsum(struct sk_buff *skb, unsigned len)
{
	uint8_t *start = skb->data;

	if (unlikely(!skb_pull(skb, len)))
		return NULL;
	if (skb->ip_summed == CHECKSUM_COMPLETE) {
		uint32_t s = skb->csum + (uint16_t)~csum_partial(start, len, 0);

		skb->csum = (s & 0xffff) + (s >> 16);
	}
	return skb->data;
}

/* The tag of a frame at skb->data (skb->protocol its TPID) out of the
 * frame into the sk_buff, the MAC addresses moved up to the payload's
 * ethertype (skb_reorder_vlan_header), as a NIC that strips tags leaves
 * it. 0, or -1 (the frame is freed). */
int skb_vlan_untag(struct sk_buff *skb)
{
	unsigned mac_len;
	uint8_t *mac;

	if (unlikely(skb->vlan_present))
		return 0;  /* one tag at a time */
	if (unlikely(!pskb_may_pull(skb, VLAN_HLEN + 2)))
		goto err;
	skb->vlan_proto = skb->protocol;
	skb->vlan_tci = rd16(skb->data);
	skb->vlan_present = 1;
	skb_pull_rcsum(skb, VLAN_HLEN);
	/* vlan_set_encap_proto: the ethertype under the tag */
	skb->protocol = rd16(skb->data - 2);
	if (unlikely(skb_cow_head(skb, 0)))
		goto err;
	mac = skb->head + skb->mac;
	mac_len = (unsigned)(skb->data - mac);
	if (likely(mac_len > VLAN_HLEN + 2))
		memmove(mac + VLAN_HLEN, mac, mac_len - VLAN_HLEN - 2);
	skb->mac = (uint16_t)(skb->mac + VLAN_HLEN);
	skb->network = (uint16_t)(skb->data - skb->head);
	return 0;
err:
	kfree_skb_reason(skb, SKB_DROP_VLAN);
	return -1;
}

/* Another sk_buff for the same data (the bridge's copy per port). */
struct sk_buff *skb_clone(struct sk_buff *skb)
{
	struct sk_buff *n = kmem_cache_alloc(skbuff_head_cache);

	if (unlikely(!n))
		return NULL;
	*n = *skb;
	n->next = NULL;
	n->users = 1;
	if (n->ct)
		nf_conntrack_get(n->ct);
	if (n->dst && n->dst_ref)
		n->dst->refcnt++;  /* dst_clone */
	n->cloned = 1;
	skb->cloned = 1;
	skb_shinfo(skb)->dataref++;
	clones++;
	return n;
}

/* Shares its head with a clone still holding it. */
static int skb_header_cloned(const struct sk_buff *skb)
{
	return skb->cloned && skb_shinfo(skb)->dataref != 1;
}

static void skb_free_head(struct sk_buff *skb)
{
	if (skb->head_frag)
		page_frag_free(skb->head);
	else
		kfree(skb->head);
}

static void skb_release_data(struct sk_buff *skb)
{
	struct skb_shared_info *shinfo = skb_shinfo(skb);
	unsigned i;

	if (skb->cloned && --shinfo->dataref)
		return;
	for (i = 0; i < shinfo->nr_frags; i++)
		put_page(shinfo->frags[i].page);
	skb_free_head(skb);
}

/* A private copy of the head with nhead more bytes in front and ntail
 * more behind: 0, or -1 when memory is short. */
int pskb_expand_head(struct sk_buff *skb, unsigned nhead, unsigned ntail)
{
	struct skb_shared_info *osh = skb_shinfo(skb), *nsh;
	unsigned size = SKB_DATA_ALIGN(nhead + skb->end + ntail);
	uint32_t used = (uint32_t)(skb->data + skb->len - skb->head);
	unsigned osize = skb->end;
	uint8_t *data;

	size = (unsigned)kmalloc_size_roundup(size + SHINFO_SIZE);
	data = kmalloc(size);
	if (unlikely(!data))
		return -1;
	size -= SHINFO_SIZE;
	memcpy(data + nhead, skb->head, used);
	nsh = (struct skb_shared_info *)(void *)(data + size);
	memcpy(nsh, osh, offsetof(struct skb_shared_info, frags) +
	       osh->nr_frags * sizeof(struct skb_frag));
	if (skb->cloned) {
		for (used = 0; used < osh->nr_frags; used++)
			get_page(osh->frags[used].page);
		skb_release_data(skb);
	} else {
		skb_free_head(skb);
	}
	skb->data = data + nhead + (skb->data - skb->head);
	skb->head = data;
	skb->head_frag = 0;
	skb->end = size;
	skb->mac = (uint16_t)(skb->mac + nhead);
	skb->network = (uint16_t)(skb->network + nhead);
	skb->transport = (uint16_t)(skb->transport + nhead);
	skb->cloned = 0;
	nsh->dataref = 1;
	skb->truesize += size - osize;
	expanded++;
	return 0;
}

/* Room for headroom bytes of headers in front, in a head of our own. */
int skb_cow_head(struct sk_buff *skb, unsigned headroom)
{
	unsigned delta = 0;

	if (headroom > skb_headroom(skb))
		delta = headroom - skb_headroom(skb);
	if (delta || skb_header_cloned(skb))
		return pskb_expand_head(skb, (delta + NET_SKB_PAD - 1) &
					~(NET_SKB_PAD - 1), 0);
	return 0;
}

/* The first write_len bytes may be written in place. */
int skb_ensure_writable(struct sk_buff *skb, unsigned write_len)
{
	if (unlikely(!pskb_may_pull(skb, write_len)))
		return -1;
	if (!skb->cloned || !skb_header_cloned(skb))
		return 0;
	return pskb_expand_head(skb, 0, 0);
}

static void skb_release_head_state(struct sk_buff *skb)
{
	skb_dst_drop(skb);
	if (skb->ct)
		nf_ct_put(skb->ct);
	skb->ct = NULL;
	skb->ctinfo = IP_CT_UNTRACKED;
	skb->next = NULL;
}

static void __kfree_skb(struct sk_buff *skb)
{
	skb_release_head_state(skb);
	skb_release_data(skb);
	kmem_cache_free(skbuff_head_cache, skb);  /* kfree_skbmem */
}

/* The last reference? */
static int skb_unref(struct sk_buff *skb)
{
	if (likely(skb->users == 1))
		return 1;
	return --skb->users == 0;
}

void kfree_skb_reason(struct sk_buff *skb, unsigned reason)
{
	if (unlikely(!skb_unref(skb)))
		return;
	drop_reasons[reason < SKB_DROP_MAX ? reason : 0]++;
	__kfree_skb(skb);
}

void kfree_skb(struct sk_buff *skb)
{
	kfree_skb_reason(skb, SKB_DROP_NOT_SPECIFIED);
}

/* Freed after successful use (transmit completion), not a drop. */
void consume_skb(struct sk_buff *skb)
{
	if (unlikely(!skb_unref(skb)))
		return;
	consumed++;
	__kfree_skb(skb);
}

/* Control plane at boot: the cache of sk_buff heads. */
void skb_init(void)
{
	skbuff_head_cache = kmem_cache_create("skbuff_head_cache",
					      (unsigned)sizeof(struct sk_buff),
					      NB_LINE);
}
