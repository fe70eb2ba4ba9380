/* SPDX-License-Identifier: GPL-2.0-or-later */
/* elf: see tuner/formats/elf.h */
#include "elf.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tuner/util.h"

static uint64_t get(const struct elf_file *f, const unsigned char *p, size_t n)
{
	uint64_t v = 0;

	for (size_t i = 0; i < n; i++)
		v |= (uint64_t)p[f->msb ? i : n - 1 - i] << (8 * (n - 1 - i));
	return v;
}

/* A field of a header in b, by its offset and size in the <elf.h> struct. */
#define FIELD(f, b, type, member) \
	get((f), (b) + offsetof(type, member), sizeof(((type *)0)->member))
/* The same field from the 32- or 64-bit struct, as the file's class says. */
#define EFIELD(f, b, member) ((f)->is64 ? FIELD(f, b, Elf64_Ehdr, member) \
					: FIELD(f, b, Elf32_Ehdr, member))
#define SFIELD(f, b, member) ((f)->is64 ? FIELD(f, b, Elf64_Shdr, member) \
					: FIELD(f, b, Elf32_Shdr, member))

/* Reads len bytes at off, which the caller checked lie inside the file. */
static int read_at(const struct elf_file *f, void *buf, size_t len, uint64_t off)
{
	unsigned char *p = buf;

	while (len) {
		ssize_t n = pread(f->fd, p, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return tn_error_errno("cannot read '%s'", f->path);
		if (n == 0)
			return tn_error_at(f->path, 0, 0, "truncated ELF file");
		p += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

/* 1 if [off, off+len) lies inside the file, without overflowing. */
static int inside(const struct elf_file *f, uint64_t off, uint64_t len)
{
	return off <= f->file_size && len <= f->file_size - off;
}

static int truncated(const struct elf_file *f)
{
	return tn_error_at(f->path, 0, 0, "truncated ELF file");
}

static void decode_section(struct elf_section *out, const struct elf_file *f,
			   const unsigned char *sh)
{
	out->name = (uint32_t)SFIELD(f, sh, sh_name);
	out->type = (uint32_t)SFIELD(f, sh, sh_type);
	out->flags = SFIELD(f, sh, sh_flags);
	out->addr = SFIELD(f, sh, sh_addr);
	out->offset = SFIELD(f, sh, sh_offset);
	out->size = SFIELD(f, sh, sh_size);
	out->link = (uint32_t)SFIELD(f, sh, sh_link);
}

/* The section header table: e_shoff, e_shentsize, e_shnum, e_shstrndx. */
static int read_table(struct elf_file *f)
{
	unsigned char eh[sizeof(Elf64_Ehdr)];
	unsigned char *table = NULL;
	size_t ehsize = f->is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
	size_t shsize = f->is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr);
	uint64_t shoff, shentsize, shnum, shstrndx;
	int ret = -1;

	if (!inside(f, 0, ehsize))
		return truncated(f);
	if (read_at(f, eh, ehsize, 0) < 0)
		return -1;
	f->machine = (unsigned)EFIELD(f, eh, e_machine);
	f->entry = EFIELD(f, eh, e_entry);
	shoff = EFIELD(f, eh, e_shoff);
	shentsize = EFIELD(f, eh, e_shentsize);
	shnum = EFIELD(f, eh, e_shnum);
	shstrndx = EFIELD(f, eh, e_shstrndx);

	if (shoff == 0)
		return 0; /* sstrip'ed: no section table */
	if (shentsize < shsize)
		return tn_error_at(f->path, 0, 0, "bad ELF section header size %llu",
				   (unsigned long long)shentsize);
	if (shnum == 0 || shstrndx == SHN_XINDEX) {
		/* Extended numbering: the real count and name-table index are
		 * in section 0's sh_size and sh_link. */
		unsigned char sh0[sizeof(Elf64_Shdr)];

		if (!inside(f, shoff, shsize))
			return truncated(f);
		if (read_at(f, sh0, shsize, shoff) < 0)
			return -1;
		if (shnum == 0)
			shnum = SFIELD(f, sh0, sh_size);
		if (shstrndx == SHN_XINDEX)
			shstrndx = SFIELD(f, sh0, sh_link);
	}
	if (shnum > f->file_size / shentsize || !inside(f, shoff, shnum * shentsize))
		return truncated(f);

	table = xmalloc((size_t)(shnum * shentsize) + 1);
	if (read_at(f, table, (size_t)(shnum * shentsize), shoff) < 0)
		goto out;
	f->sections = xcalloc((size_t)shnum + 1, sizeof(*f->sections));
	for (uint64_t i = 0; i < shnum; i++)
		decode_section(&f->sections[i], f, table + i * shentsize);
	f->nsections = (size_t)shnum;
	f->shstrndx = (size_t)shstrndx;
	f->has_table = 1;
	ret = 0;
out:
	free(table);
	return ret;
}

int elf_open(struct elf_file *out, const char *path)
{
	unsigned char ident[EI_NIDENT];
	struct stat st;
	int ret = -1;

	*out = (struct elf_file)ELF_FILE_INIT;
	out->path = xstrdup(path);
	out->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (out->fd < 0) {
		tn_error_errno("cannot open '%s'", path);
		goto out;
	}
	if (fstat(out->fd, &st) < 0) {
		tn_error_errno("cannot stat '%s'", path);
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		tn_error_at(path, 0, 0, "not a regular file");
		goto out;
	}
	out->file_size = (uint64_t)st.st_size;
	if (!inside(out, 0, SELFMAG) || read_at(out, ident, SELFMAG, 0) < 0 ||
	    memcmp(ident, ELFMAG, SELFMAG) != 0) {
		tn_error_at(path, 0, 0, "not an ELF file");
		goto out;
	}
	if (!inside(out, 0, EI_NIDENT)) {
		truncated(out);
		goto out;
	}
	if (read_at(out, ident, EI_NIDENT, 0) < 0)
		goto out;
	if (ident[EI_CLASS] != ELFCLASS32 && ident[EI_CLASS] != ELFCLASS64) {
		tn_error_at(path, 0, 0, "unknown ELF class %u", ident[EI_CLASS]);
		goto out;
	}
	if (ident[EI_DATA] != ELFDATA2LSB && ident[EI_DATA] != ELFDATA2MSB) {
		tn_error_at(path, 0, 0, "unknown ELF byte order %u", ident[EI_DATA]);
		goto out;
	}
	out->is64 = ident[EI_CLASS] == ELFCLASS64;
	out->msb = ident[EI_DATA] == ELFDATA2MSB;
	ret = read_table(out);
out:
	if (ret < 0)
		elf_close(out);
	return ret;
}

int elf_section_in_file(const struct elf_file *f, const struct elf_section *s)
{
	return s->type == SHT_NOBITS || inside(f, s->offset, s->size);
}

int elf_read_section(char **out, size_t *len, const struct elf_file *f,
		     const struct elf_section *s)
{
	char *buf;

	*out = NULL;
	*len = 0;
	if (s->type == SHT_NOBITS) {
		*out = xstrdup("");
		return 0;
	}
	if (!elf_section_in_file(f, s) || s->size >= SIZE_MAX)
		return truncated(f);
	buf = xmalloc((size_t)s->size + 1);
	if (read_at(f, buf, (size_t)s->size, s->offset) < 0) {
		free(buf);
		return -1;
	}
	buf[s->size] = '\0';
	*out = buf;
	*len = (size_t)s->size;
	return 0;
}

int elf_find_section(const struct elf_section **out, const struct elf_file *f,
		     const char *name)
{
	char *names = NULL;
	size_t len;
	int ret = 0;

	*out = NULL;
	if (!f->has_table || f->shstrndx == SHN_UNDEF)
		return 0;
	if (f->shstrndx >= f->nsections)
		return tn_error_at(f->path, 0, 0, "bad ELF section name table index %zu",
				   f->shstrndx);
	if (elf_read_section(&names, &len, f, &f->sections[f->shstrndx]) < 0)
		return -1;
	/* names is NUL-terminated past its end, so a name running off the
	 * table ends there. */
	for (size_t i = 0; i < f->nsections; i++) {
		const struct elf_section *s = &f->sections[i];

		if (s->name < len && !strcmp(names + s->name, name)) {
			*out = s;
			ret = 1;
			break;
		}
	}
	free(names);
	return ret;
}

void elf_close(struct elf_file *f)
{
	if (f->fd >= 0)
		close(f->fd);
	free(f->path);
	free(f->sections);
	*f = (struct elf_file)ELF_FILE_INIT;
}
