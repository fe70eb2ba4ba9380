/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for elfsym: a real program from `cc` with two static
 * functions of one name, cross-checked against binutils' nm; this test's
 * own binary against the addresses the loader gave its functions; a
 * hand-made big-endian ELF32 (Thumb bit, FILE symbols, a data symbol); and
 * files that are not, or no longer, usable.
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
#include <unistd.h>

#include "formats/elfsym.h"
#include "tuner/util.h"

/* One scratch directory for the whole group. */
static char *scratch;

static int group_setup(void **state)
{
	char tmpl[] = "/tmp/tuner-test-elfsym-XXXXXX";

	(void)state;
	if (!mkdtemp(tmpl))
		return -1;
	scratch = xstrdup(tmpl);
	return 0;
}

static int group_teardown(void **state)
{
	int ret = remove_tree(scratch);

	(void)state;
	free(scratch);
	return ret;
}

static char *in_dir(void **state, const char *name)
{
	(void)state;
	return xasprintf("%s/%s", scratch, name);
}

/* Runs a shell command that must succeed. */
static void sh(const char *cmd)
{
	int status = system(cmd);

	if (status)
		fail_msg("'%s' exited with %d", cmd, status);
}

static void write_text(void **state, const char *name, const char *text)
{
	char *path = in_dir(state, name);

	assert_int_equal(write_file_atomic(path, text, strlen(text)), 0);
	free(path);
}

/* a.c and b.c each have a static helper(); builds dir/prog (extra flags). */
static char *build(void **state, const char *flags)
{
	char *dir = scratch;
	char *bin = in_dir(state, "prog");
	char *cmd;

	write_text(state, "a.c", "__attribute__((noinline)) static int helper(int x)\n"
				 "{ return x * 3 + 1; }\n"
				 "int fa(int x) { return helper(x) + 1; }\n");
	write_text(state, "b.c", "__attribute__((noinline)) static int helper(int x)\n"
				 "{ return x * 5 + 2 + (x >> 3) * 7; }\n"
				 "int fb(int x) { return helper(x) - 1; }\n");
	write_text(state, "main.c", "int fa(int); int fb(int);\n"
				    "int data_table[16] = { 1 };\n"
				    "int main(int c, char **v) { (void)v; return fa(c) + fb(c) + "
				    "data_table[c & 15]; }\n");
	cmd = xasprintf("cd %s && cc -O1 %s -o prog a.c b.c main.c", dir, flags);
	sh(cmd);
	free(cmd);
	return bin;
}

/* nm's address and size of name (the n-th of that name); 0 if absent. */
static int nm_lookup(uint64_t *addr, uint64_t *size, void **state, const char *bin,
		     const char *name, int nth)
{
	char *list = in_dir(state, "nm.txt");
	char *cmd = xasprintf("LC_ALL=C nm -S --defined-only %s > %s", bin, list);
	char *text, *line, *save = NULL;
	int found = 0;

	sh(cmd);
	assert_int_equal(read_file(&text, NULL, list), 0);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		unsigned long long a, s;
		char type, sym[256];

		/* nm -S leaves out the size of a symbol that has none. */
		if (sscanf(line, "%llx %llx %c %255s", &a, &s, &type, sym) != 4) {
			s = 0;
			if (sscanf(line, "%llx %c %255s", &a, &type, sym) != 3)
				continue;
		}
		if (!strcmp(sym, name) && nth-- == 0) {
			*addr = a;
			*size = s;
			found = 1;
			break;
		}
	}
	free(text);
	free(cmd);
	free(list);
	return found;
}

static void test_elfsym__matches_nm(void **state)
{
	char *bin = build(state, "");
	struct elf_func *syms;
	size_t n;
	const struct elf_func *ha, *hb, *main_fn;
	uint64_t addr[2], size[2];

	assert_int_equal(elfsym_functions(&syms, &n, bin), 0);
	assert_true(n >= 5);
	for (size_t i = 1; i < n; i++)
		assert_true(syms[i - 1].addr <= syms[i].addr); /* by address */
	/* Every symbol is nm's, at nm's address with nm's size. */
	for (size_t i = 0; i < n; i++) {
		uint64_t a = 0, s = 0;
		int k = 0, ok = 0;

		while (!ok && nm_lookup(&a, &s, state, bin, syms[i].name, k++))
			ok = a == syms[i].addr && s == syms[i].size;
		if (!ok)
			fail_msg("%s at %#llx (size %llu) is not nm's", syms[i].name,
				 (unsigned long long)syms[i].addr, (unsigned long long)syms[i].size);
	}
	/* Data is not a function. */
	for (size_t i = 0; i < n; i++)
		assert_string_not_equal(syms[i].name, "data_table");
	/* The two helpers, told apart by their files. */
	assert_true(nm_lookup(&addr[0], &size[0], state, bin, "helper", 0));
	assert_true(nm_lookup(&addr[1], &size[1], state, bin, "helper", 1));
	ha = elfsym_find(syms, n, "helper", "/some/dir/a.c");
	hb = elfsym_find(syms, n, "helper", "b.c");
	assert_non_null(ha);
	assert_non_null(hb);
	assert_true(ha != hb);
	assert_string_equal(ha->file, "a.c");
	assert_string_equal(hb->file, "b.c");
	assert_true(hb->size > ha->size); /* b's helper does more */
	assert_true((ha->addr == addr[0] && hb->addr == addr[1]) ||
		    (ha->addr == addr[1] && hb->addr == addr[0]));
	/* Globals have no file; no hint gives the first. */
	main_fn = elfsym_find(syms, n, "main", "main.c");
	assert_non_null(main_fn);
	assert_null(main_fn->file);
	assert_non_null(elfsym_find(syms, n, "helper", NULL));
	assert_null(elfsym_find(syms, n, "nosuch", NULL));
	elfsym_free(syms, n);
	free(bin);
}

