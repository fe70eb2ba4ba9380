/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tuner-uarch.so: a QEMU TCG plugin (plugin API version 1, QEMU 7.2) that
 * feeds the executed instruction stream into the uarch model
 * (tuner/uarch/uarch.h) and writes its raw counters. A MODEL of a router
 * core's caches and branch predictors, not a measurement.
 *
 *   qemu-arm -plugin tuner-uarch.so,preset=cortex-a9,out=FILE[,KEY=VALUE...] PROG
 *
 * Arguments (QEMU splits them on commas):
 *   preset=NAME and the machine keys of ua_config_set() (l1i=, l1d=, l2=,
 *   dir=, btb=, ras=, indirect=, writeback=): the modelled core. The
 *   penalties are the scorer's and are refused here.
 *   out=PATH      the report (ua_report_write()), written at exit
 *   ranges=FILE   lines "KIND 0xLO 0xHI" (HI exclusive): code of KIND fp is
 *                 the counted region, of KIND fp or own is ARM-state (A32)
 *                 code; other kinds are ignored
 *   count=LO-HI   (hex, repeatable) also counted and A32, e.g. a kernel's
 *                 c0000000-ffffffff; without ranges= or count= all code
 *                 is counted
 *   lines=on      also write, beside each report (PATH.lines), every
 *                 executed 32-bit-aligned line of counted code with the
 *                 execution count of its busiest instruction
 *   ctl=FIFO      read commands from FIFO (made by the caller): "reset"
 *                 zeroes the counters (caches and predictors stay warm),
 *                 "dump PATH" writes a report to PATH (atomically)
 *   marks=on      the guest marks the counted window itself, at an exact
 *                 instruction (no host timing): executing the A32 hint
 *                 `dbg #1` (0xe320f0f1), or on MIPS `sll $0,$0,17`
 *                 (0x00000440), resets the counters as "reset" does;
 *                 `dbg #2` (0xe320f0f2), on MIPS `sll $0,$0,18`
 *                 (0x00000480), writes the report to out=, which QEMU's
 *                 exit then leaves as it is (QEMU runs them as no-ops;
 *                 compilers never emit them).
 *                 The kernel router's in-guest traffic generator uses it
 *                 (targets/qemu-linux/natgen.c)
 *
 * Branches: the model learns a branch's outcome from the address of the
 * block that runs next. The branch is the last instruction of a block (on
 * MIPS the one before its delay slot) and is decoded only where its
 * instruction set is known: A32 in the ranges above, MIPS32 everywhere.
 * Thumb code (Debian's armhf libc) and x86 are cached but have no branch
 * model ("undecoded").
 *
 * One core: it refuses system emulation with more than one vCPU. Memory
 * accesses use the physical address when QEMU gives one (system mode)
 * and skip I/O; instruction fetches use the virtual address.
 *
 * This file is the QEMU glue; the plugin's files (ranges=, the reports,
 * ctl=) are qemu_plugin_files.c's.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qemu-plugin.h>

#include "qemu_plugin_priv.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

enum isa { ISA_NONE, ISA_A32, ISA_MIPS_LE, ISA_MIPS_BE };
#define ISA_IS_MIPS (isa == ISA_MIPS_LE || isa == ISA_MIPS_BE)

struct ua_core core;
static enum isa isa;
const char *arch_name;
static char *out_path;
int want_lines;
int want_blocks;
static int want_marks;
static uint64_t l2c_base = UINT64_MAX; /* l2c=: the L2C-310's registers */
static uint64_t maint_unread;          /* maintenance whose address could not be read */
static int mark_dumped; /* a dump mark wrote out_path: keep it at exit */
static int system_mode; /* QEMU emulates a whole machine */
static int maint_on;    /* system mode, A32 or MIPS, a machine with maint=on */

pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER; /* blocks, ctl */
struct block *buckets[NBUCKETS];
static const struct block *prev; /* the block executed last */

