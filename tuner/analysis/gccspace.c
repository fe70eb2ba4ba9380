/* SPDX-License-Identifier: GPL-2.0-or-later */
/* gccspace: GCC's optimisation switches as a space (see gccspace.h). */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gccspace_priv.h"
#include "tuner/gccspace.h"
#include "tuner/gccopt.h"
#include "tuner/util.h"

static const char *const why_text[GCCSPACE_NWHY] = {
	[GCCSPACE_FLOAT] = "floating-point semantics (the -ffast-math family)",
	[GCCSPACE_LANGUAGE] = "what the language allows (aliasing, overflow, null pointers)",
	[GCCSPACE_INTERFACE] = "ABI, data layout, linking and the frame",
	[GCCSPACE_EXCEPTIONS] = "exceptions and unwind tables",
	[GCCSPACE_HARDENING] = "stack protection, checks and hardening",
	[GCCSPACE_INSTRUMENT] = "profiles, sanitizers and instrumentation",
	[GCCSPACE_MEMORY] = "stores, loads or calls the source does not make",
	[GCCSPACE_NOCODE] = "reports and debug information, not code",
	[GCCSPACE_OTHER_LANG] = "not for C",
	[GCCSPACE_ALIAS] = "another name of a listed option",
	[GCCSPACE_VALUE] = "a value with no sensible list (a number, a name)",
	[GCCSPACE_IGNORED] = "ignored at this level",
	[GCCSPACE_CONFLICT] = "an error beside another dimension's value",
	[GCCSPACE_PARAM_NOCODE] = "params for no code of the build (analyzer, sanitizers, C++, LTO, "
				  "OpenACC, warnings, debug information, the compiler's memory)",
	[GCCSPACE_NO_SAMPLE] = "params whose default (0: often off or computed; -1: unset) has no "
			       "multiple to try",
	[GCCSPACE_EXCLUDED] = "--exclude",
	[GCCSPACE_NOT_ONLY] = "not matched by --only",
};

const char *gccspace_why_text(enum gccspace_why why)
{
	return (unsigned)why < GCCSPACE_NWHY ? why_text[why] : "?";
}

/*
 * The families left out, as globs over an option's positive form
 * ("-fno-X" is matched as "-fX"). The first match decides. Why each is
 * out: docs/space.md.
 */
struct family {
	const char *glob;
	enum gccspace_why why;
};

