/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lab: a testbed's environment, and keeping its secrets out of logs.
 *
 * A testbed's env values (study.h, struct testbed) may name variables of
 * tuner's own environment as ${NAME}: a router's address, the path of an
 * ssh key, a password. They are expanded when a run starts; every value
 * that came from such a reference is a secret: it reaches the testbed's
 * commands in their environment and nowhere else. tuner never writes an
 * env value to the journal, and lab_scrub() replaces the secrets in what
 * the commands printed to their logs. The run's lifecycle (deploy, ready,
 * reboot, recover, quarantine) is in run_lab.c; docs/testbeds.md says
 * what it does.
 */
#ifndef TUNER_LAB_H
#define TUNER_LAB_H

#include <stddef.h>
#include <sys/types.h>

#include "tuner/study.h"

struct lab_env {
	char **vars;     /* "NAME=value", NULL-terminated (cmd_env.extra) */
	char **secrets;  /* the values ${...} references gave (non-empty) */
	size_t nvars, nsecrets;
};

/*
 * Expands testbed tb's env into out (which need not be initialised;
 * release with lab_env_release()). -1 with message, out empty, when a
 * ${NAME} is not set in tuner's environment: "STUDY:LINE:COL: testbed
 * 'r1': env PASS names ${ROUTER_PASSWORD}, which is not set ..." (kind
 * input; the testbed's location in study_path).
 */
int lab_env_expand(struct lab_env *out, const struct testbed *tb, const char *study_path);
void lab_env_release(struct lab_env *e);

/*
 * The next ${NAME} reference in the text at p: where it starts (its "${"),
 * or NULL when there is none; *name its name (malloced: free()), NULL
 * when no '}' closes it; *after the text after that '}'. The one reader
 * of references: the study loader's check, the expansion, lab_env_unset().
 */
const char *lab_next_ref(const char *p, char **name, const char **after);

/* Every ${NAME} the study's testbeds name is set: 0, or -1 with a
 * message at the first testbed that names an unset one (kind input). */
int lab_check_env(const struct study *s);

/* The ${NAME} references of testbed tb that tuner's environment does not
 * set, as "${NAME}, ${NAME}" (malloced: free()), or NULL when none. */
char *lab_env_unset(const struct testbed *tb);

/*
 * Replaces each of secrets[0..n) with "***" in the bytes of the file at
 * path from offset `from` on (what a command appended). 0 (also when the
 * file does not exist), or -1 with message.
 */
/* text with each of secrets[0..n) replaced by "***" (a parser's complaint
 * quotes what the command printed). Caller frees. */
char *lab_scrub_text(const char *text, char *const *secrets, size_t n);

/* The size of the log at path, where what a command appends will start
 * (0 when it does not exist yet). */
off_t lab_log_mark(const char *path);
int lab_scrub(const char *path, off_t from, char *const *secrets, size_t n);

#endif
