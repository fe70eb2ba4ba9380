/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for parse: the parsers on iperf3-shaped documents and on the
 * kinds of text measure commands print.
 *
 * The number parser takes only standalone tokens: a number must start at the
 * beginning of the text or after whitespace or one of : = , ; ( ) [ ] { } < >
 * " ' | /, and end at the end, whitespace, one of those, '%' or a final '.'.
 * So "eth0", "x86_64", "v1.2.3" and "12ms" yield no number. A consequence:
 * "1,000" reads as two numbers, 1 and 0 (CSV output matters more than
 * thousands separators).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tuner/cgmodel.h"
#include "formats/parse.h"
#include "tuner/util.h"

/* Shaped like `iperf3 -c 10.0.1.2 -J -t 10` (TCP, one stream, 3.12). */
static const char iperf3_doc[] =
	"{\n"
	"\t\"start\":\t{\n"
	"\t\t\"connected\":\t[{\n"
	"\t\t\t\t\"socket\":\t5,\n"
	"\t\t\t\t\"local_host\":\t\"10.0.0.2\",\n"
	"\t\t\t\t\"local_port\":\t50712,\n"
	"\t\t\t\t\"remote_host\":\t\"10.0.1.2\",\n"
	"\t\t\t\t\"remote_port\":\t5201\n"
	"\t\t\t}],\n"
	"\t\t\"version\":\t\"iperf 3.12\",\n"
	"\t\t\"system_info\":\t\"Linux lan-host 6.1.0-18-amd64 #1 SMP x86_64\",\n"
	"\t\t\"timestamp\":\t{\n"
	"\t\t\t\"time\":\t\"Tue, 04 Jun 2024 09:12:31 GMT\",\n"
	"\t\t\t\"timesecs\":\t1717492351\n"
	"\t\t},\n"
	"\t\t\"connecting_to\":\t{\"host\": \"10.0.1.2\", \"port\": 5201},\n"
	"\t\t\"cookie\":\t\"q7w3lq2n5xj4b6v2kz3m5d7p8r2t4y6u7i8o\",\n"
	"\t\t\"tcp_mss_default\":\t1448,\n"
	"\t\t\"sock_bufsize\":\t0,\n"
	"\t\t\"sndbuf_actual\":\t16384,\n"
	"\t\t\"rcvbuf_actual\":\t131072,\n"
	"\t\t\"test_start\":\t{\n"
	"\t\t\t\"protocol\":\t\"TCP\",\n"
	"\t\t\t\"num_streams\":\t1,\n"
	"\t\t\t\"blksize\":\t131072,\n"
	"\t\t\t\"omit\":\t0,\n"
	"\t\t\t\"duration\":\t10,\n"
	"\t\t\t\"bytes\":\t0,\n"
	"\t\t\t\"blocks\":\t0,\n"
	"\t\t\t\"reverse\":\t0,\n"
	"\t\t\t\"tos\":\t0,\n"
	"\t\t\t\"target_bitrate\":\t0\n"
	"\t\t}\n"
	"\t},\n"
	"\t\"intervals\":\t[{\n"
	"\t\t\t\"streams\":\t[{\n"
	"\t\t\t\t\t\"socket\":\t5, \"start\":\t0, \"end\":\t1.000213,\n"
	"\t\t\t\t\t\"seconds\":\t1.000213, \"bytes\":\t114032640,\n"
	"\t\t\t\t\t\"bits_per_second\":\t912066681.3, \"retransmits\":\t9,\n"
	"\t\t\t\t\t\"snd_cwnd\":\t410208, \"rtt\":\t3120, \"rttvar\":\t412,\n"
	"\t\t\t\t\t\"pmtu\":\t1500, \"omitted\":\tfalse, \"sender\":\ttrue\n"
	"\t\t\t\t}],\n"
	"\t\t\t\"sum\":\t{\n"
	"\t\t\t\t\"start\":\t0, \"end\":\t1.000213, \"seconds\":\t1.000213,\n"
	"\t\t\t\t\"bytes\":\t114032640, \"bits_per_second\":\t912066681.3,\n"
	"\t\t\t\t\"retransmits\":\t9, \"omitted\":\tfalse, \"sender\":\ttrue\n"
	"\t\t\t}\n"
	"\t\t}, {\n"
	"\t\t\t\"streams\":\t[{\n"
	"\t\t\t\t\t\"socket\":\t5, \"start\":\t1.000213, \"end\":\t2.000187,\n"
	"\t\t\t\t\t\"seconds\":\t0.999974, \"bytes\":\t117964800,\n"
	"\t\t\t\t\t\"bits_per_second\":\t943742934.1, \"retransmits\":\t0,\n"
	"\t\t\t\t\t\"snd_cwnd\":\t431920, \"rtt\":\t2984, \"rttvar\":\t160,\n"
	"\t\t\t\t\t\"pmtu\":\t1500, \"omitted\":\tfalse, \"sender\":\ttrue\n"
	"\t\t\t\t}],\n"
	"\t\t\t\"sum\":\t{\n"
	"\t\t\t\t\"start\":\t1.000213, \"end\":\t2.000187, \"seconds\":\t0.999974,\n"
	"\t\t\t\t\"bytes\":\t117964800, \"bits_per_second\":\t943742934.1,\n"
	"\t\t\t\t\"retransmits\":\t0, \"omitted\":\tfalse, \"sender\":\ttrue\n"
	"\t\t\t}\n"
	"\t\t}],\n"
	"\t\"end\":\t{\n"
	"\t\t\"streams\":\t[{\n"
	"\t\t\t\t\"sender\":\t{\n"
	"\t\t\t\t\t\"socket\":\t5, \"start\":\t0, \"end\":\t10.000412,\n"
	"\t\t\t\t\t\"seconds\":\t10.000412, \"bytes\":\t1175584768,\n"
	"\t\t\t\t\t\"bits_per_second\":\t940429074.6, \"retransmits\":\t23,\n"
	"\t\t\t\t\t\"max_snd_cwnd\":\t612456, \"max_rtt\":\t4211,\n"
	"\t\t\t\t\t\"min_rtt\":\t1802, \"mean_rtt\":\t2977, \"sender\":\ttrue\n"
	"\t\t\t\t},\n"
	"\t\t\t\t\"receiver\":\t{\n"
	"\t\t\t\t\t\"socket\":\t5, \"start\":\t0, \"end\":\t10.04118,\n"
	"\t\t\t\t\t\"seconds\":\t10.000412, \"bytes\":\t1172938752,\n"
	"\t\t\t\t\t\"bits_per_second\":\t934507040, \"sender\":\ttrue\n"
	"\t\t\t\t}\n"
	"\t\t\t}],\n"
	"\t\t\"sum_sent\":\t{\n"
	"\t\t\t\"start\":\t0, \"end\":\t10.000412, \"seconds\":\t10.000412,\n"
	"\t\t\t\"bytes\":\t1175584768, \"bits_per_second\":\t940429074.6,\n"
	"\t\t\t\"retransmits\":\t23, \"sender\":\ttrue\n"
	"\t\t},\n"
	"\t\t\"sum_received\":\t{\n"
	"\t\t\t\"start\":\t0, \"end\":\t10.04118, \"seconds\":\t10.04118,\n"
	"\t\t\t\"bytes\":\t1172938752, \"bits_per_second\":\t934507040,\n"
	"\t\t\t\"sender\":\ttrue\n"
	"\t\t},\n"
	"\t\t\"cpu_utilization_percent\":\t{\n"
	"\t\t\t\"host_total\":\t11.73, \"host_user\":\t0.52,\n"
	"\t\t\t\"host_system\":\t11.21, \"remote_total\":\t38.9,\n"
	"\t\t\t\"remote_user\":\t1.7, \"remote_system\":\t37.2\n"
	"\t\t},\n"
	"\t\t\"sender_tcp_congestion\":\t\"cubic\",\n"
	"\t\t\"receiver_tcp_congestion\":\t\"cubic\"\n"
	"\t}\n"
	"}\n";