static const struct family switch_families[] = {
	/* Results, exceptions, errno and rounding of floating point. */
	{ "-fassociative-math", GCCSPACE_FLOAT },
	{ "-freciprocal-math", GCCSPACE_FLOAT },
	{ "-ffinite-math-only", GCCSPACE_FLOAT },
	{ "-fsigned-zeros", GCCSPACE_FLOAT },
	{ "-ftrapping-math", GCCSPACE_FLOAT },
	{ "-funsafe-math-optimizations", GCCSPACE_FLOAT },
	{ "-fmath-errno", GCCSPACE_FLOAT },
	{ "-frounding-math", GCCSPACE_FLOAT },
	{ "-fsignaling-nans", GCCSPACE_FLOAT },
	{ "-fcx-limited-range", GCCSPACE_FLOAT },
	{ "-fcx-fortran-rules", GCCSPACE_FLOAT },
	{ "-fexcess-precision", GCCSPACE_FLOAT },
	{ "-ffp-contract", GCCSPACE_FLOAT },
	{ "-fpermitted-flt-eval-methods", GCCSPACE_FLOAT },
	{ "-ffast-math", GCCSPACE_FLOAT },
	{ "-ffloat-store", GCCSPACE_FLOAT },
	{ "-fsingle-precision-constant", GCCSPACE_FLOAT },
	{ "-ffp-int-builtin-inexact", GCCSPACE_FLOAT },
	/* The ABI: before -fstrict-* below. */
	{ "-fstrict-volatile-bitfields", GCCSPACE_INTERFACE },
	/* What a program may do and still be defined: code that kernels
	 * write on purpose (they build with -fno-strict-aliasing,
	 * -fno-strict-overflow, -fno-delete-null-pointer-checks). */
	{ "-fstrict-*", GCCSPACE_LANGUAGE },
	{ "-fipa-strict-aliasing", GCCSPACE_LANGUAGE },
	{ "-fwrapv", GCCSPACE_LANGUAGE },
	{ "-fwrapv-pointer", GCCSPACE_LANGUAGE },
	{ "-ftrapv", GCCSPACE_LANGUAGE },
	{ "-fdelete-null-pointer-checks", GCCSPACE_LANGUAGE },
	{ "-fisolate-erroneous-paths-*", GCCSPACE_LANGUAGE },
	{ "-ffinite-loops", GCCSPACE_LANGUAGE },
	{ "-flifetime-dse", GCCSPACE_LANGUAGE },
	/* How the code meets other code, debuggers and unwinders. */
	{ "-fshort-enums", GCCSPACE_INTERFACE },
	{ "-fshort-wchar", GCCSPACE_INTERFACE },
	{ "-fpack-struct", GCCSPACE_INTERFACE },
	{ "-freg-struct-return", GCCSPACE_INTERFACE },
	{ "-fpcc-struct-return", GCCSPACE_INTERFACE },
	{ "-fcommon", GCCSPACE_INTERFACE },
	{ "-fleading-underscore", GCCSPACE_INTERFACE },
	{ "-fplt", GCCSPACE_INTERFACE },
	{ "-fsemantic-interposition", GCCSPACE_INTERFACE },
	{ "-fpic", GCCSPACE_INTERFACE },
	{ "-fPIC", GCCSPACE_INTERFACE },
	{ "-fpie", GCCSPACE_INTERFACE },
	{ "-fPIE", GCCSPACE_INTERFACE },
	{ "-fomit-frame-pointer", GCCSPACE_INTERFACE },
	{ "-fsplit-stack", GCCSPACE_INTERFACE },
	{ "-fcheck-new", GCCSPACE_INTERFACE },
	{ "-fthreadsafe-statics", GCCSPACE_INTERFACE },
	{ "-fexceptions", GCCSPACE_EXCEPTIONS },
	{ "-fnon-call-exceptions", GCCSPACE_EXCEPTIONS },
	{ "-fdelete-dead-exceptions", GCCSPACE_EXCEPTIONS },
	{ "-funwind-tables", GCCSPACE_EXCEPTIONS },
	{ "-fasynchronous-unwind-tables", GCCSPACE_EXCEPTIONS },
	{ "-fstack-protector*", GCCSPACE_HARDENING },
	{ "-fstack-check", GCCSPACE_HARDENING },
	{ "-fstack-clash-protection", GCCSPACE_HARDENING },
	{ "-fharden-*", GCCSPACE_HARDENING },
	{ "-ftrivial-auto-var-init", GCCSPACE_HARDENING },
	{ "-fzero-call-used-regs", GCCSPACE_HARDENING },
	{ "-fcf-protection", GCCSPACE_HARDENING },
	{ "-fprofile*", GCCSPACE_INSTRUMENT },
	{ "-fbranch-probabilities", GCCSPACE_INSTRUMENT },
	{ "-fvpt", GCCSPACE_INSTRUMENT },
	{ "-fauto-profile", GCCSPACE_INSTRUMENT },
	{ "-ftest-coverage", GCCSPACE_INSTRUMENT },
	{ "-fsanitize*", GCCSPACE_INSTRUMENT },
	{ "-finstrument*", GCCSPACE_INSTRUMENT },
	{ "-fpatchable-function-entry", GCCSPACE_INSTRUMENT },
	/* A data race on a store the source did not make (the kernel builds
	 * with --param=allow-store-data-races=0), a load hoisted above the
	 * check that guarded it, a libatomic call a kernel has no library
	 * for. */
	{ "-fallow-store-data-races", GCCSPACE_MEMORY },
	{ "-fsched-spec-load-dangerous", GCCSPACE_MEMORY },
	{ "-finline-atomics", GCCSPACE_MEMORY },
	/* Always out: gcc refuses -fno-toplevel-reorder with -fsection-anchors
	 * (which matters more: ARM turns it on at -O1 and above), and
	 * -flive-patching with -fipa-pta and other IPA switches. */
	{ "-ftoplevel-reorder", GCCSPACE_CONFLICT },
	{ "-flive-patching", GCCSPACE_CONFLICT },
	/* Always out: they change reports, not code. */
	{ "-fopt-info*", GCCSPACE_NOCODE },
	{ "-fsave-optimization-record", GCCSPACE_NOCODE },
	{ "-fvar-tracking*", GCCSPACE_NOCODE },
	{ "-fdump-*", GCCSPACE_NOCODE },
	{ "-fsyntax-only", GCCSPACE_NOCODE },
	{ "-g*", GCCSPACE_NOCODE },
};