static void die(const char *fmt, const char *arg)
{
	fprintf(stderr, "tuner-uarch: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
}

/* ---- marks ---- */

/* An exec callback of a mark instruction: udata is ua_decode_mark()'s. */
static void on_mark(unsigned int vcpu, void *udata)
{
	(void)vcpu;
	pthread_mutex_lock(&lock);
	if ((uintptr_t)udata == 1)
		reset_counts();
	else if (out_path) {
		write_report(out_path);
		mark_dumped = 1;
	}
	pthread_mutex_unlock(&lock);
}

/* ---- execution ---- */

static void attribute(const struct block *b);

void blocks_flush(void)
{
	if (prev && prev->acc)
		attribute(prev);
}

/* blocks=: what the counted region's counters gained since the last block
 * began is that block's (its fetch, its loads and stores, its branch). */
static void attribute(const struct block *b)
{
	struct ua_counters *now = &core.cnt[UA_COUNTED];

	for (size_t i = 0; i < ua_ncounters; i++) {
		uint64_t v = *ua_counter(now, i);

		b->acc[i] += v - *ua_counter(&block_snap, i);
		*ua_counter(&block_snap, i) = v;
	}
}

static void on_exec(unsigned int vcpu, void *udata)
{
	struct block *b = udata;

	(void)vcpu;
	if (__atomic_load_n(&ctl_pending, __ATOMIC_ACQUIRE))
		ctl_act();
	if (prev) {
		struct ua_counters *pc = &core.cnt[prev->region];

		if (prev->br.kind & UA_BR_BRANCH)
			ua_bpred_resolve(&core.bp, &prev->br, b->vaddr, pc);
		else if (prev->decoded && !(prev->br.kind & UA_BR_NOPRED) &&
			 b->vaddr != prev->vaddr + prev->size)
			pc->async++;
		if (prev->acc)
			attribute(prev);
	}
	ua_core_fetch(&core, (enum ua_region)b->region, b->vaddr, b->size, b->ninsns);
	if (!b->decoded)
		core.cnt[b->region].undecoded++;
	b->count++;
	prev = b;
}

/*
 * A load or store by an instruction of region r: a repeat of the L1 D
 * cache's last line (most accesses: the stack, a structure's fields) is
 * counted here, the rest goes to ua_core_data(). (QEMU 7.2 does not keep
 * loads and stores apart when each has a callback of its own: the
 * load's ran for stores. Hence one callback that asks.)
 */
static inline void data_access(uintptr_t r, qemu_plugin_meminfo_t info, uint64_t addr)
{
	uint32_t shift = core.l1d.line_shift, size = 1u << qemu_plugin_mem_size_shift(info);
	uint64_t line = addr >> shift;
	int store = qemu_plugin_mem_is_store(info);

	if ((addr + size - 1) >> shift == line && ua_cache_repeat(&core.l1d, line, store)) {
		if (store)
			core.cnt[r].l1d_write++;
		else
			core.cnt[r].l1d_read++;
		return;
	}
	ua_core_data(&core, (enum ua_region)r, addr, size, store);
}

/* udata of a memory callback: the region, and for an A32 word store in
 * system mode with l2c= the stored register + 1 (bits 8-12). */
#define MEM_REGION(u) ((uintptr_t)(u) & 0xff)
#define MEM_RT(u) (((uintptr_t)(u) >> 8) & 0x1f)

/* User mode: addresses are virtual, there is no I/O. */
static void on_mem_user(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr,
			void *udata)
{
	(void)vcpu;
	data_access(MEM_REGION(udata), info, vaddr);
}

/* The exec callback of an A32 cache maintenance instruction (before it
 * runs): udata is its word, and its block's region in bits 32 and up. */
static void on_maint(unsigned int vcpu, void *udata)
{
	uint64_t u = (uintptr_t)udata;
	uint32_t w = (uint32_t)u, cpsr, va;
	enum ua_region r = (enum ua_region)(u >> 32);
	enum ua_maint_op op;
	unsigned rt;
	int cond = ua_decode_a32_maint(w, &op, &rt);
	uint64_t pa;

	if (cond < 0)
		return;
	if (cond != 14 && (read_reg(vcpu, 25, &cpsr) < 0 || !ua_a32_cond((unsigned)cond, cpsr >> 28)))
		return;
	if (read_reg(vcpu, (int)rt, &va) < 0 || (pa = phys_of(vcpu, va)) == UINT64_MAX) {
		maint_unread++;
		return;
	}
	ua_core_maint(&core, r, 1, op, pa);
}

/* MIPS: QEMU 7.2 reports a RAM access at its RAM region's own address
 * plus the offset (malta: 0x80000000 + offset; physical 0 is an alias),
 * so an operation's kseg0/kseg1 address (va & 0x1fffffff physical) is put
 * in those terms with the difference the first kseg0 RAM access showed
 * (UINT64_MAX until then; learnt only while mips_learn is set: MIPS with
 * maint on). */
static uint64_t mips_ram_delta = UINT64_MAX;
static int mips_learn;
#define mips_unmapped(va) ((va) >= 0x80000000u && (va) < 0xc0000000u)

/* The exec callback of a MIPS CACHE instruction by address (before it
 * runs): udata is its word, and its block's region in bits 32 and up. */
static void on_maint_mips(unsigned int vcpu, void *udata)
{
	uint64_t u = (uintptr_t)udata;
	enum ua_region r = (enum ua_region)(u >> 32);
	enum ua_maint_op op;
	unsigned base;
	int32_t off;
	int level = ua_decode_mips_cache((uint32_t)u, &op, &base, &off);
	uint32_t va;
	uint64_t pa;

	if (level < 0)
		return;
	if (read_reg(vcpu, (int)base, &va) < 0) {
		maint_unread++;
		return;
	}
	va += (uint32_t)off;
	if (mips_unmapped(va) && mips_ram_delta != UINT64_MAX)
		pa = (va & 0x1fffffffu) + mips_ram_delta;
	else if ((pa = phys_of(vcpu, va)) == UINT64_MAX) {
		maint_unread++;
		return;
	}
	ua_core_maint(&core, r, level, op, pa);
}

/* System mode: the physical address; I/O is not cached but counted, and a
 * store to the L2C-310's line operations is one. */
static void on_mem(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *udata)
{
	struct qemu_plugin_hwaddr *hw = qemu_plugin_get_hwaddr(info, vaddr);
	uintptr_t r = MEM_REGION(udata);
	uint64_t addr = vaddr;

	if (hw) {
		if (qemu_plugin_hwaddr_is_io(hw)) {
			int store = qemu_plugin_mem_is_store(info);

			ua_core_io(&core, (enum ua_region)r, store);
			addr = qemu_plugin_hwaddr_phys_addr(hw);
			if (store && MEM_RT(udata) && addr - l2c_base < 0x1000) {
				enum ua_maint_op op = ua_l2c310_line_op(addr - l2c_base);
				uint32_t pa;

				if (!op)
					return;
				if (read_reg(vcpu, (int)MEM_RT(udata) - 1, &pa) < 0)
					maint_unread++;
				else
					ua_core_maint(&core, (enum ua_region)r, 2, op, pa);
			}
			return;
		}
		addr = qemu_plugin_hwaddr_phys_addr(hw);
		if (mips_learn && mips_unmapped((uint32_t)vaddr)) {
			mips_ram_delta = addr - (vaddr & 0x1fffffffu);
			mips_learn = 0;
		}
	}
	data_access(r, info, addr);
}

static uint32_t word(const struct qemu_plugin_insn *insn, int big_endian)
{
	const uint8_t *p = qemu_plugin_insn_data(insn);

	if (big_endian)
		return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
	return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

/* Decodes the branch that ends block b (instructions of tb). */
static void decode(struct block *b, struct qemu_plugin_tb *tb, const struct range *r)
{
	size_t n = qemu_plugin_tb_n_insns(tb);

	memset(&b->br, 0, sizeof(b->br));
	b->decoded = 0;
	if (isa == ISA_A32) {
		struct qemu_plugin_insn *last = qemu_plugin_tb_get_insn(tb, n - 1);

		/* A32 only where the ranges say so; never a block holding a
		 * 16-bit (Thumb) instruction. */
		if (!r && have_ranges)
			return;
		for (size_t i = 0; i < n; i++)
			if (qemu_plugin_insn_size(qemu_plugin_tb_get_insn(tb, i)) != 4)
				return;
		ua_decode_a32(&b->br, word(last, 0), qemu_plugin_insn_vaddr(last));
		b->decoded = 1;
	} else if (ISA_IS_MIPS) {
		int be = isa == ISA_MIPS_BE;

		/* The branch sits before its delay slot, which ends the block;
		 * a block cut after the branch itself ends with it. */
		if (n >= 2) {
			struct qemu_plugin_insn *in = qemu_plugin_tb_get_insn(tb, n - 2);

			ua_decode_mips(&b->br, word(in, be), qemu_plugin_insn_vaddr(in));
		}
		if (!(b->br.kind & (UA_BR_BRANCH | UA_BR_NOPRED))) {
			struct qemu_plugin_insn *in = qemu_plugin_tb_get_insn(tb, n - 1);

			ua_decode_mips(&b->br, word(in, be), qemu_plugin_insn_vaddr(in));
		}
		b->decoded = 1;
	}
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const uint8_t *s = p;

	for (size_t i = 0; i < n; i++)
		h = (h ^ s[i]) * 0x100000001b3ULL;
	return h;
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);
	uint64_t vaddr = qemu_plugin_tb_vaddr(tb), key = 0xcbf29ce484222325ULL;
	struct qemu_plugin_insn *last;
	const struct range *r;
	struct block *b;
	uint32_t size;
	size_t h;

	(void)id;
	if (!n)
		return;
	last = qemu_plugin_tb_get_insn(tb, n - 1);
	size = (uint32_t)(qemu_plugin_insn_vaddr(last) + qemu_plugin_insn_size(last) - vaddr);
	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *in = qemu_plugin_tb_get_insn(tb, i);

		key = fnv(key, qemu_plugin_insn_data(in), qemu_plugin_insn_size(in));
	}
	key = fnv(key, &vaddr, sizeof(vaddr));
	h = (size_t)(key % NBUCKETS);

	pthread_mutex_lock(&lock);
	for (b = buckets[h]; b; b = b->next)
		if (b->key == key && b->vaddr == vaddr && b->size == size && b->ninsns == n)
			break;
	if (!b) {
		b = calloc(1, sizeof(*b));
		if (!b)
			abort();
		b->vaddr = vaddr;
		b->key = key;
		b->size = size;
		b->ninsns = (uint32_t)n;
		r = find_range(vaddr);
		b->region = (r ? r->counted : !nranges) ? UA_COUNTED : UA_REST;
		decode(b, tb, r);
		if (want_lines) {
			b->offs = malloc(n * sizeof(*b->offs));
			if (!b->offs)
				abort();
			for (size_t i = 0; i < n; i++)
				b->offs[i] = (uint16_t)(qemu_plugin_insn_vaddr(
						qemu_plugin_tb_get_insn(tb, i)) - vaddr);
		}
		if (want_blocks && b->region == UA_COUNTED) {
			b->acc = calloc(ua_ncounters, sizeof(*b->acc));
			if (!b->acc)
				abort();
		}
		b->next = buckets[h];
		buckets[h] = b;
	}
	pthread_mutex_unlock(&lock);

	qemu_plugin_register_vcpu_tb_exec_cb(tb, on_exec, QEMU_PLUGIN_CB_NO_REGS, b);
	for (size_t i = 0; want_marks && isa != ISA_NONE && i < n; i++) {
		struct qemu_plugin_insn *in = qemu_plugin_tb_get_insn(tb, i);
		int m;

		if (qemu_plugin_insn_size(in) != 4)
			continue;
		m = ua_decode_mark(word(in, isa == ISA_MIPS_BE), ISA_IS_MIPS);
		if (m)
			qemu_plugin_register_vcpu_insn_exec_cb(in, on_mark, QEMU_PLUGIN_CB_NO_REGS,
							       (void *)(uintptr_t)m);
	}
	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *in = qemu_plugin_tb_get_insn(tb, i);
		uintptr_t u = b->region;
		enum qemu_plugin_cb_flags fl = QEMU_PLUGIN_CB_NO_REGS;
		int four = qemu_plugin_insn_size(in) == 4;
		int a32 = isa == ISA_A32 && b->decoded && four, mips = ISA_IS_MIPS && four;
		uint32_t w = four ? word(in, isa == ISA_MIPS_BE) : 0;
		void *maint_udata = (void *)(uintptr_t)((uint64_t)b->region << 32 | w);
		enum ua_maint_op op;
		unsigned rt, base;
		int32_t off;

		if (mips && maint_on && ua_decode_mips_cache(w, &op, &base, &off) > 0)
			qemu_plugin_register_vcpu_insn_exec_cb(in, on_maint_mips, QEMU_PLUGIN_CB_R_REGS,
							       maint_udata);
		if (a32 && maint_on && ua_decode_a32_maint(w, &op, &rt) >= 0)
			qemu_plugin_register_vcpu_insn_exec_cb(in, on_maint, QEMU_PLUGIN_CB_R_REGS,
							       maint_udata);
		if (a32 && maint_on && l2c_base != UINT64_MAX && ua_decode_a32_str(w, &rt)) {
			u |= (uintptr_t)(rt + 1) << 8;
			fl = QEMU_PLUGIN_CB_R_REGS;
		}
		qemu_plugin_register_vcpu_mem_cb(in, system_mode ? on_mem : on_mem_user, fl,
						 QEMU_PLUGIN_MEM_RW, (void *)u);
	}
}

