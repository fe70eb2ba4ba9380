/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for gccspace: real listings of gcc 12 (x86-64),
 * arm-linux-gnueabihf-gcc and mipsel-linux-gnu-gcc captured in
 * tests/fixtures/gccspace/ (LC_ALL=C CC -Q --help=optimizers|params
 * LEVEL), and hand-made malformed ones. Run from the repository's root,
 * as make unit does.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tuner/gccspace.h"
#include "tuner/space.h"
#include "tuner/util.h"

#define FIXTURES "tests/fixtures/gccspace/"
#define OPT_HEADER "The following options control optimizations:\n"
#define PARAM_HEADER "The following options control parameters:\n"

static char *fixture(const char *name)
{
	char *path = xasprintf(FIXTURES "%s", name), *text = NULL;
	size_t len;

	if (read_file(&text, &len, path) < 0)
		fail_msg("%s (run from the repository's root)", tn_errmsg());
	free(path);
	return text;
}

/* Builds g from fixtures (params: NULL for none) with opts. */
static void build(struct gccspace *g, const char *opt_name, const char *param_name,
		  const struct gccspace_opts *o)
{
	char *opt = fixture(opt_name), *par = param_name ? fixture(param_name) : NULL;

	if (gccspace_build(g, opt, par, o) < 0)
		fail_msg("%s: %s", opt_name, tn_errmsg());
	free(opt);
	free(par);
}

static const struct gccspace_dim *dim(const struct gccspace *g, const char *name)
{
	for (size_t i = 0; i < g->ndims; i++)
		if (!strcmp(g->dims[i].name, name))
			return &g->dims[i];
	return NULL;
}

/* The dimension name has exactly the values given (NULL-terminated). */
static void want_dim(const struct gccspace *g, const char *name, ...)
{
	const struct gccspace_dim *d = dim(g, name);
	va_list ap;
	size_t n = 0;
	const char *v;

	if (!d)
		fail_msg("no dimension %s", name);
	va_start(ap, name);
	while ((v = va_arg(ap, const char *))) {
		if (n >= d->nvalues)
			fail_msg("%s: only %zu values", name, d->nvalues);
		if (strcmp(d->values[n], v))
			fail_msg("%s: value %zu is '%s', want '%s'", name, n, d->values[n], v);
		n++;
	}
	va_end(ap);
	if (n != d->nvalues)
		fail_msg("%s: %zu values, want %zu", name, d->nvalues, n);
}

/* option was left out, for why. */
static void want_left(const struct gccspace *g, const char *option, enum gccspace_why why)
{
	for (size_t i = 0; i < g->nleft; i++)
		if (!strcmp(g->left[i].option, option)) {
			if (g->left[i].why != why)
				fail_msg("%s left out as '%s', want '%s'", option,
					 gccspace_why_text(g->left[i].why), gccspace_why_text(why));
			return;
		}
	fail_msg("%s not left out", option);
}

/* No value of any dimension is or starts with the switch w. */
static void want_no_value(const struct gccspace *g, const char *w)
{
	for (size_t i = 0; i < g->ndims; i++)
		for (size_t k = 0; k < g->dims[i].nvalues; k++)
			if (!strncmp(g->dims[i].values[k], w, strlen(w)))
				fail_msg("%s has %s", g->dims[i].name, g->dims[i].values[k]);
}

/* What every space must be: the level first, names unique, each switch or
 * param dimension "" first and no value twice, counts by kind. The
 * configurations, exactly, into *size (space_size_str()), caller frees. */
