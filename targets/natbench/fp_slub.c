/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The slab allocator, SLUB as OpenWrt kernels use it: every cache hands
 * out objects of one size from slabs (pages cut into objects, the free
 * ones chained through a pointer inside each). Each CPU allocates from
 * the free list of its own slab and gives objects of that slab back to
 * it, without touching the slab (the fast paths). Everything else is a
 * slow path: a CPU whose list ran dry takes the objects other CPUs freed
 * into its slab, then a slab from its partial list, then one from the
 * cache's partial list, then a new slab from the page allocator; an
 * object freed into a slab that is not the CPU's own goes onto that
 * slab's free list, a full slab that gets an object back joins the
 * freeing CPU's partial list, a CPU partial list grown too long is
 * drained to the cache's, and an empty slab beyond the cache's minimum
 * goes back to the page allocator. kmalloc() picks a cache by size.
 * One CPU runs at a time here, so the kernel's cmpxchg loops are plain
 * updates, the transaction ids kept as they count.
 */
#include "fp_int.h"
#include "fp_mm.h"
#include "fp_util.h"

#define SLAB_ALIGN NB_LINE
#define SLUB_MIN_OBJECTS (4u * 3u)  /* 4 * (fls(nr_cpus) + 1) */
#define SLUB_MAX_ORDER PAGE_ALLOC_COSTLY_ORDER
#define KMALLOC_SHIFT_LOW 6u
#define KMALLOC_SHIFT_HIGH 13u      /* larger requests take pages */
#define MAX_CACHES 16u

/* The free pointer lives inside a free object, whatever its type. */
typedef void *__attribute__((__may_alias__)) freeptr_t;

static struct kmem_cache caches[MAX_CACHES];
static unsigned ncaches;
static struct kmem_cache *kmalloc_caches[KMALLOC_SHIFT_HIGH + 1];
static struct kmem_cache *kmalloc_96, *kmalloc_192;
static uint64_t large_allocs;

static inline void stat(struct kmem_cache *s, unsigned si)
{
	s->stat[si]++;
}

static inline void *get_freepointer(const struct kmem_cache *s, void *object)
{
	return *(freeptr_t *)(void *)((uint8_t *)object + s->offset);
}

static inline void set_freepointer(const struct kmem_cache *s, void *object,
				   void *fp)
{
	*(freeptr_t *)(void *)((uint8_t *)object + s->offset) = fp;
}

static inline uint32_t next_tid(uint32_t tid)
{
	return tid + NB_NCPUS;
}

/* ---- slabs ---- */

static struct page *allocate_slab(struct kmem_cache *s)
{
	struct page *slab = alloc_pages(s->order);
	uint8_t *start, *p;
	unsigned idx;

	if (unlikely(!slab))
		return NULL;
	slab->flags |= PG_slab;
	slab->slab_cache = s;
	slab->objects = s->objects;
	slab->inuse = s->objects;
	slab->frozen = 1;
	slab->next = slab->prev = NULL;
	/* Every object on the slab's free list, in address order. */
	start = page_address(slab);
	for (idx = 0, p = start; idx + 1 < s->objects; idx++, p += s->size)
		set_freepointer(s, p, p + s->size);
	set_freepointer(s, p, NULL);
	slab->freelist = start;
	s->nr_slabs++;
	return slab;
}

static void discard_slab(struct kmem_cache *s, struct page *slab)
{
	slab->flags &= ~PG_slab;
	slab->slab_cache = NULL;
	slab->freelist = NULL;
	s->nr_slabs--;
	stat(s, FREE_SLAB);
	__free_pages(slab, s->order);
}

static void add_partial(struct kmem_cache *s, struct page *slab, int tail)
{
	struct page **pp = &s->partial;

	if (tail)
		while (*pp)
			pp = &(*pp)->next;
	slab->next = *pp;
	*pp = slab;
	s->nr_partial++;
}

static void remove_partial(struct kmem_cache *s, struct page *slab)
{
	struct page **pp = &s->partial;

	while (*pp && *pp != slab)
		pp = &(*pp)->next;
	if (*pp) {
		*pp = slab->next;
		s->nr_partial--;
	}
	slab->next = NULL;
}

/* The slabs of a CPU partial list go back to the cache's list; empty
 * ones beyond the minimum back to the page allocator. */
static void __unfreeze_partials(struct kmem_cache *s, struct page *slab)
{
	while (slab) {
		struct page *next = slab->next;

		slab->frozen = 0;
		if (!slab->inuse && s->nr_partial >= s->min_partial) {
			discard_slab(s, slab);
		} else {
			add_partial(s, slab, 1);
			stat(s, FREE_ADD_PARTIAL);
		}
		slab = next;
	}
}

