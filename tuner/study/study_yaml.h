/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * study_yaml: the YAML half of the study module, private to it.
 *
 * Loads one YAML document into a small tree whose every node remembers where
 * it starts, so that study.c validates with "file:line:col" locations and
 * never sees a libyaml type. Anchors and aliases are expanded (an alias
 * becomes a copy of its anchored node). Tags are ignored, except that a
 * tagged empty scalar is not null: every scalar is a string and study.c
 * decides what it means.
 */
#ifndef TUNER_STUDY_YAML_H
#define TUNER_STUDY_YAML_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* The order matters: study_ynode_want() indexes type names by it. */
enum ynode_kind { YNODE_SCALAR, YNODE_SEQ, YNODE_MAP };

struct ynode {
	enum ynode_kind kind;
	int line, col;        /* 1-based start of the node */
	char *str;            /* SCALAR: malloced text, "" for null; else NULL */
	int is_null;          /* SCALAR: a plain empty, "~" or "null" */
	struct ynode **kids;  /* SEQ: the items; MAP: key, value, key, value...
	                         (keys are always scalars) */
	size_t nkids;
	size_t alloc;
};

/*
 * Parses the YAML text buf (len bytes) of the file path into *out, the root
 * node of the only document. Fails (-1, "path:line:col: message") on a
 * syntax error, an empty stream, more than one document, an undefined
 * alias, a non-scalar mapping key, a NUL character or absurd nesting or
 * size. The caller frees *out with study_ynode_free().
 */
int study_ynode_load(struct ynode **out, const char *path, const char *buf, size_t len);

/* Frees n and everything below it. NULL is fine. */
void study_ynode_free(struct ynode *n);

/* For messages: "a mapping", "a list", "an empty value" or "a string". */
const char *study_ynode_describe(const struct ynode *n);

/*
 * Checking helpers. Each reports "path:line:col: message" at the node it
 * is given (at 1:1, the top of the file, for a NULL node) and returns -1;
 * `what` names the value in messages, e.g. "build.timeout".
 */
int study_ynode_error(const char *path, const struct ynode *n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int study_ynode_verror(const char *path, const struct ynode *n, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

/* The value of key in map, or NULL. */
const struct ynode *study_ynode_get(const struct ynode *map, const char *key);

/* Rejects duplicate keys and keys not in known (NULL-terminated), in
 * document order, suggesting the closest known key for a typo. */
int study_ynode_check_keys(const char *path, const struct ynode *map, const char *const *known);

/* "'what' must be EXPECTED, not 'text'" at n. */
int study_ynode_bad_value(const char *path, const struct ynode *n, const char *what,
			  const char *expected);
/* 0 if n is of kind, else a type error. */
int study_ynode_want(const char *path, const struct ynode *n, enum ynode_kind kind,
		     const char *what);

/*
 * Typed scalars. Numbers may be quoted: users should not have to care.
 * study_ynode_str frees *out and replaces it with a malloced copy (caller
 * frees). study_ynode_timeout wants a number of seconds from 0 to
 * STUDY_MAX_TIMEOUT, study_ynode_u64 an integer >= 0 and study_ynode_count
 * an integer from 1 to STUDY_MAX_COUNT (study.h); the error of a number
 * past its bound names the range.
 */
int study_ynode_str(char **out, const char *path, const struct ynode *n, const char *what);
int study_ynode_double(double *out, const char *path, const struct ynode *n, const char *what);
int study_ynode_timeout(double *out, const char *path, const struct ynode *n, const char *what);
int study_ynode_u64(uint64_t *out, const char *path, const struct ynode *n, const char *what);
int study_ynode_count(unsigned *out, const char *path, const struct ynode *n, const char *what);
/* A keyword: *out is its index in choices (NULL-terminated). */
int study_ynode_choice(int *out, const char *path, const struct ynode *n, const char *what,
		       const char *const *choices);

#endif