static void check_shape(const struct gccspace *g, const char *level, char **size)
{
	struct space s = SPACE_INIT;
	size_t nsw = 0, npa = 0;

	assert_true(g->ndims >= 1);
	assert_string_equal(g->dims[0].name, "opt");
	assert_int_equal(g->dims[0].kind, GCCSPACE_LEVEL);
	assert_int_equal(g->dims[0].nvalues, 1);
	assert_string_equal(g->dims[0].values[0], level);
	for (size_t i = 1; i < g->ndims; i++) {
		const struct gccspace_dim *d = &g->dims[i];

		assert_true(d->nvalues >= 2);
		assert_string_equal(d->values[0], "");
		nsw += d->kind == GCCSPACE_SWITCH;
		npa += d->kind == GCCSPACE_PARAM;
	}
	assert_int_equal(nsw, g->nswitch);
	assert_int_equal(npa, g->nparam);
	/* space_add_dimension() refuses a repeated name or value. */
	for (size_t i = 0; i < g->ndims; i++)
		if (space_add_dimension(&s, g->dims[i].name, (const char *const *)g->dims[i].values,
					g->dims[i].nvalues) < 0)
			fail_msg("%s", tn_errmsg());
	*size = space_size_str(&s, 0);
	space_release(&s);
}

/* Builds g as build() does and checks its shape; its configurations,
 * exactly, caller frees. */
static char *shaped(struct gccspace *g, const char *opt_name, const char *param_name,
		    const struct gccspace_opts *o)
{
	char *size;

	build(g, opt_name, param_name, o);
	check_shape(g, o && o->level ? o->level : "-O2", &size);
	return size;
}

/* The semantic switches of the brief, none of them in a safe space. */
static const char *const semantic[] = {
	"-fassociative-math", "-fno-associative-math", "-freciprocal-math", "-ffinite-math-only",
	"-fno-signed-zeros", "-fno-trapping-math", "-funsafe-math-optimizations",
	"-fno-math-errno", "-frounding-math", "-fsignaling-nans", "-fcx-limited-range",
	"-fcx-fortran-rules", "-fexcess-precision", "-ffp-contract", "-fno-strict-aliasing",
	"-fstrict-volatile-bitfields", "-fwrapv", "-ftrapv", "-fno-delete-null-pointer-checks",
	"-fdelete-null-pointer-checks", "-fnon-call-exceptions", "-fexceptions",
	"-funwind-tables", "-fno-asynchronous-unwind-tables", "-fshort-enums", "-fno-short-enums",
	"-fshort-wchar", "-fpack-struct", "-fisolate-erroneous-paths", "-fno-isolate-erroneous",
	"-fbranch-probabilities", "-fprofile", "-fstack-protector", "-fstack-check",
	"-fstack-clash-protection", "-fno-semantic-interposition", "-fno-plt",
	"-fno-omit-frame-pointer", "-fharden", "-ftrivial-auto-var-init", "-fno-lifetime-dse",
	"-fallow-store-data-races", "-fno-inline-atomics", "-ffinite-loops",
	"-fno-toplevel-reorder", "-flive-patching", "-fopt-info", "-fvar-tracking",
};