/* What `iperf3 -J` prints when the server is not there. */
static const char iperf3_error_doc[] =
	"{\n"
	"\t\"start\":\t{\n"
	"\t\t\"connected\":\t[],\n"
	"\t\t\"version\":\t\"iperf 3.12\",\n"
	"\t\t\"system_info\":\t\"Linux lan-host 6.1.0-18-amd64 #1 SMP x86_64\"\n"
	"\t},\n"
	"\t\"intervals\":\t[],\n"
	"\t\"end\":\t{\n"
	"\t},\n"
	"\t\"error\":\t\"unable to connect to server - server may have stopped "
	"running or use a different port, firewall issue, etc.: Connection refused\"\n"
	"}\n";

static void check_near(double got, double want, int line)
{
	if (!(fabs(got - want) <= 1e-9 * fmax(1, fabs(want))))
		fail_msg("line %d: got %.17g, want %.17g", line, got, want);
}
#define assert_near(got, want) check_near((got), (want), __LINE__)

/* Parses a malloced copy of exactly len bytes, so reading past the end is
 * caught by ASan. */
static int parse_exact(double *out, const char *parser, const char *text, size_t len)
{
	char *copy = xmalloc(len ? len : 1);
	int ret;

	memcpy(copy, text, len);
	ret = parse_value(out, parser, NULL, copy, len);
	free(copy);
	return ret;
}

