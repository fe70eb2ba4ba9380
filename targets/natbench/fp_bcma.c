/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The bus the Ethernet core sits on (BCMA, the Broadcom AMBA
 * interconnect of the BCM47094): a core's registers are reached through
 * its bus's operations, on this SoC plain memory-mapped reads and writes
 * (bcma_host_soc_read32, among the top entries of the seeds' profiles:
 * every register access of the driver goes through here). The device's
 * registers are nb_nic.regs; its interrupt status register clears the
 * bits written as ones.
 */
#include "fp_int.h"
#include "fp_util.h"

struct bcma_device;

struct bcma_host_ops {
	uint32_t (*read32)(struct bcma_device *core, unsigned offset);
	void (*write32)(struct bcma_device *core, unsigned offset, uint32_t v);
};

struct bcma_device {
	const struct bcma_host_ops *ops;
	volatile uint32_t *io_addr;
	unsigned id;
};

static uint32_t bcma_host_soc_read32(struct bcma_device *core,
				     unsigned offset)
{
	return core->io_addr[offset % REG_NREGS];
}

static void bcma_host_soc_write32(struct bcma_device *core, unsigned offset,
				  uint32_t v)
{
	if (offset == REG_INT_STATUS)
		core->io_addr[offset] &= ~v;  /* write one to clear */
	else
		core->io_addr[offset % REG_NREGS] = v;
}

static const struct bcma_host_ops bcma_host_soc_ops = {
	bcma_host_soc_read32, bcma_host_soc_write32,
};

/* The GMAC core of the bus (found when the bus is scanned at boot). */
static struct bcma_device gmac_core;

uint32_t bcma_read32(unsigned offset)
{
	return gmac_core.ops->read32(&gmac_core, offset);
}

void bcma_write32(unsigned offset, uint32_t v)
{
	gmac_core.ops->write32(&gmac_core, offset, v);
}

/* Control plane at boot: the bus scan finds the GMAC core. */
void bcma_init(void)
{
	gmac_core.ops = &bcma_host_soc_ops;
	gmac_core.io_addr = nb_nic.regs;
	gmac_core.id = 0x82d;
}