static void test_gccspace__x86_64_O2(void **state)
{
	struct gccspace g = GCCSPACE_INIT;
	char *size;

	size = shaped(&g, "x86_64-O2.optimizers", NULL, NULL);
	assert_int_equal(g.nswitch, 177);
	assert_int_equal(g.nparam, 0);
	/* At least 2^20 configurations: 2^167 x 3^4 x 4^3 x 5^3. */
	assert_string_equal(size, "121222791806774411647486434764819378782341668844601344000");
	free(size);
	want_dim(&g, "tree_ch", "", "-fno-tree-ch", NULL);
	want_dim(&g, "gcse_sm", "", "-fgcse-sm", NULL);
	want_dim(&g, "prefetch_loop_arrays", "", "-fprefetch-loop-arrays",
		 "-fno-prefetch-loop-arrays", NULL);
	/* x86-64's -O2 aligns functions to 16 already. */
	want_dim(&g, "align_functions", "", "-fno-align-functions", "-falign-functions=32",
		 "-falign-functions=64", NULL);
	want_dim(&g, "align_jumps", "", "-fno-align-jumps", "-falign-jumps=16",
		 "-falign-jumps=32", "-falign-jumps=64", NULL);
	want_dim(&g, "ira_region", "", "-fira-region=all", "-fira-region=mixed", NULL);
	want_dim(&g, "reorder_blocks_algorithm", "", "-freorder-blocks-algorithm=simple", NULL);
	want_dim(&g, "vect_cost_model", "", "-fvect-cost-model=unlimited",
		 "-fvect-cost-model=dynamic", "-fvect-cost-model=cheap", NULL);
	for (size_t i = 0; i < ARRAY_SIZE(semantic); i++)
		want_no_value(&g, semantic[i]);
	want_left(&g, "-fstrict-aliasing", GCCSPACE_LANGUAGE);
	want_left(&g, "-ffp-contract=", GCCSPACE_FLOAT);
	want_left(&g, "-fomit-frame-pointer", GCCSPACE_INTERFACE);
	want_left(&g, "-fasynchronous-unwind-tables", GCCSPACE_EXCEPTIONS);
	want_left(&g, "-fstack-protector-strong", GCCSPACE_HARDENING);
	want_left(&g, "-fvpt", GCCSPACE_INSTRUMENT);
	want_left(&g, "-finline-atomics", GCCSPACE_MEMORY);
	want_left(&g, "-fvar-tracking", GCCSPACE_NOCODE);
	want_left(&g, "-fexceptions", GCCSPACE_OTHER_LANG);
	want_left(&g, "-fno-threadsafe-statics", GCCSPACE_OTHER_LANG);
	want_left(&g, "-fhandle-exceptions", GCCSPACE_ALIAS);
	want_left(&g, "-ftree-parallelize-loops=", GCCSPACE_VALUE);
	want_left(&g, "-ftoplevel-reorder", GCCSPACE_CONFLICT);
	want_left(&g, "-flive-patching=", GCCSPACE_CONFLICT);
	for (size_t i = 0; i < g.nleft; i++)
		assert_false(!strncmp(g.left[i].option, "-O", 2));
	gccspace_release(&g);
}

static void test_gccspace__x86_64_Os(void **state)
{
	struct gccspace g = GCCSPACE_INIT;
	struct gccspace_opts o = GCCSPACE_OPTS_INIT;

	o.level = "-Os";
	free(shaped(&g, "x86_64-Os.optimizers", NULL, &o));
	/* gcc aligns no function, jump or loop at -Os (gccopt_predicted()). */
	assert_null(dim(&g, "align_functions"));
	assert_null(dim(&g, "align_jumps"));
	assert_null(dim(&g, "align_loops"));
	want_left(&g, "-falign-functions", GCCSPACE_IGNORED);
	want_left(&g, "-falign-loops", GCCSPACE_IGNORED);
	want_dim(&g, "align_labels", "", "-falign-labels=16", "-falign-labels=32",
		 "-falign-labels=64", NULL);
	/* Listed as stc at -Os here, simple on ARM. */
	want_dim(&g, "reorder_blocks_algorithm", "", "-freorder-blocks-algorithm=simple", NULL);
	want_dim(&g, "tree_loop_vectorize", "", "-ftree-loop-vectorize", NULL);
	gccspace_release(&g);
}

static void test_gccspace__arm(void **state)
{
	struct gccspace g = GCCSPACE_INIT;
	struct gccspace_opts o = GCCSPACE_OPTS_INIT;
	char *size;

	size = shaped(&g, "arm-O2.optimizers", NULL, NULL);
	assert_int_equal(g.nswitch, 177);
	assert_string_equal(size, "151528489758468014559358043456024223477927086055751680000");
	free(size);
	/* The A9's -O2 aligns functions to 4; jumps and loops to the default. */
	want_dim(&g, "align_functions", "", "-fno-align-functions", "-falign-functions=16",
		 "-falign-functions=32", "-falign-functions=64", NULL);
	want_dim(&g, "section_anchors", "", "-fno-section-anchors", NULL);
	want_dim(&g, "schedule_insns", "", "-fno-schedule-insns", NULL);
	want_dim(&g, "sched_pressure", "", "-fno-sched-pressure", NULL);
	want_left(&g, "-fstrict-volatile-bitfields", GCCSPACE_INTERFACE);
	for (size_t i = 0; i < ARRAY_SIZE(semantic); i++)
		want_no_value(&g, semantic[i]);
	gccspace_release(&g);

	o.level = "-Os";
	free(shaped(&g, "arm-Os.optimizers", NULL, &o));
	assert_int_equal(g.nswitch, 174);
	want_left(&g, "-falign-jumps", GCCSPACE_IGNORED);
	want_dim(&g, "reorder_blocks_algorithm", "", "-freorder-blocks-algorithm=stc", NULL);
	gccspace_release(&g);
}

