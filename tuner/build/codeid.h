/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * codeid: the identity of what an artifact runs, so that two builds whose
 * code is the same are measured once and share their samples (run_sched.c).
 *
 * An ELF file: the SHA-1 of its machine, entry point and every allocated
 * section (SHF_ALLOC) but notes, each by type, flags, address, size and
 * bytes (.bss and other SHT_NOBITS sections by address and size alone).
 * Left out is what only records how the file was built: sections that
 * are not loaded (symbols, debug info, .comment, -frecord-gcc-switches'
 * .GCC.command.line) and notes (a GNU build id hashes the whole file,
 * debug info included). Any other file (a kernel's zImage, an ELF file
 * without a section table): the SHA-1 of all its bytes.
 */
#ifndef TUNER_CODEID_H
#define TUNER_CODEID_H

/*
 * Writes the code id of the file at path into out (40 hex digits and a
 * NUL). 0, or -1 with a message naming the path (cannot open, truncated
 * ELF file...).
 */
int codeid_file(char out[41], const char *path);

#endif
