/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for elf (the section table and section bytes of ELF files)
 * on what `build.applied: record` reads: the .GCC.command.line section of
 * hand-made files of both classes and byte orders (with extended
 * numbering and lying headers), and of real objects and programs from gcc:
 * x86-64, i386 (-m32), and 32-bit ARM of both byte orders when
 * arm-linux-gnueabihf-gcc is installed (skipped with a message if not).
 * Section-table reading for sizes is tested in test_size.c.
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

#include "analysis/applied.h"
#include "formats/elf.h"
#include "tuner/util.h"

#include "applied_expect.h"
#include "scratch_dir.h"

/* ---- ELF: hand-made files ---- */

static void put(unsigned char *b, size_t off, uint64_t v, size_t n, int msb)
{
	for (size_t i = 0; i < n; i++)
		b[off + (msb ? n - 1 - i : i)] = (unsigned char)(v >> (8 * i));
}

#define PUT(b, type, member, v, msb) \
	put((b), offsetof(type, member), (v), sizeof(((type *)0)->member), (msb))
#define SPUT(is64, sh, member, v, msb) \
	do { \
		if (is64) \
			PUT(sh, Elf64_Shdr, member, v, msb); \
		else \
			PUT(sh, Elf32_Shdr, member, v, msb); \
	} while (0)

/*
 * An ELF file with sections: null, .shstrtab, .text, .GCC.command.line
 * holding data. xindex: e_shstrndx is SHN_XINDEX and section 0's sh_link
 * holds the index (extended numbering).
 */
static unsigned char *craft(size_t *out_len, int is64, int msb, const char *data,
			    size_t dlen, int xindex)
{
	static const char names[] = "\0.shstrtab\0.text\0.GCC.command.line";
	size_t eh = is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
	size_t shs = is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr);
	size_t names_off = eh, text_off = names_off + sizeof(names);
	size_t data_off = text_off + 16, shoff = data_off + dlen;
	size_t len = shoff + 4 * shs;
	unsigned char *b = xcalloc(1, len), *sh;

	memcpy(b, ELFMAG, SELFMAG);
	b[EI_CLASS] = is64 ? ELFCLASS64 : ELFCLASS32;
	b[EI_DATA] = msb ? ELFDATA2MSB : ELFDATA2LSB;
	b[EI_VERSION] = EV_CURRENT;
	memcpy(b + names_off, names, sizeof(names));
	memcpy(b + data_off, data, dlen);
	if (is64) {
		PUT(b, Elf64_Ehdr, e_machine, EM_X86_64, msb);
		PUT(b, Elf64_Ehdr, e_shoff, shoff, msb);
		PUT(b, Elf64_Ehdr, e_shentsize, shs, msb);
		PUT(b, Elf64_Ehdr, e_shnum, 4, msb);
		PUT(b, Elf64_Ehdr, e_shstrndx, xindex ? SHN_XINDEX : 1, msb);
	} else {
		PUT(b, Elf32_Ehdr, e_machine, EM_ARM, msb);
		PUT(b, Elf32_Ehdr, e_shoff, shoff, msb);
		PUT(b, Elf32_Ehdr, e_shentsize, shs, msb);
		PUT(b, Elf32_Ehdr, e_shnum, 4, msb);
		PUT(b, Elf32_Ehdr, e_shstrndx, xindex ? SHN_XINDEX : 1, msb);
	}
	if (xindex)
		SPUT(is64, b + shoff, sh_link, 1, msb);
	sh = b + shoff + shs;
	SPUT(is64, sh, sh_name, 1, msb);
	SPUT(is64, sh, sh_type, SHT_STRTAB, msb);
	SPUT(is64, sh, sh_offset, names_off, msb);
	SPUT(is64, sh, sh_size, sizeof(names), msb);
	sh += shs;
	SPUT(is64, sh, sh_name, 11, msb);
	SPUT(is64, sh, sh_type, SHT_PROGBITS, msb);
	SPUT(is64, sh, sh_flags, SHF_ALLOC | SHF_EXECINSTR, msb);
	SPUT(is64, sh, sh_offset, text_off, msb);
	SPUT(is64, sh, sh_size, 16, msb);
	sh += shs;
	SPUT(is64, sh, sh_name, 17, msb);
	SPUT(is64, sh, sh_type, SHT_PROGBITS, msb);
	SPUT(is64, sh, sh_flags, SHF_MERGE | SHF_STRINGS, msb);
	SPUT(is64, sh, sh_offset, data_off, msb);
	SPUT(is64, sh, sh_size, dlen, msb);
	*out_len = len;
	return b;
}

