/* SPDX-License-Identifier: GPL-2.0-or-later */
/* alloc: allocation that aborts on out-of-memory (tuner/util.h) */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "tuner/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void *check(void *p)
{
	if (!p) {
		static const char msg[] = "tuner: out of memory\n";
		if (write(2, msg, sizeof(msg) - 1) < 0) {
			/* nothing left to report with */
		}
		abort();
	}
	return p;
}

void *xmalloc(size_t n)
{
	return check(malloc(n ? n : 1));
}

void *xcalloc(size_t n, size_t size)
{
	return check(calloc(n ? n : 1, size ? size : 1));
}

void *xrealloc(void *p, size_t n)
{
	return check(realloc(p, n ? n : 1));
}

char *xstrdup(const char *s)
{
	return check(strdup(s));
}

char *xstrndup(const char *s, size_t n)
{
	return check(strndup(s, n));
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (r < 0)
		check(NULL);
	return s;
}
