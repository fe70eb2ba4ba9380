/* SPDX-License-Identifier: GPL-2.0-or-later */
/* codeid: see include/tuner/codeid.h */
#include "tuner/codeid.h"

#include <elf.h>
#include <git2.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tuner/elf.h"
#include "tuner/util.h"

/* libgit2's init is reference counted: one reference for the life of the
 * process, never dropped. */
static pthread_once_t git_once = PTHREAD_ONCE_INIT;

static void git_init(void)
{
	git_libgit2_init();
}

static void add_u64(struct strbuf *sb, uint64_t v)
{
	unsigned char b[8];

	for (int i = 0; i < 8; i++)
		b[i] = (unsigned char)(v >> (8 * i));
	strbuf_add(sb, b, sizeof(b));
}

static int sha1_hex(char out[41], const struct strbuf *sb, const char *path)
{
	git_oid oid;

	pthread_once(&git_once, git_init);
	if (git_odb_hash(&oid, sb->len ? sb->buf : "", sb->len, GIT_OBJECT_BLOB) < 0)
		return tn_error("%s: cannot hash its code", path);
	git_oid_tostr(out, 41, &oid);
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

int code_id(char out[41], const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	char *data = NULL;
	size_t len = 0;
	int ret = -1;

	if (read_file(&data, &len, path) < 0)
		return -1;
	if (len >= SELFMAG && !memcmp(data, ELFMAG, SELFMAG)) {
		struct elf_file f;

		if (elf_open(&f, path) < 0)
			goto out;
		if (f.has_table) {
			ret = elf_code(&sb, &f);
			elf_close(&f);
			if (ret < 0)
				goto out;
			free(data);
			data = NULL;
			ret = sha1_hex(out, &sb, path);
			goto out;
		}
		elf_close(&f);
	}
	strbuf_add(&sb, data, len);
	ret = sha1_hex(out, &sb, path);
out:
	free(data);
	strbuf_release(&sb);
	return ret;
}
