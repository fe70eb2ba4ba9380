/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for cgmodel: the cachegrind-model parsers on hand-written
 * cachegrind outputs (exact arithmetic, every parser name, every error),
 * then on the real tool: a two-file program run under valgrind's
 * cachegrind, checked against cg_annotate's own per-file sums.
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
#include <unistd.h>

#include "tuner/cgmodel.h"
#include "tuner/util.h"

#define VALGRIND "/usr/bin/valgrind"

/*
 * A cachegrind output with the events in another order than valgrind's,
 * counts with the trailing zeros left out, counted files (fp_rx.c, fp_nat.c),
 * uncounted ones (gen.c, a file in an "fp_" directory, "???") and the
 * workload's own lines around it. Counted sums: Dr 15, D1mr 3, DLmr 1,
 * Dw 6, D1mw 2, DLmw 1, Ir 350, I1mr 12, ILmr 3.
 */
#define CG_BODY \
	"desc: I1 cache:         32768 B, 32 B, 4-way associative\n" \
	"desc: LL cache:         524288 B, 32 B, 8-way associative\n" \
	"cmd: /opt/natbench/natbench packets=1 bytes=1\n" \
	"events: Dr D1mr DLmr Dw D1mw DLmw Ir I1mr ILmr \n" \
	"fl=/src/targets/natbench/fp_rx.c\n" \
	"fn=fp_rx\n" \
	"10 5 1 0 2 1 0 100 4 1\n" \
	"11 3 0 0 1\n" \
	"fn=fp_rx_refill\n" \
	"20 0 0 0 0 0 0 50 2\n" \
	"fl=/src/targets/natbench/gen.c\n" \
	"fn=gen_packet\n" \
	"5 1000 90 9 500 40 4 9000 30 3\n" \
	"fl=fp_nat.c\n" \
	"fn=fp_snat\n" \
	"30 7 2 1 3 1 1 200 6 2\n" \
	"fl=/work/fp_lib/helper.c\n" \
	"fn=helper\n" \
	"1 1 0 0 0 0 0 7\n" \
	"fl=???\n" \
	"fn=???\n" \
	"0 0 0 0 0 0 0 11 1 1\n" \
	"summary: 1016 93 10 506 42 5 9368 43 7\n"

#define PACKETS "natbench: packets=3 bytes=192 checksum=5eed\n"

static const char doc_before[] = "natbench: seed=7\n" PACKETS CG_BODY;
static const char doc_after[] = CG_BODY "\n" PACKETS "done\n";

/* Default-model cycles of the counted files: Ir + 12 * (I1mr + D1mr + D1mw)
 * + 100 * (ILmr + DLmr + DLmw). */
#define CYCLES (350 + 12.0 * (12 + 3 + 2) + 100.0 * (3 + 1 + 1))

static void check_near(double got, double want, int line)
{
	if (!(fabs(got - want) <= 1e-12 * fmax(1, fabs(want))))
		fail_msg("line %d: got %.17g, want %.17g", line, got, want);
}
#define assert_near(got, want) check_near((got), (want), __LINE__)

/* Scores an exactly-sized malloced copy, so reading past the end is caught
 * by ASan. */
static int score(struct cg_score *out, const struct cg_model *m, const char *text, size_t len)
{
	char *copy = xmalloc(len ? len : 1);
	int ret;

	memcpy(copy, text, len);
	ret = cgmodel_score(out, m, copy, len);
	free(copy);
	return ret;
}

static void check_fails(const char *text, const char *msg, int line)
{
	struct cg_model m;
	struct cg_score s;

	cg_model_init(&m);
	tn_error_clear();
	if (score(&s, &m, text, strlen(text)) != -1)
		fail_msg("line %d: scored '%s', want failure", line, text);
	if (!strstr(tn_errmsg(), msg))
		fail_msg("line %d: message '%s', want '%s'", line, tn_errmsg(), msg);
	if (strncmp(tn_errmsg(), "cachegrind-model: ", 18) || strchr(tn_errmsg(), '\n'))
		fail_msg("line %d: message '%s' is not one prefixed line", line, tn_errmsg());
	cg_model_release(&m);
}
#define assert_fails(text, msg) check_fails((text), (msg), __LINE__)

