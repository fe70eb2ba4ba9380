/* SPDX-License-Identifier: GPL-2.0-or-later */
/* elfsym: see tuner/formats/elfsym.h */
#include "elfsym.h"

#include <elf.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "elf.h"
#include "tuner/util.h"

/* An unsigned field of n bytes at p, in the file's byte order. */
static uint64_t field(const unsigned char *p, size_t n, int msb)
{
	uint64_t v = 0;

	for (size_t k = 0; k < n; k++)
		v = v << 8 | p[msb ? k : n - 1 - k];
	return v;
}

#define SYMFIELD(f, p, member) \
	((f)->is64 ? field((p) + offsetof(Elf64_Sym, member), \
			   sizeof(((Elf64_Sym *)0)->member), (f)->msb) \
		   : field((p) + offsetof(Elf32_Sym, member), \
			   sizeof(((Elf32_Sym *)0)->member), (f)->msb))

struct sym {
	uint64_t name, value, size;
	unsigned type, bind, shndx;
};

static void decode(struct sym *out, const struct elf_file *f, const unsigned char *p)
{
	out->name = SYMFIELD(f, p, st_name);
	out->value = SYMFIELD(f, p, st_value);
	out->size = SYMFIELD(f, p, st_size);
	out->type = (unsigned)(SYMFIELD(f, p, st_info) & 0xf);
	out->bind = (unsigned)(SYMFIELD(f, p, st_info) >> 4);
	out->shndx = (unsigned)SYMFIELD(f, p, st_shndx);
}

/* A defined function in an executable section. */
static int is_code(const struct elf_file *f, const struct sym *s)
{
	if (s->type != STT_FUNC && s->type != STT_GNU_IFUNC)
		return 0;
	if (s->shndx == SHN_UNDEF || s->shndx >= SHN_LORESERVE || s->shndx >= f->nsections)
		return 0;
	return (f->sections[s->shndx].flags & SHF_EXECINSTR) != 0;
}

static int by_address(const void *a, const void *b)
{
	const struct elf_func *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Reads the symbols of table (len bytes) with names from strtab. */
static int collect(struct elf_func **out, size_t *n, const struct elf_file *f,
		   const unsigned char *table, size_t len, const char *strtab, size_t strlen_)
{
	size_t entsize = f->is64 ? sizeof(Elf64_Sym) : sizeof(Elf32_Sym);
	struct elf_func *list = NULL;
	const char *file = NULL;
	size_t count = 0, alloc = 0;

	if (len % entsize)
		return tn_error_at(f->path, 0, 0, "damaged symbol table (size %zu)", len);
	for (size_t off = entsize; off < len; off += entsize) {
		struct sym s;
		struct elf_func *e;

		decode(&s, f, table + off);
		if (s.name >= strlen_) {
			elfsym_free(list, count);
			return tn_error_at(f->path, 0, 0, "damaged symbol table (name offset)");
		}
		if (s.type == STT_FILE) {
			file = strtab + s.name;
			continue;
		}
		if (!is_code(f, &s) || !strtab[s.name])
			continue;
		ALLOC_GROW(list, count + 1, alloc);
		e = &list[count++];
		e->name = xstrdup(strtab + s.name);
		/* A global has no file: the STT_FILE before it named the last
		 * file's locals. */
		e->file = s.bind == STB_LOCAL && file ? xstrdup(file) : NULL;
		e->addr = s.value;
		if (f->machine == EM_ARM)
			e->addr &= ~(uint64_t)1; /* Thumb bit */
		e->size = s.size;
	}
	if (count)
		qsort(list, count, sizeof(*list), by_address);
	*out = list;
	*n = count;
	return 0;
}

int elfsym_functions(struct elf_func **out, size_t *n, const char *path)
{
	struct elf_file f;
	const struct elf_section *symtab = NULL, *strsec = NULL;
	char *table = NULL, *strtab = NULL;
	size_t tlen = 0, slen = 0;
	int ret = -1;

	*out = NULL;
	*n = 0;
	if (elf_open(&f, path) < 0)
		return -1;
	for (size_t i = 0; i < f.nsections; i++)
		if (f.sections[i].type == SHT_SYMTAB) {
			symtab = &f.sections[i];
			break;
		}
	if (!symtab) {
		tn_error_at(path, 0, 0, "no symbol table (stripped?)");
		goto out;
	}
	if (elf_find_section(&strsec, &f, ".strtab") < 0)
		goto out;
	if (!strsec) {
		tn_error_at(path, 0, 0, "damaged symbol table (no .strtab)");
		goto out;
	}
	if (elf_read_section(&table, &tlen, &f, symtab) < 0 ||
	    elf_read_section(&strtab, &slen, &f, strsec) < 0)
		goto out;
	ret = collect(out, n, &f, (const unsigned char *)table, tlen, strtab, slen);
out:
	free(table);
	free(strtab);
	elf_close(&f);
	return ret;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

const struct elf_func *elfsym_find(const struct elf_func *syms, size_t n, const char *name,
				   const char *file_hint)
{
	const struct elf_func *first = NULL;

	for (size_t i = 0; i < n; i++) {
		if (strcmp(syms[i].name, name))
			continue;
		if (!file_hint || (syms[i].file &&
				   !strcmp(base_name(syms[i].file), base_name(file_hint))))
			return &syms[i];
		if (!first)
			first = &syms[i];
	}
	return first;
}

void elfsym_free(struct elf_func *syms, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(syms[i].name);
		free(syms[i].file);
	}
	free(syms);
}
