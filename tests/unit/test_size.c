/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for size: real binaries from `cc`, cross-checked against
 * binutils' readelf, and hand-made ELF files of the other class and byte
 * order, truncated and corrupted.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build/size.h"
#include "tuner/util.h"
#include "scratch_dir.h"

static const char program[] =
	"#include <stdio.h>\n"
	"__attribute__((noinline, section(\".text.hotpath\")))\n"
	"static int hot(int x) { return x * 7 + 3; }\n"
	"int table[64] = { 1, 2, 3 };\n"
	"int main(int argc, char **argv)\n"
	"{\n"
	"\tint s = 0;\n"
	"\tfor (int i = 0; i < argc * 10; i++)\n"
	"\t\ts += hot(i) ^ table[i & 63];\n"
	"\tprintf(\"%d %s\\n\", s, argv[0]);\n"
	"\treturn 0;\n"
	"}\n";

static char *in_dir(void **state, const char *name)
{
	return xasprintf("%s/%s", (const char *)*state, name);
}

static void run(const char *cmd)
{
	int rc = system(cmd);

	if (rc != 0)
		fail_msg("'%s' failed (status %d)", cmd, rc);
}

/* Builds `program` with extra cc flags into dir/name; returns the path. */
static char *compile(void **state, const char *name, const char *flags)
{
	char *src = in_dir(state, "prog.c");
	char *bin = in_dir(state, name);
	char *cmd = xasprintf("cc %s -o %s %s", flags, bin, src);

	assert_int_equal(write_file_atomic(src, program, strlen(program)), 0);
	run(cmd);
	free(cmd);
	free(src);
	return bin;
}

/*
 * The sum of PROGBITS sections with both A and X flags as `readelf -SW`
 * prints them, e.g.
 *   [16] .text  PROGBITS  0000000000001060 001060 000183 00  AX  0   0 16
 */
static double readelf_exec_size(int *out_count, void **state, const char *path)
{
	char *list = in_dir(state, "readelf.txt");
	char *cmd = xasprintf("LC_ALL=C readelf -SW %s > %s", path, list);
	char *text, *line, *save = NULL;
	double total = 0;
	int sections = 0;

	run(cmd);
	assert_int_equal(read_file(&text, NULL, list), 0);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char type[64], flags[64];
		unsigned long long addr, off, size, es;
		const char *p = strchr(line, ']');

		if (!p || !strstr(line, "["))
			continue;
		/* name type addr off size es flags */
		if (sscanf(p + 1, "%*s %63s %llx %llx %llx %llx %63s",
			   type, &addr, &off, &size, &es, flags) != 6)
			continue;
		sections++;
		if (!strcmp(type, "PROGBITS") && strchr(flags, 'A') &&
		    strchr(flags, 'X') && size > 0) {
			total += (double)size;
			(*out_count)++;
		}
	}
	assert_true(sections > 0);
	free(text);
	free(cmd);
	free(list);
	return total;
}

/* Checks size_text against readelf; returns readelf's count of non-empty
 * executable sections. */
static int check_against_readelf(void **state, const char *path)
{
	int count = 0;
	double got = -1, file = -1, want = readelf_exec_size(&count, state, path);

	assert_int_equal(size_text(&got, path), 0);
	assert_int_equal(size_file(&file, path), 0);
	if (got != want)
		fail_msg("%s: size_text %.0f, readelf says %.0f", path, got, want);
	assert_true(got > 0);
	assert_true(got < file);
	return count;
}

static void test_size__executable_matches_readelf(void **state)
{
	char *bin = compile(state, "prog", "-O2");

	/* .init, .plt, .text, .fini at least */
	assert_true(check_against_readelf(state, bin) >= 3);
	free(bin);
}

static void test_size__object_file_sections(void **state)
{
	/* One .text.<fn> per function plus .text.hotpath: several
	 * executable sections, all counted. */
	char *obj = compile(state, "prog.o", "-c -O0 -ffunction-sections");

	/* .text.main and .text.hotpath */
	assert_true(check_against_readelf(state, obj) >= 2);
	free(obj);
}

static void test_size__optimisation_changes_size(void **state)
{
	/* The objective the tuner minimizes responds to flags. */
	char *small = compile(state, "small", "-Os");
	char *big = compile(state, "big", "-O0 -fno-inline");
	double a, b;

	assert_int_equal(size_text(&a, small), 0);
	assert_int_equal(size_text(&b, big), 0);
	assert_true(a > 0 && b > 0);
	if (!(a < b))
		fail_msg("-Os gave %.0f bytes of code, -O0 %.0f", a, b);
	free(small);
	free(big);
}