static const struct family param_families[] = {
	{ "--param=ssp-buffer-size", GCCSPACE_HARDENING },
	{ "--param=stack-clash-protection-*", GCCSPACE_HARDENING },
	{ "--param=constructive-interference-size", GCCSPACE_INTERFACE },
	{ "--param=destructive-interference-size", GCCSPACE_INTERFACE },
	{ "--param=analyzer-*", GCCSPACE_PARAM_NOCODE },
	{ "--param=asan-*", GCCSPACE_PARAM_NOCODE },
	{ "--param=hwasan-*", GCCSPACE_PARAM_NOCODE },
	{ "--param=tsan-*", GCCSPACE_PARAM_NOCODE },
	{ "--param=use-after-scope-*", GCCSPACE_PARAM_NOCODE },
	{ "--param=cxx-*", GCCSPACE_PARAM_NOCODE },
	{ "--param=lazy-modules", GCCSPACE_PARAM_NOCODE },
	{ "--param=use-canonical-types", GCCSPACE_PARAM_NOCODE },
	{ "--param=lto-*", GCCSPACE_PARAM_NOCODE },
	{ "--param=openacc-*", GCCSPACE_PARAM_NOCODE },
	{ "--param=parloops-*", GCCSPACE_PARAM_NOCODE },
	{ "--param=tm-*", GCCSPACE_PARAM_NOCODE },
	{ "--param=ggc-*", GCCSPACE_PARAM_NOCODE },
	{ "--param=integer-share-limit", GCCSPACE_PARAM_NOCODE },
	{ "--param=hash-table-verification-limit", GCCSPACE_PARAM_NOCODE },
	{ "--param=*-debug", GCCSPACE_PARAM_NOCODE },
	{ "--param=max-vartrack-*", GCCSPACE_PARAM_NOCODE },
	{ "--param=max-debug-marker-count", GCCSPACE_PARAM_NOCODE },
	{ "--param=min-nondebug-insn-uid", GCCSPACE_PARAM_NOCODE },
	{ "--param=profile-func-internal-id", GCCSPACE_PARAM_NOCODE },
	{ "--param=graphite-allow-codegen-errors", GCCSPACE_PARAM_NOCODE },
	{ "--param=gimple-fe-computed-hot-bb-threshold", GCCSPACE_PARAM_NOCODE },
	{ "--param=uninit-*", GCCSPACE_PARAM_NOCODE },
	{ "--param=min-pagesize", GCCSPACE_PARAM_NOCODE },
};

/* The first line of each listing (gcc in the C locale). */
#define OPT_HEADER "The following options control optimizations:"
#define PARAM_HEADER "The following options control parameters:"

/* ---- Names ---- */

/* "-fno-X" -> "-fX", "-mno-X" -> "-mX"; others as they are. Caller frees. */
static char *positive(const char *option, size_t len)
{
	if (len > 4 && option[0] == '-' && (option[1] == 'f' || option[1] == 'm') &&
	    gccspace_starts(option + 2, "no-"))
		return xasprintf("-%c%.*s", option[1], (int)(len - 5), option + 5);
	return xstrndup(option, len);
}

/* The opposite of switch w (a '-', a letter, a name): "-fX" <-> "-fno-X".
 * Caller frees. */
static char *opposite(const char *w)
{
	if (gccspace_starts(w + 2, "no-"))
		return xasprintf("-%c%s", w[1], w + 5);
	return xasprintf("-%cno-%s", w[1], w + 2);
}

/* The name without its prefix: "-fno-X", "-fX", "-mno-X", "-mX",
 * "--param=X" -> X. Points into option. */
static const char *bare(const char *option)
{
	static const char *const prefixes[] = { "--param=", "-fno-", "-mno-", "-f", "-m", "-" };

	for (size_t i = 0; i < ARRAY_SIZE(prefixes); i++)
		if (gccspace_starts(option, prefixes[i]))
			return option + strlen(prefixes[i]);
	return option;
}