static void test_gccspace__mips_target_switch(void **state)
{
	struct gccspace g = GCCSPACE_INIT;

	free(shaped(&g, "mipsel-O2.optimizers", NULL, NULL));
	want_dim(&g, "m_frame_header_opt", "", "-mframe-header-opt", NULL);
	want_dim(&g, "delayed_branch", "", "-fno-delayed-branch", NULL);
	gccspace_release(&g);
}

static void test_gccspace__unsafe(void **state)
{
	struct gccspace g = GCCSPACE_INIT;
	struct gccspace_opts o = GCCSPACE_OPTS_INIT;

	o.unsafe = 1;
	free(shaped(&g, "x86_64-O2.optimizers", NULL, &o));
	want_dim(&g, "strict_aliasing", "", "-fno-strict-aliasing", NULL);
	want_dim(&g, "omit_frame_pointer", "", "-fno-omit-frame-pointer", NULL);
	want_dim(&g, "fp_contract", "", "-ffp-contract=off", "-ffp-contract=on", NULL);
	want_dim(&g, "excess_precision", "", "-fexcess-precision=fast",
		 "-fexcess-precision=standard", "-fexcess-precision=16", NULL);
	want_dim(&g, "delete_null_pointer_checks", "", "-fdelete-null-pointer-checks",
		 "-fno-delete-null-pointer-checks", NULL);
	/* What --unsafe does not bring back. */
	for (size_t i = 0; i < g.nleft; i++)
		assert_true(g.left[i].why > GCCSPACE_UNSAFE_LAST);
	want_left(&g, "-fexceptions", GCCSPACE_OTHER_LANG);
	want_left(&g, "-ftoplevel-reorder", GCCSPACE_CONFLICT);
	want_left(&g, "-fopt-info", GCCSPACE_NOCODE);
	gccspace_release(&g);
}

static void test_gccspace__params(void **state)
{
	struct gccspace g = GCCSPACE_INIT;
	const struct gccspace_dim *d;

	free(shaped(&g, "x86_64-O2.optimizers", "x86_64-O2.params", NULL));
	assert_int_equal(g.nswitch, 177);
	assert_int_equal(g.nparam, 200);
	/* Switches first, then params. */
	for (size_t i = 1; i < g.ndims; i++)
		assert_int_equal(g.dims[i].kind, i <= g.nswitch ? GCCSPACE_SWITCH : GCCSPACE_PARAM);
	d = dim(&g, "param_max_unroll_times");
	assert_non_null(d);
	assert_string_equal(d->option, "--param=max-unroll-times");
	want_dim(&g, "param_max_unroll_times", "", "--param=max-unroll-times=4",
		 "--param=max-unroll-times=16", NULL);
	want_dim(&g, "param_align_threshold", "", "--param=align-threshold=50",
		 "--param=align-threshold=200", NULL);
	/* <0,1> with 0: the switch turned on; at the top of <1,65536>: half. */
	want_dim(&g, "param_ira_consider_dup_in_all_alts", "",
		 "--param=ira-consider-dup-in-all-alts=1", NULL);
	want_dim(&g, "param_store_merging_max_size", "", "--param=store-merging-max-size=32768",
		 NULL);
	/* An unranged param may take anything from 0: 1 gives 0 and 2. */
	want_dim(&g, "param_max_early_inliner_iterations", "",
		 "--param=max-early-inliner-iterations=0", "--param=max-early-inliner-iterations=2",
		 NULL);
	want_left(&g, "--param=prefetch-minimum-stride", GCCSPACE_NO_SAMPLE);
	want_left(&g, "--param=case-values-threshold", GCCSPACE_NO_SAMPLE);
	want_left(&g, "--param=analyzer-max-constraints", GCCSPACE_PARAM_NOCODE);
	want_left(&g, "--param=lto-partitions", GCCSPACE_PARAM_NOCODE);
	want_left(&g, "--param=evrp-mode", GCCSPACE_VALUE);
	want_left(&g, "--param=lazy-modules", GCCSPACE_OTHER_LANG);
	want_left(&g, "--param=ssp-buffer-size", GCCSPACE_HARDENING);
	gccspace_release(&g);

	free(shaped(&g, "arm-O2.optimizers", "arm-O2.params", NULL));
	assert_int_equal(g.nparam, 200);
	want_dim(&g, "param_l1_cache_line_size", "", "--param=l1-cache-line-size=16",
		 "--param=l1-cache-line-size=64", NULL);
	gccspace_release(&g);
}