__attribute__((noinline)) int elfsym_probe_one(int x);
__attribute__((noinline)) int elfsym_probe_two(int x);
__attribute__((noinline)) int elfsym_probe_one(int x) { return x * 11 + 1; }
__attribute__((noinline)) int elfsym_probe_two(int x) { return x * 13 - elfsym_probe_one(x); }

static void test_elfsym__own_binary(void **state)
{
	struct elf_func *syms;
	size_t n;
	const struct elf_func *one, *two;

	(void)state;
	assert_int_equal(elfsym_functions(&syms, &n, "/proc/self/exe"), 0);
	one = elfsym_find(syms, n, "elfsym_probe_one", NULL);
	two = elfsym_find(syms, n, "elfsym_probe_two", NULL);
	assert_non_null(one);
	assert_non_null(two);
	/* The loader moves the program as a whole. */
	assert_true((intptr_t)two->addr - (intptr_t)one->addr ==
		    (intptr_t)elfsym_probe_two - (intptr_t)elfsym_probe_one);
	assert_true(one->size > 0 && one->size < 64);
	elfsym_free(syms, n);
}

/* Big-endian ELF32 for EM_ARM: .text, .data, .symtab, .strtab, .shstrtab. */
static void put(unsigned char *b, size_t off, uint64_t v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		b[off + n - 1 - i] = (unsigned char)(v >> (8 * i));
}

#define PUT(b, type, member, v) \
	put((b), offsetof(type, member), (v), sizeof(((type *)0)->member))

static void craft_sym(unsigned char *p, uint32_t name, uint32_t value, uint32_t size,
		      unsigned bind, unsigned type, uint16_t shndx)
{
	PUT(p, Elf32_Sym, st_name, name);
	PUT(p, Elf32_Sym, st_value, value);
	PUT(p, Elf32_Sym, st_size, size);
	PUT(p, Elf32_Sym, st_info, ELF32_ST_INFO(bind, type));
	PUT(p, Elf32_Sym, st_shndx, shndx);
}

static void craft_shdr(unsigned char *p, uint32_t name, uint32_t type, uint32_t flags,
		       uint32_t off, uint32_t size)
{
	PUT(p, Elf32_Shdr, sh_name, name);
	PUT(p, Elf32_Shdr, sh_type, type);
	PUT(p, Elf32_Shdr, sh_flags, flags);
	PUT(p, Elf32_Shdr, sh_offset, off);
	PUT(p, Elf32_Shdr, sh_size, size);
}

