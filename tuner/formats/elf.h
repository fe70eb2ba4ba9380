/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * elf: the section table of an ELF file, and the bytes of one section.
 *
 * ELF32 and ELF64, either byte order: the file is read as bytes and every
 * field decoded in the file's own order, so a big-endian MIPS kernel or a
 * 32-bit ARM one is read the same on an x86-64 host, and no struct is read
 * from an unaligned place. Every offset and size the file states is checked
 * against the file's length before it is used; a file that lies gets
 * "truncated ELF file", never a read past its end.
 *
 * Implements the section-header part of the System V ABI's generic ELF
 * specification ("gABI", chapter 4, Sections), including extended
 * section numbering (e_shnum 0: the count is sh_size of section 0;
 * e_shstrndx SHN_XINDEX: the index is sh_link of section 0).
 *
 * Used by size (executable sections of an artifact), by build for
 * `applied: record` (the .GCC.command.line section) and by codeid (the
 * allocated sections: what runs).
 */
#ifndef TUNER_ELF_H
#define TUNER_ELF_H

#include <stddef.h>
#include <stdint.h>

struct elf_section {
	uint32_t name;   /* offset of its name in the section-name table */
	uint32_t type;   /* SHT_* */
	uint64_t flags;  /* SHF_* */
	uint64_t addr;   /* sh_addr: where it is loaded (allocated sections) */
	uint64_t offset; /* of its bytes in the file */
	uint64_t size;
	uint32_t link;   /* sh_link: e.g. a symbol table's string table index */
};

struct elf_file {
	char *path;      /* malloced copy, for messages */
	int fd;          /* -1 when closed */
	uint64_t file_size;
	int is64;        /* ELFCLASS64 */
	int msb;         /* ELFDATA2MSB */
	unsigned machine; /* e_machine: EM_ARM, EM_X86_64, ... */
	uint64_t entry;  /* e_entry */
	int has_table;   /* 0: no section header table (e_shoff 0, sstrip'ed) */
	size_t nsections; /* entries in the table, section 0 included */
	struct elf_section *sections; /* malloced, nsections entries */
	size_t shstrndx; /* index of the section-name table; 0: none */
};

#define ELF_FILE_INIT { .path = NULL, .fd = -1 }

/*
 * Opens the ELF file at path and reads its header and section table into
 * out (which need not be initialised). A file without a section table
 * opens with has_table 0. -1 with a message naming the path: "cannot
 * open", "not a regular file", "not an ELF file", "truncated ELF file",
 * "bad ELF section header size N", "unknown ELF class N", "unknown ELF
 * byte order N"; out is then released. Release with elf_close().
 */
int elf_open(struct elf_file *out, const char *path);

/* 1 if the section's bytes lie inside the file (always for SHT_NOBITS,
 * which has none there). */
int elf_section_in_file(const struct elf_file *f, const struct elf_section *s);

/*
 * The first section named name. 1 and *out set (a pointer into f), 0 if
 * there is none (or no name table), -1 with a message if the name table
 * is damaged.
 */
int elf_find_section(const struct elf_section **out, const struct elf_file *f,
		     const char *name);

/*
 * Reads the bytes of section s into a malloced buffer with a NUL after
 * them (caller frees with free()); SHT_NOBITS reads as empty. 0, or -1
 * with a message ("truncated ELF file" when they are not in the file).
 */
int elf_read_section(char **out, size_t *len, const struct elf_file *f,
		     const struct elf_section *s);

void elf_close(struct elf_file *f);

#endif
