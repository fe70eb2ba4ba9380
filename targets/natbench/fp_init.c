/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Boot (start_kernel's share of it that the router's fast path needs):
 * memory and its allocators, the interrupt controller and interrupts,
 * IPIs, entropy, time, the network core. Control plane: runs once, from
 * nb_config, before any device is opened.
 */
#include "fp_int.h"
#include "fp_irq.h"
#include "fp_mm.h"

void fp_kernel_init(void)
{
	nb_cpu = 0;
	mem_init();
	dma_cache_init();
	bcma_init();
	kmem_cache_init();
	skb_init();
	route_init();
	irq_init();
	smp_init();
	random_init();
	time_init();
	net_dev_init();
	ptype_init();
	flow_dissector_init();
}