static void on_exit_cb(qemu_plugin_id_t id, void *p)
{
	(void)id;
	(void)p;
	pthread_mutex_lock(&lock);
	if (out_path && !mark_dumped)
		write_report(out_path);
	pthread_mutex_unlock(&lock);
	if (maint_unread)
		fprintf(stderr, "tuner-uarch: %llu cache maintenance operations whose address "
			"could not be read (not modelled)\n", (unsigned long long)maint_unread);
}

static int parse_count(const char *v)
{
	unsigned long long lo, hi;
	char tail;

	if (sscanf(v, "%llx-%llx%c", &lo, &hi, &tail) != 2 || hi < lo) {
		die("count: '%s' is not LO-HI in hex", v);
		return -1;
	}
	add_range(lo, hi + (hi != UINT64_MAX), 1);
	return 0;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
					   int argc, char **argv)
{
	struct ua_config cfg;
	char err[256];
	const char *ctl = NULL;
	static const char *const penalties[] = {
		"insn", "l1i_miss", "l1d_miss", "l2_miss", "taken", "mispredict", "clock_mhz", NULL
	};

	if (ua_config_preset(&cfg, "cortex-a9", err, sizeof(err)) < 0)
		return -1;
	for (int i = 0; i < argc; i++) {
		char *eq = strchr(argv[i], '=');
		char key[64];
		const char *val;
		size_t kl;

		if (!eq || (kl = (size_t)(eq - argv[i])) >= sizeof(key)) {
			die("argument '%s' is not KEY=VALUE", argv[i]);
			return -1;
		}
		memcpy(key, argv[i], kl);
		key[kl] = '\0';
		val = eq + 1;
		if (!strcmp(key, "out")) {
			out_path = strdup(val);
		} else if (!strcmp(key, "ranges")) {
			if (load_ranges(val) < 0)
				return -1;
		} else if (!strcmp(key, "count")) {
			if (parse_count(val) < 0)
				return -1;
			have_ranges = 1;
		} else if (!strcmp(key, "lines")) {
			if (strcmp(val, "on") && strcmp(val, "off")) {
				die("lines: '%s' is not on or off", val);
				return -1;
			}
			want_lines = !strcmp(val, "on");
		} else if (!strcmp(key, "blocks")) {
			if (strcmp(val, "on") && strcmp(val, "off")) {
				die("blocks: '%s' is not on or off", val);
				return -1;
			}
			want_blocks = !strcmp(val, "on");
		} else if (!strcmp(key, "l2c")) {
			unsigned long long a;
			char tail;

			if (sscanf(val, "%llx%c", &a, &tail) != 1) {
				die("l2c: '%s' is not a physical address in hex", val);
				return -1;
			}
			l2c_base = a;
		} else if (!strcmp(key, "marks")) {
			if (strcmp(val, "on") && strcmp(val, "off")) {
				die("marks: '%s' is not on or off", val);
				return -1;
			}
			want_marks = !strcmp(val, "on");
		} else if (!strcmp(key, "ctl")) {
			ctl = val;
		} else {
			for (const char *const *p = penalties; *p; p++) {
				if (!strcmp(*p, key)) {
					die("%s: penalties are the scorer's (tuner's uarch-model "
					    "parsers), not the plugin's", key);
					return -1;
				}
			}
			if (ua_config_set(&cfg, key, val, err, sizeof(err)) < 0) {
				die("%s", err);
				return -1;
			}
		}
	}
	if (want_marks && !out_path) {
		die("%s", "marks=on needs out=PATH");
		return -1;
	}
	if (!out_path && !ctl) {
		die("%s", "needs out=PATH (or ctl=FIFO)");
		return -1;
	}
	if (info->system_emulation && info->system.smp_vcpus > 1) {
		die("%s", "models one core: run the guest with one vCPU (-smp 1)");
		return -1;
	}
	arch_name = info->target_name;
	system_mode = info->system_emulation;
	if (!strcmp(arch_name, "arm"))
		isa = ISA_A32;
	else if (!strcmp(arch_name, "mipsel"))
		isa = ISA_MIPS_LE;
	else if (!strcmp(arch_name, "mips"))
		isa = ISA_MIPS_BE;
	else
		isa = ISA_NONE;
	if (ua_core_init(&core, &cfg, err, sizeof(err)) < 0) {
		die("%s", err);
		return -1;
	}
	maint_on = cfg.maint && system_mode && isa != ISA_NONE;
	mips_learn = maint_on && ISA_IS_MIPS;
	if (maint_on && find_qemu_internals(isa == ISA_A32 ? "arm_cpu_gdb_read_register"
							   : "mips_cpu_gdb_read_register") < 0) {
		die("%s", "maint=on needs QEMU's qemu_get_cpu, its target's gdb register reader "
			  "(arm_ or mips_cpu_gdb_read_register) and cpu_get_phys_page_debug "
			  "(exported by QEMU 7.2's qemu-system-arm and -mips): not found");
		return -1;
	}
	if (l2c_base != UINT64_MAX && !(system_mode && isa == ISA_A32)) {
		die("%s", "l2c= needs system emulation of an ARM machine");
		return -1;
	}
	if (ctl) {
		pthread_t t;

		if (pthread_create(&t, NULL, ctl_loop, strdup(ctl)) != 0) {
			die("%s", "cannot start the ctl thread");
			return -1;
		}
		pthread_detach(t);
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
	qemu_plugin_register_atexit_cb(id, on_exit_cb, NULL);
	return 0;
}
