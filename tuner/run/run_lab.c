/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run_lab: the testbeds of a run and their lifecycle (docs/testbeds.md):
 * deploy a build where the testbed does not hold it, wait until `ready`
 * answers, reboot between runs, `recover` a testbed that failed, put one
 * that keeps failing in quarantine, and count a build that does not come
 * up as a failed deploy of that build. Every step is journaled (testbed
 * records), so a rerun knows which build each testbed holds. See
 * run_priv.h.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tuner/measure.h"
#include "tuner/runner.h"
#include "tuner/util.h"
#include "run_priv.h"

char *run_testbed_log(const char *results_dir, const char *testbed)
{
	char *dir = xasprintf("%s/testbeds", results_dir);
	char *log = measure_log_path(dir, testbed);
	/* measure_log_path() names it measure-NAME.log (NAME made safe for a
	 * file name): the testbed's own log is NAME.log. */
	char *out = xasprintf("%s/%s", dir, strrchr(log, '/') + 1 + strlen("measure-"));

	free(log);
	free(dir);
	return out;
}

int run_lab_start(struct run_ctx *ctx, const char *results_dir)
{
	const struct study *s = ctx->s;
	char *dir = xasprintf("%s/testbeds", results_dir);
	int ret = -1;

	ctx->tb = xcalloc(s->ntestbeds, sizeof(*ctx->tb));
	pthread_mutex_init(&ctx->lab_lock, NULL);
	for (size_t t = 0; t < s->ntestbeds; t++) {
		struct tb_state *tb = &ctx->tb[t];

		tb->log = run_testbed_log(results_dir, s->testbeds[t]);
		tb->name = s->testbeds[t];
		if (lab_env_expand(&tb->env, &s->tbs[t], s->path) < 0)
			goto out;
		journal_testbed_image(ctx->j, tb->name, tb->image);
		memcpy(tb->held, tb->image, sizeof(tb->held));
	}
	if (s->deploy.command || s->ready.command || s->reboot.command || s->recover.command ||
	    s->ntestbeds > 1)
		if (mkdir_p(dir) < 0)
			goto out;
	ret = 0;
out:
	free(dir);
	return ret;
}

void run_lab_stop(struct run_ctx *ctx)
{
	for (size_t t = 0; ctx->tb && t < ctx->s->ntestbeds; t++) {
		lab_env_release(&ctx->tb[t].env);
		free(ctx->tb[t].log);
	}
	free(ctx->tb);
	ctx->tb = NULL;
	for (size_t i = 0; i < ctx->nnotes; i++)
		free(ctx->notes[i]);
	free(ctx->notes);
	ctx->notes = NULL;
	ctx->nnotes = 0;
	pthread_mutex_destroy(&ctx->lab_lock);
}

