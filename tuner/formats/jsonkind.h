/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the readers of JSON (the journal, results, the json: parser) call
 * a value of the wrong type in their messages. jansson users only. */
#ifndef TUNER_JSONKIND_H
#define TUNER_JSONKIND_H

#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>

/* "an object", "an integer", "null", ...: v's type for a message. */
static inline const char *json_kind(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT: return "an object";
	case JSON_ARRAY: return "an array";
	case JSON_STRING: return "a string";
	case JSON_INTEGER: return "an integer";
	case JSON_REAL: return "a number";
	case JSON_TRUE: case JSON_FALSE: return "a boolean";
	case JSON_NULL: return "null";
	}
	return "a value";
}

/*
 * The first complaint of a reader, formatted into what (size bytes): 1 the
 * first time (*bad set), 0 when one was already made (what untouched), so
 * that a record's message names its first bad field.
 */
static inline int json_first_bad(int *bad, char *what, size_t size, const char *fmt,
				 va_list ap)
{
	if (*bad)
		return 0;
	vsnprintf(what, size, fmt, ap);
	*bad = 1;
	return 1;
}

#endif
