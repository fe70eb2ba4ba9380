/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tuner watch: a check's report, on stdout, in files, to the notify command (cmd_watch.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cmd.h"
#include "cmd_doc.h"
#include "cmd_watch.h"
#include "tuner/outfmt.h"
#include "tuner/runner.h"
#include "tuner/study.h"
#include "tuner/util.h"

/* doc's string at key as text of the report's format (Markdown: escaped,
 * for whoever can push to the branch writes its subjects). Caller frees. */
static char *doc_text(json_t *doc, const char *key, enum outfmt fmt)
{
	const char *v = json_string_value(json_object_get(doc, key));

	return outfmt_text(fmt, v ? v : "");
}

/* The report of one check (its document doc), as Markdown (md) or plain
 * text. Caller frees. */
static char *report_text(const struct watch *w, json_t *doc, int md)
{
	const enum outfmt fmt = md ? OUTFMT_MD : OUTFMT_TABLE;
	struct strbuf sb = STRBUF_INIT;
	const char *result = json_string_value(json_object_get(doc, "result"));
	json_t *fb = json_object_get(doc, "first_bad");
	const char *b = md ? "**" : "";
	const char *li = cmd_bullet(fmt);
	char *branch = outfmt_text(fmt, w->o->branch), *study = outfmt_text(fmt, w->s->name);
	char *oname = outfmt_text(fmt, w->s->objectives[0].name);
	char *good = doc_text(doc, "good", fmt), *bad = doc_text(doc, "bad", fmt);
	const char *fl = json_string_value(json_object_get(doc, "flags"));
	char *flags = md ? cmd_flags_text(fl ? fl : "", fmt) : xstrdup(fl ? fl : "");
	char *bisect = doc_text(doc, "bisect_results", fmt);

	if (!json_is_object(fb) || !strcmp(result, "unconfirmed"))
		fb = NULL;

	strbuf_addf(&sb, "%s%stuner watch: %s on %s%s\n\n", md ? "## " : "", b, result, branch, b);
	strbuf_addf(&sb, "%sstudy %s, objective %s (%s); baseline %.12s, %s %.12s, %s\n", li,
		    study, oname, w->s->objectives[0].maximize ? "higher is better" : "lower is better",
		    good, branch, bad, flags);
	if (fb) {
		json_t *e = json_object_get(fb, "effect");
		char *commit = doc_text(fb, "commit", fmt), *subject = doc_text(fb, "subject", fmt);
		const char *touched = json_string_value(json_object_get(doc, "touched"));

		strbuf_addf(&sb, "%sfirst bad commit: %s%s%s %s\n", li, md ? "`" : "", commit,
			    md ? "`" : "", subject);
		if (e)
			strbuf_addf(&sb, "%seffect against its parent: %+.2f%%, 95%% CI [%+.2f%%, %+.2f%%], "
				    "p = %.2g; layout band ±%.2g%%: %s it\n", li,
				    100 * cmd_json_get_num(e, "rel"),
				    100 * cmd_json_get_num(e, "rel_lo"),
				    100 * cmd_json_get_num(e, "rel_hi"), cmd_json_get_num(e, "p"),
				    100 * cmd_json_get_num(fb, "layout_band"),
				    json_is_true(json_object_get(fb, "beyond_band")) ? "beyond" : "within");
		strbuf_addf(&sb, "%swhat it touched:\n", li);
		if (md) {
			/* A fence no line of the diff can close. */
			char *block = outfmt_md_block("", touched ? touched : "");

			strbuf_addf(&sb, "\n%s", block);
			free(block);
		} else {
			strbuf_addstr(&sb, touched ? touched : "");
		}
		free(commit);
		free(subject);
	} else if (json_object_get(doc, "why")) {
		char *why = doc_text(doc, "why", fmt);

		strbuf_addf(&sb, "%s%s\n", li, why);
		free(why);
	}
	strbuf_addf(&sb, "%sbisect: %s\n", li, bisect);
	free(branch);
	free(study);
	free(oname);
	free(good);
	free(bad);
	free(flags);
	free(bisect);
	return strbuf_detach(&sb);
}

/* Gives the report to the notify command, its outcome journalled
 * ("notified" with its status); its failure is reported, not fatal (the
 * finding is in the state journal, the notification stays pending).
 * 1 when the command succeeded, else 0. */
