/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * size: the size of a build's artifact.
 */
#ifndef TUNER_SIZE_H
#define TUNER_SIZE_H

/* Size of the file in bytes. 0 or -1 with message. */
int size_file(double *out, const char *path);

/* Total size of the ELF file's executable sections (SHF_EXECINSTR and
 * SHF_ALLOC: .text, .text.hot, .init, .plt, ...), ELF32 or ELF64, either byte
 * order. 0 or -1 with message ("not an ELF file", ...). */
int size_text(double *out, const char *path);

#endif
