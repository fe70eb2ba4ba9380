/* SPDX-License-Identifier: GPL-2.0-or-later */
/* uarch_score: see include/tuner/uarch_score.h */
#include "tuner/uarch_score.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tuner/util.h"

#define NAME "uarch-model"

static const struct {
	const char *name;
	size_t offset;
	int per_packet_counter; /* a counter sum rather than a score field */
} parsers[] = {
	{ NAME, offsetof(struct ua_score, mbps), 0 },
	{ NAME ":cycles", offsetof(struct ua_score, cycles_per_packet), 0 },
	{ NAME ":insns", 0, 1 },
	{ NAME ":l1i-misses", 0, 2 },
	{ NAME ":l1d-misses", 0, 3 },
	{ NAME ":l2-misses", 0, 4 },
	{ NAME ":mispredicts", 0, 5 },
	{ NAME ":taken", 0, 6 },
	{ NAME ":io", 0, 7 },
	{ NAME ":fetch-splits", 0, 8 },
};

int ua_score_parser_valid(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(parsers); i++)
		if (!strcmp(parsers[i].name, name))
			return 1;
	return 0;
}

static double counted_sum(const struct ua_counters *c, int which)
{
	switch (which) {
	case 1:
		return (double)c->insns;
	case 2:
		return (double)c->l1i_miss;
	case 3:
		return (double)(c->l1d_read_miss + c->l1d_write_miss);
	case 4:
		return (double)(c->l2i_miss + c->l2d_miss);
	case 5:
		return (double)(c->mp_direction + c->mp_btb + c->mp_target + c->mp_return);
	case 6:
		return (double)c->taken;
	case 7:
		return (double)(c->io_read + c->io_write);
	case 8:
		return (double)c->fetch_split;
	default:
		return NAN;
	}
}

double ua_score_value(const struct ua_score *s, const char *parser)
{
	for (size_t i = 0; i < ARRAY_SIZE(parsers); i++) {
		if (strcmp(parsers[i].name, parser))
			continue;
		if (parsers[i].per_packet_counter)
			return counted_sum(&s->cnt[UA_COUNTED], parsers[i].per_packet_counter) /
			       s->packets;
		return *(const double *)((const char *)s + parsers[i].offset);
	}
	return NAN;
}

struct line {
	const char *s;
	size_t len, no;
};

/* The next line of text from *pos; 0 at the end. */
static int next_line(struct line *l, const char *text, size_t len, size_t *pos)
{
	const char *nl;

	if (*pos >= len)
		return 0;
	l->s = text + *pos;
	nl = memchr(l->s, '\n', len - *pos);
	l->len = nl ? (size_t)(nl - l->s) : len - *pos;
	*pos += l->len + (nl ? 1 : 0);
	l->no++;
	return 1;
}

static int is(const struct line *l, const char *word)
{
	size_t n = strlen(word);

	return l->len >= n && !memcmp(l->s, word, n) && (l->len == n || l->s[n] == ' ');
}

/* The text after "word " (NUL-terminated copy in buf). */
static const char *arg(char *buf, size_t buflen, const struct line *l, const char *word)
{
	size_t n = strlen(word) + 1, m = l->len > n ? l->len - n : 0;

	if (m >= buflen)
		m = buflen - 1;
	memcpy(buf, l->s + n, m);
	buf[m] = '\0';
	return buf;
}

/* "packets=N" and "bytes=B" as tokens of one line. */
static int packets_line(double *packets, double *bytes, const struct line *l)
{
	int have_p = 0, have_b = 0;
	size_t i = 0;

	while (i < l->len) {
		char tok[64];
		size_t start, n;

		while (i < l->len && isspace((unsigned char)l->s[i]))
			i++;
		start = i;
		while (i < l->len && !isspace((unsigned char)l->s[i]))
			i++;
		n = i - start;
		if (!n || n >= sizeof(tok))
			continue;
		memcpy(tok, l->s + start, n);
		tok[n] = '\0';
		if (!strncmp(tok, "packets=", 8) && !parse_double(packets, tok + 8))
			have_p = 1;
		else if (!strncmp(tok, "bytes=", 6) && !parse_double(bytes, tok + 6))
			have_b = 1;
	}
	return have_p && have_b;
}

static int bad(const struct line *l, const char *what)
{
	return tn_error_line(NAME, l->no, what, l->s, l->len);
}

/* Reads the report from the line after "uarch-report". */
static int read_report(struct ua_score *out, char *machine, size_t mlen, const char *text,
		       size_t len, size_t *pos, struct line *l)
{
	int region = -1, seen_end = 0;
	unsigned char seen[UA_NREGIONS][64] = { { 0 } };
	char buf[512];

	machine[0] = '\0';
	while (next_line(l, text, len, pos)) {
		if (is(l, "end")) {
			seen_end = 1;
			break;
		}
		if (is(l, "arch")) {
			arg(out->arch, sizeof(out->arch), l, "arch");
		} else if (is(l, "config")) {
			arg(machine, mlen, l, "config");
		} else if (is(l, "region")) {
			const char *r = arg(buf, sizeof(buf), l, "region");

			if (!strcmp(r, "counted"))
				region = UA_COUNTED;
			else if (!strcmp(r, "rest"))
				region = UA_REST;
			else
				return bad(l, "unknown region");
		} else {
			size_t i, n;
			uint64_t v;
			char *sp;

			if (region < 0)
				return bad(l, "a counter before any region");
			n = l->len < sizeof(buf) - 1 ? l->len : sizeof(buf) - 1;
			memcpy(buf, l->s, n);
			buf[n] = '\0';
			sp = strchr(buf, ' ');
			if (!sp)
				return bad(l, "not 'NAME VALUE'");
			*sp = '\0';
			for (i = 0; i < ua_ncounters; i++)
				if (!strcmp(buf, ua_counter_names[i]))
					break;
			if (i == ua_ncounters)
				continue; /* a counter a newer plugin added */
			if (parse_u64(&v, sp + 1) < 0)
				return bad(l, "not a count");
			if (seen[region][i]++)
				return bad(l, "counter given twice");
			*ua_counter(&out->cnt[region], i) = v;
		}
	}
	if (!seen_end)
		return tn_error(NAME ": the report has no 'end' line (cut short?)");
	/* The counters from io_read on came later: a report without them
	 * (an older plugin's) counts them as 0. */
	for (size_t i = 0; i < ua_ncounters && strcmp(ua_counter_names[i], "io_read"); i++)
		if (!seen[UA_COUNTED][i])
			return tn_error(NAME ": the report's counted region lacks '%s'",
					ua_counter_names[i]);
	return 0;
}

