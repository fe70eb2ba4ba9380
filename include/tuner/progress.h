/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * progress: the status line on stderr, for the commands (the library
 * reports through struct run_reporter and prints nothing itself).
 *
 * Mode PROGRESS_TTY redraws one line in place ("\r" + clear), at most every
 * 100 ms; use it only when stderr is a TTY and TERM is not "dumb".
 * PROGRESS_LINES prints a new line when the text changed, at most every
 * 5 s (for logs and CI). PROGRESS_OFF prints nothing.
 * Called from one thread only (the one waiting on the pool).
 */
#ifndef TUNER_PROGRESS_H
#define TUNER_PROGRESS_H

enum progress_mode { PROGRESS_OFF = 0, PROGRESS_TTY = 1, PROGRESS_LINES = 2 };

struct progress {
	enum progress_mode mode;
	double last;
	int drawn;        /* a TTY line is on screen */
	char shown[256];  /* last text printed */
};

/* The mode suited to stderr: TTY when it is one and TERM is not dumb. */
enum progress_mode progress_auto(void);
void progress_init(struct progress *p, enum progress_mode mode);
/* Shows text, subject to the throttle unless force. */
void progress_show(struct progress *p, const char *text, int force);
/* Clears the status line (TTY) so other output starts on a clean line. */
void progress_clear(struct progress *p);

#endif
