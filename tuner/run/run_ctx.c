/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run_ctx: the state every part of a run shares: what it says through the
 * reporter, whether it is stopping, its first failure, and waiting for a
 * unit's build. The lowest layer of run/ (see run_priv.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <time.h>

#include "tuner/util.h"
#include "run_priv.h"

void run_status(const struct run_reporter *rep, const char *text, int force)
{
	if (rep && rep->status)
		rep->status(rep->arg, text, force);
}

void run_note(const struct run_reporter *rep, const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	if (!rep || !rep->note)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	rep->note(rep->arg, line);
}

int run_has_measure(const struct study *s)
{
	for (size_t i = 0; i < s->nobjectives; i++)
		if (!s->objectives[i].from_size)
			return 1;
	return 0;
}

void run_fail(struct run_ctx *ctx)
{
	pthread_mutex_lock(&ctx->err_lock);
	if (!ctx->first_error)
		ctx->first_error = xstrdup(*tn_errmsg() ? tn_errmsg() : "unknown error");
	pthread_mutex_unlock(&ctx->err_lock);
	atomic_store(&ctx->error, 1);
}

void run_nap(void)
{
	struct timespec ts = { 0, 20 * 1000 * 1000 };

	nanosleep(&ts, NULL);
}

int run_stopped(const struct run_ctx *ctx)
{
	return tn_cancelled() || atomic_load(&ctx->error);
}

int run_wait_built(struct unit *v)
{
	while (!atomic_load(&v->built)) {
		if (run_stopped(v->ctx))
			return -1;
		run_nap();
	}
	return 0;
}