static void check_default_score(const struct cg_score *s)
{
	assert_true(s->packets == 3);
	assert_true(s->bytes == 192);
	assert_true(s->ir == 350);
	assert_true(s->i1mr == 12);
	assert_true(s->ilmr == 3);
	assert_true(s->d1mr == 3);
	assert_true(s->d1mw == 2);
	assert_true(s->dlmr == 1);
	assert_true(s->dlmw == 1);
	assert_near(s->cycles, CYCLES);
	assert_near(s->cycles_per_packet, CYCLES / 3);
	assert_near(s->ir_per_packet, 350.0 / 3);
	assert_near(s->i1_misses_per_packet, 12.0 / 3);
	/* 192 bytes in CYCLES cycles at 1400 MHz. */
	assert_near(s->mbps, 192 * 8 / (CYCLES / 1400e6) / 1e6);
}

static void test_cgmodel__defaults(void **state)
{
	struct cg_model m;

	cg_model_init(&m);
	assert_true(m.l1_miss == CG_MODEL_L1_MISS && m.l1_miss == 12);
	assert_true(m.ll_miss == CG_MODEL_LL_MISS && m.ll_miss == 100);
	assert_true(m.clock_mhz == 1400);
	assert_string_equal(m.files, "fp_*");
	cg_model_release(&m);
	assert_null(m.files);
	cg_model_release(&m);
}

static void test_cgmodel__arithmetic(void **state)
{
	struct cg_model m;
	struct cg_score s;

	cg_model_init(&m);
	assert_int_equal(score(&s, &m, doc_before, strlen(doc_before)), 0);
	check_default_score(&s);
	memset(&s, 0, sizeof(s));
	assert_int_equal(score(&s, &m, doc_after, strlen(doc_after)), 0);
	check_default_score(&s);
	cg_model_release(&m);
}

static void test_cgmodel__model_settings(void **state)
{
	struct cg_model m;
	struct cg_score s;

	cg_model_init(&m);
	m.l1_miss = 20;
	m.ll_miss = 200;
	m.clock_mhz = 1000;
	assert_int_equal(score(&s, &m, doc_before, strlen(doc_before)), 0);
	assert_near(s.cycles, 350 + 20.0 * 17 + 200.0 * 5);
	assert_near(s.mbps, 192 * 8 * 1000.0 / (350 + 20.0 * 17 + 200.0 * 5));

	/* Only the generator: Ir 9000, L1 misses 30 + 90 + 40, LL 3 + 9 + 4. */
	free(m.files);
	m.files = xstrdup("gen.c");
	assert_int_equal(score(&s, &m, doc_before, strlen(doc_before)), 0);
	assert_true(s.ir == 9000);
	assert_near(s.cycles, 9000 + 20.0 * 160 + 200.0 * 16);

	/* Everything: the summary line. */
	free(m.files);
	m.files = xstrdup("*");
	assert_int_equal(score(&s, &m, doc_before, strlen(doc_before)), 0);
	assert_true(s.ir == 9368);
	assert_true(s.i1mr == 43);
	assert_true(s.dlmw == 5);

	/* A pattern with a directory never matches: base names only. */
	free(m.files);
	m.files = xstrdup("fp_lib/*");
	assert_int_equal(score(&s, &m, doc_before, strlen(doc_before)), -1);
	assert_string_equal(tn_errmsg(),
			    "cachegrind-model: no counted code: no file matches 'fp_lib/*'");
	cg_model_release(&m);
}

static void test_cgmodel__parser_names(void **state)
{
	static const char *const good[] = {
		"cachegrind-model", "cachegrind-model:cycles", "cachegrind-model:ir",
		"cachegrind-model:i1-misses",
	};
	static const char *const bad[] = {
		"cachegrind", "cachegrind-model:", "cachegrind-model:IR", "Cachegrind-model",
		"cachegrind-model:mbps", "cachegrind-model ", "", "number",
	};
	struct cg_model m;
	struct cg_score s;

	for (size_t i = 0; i < ARRAY_SIZE(good); i++)
		if (!cgmodel_parser_valid(good[i]))
			fail_msg("'%s' should be valid", good[i]);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		if (cgmodel_parser_valid(bad[i]))
			fail_msg("'%s' should be invalid", bad[i]);

	cg_model_init(&m);
	assert_int_equal(score(&s, &m, doc_after, strlen(doc_after)), 0);
	assert_near(cgmodel_value(&s, "cachegrind-model"), s.mbps);
	assert_near(cgmodel_value(&s, "cachegrind-model:cycles"), CYCLES / 3);
	assert_near(cgmodel_value(&s, "cachegrind-model:ir"), 350.0 / 3);
	assert_near(cgmodel_value(&s, "cachegrind-model:i1-misses"), 4);
	assert_true(isnan(cgmodel_value(&s, "number")));
	cg_model_release(&m);
}

