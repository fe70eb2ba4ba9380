/* SPDX-License-Identifier: GPL-2.0-or-later */
/* layout: see include/tuner/layout.h (builds and two-build comparison) */
#include "tuner/layout.h"

#include <dirent.h>
#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tuner/util.h"

void layout_place(struct layout_func *f, uint64_t addr, uint64_t size, unsigned line,
		  unsigned sets)
{
	uint64_t last = size ? addr + size - 1 : addr;

	f->addr = addr;
	f->size = size;
	f->offset = (unsigned)(addr % line);
	f->set = (unsigned)(addr / line % sets);
	f->lines = (unsigned)(last / line - addr / line + 1);
}

static int by_string(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int layout_list_dir(char ***out, size_t *n, const char *dir, const char *pattern)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t count = 0, alloc = 0;

	*out = NULL;
	*n = 0;
	if (!d)
		return tn_error_errno("cannot read the directory '%s'", dir);
	while ((e = readdir(d)))
		if (fnmatch(pattern, e->d_name, FNM_PERIOD) == 0) {
			ALLOC_GROW(names, count + 2, alloc);
			names[count++] = xstrdup(e->d_name);
			names[count] = NULL;
		}
	closedir(d);
	if (count)
		qsort(names, count, sizeof(*names), by_string);
	*out = names;
	*n = count;
	return 0;
}

void layout_free_names(char **names)
{
	for (char **p = names; p && *p; p++)
		free(*p);
	free(names);
}

/* Every cachegrind file of dir, averaged into out->prof. */
static int read_profiles(struct layout_build *out, const char *dir, const struct cg_model *m)
{
	char **names;
	size_t n;
	int ret = -1;

	if (layout_list_dir(&names, &n, dir, "cachegrind.out*") < 0)
		return -1;
	if (!n) {
		tn_error("no cachegrind data in '%s': the measure command must leave cachegrind's "
			 "output there, e.g. valgrind --tool=cachegrind --cache-sim=yes "
			 "--cachegrind-out-file=\"$TUNER_OUT/cachegrind.out.$TUNER_RUN\" (as "
			 "targets/natbench/score.sh does)", dir);
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		char *path = xasprintf("%s/%s", dir, names[i]);
		struct cg_profile p;
		int r = cgfunc_load(&p, m, path);

		free(path);
		if (r < 0)
			goto out;
		if (!out->runs) {
			out->prof = p;
		} else {
			cg_profile_add(&out->prof, &p);
			cg_profile_release(&p);
		}
		out->runs++;
	}
	cg_profile_scale(&out->prof, 1.0 / (double)out->runs);
	ret = 0;
out:
	layout_free_names(names);
	return ret;
}

/* The first "packets=N" token in the file at path; 0 if none. */
static double packets_in(const char *path)
{
	char *text = NULL, *p;
	size_t len;
	double v = 0;

	if (read_file(&text, &len, path) < 0) {
		tn_error_clear();
		return 0;
	}
	for (p = text; (p = strstr(p, "packets=")); p += 8) {
		char *end;
		double x;

		if (p != text && p[-1] != ' ' && p[-1] != '\t' && p[-1] != '\n')
			continue;
		x = strtod(p + 8, &end);
		if (end != p + 8 && x > 0 && isfinite(x)) {
			v = x;
			break;
		}
	}
	free(text);
	return v;
}

static double find_packets(const char *dir)
{
	static const char *const patterns[] = { "*.stdout*", "measure-*.log" };
	double v = 0;

	for (size_t k = 0; k < ARRAY_SIZE(patterns) && !v; k++) {
		char **names;
		size_t n;

		if (layout_list_dir(&names, &n, dir, patterns[k]) < 0) {
			tn_error_clear();
			continue;
		}
		for (size_t i = 0; i < n && !v; i++) {
			char *path = xasprintf("%s/%s", dir, names[i]);

			v = packets_in(path);
			free(path);
		}
		layout_free_names(names);
	}
	return v;
}

/* dir/NAME where NAME is the base name of the program on the cmd: line. */
static int artifact_from_cmd(char **out, const char *dir, const char *cmd)
{
	struct stat st;
	size_t len;
	const char *base;
	char *prog, *path;

	*out = NULL;
	if (!cmd || !*cmd)
		return tn_error("cannot tell the artifact of '%s': its cachegrind files have no "
				"cmd: line (give --artifact)", dir);
	len = strcspn(cmd, " \t");
	prog = xstrndup(cmd, len);
	base = strrchr(prog, '/');
	base = base ? base + 1 : prog;
	path = xasprintf("%s/%s", dir, base);
	free(prog);
	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode)) {
		tn_error("cannot tell the artifact of '%s': no file '%s' (the program cachegrind "
			 "ran); give --artifact", dir, path);
		free(path);
		return -1;
	}
	*out = path;
	return 0;
}

static uint64_t fingerprint(const struct layout_build *b)
{
	uint64_t h = HASH64_INIT;

	for (size_t i = 0; i < b->nsyms; i++) {
		h = hash64_str(h, b->syms[i].name);
		h = hash64(h, &b->syms[i].addr, sizeof(b->syms[i].addr));
		h = hash64(h, &b->syms[i].size, sizeof(b->syms[i].size));
	}
	return hash64(h, b->prof.total, sizeof(b->prof.total));
}

