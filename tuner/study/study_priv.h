/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * study_priv: what the parts of the study loader share, private to the
 * study module. study.c loads the file and parses the top-level sections;
 * study_cmds.c parses the sections that run commands (build, train, deploy,
 * reboot, size, measure); study_lab.c the testbeds and their lifecycle
 * (testbeds, lab, ready, recover); study_objectives.c the objectives;
 * study_loader.c has the checks they all use.
 */
#ifndef TUNER_STUDY_PRIV_H
#define TUNER_STUDY_PRIV_H

#include "tuner/study.h"
#include "study_yaml.h"

/* One load in progress. */
struct loader {
	const char *path;
	struct study *s;
	const struct ynode *measure; /* the measure section, or NULL */
	const struct ynode *model;   /* measure.model, or NULL */
	const struct ynode *uarch;   /* measure.uarch, or NULL */
	const struct ynode *pgo_on;  /* the "on" value of the pgo dimension */
};

/* study_loader.c. "path:line:col: message" at n (1:1 for NULL); returns -1. */
int study_err(const struct loader *ld, const struct ynode *n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* n must be a mapping with only the known keys (NULL-terminated). */
int study_want_map(const struct loader *ld, const struct ynode *n, const char *what,
		   const char *const *known);

/* name must be a measure parser; the error lists the known ones. */
int study_check_parser(const struct loader *ld, const struct ynode *n, const char *name);

static inline struct study_loc study_loc_of(const struct ynode *n)
{
	struct study_loc l = { n->line, n->col };

	return l;
}

/* A section that is a command, {command: CMD, timeout: S, ...}, with the
 * keys it knows (inputs among them: parsed too): train, deploy, reboot,
 * ready, recover. 0, or -1 with the message set (a missing or empty
 * command too). */
int study_parse_cmd_section(const struct loader *ld, struct cmd_spec *out,
			    const struct ynode *n, const char *section,
			    const char *const *keys);

/* Section parsers (study_cmds.c): key is the section's key node, n its
 * value. 0, or -1 with the message set. */
int study_parse_build(struct loader *ld, const struct ynode *key, const struct ynode *n);
int study_parse_train(struct loader *ld, const struct ynode *key, const struct ynode *n);
int study_parse_deploy(struct loader *ld, const struct ynode *key, const struct ynode *n);
int study_parse_reboot(struct loader *ld, const struct ynode *key, const struct ynode *n);
int study_parse_size(struct loader *ld, const struct ynode *key, const struct ynode *n);
int study_parse_measure(struct loader *ld, const struct ynode *key, const struct ynode *n);
/* study_lab.c: testbeds, lab, ready, recover */
int study_parse_testbeds(struct loader *ld, const struct ynode *key, const struct ynode *n);
int study_parse_lab(struct loader *ld, const struct ynode *key, const struct ynode *n);
int study_parse_ready(struct loader *ld, const struct ynode *key, const struct ynode *n);
int study_parse_recover(struct loader *ld, const struct ynode *key, const struct ynode *n);
/* study_objectives.c: objectives (after size and measure). */
int study_parse_objectives(struct loader *ld, const struct ynode *key, const struct ynode *n);
/* Frees the objectives of s. */
void study_release_objectives(struct study *s);
/* [local] when the study names no testbed. */
void study_default_testbeds(struct study *s);
/* Frees the testbeds and the lifecycle commands of s. */
void study_release_testbeds(struct study *s);

#endif