static void test_gccspace__param_sample(void **state)
{
	long long out[2];

	assert_int_equal(gccspace_param_sample(out, 1, 65536, 100), 2);
	assert_int_equal(out[0], 50);
	assert_int_equal(out[1], 200);
	assert_int_equal(gccspace_param_sample(out, 0, 1, 1), 1);
	assert_int_equal(out[0], 0);
	assert_int_equal(gccspace_param_sample(out, 0, 1, 0), 1);
	assert_int_equal(out[0], 1);
	assert_int_equal(gccspace_param_sample(out, 0, INT_MAX, 1), 2);
	assert_int_equal(out[0], 0);
	assert_int_equal(out[1], 2);
	assert_int_equal(gccspace_param_sample(out, 1, 10, 1), 1);
	assert_int_equal(out[0], 2);
	/* Clamped into the range, then what is v or a repeat dropped. */
	assert_int_equal(gccspace_param_sample(out, 10, 20, 15), 2);
	assert_int_equal(out[0], 10);
	assert_int_equal(out[1], 20);
	assert_int_equal(gccspace_param_sample(out, 10, 11, 10), 1);
	assert_int_equal(out[0], 11);
	assert_int_equal(gccspace_param_sample(out, 1, 65536, 65536), 1);
	assert_int_equal(out[0], 32768);
	assert_int_equal(gccspace_param_sample(out, 3, 3, 3), 0);
	/* 0 (off, computed, unlimited) and -1 (unset) have no multiples. */
	assert_int_equal(gccspace_param_sample(out, 0, 100, 0), 0);
	assert_int_equal(gccspace_param_sample(out, 0, INT_MAX, -1), 0);
	assert_int_equal(gccspace_param_sample(out, -1, 100, -1), 0);
	assert_int_equal(gccspace_param_sample(out, 0, 10, 11), 0);
	/* 2v overflows: the largest there is. */
	assert_int_equal(gccspace_param_sample(out, 0, LLONG_MAX, LLONG_MAX - 1), 2);
	assert_true(out[0] == (LLONG_MAX - 1) / 2);
	assert_true(out[1] == LLONG_MAX);
}

static void test_gccspace__globs(void **state)
{
	assert_true(gccspace_glob_match("tree-*", "-ftree-ch"));
	assert_true(gccspace_glob_match("-ftree-*", "-ftree-ch"));
	assert_true(gccspace_glob_match("tree-*", "-fno-tree-x"));
	assert_true(gccspace_glob_match("-ftree-x", "-fno-tree-x"));
	assert_false(gccspace_glob_match("ch", "-ftree-ch"));
	assert_false(gccspace_glob_match("-ch", "-ftree-ch"));
	assert_true(gccspace_glob_match("max-unroll-*", "--param=max-unroll-times"));
	assert_true(gccspace_glob_match("--param=max-*", "--param=max-unroll-times"));
	assert_false(gccspace_glob_match("-f*", "--param=max-unroll-times"));
	assert_true(gccspace_glob_match("align-functions", "-falign-functions="));
	assert_true(gccspace_glob_match("frame-header-opt", "-mframe-header-opt"));
	assert_true(gccspace_glob_match("-m*", "-mframe-header-opt"));
}

