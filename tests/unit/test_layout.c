/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for layout: cache placement arithmetic, the analysis of
 * variance and Benjamini-Hochberg against hand-computed values, the
 * two-build comparison and the study analysis on builds made in memory
 * (a planted function whose offset sets the objective among functions
 * that only move with the layout seed), and loading a build directory.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tuner/layout.h"
#include "tuner/stats.h"
#include "tuner/util.h"

static void assert_close(double got, double want, double rel)
{
	if (!(fabs(got - want) <= rel * fabs(want)))
		fail_msg("got %.17g, want %.17g", got, want);
}

static void test_layout__place(void **state)
{
	struct layout_func f;

	(void)state;
	/* natbench's planted function: 23 bytes at slot + 24, one 8 KB way. */
	layout_place(&f, 0x26018, 23, 32, 256);
	assert_int_equal(f.offset, 24);
	assert_int_equal(f.set, 0);
	assert_int_equal(f.lines, 2);
	layout_place(&f, 0x26000, 23, 32, 256);
	assert_int_equal(f.lines, 1);
	layout_place(&f, 0x26000 + 9, 23, 32, 256); /* ends at byte 31: fits */
	assert_int_equal(f.lines, 1);
	layout_place(&f, 0x26000 + 10, 23, 32, 256);
	assert_int_equal(f.lines, 2);
	/* v7_dma_inv_range of the seeds' System.map: 0xc010ea94, 76 bytes. */
	layout_place(&f, 0xc010ea94, 0x4c, 32, 256);
	assert_int_equal(f.offset, 20);
	assert_int_equal(f.set, (0xc010ea94u / 32) % 256);
	assert_int_equal(f.lines, 3);
	layout_place(&f, 0x1000, 0, 32, 256); /* no size: its first line */
	assert_int_equal(f.lines, 1);
	layout_place(&f, 0x2040, 64, 64, 128);
	assert_int_equal(f.offset, 0);
	assert_int_equal(f.set, 1);
	assert_int_equal(f.lines, 1);
}

static void test_layout__anova(void **state)
{
	/* Groups {4,5,6} {6,7,8} {9,10,11}: SSB 38, SSW 6, F(2,6) = 19,
	 * P(F > 19) = (1 + 2*19/6)^-3 = 27/10648 (d1 = 2 closed form). */
	const double y[] = { 4, 5, 6, 6, 7, 8, 9, 10, 11 };
	const size_t g[] = { 0, 0, 0, 1, 1, 1, 2, 2, 2 };
	const double y2[] = { 4, 5, NAN, 6, 7, 8, 9, 10, 11, 3 };
	const size_t g2[] = { 0, 0, 0, 1, 1, 1, 2, 2, 2, 5 };
	const double flat[] = { 1, 1, 2, 2 };
	const size_t fg[] = { 0, 0, 1, 1 };
	const double same[] = { 3, 5, 5, 3 };
	struct stats_anova a;

	(void)state;
	stats_anova(&a, y, g, 9);
	assert_int_equal(a.n, 9);
	assert_int_equal(a.k, 3);
	assert_close(a.f, 19, 1e-12);
	assert_true(a.df1 == 2 && a.df2 == 6);
	assert_close(a.p, 27.0 / 10648, 1e-10);
	assert_close(a.eta2, 38.0 / 44, 1e-12);
	/* NaN skipped; group 5 has one value, groups 3 and 4 none. Means
	 * 4.5, 7, 10, 3; grand 63/9 = 7; SSB 2*6.25 + 0 + 3*9 + 16 = 55.5;
	 * SSW 0.5 + 2 + 2 = 4.5; F = (55.5/3) / (4.5/5). */
	stats_anova(&a, y2, g2, 10);
	assert_int_equal(a.n, 9);
	assert_int_equal(a.k, 4);
	assert_close(a.f, (55.5 / 3) / (4.5 / 5), 1e-12);
	assert_close(a.p, stats_f_sf(a.f, 3, 5), 1e-12);
	/* No variance within groups. */
	stats_anova(&a, flat, fg, 4);
	assert_true(isinf(a.f) && a.p == 0 && a.eta2 == 1);
	/* Equal means. */
	stats_anova(&a, same, fg, 4);
	assert_true(a.f == 0 && a.p == 1 && a.eta2 == 0);
	/* One group, or nothing to spare: no test. */
	stats_anova(&a, y, g, 3);
	assert_int_equal(a.k, 1);
	assert_true(isnan(a.p) && isnan(a.f));
	stats_anova(&a, flat + 1, fg + 1, 2);
	assert_int_equal(a.k, 2);
	assert_true(isnan(a.p));
	stats_anova(&a, y, g, 0);
	assert_int_equal(a.n, 0);
	assert_true(isnan(a.p));
}

