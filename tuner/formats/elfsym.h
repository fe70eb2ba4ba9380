/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * elfsym: the function symbols of an ELF file (its .symtab): name, address,
 * size, and for a file-local symbol the source file it came from. What
 * `nm -S --defined-only` shows of the code, and System.map of a kernel.
 *
 * Reads the section table through elf.h (ELF32 and ELF64, either byte
 * order) and decodes Elf32_Sym / Elf64_Sym entries in the file's own byte
 * order (System V gABI, chapter 4, "Symbol Table"). A function symbol is
 * STT_FUNC or STT_GNU_IFUNC, defined in a section with SHF_EXECINSTR. On
 * 32-bit ARM the low bit of a Thumb function's value is cleared (ARM ELF
 * ABI, "Symbol Values"). The linker keeps a file's local symbols after an
 * STT_FILE symbol naming the file; that name is kept for the local ones so
 * that two static functions of one name can be told apart.
 */
#ifndef TUNER_ELFSYM_H
#define TUNER_ELFSYM_H

#include <stddef.h>
#include <stdint.h>

struct elf_func {
	char *name;    /* malloced */
	char *file;    /* local symbols: the STT_FILE name before them ("fp_rx.c");
			* NULL for global ones; malloced */
	uint64_t addr; /* st_value: the link-time address */
	uint64_t size; /* st_size; 0 when the symbol does not say */
};

/*
 * The function symbols of the ELF file at path, sorted by address (then
 * name). 0 with *out (malloced; free with elfsym_free) and *n set, or -1
 * with a message: elf_open's, "no symbol table (stripped?)", "damaged
 * symbol table".
 */
int elfsym_functions(struct elf_func **out, size_t *n, const char *path);

/*
 * The symbol named name. When several have that name (static functions of
 * several files), the one whose file has the base name of file_hint (a
 * path; NULL: none), else the first. NULL if none.
 */
const struct elf_func *elfsym_find(const struct elf_func *syms, size_t n, const char *name,
				   const char *file_hint);

void elfsym_free(struct elf_func *syms, size_t n);

#endif
