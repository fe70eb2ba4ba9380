/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tuner watch: its state journal, RESULTS/watch.jsonl (cmd_watch.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd_watch.h"
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
		json_decref(r);
	}
	free(text);
	return 0;
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