static void test_gccspace__exclude_only(void **state)
{
	const char *ex[] = { "tree-*", "-fgcse*" };
	const char *only[] = { "align-*", "strict-aliasing" };
	struct gccspace g = GCCSPACE_INIT;
	struct gccspace_opts o = GCCSPACE_OPTS_INIT;

	o.exclude = ex;
	o.nexclude = ARRAY_SIZE(ex);
	free(shaped(&g, "x86_64-O2.optimizers", NULL, &o));
	want_no_value(&g, "-ftree-");
	want_no_value(&g, "-fno-tree-");
	want_no_value(&g, "-fgcse");
	want_no_value(&g, "-fno-gcse");
	want_left(&g, "-ftree-ch", GCCSPACE_EXCLUDED);
	want_left(&g, "-fgcse-sm", GCCSPACE_EXCLUDED);
	assert_non_null(dim(&g, "ipa_cp"));
	/* A semantic switch keeps its reason. */
	want_left(&g, "-fstrict-aliasing", GCCSPACE_LANGUAGE);
	gccspace_release(&g);

	o = (struct gccspace_opts)GCCSPACE_OPTS_INIT;
	o.only = only;
	o.nonly = ARRAY_SIZE(only);
	build(&g, "x86_64-O2.optimizers", NULL, &o);
	assert_int_equal(g.nswitch, 4);
	assert_non_null(dim(&g, "align_labels"));
	want_left(&g, "-ftree-ch", GCCSPACE_NOT_ONLY);
	want_left(&g, "-fstrict-aliasing", GCCSPACE_LANGUAGE); /* --only does not mean --unsafe */
	gccspace_release(&g);

	o.unsafe = 1;
	build(&g, "x86_64-O2.optimizers", NULL, &o);
	assert_int_equal(g.nswitch, 5);
	want_dim(&g, "strict_aliasing", "", "-fno-strict-aliasing", NULL);
	gccspace_release(&g);
}

static void test_gccspace__levels(void **state)
{
	struct gccspace g = GCCSPACE_INIT;
	struct gccspace_opts o = GCCSPACE_OPTS_INIT;
	const char *ok[] = { "-O0", "-O1", "-O2", "-O3", "-Os", "-Oz" };
	const char *bad[] = { "-O", "-Og", "O2", "-O4", "", "-Ofaster" };

	for (size_t i = 0; i < ARRAY_SIZE(ok); i++)
		assert_int_equal(gccspace_level_check(ok[i], 0), 0);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		assert_int_equal(gccspace_level_check(bad[i], 1), -1);
		assert_int_equal(tn_errkind(), TN_ERR_INPUT);
	}
	assert_int_equal(gccspace_level_check("-Ofast", 0), -1);
	assert_non_null(strstr(tn_errmsg(), "--unsafe"));
	assert_int_equal(gccspace_level_check("-Ofast", 1), 0);
	o.level = "-Ofast";
	assert_int_equal(gccspace_build(&g, OPT_HEADER "  -ftree-ch [enabled]\n", NULL, &o), -1);
	gccspace_release(&g);
}

/* text fails to build (as optimizers, or as params after a good
 * optimizers listing) with a message holding want. */
static void want_bad(const char *text, int as_params, const char *want)
{
	struct gccspace g = GCCSPACE_INIT;
	int ret = as_params ? gccspace_build(&g, OPT_HEADER "  -ftree-ch [enabled]\n", text, NULL)
			    : gccspace_build(&g, text, NULL, NULL);

	if (ret != -1)
		fail_msg("built from '%s'", text);
	if (!strstr(tn_errmsg(), want))
		fail_msg("'%s': message '%s', want '%s'", text, tn_errmsg(), want);
	gccspace_release(&g);
}

