/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * build: one build of one configuration with one layout seed, including the
 * PGO phases, and the size of its artifact.
 *
 *   pgo off:  build (TUNER_PGO=off)
 *   pgo on:   build (TUNER_PGO=generate, TUNER_OUT=DIR/pgo-generate)
 *             -> train (TUNER_ARTIFACT = the instrumented artifact)
 *             -> build (TUNER_PGO=use); the profile stays in DIR/profile
 *
 * Every phase runs `/bin/sh -c COMMAND` through the runner, with the TUNER_*
 * variables of docs/design.md in its environment, output appended to
 * DIR/build.log. A phase that fails or times out ends the build with that
 * status: a result, not an error.
 *
 * With build.applied (study.h), a successful build is then checked: its
 * compiler command lines (the artifact's .GCC.command.line, or what the
 * applied command prints) are judged against the configuration's flags
 * (applied.h) into the record's "applied"; problems are also written to
 * build.log. A check that finds nothing leaves a note, never fails the
 * build.
 */
#ifndef TUNER_BUILD_H
#define TUNER_BUILD_H

#include "tuner/journal.h"
#include "tuner/space.h"
#include "tuner/study.h"

struct build_request {
	const struct study *study;
	const struct config *config;
	unsigned layout_seed;
	const char *src_dir;  /* exported source tree (TUNER_SRC) */
	const char *commit, *tree;
	int dirty;
	const char *dir;      /* this build's output directory (absolute) */
	const char *cache_dir; /* the study's cache directory (TUNER_CACHE), or NULL */
	const char *key;      /* build cache key */
	unsigned jobs;        /* TUNER_JOBS */
	/* PGO only: the profile directory of an earlier build to use instead
	 * of building instrumented and training (train.share), and that
	 * build's key; NULL for a profile of its own. */
	const char *profile_from_dir, *profile_from_key;
	/* PGO with a profile of its own: called (if set) once training
	 * succeeded, with arg and the profile's tree_hash(), before the use
	 * build. */
	void (*on_trained)(void *arg, const char *hash);
	void *on_trained_arg;
};

/*
 * Computes the build cache key: source tree id, flags, PGO mode, layout
 * seed, build and train commands, artifact name and compiler version, and
 * "applied=record" when build.applied is record (such a build gets
 * -frecord-gcc-switches, so its artifact differs), and the hash of
 * build.inputs (and, for PGO, train.inputs) when the study has them.
 */
void build_key(char out[17], const struct study *s, const struct config *c,
	       unsigned layout_seed, const char *tree, const char *compiler);

/*
 * Runs the build described by req. Any previous content of req->dir is
 * removed first (a partial build of an interrupted run). Fills out (caller
 * releases with journal_build_record_release()) and returns 0 whatever
 * the build's status; TN_ECANCELLED if cancelled (out left empty); -1 with
 * message on a system error.
 */
int build_run(struct build_record *out, const struct build_request *req);


#endif