static void test_cgmodel__line_endings(void **state)
{
	struct cg_model m;
	struct cg_score s;
	struct strbuf sb = STRBUF_INIT;
	size_t len = strlen(doc_after);

	cg_model_init(&m);
	/* CRLF everywhere. */
	for (const char *p = doc_before; *p; p++) {
		if (*p == '\n')
			strbuf_addch(&sb, '\r');
		strbuf_addch(&sb, *p);
	}
	assert_int_equal(score(&s, &m, sb.buf, sb.len), 0);
	check_default_score(&s);
	/* No final newline: the text ends right after "done". */
	assert_int_equal(score(&s, &m, doc_after, len - 1), 0);
	check_default_score(&s);
	strbuf_release(&sb);
	cg_model_release(&m);
}

#define EV "events: Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw\n"
#define FL "fl=fp_a.c\nfn=f\n"
#define PK "packets=2 bytes=128\n"

static void test_cgmodel__errors(void **state)
{
	assert_fails("", "no 'events:' line in output");
	assert_fails(PK "hello\n", "no 'events:' line in output");
	assert_fails(EV FL "1 10\nsummary: 10\n", "no line with packets= and bytes=");
	assert_fails("packets=2\n" EV FL "1 10\nsummary: 10\nbytes=5\n",
		     "no line with packets= and bytes=");
	assert_fails("packets=0 bytes=0\n" EV FL "1 10\nsummary: 10\n", "packets=0");
	assert_fails("packets=5 bytes=0\n" EV FL "1 10\nsummary: 10\n", "forwarded nothing");
	assert_fails("packets=-1 bytes=64\n" EV FL "1 10\nsummary: 10\n", "forwarded nothing");
	assert_fails("packets=many bytes=64\n" EV FL "1 10\nsummary: 10\n",
		     "line 1: packets= and bytes= want numbers: 'packets=many bytes=64'");
	assert_fails(PK EV "fl=gen.c\n1 10\nsummary: 10\n",
		     "cachegrind-model: no counted code: no file matches 'fp_*'");
	assert_fails(PK EV FL "1 0 0\nsummary:\n",
		     "no counted code: the files matching 'fp_*' ran no instructions");
	assert_fails(PK EV FL "1 10\n", "no 'summary:' line");
	assert_fails(PK EV FL "1 10\n2 5\nsummary: 10\n", "do not add up to the summary");
	assert_fails(PK EV FL "1 10\nsummary: 10\ntotals: 11\n",
		     "line 7: disagrees with the earlier summary");
	assert_fails(PK EV FL "1 10 0 0 0 0 0 0 0 0 7\nsummary: 10\n",
		     "line 5: more counts than events");
	assert_fails(PK EV FL "1 10 x\nsummary: 10\n", "line 5: not a count line: '1 10 x'");
	assert_fails(PK EV FL "100000 packets forwarded\nsummary: 10\n",
		     "line 5: not a count line");
	assert_fails(PK EV "1 10\nsummary: 10\n", "line 3: counts before any 'fl=' line");
	assert_fails(PK EV FL "1 99999999999999999999\nsummary: 10\n", "not a count line");
	assert_fails(PK EV FL "1 1\r2\tx\nsummary: 10\n", "not a count line: '1 1?2?x'");
	assert_fails(PK EV FL "1 10\nsummary: 10 x\n", "line 6: bad summary");
	assert_fails(PK FL EV "1 10\nsummary: 10\n", "line 2: 'fl=' before the 'events:' line");
	assert_fails(PK "summary: 10\n" EV, "'summary:' before the 'events:' line");
	assert_fails(PK EV FL "1 10\nsummary: 10\n" EV FL "1 10\nsummary: 10\n",
		     "line 7: a second 'events:' line");
	assert_fails(PK "events: Ir\n" FL "1 10\nsummary: 10\n",
		     "no 'I1mr' event on the 'events:' line (run cachegrind with --cache-sim=yes)");
	assert_fails(PK "events: Ir I1mr ILmr D1mr D1mw DLmr DLmw Ir\n",
		     "line 2: an event listed twice");
}

/* valgrind 3.5's names for the last-level misses. */
static void test_cgmodel__old_event_names(void **state)
{
	static const char doc[] =
		PK "events: Ir I1mr I2mr Dr D1mr D2mr Dw D1mw D2mw\n" FL
		"1 10 1 1 0 0 1 0 0 1\nsummary: 10 1 1 0 0 1 0 0 1\n";
	struct cg_model m;
	struct cg_score s;

	cg_model_init(&m);
	assert_int_equal(score(&s, &m, doc, strlen(doc)), 0);
	assert_near(s.cycles, 10 + 12.0 + 100.0 * 3);
	cg_model_release(&m);
}