/*
 * A hand-made ELF file: header, then section data, then the section table.
 * Written field by field in the chosen class and byte order, so the reader's
 * decoding is checked on layouts this host's compiler never produces.
 */
struct sec {
	uint32_t type;
	uint64_t flags;
	uint64_t size;
};

static void put(unsigned char *b, size_t off, uint64_t v, size_t n, int msb)
{
	for (size_t i = 0; i < n; i++)
		b[off + (msb ? n - 1 - i : i)] = (unsigned char)(v >> (8 * i));
}

#define PUT(b, type, member, v, msb) \
	put((b), offsetof(type, member), (v), sizeof(((type *)0)->member), (msb))

static unsigned char *craft(size_t *out_len, int is64, int msb,
			    const struct sec *secs, size_t nsecs, int extended)
{
	size_t eh = is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
	size_t shs = is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr);
	size_t data = 0, len, shoff, off;
	unsigned char *b;

	for (size_t i = 0; i < nsecs; i++)
		if (secs[i].type != SHT_NOBITS)
			data += (size_t)secs[i].size;
	shoff = eh + data;
	len = shoff + (nsecs + 1) * shs;
	b = xcalloc(1, len);

	memcpy(b, ELFMAG, SELFMAG);
	b[EI_CLASS] = is64 ? ELFCLASS64 : ELFCLASS32;
	b[EI_DATA] = msb ? ELFDATA2MSB : ELFDATA2LSB;
	b[EI_VERSION] = EV_CURRENT;
	if (is64) {
		PUT(b, Elf64_Ehdr, e_type, ET_EXEC, msb);
		PUT(b, Elf64_Ehdr, e_machine, EM_PPC64, msb);
		PUT(b, Elf64_Ehdr, e_shoff, shoff, msb);
		PUT(b, Elf64_Ehdr, e_ehsize, eh, msb);
		PUT(b, Elf64_Ehdr, e_shentsize, shs, msb);
		PUT(b, Elf64_Ehdr, e_shnum, extended ? 0 : nsecs + 1, msb);
	} else {
		PUT(b, Elf32_Ehdr, e_type, ET_EXEC, msb);
		PUT(b, Elf32_Ehdr, e_machine, EM_MIPS, msb);
		PUT(b, Elf32_Ehdr, e_shoff, shoff, msb);
		PUT(b, Elf32_Ehdr, e_ehsize, eh, msb);
		PUT(b, Elf32_Ehdr, e_shentsize, shs, msb);
		PUT(b, Elf32_Ehdr, e_shnum, extended ? 0 : nsecs + 1, msb);
	}
	/* Section 0 is the null section; with extended numbering it holds
	 * the section count in sh_size. */
	if (extended) {
		if (is64)
			PUT(b + shoff, Elf64_Shdr, sh_size, nsecs + 1, msb);
		else
			PUT(b + shoff, Elf32_Shdr, sh_size, nsecs + 1, msb);
	}
	off = eh;
	for (size_t i = 0; i < nsecs; i++) {
		unsigned char *sh = b + shoff + (i + 1) * shs;

		memset(b + off, 0x90, secs[i].type == SHT_NOBITS ? 0 : (size_t)secs[i].size);
		if (is64) {
			PUT(sh, Elf64_Shdr, sh_type, secs[i].type, msb);
			PUT(sh, Elf64_Shdr, sh_flags, secs[i].flags, msb);
			PUT(sh, Elf64_Shdr, sh_offset, off, msb);
			PUT(sh, Elf64_Shdr, sh_size, secs[i].size, msb);
			PUT(sh, Elf64_Shdr, sh_addralign, 1, msb);
		} else {
			PUT(sh, Elf32_Shdr, sh_type, secs[i].type, msb);
			PUT(sh, Elf32_Shdr, sh_flags, secs[i].flags, msb);
			PUT(sh, Elf32_Shdr, sh_offset, off, msb);
			PUT(sh, Elf32_Shdr, sh_size, secs[i].size, msb);
			PUT(sh, Elf32_Shdr, sh_addralign, 1, msb);
		}
		if (secs[i].type != SHT_NOBITS)
			off += (size_t)secs[i].size;
	}
	*out_len = len;
	return b;
}