static int notify(struct watch *w, const char *cmd, double timeout, json_t *doc,
		  const char *md_path, const char *json_path)
{
	int delivered = 0;
	struct runner r = RUNNER_INIT;
	char *env[5];
	char *log = xasprintf("%s/notify.log", w->results);
	json_t *rec = json_object();
	const char *commit = json_string_value(json_object_get(json_object_get(doc, "first_bad"),
							       "commit"));

	env[0] = xasprintf("TUNER_WATCH_RESULT=%s", json_string_value(json_object_get(doc, "result")));
	env[1] = xasprintf("TUNER_WATCH_COMMIT=%s", commit ? commit : "");
	env[2] = xasprintf("TUNER_WATCH_REPORT=%s", md_path);
	env[3] = xasprintf("TUNER_WATCH_JSON=%s", json_path);
	env[4] = NULL;
	json_object_set_new(rec, "type", json_string("notified"));
	json_object_set_new(rec, "commit", json_string(commit ? commit : ""));
	if (runner_shell(&r, cmd, NULL, env, log, 0, timeout) < 0) {
		fprintf(stderr, "tuner: watch: the notify command could not start: %s\n", tn_errmsg());
		tn_error_clear();
		json_object_set_new(rec, "status", json_integer(-1));
	} else {
		if (r.result.status != 0)
			fprintf(stderr, "tuner: watch: the notify command failed (exit %d%s); its output "
				"is in %s; the next call notifies again\n", r.result.status,
				r.result.timed_out ? ", timed out" : "", log);
		json_object_set_new(rec, "status", json_integer(r.result.status));
		delivered = r.result.status == 0;
	}
	runner_release(&r);
	if (watch_state_add(w, rec) < 0) {
		cmd_print_error(tn_errmsg());
		tn_error_clear();
		delivered = 0;
	}
	for (int i = 0; i < 4; i++)
		free(env[i]);
	free(log);
	return delivered;
}

/* The notify command of this call: --notify's, else watch.notify's;
 * its timeout into *timeout. */
static const char *notify_command(const struct watch *w, double *timeout)
{
	*timeout = w->o->notify ? 600 : w->s->watch_notify.timeout;
	return w->o->notify ? w->o->notify : w->s->watch_notify.command;
}

int watch_notify_pending(struct watch *w)
{
	json_t *todo = json_copy(w->pending), *rec;
	double timeout;
	const char *cmd = notify_command(w, &timeout);
	size_t i;
	int ret = -1;

	json_array_foreach(todo, i, rec) {
		const char *commit = json_string_value(json_object_get(rec, "commit"));
		const char *result = json_string_value(json_object_get(rec, "result"));
		const char *md = json_string_value(json_object_get(rec, "report"));
		const char *js = json_string_value(json_object_get(rec, "json"));
		json_t *doc = js ? json_load_file(js, 0, NULL) : NULL;

		if (!commit || !result || !md || !doc) {
			fprintf(stderr, "tuner: watch: a notification begun before was not delivered, "
				"and its report %s cannot be read to notify again\n", js ? js : "(none)");
			json_decref(doc);
			ret = EXIT_FAIL;
			continue;
		}
		if (ret == -1 && !strcmp(result, "regression"))
			ret = EXIT_VERDICT;
		if (!cmd) {
			fprintf(stderr, "tuner: watch: the %s at %.12s was never notified, and no notify "
				"command is set (watch.notify, --notify): its report is %s\n", result,
				commit, md);
		} else {
			fprintf(stderr, "tuner: watch: notifying again: the %s at %.12s (the call that "
				"found it stopped before its notify command succeeded)\n", result, commit);
			if (notify(w, cmd, timeout, doc, md, js))
				watch_pending_done(w, commit);
		}
		json_decref(doc);
	}
	json_decref(todo);
	return ret;
}

void watch_print(const struct watch *w, json_t *doc)
{
	char *text;

	if (w->o->m.fmt == OUTFMT_JSON) {
		text = json_dumps(doc, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
		printf("%s\n", text);
	} else {
		text = report_text(w, doc, w->o->m.fmt == OUTFMT_MD);
		fputs(text, stdout);
	}
	free(text);
	fflush(stdout);
}

int watch_publish(struct watch *w, json_t *doc, const char *result, const char *head)
{
	double timeout;
	const char *cmd = notify_command(w, &timeout);
	const char *commit = json_string_value(json_object_get(json_object_get(doc, "first_bad"),
							       "commit"));
	char *md_path, *json_path, *text, *js;
	json_t *intent;
	int ret = -1;

	if (!json_is_object(json_object_get(doc, "first_bad")) || !strcmp(result, "unconfirmed"))
		return -1;
	md_path = xasprintf("%s/report-%.12s.md", w->results, head);
	json_path = xasprintf("%s/report-%.12s.json", w->results, head);
	text = report_text(w, doc, 1);
	js = json_dumps(doc, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	/* At least once: the intent is journalled before the command runs
	 * and its success after, so a call killed in between, or a command
	 * that failed, leaves it pending for the next call. */
	intent = json_pack("{s:s, s:s, s:s, s:s, s:s}", "type", "notify", "commit",
			   commit ? commit : "", "result", result, "report", md_path, "json",
			   json_path);
	if (write_file_atomic(md_path, text, strlen(text)) < 0 ||
	    write_file_atomic(json_path, js, strlen(js)) < 0)
		ret = cmd_error();
	else if (cmd && watch_state_add(w, json_incref(intent)) < 0)
		ret = cmd_error();
	else if (cmd && !notify(w, cmd, timeout, doc, md_path, json_path))
		json_array_append(w->pending, intent);
	json_decref(intent);
	free(js);
	free(text);
	free(md_path);
	free(json_path);
	return ret;
}