/*
 * The real tool. fp_hot.c is the "fast path" (counted), gen.c the traffic
 * generator and main (not counted); ROUNDS passes over each packet let the
 * test double the fast path's work.
 */
static const char fp_hot_c[] =
	"unsigned fp_packet(const unsigned char *p, unsigned len, unsigned rounds)\n"
	"{\n"
	"	unsigned h = 5381;\n"
	"	for (unsigned r = 0; r < rounds; r++)\n"
	"		for (unsigned i = 0; i < len; i++)\n"
	"			h = h * 33 + p[i] + r;\n"
	"	return h;\n"
	"}\n";

static const char gen_c[] =
	"#include <stdio.h>\n"
	"#include <stdlib.h>\n"
	"unsigned fp_packet(const unsigned char *p, unsigned len, unsigned rounds);\n"
	"static unsigned char buf[1600];\n"
	"int main(int argc, char **argv)\n"
	"{\n"
	"	unsigned long packets = strtoul(argv[1], 0, 10), bytes = 0;\n"
	"	unsigned rounds = (unsigned)strtoul(argv[2], 0, 10);\n"
	"	unsigned seed = 7, check = 0;\n"
	"	for (unsigned long n = 0; n < packets; n++) {\n"
	"		unsigned len = 64 + (seed >> 8) % 1400;\n"
	"		for (unsigned i = 0; i < len; i++) {\n"
	"			seed = seed * 1103515245u + 12345u;\n"
	"			buf[i] = (unsigned char)(seed >> 24);\n"
	"		}\n"
	"		check ^= fp_packet(buf, len, rounds);\n"
	"		bytes += len;\n"
	"	}\n"
	"	printf(\"gen: packets=%lu bytes=%lu check=%08x\\n\", packets, bytes, check);\n"
	"	return 0;\n"
	"}\n";

static char dir[64];

