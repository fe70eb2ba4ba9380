/* SPDX-License-Identifier: GPL-2.0-or-later */
/* error: this thread's error message and its kind (tuner/util.h) */
#include "tuner/util.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static _Thread_local char errbuf[1024];
static _Thread_local enum tn_errkind errkind;

static void set_errv(const char *prefix, const char *fmt, va_list ap, int with_errno)
{
	int saved = errno;
	size_t n = 0;

	errkind = TN_ERR_RUNTIME;
	if (prefix)
		n = (size_t)snprintf(errbuf, sizeof(errbuf), "%s", prefix);
	if (n < sizeof(errbuf))
		n += (size_t)vsnprintf(errbuf + n, sizeof(errbuf) - n, fmt, ap);
	if (with_errno && n < sizeof(errbuf))
		n += (size_t)snprintf(errbuf + n, sizeof(errbuf) - n, ": %s", strerror(saved));
	/* A write past the file size limit: say which limit. */
	if (with_errno && saved == EFBIG && n < sizeof(errbuf) && file_size_limit())
		snprintf(errbuf + n, sizeof(errbuf) - n,
			 " (tuner's file size limit, ulimit -f, is %llu bytes)", file_size_limit());
}

int tn_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	set_errv(NULL, fmt, ap, 0);
	va_end(ap);
	return -1;
}

int tn_error_line(const char *parser, size_t no, const char *what, const char *text,
		  size_t len)
{
	char shown[64];
	size_t n = len < 60 ? len : 60;

	for (size_t i = 0; i < n; i++)
		shown[i] = (unsigned char)text[i] < 0x20 || text[i] == 0x7f ? '?' : text[i];
	shown[n] = '\0';
	return tn_error("%s: line %zu: %s: '%s%s'", parser, no, what, shown, len > n ? "..." : "");
}

int tn_error_errno(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	set_errv(NULL, fmt, ap, 1);
	va_end(ap);
	return -1;
}

static void set_at(const char *file, int line, int col, const char *fmt, va_list ap)
{
	char prefix[512];

	if (line > 0 && col > 0)
		snprintf(prefix, sizeof(prefix), "%s:%d:%d: ", file, line, col);
	else if (line > 0)
		snprintf(prefix, sizeof(prefix), "%s:%d: ", file, line);
	else
		snprintf(prefix, sizeof(prefix), "%s: ", file);
	set_errv(prefix, fmt, ap, 0);
}

int tn_error_at(const char *file, int line, int col, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	set_at(file, line, col, fmt, ap);
	va_end(ap);
	return -1;
}

int tn_input_error_at(const char *file, int line, int col, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	set_at(file, line, col, fmt, ap);
	va_end(ap);
	errkind = TN_ERR_INPUT;
	return -1;
}

const char *tn_errmsg(void)
{
	return errbuf;
}

enum tn_errkind tn_errkind(void)
{
	return errkind;
}

int tn_error_set(enum tn_errkind kind, const char *msg)
{
	snprintf(errbuf, sizeof(errbuf), "%s", msg);
	errkind = kind;
	return -1;
}

void tn_error_clear(void)
{
	errbuf[0] = '\0';
	errkind = TN_ERR_RUNTIME;
}
