/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mkapps: invents natbench's application protocols and writes, for the
 * same grammars, the fast-path parsers and the generator's tables.
 *
 *   mkapps OUTDIR NAPPS NFILES
 *
 * writes OUTDIR/fp_app0.c .. fp_app<NFILES-1>.c (one parser per direction
 * of each application, specialised to its grammar), OUTDIR/fp_apps.c (the
 * helper registry and the port lookup) and OUTDIR/apps_tab.c (the grammars
 * as data, see apps.h). Deterministic: a fixed seed, no input, so every
 * build of a revision parses the same protocols.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

#include "mkapps.h"

/* Skew of the applications' shares of new flows (Zipf exponent). */
#define ZIPF_S 0.7

struct app apps[MAX_APPS];
int napps;
static uint64_t rng_state = 0x6e617462656e6368ull;  /* "natbench" */

static uint32_t rnd(void)
{
	/* splitmix64 */
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return (uint32_t)((z ^ (z >> 31)) >> 32);
}

static int range(int lo, int hi)
{
	return lo + (int)(rnd() % (uint32_t)(hi - lo + 1));
}

static void make_word(char *w, int upper, int minlen, int maxlen, int dash)
{
	static const char *const syl[] = {
		"ka", "to", "ri", "mu", "se", "lo", "na", "vi", "de", "po",
		"gu", "fe", "xa", "bo", "ty", "ce", "ha", "ju", "qi", "we",
	};
	int len = range(minlen, maxlen), k = 0;

	while (k < len) {
		const char *s = syl[rnd() % 20];

		if (dash && k > 2 && k < len - 2 && rnd() % 4 == 0)
			w[k++] = '-';
		w[k++] = s[0];
		if (k < len)
			w[k++] = s[1];
	}
	w[k] = 0;
	if (upper) {
		for (k = 0; w[k]; k++)
			if (w[k] >= 'a' && w[k] <= 'z')
				w[k] = (char)(w[k] - 32);
	}
}

static int word_taken(const struct field *f, int upto, const char *w)
{
	int i;

	for (i = 0; i < upto; i++)
		if (!strcmp(f->words[i], w))
			return 1;
	return 0;
}

static int set_taken(const uint8_t *set, int upto, uint8_t v)
{
	int i;

	for (i = 0; i < upto; i++)
		if (set[i] == v)
			return 1;
	return 0;
}

static void fill_set(struct field *f, int n, uint32_t mod)
{
	int i;

	f->n = n;
	for (i = 0; i < n; i++) {
		uint8_t v;

		do
			v = (uint8_t)(rnd() % mod);
		while (set_taken(f->set, i, v));
		f->set[i] = v;
		f->act[i] = range(0, 4);
		f->actc[i] = rnd();
	}
}

static void make_field(struct field *f, int kind)
{
	int i;

	memset(f, 0, sizeof(*f));
	f->kind = kind;
	f->hash = range(0, 3);
	f->actc[0] = rnd();
	switch (kind) {
	case FK_MAGIC:
		f->n = range(1, 4);
		f->val = rnd() & (f->n == 4 ? 0xffffffffu : (1u << (8 * f->n)) - 1);
		break;
	case FK_ENUM8:
		fill_set(f, range(2, 6), 256);
		break;
	case FK_LEN16:
		f->lo = range(0, 8);
		f->hi = f->lo + range(4, 48);
		f->cls = range(0, CC_NCLASSES - 1);
		break;
	case FK_ID32:
		f->aux = 0;
		for (i = 0; i < 10; i++)
			f->aux |= 1u << (rnd() % 32);
		f->val = rnd() & f->aux;
		break;
	case FK_LSTR:
		f->lo = range(1, 4);
		f->hi = f->lo + range(2, 20);
		f->cls = range(0, CC_PRINT);
		break;
	case FK_TLV:
		fill_set(f, range(2, 5), 200);
		for (i = 0; i < f->n; i++)
			f->kinds[i] = (uint8_t)range(0, TV_NKINDS - 1);
		f->lo = range(1, 3);
		f->hi = f->lo + range(0, 4);
		f->val = (uint32_t)range(256, 8192);
		break;
	case FK_TOKEN:
		f->n = range(2, 6);
		for (i = 0; i < f->n; i++) {
			do
				make_word(f->words[i], 1, 3, 7, 0);
			while (word_taken(f, i, f->words[i]));
			f->act[i] = range(0, 4);
			f->actc[i] = rnd();
		}
		break;
	case FK_HDRS:
		f->n = range(3, 6);
		for (i = 0; i < f->n; i++) {
			do
				make_word(f->words[i], 0, 4, 12, 1);
			while (word_taken(f, i, f->words[i]));
			f->kinds[i] = (uint8_t)range(HV_NUMBER, HV_TOKEN);
			f->actc[i] = rnd();
		}
		f->lo = range(1, 3);
		f->hi = f->lo + range(1, 4);
		break;
	case FK_VARINT:
		f->lo = range(0, 300);
		f->hi = f->lo + range(10, 60000);
		break;
	case FK_BITS8:
		f->val = rnd() & 3;
		fill_set(f, range(2, 5), 8);
		break;
	case FK_SUM8:
		f->aux = rnd() & 1;
		break;
	case FK_U16R:
		f->lo = range(0, 30000);
		f->hi = f->lo + range(16, 30000);
		break;
	default:
		break;
	}
}

