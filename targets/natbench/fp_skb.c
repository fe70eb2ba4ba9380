/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Socket buffers: a page-fragment style buffer allocator (a LIFO of free
 * buffers with a reference count each), build_skb around a received
 * buffer, the bounds-checked push / pull / put of header space, and the
 * release path (connection reference, destructor, data) shared by drops
 * and consumption, with drop reasons counted as the kernel does.
 */
#include "fp_int.h"
#include "fp_util.h"

static struct sk_buff skbs[NB_NSKB];
static uint16_t free_stack[NB_NBUF];
static uint8_t buf_ref[NB_NBUF];
static uint32_t nfree;
static uint64_t drop_reasons[SKB_DROP_MAX];
static uint64_t skb_panics, consumed;

int page_frag_alloc(void)
{
	unsigned idx;

	if (unlikely(nfree == 0))
		return -1;
	idx = free_stack[--nfree];
	buf_ref[idx] = 1;
	return (int)idx;
}

static void page_frag_free(unsigned idx)
{
	if (unlikely(buf_ref[idx] == 0)) {
		skb_panics++;  /* double free: keep going, count it */
		return;
	}
	if (--buf_ref[idx] == 0)
		free_stack[nfree++] = (uint16_t)idx;
}

void page_frag_init(void)
{
	uint32_t i;

	nfree = 0;
	for (i = NB_NBUF; i > 0; i--) {
		buf_ref[i - 1] = 1;
		page_frag_free(i - 1);
	}
}

struct sk_buff *build_skb(unsigned idx, uint32_t off, uint32_t len)
{
	struct sk_buff *skb = &skbs[idx];

	skb->next = NULL;
	skb->head = nb_bufs[idx];
	skb->data = skb->head + off;
	skb->len = len;
	skb->mac = (uint16_t)off;
	skb->network = 0;
	skb->transport = 0;
	skb->protocol = 0;
	skb->vlan = 0;
	skb->buf = (uint16_t)idx;
	skb->dev = IF_NONE;
	skb->odev = IF_NONE;
	skb->pkt_type = PKT_HOST;
	skb->ctinfo = IP_CT_UNTRACKED;
	skb->prio = 0;
	skb->cpu = 0;
	skb->l4proto = 0;
	skb->local = 0;
	skb->ldev = ND_NONE;
	skb->ip_summed = 0;
	skb->vlan_tci = 0;
	skb->app_addr = 0;
	skb->hash = 0;
	skb->mark = 0;
	skb->nexthop = 0;
	skb->ct = NULL;
	return skb;
}

/* A buffer for a packet the router makes itself (ARP, ICMP, resets). */
struct sk_buff *skb_alloc_local(void)
{
	int idx = page_frag_alloc();
	struct sk_buff *skb;

	if (idx < 0)
		return NULL;
	skb = build_skb((unsigned)idx, NB_HEADROOM, 0);
	skb->local = 1;
	return skb;
}

struct sk_buff *skb_of_buf(unsigned idx)
{
	return &skbs[idx];
}

/* Header space in front of the data; the kernel panics on underflow, the
 * model counts it and refuses. */
uint8_t *skb_push(struct sk_buff *skb, unsigned len)
{
	if (unlikely(skb->data - skb->head < (long)len)) {
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

	if (unlikely(tail + len > skb->head + NB_BUF_SIZE)) {
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

static void skb_release_head_state(struct sk_buff *skb)
{
	if (skb->ct)
		nf_ct_put_unconfirmed(skb->ct);
	skb->ct = NULL;
	skb->ctinfo = IP_CT_UNTRACKED;
	skb->next = NULL;
}

static void skb_release_all(struct sk_buff *skb)
{
	skb_release_head_state(skb);
	page_frag_free(skb->buf);
}

void kfree_skb_reason(struct sk_buff *skb, unsigned reason)
{
	drop_reasons[reason < SKB_DROP_MAX ? reason : 0]++;
	skb_release_all(skb);
}

void kfree_skb(struct sk_buff *skb)
{
	kfree_skb_reason(skb, SKB_DROP_NOT_SPECIFIED);
}

/* Freed after successful use (transmit completion), not a drop. */
void consume_skb(struct sk_buff *skb)
{
	consumed++;
	skb_release_all(skb);
}