static void test_layout__anova_null(void **state)
{
	/* Under the null, p is uniform: 5% of 2000 tests below 0.05. */
	struct rng r;
	double y[12];
	size_t g[12], below = 0;
	struct stats_anova a;

	(void)state;
	rng_seed(&r, 7);
	for (int t = 0; t < 2000; t++) {
		for (size_t i = 0; i < 12; i++) {
			y[i] = 900 + 5 * stats_normal(&r);
			g[i] = i % 3;
		}
		stats_anova(&a, y, g, 12);
		below += a.p < 0.05;
	}
	if (below < 70 || below > 130)
		fail_msg("%zu of 2000 null tests below 0.05", below);
}

static void test_layout__bh(void **state)
{
	const double p[] = { 0.01, 0.04, NAN, 0.03, 0.005 };
	double q[5];

	(void)state;
	/* Sorted 0.005 0.01 0.03 0.04, m = 4: 0.02 0.02 0.04 0.04. */
	stats_bh(q, p, 5);
	assert_close(q[0], 0.02, 1e-12);
	assert_close(q[1], 0.04, 1e-12);
	assert_true(isnan(q[2]));
	assert_close(q[3], 0.04, 1e-12);
	assert_close(q[4], 0.02, 1e-12);
	/* In place, and capped at 1. */
	{
		double v[] = { 0.9, 0.8 };

		stats_bh(v, v, 2);
		assert_close(v[0], 0.9, 1e-12);
		assert_close(v[1], 0.9, 1e-12);
	}
}

/* ---- builds made in memory ---- */

#define MAXF 6

struct fake {
	struct layout_build b;
	struct layout_func f[MAXF];
	struct elf_func s[MAXF];
};

static void add_func(struct fake *x, const char *name, uint64_t addr, uint64_t size,
		     double cycles)
{
	size_t i = x->b.nfuncs++;

	x->s[i].name = (char *)name;
	x->s[i].addr = addr;
	x->s[i].size = size;
	x->f[i].name = name;
	x->f[i].sym = &x->s[i];
	x->f[i].cycles = cycles;
	layout_place(&x->f[i], addr, size, 32, 256);
	x->b.prof.cycles += cycles;
	x->b.nsyms = x->b.nfuncs;
}

static void init_fake(struct fake *x)
{
	memset(x, 0, sizeof(*x));
	x->b.funcs = x->f;
	x->b.syms = x->s;
	x->b.i1.line = 32;
	x->b.sets = 256;
}

static void test_layout__diff(void **state)
{
	struct fake a, b;
	struct layout_diff d;

	(void)state;
	init_fake(&a);
	init_fake(&b);
	add_func(&a, "f1", 0x100, 41, 10);
	add_func(&a, "f2", 0x200, 16, 50);
	add_func(&a, "g", 0x300, 8, 1);
	add_func(&b, "f1", 0x118, 41, 30);
	add_func(&b, "f2", 0x200, 16, 50);
	add_func(&b, "g", 0x300, 9, 1);
	add_func(&b, "f3", 0x400, 16, 5);
	layout_diff(&d, &a.b, &b.b);
	assert_close(d.total_a, 61, 1e-12);
	assert_close(d.total_b, 86, 1e-12);
	assert_int_equal(d.n, 4);
	assert_string_equal(d.rows[0].name, "f1");
	assert_close(d.rows[0].delta, 20, 1e-12);
	assert_close(d.rows[0].share, 0.8, 1e-12);
	assert_int_equal(d.rows[0].a->offset, 0);
	assert_int_equal(d.rows[0].b->offset, 24);
	assert_int_equal(d.rows[0].b->lines, 3);
	assert_string_equal(d.rows[1].name, "f3");
	assert_null(d.rows[1].a);
	assert_close(d.rows[1].share, 0.2, 1e-12);
	assert_true(d.rows[2].delta == 0 && d.rows[3].delta == 0);
	assert_int_equal(d.common, 3);
	assert_int_equal(d.moved, 1);
	assert_int_equal(d.realigned, 1);
	assert_int_equal(d.resized, 1);
	layout_diff_release(&d);
}

/*
 * 8 builds: pad (0 or 24 bytes before "plant") crossed with 4 layout
 * seeds that move "x", "y" and "z" (x and z alike); "w" never moves. The
 * objective falls 30 when plant spans two lines, and moves by 1..2 with
 * the seed.
 */