static void test_gccspace__malformed(void **state)
{
	char *text;

	want_bad("", 0, "--help=optimizers: nothing printed");
	want_bad("\n\n", 0, "nothing printed");
	want_bad(OPT_HEADER, 0, "--help=optimizers: no option listed");
	want_bad("  -ftree-ch [enabled]\n", 0, "line 1: not the listing's header");
	want_bad(OPT_HEADER "garbage\n", 0, "line 2: not an option line: 'garbage'");
	want_bad(OPT_HEADER "  tree-ch [enabled]\n", 0, "line 2: not an option line");
	want_bad(OPT_HEADER "  -ftree-ch [enabld]\n", 0, "line 2: a state that is not");
	want_bad(OPT_HEADER "  -ftree-ch 7\n", 0, "line 2: a state that is not");
	want_bad(OPT_HEADER "  -ftree-ch [enabled\n", 0, "line 2: a state that is not");
	want_bad(OPT_HEADER "  -fira-region=[one|all  one\n", 0, "line 2: an option that cannot be read");
	want_bad(OPT_HEADER "  -f\n", 0, "an option that cannot be read");
	want_bad(OPT_HEADER "  -ftree$ch [enabled]\n", 0, "an option that cannot be read");
	want_bad(OPT_HEADER "  --param=x=  1\n", 0, "line 2: not an option line");
	want_bad(PARAM_HEADER "  --param=x=  1\n", 0, "line 1: not the listing's header");
	want_bad(PARAM_HEADER "  -ftree-ch [enabled]\n", 1, "--help=params: line 2: not a --param line");
	want_bad(PARAM_HEADER "  --param=x=<1,y>  1\n", 1, "an option that cannot be read");
	want_bad(PARAM_HEADER "  --param=x=<1>  1\n", 1, "an option that cannot be read");
	want_bad(OPT_HEADER, 1, "--help=params: line 1: not the listing's header");
	/* Hand-made files: one option twice; a listing cut short. */
	text = fixture("bad-twice.optimizers");
	want_bad(text, 0, "line 4: an option listed twice: '  -ftree-ch");
	free(text);
	text = fixture("bad-cut.params");
	want_bad(text, 1, "--help=params: line 3: an option that cannot be read: '  --param=align-threshold=<1,6'");
	free(text);
}

static void test_gccspace__states_and_names(void **state)
{
	struct gccspace g = GCCSPACE_INIT;
	char *size;

	assert_int_equal(gccspace_build(&g, OPT_HEADER
					"  -O<number>\n"
					"  -fno-foo                  [enabled]\n"
					"  -fno-bar                  [disabled]\n"
					"  -mno-baz                  \n"
					"  -mqux                     [default]\n"
					"  -fa-b                     [disabled]\n"
					"  -fa_b                     [disabled]\n"
					"  -fa.b                     [disabled]\n"
					"  -falign-loops=            8\n"
					"  -fx=[p|q|p|r]             r\n"
					"  -fy=[only]                only\n"
					"  -fz=<0,2>                 2\n"
					"\n",
					NULL, NULL),
			 0);
	check_shape(&g, "-O2", &size);
	free(size);
	want_dim(&g, "foo", "", "-ffoo", NULL);
	want_dim(&g, "bar", "", "-fno-bar", NULL);
	want_dim(&g, "m_baz", "", "-mbaz", "-mno-baz", NULL);
	want_dim(&g, "m_qux", "", "-mqux", "-mno-qux", NULL);
	want_dim(&g, "a_b", "", "-fa-b", NULL);
	want_dim(&g, "a_b_2", "", "-fa_b", NULL);
	want_dim(&g, "a_b_3", "", "-fa.b", NULL);
	/* An alignment value without its switch's line: the state unknown. */
	want_dim(&g, "align_loops", "", "-fno-align-loops", "-falign-loops=16",
		 "-falign-loops=32", "-falign-loops=64", NULL);
	want_dim(&g, "x", "", "-fx=p", "-fx=q", NULL);
	want_left(&g, "-fy=", GCCSPACE_VALUE);
	want_left(&g, "-fz=", GCCSPACE_VALUE);
	assert_int_equal(g.nleft, 2);
	gccspace_release(&g);
}