#define AX (SHF_ALLOC | SHF_EXECINSTR)
static const struct sec sample_secs[] = {
	{ SHT_PROGBITS, AX, 0x120 },               /* .text: counted */
	{ SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, 0x10 }, /* .data */
	{ SHT_PROGBITS, AX, 0x8 },                 /* .init: counted */
	{ SHT_NOBITS, SHF_ALLOC | SHF_WRITE, 0x1000 }, /* .bss */
	{ SHT_NOBITS, AX, 0x40 },                  /* no bytes: not counted */
	{ SHT_PROGBITS, SHF_EXECINSTR, 0x30 },     /* not loaded */
	{ SHT_PROGBITS, AX | SHF_WRITE, 0x4 },     /* writable code: counted */
};
#define SAMPLE_TEXT (0x120 + 0x8 + 0x4)

static char *write_crafted(void **state, const char *name, int is64, int msb,
			   int extended)
{
	char *path = in_dir(state, name);
	size_t len;
	unsigned char *b = craft(&len, is64, msb, sample_secs,
				 ARRAY_SIZE(sample_secs), extended);

	assert_int_equal(write_file_atomic(path, b, len), 0);
	free(b);
	return path;
}

static void test_size__crafted_classes_and_orders(void **state)
{
	static const char *const names[] = { "le32", "be32", "le64", "be64" };

	for (int i = 0; i < 4; i++) {
		char *path = write_crafted(state, names[i], i >= 2, i % 2, 0);
		double got = -1;

		assert_int_equal(size_text(&got, path), 0);
		if (got != SAMPLE_TEXT)
			fail_msg("%s: got %.0f, want %d", names[i], got, SAMPLE_TEXT);
		/* binutils reads our hand-made file the same way. */
		assert_int_equal(check_against_readelf(state, path), 3);
		free(path);
	}
}

static void test_size__extended_numbering(void **state)
{
	char *path = write_crafted(state, "ext", 0, 1, 1);
	double got = -1;

	assert_int_equal(size_text(&got, path), 0);
	assert_true(got == SAMPLE_TEXT);
	free(path);
}

static void expect_failure(const char *path, const char *msg)
{
	double got = -1;

	tn_error_clear();
	assert_int_equal(size_text(&got, path), -1);
	if (!strstr(tn_errmsg(), msg))
		fail_msg("%s: message '%s', want '%s'", path, tn_errmsg(), msg);
	assert_non_null(strstr(tn_errmsg(), path));
	assert_null(strchr(tn_errmsg(), '\n'));
	assert_true(got == -1); /* untouched */
}

static void test_size__not_elf(void **state)
{
	char *text = in_dir(state, "script.sh");
	char *empty = in_dir(state, "empty");
	char *tiny = in_dir(state, "tiny");
	char *missing = in_dir(state, "missing");

	assert_int_equal(write_file_atomic(text, "#!/bin/sh\necho hi\n", 18), 0);
	assert_int_equal(write_file_atomic(empty, "", 0), 0);
	assert_int_equal(write_file_atomic(tiny, "\177EL", 3), 0);
	expect_failure(text, "not an ELF file");
	expect_failure(empty, "not an ELF file");
	expect_failure(tiny, "not an ELF file");
	expect_failure(missing, "cannot open");
	expect_failure(*state, "not a regular file");
	free(text);
	free(empty);
	free(tiny);
	free(missing);
}

static void test_size__truncated(void **state)
{
	char *bin = compile(state, "prog", "-O2");
	char *cut = in_dir(state, "cut");
	char *data;
	size_t len, full;
	unsigned char *b;
	double got;

	/* The section table is at the end of a linked program. */
	assert_int_equal(read_file(&data, &len, bin), 0);
	assert_int_equal(write_file_atomic(cut, data, len - 1), 0);
	expect_failure(cut, "truncated ELF file");
	assert_int_equal(write_file_atomic(cut, data, 20), 0);
	expect_failure(cut, "truncated ELF file");
	free(data);

	/* Every proper prefix of a crafted file, down to the magic. */
	b = craft(&full, 0, 1, sample_secs, ARRAY_SIZE(sample_secs), 0);
	for (len = SELFMAG; len < full; len++) {
		assert_int_equal(write_file_atomic(cut, b, len), 0);
		tn_error_clear();
		assert_int_equal(size_text(&got, cut), -1);
		assert_non_null(strstr(tn_errmsg(), "truncated ELF file"));
	}
	free(b);
	free(cut);
	free(bin);
}