static double ok(const char *parser, const char *text, int line)
{
	double v = NAN;

	tn_error_clear();
	if (parse_exact(&v, parser, text, strlen(text)) != 0)
		fail_msg("line %d: %s failed on '%s': %s", line, parser, text, tn_errmsg());
	return v;
}
#define assert_parses(parser, text, want) \
	check_near(ok((parser), (text), __LINE__), (want), __LINE__)

static void check_fails(const char *parser, const char *text, const char *msg, int line)
{
	double v = 12345;

	tn_error_clear();
	if (parse_exact(&v, parser, text, strlen(text)) != -1)
		fail_msg("line %d: %s on '%s' gave %g, want failure", line, parser, text, v);
	if (!strstr(tn_errmsg(), msg))
		fail_msg("line %d: message '%s', want '%s'", line, tn_errmsg(), msg);
	if (strchr(tn_errmsg(), '\n'))
		fail_msg("line %d: message '%s' is not one line", line, tn_errmsg());
	if (v != 12345)
		fail_msg("line %d: *out changed on failure", line);
}
#define assert_fails(parser, text, msg) check_fails((parser), (text), (msg), __LINE__)

static void test_parse__iperf3(void **state)
{
	assert_parses("iperf3", iperf3_doc, 934.50704);
}

static void test_parse__iperf3_error(void **state)
{
	assert_fails("iperf3", iperf3_error_doc,
		     "iperf3: unable to connect to server - server may have stopped");
	assert_fails("iperf3", iperf3_error_doc, "Connection refused");
	/* A line break in the reason does not break the message. */
	assert_fails("iperf3", "{\"error\": \"control socket\\nhas closed\"}",
		     "iperf3: control socket has closed");
	/* error wins even when a number is present */
	assert_fails("iperf3",
		     "{\"end\": {\"sum_received\": {\"bits_per_second\": 5}},"
		     " \"error\": \"interrupt - the client has terminated\"}",
		     "iperf3: interrupt");
}

static void test_parse__iperf3_missing(void **state)
{
	/* A UDP-style end with only "sum", a missing end, output that is not
	 * JSON at all, and a value of the wrong type. */
	assert_fails("iperf3", "{\"end\": {\"sum\": {\"bits_per_second\": 1e9}}}",
		     "iperf3: no 'end.sum_received' in output");
	assert_fails("iperf3", "{\"start\": {}}", "iperf3: no 'end' in output");
	assert_fails("iperf3", "{\"end\": {\"sum_received\": {}}}",
		     "no 'end.sum_received.bits_per_second'");
	assert_fails("iperf3", "iperf3: error - unable to connect\n",
		     "iperf3: output is not JSON");
	assert_fails("iperf3", "", "iperf3: output is not JSON");
	assert_fails("iperf3",
		     "{\"end\": {\"sum_received\": {\"bits_per_second\": \"fast\"}}}",
		     "is a string, not a number");
	/* The document is complete JSON, so trailing text is an error. */
	assert_fails("iperf3", "{\"end\": {}} trailing", "output is not JSON");
}