/* The lines of path's .GCC.command.line; -1 if it has none. */
static long section_lines(char ***out, const char *path, struct elf_file *f)
{
	const struct elf_section *sec;
	char *data;
	size_t len, n;

	assert_int_equal(elf_open(f, path), 0);
	if (elf_find_section(&sec, f, ".GCC.command.line") != 1)
		return -1;
	assert_int_equal(elf_read_section(&data, &len, f, sec), 0);
	n = applied_section_lines(out, data, len);
	free(data);
	return (long)n;
}

static void test_elf__crafted_command_line(void **state)
{
	static const char data[] = "GNU C17 -O2 -fno-reorder-blocks\0GNU C17 -O2\0";

	for (int i = 0; i < 8; i++) {
		int is64 = i & 1, msb = (i >> 1) & 1, xindex = i >> 2;
		char *path = xasprintf("%s/crafted%d", (char *)*state, i);
		size_t len;
		unsigned char *b = craft(&len, is64, msb, data, sizeof(data) - 1, xindex);
		struct elf_file f;
		const struct elf_section *sec;
		char **lines, *data_read;
		size_t dlen;
		long n;

		assert_int_equal(write_file_atomic(path, b, len), 0);
		n = section_lines(&lines, path, &f);
		if (n != 2)
			fail_msg("class %d msb %d xindex %d: %ld lines", is64 ? 64 : 32, msb,
				 xindex, n);
		assert_int_equal(f.is64, is64);
		assert_int_equal(f.msb, msb);
		assert_int_equal(f.machine, is64 ? EM_X86_64 : EM_ARM);
		assert_int_equal(f.sections[0].link, xindex ? 1 : 0);
		assert_string_equal(lines[1], "GNU C17 -O2");
		assert_int_equal(elf_find_section(&sec, &f, ".nothere"), 0);
		assert_int_equal(elf_find_section(&sec, &f, ".text"), 1);
		assert_int_equal(sec->size, 16);
		applied_lines_free(lines, (size_t)n);
		elf_close(&f);

		/* A name table index past the table is a damaged file. */
		if (is64)
			PUT(b, Elf64_Ehdr, e_shstrndx, 9, msb);
		else
			PUT(b, Elf32_Ehdr, e_shstrndx, 9, msb);
		assert_int_equal(write_file_atomic(path, b, len), 0);
		assert_int_equal(elf_open(&f, path), 0);
		tn_error_clear();
		assert_int_equal(elf_find_section(&sec, &f, ".GCC.command.line"), -1);
		assert_non_null(strstr(tn_errmsg(), "name table"));
		elf_close(&f);

		/* The section claims bytes past the end of the file. */
		if (is64) {
			PUT(b, Elf64_Ehdr, e_shstrndx, 1, msb);
			PUT(b + len - sizeof(Elf64_Shdr), Elf64_Shdr, sh_size, len, msb);
		} else {
			PUT(b, Elf32_Ehdr, e_shstrndx, 1, msb);
			PUT(b + len - sizeof(Elf32_Shdr), Elf32_Shdr, sh_size, len, msb);
		}
		assert_int_equal(write_file_atomic(path, b, len), 0);
		assert_int_equal(elf_open(&f, path), 0);
		assert_int_equal(elf_find_section(&sec, &f, ".GCC.command.line"), 1);
		assert_false(elf_section_in_file(&f, sec));
		tn_error_clear();
		assert_int_equal(elf_read_section(&data_read, &dlen, &f, sec), -1);
		assert_non_null(strstr(tn_errmsg(), "truncated ELF file"));
		assert_null(data_read);
		elf_close(&f);
		free(b);
		free(path);
	}
}

/* ---- ELF: real objects ---- */

static int run(const char *cmd)
{
	return system(cmd);
}

static char *write_source(void **state, const char *name, const char *text)
{
	char *path = xasprintf("%s/%s", (char *)*state, name);

	assert_int_equal(write_file_atomic(path, text, strlen(text)), 0);
	return path;
}

/* Compiles src with cc and flags into dir/obj; the path, or NULL when the
 * compiler could not (status printed). */
static char *compile(void **state, const char *cc, const char *flags, const char *src,
		     const char *obj)
{
	char *out = xasprintf("%s/%s", (char *)*state, obj);
	char *cmd = xasprintf("%s %s -frecord-gcc-switches -c %s -o %s", cc, flags, src, out);
	int rc = run(cmd);

	free(cmd);
	if (rc != 0) {
		free(out);
		return NULL;
	}
	return out;
}

static const char source_a[] =
	"int work(int x)\n{\n\tint s = 0;\n\tfor (int i = 0; i < x; i++)\n"
	"\t\ts += (i & 3) ? i : -i;\n\treturn s;\n}\n";
