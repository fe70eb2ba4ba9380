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
 */
#include "fp_int.h"
#include "fp_mem.h"

struct cache_ctl nb_cache;

#define PHYS_OFFSET 0x80000000u
#define L2_WAY_SIZE 0x10000u

static inline void dsb(void)
{
	__asm__ __volatile__("" ::: "memory");
}

static inline uintptr_t virt_to_phys(uintptr_t va)
{
	return (va & 0x0fffffffu) + PHYS_OFFSET;
}

/* L1: clean and invalidate partial lines at the ends (they may hold data
 * the CPU wrote next to the buffer), invalidate the rest. */
static void v7_dma_inv_range(uintptr_t start, uintptr_t end)
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

static void v7_dma_clean_range(uintptr_t start, uintptr_t end)
{
	start &= ~(uintptr_t)(NB_LINE - 1);
	for (; start < end; start += NB_LINE)
		nb_cache.dccmvac = start;
	dsb();
}

static void v7_dma_flush_range(uintptr_t start, uintptr_t end)
{
	start &= ~(uintptr_t)(NB_LINE - 1);
	for (; start < end; start += NB_LINE)
		nb_cache.dccimvac = start;
	dsb();
}

static void l2c210_sync(void)
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

static void l2c210_inv_range(uintptr_t start, uintptr_t end)
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

static void l2c210_clean_range(uintptr_t start, uintptr_t end)
{
	start &= ~(uintptr_t)(NB_LINE - 1);
	l2c210_op_pa_range(&nb_cache.l2_clean_pa, start, end);
	l2c210_sync();
}

static void l2c210_flush_range(uintptr_t start, uintptr_t end)
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

static const struct outer_cache_fns outer_cache = {
	l2c210_inv_range, l2c210_clean_range, l2c210_flush_range,
};

struct cpu_cache_fns {
	void (*dma_map_area)(uintptr_t, size_t, int);
	void (*dma_unmap_area)(uintptr_t, size_t, int);
};

static void v7_dma_map_area(uintptr_t va, size_t len, int dir)
{
	if (dir == DMA_FROM_DEVICE)
		v7_dma_inv_range(va, va + len);
	else
		v7_dma_clean_range(va, va + len);
}

static void v7_dma_unmap_area(uintptr_t va, size_t len, int dir)
{
	if (dir != DMA_TO_DEVICE)
		v7_dma_inv_range(va, va + len);
}

static const struct cpu_cache_fns cpu_cache = {
	v7_dma_map_area, v7_dma_unmap_area,
};

/* Walks a range page by page, as highmem-capable code has to. */
static void dma_cache_maint_page(uintptr_t va, size_t len, int dir,
				 void (*op)(uintptr_t, size_t, int))
{
	while (len) {
		size_t left = 4096 - (va & 4095);

		if (left > len)
			left = len;
		op(va, left, dir);
		va += left;
		len -= left;
	}
}

static void dma_page_cpu_to_dev(uintptr_t va, size_t len, int dir)
{
	uintptr_t pa = virt_to_phys(va);

	dma_cache_maint_page(va, len, dir, cpu_cache.dma_map_area);
	if (dir == DMA_FROM_DEVICE)
		outer_cache.inv_range(pa, pa + len);
	else
		outer_cache.clean_range(pa, pa + len);
	nb_cache.lines += (uint32_t)(len / NB_LINE);
}

static void dma_page_dev_to_cpu(uintptr_t va, size_t len, int dir)
{
	uintptr_t pa = virt_to_phys(va);

	if (dir != DMA_TO_DEVICE)
		outer_cache.inv_range(pa, pa + len);
	dma_cache_maint_page(va, len, dir, cpu_cache.dma_unmap_area);
	nb_cache.lines += (uint32_t)(len / NB_LINE);
}

void dma_map_single(const void *p, size_t len, int dir)
{
	dma_page_cpu_to_dev((uintptr_t)p, len, dir);
}

void dma_unmap_single(const void *p, size_t len, int dir)
{
	dma_page_dev_to_cpu((uintptr_t)p, len, dir);
}

/* A buffer both written by the CPU and read back (descriptor rings). */
void dma_flush(const void *p, size_t len)
{
	uintptr_t va = (uintptr_t)p, pa = virt_to_phys(va);

	v7_dma_flush_range(va, va + len);
	outer_cache.flush_range(pa, pa + len);
}