static void test_parse__json_paths(void **state)
{
	assert_parses("json:end.streams[0].receiver.bits_per_second", iperf3_doc, 934507040);
	assert_parses("json:end.streams[0].sender.retransmits", iperf3_doc, 23);
	assert_parses("json:end.sum_sent.bits_per_second", iperf3_doc, 940429074.6);
	assert_parses("json:intervals[1].streams[0].rtt", iperf3_doc, 2984);
	assert_parses("json:intervals[1].sum.bits_per_second", iperf3_doc, 943742934.1);
	assert_parses("json:start.test_start.num_streams", iperf3_doc, 1);
	assert_parses("json:end.cpu_utilization_percent.host_total", iperf3_doc, 11.73);

	/* Nested arrays, a document that is an array, negative and exponent. */
	assert_parses("json:m[1][0]", "{\"m\": [[1, 2], [3, 4]]}", 3);
	assert_parses("json:[1].v", "[{\"v\": 1}, {\"v\": -2.5e-3}]", -2.5e-3);
	assert_parses("json:a.b", "{\"a\": {\"b\": 9007199254740993}}", 9007199254740992.0);
}

static void test_parse__json_missing(void **state)
{
	assert_fails("json:end.x", iperf3_doc, "json: no 'end.x' in output");
	/* The message names the first missing part, not the whole path. */
	assert_fails("json:end.x.y.z", iperf3_doc, "json: no 'end.x' in output");
	assert_fails("json:end.streams[1].receiver", iperf3_doc,
		     "json: no 'end.streams[1]' in output");
	/* An index into an object, a key into an array or a number. */
	assert_fails("json:end[0]", iperf3_doc, "json: no 'end[0]' in output");
	assert_fails("json:intervals.sum", iperf3_doc, "json: no 'intervals.sum' in output");
	assert_fails("json:end.sum_sent.bytes.x", iperf3_doc,
		     "json: no 'end.sum_sent.bytes.x' in output");
	assert_fails("json:[0]", "{\"a\": 1}", "json: no '[0]' in output");
	/* A key that is only a prefix of a real one. */
	assert_fails("json:end.sum", iperf3_doc, "json: no 'end.sum' in output");
}

static void test_parse__json_not_number(void **state)
{
	assert_fails("json:end.sum_sent", iperf3_doc,
		     "json: 'end.sum_sent' is an object, not a number");
	assert_fails("json:end.streams", iperf3_doc, "is an array, not a number");
	assert_fails("json:start.version", iperf3_doc, "is a string, not a number");
	assert_fails("json:end.sum_sent.sender", iperf3_doc, "is a boolean, not a number");
	assert_fails("json:x", "{\"x\": null}", "is null, not a number");
	assert_fails("json:x", "{\"x\": \"941.2\"}", "is a string");
	assert_fails("json:x", "not json", "json: output is not JSON");
}

static void test_parse__json_bad_paths(void **state)
{
	static const char *const good[] = {
		"json:a", "json:a.b", "json:a[0]", "json:a[0][12].b", "json:[3]",
		"json:[0].x", "json:end.streams[0].receiver.bits_per_second",
		"json:with-dash_and_digits9", "number", "iperf3",
		"cachegrind-model", "cachegrind-model:cycles", "cachegrind-model:ir",
		"cachegrind-model:i1-misses",
	};
	static const char *const bad[] = {
		"json:", "json:.a", "json:a.", "json:a..b", "json:a[", "json:a[]",
		"json:a[x]", "json:a[-1]", "json:a[1", "json:a]", "json:a[0]b",
		"json:a.[0]", "json:a[0]]", "json:a[99999999999999999999999]",
		"json", "Number", "iperf", "iperf3 ", "", "csv",
		"cachegrind-model:", "cachegrind-model:IR", "cachegrind", "cachegrind-model:mbps",
	};

	for (size_t i = 0; i < ARRAY_SIZE(good); i++)
		if (!parse_valid(good[i]))
			fail_msg("'%s' should be valid", good[i]);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		if (parse_valid(bad[i]))
			fail_msg("'%s' should be invalid", bad[i]);

	assert_fails("json:a..b", "{}", "json: bad path 'a..b'");
	assert_fails("csv", "1", "unknown parser 'csv' (known: number, iperf3, json:PATH, "
		     "cachegrind-model, ");
	assert_string_equal(parse_names(), "number, iperf3, json:PATH, cachegrind-model, "
			    "cachegrind-model:cycles, cachegrind-model:ir, "
			    "cachegrind-model:i1-misses, uarch-model, uarch-model:cycles, "
			    "uarch-model:insns, uarch-model:l1i-misses, uarch-model:l1d-misses, "
			    "uarch-model:l2-misses, uarch-model:mispredicts, uarch-model:taken");
}

