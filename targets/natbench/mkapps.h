/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mkapps: the generator's model of the applications it invents, shared by
 * mkapps.c (inventing) and mkapps_emit.c (writing C). Build tool only.
 */
#ifndef MKAPPS_H
#define MKAPPS_H

#include <stdint.h>
#include <stdio.h>

#include "apps.h"

#define MAX_APPS 96
#define MAX_FIELDS 24
#define MAX_SET 8

struct field {
	int kind, n, cls, lo, hi;
	uint32_t val, aux;
	uint8_t set[MAX_SET];
	uint8_t kinds[MAX_SET];
	char words[MAX_SET][16];
	int act[MAX_SET];        /* action per enum value / word / header */
	uint32_t actc[MAX_SET];  /* its constant */
	int hash;                /* loop hash flavour */
};

struct msg {
	int nfields;
	struct field f[MAX_FIELDS];
};

/* A session tracker: per state, rules tried in order. */
#define MAX_TSTATES 8
#define MAX_TRULES 4

struct trule {
	int kind, dir, shift, mask, val, next;
	uint32_t c;
};

struct tstate {
	int nrules;
	struct trule r[MAX_TRULES];
};

struct app {
	int proto, kind, dscp, port, rounds[2], resp[2], fill[2];
	uint32_t weight;
	int text;
	struct msg m[2];
	int nstates;
	struct tstate ts[MAX_TSTATES];
};

extern struct app apps[MAX_APPS];
extern int napps;

/* Prints to the current output file. */
void emit(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void emit_parser(int app, int dir);
void emit_tracker(int app);
void emit_prototypes(int app);
void emit_registry(void);
void emit_tables(void);

extern FILE *out;

#endif