int gccspace_glob_match(const char *glob, const char *option)
{
	char *name = xstrndup(option, gccspace_name_len(option));
	char *pos = positive(name, strlen(name));
	int hit;

	if (glob[0] == '-')
		hit = !fnmatch(glob, name, 0) || !fnmatch(glob, pos, 0);
	else
		hit = !fnmatch(glob, bare(name), 0);
	free(pos);
	free(name);
	return hit;
}

static int family_of(enum gccspace_why *out, const struct family *f, size_t n,
		     const char *option)
{
	char *pos = positive(option, gccspace_name_len(option));
	int found = 0;

	for (size_t i = 0; i < n && !found; i++)
		if (!fnmatch(f[i].glob, pos, 0)) {
			*out = f[i].why;
			found = 1;
		}
	free(pos);
	return found;
}

/* ---- Levels and params ---- */

int gccspace_level_check(const char *level, int unsafe)
{
	static const char *const ok[] = { "-O0", "-O1", "-O2", "-O3", "-Os", "-Oz" };
	char msg[256];

	for (size_t i = 0; i < ARRAY_SIZE(ok); i++)
		if (!strcmp(level, ok[i]))
			return 0;
	if (!strcmp(level, "-Ofast") && unsafe)
		return 0;
	if (!strcmp(level, "-Ofast"))
		snprintf(msg, sizeof(msg), "-Ofast enables the -ffast-math family, which changes "
			 "results: give --unsafe to take it");
	else
		snprintf(msg, sizeof(msg), "the level is one of -O0, -O1, -O2, -O3, -Os, -Oz, "
			 "-Ofast, not '%.100s'", level);
	return tn_error_set(TN_ERR_INPUT, msg);
}

size_t gccspace_param_sample(long long out[2], long long min, long long max, long long v)
{
	long long cand[2];
	size_t n = 0;

	if (v < min || v > max || min > max)
		return 0;
	if (v == 0 && min == 0 && max == 1) {
		out[0] = 1; /* a switch that is off */
		return 1;
	}
	if (v <= 0)
		return 0;
	cand[0] = v / 2;
	cand[1] = v > LLONG_MAX / 2 ? LLONG_MAX : 2 * v;
	for (size_t i = 0; i < 2; i++) {
		long long c = cand[i] < min ? min : cand[i] > max ? max : cand[i];

		if (c == v || (n && out[0] == c))
			continue;
		out[n++] = c;
	}
	return n;
}

/* ---- Building ---- */

struct builder {
	struct gccspace *g;
	size_t dalloc, lalloc;
	const struct gccspace_opts *o;
	const char *level;
};

static void leave_out(struct builder *b, const char *option, enum gccspace_why why)
{
	ALLOC_GROW(b->g->left, b->g->nleft + 1, b->lalloc);
	b->g->left[b->g->nleft].option = xstrdup(option);
	b->g->left[b->g->nleft++].why = why;
}

static int name_taken(const struct gccspace *g, const char *name)
{
	for (size_t i = 0; i < g->ndims; i++)
		if (!strcmp(g->dims[i].name, name))
			return 1;
	return 0;
}

/* The dimension's name of option (see gccspace.h). Caller frees. */
static char *dim_name(const struct gccspace *g, const char *option, enum gccspace_kind kind)
{
	struct strbuf sb = STRBUF_INIT;
	char *base, *name;

	if (kind == GCCSPACE_PARAM)
		strbuf_addstr(&sb, "param_");
	else if (gccspace_starts(option, "-m"))
		strbuf_addstr(&sb, "m_");
	for (const char *p = bare(option); p < option + gccspace_name_len(option); p++)
		strbuf_addch(&sb, isalnum((unsigned char)*p) ? *p : '_');
	base = strbuf_detach(&sb);
	name = xstrdup(base);
	for (unsigned k = 2; name_taken(g, name); k++) {
		free(name);
		name = xasprintf("%s_%u", base, k);
	}
	free(base);
	return name;
}

struct values {
	char **v;
	size_t n, alloc;
};

static void values_add(struct values *v, char *s)
{
	ALLOC_GROW(v->v, v->n + 1, v->alloc);
	v->v[v->n++] = s;
}

static void values_release(struct values *v)
{
	for (size_t i = 0; i < v->n; i++)
		free(v->v[i]);
	free(v->v);
}