static void test_parse__number(void **state)
{
	assert_parses("number", "... 123.4 Mbit/s\nresult: 1.5e3\n", 1500);
	assert_parses("number", "42", 42);
	assert_parses("number", "-42\n", -42);
	assert_parses("number", "+7", 7);
	assert_parses("number", "x=-3.5e-2,", -0.035);
	assert_parses("number", "1E+3 ", 1000);
	assert_parses("number", "2.5E-1", 0.25);
	assert_parses("number", ".5", 0.5);
	assert_parses("number", "5.", 5);
	assert_parses("number", "throughput: 941.2.", 941.2);
	assert_parses("number", "loss 0.5%", 0.5);
	assert_parses("number", "cycles(12345)", 12345);
	assert_parses("number", "\"ipc\": [0.81]", 0.81);
	assert_parses("number", "a|b|17|", 17);
	assert_parses("number", "10/20", 20);
	assert_parses("number", "\t\r\n  8\r\n", 8);
	/* The last number wins, whatever comes after it. */
	assert_parses("number", "1 2 3 done, see eth0 and x86_64", 3);
	assert_parses("number", "[ 5] 0.00-10.00 sec 1.09 GBytes 936 Mbits/sec receiver\n",
		      936);
}

static void test_parse__number_not_tokens(void **state)
{
	/* Numbers inside words, versions, units glued on, bare signs. */
	assert_fails("number", "eth0", "no number in output");
	assert_fails("number", "x86_64 v1.2.3 12ms 3GHz 0x1f", "no number in output");
	assert_fails("number", "-", "no number in output");
	assert_fails("number", "+-5 --5 1e 1e+ .e5 .", "no number in output");
	assert_fails("number", "", "no number in output");
	assert_fails("number", "nan inf infinity", "'infinity', is out of range");
	/* "0.00-10.00": neither half is a standalone token. */
	assert_fails("number", "interval 0.00-10.00", "no number in output");
	/* Out of range is not a measurement, and no earlier number takes
	 * its place: the message says what the command printed. */
	assert_fails("number", "1e999", "the last number in the output, '1e999', is out of range");
	assert_fails("number", "7 1e999", "'1e999', is out of range");
	assert_fails("number", "7 -1e400\n", "'-1e400', is out of range");
	assert_fails("number", "rate: inf Mbit/s", "'inf', is out of range");
	assert_fails("number", "rate 5 then NaN.", "'NaN', is out of range");
	assert_fails("number", "-Infinity", "'-Infinity', is out of range");
	assert_fails("number", "1e-400", "'1e-400', is out of range");
	assert_parses("number", "5 nan 6", 6);
	assert_parses("number", "info: 5 banana", 5);
	assert_fails("json:x", "{\"x\": 1e400}", "json:");
	assert_parses("number", "eth0 12 x86_64", 12);
	assert_parses("number", "9 then 3e5x", 9);
}

/* Colour codes are not text: their digits are never the number, and a
 * coloured number is the number (issue 39). */
static void test_parse__number_escapes(void **state)
{
	(void)state;
	assert_parses("number", "time: 300\033[1;31m", 300);
	assert_parses("number", "\033[32m123.4\033[0m", 123.4);
	assert_parses("number", "\033[1;32mrate\033[0m: \033[1m941.5\033[0m Mbit/s\n", 941.5);
	assert_parses("number", "7 \033[38;5;196m", 7);
	assert_parses("number", "\x9b" "1;31m" "42" "\x9b" "0m", 42);
	/* OSC (a title, a hyperlink) ended by BEL or ST; a charset switch. */
	assert_parses("number", "\033]0;job 99\a" "5\n", 5);
	assert_parses("number", "\033]8;;http://x/7\033\\" "8" "\033]8;;\033\\", 8);
	assert_parses("number", "\033(B" "12" "\033(0", 12);
	/* A sequence cut off at the end hides nothing after it. */
	assert_parses("number", "9 \033[12;3", 9);
	assert_fails("number", "\033[1;31m\033[0m", "no number in output");
	assert_fails("number", "\033", "no number in output");
	assert_fails("number", "\033[", "no number in output");
	assert_fails("number", "\033]0;12", "no number in output");
}

