/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The page allocator over the router's RAM (nb_mem): buddy lists of free
 * blocks of 1 to 16 pages (a block is split on allocation, merged with
 * its free buddy on release), per-CPU lists that take and give blocks up
 * to 32 KB in batches so that most allocations never touch the buddy
 * lists, watermarks, compound pages (a head page holds the reference
 * count of all), and the page-fragment allocator the network drivers
 * take receive buffers from: a 32 KB compound page carved downwards into
 * fragments, with a reference per fragment and a bias that saves an
 * atomic operation per allocation; the page is reused once every
 * fragment came back, or freed by the last one.
 */
#include "fp_int.h"
#include "fp_mm.h"
#include "fp_util.h"

uint8_t nb_mem[NB_NPAGES * NB_PAGE_SIZE] __attribute__((aligned(4096)));
struct page mem_map[NB_NPAGES];

#define PCP_HIGH 96u          /* pages a per-CPU list may hold */
#define PCP_BATCH 32u         /* pages moved to or from the buddy lists */
#define PAGE_FRAG_CACHE_MAX_ORDER 3u
#define PAGE_FRAG_CACHE_MAX_SIZE (NB_PAGE_SIZE << PAGE_FRAG_CACHE_MAX_ORDER)

struct free_area {
	struct page *free_list;
	uint32_t nr_free;
};

struct per_cpu_pages {
	struct page *lists[PAGE_ALLOC_COSTLY_ORDER + 1];
	uint32_t count;          /* pages on the lists */
	uint32_t high, batch;
	uint32_t free_factor;
};

static struct {
	struct free_area free_area[MAX_ORDER];
	struct per_cpu_pages pcp[NB_NCPUS];
	uint32_t free_pages;     /* on the buddy lists */
	uint32_t wmark_min, wmark_low, wmark_high;
	uint64_t pgalloc, pgfree, alloc_fail, refill, drain;
} zone;

static void list_push(struct page **head, struct page *p)
{
	p->prev = NULL;
	p->next = *head;
	if (*head)
		(*head)->prev = p;
	*head = p;
}

static void list_unlink(struct page **head, struct page *p)
{
	if (p->prev)
		p->prev->next = p->next;
	else
		*head = p->next;
	if (p->next)
		p->next->prev = p->prev;
	p->next = p->prev = NULL;
}

static void add_to_free_list(struct page *p, unsigned order)
{
	struct free_area *area = &zone.free_area[order];

	p->flags = PG_buddy;
	p->order = (uint8_t)order;
	list_push(&area->free_list, p);
	area->nr_free++;
	zone.free_pages += 1u << order;
}

static void del_from_free_list(struct page *p, unsigned order)
{
	struct free_area *area = &zone.free_area[order];

	list_unlink(&area->free_list, p);
	p->flags = 0;
	area->nr_free--;
	zone.free_pages -= 1u << order;
}

/* A block of order high split down to order low: the upper halves go
 * back to the lists of their sizes. */
static void expand(struct page *page, unsigned low, unsigned high)
{
	uint32_t size = 1u << high;

	while (high > low) {
		high--;
		size >>= 1;
		add_to_free_list(&page[size], high);
	}
}

static struct page *__rmqueue_smallest(unsigned order)
{
	unsigned o;

	for (o = order; o < MAX_ORDER; o++) {
		struct page *page = zone.free_area[o].free_list;

		if (!page)
			continue;
		del_from_free_list(page, o);
		expand(page, order, o);
		return page;
	}
	return NULL;
}

static int page_is_buddy(const struct page *buddy, unsigned order)
{
	return (buddy->flags & PG_buddy) && buddy->order == order;
}

/* Back to the buddy lists, merged with its buddy as long as that is free
 * and whole. */
static void __free_one_page(struct page *page, unsigned order)
{
	uint32_t pfn = page_to_pfn(page);

	while (order < MAX_ORDER - 1) {
		uint32_t buddy_pfn = pfn ^ (1u << order);
		struct page *buddy;

		if (buddy_pfn >= NB_NPAGES)
			break;
		buddy = &mem_map[buddy_pfn];
		if (!page_is_buddy(buddy, order))
			break;
		del_from_free_list(buddy, order);
		pfn &= buddy_pfn;
		order++;
	}
	add_to_free_list(&mem_map[pfn], order);
}

/* Enough free memory left for an allocation of this order? */
static int zone_watermark_ok(unsigned order, uint32_t mark)
{
	int64_t free = (int64_t)zone.free_pages - ((1 << order) - 1);
	unsigned o;

	if (free <= (int64_t)mark)
		return 0;
	if (!order)
		return 1;
	for (o = order; o < MAX_ORDER; o++)
		if (zone.free_area[o].nr_free)
			return 1;
	return 0;
}

/* A batch of blocks from the buddy lists onto a per-CPU list. */
static unsigned rmqueue_bulk(struct per_cpu_pages *pcp, unsigned order,
			     unsigned count)
{
	unsigned i;

	for (i = 0; i < count; i++) {
		struct page *page = __rmqueue_smallest(order);

		if (!page)
			break;
		page->flags = PG_pcp;
		page->order = (uint8_t)order;
		list_push(&pcp->lists[order], page);
		pcp->count += 1u << order;
	}
	zone.refill++;
	return i;
}

static struct page *rmqueue_pcplist(unsigned order)
{
	struct per_cpu_pages *pcp = &zone.pcp[smp_processor_id()];
	struct page **list = &pcp->lists[order];
	struct page *page;

	if (!*list) {
		unsigned batch = pcp->batch >> order;

		if (!rmqueue_bulk(pcp, order, batch ? batch : 1))
			return NULL;
	}
	page = *list;
	list_unlink(list, page);
	page->flags = 0;
	pcp->count -= 1u << order;
	return page;
}