static void test_layout__study(void **state)
{
	static const double seed_noise[4] = { 2, -1, 1, -2 };
	struct fake fk[8];
	const struct layout_build *builds[8];
	double values[8];
	struct layout_effect *e;
	struct layout_study_opts o = { 32, 5 };
	size_t n;
	const struct layout_effect *x = NULL, *z = NULL, *w = NULL;

	(void)state;
	for (int i = 0; i < 8; i++) {
		int pad = i % 2, seed = i / 2;

		init_fake(&fk[i]);
		add_func(&fk[i], "plant", 0x8000 + 24 * (uint64_t)pad, 23, 200 + 300 * pad);
		add_func(&fk[i], "x", 0x1000 + 0x100 * (uint64_t)seed + 16 * (uint64_t)(seed % 2),
			 100, 90 + seed_noise[seed]);
		add_func(&fk[i], "z", 0x3000 + 16 * (uint64_t)(seed % 2), 60, 80);
		add_func(&fk[i], "y", 0x2000 + 16 * (uint64_t)(seed / 2), 60, 70);
		add_func(&fk[i], "w", 0x4000, 60, 60);
		add_func(&fk[i], "cold", 0x5000 + 16 * (uint64_t)pad, 60, 1);
		builds[i] = &fk[i].b;
		values[i] = 900 - 30 * pad + seed_noise[seed];
	}
	assert_int_equal(layout_study(&e, &n, builds, values, 8, &o), 0);
	assert_int_equal(n, 5); /* "cold" is not among the top 5 */
	assert_string_equal(e[0].name, "plant");
	assert_int_equal(e[0].nclasses, 2);
	assert_int_equal(e[0].nbuilds, 8);
	assert_true(e[0].classes[0].offset == 0 && e[0].classes[1].offset == 24);
	assert_true(e[0].classes[0].lines == 1 && e[0].classes[1].lines == 2);
	assert_close(e[0].classes[1].cost, 500, 1e-12);
	assert_close(e[0].classes[0].objective - e[0].classes[1].objective, 30, 1e-12);
	assert_close(e[0].cost_range, 300, 1e-12);
	assert_true(e[0].obj.p < 1e-4 && e[0].q < 1e-3 && e[0].obj.eta2 > 0.95);
	assert_true(e[0].own.p == 0); /* its own cost is its offset's */
	assert_int_equal(e[0].same, 0);
	for (size_t i = 0; i < n; i++) {
		if (!strcmp(e[i].name, "x"))
			x = &e[i];
		if (!strcmp(e[i].name, "z"))
			z = &e[i];
		if (!strcmp(e[i].name, "w"))
			w = &e[i];
	}
	assert_non_null(x);
	assert_non_null(z);
	assert_non_null(w);
	/* x and z split the builds alike: one test, confounded. */
	assert_int_equal(x->pattern, z->pattern);
	assert_true(x->same == 1 && z->same == 1);
	assert_true(x->obj.p == z->obj.p && x->q == z->q);
	assert_true(x->obj.p > 0.1);
	assert_true(x < z); /* x's own cost moves, z's does not */
	/* w never moves: not tested, last. */
	assert_int_equal(w->nclasses, 1);
	assert_true(isnan(w->obj.p));
	assert_true(w == &e[n - 1]);
	layout_effects_free(e, n);

	/* No values: an error. */
	for (int i = 0; i < 8; i++)
		values[i] = NAN;
	assert_int_equal(layout_study(&e, &n, builds, values, 8, &o), -1);
	assert_non_null(strstr(tn_errmsg(), "no build has"));
}

static void test_layout__f_distribution(void **state)
{
	(void)state;
	/* 40-digit references (mpmath betainc). */
	assert_close(stats_f_sf(4.964602769, 1, 10), 0.049999999519312617, 1e-9);
	assert_close(stats_f_sf(3.708264819, 3, 10), 0.050000000001553236, 1e-9);
	assert_close(stats_f_sf(5.848932, 2, 20), 0.0099999995243284335, 1e-9);
	assert_close(stats_f_sf(19.29641, 5, 2), 0.049999999130203336, 1e-9);
	assert_close(stats_f_sf(30, 1, 2), 0.031754163448145779, 1e-9);
	assert_close(stats_f_sf(0.5, 3, 8), 0.69262486694384635, 1e-9);
	assert_close(stats_f_sf(100, 4, 40), 2.851255046644938e-20, 1e-8);
	assert_close(stats_f_sf(2.5, 1.5, 7.3), 0.15344317989390073, 1e-9);
	assert_close(stats_f_sf(1e-3, 2, 3), 0.99900083268567105, 1e-12);
	/* F(1, d) is t(d) squared. */
	assert_close(stats_f_sf(2.3 * 2.3, 1, 7), 2 * stats_t_cdf(-2.3, 7), 1e-12);
	assert_true(stats_f_sf(0, 2, 3) == 1 && stats_f_sf(-1, 2, 3) == 1);
	assert_true(stats_f_sf(INFINITY, 2, 3) == 0);
	assert_true(isnan(stats_f_sf(1, 0, 3)) && isnan(stats_f_sf(NAN, 1, 3)));
}