static void test_parse__not_nul_terminated(void **state)
{
	const char text[] = "12 34 {\"a\": 5}";
	double v = 0;

	/* len cuts the text: "12 3" -> 3; "12 34" -> 34. */
	assert_int_equal(parse_exact(&v, "number", text, 4), 0);
	assert_near(v, 3);
	assert_int_equal(parse_exact(&v, "number", text, 5), 0);
	assert_near(v, 34);
	assert_int_equal(parse_exact(&v, "number", text, 0), -1);

	/* A JSON document followed by bytes outside len. */
	assert_int_equal(parse_exact(&v, "json:a", text + 6, 8), 0);
	assert_near(v, 5);
	assert_int_equal(parse_exact(&v, "json:a", text + 6, 7), -1);

	/* The iperf3 sample without its final newline or a terminator. */
	assert_int_equal(parse_exact(&v, "iperf3", iperf3_doc, strlen(iperf3_doc) - 1), 0);
	assert_near(v, 934.50704);

	/* An embedded NUL is just a byte that is not a delimiter. */
	assert_int_equal(parse_exact(&v, "number", "5\0 7", 4), 0);
	assert_near(v, 7);

	/* No text at all. */
	assert_int_equal(parse_value(&v, "number", NULL, NULL, 0), -1);
	assert_non_null(strstr(tn_errmsg(), "no number"));
}

/* cachegrind-model goes to cgmodel (tested there) with the given model, or
 * its defaults without one. */
static void test_parse__cachegrind_model(void **state)
{
	static const char doc[] =
		"forwarded packets=10 bytes=1000\n"
		"events: Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw\n"
		"fl=/src/fp_nat.c\n"
		"fn=nat\n"
		"7 1000 10 1 0 0 0 0 0 0\n"
		"summary: 1000 10 1 0 0 0 0 0 0\n";
	struct cg_model m;
	struct parse_models mm = { &m, NULL };
	double v = NAN;

	/* Defaults: 1000 + 12 * 10 + 100 * 1 = 1220 cycles. */
	assert_parses("cachegrind-model:cycles", doc, 122);
	assert_parses("cachegrind-model:ir", doc, 100);
	assert_parses("cachegrind-model:i1-misses", doc, 1);
	assert_parses("cachegrind-model", doc, 1000 * 8 * 1400.0 / 1220);

	cg_model_init(&m);
	m.l1_miss = 20;
	m.ll_miss = 200;
	assert_int_equal(parse_value(&v, "cachegrind-model:cycles", &mm, doc, strlen(doc)), 0);
	assert_near(v, (1000 + 20 * 10 + 200 * 1) / 10.0);
	free(m.files);
	m.files = xstrdup("gen*");
	assert_int_equal(parse_value(&v, "cachegrind-model", &mm, doc, strlen(doc)), -1);
	assert_string_equal(tn_errmsg(), "cachegrind-model: no counted code: no file matches 'gen*'");
	cg_model_release(&m);
	assert_fails("cachegrind-model", "packets=1 bytes=2\n", "no 'events:' line");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse__iperf3),
		cmocka_unit_test(test_parse__iperf3_error),
		cmocka_unit_test(test_parse__iperf3_missing),
		cmocka_unit_test(test_parse__json_paths),
		cmocka_unit_test(test_parse__json_missing),
		cmocka_unit_test(test_parse__json_not_number),
		cmocka_unit_test(test_parse__json_bad_paths),
		cmocka_unit_test(test_parse__number),
		cmocka_unit_test(test_parse__number_not_tokens),
		cmocka_unit_test(test_parse__number_escapes),
		cmocka_unit_test(test_parse__not_nul_terminated),
		cmocka_unit_test(test_parse__cachegrind_model),
	};

	return cmocka_run_group_tests_name("parse", tests, NULL, NULL);
}