static void test_size__lying_headers(void **state)
{
	char *path = in_dir(state, "bad");
	size_t len;
	unsigned char *b = craft(&len, 1, 0, sample_secs, ARRAY_SIZE(sample_secs), 0);
	unsigned char *c = xmalloc(len);
	size_t text_sh = sizeof(Elf64_Ehdr) + 0x120 + 0x10 + 0x8 + 0x30 + 0x4 +
			 sizeof(Elf64_Shdr);

	/* .text claims more bytes than the file has. */
	memcpy(c, b, len);
	PUT(c + text_sh, Elf64_Shdr, sh_size, UINT64_MAX - 8, 0);
	assert_int_equal(write_file_atomic(path, c, len), 0);
	expect_failure(path, "truncated ELF file");

	/* Offset near 2^64: off + size wraps around. */
	memcpy(c, b, len);
	PUT(c + text_sh, Elf64_Shdr, sh_offset, UINT64_MAX - 4, 0);
	assert_int_equal(write_file_atomic(path, c, len), 0);
	expect_failure(path, "truncated ELF file");

	/* Section table past the end; and 65535 entries of 65535 bytes. */
	memcpy(c, b, len);
	PUT(c, Elf64_Ehdr, e_shoff, UINT64_MAX - 100, 0);
	assert_int_equal(write_file_atomic(path, c, len), 0);
	expect_failure(path, "truncated ELF file");
	memcpy(c, b, len);
	PUT(c, Elf64_Ehdr, e_shnum, 0xffff, 0);
	PUT(c, Elf64_Ehdr, e_shentsize, 0xffff, 0);
	assert_int_equal(write_file_atomic(path, c, len), 0);
	expect_failure(path, "truncated ELF file");

	/* Entries too small to be section headers. */
	memcpy(c, b, len);
	PUT(c, Elf64_Ehdr, e_shentsize, 8, 0);
	assert_int_equal(write_file_atomic(path, c, len), 0);
	expect_failure(path, "section header size");

	/* No section table at all. */
	memcpy(c, b, len);
	PUT(c, Elf64_Ehdr, e_shoff, 0, 0);
	assert_int_equal(write_file_atomic(path, c, len), 0);
	expect_failure(path, "no section headers");

	/* Unknown class and byte order. */
	memcpy(c, b, len);
	c[EI_CLASS] = 7;
	assert_int_equal(write_file_atomic(path, c, len), 0);
	expect_failure(path, "ELF class");
	memcpy(c, b, len);
	c[EI_DATA] = 0;
	assert_int_equal(write_file_atomic(path, c, len), 0);
	expect_failure(path, "byte order");

	free(b);
	free(c);
	free(path);
}

static void test_size__random_corruption(void **state)
{
	/* Flipped bytes anywhere: a size or a message, never a crash (run
	 * under ASan) and never a size larger than the file. */
	char *path = in_dir(state, "fuzz");
	size_t len;
	unsigned char *b = craft(&len, 0, 1, sample_secs, ARRAY_SIZE(sample_secs), 0);
	unsigned char *c = xmalloc(len);
	struct rng r;

	rng_seed(&r, 5);
	for (int round = 0; round < 400; round++) {
		double got = -1;

		memcpy(c, b, len);
		for (int k = 0; k < 1 + (int)rng_below(&r, 6); k++)
			c[rng_below(&r, len)] = (unsigned char)rng_next(&r);
		assert_int_equal(write_file_atomic(path, c, len), 0);
		tn_error_clear();
		if (size_text(&got, path) == 0)
			assert_true(got >= 0 && got <= (double)len);
		else
			assert_true(tn_errmsg()[0] != '\0');
	}
	free(b);
	free(c);
	free(path);
}

static void test_size__file(void **state)
{
	char *path = in_dir(state, "blob");
	char *missing = in_dir(state, "missing");
	char buf[12345];
	double got = -1;

	memset(buf, 'x', sizeof(buf));
	assert_int_equal(write_file_atomic(path, buf, sizeof(buf)), 0);
	assert_int_equal(size_file(&got, path), 0);
	assert_true(got == 12345);
	assert_int_equal(size_file(&got, missing), -1);
	assert_non_null(strstr(tn_errmsg(), "missing"));
	assert_int_equal(size_file(&got, *state), -1);
	free(path);
	free(missing);
}

#define T(name) cmocka_unit_test_setup_teardown(name, setup_dir, teardown_dir)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_size__executable_matches_readelf),
		T(test_size__object_file_sections),
		T(test_size__optimisation_changes_size),
		T(test_size__crafted_classes_and_orders),
		T(test_size__extended_numbering),
		T(test_size__not_elf),
		T(test_size__truncated),
		T(test_size__lying_headers),
		T(test_size__random_corruption),
		T(test_size__file),
	};

	return cmocka_run_group_tests_name("size", tests, NULL, NULL);
}
