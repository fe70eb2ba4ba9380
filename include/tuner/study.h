/*
 * study: a study file (YAML) loaded into a struct study and validated.
 *
 * Every error carries the location of the offending node:
 *   "spaces/x.yaml:12:7: unknown key 'timout' (did you mean 'timeout'?)"
 * and study_load() checks everything it can before anything runs. libyaml is
 * used here and nowhere else.
 *
 * File format (keys not listed are errors):
 *
 *   study: NAME                       # required; [A-Za-z0-9._-]+
 *   source: {repo: DIR, rev: REV, path: SUBDIR}
 *                                     # repo relative to the study file's
 *                                     # directory (default "."), rev default
 *                                     # HEAD, path default "" (whole tree)
 *   space:                            # required mapping, >= 1 dimension
 *     NAME: [VALUE, ...]              # strings; "" allowed; "pgo": off/on
 *   build: {command: CMD, artifact: FILE, timeout: SECONDS}
 *                                     # command and artifact required;
 *                                     # artifact relative to $TUNER_OUT
 *   train: {command: CMD, timeout: SECONDS}   # required if pgo: on appears
 *   deploy: {command: CMD, timeout: SECONDS}  # optional, before measuring
 *   size: {of: artifact, measure: text|file|command, command: CMD}
 *   measure: {command: CMD, parser: P, timeout: S,
 *             repeats: N | {min: N, max: N}}
 *                                     # P: number | iperf3 | json:PATH
 *   testbeds: [NAME, ...]             # default [local]
 *   objectives:                       # required, >= 1
 *     - {name: N, unit: U, goal: max|min, limit: X,
 *        from: measure|size, parser: P}
 *                                     # from defaults to size for the name
 *                                     # "size", else measure; parser
 *                                     # defaults to measure.parser
 *   search: {strategy: exhaustive|random, budget: N, seed: N}
 *   layout: {samples: K}              # K >= 1 layout seeds per config
 */
#ifndef TUNER_STUDY_H
#define TUNER_STUDY_H

#include "tuner/space.h"

struct study_loc {
	int line, col; /* 1-based; 0 when unknown */
};

struct cmd_spec {
	char *command;  /* malloced; NULL when the section is absent */
	double timeout; /* seconds; 0 = no limit */
	struct study_loc loc;
};

enum size_kind { SIZE_NONE, SIZE_FILE, SIZE_TEXT, SIZE_COMMAND };

struct objective {
	char *name;   /* malloced */
	char *unit;   /* malloced, "" if absent */
	int maximize; /* goal: max */
	int has_limit;
	double limit; /* max goal: value >= limit; min goal: value <= limit */
	int from_size; /* 1: the size objective; 0: parsed from measure output */
	char *parser; /* malloced; for measure objectives, never NULL */
};

struct study {
	char *path; /* as given to study_load */
	char *dir;  /* directory of the file */
	char *name;
	char hash[17]; /* hash of the file's bytes */

	char *source_repo; /* as written (default "."), relative to dir */
	char *source_rev;  /* default "HEAD" */
	char *source_path; /* default "" */
	struct study_loc source_rev_loc, source_repo_loc;

	struct space space;
	int has_pgo_on; /* some config uses pgo: on */

	struct cmd_spec build;
	char *artifact;
	struct cmd_spec train;
	struct cmd_spec deploy;

	enum size_kind size_kind; /* SIZE_NONE if no size section */
	struct cmd_spec size_cmd; /* for SIZE_COMMAND: parser "number" */

	struct cmd_spec measure; /* command NULL: no measure objectives */
	char *parser;            /* default "number" */
	unsigned repeats_min, repeats_max;

	char **testbeds;
	size_t ntestbeds;

	struct objective *objectives;
	size_t nobjectives;

	char *strategy;  /* "exhaustive" (default) or "random" */
	uint64_t budget; /* 0 = the whole space */
	uint64_t seed;   /* default 1 */

	unsigned layout_samples; /* default 1 */
};

/*
 * Loads and validates the study file at path into out (which need not be
 * initialised). On failure returns -1 with tn_errmsg() set to a one-line
 * "path:line:col: message" (or "path: message" without a location) and
 * leaves out released. On success the caller releases out with
 * study_release().
 */
int study_load(struct study *out, const char *path);
void study_release(struct study *s);

#endif
