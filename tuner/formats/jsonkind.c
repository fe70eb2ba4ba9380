/* SPDX-License-Identifier: GPL-2.0-or-later */
/* jsonkind: a JSON value's type as messages name it (jsonkind.h) */
#include "jsonkind.h"

#include <stdio.h>

const char *jsonkind_name(const json_t *v)
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

int jsonkind_first_bad(int *bad, char *what, size_t size, const char *fmt, va_list ap)
{
	if (*bad)
		return 0;
	vsnprintf(what, size, fmt, ap);
	*bad = 1;
	return 1;
}
