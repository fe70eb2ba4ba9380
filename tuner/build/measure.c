/* SPDX-License-Identifier: GPL-2.0-or-later */
/* measure: see include/tuner/measure.h */
#include "tuner/measure.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tuner/lab.h"
#include "formats/parse.h"
#include "tuner/runner.h"
#include "tuner/util.h"

char *measure_log_path(const char *dir, const char *testbed)
{
	char *n = xstrdup(testbed), *log;

	for (char *p = n; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '.' || *p == '-' || *p == '_'))
			*p = '_';
	log = xasprintf("%s/measure-%s.log", dir, n);
	free(n);
	return log;
}

static uint64_t hash_num(uint64_t h, double v)
{
	char buf[40];

	snprintf(buf, sizeof(buf), "%.17g", v);
	return hash64_str(h, buf);
}

void measure_key(char out[17], const struct study *s)
{
	const struct cmd_spec *cmds[] = { &s->measure, &s->deploy, &s->reboot, &s->ready,
					   &s->recover };
	uint64_t h = hash64_str(HASH64_INIT, "tuner-measure-1");
	char machine[512];

	for (size_t i = 0; i < ARRAY_SIZE(cmds); i++) {
		h = hash64_str(h, cmds[i]->command ? cmds[i]->command : "");
		h = hash64_str(h, cmds[i]->inputs);
	}
	/* The testbeds' environment as written: ${...} references, never
	 * what they expand to. */
	for (size_t t = 0; t < s->ntestbeds; t++)
		for (size_t i = 0; i < s->tbs[t].nenv; i++) {
			h = hash64_str(h, s->tbs[t].env_name[i]);
			h = hash64_str(h, s->tbs[t].env_value[i]);
		}
	for (size_t i = 0; i < s->nobjectives; i++) {
		if (s->objectives[i].from_size)
			continue;
		h = hash64_str(h, s->objectives[i].name);
		h = hash64_str(h, s->objectives[i].parser);
	}
	h = hash_num(h, s->model.l1_miss);
	h = hash_num(h, s->model.ll_miss);
	h = hash_num(h, s->model.clock_mhz);
	h = hash64_str(h, s->model.files ? s->model.files : "");
	if (s->has_uarch) {
		const struct ua_config *u = &s->uarch;

		ua_config_machine(u, machine, sizeof(machine));
		h = hash64_str(h, machine);
		h = hash_num(h, u->insn);
		h = hash_num(h, u->l1i_miss);
		h = hash_num(h, u->l1d_miss);
		h = hash_num(h, u->l2_miss);
		h = hash_num(h, u->taken);
		h = hash_num(h, u->mispredict);
		h = hash_num(h, u->clock_mhz);
	}
	hash64_hex(out, h);
}

int measure_run(struct measure_record *out, const struct measure_request *req, int *status)
{
	const struct study *s = req->study;
	const struct parse_models models = { &s->model, s->has_uarch ? &s->uarch : NULL };
	char *log = measure_log_path(req->dir, s->testbeds[req->testbed]);
	struct runner r = RUNNER_INIT;
	struct strbuf err = STRBUF_INIT;
	double start = now_seconds();
	off_t from = lab_log_mark(log);
	int cancelled = 0, started;
	size_t k = 0;

	memset(out, 0, sizeof(*out));
	*status = -1;
	started = runner_shell(&r, s->measure.command, req->dir, req->env, log, CAPTURE_MEASURE,
			       s->measure.timeout) == 0;
	if (!started)
		strbuf_addf(&err, "measure: %s", tn_errmsg());
	else if ((cancelled = r.result.cancelled))
		goto out;
	else if (r.result.timed_out)
		strbuf_addf(&err, "measure timed out after %gs", s->measure.timeout);
	else if (r.result.status)
		strbuf_addf(&err, "measure failed with status %d", r.result.status);
	else if (r.result.out_truncated)
		strbuf_addf(&err, "measure printed more than %zu MiB on stdout: not parsed "
			    "(all of it is in the log)", CAPTURE_MEASURE >> 20);
	if (started && !r.result.timed_out)
		*status = r.result.status;

	out->names = xcalloc(s->nobjectives + 1, sizeof(*out->names));
	out->values = xcalloc(s->nobjectives + 1, sizeof(*out->values));
	for (size_t i = 0; i < s->nobjectives; i++) {
		double v = NAN;
		if (s->objectives[i].from_size)
			continue;
		if (!err.len && parse_value(&v, s->objectives[i].parser, &models,
					    r.result.out, r.result.out_len) < 0)
			strbuf_addf(&err, "%s: %s", s->objectives[i].name, tn_errmsg());
		out->names[k] = s->objectives[i].name;
		out->values[k++] = v;
	}
	out->nvalues = k;
	/* Beside what the command printed, where the user is sent to look. */
	if (err.len)
		log_append(log, "== tuner: measurement failed: %s\n", err.buf);
	if (lab_scrub(log, from, req->secrets, req->nsecrets) < 0)
		tn_error_clear(); /* the log is the user's to mind; the run goes on */
	out->ok = err.len == 0;
	/* A parser's complaint quotes the output: no secret in the journal. */
	out->error = err.len ? lab_scrub_text(err.buf, req->secrets, req->nsecrets) : NULL;
	out->seconds = now_seconds() - start;
out:
	runner_release(&r);
	strbuf_release(&err);
	free(log);
	return cancelled ? TN_ECANCELLED : 0;
}

void measure_run_release(struct measure_record *r)
{
	free(r->names);
	free(r->values);
	free(r->error);
	r->names = NULL;
	r->values = NULL;
	r->error = NULL;
}