/* ---- a build directory ---- */

static void put_file(const char *dir, const char *name, const char *text)
{
	char *path = xasprintf("%s/%s", dir, name);

	assert_int_equal(write_file_atomic(path, text, strlen(text)), 0);
	free(path);
}

static void test_layout__load(void **state)
{
	char tmpl[] = "/tmp/tuner-test-layout-XXXXXX";
	char *dir, *cmd, *prog;
	struct layout_build b;
	struct cg_model m;
	const struct layout_func *f;
	/* Two runs of "prog": hot has 300 and 100 Ir in fp_x.c. */
	static const char run0[] =
		"desc: I1 cache:         16384 B, 64 B, 2-way associative\n"
		"cmd: /tmp/elsewhere/prog --seed 1\n"
		"events: Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw\n"
		"fl=fp_x.c\nfn=hot\n3 300 10\nfn=nosym\n4 5\n"
		"summary: 305 10\n";
	static const char run1[] =
		"cmd: /tmp/elsewhere/prog --seed 1\n"
		"events: Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw\n"
		"fl=fp_x.c\nfn=hot\n3 100 2\n"
		"summary: 100 2\n";

	(void)state;
	assert_non_null(mkdtemp(tmpl));
	dir = tmpl;
	cg_model_init(&m);
	put_file(dir, "prog.c", "__attribute__((noinline)) int hot(int x) { return x * 9; }\n"
				"int main(int c, char **v) { (void)v; return hot(c); }\n");
	cmd = xasprintf("cc -O1 -o %s/prog %s/prog.c", dir, dir);
	assert_int_equal(system(cmd), 0);
	free(cmd);

	/* No cachegrind file: says how to get one. */
	assert_int_equal(layout_build_load(&b, dir, NULL, &m), -1);
	assert_non_null(strstr(tn_errmsg(), "no cachegrind data"));
	assert_non_null(strstr(tn_errmsg(), "--cachegrind-out-file"));

	put_file(dir, "cachegrind.out.0", run0);
	put_file(dir, "cachegrind.out.1", run1);
	put_file(dir, "prog.stdout.0", "prog: packets=50 bytes=9000\n");
	assert_int_equal(layout_build_load(&b, dir, NULL, &m), 0);
	prog = xasprintf("%s/prog", dir);
	assert_string_equal(b.artifact, prog); /* named like cmd:'s program */
	assert_int_equal(b.runs, 2);
	assert_true(b.packets == 50);
	assert_true(b.i1.line == 64 && b.sets == 128);
	f = layout_build_find(&b, "hot");
	assert_non_null(f);
	assert_non_null(f->sym);
	assert_close(f->ir, 200.0 / 50, 1e-12);    /* the mean of the runs, per packet */
	assert_close(f->i1mr, 6.0 / 50, 1e-12);
	assert_close(f->cycles, (200.0 + 12 * 6) / 50, 1e-12);
	assert_int_equal(f->offset, f->sym->addr % 64);
	assert_int_equal(f->set, f->sym->addr / 64 % 128);
	f = layout_build_find(&b, "nosym");
	assert_non_null(f);
	assert_null(f->sym); /* costed, but not in the symbol table */
	layout_build_release(&b);

	/* cmd: names a program that is not there. */
	put_file(dir, "cachegrind.out.1", "cmd: /x/other\nevents: Ir I1mr ILmr D1mr D1mw DLmr "
					  "DLmw\nsummary: 0\n");
	put_file(dir, "cachegrind.out.0", "cmd: /x/other\nevents: Ir I1mr ILmr D1mr D1mw DLmr "
					  "DLmw\nsummary: 0\n");
	assert_int_equal(layout_build_load(&b, dir, NULL, &m), -1);
	assert_non_null(strstr(tn_errmsg(), "give --artifact"));
	assert_int_equal(layout_build_load(&b, dir, prog, &m), 0);
	assert_int_equal(b.nfuncs, 0);
	layout_build_release(&b);
	/* A damaged file names itself. */
	put_file(dir, "cachegrind.out.1", "events: Ir I1mr ILmr D1mr D1mw DLmr DLmw\n");
	assert_int_equal(layout_build_load(&b, dir, prog, &m), -1);
	assert_non_null(strstr(tn_errmsg(), "cachegrind.out.1: cachegrind: no 'summary:'"));
	free(prog);
	cg_model_release(&m);
	assert_int_equal(remove_tree(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout__place),
		cmocka_unit_test(test_layout__anova),
		cmocka_unit_test(test_layout__anova_null),
		cmocka_unit_test(test_layout__bh),
		cmocka_unit_test(test_layout__diff),
		cmocka_unit_test(test_layout__study),
		cmocka_unit_test(test_layout__f_distribution),
		cmocka_unit_test(test_layout__load),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