/* Whether e goes on to be a dimension; if not, it is left out with why. */
static int wanted(struct builder *b, const struct gccspace_entry *e, const char *option,
		  const struct family *fam, size_t nfam)
{
	enum gccspace_why why;
	int only = !b->o->nonly;

	if (e->st == ST_ELSEWHERE || e->st == ST_ALIAS) {
		leave_out(b, option, e->st == ST_ALIAS ? GCCSPACE_ALIAS : GCCSPACE_OTHER_LANG);
		return 0;
	}
	if (family_of(&why, fam, nfam, option) && !(why <= GCCSPACE_UNSAFE_LAST && b->o->unsafe)) {
		leave_out(b, option, why);
		return 0;
	}
	for (size_t i = 0; i < b->o->nexclude; i++)
		if (gccspace_glob_match(b->o->exclude[i], option)) {
			leave_out(b, option, GCCSPACE_EXCLUDED);
			return 0;
		}
	for (size_t i = 0; i < b->o->nonly && !only; i++)
		only = gccspace_glob_match(b->o->only[i], option);
	if (!only)
		leave_out(b, option, GCCSPACE_NOT_ONLY);
	return only;
}

/* "PREFIX" + each choice of spec "[a|b|c]" but dflt. */
static void add_choices(struct values *v, const char *prefix, const char *spec, const char *dflt)
{
	const char *p = spec + 1, *end = spec + strlen(spec) - 1;

	while (p < end) {
		size_t len = strcspn(p, "|]");

		if (len && (strlen(dflt) != len || memcmp(p, dflt, len)))
			values_add(v, xasprintf("%s%.*s", prefix, (int)len, p));
		p += len + 1;
	}
}

static int is_align(const char *option)
{
	static const char *const names[] = { "-falign-functions", "-falign-jumps", "-falign-loops",
					     "-falign-labels" };

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(option, names[i]))
			return 1;
	return 0;
}

/* The alignments tried: a fetch block, the I-cache line of the
 * Cortex-A9 and the 1004K, x86's cache line (docs/space.md). */
static const char *const align_to[] = { "16", "32", "64" };

static void add_align(struct values *v, const char *option, const struct gccspace_entry *sw,
		      const struct gccspace_entry *val)
{
	const char *dflt = val && val->st == ST_VALUE ? val->value : "";

	if (!sw || sw->st != ST_OFF)
		values_add(v, opposite(option));
	for (size_t i = 0; i < ARRAY_SIZE(align_to); i++)
		if (strcmp(dflt, align_to[i]))
			values_add(v, xasprintf("%s=%s", option, align_to[i]));
}

/*
 * Adds a dimension of option with values v (v->v[0] is ""), less the
 * values gcc is predicted to ignore at the level; left out when there is
 * nothing to vary. Takes v's strings.
 */
static int listed(char *const *v, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i], s))
			return 1;
	return 0;
}

static void add_dim(struct builder *b, const char *option, enum gccspace_kind kind,
		    struct values *v)
{
	struct gccspace_dim *d;
	size_t kept = 1, ignored_any = 0;

	for (size_t i = 1; i < v->n; i++) {
		char *flags = xasprintf("%s %s", b->level, v->v[i]), *ignored = NULL;

		free(gccopt_predicted(flags, &ignored));
		ignored_any += *ignored != 0;
		if (*ignored || listed(v->v, kept, v->v[i]))
			free(v->v[i]);
		else
			v->v[kept++] = v->v[i];
		free(ignored);
		free(flags);
	}
	v->n = kept;
	if (kept < 2) {
		leave_out(b, option, ignored_any ? GCCSPACE_IGNORED : GCCSPACE_VALUE);
		values_release(v);
		return;
	}
	ALLOC_GROW(b->g->dims, b->g->ndims + 1, b->dalloc);
	d = &b->g->dims[b->g->ndims];
	d->name = dim_name(b->g, option, kind);
	d->option = xstrdup(option);
	d->kind = kind;
	d->values = v->v;
	d->nvalues = v->n;
	b->g->ndims++;
	b->g->nswitch += kind == GCCSPACE_SWITCH;
	b->g->nparam += kind == GCCSPACE_PARAM;
}