/* A slab with free objects onto this CPU's partial list; a list already
 * long enough is drained first (when drain says so). */
static void put_cpu_partial(struct kmem_cache *s, struct page *slab,
			    int drain)
{
	struct kmem_cache_cpu *c = &s->cpu_slab[smp_processor_id()];
	struct page *oldslab = c->partial, *unfreeze = NULL;
	unsigned slabs = 0;

	if (oldslab) {
		if (drain && oldslab->slabs >= s->cpu_partial_slabs) {
			unfreeze = oldslab;
			oldslab = NULL;
		} else {
			slabs = oldslab->slabs;
		}
	}
	slab->slabs = (uint16_t)(slabs + 1);
	slab->next = oldslab;
	c->partial = slab;
	if (unfreeze) {
		__unfreeze_partials(s, unfreeze);
		stat(s, CPU_PARTIAL_DRAIN);
	}
}

/* Takes a slab off the cache's list for this CPU: the first one's free
 * objects become the CPU's, the next ones fill its partial list. */
static void *get_partial(struct kmem_cache *s, struct page **ret)
{
	struct page *slab = s->partial, *next;
	void *object = NULL;
	unsigned partial_slabs = 0;

	for (; slab; slab = next) {
		next = slab->next;
		remove_partial(s, slab);
		slab->frozen = 1;
		if (!object) {
			object = slab->freelist;
			slab->freelist = NULL;
			slab->inuse = slab->objects;
			*ret = slab;
			stat(s, ALLOC_FROM_PARTIAL);
		} else {
			put_cpu_partial(s, slab, 0);
			stat(s, CPU_PARTIAL_NODE);
			partial_slabs++;
		}
		if (partial_slabs > s->cpu_partial_slabs / 2u)
			break;
	}
	return object;
}

/* The free objects other CPUs gave back to this slab, now this CPU's. */
static void *get_freelist(struct page *slab)
{
	void *freelist = slab->freelist;

	slab->freelist = NULL;
	slab->inuse = slab->objects;
	slab->frozen = freelist != NULL;
	return freelist;
}

static void *___slab_alloc(struct kmem_cache *s, struct kmem_cache_cpu *c)
{
	struct page *slab;
	void *freelist;

reread_slab:
	slab = c->slab;
	if (!slab)
		goto new_slab;
	freelist = get_freelist(slab);
	if (!freelist) {
		/* Full: it is nobody's now (full slabs are on no list). */
		c->slab = NULL;
		c->tid = next_tid(c->tid);
		stat(s, DEACTIVATE_BYPASS);
		goto new_slab;
	}
	stat(s, ALLOC_REFILL);
load_freelist:
	c->freelist = get_freepointer(s, freelist);
	c->tid = next_tid(c->tid);
	return freelist;

new_slab:
	if (c->partial) {
		slab = c->slab = c->partial;
		c->partial = slab->next;
		slab->next = NULL;
		stat(s, CPU_PARTIAL_ALLOC);
		goto reread_slab;
	}
	freelist = get_partial(s, &slab);
	if (!freelist) {
		slab = allocate_slab(s);
		if (unlikely(!slab))
			return NULL;
		stat(s, ALLOC_SLAB);
		freelist = slab->freelist;
		slab->freelist = NULL;
	}
	c->slab = slab;
	goto load_freelist;
}

void *kmem_cache_alloc(struct kmem_cache *s)
{
	struct kmem_cache_cpu *c = &s->cpu_slab[smp_processor_id()];
	void *object = c->freelist;

	if (unlikely(!object || !c->slab)) {
		stat(s, ALLOC_SLOWPATH);
		return ___slab_alloc(s, c);
	}
	c->freelist = get_freepointer(s, object);
	c->tid = next_tid(c->tid);
	stat(s, ALLOC_FASTPATH);
	return object;
}

/* An object into a slab that is not this CPU's. */
static void __slab_free(struct kmem_cache *s, struct page *slab, void *object)
{
	void *prior = slab->freelist;
	int was_frozen = slab->frozen, new_frozen = was_frozen, locked = 0;

	stat(s, FREE_SLOWPATH);
	set_freepointer(s, object, prior);
	slab->inuse--;
	if ((!slab->inuse || !prior) && !was_frozen) {
		if (!prior)
			new_frozen = 1;  /* was full: to our partial list */
		else
			locked = 1;      /* now empty, on the cache's list */
	}
	slab->freelist = object;
	slab->frozen = (uint8_t)new_frozen;
	if (!locked) {
		if (was_frozen) {
			stat(s, FREE_FROZEN);
		} else if (new_frozen) {
			put_cpu_partial(s, slab, 1);
			stat(s, CPU_PARTIAL_FREE);
		}
		return;
	}
	if (slab->inuse || s->nr_partial < s->min_partial)
		return;  /* stays on the cache's partial list */
	remove_partial(s, slab);
	stat(s, FREE_REMOVE_PARTIAL);
	discard_slab(s, slab);
}

