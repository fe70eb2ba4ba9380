/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tuner watch: its state journal, RESULTS/watch.jsonl (cmd_watch.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "cmd_watch.h"
#include "tuner/gitsrc.h"
#include "tuner/util.h"

int watch_state_add(struct watch *w, json_t *rec)
{
	char *line;
	FILE *f;
	int ret = -1;
	time_t now = time(NULL);
	char when[32];

	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	json_object_set_new(rec, "time", json_string(when));
	line = json_dumps(rec, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(rec);
	f = fopen(w->state, "a");
	if (!f)
		return tn_error_errno("cannot open %s", w->state);
	if (line && fprintf(f, "%s\n", line) > 0 && fflush(f) == 0 && fsync(fileno(f)) == 0)
		ret = 0;
	else
		tn_error_errno("cannot write %s", w->state);
	if (fclose(f) != 0 && ret == 0)
		ret = tn_error_errno("cannot write %s", w->state);
	free(line);
	return ret;
}

int watch_state_load(struct watch *w)
{
	char *text = NULL, *line, *save = NULL;
	size_t len;

	w->baseline[0] = '\0';
	json_decref(w->pending);
	w->pending = json_array();
	if (read_file(&text, &len, w->state) < 0) {
		tn_error_clear();
		return 0;
	}
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		json_t *r = json_loads(line, 0, NULL);
		const char *type = r ? json_string_value(json_object_get(r, "type")) : NULL;
		const char *c = r ? json_string_value(json_object_get(r, "commit")) : NULL;

		if (type && !strcmp(type, "baseline") && c && strlen(c) == 40)
			snprintf(w->baseline, sizeof(w->baseline), "%s", c);
		else if (type && !strcmp(type, "notify") && c)
			json_array_append(w->pending, r);
		else if (type && !strcmp(type, "notified") && c &&
			 json_is_integer(json_object_get(r, "status")) &&
			 json_integer_value(json_object_get(r, "status")) == 0)
			watch_pending_done(w, c);
		json_decref(r);
	}
	free(text);
	return 0;
}

void watch_pending_done(struct watch *w, const char *commit)
{
	for (size_t i = json_array_size(w->pending); i-- > 0;) {
		const char *c = json_string_value(json_object_get(json_array_get(w->pending, i),
								  "commit"));

		if (c && !strcmp(c, commit))
			json_array_remove(w->pending, i);
	}
}

int watch_set_baseline(struct watch *w, const char *commit, const char *why)
{
	json_t *r = json_object();

	json_object_set_new(r, "type", json_string("baseline"));
	json_object_set_new(r, "commit", json_string(commit));
	json_object_set_new(r, "why", json_string(why));
	if (watch_state_add(w, r) < 0)
		return -1;
	snprintf(w->baseline, sizeof(w->baseline), "%s", commit);
	return 0;
}

/* rev (in go's repository, below its path) into out: 0, or the exit code
 * after "tuner: watch: WHAT...". */
int watch_resolve(char out[41], struct gitsrc_opts *go, const char *rev, const char *what)
{
	int rc;

	go->rev = rev;
	rc = gitsrc_resolve(out, go);
	if (rc >= 0)
		return 0;
	fprintf(stderr, "tuner: watch: %s%s\n", what, tn_errmsg());
	return rc == -1 ? EXIT_FAIL : EXIT_USAGE;
}

/*
 * The first call: takes --since (default head, the branch as it is) as
 * the baseline. -1 to go on and measure since --since, else the exit code
 * (EXIT_OK: the baseline is head, and said so).
 */
static int first_call(struct watch *w, struct gitsrc_opts *go, const char *head)
{
	const struct watch_opts *o = w->o;
	const char *why;
	char since[41];
	int ret;

	if (o->since) {
		ret = watch_resolve(since, go, o->since, "--since: ");
		if (ret)
			return ret;
	}
	why = w->reset ? "--reset" : "first call";
	w->reset = 0;
	if (watch_set_baseline(w, o->since ? since : head, why) < 0)
		return cmd_error();
	if (!o->since || !strcmp(since, head)) {
		printf("baseline: %.12s (%s); later calls measure what arrives on it\n", head,
		       o->branch);
		return EXIT_OK;
	}
	return -1;
}

/* A later call's --since: a revision that names no commit is an error on
 * every call; one that is not the baseline is said (--reset takes it).
 * 0, or the exit code. */
static int check_since(const struct watch *w, struct gitsrc_opts *go)
{
	char since[41];
	int ret;

	if (!w->o->since)
		return 0;
	ret = watch_resolve(since, go, w->o->since, "--since: ");
	if (ret)
		return ret;
	if (strcmp(since, w->baseline))
		fprintf(stderr, "tuner: watch: note: --since is the first call's baseline; the "
			"baseline is %.12s (--reset --since %s takes %.12s)\n", w->baseline,
			w->o->since, since);
	return 0;
}

int watch_take_baseline(struct watch *w, struct gitsrc_opts *go, const char *head)
{
	int ret;

	if (!w->baseline[0] || w->reset)
		return first_call(w, go, head);
	ret = check_since(w, go);
	return ret ? ret : -1;
}

/* The branch still descends from the baseline: 0; else (force-pushed
 * back, diverged, the baseline gone) the exit code after a message that
 * says what happened and the way out. */
int watch_check_rewritten(const struct watch *w, const char *head)
{
	struct gitsrc_opts go = GITSRC_OPTS_INIT;
	int rel;

	go.repo = w->repo;
	rel = gitsrc_relation(&go, w->baseline, head);
	if (rel == 0)
		return 0;
	fprintf(stderr, "tuner: watch: %s was rewritten: %.12s, its head, %s the baseline %.12s%s%s.\n"
		"tuner: watch: to watch it as it is now, run once with --reset (the baseline "
		"becomes %s as it is; --reset --since REV takes REV); %s keeps what was measured\n",
		w->o->branch, head, rel == 1 ? "is behind (an ancestor of)" :
		rel == 2 ? "has diverged from" : "cannot be related to", w->baseline,
		rel < 0 ? ": " : "", rel < 0 ? tn_errmsg() : "", w->o->branch, w->state);
	tn_error_clear();
	return EXIT_USAGE;
}
