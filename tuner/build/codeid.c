/* SPDX-License-Identifier: GPL-2.0-or-later */
/* codeid: see tuner/build/codeid.h */
#include "codeid.h"

#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/elf.h"
#include "tuner/gitsrc.h"
#include "tuner/util.h"

static void add_u64(struct strbuf *sb, uint64_t v)
{
	unsigned char b[8];

	for (int i = 0; i < 8; i++)
		b[i] = (unsigned char)(v >> (8 * i));
	strbuf_add(sb, b, sizeof(b));
}

static int sha1_hex(char out[41], const void *data, size_t len, const char *path)
{
	if (gitsrc_blob_id(out, data, len) < 0)
		return tn_error("%s: cannot hash its code", path);
	return 0;
}

/* What runs of the ELF file f, appended to sb. */
static int elf_code(struct strbuf *sb, const struct elf_file *f)
{
	add_u64(sb, f->machine);
	add_u64(sb, f->entry);
	for (size_t i = 1; i < f->nsections; i++) {
		const struct elf_section *s = &f->sections[i];
		char *bytes = NULL;
		size_t len = 0;

		if (!(s->flags & SHF_ALLOC) || s->type == SHT_NOTE)
			continue;
		add_u64(sb, s->type);
		add_u64(sb, s->flags);
		add_u64(sb, s->addr);
		add_u64(sb, s->size);
		if (s->type == SHT_NOBITS)
			continue;
		if (elf_read_section(&bytes, &len, f, s) < 0)
			return -1;
		strbuf_add(sb, bytes, len);
		free(bytes);
	}
	return 0;
}

/* 1 if the file at path starts as ELF does, 0 if not, -1 with a message. */
static int is_elf(const char *path)
{
	unsigned char magic[SELFMAG];
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f)
		return tn_error_errno("%s: cannot open", path);
	n = fread(magic, 1, sizeof(magic), f);
	fclose(f);
	return n == SELFMAG && !memcmp(magic, ELFMAG, SELFMAG);
}

/* The code of an ELF file with a section table into sb: 1; 0 when it
 * has none; -1 with a message. */
static int elf_file_code(struct strbuf *sb, const char *path)
{
	struct elf_file f;
	int ret;

	if (elf_open(&f, path) < 0)
		return -1;
	ret = f.has_table ? (elf_code(sb, &f) < 0 ? -1 : 1) : 0;
	elf_close(&f);
	return ret;
}

int codeid_file(char out[41], const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	char *data = NULL;
	size_t len = 0;
	int ret = is_elf(path);

	/* An ELF file through its section table; any other by its bytes. */
	if (ret > 0)
		ret = elf_file_code(&sb, path);
	if (ret > 0)
		ret = sha1_hex(out, sb.buf, sb.len, path);
	else if (ret == 0)
		ret = read_file(&data, &len, path) < 0 ? -1 : sha1_hex(out, data, len, path);
	free(data);
	strbuf_release(&sb);
	return ret;
}