static void lab_note(struct run_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void lab_note(struct run_ctx *ctx, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	if (!msg)
		return;
	pthread_mutex_lock(&ctx->lab_lock);
	ALLOC_GROW(ctx->notes, ctx->nnotes + 1, ctx->anotes);
	ctx->notes[ctx->nnotes++] = msg;
	pthread_mutex_unlock(&ctx->lab_lock);
}

void run_lab_say_notes(struct run_ctx *ctx, const struct run_reporter *rep)
{
	char **notes;
	size_t n;

	pthread_mutex_lock(&ctx->lab_lock);
	notes = ctx->notes;
	n = ctx->nnotes;
	ctx->notes = NULL;
	ctx->nnotes = ctx->anotes = 0;
	pthread_mutex_unlock(&ctx->lab_lock);
	for (size_t i = 0; i < n; i++) {
		run_note(rep, "%s", notes[i]);
		free(notes[i]);
	}
	free(notes);
}

size_t run_lab_held(const struct run_ctx *ctx, const struct unit *u)
{
	for (size_t t = 0; t < ctx->s->ntestbeds; t++)
		if (!strcmp(ctx->tb[t].held, u->key))
			return t;
	return SIZE_MAX;
}

size_t run_lab_pick(struct run_ctx *ctx, size_t slot, const struct unit *u, unsigned run,
		    size_t avoid)
{
	size_t T = ctx->s->ntestbeds, best = SIZE_MAX, pref = run_lab_held(ctx, u);
	unsigned min = UINT32_MAX;

	if (ctx->s->lab.mode == LAB_ALL)
		return atomic_load(&ctx->tb[slot].quarantined) ? SIZE_MAX : slot;
	/* Runs of a build rotate over the testbeds (a testbed's effect is
	 * then a block, estimable), from a start that differs per build; a
	 * build a testbed held when the run started stays there (a rerun
	 * flashes nothing it need not). */
	if (pref == SIZE_MAX)
		pref = ((size_t)(u - ctx->units) + run) % T;
	for (size_t k = 0; k < T; k++) {
		size_t t = (pref + k) % T;
		unsigned load = atomic_load(&ctx->tb[t].load);

		if (atomic_load(&ctx->tb[t].quarantined) || (t == avoid && T > 1))
			continue;
		/* lab.order builds: no takeover, which would send a run of a
		 * build to a testbed that has moved on to another (a flash). */
		if (best == SIZE_MAX || (load + 2 <= min && ctx->s->lab.order == LAB_ROUNDS)) {
			best = t;
			min = load;
		}
		if (load < min)
			min = load;
	}
	if (best == SIZE_MAX && avoid < T && !atomic_load(&ctx->tb[avoid].quarantined))
		best = avoid;
	return best;
}

void run_lab_none_left(struct run_ctx *ctx)
{
	if (ctx->s->lab.mode != LAB_SPLIT || atomic_load(&ctx->error))
		return;
	tn_error("every testbed is quarantined (%s/testbeds/ has their logs)", ctx->results_dir);
	run_fail(ctx);
}

/* Journals event ev of testbed t (build: its key, or NULL). Returns 0, or
 * -1 when the journal could not take it (the run stops). */
static int journal_event(struct run_ctx *ctx, size_t t, enum tb_event ev, const char *build,
			 int ok, double seconds, const char *error)
{
	struct testbed_record r = { 0 };

	r.testbed = (char *)ctx->tb[t].name;
	r.event = ev;
	if (build)
		memcpy(r.build, build, sizeof(r.build));
	r.ok = ok;
	r.seconds = seconds;
	r.error = (char *)error;
	if (journal_add_testbed(ctx->j, &r) < 0) {
		run_fail(ctx);
		return -1;
	}
	return 0;
}

/* The last line a command appended to log from offset `from` on, at most
 * 160 bytes of it, into out ("" when none): what it said as it failed. */
static void last_line(char *out, size_t len, const char *log, off_t from)
{
	char buf[4096];
	FILE *f = fopen(log, "r");
	size_t n, end, start;

	out[0] = '\0';
	if (!f)
		return;
	if (fseeko(f, from, SEEK_SET) == 0) {
		off_t size = lab_log_mark(log);

		if (size - from > (off_t)sizeof(buf) - 1 &&
		    fseeko(f, size - (off_t)sizeof(buf) + 1, SEEK_SET) < 0)
			size = 0;
		n = fread(buf, 1, sizeof(buf) - 1, f);
		end = n;
		while (end && (buf[end - 1] == '\n' || buf[end - 1] == '\r' || buf[end - 1] == ' '))
			end--;
		start = end;
		while (start && buf[start - 1] != '\n')
			start--;
		if (end - start >= len)
			start = end - (len - 1);
		for (size_t i = start; i < end; i++)
			buf[i] = (unsigned char)buf[i] < 0x20 ? ' ' : buf[i];
		memcpy(out, buf + start, end - start);
		out[end - start] = '\0';
	}
	fclose(f);
}

/*
 * Runs lifecycle command c of testbed t (what: "deploy", ...), its output
 * in the testbed's log, the secrets scrubbed from it. 0 done, 1 failed
 * (why in err), TN_ECANCELLED cancelled.
 */
static int step(struct run_ctx *ctx, size_t t, const struct cmd_spec *c, const char *what,
		char **env, const char *cwd, struct strbuf *err)
{
	struct tb_state *tb = &ctx->tb[t];
	struct runner r = RUNNER_INIT;
	off_t from = lab_log_mark(tb->log);
	int ret = 0;

	log_append(tb->log, "== tuner: %s\n", what);
	if (runner_shell(&r, c->command, cwd, env, tb->log, 0, c->timeout) < 0) {
		strbuf_addf(err, "%s: %s", what, tn_errmsg());
		ret = 1;
	} else if (r.result.cancelled) {
		ret = TN_ECANCELLED;
	} else if (r.result.timed_out) {
		strbuf_addf(err, "%s timed out after %gs", what, c->timeout);
		ret = 1;
	} else if (r.result.status) {
		strbuf_addf(err, "%s failed with status %d", what, r.result.status);
		ret = 1;
	}
	runner_release(&r);
	if (lab_scrub(tb->log, from, tb->env.secrets, tb->env.nsecrets) < 0)
		tn_error_clear();
	if (ret > 0) {
		char said[161];

		/* What it said last, after the log's "== tuner" header line. */
		last_line(said, sizeof(said), tb->log, from);
		if (said[0] && strncmp(said, "== tuner: ", 10))
			strbuf_addf(err, ": %s", said);
	}
	return ret;
}

/* Sleeps s seconds, or less when the run stops. */
static void nap(struct run_ctx *ctx, double s)
{
	double until = now_seconds() + s;

	while (now_seconds() < until && !run_stopped(ctx))
		run_nap();
}

/*
 * Polls ready until it succeeds, every ready_interval seconds, for at
 * most ready_within (without a ready command: ready at once). 0 ready, 1
 * not (err says why), < 0 the run stops (cancelled, or the journal or a
 * job failed). Journaled.
 */
static int wait_ready(struct run_ctx *ctx, size_t t, char **env, const char *cwd,
		      struct strbuf *err)
{
	const struct study *s = ctx->s;
	double start = now_seconds();
	unsigned tries = 0;
	int ret;

	if (!s->ready.command)
		return 0;
	for (;;) {
		struct strbuf last = STRBUF_INIT;

		tries++;
		ret = step(ctx, t, &s->ready, "ready", env, cwd, &last);
		if (ret <= 0 || now_seconds() - start + s->ready_interval > s->ready_within) {
			if (ret > 0)
				strbuf_addf(err, "not ready within %gs (%u tries; the last: %s)",
					    s->ready_within, tries, last.buf);
			strbuf_release(&last);
			break;
		}
		strbuf_release(&last);
		nap(ctx, s->ready_interval);
		if (run_stopped(ctx))
			return -1;
	}
	if (ret >= 0 && journal_event(ctx, t, TB_READY, NULL, ret == 0, now_seconds() - start,
				      ret ? err->buf : NULL) < 0)
		return -1;
	if (ret == 0)
		ctx->tb[t].up = 1;
	return ret;
}

/*
 * Brings testbed t back after a failure: its recover command, then ready
 * (without a recover command: ready alone, in case it comes back by
 * itself). Whatever it holds now is not a build of the run's. 0 back, 1
 * not (err says why), < 0 the run stops (as wait_ready()).
 */
static int recover(struct run_ctx *ctx, size_t t, char **env, const char *cwd,
		   struct strbuf *err)
{
	const struct study *s = ctx->s;
	struct tb_state *tb = &ctx->tb[t];
	double start = now_seconds();
	int ret = 0;

	tb->image[0] = '\0';
	tb->up = tb->used = 0;
	if (s->recover.command) {
		atomic_fetch_add(&tb->recoveries, 1);
		ret = step(ctx, t, &s->recover, "recover", env, cwd, err);
		if (ret >= 0 && journal_event(ctx, t, TB_RECOVER, NULL, ret == 0,
					      now_seconds() - start, ret ? err->buf : NULL) < 0)
			return -1;
	}
	if (ret == 0)
		ret = wait_ready(ctx, t, env, cwd, err);
	return ret;
}

/* A fault of testbed t's (not of the build's): counted; fails in a row
 * quarantine it. build: the build it was busy with, or NULL. */
static void fault(struct run_ctx *ctx, size_t t, const char *build, const char *why)
{
	struct tb_state *tb = &ctx->tb[t];

	tb->fails++;
	atomic_fetch_add(&tb->faults, 1);
	if (journal_event(ctx, t, TB_FAULT, build, 0, 0, why) < 0)
		return;
	if (tb->fails < ctx->s->lab.quarantine) {
		lab_note(ctx, "note: testbed %s: %s (fault %u in a row of %u before quarantine)",
			 tb->name, why, tb->fails, ctx->s->lab.quarantine);
		return;
	}
	atomic_store(&tb->quarantined, 1);
	journal_event(ctx, t, TB_QUARANTINE, NULL, 0, 0, why);
	lab_note(ctx, "warning: testbed %s: quarantined after %u faults in a row; the last: %s",
		 tb->name, tb->fails, why);
}

void run_lab_fault(struct run_ctx *ctx, size_t t, const char *build, const char *why,
		   char **env, const char *cwd)
{
	struct strbuf err = STRBUF_INIT;

	ctx->tb[t].up = 0;
	fault(ctx, t, build, why);
	if (!atomic_load(&ctx->tb[t].quarantined) && recover(ctx, t, env, cwd, &err) > 0)
		fault(ctx, t, NULL, err.buf);
	strbuf_release(&err);
}

int run_lab_probe(struct run_ctx *ctx, size_t t, char **env, const char *cwd)
{
	struct strbuf err = STRBUF_INIT;
	int ret;

	if (!ctx->s->ready.command)
		return 1;
	ret = step(ctx, t, &ctx->s->ready, "ready (after a failed measurement)", env, cwd, &err);
	strbuf_release(&err);
	return ret == 0;
}

void run_lab_measured(struct run_ctx *ctx, size_t t)
{
	ctx->tb[t].fails = 0;
	ctx->tb[t].used = 1;
}

/* How many times u's build did not come up on a testbed (the journal's;
 * with --retry-failed, this run's only). */
static unsigned no_boots(struct run_ctx *ctx, const struct unit *u)
{
	unsigned n = journal_boot_failures(ctx->j, u->key);

	return n > u->boot_base ? n - u->boot_base : 0;
}

/* Split: whether u did not come up on every testbed that is not in
 * quarantine (all: it can only be tried again where it is). */
static int tried_everywhere(struct run_ctx *ctx, const struct unit *u)
{
	int all = 1;

	if (ctx->s->lab.mode == LAB_ALL)
		return 0;
	pthread_mutex_lock(&ctx->lab_lock);
	for (size_t t = 0; t < ctx->s->ntestbeds; t++)
		if (!atomic_load(&ctx->tb[t].quarantined) && (!u->no_boot_on || !u->no_boot_on[t]))
			all = 0;
	pthread_mutex_unlock(&ctx->lab_lock);
	return all;
}

/* Split: u did not come up on t in this run, and there is another
 * testbed it has not been tried on. */
static int try_elsewhere(struct run_ctx *ctx, size_t t, const struct unit *u)
{
	int failed_here;

	pthread_mutex_lock(&ctx->lab_lock);
	failed_here = u->no_boot_on && u->no_boot_on[t];
	pthread_mutex_unlock(&ctx->lab_lock);
	return failed_here && !tried_everywhere(ctx, u) && ctx->s->lab.mode == LAB_SPLIT;
}

/* The testbeds u did not come up on in this run, "r1, r2" (a static
 * buffer: the caller's thread uses it at once). */
static const char *failed_on(struct run_ctx *ctx, const struct unit *u)
{
	static _Thread_local char buf[256];
	size_t len = 0;

	buf[0] = '\0';
	pthread_mutex_lock(&ctx->lab_lock);
	for (size_t t = 0; t < ctx->s->ntestbeds && u->no_boot_on; t++)
		if (u->no_boot_on[t] && len < sizeof(buf))
			len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s",
						len ? ", " : "", ctx->tb[t].name);
	pthread_mutex_unlock(&ctx->lab_lock);
	return buf;
}