static void test_gccspace__yaml(void **state)
{
	char *names[] = { "opt", "tree_ch", "odd" };
	char *v0[] = { "-O2" }, *v1[] = { "", "-fno-tree-ch" },
	     *v2[] = { "", "-falign-jumps=16:11:8", "a b", "on", "-", "q\"\\", "t\tx", "-fx=[a]" };
	struct gccspace_dim dims[] = {
		{ .name = names[0], .values = v0, .nvalues = 1 },
		{ .name = names[1], .values = v1, .nvalues = 2 },
		{ .name = names[2], .values = v2, .nvalues = ARRAY_SIZE(v2) },
	};
	struct gccspace g = { .dims = dims, .ndims = 3 };
	char *y = gccspace_yaml(&g);

	assert_string_equal(y, "space:\n"
			       "  opt: [-O2]\n"
			       "  tree_ch: [\"\", -fno-tree-ch]\n"
			       "  odd: [\"\", \"-falign-jumps=16:11:8\", \"a b\", \"on\", \"-\", "
			       "\"q\\\"\\\\\", \"t\\x09x\", \"-fx=[a]\"]\n");
	free(y);
}

static void want_splice(const char *study, const char *want)
{
	char *out = NULL;

	if (gccspace_splice(&out, study, "space:\n  x: [\"\", -fx]\n") < 0)
		fail_msg("'%s': %s", study, tn_errmsg());
	assert_string_equal(out, want);
	free(out);
}

static void test_gccspace__splice(void **state)
{
	char *out = (char *)"unset";

	want_splice("study: a\nspace:\n  opt: [-O1, -O2]\n  b: [\"\", -fb]\nbuild: {command: x}\n",
		    "study: a\nspace:\n  x: [\"\", -fx]\nbuild: {command: x}\n");
	/* Blank lines and comments inside the block go; the next key's
	 * comment and what follows stay. */
	want_splice("space:  # the flags\n\n  opt: [-O1]\n# inner\n    # deeper\n  b: [-fb]\n  # tail\n\n# "
		    "build next\nbuild: {}\n",
		    "space:\n  x: [\"\", -fx]\n  # tail\n\n# build next\nbuild: {}\n");
	want_splice("study: a\nspace: {opt: [-O1, -O2], b: [\"\", -fb]}\nbuild: {}",
		    "study: a\nspace:\n  x: [\"\", -fx]\nbuild: {}");
	want_splice("study: a\nspace:\n  opt: [-O1]", "study: a\nspace:\n  x: [\"\", -fx]\n");
	/* "spaces:" and an indented "space:" are not the study's space. */
	want_splice("spaces: 1\nx:\n  space: 2\nspace:\n  a: [b]\n",
		    "spaces: 1\nx:\n  space: 2\nspace:\n  x: [\"\", -fx]\n");
	assert_int_equal(gccspace_splice(&out, "study: a\nbuild: {}\n", "space:\n"), -1);
	assert_null(out);
	assert_non_null(strstr(tn_errmsg(), "no top-level 'space:'"));
	assert_int_equal(gccspace_splice(&out, "space: {a: [b,\n  c]}\n", "space:\n"), -1);
	assert_non_null(strstr(tn_errmsg(), "over several lines"));
	assert_int_equal(gccspace_splice(&out, "space: 3\n", "space:\n"), -1);
	assert_non_null(strstr(tn_errmsg(), "not a mapping"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gccspace__x86_64_O2),
		cmocka_unit_test(test_gccspace__x86_64_Os),
		cmocka_unit_test(test_gccspace__arm),
		cmocka_unit_test(test_gccspace__mips_target_switch),
		cmocka_unit_test(test_gccspace__unsafe),
		cmocka_unit_test(test_gccspace__params),
		cmocka_unit_test(test_gccspace__param_sample),
		cmocka_unit_test(test_gccspace__globs),
		cmocka_unit_test(test_gccspace__exclude_only),
		cmocka_unit_test(test_gccspace__levels),
		cmocka_unit_test(test_gccspace__malformed),
		cmocka_unit_test(test_gccspace__states_and_names),
		cmocka_unit_test(test_gccspace__yaml),
		cmocka_unit_test(test_gccspace__splice),
	};
	return cmocka_run_group_tests_name("gccspace", tests, NULL, NULL);
}