static void make_msg(struct msg *m, int text, int alg)
{
	int n = 0, k, extra;
	static const int bin_mid[] = { FK_TLV, FK_LSTR, FK_VARINT, FK_LEN16,
				       FK_ENUM8, FK_U16R, FK_ID32, FK_TLV };

	if (text) {
		make_field(&m->f[n++], FK_TOKEN);
		make_field(&m->f[n++], FK_LSTR);
		if (rnd() % 2)
			make_field(&m->f[n++], FK_TOKEN);
		make_field(&m->f[n++], FK_HDRS);
		if (rnd() % 2)
			make_field(&m->f[n++], FK_LEN16);
	} else {
		make_field(&m->f[n++], FK_MAGIC);
		make_field(&m->f[n++], rnd() % 2 ? FK_BITS8 : FK_ENUM8);
		make_field(&m->f[n++], FK_U16R);
		make_field(&m->f[n++], FK_ID32);
		extra = range(3, 7);
		for (k = 0; k < extra; k++)
			make_field(&m->f[n++], bin_mid[rnd() % 8]);
	}
	if (alg)
		make_field(&m->f[n++], FK_ADDR);
	if (!text && rnd() % 3 == 0)
		make_field(&m->f[n++], FK_SUM8);
	m->nfields = n;
}

static void make_tracker(struct app *a)
{
	int s, k;

	a->nstates = range(3, MAX_TSTATES);
	for (s = 0; s < a->nstates; s++) {
		struct tstate *t = &a->ts[s];

		t->nrules = range(2, MAX_TRULES);
		for (k = 0; k < t->nrules; k++) {
			struct trule *r = &t->r[k];

			r->kind = range(0, 5);
			r->dir = range(0, 1);
			r->shift = range(0, 24);
			r->mask = range(1, 7);
			r->val = range(0, 255) & r->mask;
			r->next = range(0, a->nstates - 1);
			r->c = rnd();
		}
	}
}

/* Ports of the first applications are fixed: the rule set and the port
 * forwards refer to them. */
static const struct { int proto, port, kind; } fixed[] = {
	{ 6, 443, AK_BULK_DOWN }, { 17, 443, AK_UDP_STREAM },
	{ 17, 53, AK_UDP_REQRESP }, { 6, 80, AK_REQRESP },
	{ 6, 22, AK_INTERACTIVE }, { 17, 51820, AK_UDP_STREAM },
	{ 6, 993, AK_REQRESP }, { 17, 123, AK_UDP_REQRESP },
	{ 6, 5222, AK_INTERACTIVE }, { 6, 1935, AK_BULK_DOWN },
	{ 17, 3478, AK_UDP_STREAM }, { 6, 25, AK_BULK_UP },
	{ 17, 5060, AK_UDP_REQRESP }, { 6, 21, AK_REQRESP },
	{ 6, 6881, AK_BULK_UP }, { 6, 8883, AK_INTERACTIVE },
};

static int port_used(int proto, int port, int upto)
{
	int i;

	for (i = 0; i < upto; i++)
		if (apps[i].proto == proto && apps[i].port == port)
			return 1;
	return 0;
}

