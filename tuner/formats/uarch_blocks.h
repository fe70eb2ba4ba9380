/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * uarch_blocks: the uarch plugin's per-block counters (its blocks=on file,
 * REPORT.blocks) folded into functions by an ELF file's symbols, for
 * `tuner profile`: where the MODELLED cycles go, function by function,
 * as `perf report` shows a real router's.
 *
 * The file (qemu_plugin_files.c writes it):
 *   uarch-blocks 1
 *   counters NAME...             the counter names, in the columns' order
 *   0xVADDR SIZE NINSNS EXECS V...  one line per block of the counted
 *                                   region that ran in the window
 *   end
 * A block's counters are what its executions added: its instruction
 * fetches, its loads and stores, its branch (resolved when the next block
 * began), its device accesses and cache maintenance. Counter names this
 * tuner does not know are skipped; ones it knows but the file lacks are 0.
 */
#ifndef TUNER_UARCH_BLOCKS_H
#define TUNER_UARCH_BLOCKS_H

#include <stddef.h>
#include <stdint.h>

#include "uarch/uarch.h"

struct ua_block {
	uint64_t vaddr, execs;
	uint32_t size, ninsns;
	struct ua_counters cnt;
};

/*
 * Parses text (len bytes; need not be NUL-terminated) named path in
 * messages. 0 with *out (malloced; caller frees with free()) and *n set,
 * or -1 with a message "PATH:LINE: ..." (tn_errmsg()).
 */
int ua_blocks_parse(struct ua_block **out, size_t *n, const char *text, size_t len,
		    const char *path);

struct elf_func;

/* One function's share: the blocks that start inside it, summed. */
struct ua_func_cost {
	const char *name; /* the symbol's (points into syms), or "[unknown]" */
	uint64_t addr;    /* the symbol's address; the block's when unknown */
	uint64_t execs;   /* block executions */
	struct ua_counters cnt;
};

/*
 * Folds blocks into the function symbols syms (sorted by address, as
 * elfsym_functions() gives them): a block belongs to the symbol whose
 * [addr, addr + size) holds its first byte (a symbol without a size
 * reaches the next symbol); blocks in no symbol are one "[unknown]" entry.
 * *out is malloced (caller frees with free()); its names
 * point into syms; entries in no particular order. Returns their number.
 */
size_t ua_blocks_by_function(struct ua_func_cost **out, const struct ua_block *blocks,
			     size_t nblocks, const struct elf_func *syms, size_t nsyms);

#endif