int layout_build_load(struct layout_build *out, const char *dir, const char *artifact,
		      const struct cg_model *m)
{
	int ret = -1;

	memset(out, 0, sizeof(*out));
	out->dir = xstrdup(dir);
	if (read_profiles(out, dir, m) < 0)
		goto out;
	if (artifact)
		out->artifact = xstrdup(artifact);
	else if (artifact_from_cmd(&out->artifact, dir, out->prof.cmd) < 0)
		goto out;
	if (elfsym_functions(&out->syms, &out->nsyms, out->artifact) < 0)
		goto out;
	out->i1 = out->prof.i1;
	if (!out->i1.line) {
		out->i1.size = LAYOUT_I1_SIZE;
		out->i1.line = LAYOUT_I1_LINE;
		out->i1.assoc = LAYOUT_I1_ASSOC;
	}
	out->sets = out->i1.size / (out->i1.line * out->i1.assoc);
	if (!out->sets) {
		tn_error("%s: an I1 cache of %u B with %u-B lines and %u ways has no set", dir,
			 out->i1.size, out->i1.line, out->i1.assoc);
		goto out;
	}
	out->packets = find_packets(dir);
	out->funcs = xcalloc(out->prof.nfuncs ? out->prof.nfuncs : 1, sizeof(*out->funcs));
	out->nfuncs = out->prof.nfuncs;
	for (size_t i = 0; i < out->nfuncs; i++) {
		const struct cg_func *cf = &out->prof.funcs[i];
		struct layout_func *f = &out->funcs[i];
		double per = out->packets ? out->packets : 1;

		f->name = cf->name;
		f->sym = elfsym_find(out->syms, out->nsyms, cf->name, cf->file);
		if (f->sym)
			layout_place(f, f->sym->addr, f->sym->size, out->i1.line, out->sets);
		f->ir = cf->ev[CG_IR] / per;
		f->i1mr = cf->ev[CG_I1MR] / per;
		f->cycles = cf->cycles / per;
	}
	out->fingerprint = fingerprint(out);
	ret = 0;
out:
	if (ret < 0)
		layout_build_release(out);
	return ret;
}

void layout_build_release(struct layout_build *b)
{
	if (!b)
		return;
	free(b->dir);
	free(b->artifact);
	cg_profile_release(&b->prof);
	elfsym_free(b->syms, b->nsyms);
	free(b->funcs);
	memset(b, 0, sizeof(*b));
}

const struct layout_func *layout_build_find(const struct layout_build *b, const char *name)
{
	for (size_t i = 0; i < b->nfuncs; i++)
		if (!strcmp(b->funcs[i].name, name))
			return &b->funcs[i];
	return NULL;
}

static double total_cycles(const struct layout_build *b)
{
	return b->prof.cycles / (b->packets ? b->packets : 1);
}

static int by_delta(const void *x, const void *y)
{
	const struct layout_delta *a = x, *b = y;
	double da = fabs(a->delta), db = fabs(b->delta);

	if (da != db)
		return da < db ? 1 : -1;
	return strcmp(a->name, b->name);
}

static int sym_cmp(const struct elf_func *x, const struct elf_func *y)
{
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	return strcmp(x->file ? x->file : "", y->file ? y->file : "");
}

static int by_sym_name(const void *x, const void *y)
{
	return sym_cmp(*(const struct elf_func *const *)x, *(const struct elf_func *const *)y);
}

static const struct elf_func **sorted_syms(const struct layout_build *b)
{
	const struct elf_func **v = xcalloc(b->nsyms + 1, sizeof(*v));

	for (size_t i = 0; i < b->nsyms; i++)
		v[i] = &b->syms[i];
	qsort(v, b->nsyms, sizeof(*v), by_sym_name);
	return v;
}

/*
 * Symbols present in both artifacts (same name and file): how many moved,
 * realigned, resized. A merge of the two lists sorted by name, so that a
 * kernel's 50,000 symbols cost n log n.
 */
static void count_moves(struct layout_diff *out, const struct layout_build *a,
			const struct layout_build *b)
{
	const struct elf_func **va = sorted_syms(a), **vb = sorted_syms(b);
	unsigned line = a->i1.line;
	size_t i = 0, j = 0;

	while (i < a->nsyms && j < b->nsyms) {
		int c = sym_cmp(va[i], vb[j]);

		if (c < 0) {
			i++;
		} else if (c > 0) {
			j++;
		} else {
			out->common++;
			out->moved += va[i]->addr != vb[j]->addr;
			out->realigned += va[i]->addr % line != vb[j]->addr % line;
			out->resized += va[i]->size != vb[j]->size;
			i++;
			j++;
		}
	}
	free(va);
	free(vb);
}

void layout_diff(struct layout_diff *out, const struct layout_build *a,
		 const struct layout_build *b)
{
	double total;

	memset(out, 0, sizeof(*out));
	out->rows = xcalloc(a->nfuncs + b->nfuncs + 1, sizeof(*out->rows));
	for (size_t i = 0; i < a->nfuncs; i++) {
		struct layout_delta *d = &out->rows[out->n++];

		d->name = a->funcs[i].name;
		d->a = &a->funcs[i];
		d->b = layout_build_find(b, d->name);
	}
	for (size_t i = 0; i < b->nfuncs; i++)
		if (!layout_build_find(a, b->funcs[i].name)) {
			struct layout_delta *d = &out->rows[out->n++];

			d->name = b->funcs[i].name;
			d->b = &b->funcs[i];
		}
	out->total_a = total_cycles(a);
	out->total_b = total_cycles(b);
	total = out->total_b - out->total_a;
	for (size_t i = 0; i < out->n; i++) {
		struct layout_delta *d = &out->rows[i];

		d->delta = (d->b ? d->b->cycles : 0) - (d->a ? d->a->cycles : 0);
		d->share = total != 0 ? d->delta / total : NAN;
	}
	qsort(out->rows, out->n, sizeof(*out->rows), by_delta);
	count_moves(out, a, b);
}

void layout_diff_release(struct layout_diff *d)
{
	free(d->rows);
	memset(d, 0, sizeof(*d));
}