static const char source_b[] = "int work(int x);\nint main(int c, char **v)\n"
			       "{\n\t(void)v;\n\treturn work(c) & 1;\n}\n";

/* obj was compiled with -fno-reorder-blocks: the section says so, in the
 * expected class, byte order and machine. */
static void check_object(const char *obj, int is64, int msb, unsigned machine)
{
	struct elf_file f;
	struct applied a;
	char **lines;
	long n = section_lines(&lines, obj, &f);

	if (n != 1)
		fail_msg("%s: %ld recorded lines, want 1", obj, n);
	assert_int_equal(f.is64, is64);
	assert_int_equal(f.msb, msb);
	assert_int_equal(f.machine, machine);
	applied_analyse(&a, "-O2 -fno-reorder-blocks -fno-tree-ch", lines, 1, 1);
	expect(&a, "-O2", 1, 0, NULL);
	expect(&a, "-fno-reorder-blocks", 1, 0, NULL);
	expect(&a, "-fno-tree-ch", 0, 0, NULL);
	applied_release(&a);
	applied_lines_free(lines, (size_t)n);
	elf_close(&f);
}

static void test_elf__gcc_x86_64(void **state)
{
	char *a = write_source(state, "a.c", source_a);
	char *b = write_source(state, "b.c", source_b);
	char *oa = compile(state, "cc", "-O2 -fno-reorder-blocks", a, "a.o");
	char *ob = compile(state, "cc", "-O2 -fno-reorder-blocks -freorder-blocks", b, "b.o");
	char *prog = xasprintf("%s/prog", (char *)*state);
	char *link = xasprintf("cc -o %s %s %s", prog, oa, ob);
	struct elf_file f;
	struct applied ap;
	char **lines;
	long n;

	assert_non_null(oa);
	assert_non_null(ob);
	check_object(oa, 1, 0, EM_X86_64);

	/* Linked: one line per distinct switch set; b's -fno-reorder-blocks
	 * was cancelled by the -freorder-blocks after it. */
	assert_int_equal(run(link), 0);
	n = section_lines(&lines, prog, &f);
	assert_int_equal(n, 2);
	applied_analyse(&ap, "-O2 -fno-reorder-blocks", lines, (size_t)n, 1);
	expect(&ap, "-O2", 2, 0, NULL);
	expect(&ap, "-fno-reorder-blocks", 1, 1, "-freorder-blocks");
	applied_release(&ap);
	applied_lines_free(lines, (size_t)n);
	elf_close(&f);

	/* A program built without the switch has no section. */
	free(link);
	link = xasprintf("cc -o %s %s %s", prog, a, b);
	assert_int_equal(run(link), 0);
	assert_int_equal(section_lines(&lines, prog, &f), -1);
	elf_close(&f);

	free(link);
	free(prog);
	free(a);
	free(b);
	free(oa);
	free(ob);
}

static void test_elf__gcc_i386(void **state)
{
	char *a = write_source(state, "a.c", source_a);
	char *o = compile(state, "cc", "-m32 -O2 -fno-reorder-blocks", a, "a32.o");

	if (!o) {
		free(a);
		skip(); /* "cc -m32" needs gcc's 32-bit support */
	}
	check_object(o, 0, 0, EM_386);
	free(a);
	free(o);
}

static void test_elf__gcc_arm32(void **state)
{
	char *a = write_source(state, "a.c", source_a);
	char *le, *be;

	if (run("command -v arm-linux-gnueabihf-gcc >/dev/null 2>&1") != 0) {
		print_message("skipped: arm-linux-gnueabihf-gcc is not installed "
			      "(apt-get install gcc-arm-linux-gnueabihf)\n");
		free(a);
		skip();
	}
	le = compile(state, "arm-linux-gnueabihf-gcc", "-O2 -fno-reorder-blocks", a, "arm.o");
	be = compile(state, "arm-linux-gnueabihf-gcc", "-mbig-endian -O2 -fno-reorder-blocks",
		     a, "armbe.o");
	assert_non_null(le);
	assert_non_null(be);
	check_object(le, 0, 0, EM_ARM);
	check_object(be, 0, 1, EM_ARM);
	free(a);
	free(le);
	free(be);
}

#define TD(name) cmocka_unit_test_setup_teardown(name, setup_dir, teardown_dir)

int main(void)
{
	const struct CMUnitTest tests[] = {
		TD(test_elf__crafted_command_line),
		TD(test_elf__gcc_x86_64),
		TD(test_elf__gcc_i386),
		TD(test_elf__gcc_arm32),
	};

	return cmocka_run_group_tests_name("elf", tests, NULL, NULL);
}