static int real_setup(void **state)
{
	snprintf(dir, sizeof(dir), "/tmp/test_cgmodel.XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int real_teardown(void **state)
{
	return remove_tree(dir);
}

static void run_cmd(const char *cmd)
{
	int rc = system(cmd);

	if (rc != 0)
		fail_msg("'%s' failed (%d)", cmd, rc);
}

/* Runs the program under cachegrind with a pinned environment and the A9's
 * caches; returns its stdout followed by the output file (caller frees). */
static char *cachegrind(size_t *len, unsigned packets, unsigned rounds)
{
	char *cmd = xasprintf("cd / && env -i " VALGRIND " --tool=cachegrind --cache-sim=yes "
			      "--I1=32768,4,32 --D1=32768,4,32 --LL=524288,8,32 "
			      "--cachegrind-out-file=%s/cg.out %s/prog %u %u "
			      ">%s/stdout 2>%s/stderr", dir, dir, packets, rounds, dir, dir);
	char *path, *out, *cg;
	size_t n1, n2;

	run_cmd(cmd);
	path = xasprintf("%s/stdout", dir);
	assert_int_equal(read_file(&out, &n1, path), 0);
	free(path);
	path = xasprintf("%s/cg.out", dir);
	assert_int_equal(read_file(&cg, &n2, path), 0);
	unlink(path);
	free(path);
	out = xrealloc(out, n1 + n2 + 1);
	memcpy(out + n1, cg, n2 + 1);
	*len = n1 + n2;
	free(cg);
	free(cmd);
	return out;
}

/* cg_annotate's sums over the functions of fp_hot.c, in the order Ir I1mr
 * ILmr D1mr D1mw DLmr DLmw: an independent reading of the same file. */
static void annotate_fp_hot(double sums[7], const char *text, size_t len)
{
	char *path = xasprintf("%s/annotate.in", dir);
	char *cmd = xasprintf("cg_annotate --auto=no --threshold=0 --show-percs=no "
			      "--show=Ir,I1mr,ILmr,D1mr,D1mw,DLmr,DLmw %s", path);
	const char *cg = strstr(text, "desc:");
	char line[4096];
	FILE *f;
	int nfuncs = 0;

	assert_non_null(cg);
	assert_int_equal(write_file_atomic(path, cg, len - (size_t)(cg - text)), 0);
	memset(sums, 0, 7 * sizeof(*sums));
	f = popen(cmd, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		char *tok[9], *save = NULL;
		int n = 0;

		for (char *t = strtok_r(line, " \n", &save); t && n < 9;
		     t = strtok_r(NULL, " \n", &save))
			tok[n++] = t;
		if (n != 8 || !strstr(tok[7], "/fp_hot.c:"))
			continue;
		for (int i = 0; i < 7; i++) {
			char digits[64];
			size_t k = 0;

			for (const char *c = tok[i]; *c && k < sizeof(digits) - 1; c++)
				if (*c != ',')
					digits[k++] = *c;
			digits[k] = '\0';
			sums[i] += strtod(digits, NULL);
		}
		nfuncs++;
	}
	assert_int_equal(pclose(f), 0);
	assert_true(nfuncs >= 1);
	free(cmd);
	free(path);
}

static void test_cgmodel__real_cachegrind(void **state)
{
	struct cg_model m;
	struct cg_score s1, s2, s4, gen, all;
	double want[7];
	char *src, *cmd, *t1, *t2, *t4;
	size_t n1, n2, n4;

	if (access(VALGRIND, X_OK) != 0)
		skip();
	src = xasprintf("%s/fp_hot.c", dir);
	assert_int_equal(write_file_atomic(src, fp_hot_c, strlen(fp_hot_c)), 0);
	free(src);
	src = xasprintf("%s/gen.c", dir);
	assert_int_equal(write_file_atomic(src, gen_c, strlen(gen_c)), 0);
	free(src);
	cmd = xasprintf("cc -O2 -g -o %s/prog %s/fp_hot.c %s/gen.c", dir, dir, dir);
	run_cmd(cmd);
	free(cmd);

	cg_model_init(&m);
	t1 = cachegrind(&n1, 500, 1);
	t2 = cachegrind(&n2, 500, 1);
	t4 = cachegrind(&n4, 500, 2);
	assert_int_equal(cgmodel_score(&s1, &m, t1, n1), 0);
	assert_int_equal(cgmodel_score(&s2, &m, t2, n2), 0);
	assert_int_equal(cgmodel_score(&s4, &m, t4, n4), 0);

	/* Only fp_hot.c counted: exactly what cg_annotate gives for it. */
	annotate_fp_hot(want, t1, n1);
	assert_true(s1.ir == want[0]);
	assert_true(s1.i1mr == want[1]);
	assert_true(s1.ilmr == want[2]);
	assert_true(s1.d1mr == want[3]);
	assert_true(s1.d1mw == want[4]);
	assert_true(s1.dlmr == want[5]);
	assert_true(s1.dlmw == want[6]);
	assert_true(s1.packets == 500);
	assert_true(s1.ir > 500 * 64);
	/* The generator did as much work again, and is left out; so is the
	 * startup code of libc and the dynamic loader. */
	free(m.files);
	m.files = xstrdup("gen.c");
	assert_int_equal(cgmodel_score(&gen, &m, t1, n1), 0);
	free(m.files);
	m.files = xstrdup("*");
	assert_int_equal(cgmodel_score(&all, &m, t1, n1), 0);
	if (!(gen.ir > 0.5 * s1.ir && all.ir > s1.ir + gen.ir))
		fail_msg("Ir: fp_hot.c %g, gen.c %g, all %g", s1.ir, gen.ir, all.ir);

	/* Deterministic: the same binary twice gives the same numbers. */
	assert_true(s1.ir == s2.ir && s1.i1mr == s2.i1mr && s1.ilmr == s2.ilmr);
	assert_true(s1.d1mr == s2.d1mr && s1.d1mw == s2.d1mw);
	assert_true(s1.dlmr == s2.dlmr && s1.dlmw == s2.dlmw);
	assert_true(s1.cycles == s2.cycles && s1.mbps == s2.mbps);

	/* Twice the work per packet, about twice the instructions; same bytes. */
	assert_true(s4.bytes == s1.bytes);
	if (!(s4.ir_per_packet > 1.8 * s1.ir_per_packet &&
	      s4.ir_per_packet < 2.2 * s1.ir_per_packet))
		fail_msg("Ir/packet %g with 2 rounds, %g with 1", s4.ir_per_packet,
			 s1.ir_per_packet);
	assert_true(s4.mbps < s1.mbps);

	cg_model_release(&m);
	free(t1);
	free(t2);
	free(t4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cgmodel__defaults),
		cmocka_unit_test(test_cgmodel__arithmetic),
		cmocka_unit_test(test_cgmodel__model_settings),
		cmocka_unit_test(test_cgmodel__parser_names),
		cmocka_unit_test(test_cgmodel__line_endings),
		cmocka_unit_test(test_cgmodel__errors),
		cmocka_unit_test(test_cgmodel__old_event_names),
		cmocka_unit_test_setup_teardown(test_cgmodel__real_cachegrind, real_setup,
						real_teardown),
	};

	return cmocka_run_group_tests_name("cgmodel", tests, NULL, NULL);
}