static void slab_free(struct kmem_cache *s, struct page *slab, void *object)
{
	struct kmem_cache_cpu *c = &s->cpu_slab[smp_processor_id()];

	if (likely(slab == c->slab)) {
		set_freepointer(s, object, c->freelist);
		c->freelist = object;
		c->tid = next_tid(c->tid);
		stat(s, FREE_FASTPATH);
		return;
	}
	__slab_free(s, slab, object);
}

void kmem_cache_free(struct kmem_cache *s, void *x)
{
	struct page *slab = virt_to_head_page(x);

	if (unlikely(!(slab->flags & PG_slab) || slab->slab_cache != s))
		return;  /* not this cache's: the kernel warns and leaks */
	slab_free(s, slab, x);
}

/* ---- kmalloc ---- */

static unsigned fls32(uint32_t v)
{
	return v ? 32u - (unsigned)__builtin_clz(v) : 0;
}

static struct kmem_cache *kmalloc_slab(size_t size)
{
	if (size <= 64)
		return kmalloc_caches[KMALLOC_SHIFT_LOW];
	if (size <= 96)
		return kmalloc_96;
	if (size > 128 && size <= 192)
		return kmalloc_192;
	return kmalloc_caches[fls32((uint32_t)size - 1)];
}

size_t kmalloc_size_roundup(size_t size)
{
	if (size > (1u << KMALLOC_SHIFT_HIGH))
		return ((size + NB_PAGE_SIZE - 1) / NB_PAGE_SIZE) * NB_PAGE_SIZE;
	return kmalloc_slab(size)->object_size;
}

void *kmalloc(size_t size)
{
	if (unlikely(size > (1u << KMALLOC_SHIFT_HIGH))) {
		unsigned order = 0;
		struct page *page;

		while ((size_t)NB_PAGE_SIZE << order < size)
			order++;
		page = alloc_pages(order);
		large_allocs++;
		return page ? page_address(page) : NULL;
	}
	if (!size)
		return NULL;
	return kmem_cache_alloc(kmalloc_slab(size));
}

void kfree(const void *x)
{
	struct page *page;

	if (unlikely(!x))
		return;
	page = virt_to_head_page(x);
	if (unlikely(!(page->flags & PG_slab))) {
		__free_pages(page, compound_order(page));
		return;
	}
	slab_free(page->slab_cache, page, (void *)(uintptr_t)x);
}

/* ---- caches (control plane, at boot) ---- */

static unsigned calculate_order(unsigned size)
{
	unsigned order;

	for (order = 0; order < SLUB_MAX_ORDER; order++)
		if ((NB_PAGE_SIZE << order) / size >= SLUB_MIN_OBJECTS)
			break;
	return order;
}

struct kmem_cache *kmem_cache_create(const char *name, unsigned size,
				     unsigned align)
{
	struct kmem_cache *s;
	unsigned osize = size;

	if (ncaches == MAX_CACHES)
		return NULL;
	s = &caches[ncaches++];
	if (align < sizeof(void *))
		align = sizeof(void *);
	size = (size + align - 1) & ~(align - 1);
	s->name = name;
	s->object_size = osize;
	s->size = size;
	/* The free pointer in the middle of the object, away from the
	 * fields a use-after-free would most likely touch. */
	s->offset = (osize / 2) & ~(unsigned)(sizeof(void *) - 1);
	s->order = (uint16_t)calculate_order(size);
	s->objects = (uint16_t)((NB_PAGE_SIZE << s->order) / size);
	s->min_partial = (uint16_t)(fls32(size) / 2 < 5 ? 5 : fls32(size) / 2 > 10
				    ? 10 : fls32(size) / 2);
	s->cpu_partial_slabs = (uint16_t)(size >= 1024 ? 2 : size >= 256 ? 3 : 4);
	return s;
}

void kmem_cache_init(void)
{
	unsigned i;

	for (i = KMALLOC_SHIFT_LOW; i <= KMALLOC_SHIFT_HIGH; i++)
		kmalloc_caches[i] = kmem_cache_create("kmalloc", 1u << i, SLAB_ALIGN);
	kmalloc_96 = kmem_cache_create("kmalloc-96", 96, SLAB_ALIGN);
	kmalloc_192 = kmem_cache_create("kmalloc-192", 192, SLAB_ALIGN);
}
