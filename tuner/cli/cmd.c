/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What every command does around its work: --help, signals, opening, errors (cmd.h). */
#include "cmd.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tuner/guard.h"
#include "tuner/journal.h"
#include "tuner/runner.h"
#include "tuner/study.h"
#include "tuner/util.h"

int cmd_wants_help(int argc, char **argv, const char *usage)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(usage, stdout);
			return 1;
		}
	}
	return 0;
}

static void on_signal(int sig)
{
	(void)sig;
	tn_cancel();
}

void cmd_install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

static void reporter_status(void *arg, const char *text, int force)
{
	struct cmd_reporter *c = arg;

	if (text)
		progress_show(&c->prog, text, force);
	else
		progress_clear(&c->prog);
}

static void reporter_note(void *arg, const char *line)
{
	struct cmd_reporter *c = arg;

	progress_clear(&c->prog);
	fprintf(stderr, "tuner: %s\n", line);
}

void cmd_reporter_init(struct cmd_reporter *c, int quiet)
{
	progress_init(&c->prog, quiet ? PROGRESS_OFF : progress_auto());
	c->r.status = reporter_status;
	c->r.note = reporter_note;
	c->r.arg = c;
}

void cmd_print_error(const char *msg)
{
	fprintf(stderr, "tuner: %s\n", msg);
}

int cmd_error(void)
{
	cmd_print_error(tn_errmsg());
	if (tn_cancelled())
		return EXIT_INTERRUPTED;
	return tn_errkind() == TN_ERR_INPUT ? EXIT_USAGE : EXIT_FAIL;
}

/* A runner's warning (a command's escaped descendants killed), from any
 * worker thread: one line on stderr, nothing else touched. */
static void runner_warning(const char *line)
{
	fprintf(stderr, "tuner: %s\n", line);
}

int cmd_open_study(struct study *out, const char *path, const char *name, int need_measure)
{
	if (study_load(out, path) < 0) {
		cmd_print_error(tn_errmsg());
		return EXIT_USAGE;
	}
	if (need_measure && !out->measure.command) {
		fprintf(stderr, "tuner: %s: %s has no measure command: nothing to %s\n", name,
			out->path, name);
		study_release(out);
		return EXIT_USAGE;
	}
	cmd_install_signals();
	runner_set_warn(runner_warning);
	if (guard_start() < 0) {
		cmd_print_error(tn_errmsg());
		study_release(out);
		return EXIT_FAIL;
	}
	return 0;
}

void cmd_close_study(struct study *s)
{
	guard_stop();
	study_release(s);
}

int cmd_open_journal_copy(struct journal **out, const char *results)
{
	char *path = xasprintf("%s/journal.jsonl", results);
	char *tmpl = xasprintf("%s/tuner-journal-XXXXXX",
			       getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	char *data = NULL;
	size_t len = 0;
	int fd = -1, ret = -1;

	*out = NULL;
	if (read_file(&data, &len, path) < 0)
		goto out;
	fd = mkstemp(tmpl);
	if (fd < 0) {
		tn_error_errno("cannot create '%s'", tmpl);
		goto out;
	}
	if (write(fd, data, len) != (ssize_t)len) {
		tn_error_errno("cannot write '%s'", tmpl);
		goto out;
	}
	if (journal_open(out, tmpl, NULL, "", NULL) < 0) {
		/* Name the real file, not the copy. */
		char *msg = xstrdup(tn_errmsg());
		char *at = strstr(msg, tmpl);

		if (at)
			tn_error("%s%s", path, at + strlen(tmpl));
		else
			tn_error("%s: %s", path, msg);
		free(msg);
		goto out;
	}
	ret = 0;
out:
	if (fd >= 0) {
		close(fd);
		unlink(tmpl);
	}
	free(data);
	free(path);
	free(tmpl);
	return ret;
}
