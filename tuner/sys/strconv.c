/* SPDX-License-Identifier: GPL-2.0-or-later */
/* strconv: numbers and durations from strings, durations as strings (tuner/util.h) */
#include "tuner/util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int parse_double(double *out, const char *s)
{
	char *end;
	double v;

	if (!s || !*s)
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}

int parse_u64(uint64_t *out, const char *s)
{
	char *end;
	unsigned long long v;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

void format_duration(char *buf, size_t len, double seconds)
{
	unsigned long s = seconds > 0 ? (unsigned long)(seconds + 0.5) : 0;

	if (s >= 3600)
		snprintf(buf, len, "%luh%02lum", s / 3600, s / 60 % 60);
	else if (s >= 60)
		snprintf(buf, len, "%lum%02lus", s / 60, s % 60);
	else
		snprintf(buf, len, "%lus", s);
}

int parse_duration(double *out, const char *s)
{
	double total = 0;
	int any = 0;

	if (!s || !*s)
		return -1;
	while (*s) {
		char *end;
		double v;

		if (*s < '0' || *s > '9')
			return -1;
		errno = 0;
		v = strtod(s, &end);
		if (errno || end == s || !isfinite(v))
			return -1;
		switch (*end) {
		case 'd':
			v *= 86400;
			end++;
			break;
		case 'h':
			v *= 3600;
			end++;
			break;
		case 'm':
			v *= 60;
			end++;
			break;
		case 's':
			end++;
			break;
		case '\0':
			if (any) /* "1h30" is ambiguous */
				return -1;
			break;
		default:
			return -1;
		}
		total += v;
		any = 1;
		s = end;
	}
	*out = total;
	return 0;
}