static void make_apps(int n)
{
	static const int kinds[] = { AK_REQRESP, AK_REQRESP, AK_REQRESP,
				     AK_UDP_REQRESP, AK_UDP_REQRESP,
				     AK_INTERACTIVE, AK_UDP_STREAM,
				     AK_BULK_DOWN, AK_BULK_UP, AK_REQRESP };
	int i, alg;

	napps = n;
	for (i = 0; i < n; i++) {
		struct app *a = &apps[i];

		if (i < (int)(sizeof(fixed) / sizeof(fixed[0]))) {
			a->proto = fixed[i].proto;
			a->port = fixed[i].port;
			a->kind = fixed[i].kind;
		} else {
			a->kind = kinds[rnd() % 10];
			a->proto = a->kind >= AK_UDP_STREAM ? 17 : 6;
			do
				a->port = range(1024, 49151);
			while (port_used(a->proto, a->port, i) ||
			       (a->port >= 33434 && a->port < 33534));
		}
		a->weight = (uint32_t)(100000.0 / pow(i + 1, ZIPF_S));
		a->dscp = rnd() % 4 == 0 ? range(8, 46) : 0;
		switch (a->kind) {
		case AK_BULK_DOWN:
		case AK_BULK_UP:
			a->rounds[0] = 1; a->rounds[1] = 3;
			a->resp[0] = 8; a->resp[1] = 40;
			a->fill[0] = 0xffff; a->fill[1] = 0xffff;
			break;
		case AK_REQRESP:
			a->rounds[0] = 2; a->rounds[1] = 8;
			a->resp[0] = 1; a->resp[1] = 3;
			a->fill[0] = 0; a->fill[1] = 600;
			break;
		case AK_INTERACTIVE:
			a->rounds[0] = 10; a->rounds[1] = 40;
			a->resp[0] = 1; a->resp[1] = 1;
			a->fill[0] = 0; a->fill[1] = 64;
			break;
		case AK_UDP_STREAM:
			a->rounds[0] = 1; a->rounds[1] = 2;
			a->resp[0] = 10; a->resp[1] = 50;
			a->fill[0] = 600; a->fill[1] = 1100;
			break;
		default:
			a->rounds[0] = 1; a->rounds[1] = 2;
			a->resp[0] = 1; a->resp[1] = 2;
			a->fill[0] = 0; a->fill[1] = 300;
			break;
		}
		a->text = a->proto == 6 ? rnd() % 2 : rnd() % 5 == 0;
		alg = a->proto == 6 ? rnd() % 6 == 0 : rnd() % 5 == 0;
		make_msg(&a->m[0], a->text, alg);
		make_msg(&a->m[1], a->text, 0);
		make_tracker(a);
	}
}

/* ---- output ---- */

FILE *out;

void emit(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(out, fmt, ap);
	va_end(ap);
}

static FILE *open_out(const char *dir, const char *name)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(1);
	}
	return f;
}

int main(int argc, char **argv)
{
	int n, files, i, k;
	char name[64];

	if (argc != 4) {
		fprintf(stderr, "usage: mkapps OUTDIR NAPPS NFILES\n");
		return 2;
	}
	n = atoi(argv[2]);
	files = atoi(argv[3]);
	if (n < 4 || n > MAX_APPS || files < 1 || files > n) {
		fprintf(stderr, "mkapps: bad NAPPS or NFILES\n");
		return 2;
	}
	make_apps(n);
	for (k = 0; k < files; k++) {
		snprintf(name, sizeof(name), "fp_app%d.c", k);
		out = open_out(argv[1], name);
		/* The #line keeps the source name the same in every build
		 * directory: PGO profiles check it. */
		emit("#line 1 \"%s\"\n"
		     "/* Generated by mkapps: application parsers, part %d. */\n"
		     "#include \"fp_int.h\"\n#include \"fp_util.h\"\n\n", name, k);
		for (i = k * n / files; i < (k + 1) * n / files; i++)
			emit_prototypes(i);
		emit("\n");
		for (i = k * n / files; i < (k + 1) * n / files; i++) {
			emit_parser(i, 0);
			emit_parser(i, 1);
			emit_tracker(i);
		}
		fclose(out);
	}
	out = open_out(argv[1], "fp_apps.c");
	emit("#line 1 \"fp_apps.c\"\n");
	emit_registry();
	fclose(out);
	out = open_out(argv[1], "apps_tab.c");
	emit_tables();
	fclose(out);
	return 0;
}
