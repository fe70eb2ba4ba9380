/* SPDX-License-Identifier: GPL-2.0-or-later */
/* size: see tuner/build/size.h */
#include "size.h"

#include <elf.h>
#include <stdint.h>
#include <sys/stat.h>

#include "formats/elf.h"
#include "tuner/util.h"

int size_file(double *out, const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return tn_error_errno("cannot stat '%s'", path);
	if (!S_ISREG(st.st_mode))
		return tn_error_at(path, 0, 0, "not a regular file");
	*out = (double)st.st_size;
	return 0;
}

int size_text(double *out, const char *path)
{
	struct elf_file f;
	uint64_t total = 0;
	int ret = -1;

	if (elf_open(&f, path) < 0)
		return -1;
	if (!f.has_table) {
		/* sstrip'ed: only program headers are left to tell the
		 * sizes, and they merge code with read-only data. */
		tn_error_at(path, 0, 0, "ELF file has no section headers");
		goto out;
	}
	for (size_t i = 0; i < f.nsections; i++) {
		const struct elf_section *sh = &f.sections[i];
		uint64_t want = SHF_ALLOC | SHF_EXECINSTR;

		if (sh->type != SHT_PROGBITS || (sh->flags & want) != want)
			continue;
		/* The bytes are in the file: a size past its end is a lie. */
		if (!elf_section_in_file(&f, sh)) {
			tn_error_at(path, 0, 0, "truncated ELF file");
			goto out;
		}
		total += sh->size;
	}
	*out = (double)total;
	ret = 0;
out:
	elf_close(&f);
	return ret;
}
