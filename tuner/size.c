/* size: see include/tuner/size.h */
#include "tuner/size.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

/*
 * The file is read as bytes and every field decoded in the file's own byte
 * order, so a big-endian MIPS or PowerPC kernel is measured the same on an
 * x86 host, and no struct is read from an unaligned place.
 */
struct elf_reader {
	const char *path;
	int fd;
	uint64_t file_size;
	int is64;
	int msb; /* ELFDATA2MSB */
};

static uint64_t get(const struct elf_reader *r, const unsigned char *p, size_t n)
{
	uint64_t v = 0;

	for (size_t i = 0; i < n; i++)
		v |= (uint64_t)p[r->msb ? i : n - 1 - i] << (8 * (n - 1 - i));
	return v;
}

/* A field of a header in b, by its offset and size in the <elf.h> struct. */
#define FIELD(r, b, type, member) \
	get((r), (b) + offsetof(type, member), sizeof(((type *)0)->member))
/* The same field from the 32- or 64-bit struct, as the file's class says. */
#define EFIELD(r, b, member) ((r)->is64 ? FIELD(r, b, Elf64_Ehdr, member) \
					: FIELD(r, b, Elf32_Ehdr, member))
#define SFIELD(r, b, member) ((r)->is64 ? FIELD(r, b, Elf64_Shdr, member) \
					: FIELD(r, b, Elf32_Shdr, member))

/* Reads len bytes at off, which the caller checked lie inside the file. */
static int read_at(const struct elf_reader *r, void *buf, size_t len, uint64_t off)
{
	unsigned char *p = buf;

	while (len) {
		ssize_t n = pread(r->fd, p, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return tn_error_errno("cannot read '%s'", r->path);
		if (n == 0)
			return tn_error_at(r->path, 0, 0, "truncated ELF file");
		p += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

/* 1 if [off, off+len) lies inside the file, without overflowing. */
static int inside(const struct elf_reader *r, uint64_t off, uint64_t len)
{
	return off <= r->file_size && len <= r->file_size - off;
}

static int sum_exec_sections(double *out, struct elf_reader *r)
{
	unsigned char eh[sizeof(Elf64_Ehdr)];
	unsigned char *table = NULL;
	size_t ehsize = r->is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
	size_t shsize = r->is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr);
	uint64_t shoff, shentsize, shnum;
	uint64_t total = 0;
	int ret = -1;

	if (!inside(r, 0, ehsize)) {
		tn_error_at(r->path, 0, 0, "truncated ELF file");
		goto out;
	}
	if (read_at(r, eh, ehsize, 0) < 0)
		goto out;
	shoff = EFIELD(r, eh, e_shoff);
	shentsize = EFIELD(r, eh, e_shentsize);
	shnum = EFIELD(r, eh, e_shnum);

	if (shoff == 0) {
		/* sstrip'ed: only program headers are left to tell the
		 * sizes, and they merge code with read-only data. */
		tn_error_at(r->path, 0, 0, "ELF file has no section headers");
		goto out;
	}
	if (shentsize < shsize) {
		tn_error_at(r->path, 0, 0, "bad ELF section header size %llu",
			    (unsigned long long)shentsize);
		goto out;
	}
	if (shnum == 0) {
		/* More than SHN_LORESERVE sections: the count is in the
		 * sh_size of section 0 (the ELF gABI's extended numbering). */
		unsigned char sh0[sizeof(Elf64_Shdr)];

		if (!inside(r, shoff, shsize)) {
			tn_error_at(r->path, 0, 0, "truncated ELF file");
			goto out;
		}
		if (read_at(r, sh0, shsize, shoff) < 0)
			goto out;
		shnum = SFIELD(r, sh0, sh_size);
	}
	if (shnum > r->file_size / shentsize || !inside(r, shoff, shnum * shentsize)) {
		tn_error_at(r->path, 0, 0, "truncated ELF file");
		goto out;
	}

	table = xmalloc((size_t)(shnum * shentsize));
	if (read_at(r, table, (size_t)(shnum * shentsize), shoff) < 0)
		goto out;
	for (uint64_t i = 0; i < shnum; i++) {
		const unsigned char *sh = table + i * shentsize;
		uint64_t flags = SFIELD(r, sh, sh_flags);
		uint64_t size = SFIELD(r, sh, sh_size);
		uint64_t want = SHF_ALLOC | SHF_EXECINSTR;

		if (SFIELD(r, sh, sh_type) != SHT_PROGBITS || (flags & want) != want)
			continue;
		/* The bytes are in the file: a size past its end is a lie. */
		if (!inside(r, SFIELD(r, sh, sh_offset), size)) {
			tn_error_at(r->path, 0, 0, "truncated ELF file");
			goto out;
		}
		total += size;
	}
	*out = (double)total;
	ret = 0;
out:
	free(table);
	return ret;
}

int size_text(double *out, const char *path)
{
	struct elf_reader r = { path, -1, 0, 0, 0 };
	unsigned char ident[EI_NIDENT];
	struct stat st;
	int ret = -1;

	r.fd = open(path, O_RDONLY | O_CLOEXEC);
	if (r.fd < 0)
		return tn_error_errno("cannot open '%s'", path);
	if (fstat(r.fd, &st) < 0) {
		tn_error_errno("cannot stat '%s'", path);
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		tn_error_at(path, 0, 0, "not a regular file");
		goto out;
	}
	r.file_size = (uint64_t)st.st_size;
	if (!inside(&r, 0, SELFMAG)) {
		tn_error_at(path, 0, 0, "not an ELF file");
		goto out;
	}
	if (read_at(&r, ident, SELFMAG, 0) < 0)
		goto out;
	if (memcmp(ident, ELFMAG, SELFMAG) != 0) {
		tn_error_at(path, 0, 0, "not an ELF file");
		goto out;
	}
	if (!inside(&r, 0, EI_NIDENT)) {
		tn_error_at(path, 0, 0, "truncated ELF file");
		goto out;
	}
	if (read_at(&r, ident, EI_NIDENT, 0) < 0)
		goto out;
	if (ident[EI_CLASS] != ELFCLASS32 && ident[EI_CLASS] != ELFCLASS64) {
		tn_error_at(path, 0, 0, "unknown ELF class %u", ident[EI_CLASS]);
		goto out;
	}
	if (ident[EI_DATA] != ELFDATA2LSB && ident[EI_DATA] != ELFDATA2MSB) {
		tn_error_at(path, 0, 0, "unknown ELF byte order %u", ident[EI_DATA]);
		goto out;
	}
	r.is64 = ident[EI_CLASS] == ELFCLASS64;
	r.msb = ident[EI_DATA] == ELFDATA2MSB;
	ret = sum_exec_sections(out, &r);
out:
	close(r.fd);
	return ret;
}
