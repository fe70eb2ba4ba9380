/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Memory management of the fast path: a struct page for every page of
 * nb_mem, the page allocator (fp_page.c: buddy lists, per-CPU lists,
 * compound pages, page fragments), the slab allocator (fp_slub.c: SLUB's
 * caches, kmalloc) and the CPU the code runs on. Declarations and small
 * inline helpers; the harness does not include this file.
 */
#ifndef FP_MM_H
#define FP_MM_H

#include <stddef.h>
#include <stdint.h>

#include "nb.h"

/* The CPU this code runs on (smp_processor_id): set by the interrupt
 * entry, fp_irq_entry(cpu). */
extern unsigned nb_cpu;

static inline unsigned smp_processor_id(void)
{
	return nb_cpu;
}

/* ---- pages (fp_page.c) ---- */

#define PG_head 0x1u     /* first page of a compound page */
#define PG_tail 0x2u     /* the other pages of one: head says which */
#define PG_buddy 0x4u    /* free, on a buddy list (order: its size) */
#define PG_pcp 0x8u      /* free, on a per-CPU list (order: its size) */
#define PG_slab 0x10u    /* a slab: the slab fields are valid */

#define PAGE_ALLOC_COSTLY_ORDER 3u
#define MAX_ORDER 5u     /* blocks of 1 to 16 pages */

struct kmem_cache;

struct page {
	uint32_t flags;
	int32_t refcount;        /* _refcount (head page of a compound) */
	uint8_t order;           /* free block's order; compound order */
	uint8_t frozen;          /* slab: owned by a CPU (its slab or partial) */
	uint16_t head;           /* PG_tail: page number of the head */
	struct page *next, *prev;  /* buddy, per-CPU and partial lists */
	/* slab (PG_slab, on the head page) */
	struct kmem_cache *slab_cache;
	void *freelist;          /* free objects not owned by a CPU */
	uint16_t inuse, objects;
	uint16_t slabs;          /* CPU partial list: slabs from here on */
};

extern struct page mem_map[NB_NPAGES];

static inline uint32_t page_to_pfn(const struct page *p)
{
	return (uint32_t)(p - mem_map);
}

static inline void *page_address(const struct page *p)
{
	return nb_mem + ((size_t)page_to_pfn(p) << NB_PAGE_SHIFT);
}

static inline struct page *virt_to_page(const void *va)
{
	return &mem_map[(size_t)((const uint8_t *)va - nb_mem) >> NB_PAGE_SHIFT];
}

static inline struct page *compound_head(struct page *p)
{
	return p->flags & PG_tail ? &mem_map[p->head] : p;
}

static inline struct page *virt_to_head_page(const void *va)
{
	return compound_head(virt_to_page(va));
}

static inline unsigned compound_order(const struct page *p)
{
	return p->flags & PG_head ? p->order : 0;
}

static inline void get_page(struct page *p)
{
	compound_head(p)->refcount++;
}

/* Bus address of a kernel virtual address in nb_mem (virt_to_phys). */
static inline uint32_t virt_to_bus(const void *va)
{
	return (uint32_t)((const uint8_t *)va - nb_mem) + NB_PHYS_OFFSET;
}

/* order > 0 gives a compound page. NULL when memory is short. */
struct page *alloc_pages(unsigned order);
void __free_pages(struct page *page, unsigned order);
void put_page(struct page *page);
void mem_init(void);

/* Page fragments: small buffers carved from a compound page, the page
 * freed when the last fragment is (netdev_alloc_frag's allocator). */
struct page_frag_cache {
	uint8_t *va;
	int32_t offset;
	uint32_t size;
	uint32_t pagecnt_bias;
};

void *page_frag_alloc(struct page_frag_cache *nc, unsigned fragsz,
		      unsigned align_mask);
void page_frag_free(void *addr);

/* ---- slab caches (fp_slub.c) ---- */

enum { ALLOC_FASTPATH, ALLOC_SLOWPATH, FREE_FASTPATH, FREE_SLOWPATH,
	FREE_FROZEN, FREE_ADD_PARTIAL, FREE_REMOVE_PARTIAL,
	ALLOC_FROM_PARTIAL, ALLOC_SLAB, ALLOC_REFILL, FREE_SLAB,
	DEACTIVATE_BYPASS, CPU_PARTIAL_ALLOC, CPU_PARTIAL_FREE,
	CPU_PARTIAL_NODE, CPU_PARTIAL_DRAIN, NR_SLUB_STAT_ITEMS };

struct kmem_cache_cpu {
	void *freelist;          /* objects this CPU allocates next */
	uint32_t tid;            /* transaction id: bumped by every change */
	struct page *slab;       /* the slab freelist came from */
	struct page *partial;    /* this CPU's partial slabs */
};

struct kmem_cache {
	struct kmem_cache_cpu cpu_slab[NB_NCPUS];
	uint32_t size;           /* object size, aligned */
	uint32_t object_size;
	uint32_t offset;         /* of the free pointer inside an object */
	uint16_t order, objects; /* pages and objects of a slab */
	uint16_t min_partial;    /* empty slabs kept on the node list */
	uint16_t cpu_partial_slabs;
	struct page *partial;    /* the node's partial slabs */
	uint32_t nr_partial, nr_slabs;
	const char *name;
	uint64_t stat[NR_SLUB_STAT_ITEMS];
};

struct kmem_cache *kmem_cache_create(const char *name, unsigned size,
				     unsigned align);
void *kmem_cache_alloc(struct kmem_cache *s);
void kmem_cache_free(struct kmem_cache *s, void *x);
void *kmalloc(size_t size);
void kfree(const void *x);
size_t kmalloc_size_roundup(size_t size);
void kmem_cache_init(void);

#endif
