/* SPDX-License-Identifier: GPL-2.0-or-later */
/* gccspace's parts: the listing reader (gccspace_read.c) and what the
 * builder (gccspace.c) needs of it. */
#ifndef TUNER_GCCSPACE_PRIV_H
#define TUNER_GCCSPACE_PRIV_H

#include <stddef.h>

/* An option's state as listed. */
enum gccspace_state {
	ST_ON,        /* [enabled] */
	ST_OFF,       /* [disabled] */
	ST_LATER,     /* nothing, or [default]: decided later (target, other flags) */
	ST_ELSEWHERE, /* [available in ...] */
	ST_ALIAS,     /* another option's name */
	ST_VALUE,     /* a value */
};

/* One listed option. */
struct gccspace_entry {
	char *option; /* the name, "-falign-functions", "--param=align-threshold" */
	int eq;       /* listed with '=': takes a value */
	char *spec;   /* after the '=': "", "<1,65536>", "<number>", "[a|b]" */
	char *value;  /* the state or value, trimmed */
	enum gccspace_state st;
};

/* A listing, in GCC's order. Start from { 0 }; release with
 * gccspace_listing_release(). */
struct gccspace_listing {
	struct gccspace_entry *e;
	size_t n, alloc;
};

/*
 * Reads text: its header line (header), then option lines (blank lines
 * anywhere). Params (param) are "--param=NAME=" lines; their spec, if
 * any, a range "<MIN,MAX>". 0, or -1 with a message naming what (the
 * listing, "--help=params") and the line.
 */
int gccspace_read_listing(struct gccspace_listing *l, const char *text, const char *header,
			  const char *what, int param);
void gccspace_listing_release(struct gccspace_listing *l);
/* The entry of option listed with '=' (eq) or without, or NULL. */
const struct gccspace_entry *gccspace_find_entry(const struct gccspace_listing *l,
						 const char *option, int eq);

/* s starts with prefix: 1 or 0. */
int gccspace_starts(const char *s, const char *prefix);
/* The length of option's name: up to its '=' (a param's second '='). */
size_t gccspace_name_len(const char *option);
/* A whole decimal integer of s[0..len): 0, or -1. */
int gccspace_parse_ll(long long *out, const char *s, size_t len);
/* "<MIN,MAX>" into min and max: 0, or -1. */
int gccspace_parse_range(long long *min, long long *max, const char *spec);

#endif