static void test_elfsym__big_endian_arm(void **state)
{
	static const char strtab[] = "\0mod.c\0v7_dma_inv_range\0thumb_fn\0table\0gfn";
	static const char shstr[] = "\0.text\0.data\0.symtab\0.strtab\0.shstrtab";
	enum { NSYM = 6, NSEC = 6 };
	size_t eh = sizeof(Elf32_Ehdr), symoff = eh + 64, stroff = symoff + NSYM * 16;
	size_t shstroff = stroff + sizeof(strtab), shoff = (shstroff + sizeof(shstr) + 3) & ~3u;
	size_t len = shoff + NSEC * sizeof(Elf32_Shdr);
	unsigned char *b = xcalloc(1, len);
	char *path = in_dir(state, "be32.elf");
	struct elf_func *syms;
	size_t n;

	memcpy(b, ELFMAG, SELFMAG);
	b[EI_CLASS] = ELFCLASS32;
	b[EI_DATA] = ELFDATA2MSB;
	b[EI_VERSION] = EV_CURRENT;
	PUT(b, Elf32_Ehdr, e_type, ET_EXEC);
	PUT(b, Elf32_Ehdr, e_machine, EM_ARM);
	PUT(b, Elf32_Ehdr, e_shoff, shoff);
	PUT(b, Elf32_Ehdr, e_shentsize, sizeof(Elf32_Shdr));
	PUT(b, Elf32_Ehdr, e_shnum, NSEC);
	PUT(b, Elf32_Ehdr, e_shstrndx, 5);
	/* symbols: null, FILE mod.c, local FUNC, local Thumb FUNC, OBJECT, global FUNC */
	craft_sym(b + symoff + 16, 1, 0, 0, STB_LOCAL, STT_FILE, SHN_ABS);
	craft_sym(b + symoff + 32, 7, 0xc010ea94, 0x4c, STB_LOCAL, STT_FUNC, 1);
	craft_sym(b + symoff + 48, 24, 0xc0100021, 0x10, STB_LOCAL, STT_FUNC, 1);
	craft_sym(b + symoff + 64, 33, 0xc0200000, 0x40, STB_LOCAL, STT_OBJECT, 2);
	craft_sym(b + symoff + 80, 39, 0xc0100000, 0x20, STB_GLOBAL, STT_FUNC, 1);
	memcpy(b + stroff, strtab, sizeof(strtab));
	memcpy(b + shstroff, shstr, sizeof(shstr));
	craft_shdr(b + shoff + 1 * 40, 1, SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, eh, 32);
	craft_shdr(b + shoff + 2 * 40, 7, SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, eh + 32, 32);
	craft_shdr(b + shoff + 3 * 40, 13, SHT_SYMTAB, 0, symoff, NSYM * 16);
	craft_shdr(b + shoff + 4 * 40, 21, SHT_STRTAB, 0, stroff, sizeof(strtab));
	craft_shdr(b + shoff + 5 * 40, 29, SHT_STRTAB, 0, shstroff, sizeof(shstr));
	assert_int_equal(write_file_atomic(path, b, len), 0);

	assert_int_equal(elfsym_functions(&syms, &n, path), 0);
	assert_int_equal(n, 3);
	assert_string_equal(syms[0].name, "gfn");
	assert_true(syms[0].addr == 0xc0100000 && syms[0].size == 0x20);
	assert_null(syms[0].file);
	assert_string_equal(syms[1].name, "thumb_fn");
	assert_true(syms[1].addr == 0xc0100020); /* Thumb bit cleared */
	assert_string_equal(syms[1].file, "mod.c");
	assert_string_equal(syms[2].name, "v7_dma_inv_range");
	assert_true(syms[2].addr == 0xc010ea94 && syms[2].size == 0x4c);
	elfsym_free(syms, n);

	/* A symbol name past the string table: damaged. */
	PUT(b + symoff + 32, Elf32_Sym, st_name, 4000);
	assert_int_equal(write_file_atomic(path, b, len), 0);
	assert_int_equal(elfsym_functions(&syms, &n, path), -1);
	assert_non_null(strstr(tn_errmsg(), "damaged symbol table"));
	/* No symbol table at all. */
	PUT(b + shoff + 3 * 40, Elf32_Shdr, sh_type, SHT_PROGBITS);
	assert_int_equal(write_file_atomic(path, b, len), 0);
	assert_int_equal(elfsym_functions(&syms, &n, path), -1);
	assert_non_null(strstr(tn_errmsg(), "no symbol table"));
	free(b);
	free(path);
}

static void test_elfsym__unusable(void **state)
{
	char *bin = build(state, "-s");
	char *text = in_dir(state, "text.txt");
	char *cut = in_dir(state, "cut");
	char *cmd = xasprintf("head -c 200 /proc/%d/exe > %s", (int)getpid(), cut);
	struct elf_func *syms = (struct elf_func *)1;
	size_t n = 7;

	assert_int_equal(elfsym_functions(&syms, &n, bin), -1);
	assert_non_null(strstr(tn_errmsg(), "no symbol table (stripped?)"));
	assert_null(syms);
	assert_int_equal(n, 0);
	write_text(state, "text.txt", "not an ELF file at all\n");
	assert_int_equal(elfsym_functions(&syms, &n, text), -1);
	assert_non_null(strstr(tn_errmsg(), "not an ELF file"));
	sh(cmd);
	assert_int_equal(elfsym_functions(&syms, &n, cut), -1);
	assert_non_null(strstr(tn_errmsg(), "truncated"));
	assert_int_equal(elfsym_functions(&syms, &n, "/nonexistent/prog"), -1);
	free(bin);
	free(text);
	free(cut);
	free(cmd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_elfsym__matches_nm),
		cmocka_unit_test(test_elfsym__own_binary),
		cmocka_unit_test(test_elfsym__big_endian_arm),
		cmocka_unit_test(test_elfsym__unusable),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