/* u's build was deployed to t and did not come up: t is recovered; the
 * build is a failed deploy once it has not come up boot_attempts times. */
static enum lab_outcome no_boot(struct run_ctx *ctx, size_t t, struct unit *u, char **env,
				const char *cwd, const char *why, char **out)
{
	struct tb_state *tb = &ctx->tb[t];
	struct strbuf err = STRBUF_INIT;
	int back;
	unsigned n;

	atomic_fetch_add(&tb->no_boots, 1);
	pthread_mutex_lock(&ctx->lab_lock);
	if (!u->no_boot_on)
		u->no_boot_on = xcalloc(ctx->s->ntestbeds, 1);
	u->no_boot_on[t] = 1;
	pthread_mutex_unlock(&ctx->lab_lock);
	back = recover(ctx, t, env, cwd, &err);
	if (back < 0 || journal_event(ctx, t, TB_BOOT_FAILED, u->key, 0, 0, why) < 0) {
		strbuf_release(&err);
		return LAB_CANCEL;
	}
	if (back > 0)
		fault(ctx, t, u->key, err.buf);
	strbuf_release(&err);
	n = no_boots(ctx, u);
	if (n < ctx->s->lab.boot_attempts && !tried_everywhere(ctx, u)) {
		lab_note(ctx, "note: testbed %s: %s [%s] did not come up (%s); the testbed was %s, "
			 "the build gets another attempt (%u of %u failed)", tb->name, u->cfg.id,
			 u->cfg.flags, why, back ? "not recovered" : "recovered", n,
			 ctx->s->lab.boot_attempts);
		return LAB_FAULT;
	}
	*out = xasprintf("deploy failed: the build did not come up on %s (here: %s)",
			 failed_on(ctx, u), why);
	return LAB_NO_BOOT;
}