static void prep_new_page(struct page *page, unsigned order)
{
	uint32_t i, n = 1u << order;

	page->refcount = 1;
	page->flags = 0;
	page->order = 0;
	if (!order)
		return;
	page->flags = PG_head;
	page->order = (uint8_t)order;
	for (i = 1; i < n; i++) {
		page[i].flags = PG_tail;
		page[i].head = (uint16_t)page_to_pfn(page);
		page[i].refcount = 0;
	}
}

struct page *alloc_pages(unsigned order)
{
	struct page *page;

	if (order >= MAX_ORDER)
		return NULL;
	/* Atomic allocations may dig below the low watermark, down to
	 * min; there is no reclaim to wait for. */
	if (!zone_watermark_ok(order, zone.wmark_min) &&
	    !(order <= PAGE_ALLOC_COSTLY_ORDER &&
	      zone.pcp[smp_processor_id()].lists[order])) {
		zone.alloc_fail++;
		return NULL;
	}
	if (order <= PAGE_ALLOC_COSTLY_ORDER)
		page = rmqueue_pcplist(order);
	else
		page = __rmqueue_smallest(order);
	if (unlikely(!page)) {
		zone.alloc_fail++;
		return NULL;
	}
	prep_new_page(page, order);
	zone.pgalloc++;
	return page;
}

/* Per-CPU list over its high mark: a batch goes back to the buddy
 * lists, taken from the orders in turn. */
static void free_pcppages_bulk(struct per_cpu_pages *pcp, unsigned count)
{
	unsigned order = 0;

	while (count && pcp->count) {
		struct page *page = pcp->lists[order];

		if (page) {
			list_unlink(&pcp->lists[order], page);
			pcp->count -= 1u << order;
			count = count > (1u << order) ? count - (1u << order) : 0;
			__free_one_page(page, order);
		}
		order = (order + 1) % (PAGE_ALLOC_COSTLY_ORDER + 1);
	}
	zone.drain++;
}

static void free_the_page(struct page *page, unsigned order)
{
	uint32_t i, n = 1u << order;
	struct per_cpu_pages *pcp;

	for (i = 1; i < n; i++)
		page[i].flags = 0;
	zone.pgfree++;
	if (order > PAGE_ALLOC_COSTLY_ORDER) {
		page->flags = 0;
		__free_one_page(page, order);
		return;
	}
	pcp = &zone.pcp[smp_processor_id()];
	page->flags = PG_pcp;
	page->order = (uint8_t)order;
	list_push(&pcp->lists[order], page);
	pcp->count += n;
	if (pcp->count >= pcp->high)
		free_pcppages_bulk(pcp, pcp->batch);
}

void __free_pages(struct page *page, unsigned order)
{
	if (--page->refcount == 0)
		free_the_page(page, order);
}

void put_page(struct page *page)
{
	page = compound_head(page);
	if (--page->refcount == 0)
		free_the_page(page, compound_order(page));
}

/* A fresh page for the fragment cache: 32 KB if there is one, else a
 * single page. */
static struct page *page_frag_cache_refill(struct page_frag_cache *nc)
{
	struct page *page = alloc_pages(PAGE_FRAG_CACHE_MAX_ORDER);

	nc->size = PAGE_FRAG_CACHE_MAX_SIZE;
	if (unlikely(!page)) {
		page = alloc_pages(0);
		nc->size = NB_PAGE_SIZE;
	}
	nc->va = page ? page_address(page) : NULL;
	return page;
}

void *page_frag_alloc(struct page_frag_cache *nc, unsigned fragsz,
		      unsigned align_mask)
{
	struct page *page;
	int32_t offset;

	if (unlikely(!nc->va)) {
refill:
		page = page_frag_cache_refill(nc);
		if (!page)
			return NULL;
		/* One reference per fragment to come, given out by
		 * counting down a bias instead of touching the page. */
		page->refcount += PAGE_FRAG_CACHE_MAX_SIZE;
		nc->pagecnt_bias = PAGE_FRAG_CACHE_MAX_SIZE + 1;
		nc->offset = (int32_t)nc->size;
	}
	offset = nc->offset - (int32_t)fragsz;
	if (unlikely(offset < 0)) {
		page = virt_to_page(nc->va);
		/* Fragments still out: leave the page to them. */
		page->refcount -= (int32_t)nc->pagecnt_bias;
		if (page->refcount != 0)
			goto refill;
		/* All came back: start over on the same page. */
		page->refcount = PAGE_FRAG_CACHE_MAX_SIZE + 1;
		nc->pagecnt_bias = PAGE_FRAG_CACHE_MAX_SIZE + 1;
		offset = (int32_t)(nc->size - fragsz);
	}
	nc->pagecnt_bias--;
	offset &= (int32_t)align_mask;
	nc->offset = offset;
	return nc->va + offset;
}

void page_frag_free(void *addr)
{
	put_page(virt_to_page(addr));
}

/* Control plane at boot: all of RAM in the buddy lists. */
void mem_init(void)
{
	uint32_t pfn;
	unsigned cpu;

	for (pfn = 0; pfn < NB_NPAGES; pfn += 1u << (MAX_ORDER - 1))
		add_to_free_list(&mem_map[pfn], MAX_ORDER - 1);
	zone.wmark_min = NB_NPAGES / 64;
	zone.wmark_low = zone.wmark_min * 5 / 4;
	zone.wmark_high = zone.wmark_min * 3 / 2;
	for (cpu = 0; cpu < NB_NCPUS; cpu++) {
		zone.pcp[cpu].high = PCP_HIGH;
		zone.pcp[cpu].batch = PCP_BATCH;
	}
}