void ua_cost_of(struct ua_cost *out, const struct ua_config *cfg, const struct ua_counters *c,
		double per)
{
	out->insn = cfg->insn * (double)c->insns / per;
	out->l1i = cfg->l1i_miss * (double)c->l1i_miss / per;
	out->l1d = cfg->l1d_miss * (double)(c->l1d_read_miss + c->l1d_write_miss) / per;
	out->l2 = cfg->l2_miss * (double)(c->l2i_miss + c->l2d_miss) / per;
	out->taken = cfg->taken * (double)c->taken / per;
	out->mispredict = cfg->mispredict *
			  (double)(c->mp_direction + c->mp_btb + c->mp_target + c->mp_return) / per;
	out->io = (cfg->io_read * (double)c->io_read + cfg->io_write * (double)c->io_write) / per;
	out->fetch = cfg->fetch_split * (double)c->fetch_split / per;
	out->total = out->insn + out->l1i + out->l1d + out->l2 + out->taken + out->mispredict +
		     out->io + out->fetch;
}

int ua_score_text(struct ua_score *out, const struct ua_config *cfg, int check_machine,
		  const char *text, size_t len)
{
	struct line l = { NULL, 0, 0 };
	size_t pos = 0;
	int have_packets = 0, have_report = 0;
	char machine[512], want[512];
	const struct ua_counters *c;
	struct ua_cost cost;

	memset(out, 0, sizeof(*out));
	if (!text) {
		text = "";
		len = 0;
	}
	while (next_line(&l, text, len, &pos)) {
		if (is(&l, "uarch-report")) {
			char buf[32];

			if (have_report)
				return bad(&l, "a second report");
			if (strcmp(arg(buf, sizeof(buf), &l, "uarch-report"), "1"))
				return bad(&l, "unknown report version");
			if (read_report(out, machine, sizeof(machine), text, len, &pos, &l) < 0)
				return -1;
			have_report = 1;
		} else if (!have_packets && packets_line(&out->packets, &out->bytes, &l)) {
			have_packets = 1;
		}
	}
	if (!have_report)
		return tn_error(NAME ": no 'uarch-report' in the output (did the plugin run?)");
	if (!have_packets)
		return tn_error(NAME ": no line with packets=N and bytes=B in the output");
	if (!(out->packets > 0))
		return tn_error(NAME ": packets=%g: nothing to divide by", out->packets);
	ua_config_machine(cfg, want, sizeof(want));
	if (check_machine && strcmp(machine, want))
		return tn_error(NAME ": the report was made for '%s', not for the machine asked for, '%s' "
				"(does the measure command pass $TUNER_UARCH to the plugin?)",
				machine, want);
	c = &out->cnt[UA_COUNTED];
	if (!c->insns)
		return tn_error(NAME ": no instruction of the counted region ran");
	ua_cost_of(&cost, cfg, c, out->packets);
	out->c_insn = cost.insn;
	out->c_l1i = cost.l1i;
	out->c_l1d = cost.l1d;
	out->c_l2 = cost.l2;
	out->c_taken = cost.taken;
	out->c_mispredict = cost.mispredict;
	out->c_io = cost.io;
	out->c_fetch = cost.fetch;
	out->cycles_per_packet = cost.total;
	out->mbps = out->bytes / out->packets * 8 * cfg->clock_mhz / out->cycles_per_packet;
	return 0;
}

static pthread_once_t plugin_once = PTHREAD_ONCE_INIT;
static char *plugin_path, *plugin_missing;

static void find_plugin(void)
{
	const char *env = getenv("TUNER_UARCH_PLUGIN");
	char exe[PATH_MAX];
	ssize_t n;
	char *dir, *p;

	if (env && *env) {
		if (access(env, R_OK) == 0)
			plugin_path = xstrdup(env);
		else
			plugin_missing = xasprintf("and TUNER_UARCH_PLUGIN names '%s', which cannot "
						   "be read", env);
		return;
	}
	plugin_missing = xstrdup("tuner-uarch.so, and there is none beside this tuner binary or "
				 "in ../lib/tuner/ from it (build it with make, or name it in "
				 "TUNER_UARCH_PLUGIN)");
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return;
	exe[n] = '\0';
	dir = path_dirname(exe);
	p = xasprintf("%s/tuner-uarch.so", dir);
	if (access(p, R_OK) != 0) {
		free(p);
		p = xasprintf("%s/../lib/tuner/tuner-uarch.so", dir);
		if (access(p, R_OK) != 0) {
			free(p);
			p = NULL;
		}
	}
	free(dir);
	plugin_path = p;
}

const char *ua_plugin_path(void)
{
	pthread_once(&plugin_once, find_plugin);
	return plugin_path;
}

const char *ua_plugin_missing(void)
{
	pthread_once(&plugin_once, find_plugin);
	return plugin_path ? NULL : plugin_missing;
}
