/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * DMA cache maintenance, modelled on an ARMv7 core with an L2C-210 outer
 * cache: the top entries of the router's profile (v7_dma_inv_range,
 * l2c210_inv_range, v7_dma_clean_range, l2c210_clean_range). A buffer
 * handed to or taken from the device is cleaned or invalidated line by line
 * in the L1 (CP15 by-MVA operations) and in the outer cache (writes of the
 * physical address to the controller's by-PA registers, then a sync).
 * The register writes are volatile stores, so each line costs what a loop
 * of coprocessor writes costs: a few instructions per 32-byte line.
 *
 * The by-line operations are functions of their own, never inlined nor
 * specialised (noinline, noclone), as the kernel's are: separate assembly
 * functions in arch/arm/mm/cache-v7.S and cache-l2x0.c reached through
 * the cpu_cache and outer_cache tables. -DNB_DMA_ALIGN=N aligns
 * v7_dma_inv_range and v7_dma_clean_range, and only them, to N bytes:
 * the seeds' ".align 5" before both in cache-v7.S (N = 32). Without the
 * flag nothing here changes.
 */
#include "fp_int.h"
#include "fp_mem.h"
#include "fp_mm.h"

#ifdef NB_DMA_ALIGN
#define DMA_RANGE_ALIGN __attribute__((aligned(NB_DMA_ALIGN)))
#else
#define DMA_RANGE_ALIGN
#endif
#define CACHE_OP __attribute__((noinline, noclone))

struct cache_ctl nb_cache;

#define L2_WAY_SIZE 0x10000u

static inline void dsb(void)
{
	__asm__ __volatile__("" ::: "memory");
}

static inline uintptr_t virt_to_phys(uintptr_t va)
{
	return virt_to_bus((const void *)va);
}

/* L1: clean and invalidate partial lines at the ends (they may hold data
 * the CPU wrote next to the buffer), invalidate the rest. */
static DMA_RANGE_ALIGN CACHE_OP void
v7_dma_inv_range(uintptr_t start, uintptr_t end)
{
	const uintptr_t mask = NB_LINE - 1;

	if (start & mask) {
		start &= ~mask;
		nb_cache.dccimvac = start;
		start += NB_LINE;
	}
	if (end & mask) {
		end &= ~mask;
		nb_cache.dccimvac = end;
	}
	for (; start < end; start += NB_LINE)
		nb_cache.dcimvac = start;
	dsb();
}

static DMA_RANGE_ALIGN CACHE_OP void
v7_dma_clean_range(uintptr_t start, uintptr_t end)
{
	start &= ~(uintptr_t)(NB_LINE - 1);
	for (; start < end; start += NB_LINE)
		nb_cache.dccmvac = start;
	dsb();
}

static CACHE_OP void v7_dma_flush_range(uintptr_t start, uintptr_t end)
{
	start &= ~(uintptr_t)(NB_LINE - 1);
	for (; start < end; start += NB_LINE)
		nb_cache.dccimvac = start;
	dsb();
}

static CACHE_OP void l2c210_sync(void)
{
	nb_cache.l2_sync = 0;
	while (nb_cache.l2_sync & 1)
		;
}

static void l2c210_op_pa_range(volatile uintptr_t *reg, uintptr_t start,
			       uintptr_t end)
{
	while (start < end) {
		*reg = start;
		start += NB_LINE;
	}
}

static CACHE_OP void l2c210_inv_range(uintptr_t start, uintptr_t end)
{
	const uintptr_t mask = NB_LINE - 1;

	if (start & mask) {
		start &= ~mask;
		nb_cache.l2_clean_inv_pa = start;
		start += NB_LINE;
	}
	if (end & mask) {
		end &= ~mask;
		nb_cache.l2_clean_inv_pa = end;
	}
	l2c210_op_pa_range(&nb_cache.l2_inv_pa, start, end);
	l2c210_sync();
}

static CACHE_OP void l2c210_clean_range(uintptr_t start, uintptr_t end)
{
	start &= ~(uintptr_t)(NB_LINE - 1);
	l2c210_op_pa_range(&nb_cache.l2_clean_pa, start, end);
	l2c210_sync();
}

static CACHE_OP void l2c210_flush_range(uintptr_t start, uintptr_t end)
{
	/* The controller cannot be left busy for a whole way: split. */
	while (start < end) {
		uintptr_t blk = end - start > L2_WAY_SIZE ? start + L2_WAY_SIZE
							  : end;

		l2c210_op_pa_range(&nb_cache.l2_clean_inv_pa,
				   start & ~(uintptr_t)(NB_LINE - 1), blk);
		start = blk;
	}
	l2c210_sync();
}

/* Outer cache operations are reached through a table, as on ARM. */
struct outer_cache_fns {
	void (*inv_range)(uintptr_t, uintptr_t);
	void (*clean_range)(uintptr_t, uintptr_t);
	void (*flush_range)(uintptr_t, uintptr_t);
};

/* Filled at boot by the L2 cache controller's driver (l2x0_init). */
static struct outer_cache_fns outer_cache;

struct cpu_cache_fns {
	void (*dma_map_area)(uintptr_t, size_t, int);
	void (*dma_unmap_area)(uintptr_t, size_t, int);
};

static CACHE_OP void v7_dma_map_area(uintptr_t va, size_t len, int dir)
{
	if (dir == DMA_FROM_DEVICE)
		v7_dma_inv_range(va, va + len);
	else
		v7_dma_clean_range(va, va + len);
}

static CACHE_OP void v7_dma_unmap_area(uintptr_t va, size_t len, int dir)
{
	if (dir != DMA_TO_DEVICE)
		v7_dma_inv_range(va, va + len);
}

/* The CPU's cache operations (the v7 ones on this core). */
static struct cpu_cache_fns cpu_cache;

/* Walks a range page by page (pfn and offset), as highmem-capable code
 * has to: each page's part of the range to op. */
static CACHE_OP void dma_cache_maint_page(struct page *page, size_t offset,
					  size_t size, int dir,
					  void (*op)(uintptr_t, size_t, int))
{
	uint32_t pfn = page_to_pfn(page) + (uint32_t)(offset / NB_PAGE_SIZE);
	size_t left = size;

	offset %= NB_PAGE_SIZE;
	do {
		size_t len = left;

		if (len + offset > NB_PAGE_SIZE)
			len = NB_PAGE_SIZE - offset;
		page = &mem_map[pfn];
		op((uintptr_t)page_address(page) + offset, len, dir);
		offset = 0;
		pfn++;
		left -= len;
	} while (left);
}

static void __dma_page_cpu_to_dev(struct page *page, size_t off, size_t size,
				  int dir)
{
	uintptr_t paddr;

	dma_cache_maint_page(page, off, size, dir, cpu_cache.dma_map_area);
	paddr = virt_to_phys((uintptr_t)page_address(page)) + off;
	if (dir == DMA_FROM_DEVICE)
		outer_cache.inv_range(paddr, paddr + size);
	else
		outer_cache.clean_range(paddr, paddr + size);
	nb_cache.lines += (uint32_t)(size / NB_LINE);
}

static void __dma_page_dev_to_cpu(struct page *page, size_t off, size_t size,
				  int dir)
{
	uintptr_t paddr = virt_to_phys((uintptr_t)page_address(page)) + off;

	/* Nothing to invalidate for a buffer the device only read. */
	if (dir != DMA_TO_DEVICE) {
		outer_cache.inv_range(paddr, paddr + size);
		dma_cache_maint_page(page, off, size, dir,
				     cpu_cache.dma_unmap_area);
	}
	nb_cache.lines += (uint32_t)(size / NB_LINE);
}

/* The ARM DMA operations of a non-coherent device (arm_dma_ops). */
struct dma_map_ops {
	uint32_t (*map_page)(struct page *page, size_t offset, size_t size,
			     int dir);
	void (*unmap_page)(uint32_t handle, size_t size, int dir);
	void (*sync_single_for_cpu)(uint32_t handle, size_t size, int dir);
};

static inline struct page *dma_to_page(uint32_t handle, size_t *off)
{
	const uint8_t *va = nb_bus_to_virt(handle);

	*off = (size_t)(va - nb_mem) % NB_PAGE_SIZE;
	return virt_to_page(va);
}

static uint32_t arm_dma_map_page(struct page *page, size_t offset,
				 size_t size, int dir)
{
	__dma_page_cpu_to_dev(page, offset, size, dir);
	return virt_to_bus(page_address(page)) + (uint32_t)offset;
}

static void arm_dma_unmap_page(uint32_t handle, size_t size, int dir)
{
	size_t off;
	struct page *page = dma_to_page(handle, &off);

	__dma_page_dev_to_cpu(page, off, size, dir);
}

static void arm_dma_sync_single_for_cpu(uint32_t handle, size_t size, int dir)
{
	size_t off;
	struct page *page = dma_to_page(handle, &off);

	__dma_page_dev_to_cpu(page, off, size, dir);
}

static const struct dma_map_ops arm_dma_ops = {
	arm_dma_map_page, arm_dma_unmap_page, arm_dma_sync_single_for_cpu,
};

/* The device's operations (get_dma_ops: the Ethernet core is not
 * coherent with the CPU caches), set at boot (arch_setup_dma_ops). */
static const struct dma_map_ops *bgmac_dma_ops;

/* Hands a buffer to the device: its bus address (dma_map_single ->
 * dma_map_page_attrs). */
uint32_t dma_map_single(const void *p, size_t len, int dir)
{
	const struct dma_map_ops *ops = bgmac_dma_ops;
	struct page *page = virt_to_page(p);
	size_t off = (size_t)((const uint8_t *)p - nb_mem) % NB_PAGE_SIZE;

	return ops->map_page(page, off, len, dir);
}

/* Takes it back from the device (the bus address it was mapped at). */
void dma_unmap_single(uint32_t addr, size_t len, int dir)
{
	bgmac_dma_ops->unmap_page(addr, len, dir);
}

/* Lets the CPU read what the device wrote so far, the buffer staying
 * mapped. */
void dma_sync_single_for_cpu(uint32_t addr, size_t len, int dir)
{
	bgmac_dma_ops->sync_single_for_cpu(addr, len, dir);
}

/* A buffer both written by the CPU and read back (descriptor rings). */
void dma_flush(const void *p, size_t len)
{
	uintptr_t va = (uintptr_t)p, pa = virt_to_phys(va);

	v7_dma_flush_range(va, va + len);
	outer_cache.flush_range(pa, pa + len);
}

/* Control plane at boot: the v7 cache functions, the L2C-210's, the
 * Ethernet core's DMA operations. */
void dma_cache_init(void)
{
	cpu_cache.dma_map_area = v7_dma_map_area;
	cpu_cache.dma_unmap_area = v7_dma_unmap_area;
	outer_cache.inv_range = l2c210_inv_range;
	outer_cache.clean_range = l2c210_clean_range;
	outer_cache.flush_range = l2c210_flush_range;
	bgmac_dma_ops = &arm_dma_ops;
}
