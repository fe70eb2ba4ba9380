/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * qemu_plugin_regs: the guest's registers and page tables for
 * tuner-uarch.so's cache maintenance model (qemu_plugin_priv.h). The
 * plugin API of QEMU 7.2 reads neither (qemu_plugin_read_register came
 * with QEMU 9), so these are QEMU's own functions, which qemu-system-arm
 * and qemu-system-mips(el) export: the gdb stub's register reader and the
 * debugger's address translation, found with dlsym. Only a callback registered with
 * QEMU_PLUGIN_CB_R_REGS may use them: QEMU then writes the guest's
 * registers back to the CPU state before calling it.
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>

#include "qemu_plugin_priv.h"

struct gbytes {
	uint8_t *data;
	unsigned len;
};
static void *(*q_get_cpu)(int);
static int (*q_read_reg)(void *, struct gbytes *, int);
static uint64_t (*q_phys_page)(void *, uint64_t);
static struct gbytes *(*g_new_bytes)(void);
static struct gbytes *(*g_set_bytes)(struct gbytes *, unsigned);
static struct gbytes *regbuf;

int find_qemu_internals(const char *reader)
{
	q_get_cpu = (void *(*)(int))dlsym(RTLD_DEFAULT, "qemu_get_cpu");
	q_read_reg = (int (*)(void *, struct gbytes *, int))dlsym(RTLD_DEFAULT, reader);
	q_phys_page = (uint64_t (*)(void *, uint64_t))dlsym(RTLD_DEFAULT, "cpu_get_phys_page_debug");
	g_new_bytes = (struct gbytes * (*)(void))dlsym(RTLD_DEFAULT, "g_byte_array_new");
	g_set_bytes = (struct gbytes * (*)(struct gbytes *, unsigned))dlsym(RTLD_DEFAULT,
									   "g_byte_array_set_size");
	if (!q_get_cpu || !q_read_reg || !q_phys_page || !g_new_bytes || !g_set_bytes)
		return -1;
	regbuf = g_new_bytes();
	return regbuf ? 0 : -1;
}

/* Register n of vcpu, 32 bits (gdb's numbering: ARM r0-r15 0-15, CPSR
 * 25; MIPS the GPRs 0-31). The callback must have asked for
 * QEMU_PLUGIN_CB_R_REGS. */
int read_reg(unsigned vcpu, int n, uint32_t *out)
{
	void *cs = q_get_cpu((int)vcpu);

	if (!cs)
		return -1;
	g_set_bytes(regbuf, 0);
	if (q_read_reg(cs, regbuf, n) != 4 || regbuf->len < 4)
		return -1;
	*out = (uint32_t)regbuf->data[0] | (uint32_t)regbuf->data[1] << 8 |
	       (uint32_t)regbuf->data[2] << 16 | (uint32_t)regbuf->data[3] << 24;
	return 0;
}

/* The physical address of vaddr in vcpu's current translation; -1 if none
 * (4 KB pages: the smallest of ARMv7 and of MIPS32). */
uint64_t phys_of(unsigned vcpu, uint64_t vaddr)
{
	void *cs = q_get_cpu((int)vcpu);
	uint64_t page;

	if (!cs)
		return UINT64_MAX;
	page = q_phys_page(cs, vaddr & ~(uint64_t)0xfff);
	return page == UINT64_MAX ? page : page + (vaddr & 0xfff);
}
