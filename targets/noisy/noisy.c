/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * noisy: a measure command with known truth, for checking tuner's
 * statistics against ground truth.
 *
 * The true value of a configuration is BASE times the product of the
 * effects of its flags (from a truth file: "FLAG FACTOR [SIZE_FACTOR]" per
 * line, e.g. "-O3 1.02 1.10"; flags not listed have factor 1; the flag
 * "*" applies to every flag string, e.g. a truth file in a source tree
 * saying that this revision is 3% slower; '#' starts a comment line). A measurement adds, like a router does:
 *   - a layout offset per build: every (flag set, TUNER_LAYOUT_SEED) gets a
 *     fixed relative offset drawn from N(0, layout_sd), what an unrelated
 *     commit does to code layout; with --layout-key FILE the content of
 *     FILE (the built artifact) is part of that key, so any change to the
 *     artifact, even unused code, draws new offsets, as a commit does;
 *   - run noise per measurement: N(0, run_sd) relative, drawn from
 *     (seed, flag set, layout seed, TUNER_RUN, and a draw counter kept in
 *     the build directory so repeated runs with the same index differ).
 * Everything is derived from --seed, so a benchmark can repeat a whole
 * experiment exactly or vary it seed by seed.
 *
 * With --size BYTES it prints instead "size N", N = BYTES times the
 * product of the size factors, rounded: a deterministic second objective,
 * like a kernel's image size (no noise, no state).
 *
 * usage: noisy --truth FILE [--base B] [--run-sd S] [--layout-sd S]
 *              [--seed N] [--state FILE] [--size BYTES] [--layout-key FILE]
 * Reads TUNER_FLAGS, TUNER_LAYOUT_SEED, TUNER_RUN from the environment and
 * prints "value V" (or "size N").
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t mix(uint64_t h, const char *s)
{
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	}
	h ^= 0xff;
	h *= 0x100000001b3ULL;
	return h;
}

static uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A standard normal variate from state x (Box-Muller). */
static double normal(uint64_t *x)
{
	double u1 = ((double)(splitmix(x) >> 11) + 0.5) * 0x1.0p-53;
	double u2 = (double)(splitmix(x) >> 11) * 0x1.0p-53;

	return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Hash of the flag set: tokens sorted, so order does not matter. */
static uint64_t flags_hash(const char *flags)
{
	char *copy = strdup(flags), *tok[256], *save = NULL;
	size_t n = 0;
	uint64_t h = 0xcbf29ce484222325ULL;

	for (char *t = strtok_r(copy, " \t", &save); t && n < 256; t = strtok_r(NULL, " \t", &save))
		tok[n++] = t;
	qsort(tok, n, sizeof(*tok), cmp_str);
	for (size_t i = 0; i < n; i++)
		h = mix(h, tok[i]);
	free(copy);
	return h;
}

/* The product of the factors (column 1: value, 2: size) of the flags in
 * the flag string. */
static double truth_factor(const char *truth, const char *flags, int column)
{
	FILE *f = fopen(truth, "r");
	char line[512], flag[256];
	double factor = 1.0, v, size;
	int got;

	if (!f) {
		perror(truth);
		exit(2);
	}
	while (fgets(line, sizeof(line), f)) {
		size = 1.0;
		got = sscanf(line, "%255s %lf %lf", flag, &v, &size);
		if (got < 2 || flag[0] == '#')
			continue;
		if (column == 2)
			v = size;
		if (!strcmp(flag, "*")) {
			factor *= v;
			continue;
		}
		/* A whole-token match in the flag string. */
		for (const char *p = flags; (p = strstr(p, flag)); p++) {
			size_t n = strlen(flag);
			if ((p == flags || p[-1] == ' ') && (p[n] == '\0' || p[n] == ' ')) {
				factor *= v;
				break;
			}
		}
	}
	fclose(f);
	return factor;
}

/* Mixes the bytes of file into h (FNV-1a). */
static uint64_t mix_file(uint64_t h, const char *file)
{
	FILE *f = fopen(file, "rb");
	int c;

	if (!f) {
		perror(file);
		exit(2);
	}
	while ((c = getc(f)) != EOF) {
		h ^= (unsigned char)c;
		h *= 0x100000001b3ULL;
	}
	fclose(f);
	return h;
}

/* Bumps and returns the draw counter kept in state (0 when none). */
static unsigned long next_draw(const char *state)
{
	unsigned long n = 0;
	FILE *f;

	if (!state)
		return 0;
	f = fopen(state, "r");
	if (f) {
		if (fscanf(f, "%lu", &n) != 1)
			n = 0;
		fclose(f);
	}
	f = fopen(state, "w");
	if (f) {
		fprintf(f, "%lu\n", n + 1);
		fclose(f);
	}
	return n;
}

int main(int argc, char **argv)
{
	const char *truth = NULL, *state = NULL, *layout_key = NULL;
	const char *flags = getenv("TUNER_FLAGS") ? getenv("TUNER_FLAGS") : "";
	const char *layout = getenv("TUNER_LAYOUT_SEED") ? getenv("TUNER_LAYOUT_SEED") : "0";
	const char *run = getenv("TUNER_RUN") ? getenv("TUNER_RUN") : "0";
	double base = 1000, run_sd = 0.005, layout_sd = 0.02, size = -1;
	unsigned long long seed = 1;
	uint64_t x;
	char buf[64];
	double value;

	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--truth"))
			truth = argv[i + 1];
		else if (!strcmp(argv[i], "--base"))
			base = atof(argv[i + 1]);
		else if (!strcmp(argv[i], "--run-sd"))
			run_sd = atof(argv[i + 1]);
		else if (!strcmp(argv[i], "--layout-sd"))
			layout_sd = atof(argv[i + 1]);
		else if (!strcmp(argv[i], "--seed"))
			seed = strtoull(argv[i + 1], NULL, 10);
		else if (!strcmp(argv[i], "--state"))
			state = argv[i + 1];
		else if (!strcmp(argv[i], "--size"))
			size = atof(argv[i + 1]);
		else if (!strcmp(argv[i], "--layout-key"))
			layout_key = argv[i + 1];
		else {
			fprintf(stderr, "noisy: unknown option %s\n", argv[i]);
			return 2;
		}
	}
	if (!truth) {
		fprintf(stderr, "usage: noisy --truth FILE [--base B] [--run-sd S] [--layout-sd S] [--seed N] [--state FILE] [--size BYTES] [--layout-key FILE]\n");
		return 2;
	}
	if (size >= 0) {
		printf("size %.0f\n", round(size * truth_factor(truth, flags, 2)));
		return 0;
	}
	value = base * truth_factor(truth, flags, 1);

	snprintf(buf, sizeof(buf), "%llu", seed);
	x = mix(mix(flags_hash(flags), buf), layout);
	if (layout_key)
		x = mix_file(x, layout_key);
	value *= 1.0 + layout_sd * normal(&x);

	snprintf(buf, sizeof(buf), "%lu", next_draw(state));
	x = mix(mix(x, run), buf);
	value *= 1.0 + run_sd * normal(&x);
	printf("value %.6f\n", value);
	return 0;
}