static void add_switch(struct builder *b, const struct gccspace_listing *l,
		       const struct gccspace_entry *e)
{
	struct values v = { 0 };
	char *option = xasprintf("%s%s", e->option, e->eq ? "=" : "");

	if (gccspace_starts(e->option, "-O"))
		goto out; /* the levels */
	if (is_align(e->option) && e->eq && gccspace_find_entry(l, e->option, 0))
		goto out; /* the switch's line made the dimension */
	if (!wanted(b, e, option, switch_families, ARRAY_SIZE(switch_families)))
		goto out;
	values_add(&v, xstrdup(""));
	if (is_align(e->option)) {
		free(option);
		option = xstrdup(e->option);
		add_align(&v, e->option, gccspace_find_entry(l, e->option, 0),
			  gccspace_find_entry(l, e->option, 1));
	} else if (!e->eq && e->st == ST_LATER) {
		char *pos = positive(e->option, strlen(e->option));

		values_add(&v, pos);
		values_add(&v, opposite(pos));
	} else if (!e->eq && (e->st == ST_ON || e->st == ST_OFF)) {
		values_add(&v, e->st == ST_ON ? opposite(e->option) : xstrdup(e->option));
	} else if (e->spec[0] == '[') {
		add_choices(&v, option, e->spec, e->value);
	}
	add_dim(b, option, GCCSPACE_SWITCH, &v);
out:
	free(option);
}

static void add_param(struct builder *b, const struct gccspace_entry *e)
{
	struct values v = { 0 };
	char *prefix = xasprintf("%s=", e->option);
	long long min = 0, max = INT_MAX, dflt, out[2];
	size_t n;

	if (!wanted(b, e, e->option, param_families, ARRAY_SIZE(param_families)))
		goto out;
	values_add(&v, xstrdup(""));
	if (e->spec[0] == '[') {
		add_choices(&v, prefix, e->spec, e->value);
	} else if (e->st == ST_VALUE && !gccspace_parse_ll(&dflt, e->value, strlen(e->value))) {
		if (e->spec[0] == '<')
			gccspace_parse_range(&min, &max, e->spec);
		n = gccspace_param_sample(out, min, max, dflt);
		if (!n) {
			leave_out(b, e->option, GCCSPACE_NO_SAMPLE);
			values_release(&v);
			goto out;
		}
		for (size_t i = 0; i < n; i++)
			values_add(&v, xasprintf("%s%lld", prefix, out[i]));
	}
	add_dim(b, e->option, GCCSPACE_PARAM, &v);
out:
	free(prefix);
}

int gccspace_build(struct gccspace *out, const char *optimizers, const char *params,
		   const struct gccspace_opts *opts)
{
	static const struct gccspace_opts none = GCCSPACE_OPTS_INIT;
	struct builder b = { .g = out, .o = opts ? opts : &none };
	struct gccspace_listing sw = { 0 }, pa = { 0 };
	struct values level = { 0 };
	int ret = -1;

	memset(out, 0, sizeof(*out));
	b.level = b.o->level ? b.o->level : "-O2";
	if (gccspace_level_check(b.level, b.o->unsafe) < 0)
		goto out;
	if (gccspace_read_listing(&sw, optimizers, OPT_HEADER, "--help=optimizers", 0) < 0)
		goto out;
	if (params && gccspace_read_listing(&pa, params, PARAM_HEADER, "--help=params", 1) < 0)
		goto out;
	/* The level itself, one value: the switches' "" stands for it. */
	values_add(&level, xstrdup(b.level));
	ALLOC_GROW(out->dims, 1, b.dalloc);
	out->dims[0] = (struct gccspace_dim){ .name = xstrdup("opt"), .option = xstrdup(b.level),
					      .kind = GCCSPACE_LEVEL, .values = level.v,
					      .nvalues = 1 };
	out->ndims = 1;
	for (size_t i = 0; i < sw.n; i++)
		add_switch(&b, &sw, &sw.e[i]);
	for (size_t i = 0; i < pa.n; i++)
		add_param(&b, &pa.e[i]);
	ret = 0;
out:
	gccspace_listing_release(&sw);
	gccspace_listing_release(&pa);
	return ret;
}

void gccspace_release(struct gccspace *g)
{
	for (size_t i = 0; i < g->ndims; i++) {
		for (size_t k = 0; k < g->dims[i].nvalues; k++)
			free(g->dims[i].values[k]);
		free(g->dims[i].values);
		free(g->dims[i].name);
		free(g->dims[i].option);
	}
	for (size_t i = 0; i < g->nleft; i++)
		free(g->left[i].option);
	free(g->dims);
	free(g->left);
	memset(g, 0, sizeof(*g));
}
