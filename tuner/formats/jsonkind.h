/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the readers of JSON (the journal, results, the json: parser) call
 * a value of the wrong type in their messages. jansson users only. */
#ifndef TUNER_JSONKIND_H
#define TUNER_JSONKIND_H

#include <jansson.h>
#include <stdarg.h>
#include <stddef.h>

/* "an object", "an integer", "null", ...: v's type for a message (static
 * storage). */
const char *jsonkind_name(const json_t *v);

/*
 * The first complaint of a reader, formatted into what (size bytes): 1 the
 * first time (*bad set), 0 when one was already made (what untouched), so
 * that a record's message names its first bad field.
 */
int jsonkind_first_bad(int *bad, char *what, size_t size, const char *fmt, va_list ap);

#endif
