/* SPDX-License-Identifier: GPL-2.0-or-later */
/* progress: see include/tuner/progress.h */
#include "tuner/progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tuner/util.h"

enum progress_mode progress_auto(void)
{
	const char *term = getenv("TERM");

	if (isatty(STDERR_FILENO) && term && *term && strcmp(term, "dumb"))
		return PROGRESS_TTY;
	return PROGRESS_LINES;
}

void progress_init(struct progress *p, enum progress_mode mode)
{
	memset(p, 0, sizeof(*p));
	p->mode = mode;
	p->last = -1e9;
}

void progress_show(struct progress *p, const char *text, int force)
{
	double now = now_seconds();
	double every = p->mode == PROGRESS_TTY ? 0.1 : 5.0;

	if (p->mode == PROGRESS_OFF)
		return;
	if (!strcmp(text, p->shown) || (!force && now - p->last < every))
		return;
	snprintf(p->shown, sizeof(p->shown), "%s", text);
	p->last = now;
	if (p->mode == PROGRESS_TTY) {
		fprintf(stderr, "\r\033[K%s", p->shown);
		p->drawn = 1;
	} else {
		fprintf(stderr, "%s\n", p->shown);
	}
	fflush(stderr);
}

void progress_clear(struct progress *p)
{
	if (p->mode == PROGRESS_TTY && p->drawn) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
		p->drawn = 0;
	}
}