enum lab_outcome run_lab_prepare(struct run_ctx *ctx, size_t t, struct unit *u,
				 char **env, char **why)
{
	const struct study *s = ctx->s;
	struct tb_state *tb = &ctx->tb[t];
	struct strbuf err = STRBUF_INIT;
	enum lab_outcome out = LAB_READY;
	const char *cwd = u->dir;
	char *what = NULL;
	double start;
	int ret;

	*why = NULL;
	if (s->deploy.command && try_elsewhere(ctx, t, u))
		return LAB_MOVE;
	if (s->deploy.command && no_boots(ctx, u) >= s->lab.boot_attempts) {
		*why = xasprintf("deploy failed: the build did not come up %u times (journal)",
				 no_boots(ctx, u));
		return LAB_NO_BOOT;
	}
	if (s->deploy.command && strcmp(tb->image, u->key)) {
		what = xasprintf("deploy of %s [%s]", u->cfg.id, u->cfg.flags);
		start = now_seconds();
		tb->image[0] = '\0';
		atomic_fetch_add(&tb->deploys, 1);
		ret = step(ctx, t, &s->deploy, what, env, cwd, &err);
		if (ret < 0 || journal_event(ctx, t, TB_DEPLOY, u->key, ret == 0,
					     now_seconds() - start, ret ? err.buf : NULL) < 0) {
			out = LAB_CANCEL;
			goto done;
		}
		if (ret > 0) {
			run_lab_fault(ctx, t, u->key, err.buf, env, cwd);
			out = LAB_FAULT;
			goto done;
		}
		memcpy(tb->image, u->key, sizeof(tb->image));
		tb->up = tb->used = 0;
		ret = wait_ready(ctx, t, env, cwd, &err);
		if (ret < 0)
			out = LAB_CANCEL;
		else if (ret > 0)
			out = no_boot(ctx, t, u, env, cwd, err.buf, why);
		goto done;
	}
	if (!tb->up) {
		/* First use in this run, or after a fault: is it there? */
		ret = wait_ready(ctx, t, env, cwd, &err);
		if (ret < 0) {
			out = LAB_CANCEL;
		} else if (ret > 0) {
			run_lab_fault(ctx, t, NULL, err.buf, env, cwd);
			out = LAB_FAULT;
		}
		tb->up = ret == 0;
		goto done;
	}
	if (tb->used && s->reboot.command) {
		start = now_seconds();
		ret = step(ctx, t, &s->reboot, "reboot", env, cwd, &err);
		if (ret < 0 || journal_event(ctx, t, TB_REBOOT, NULL, ret == 0,
					     now_seconds() - start, ret ? err.buf : NULL) < 0) {
			out = LAB_CANCEL;
			goto done;
		}
		tb->up = tb->used = 0;
		if (ret == 0)
			ret = wait_ready(ctx, t, env, cwd, &err);
		if (ret < 0) {
			out = LAB_CANCEL;
		} else if (ret > 0) {
			run_lab_fault(ctx, t, u->key, err.buf, env, cwd);
			out = LAB_FAULT;
		}
	}
done:
	if (out == LAB_READY)
		tb->up = 1;
	free(what);
	strbuf_release(&err);
	return out;
}
