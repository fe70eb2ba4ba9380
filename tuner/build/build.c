/* SPDX-License-Identifier: GPL-2.0-or-later */
/* build: see tuner/build/build.h */
#include "build.h"
#include "sys/slurm.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "codeid.h"
#include "formats/elf.h"
#include "formats/parse.h"
#include "tuner/runner.h"
#include "size.h"
#include "tuner/util.h"

void build_key(char out[17], const struct study *s, const struct config *c,
	       unsigned layout_seed, const char *tree, const char *compiler)
{
	char seed[16];
	uint64_t h = hash64_str(HASH64_INIT, "tuner-build-1");

	snprintf(seed, sizeof(seed), "%u", layout_seed);
	h = hash64_str(h, tree);
	h = hash64_str(h, c->flags);
	h = hash64_str(h, c->pgo == PGO_ON ? "pgo=on" : "pgo=off");
	h = hash64_str(h, seed);
	h = hash64_str(h, s->build.command);
	h = hash64_str(h, c->pgo == PGO_ON && s->train.command ? s->train.command : "");
	h = hash64_str(h, s->artifact);
	h = hash64_str(h, compiler ? compiler : "");
	/* Only when set, so that the keys of studies without them stay. */
	if (s->applied == APPLIED_RECORD)
		h = hash64_str(h, "applied=record");
	if (s->build.inputs[0])
		h = hash64_str(h, s->build.inputs);
	if (c->pgo == PGO_ON && s->train.inputs[0])
		h = hash64_str(h, s->train.inputs);
	hash64_hex(out, h);
}

/* runner_shell() of command in e's environment and in its output directory
 * (build, train, size and applied each run so). */
static int run_in_env(struct runner *r, const char *command, const struct cmd_env *e,
		      const char *log, size_t capture, double timeout)
{
	char **env = cmd_env_build(e);
	int ret = runner_shell(r, command, e->out, env, log, capture, timeout);

	cmd_env_free(env);
	return ret;
}

/* Where a build's phases run: here, or as Slurm jobs (slurm.h), whose ids
 * and nodes go into jobs ("build=ID@NODE train=ID@NODE ..."). */
struct executor {
	const struct study *study;
	const char *key;   /* the build's key: the jobs' names */
	const char *dir;   /* the build's directory: the job scripts */
	struct strbuf jobs;
	unsigned attempts; /* jobs submitted, in all */
};

/* One phase as a Slurm job; fills r's result as the runner would. */
static int phase_slurm(struct runner_result *res, struct executor *x, const char *tag,
		       const struct cmd_spec *cmd, const struct cmd_env *e, const char *log)
{
	struct slurm_result sr;
	char **env = cmd_env_build(e);
	char *name = xasprintf("%s-%s", x->key, tag);
	int ret = slurm_run(&sr, &x->study->slurm, cmd->command, e->out, env, log, x->dir, name,
			    cmd->timeout);

	cmd_env_free(env);
	free(name);
	if (ret < 0)
		return -1;
	memset(res, 0, sizeof(*res));
	res->exited = sr.exited;
	res->exit_code = sr.exit_code;
	res->status = sr.status;
	res->timed_out = sr.timed_out;
	res->cancelled = sr.cancelled;
	res->wall = sr.wall;
	x->attempts += sr.attempts;
	if (sr.attempts)
		strbuf_addf(&x->jobs, "%s%s=%s@%s", x->jobs.len ? " " : "", tag, sr.job,
			    sr.node[0] ? sr.node : "?");
	return 0;
}

/* One phase. Returns 0 with *status set (BUILD_OK or the failure), or
 * TN_ECANCELLED / -1. */
static int phase(enum build_status *status, int *exit_status, const char *name, const char *tag,
		 struct executor *x, const struct cmd_spec *cmd, const struct cmd_env *e,
		 const char *log, enum build_status on_fail)
{
	struct runner r = RUNNER_INIT;
	struct runner_result *res = &r.result;
	int ret;

	log_append(log, "== tuner: %s\n", name);
	if (x->study->executor_slurm)
		ret = phase_slurm(res, x, tag, cmd, e, log);
	else
		ret = run_in_env(&r, cmd->command, e, log, 0, cmd->timeout);
	if (ret < 0)
		goto out;
	if (res->cancelled) {
		ret = TN_ECANCELLED;
		goto out;
	}
	*exit_status = res->status;
	if (res->timed_out) {
		log_append(log, "== tuner: %s timed out\n", name);
		*status = BUILD_TIMEOUT;
	} else if (res->status != 0) {
		*status = on_fail;
	} else {
		*status = BUILD_OK;
	}
out:
	runner_release(&r);
	return ret;
}

static int measure_size(double *out, const struct study *s, const char *artifact,
			const struct cmd_env *e, const char *log)
{
	struct runner r = RUNNER_INIT;
	int ret;

	switch (s->size_kind) {
	case SIZE_NONE:
		*out = NAN;
		return 0;
	case SIZE_FILE:
		return size_file(out, artifact);
	case SIZE_TEXT:
		return size_text(out, artifact);
	case SIZE_COMMAND:
		break;
	}
	ret = run_in_env(&r, s->size_cmd.command, e, log, CAPTURE_MEASURE, s->size_cmd.timeout);
	if (ret == 0 && r.result.cancelled)
		ret = TN_ECANCELLED;
	else if (ret == 0 && r.result.status != 0)
		ret = tn_error("size command exited with status %d", r.result.status);
	else if (ret == 0 && r.result.out_truncated)
		ret = tn_error("size command printed more than %zu MiB: not parsed",
			       CAPTURE_MEASURE >> 20);
	else if (ret == 0)
		ret = parse_value(out, "number", NULL, r.result.out, r.result.out_len);
	runner_release(&r);
	return ret;
}

/* The journal holds UTF-8 only, and a command line may hold any byte:
 * what came from one is kept printable ASCII. */
static void printable(char *str)
{
	for (unsigned char *p = (unsigned char *)str; p && *p; p++)
		if (*p < 0x20 || *p >= 0x7f)
			*p = '?';
}

/* The compiler command lines GCC recorded in the artifact; *note says why
 * there are none. Returns the count. */
static size_t recorded_lines(char ***out, char **note, const char *artifact)
{
	struct elf_file f;
	const struct elf_section *sec = NULL;
	char *data = NULL;
	size_t len = 0, n = 0;
	int found;

	*out = NULL;
	if (elf_open(&f, artifact) < 0) {
		*note = xasprintf("cannot read recorded switches: %s", tn_errmsg());
		return 0;
	}
	found = elf_find_section(&sec, &f, ".GCC.command.line");
	if (found < 0 || (found == 1 && elf_read_section(&data, &len, &f, sec) < 0)) {
		*note = xasprintf("cannot read recorded switches: %s", tn_errmsg());
	} else if (found == 0) {
		*note = xasprintf("no .GCC.command.line in %s: the compiler did not get -frecord-gcc-switches (does every compile get $TUNER_FLAGS? with -flto the link needs them too)",
				  artifact);
	} else {
		n = applied_section_lines(out, data, len);
		if (!n)
			*note = xasprintf(".GCC.command.line in %s is empty", artifact);
	}
	free(data);
	elf_close(&f);
	return n;
}

/*
 * build.applied: collects the build's compiler command lines and judges
 * the configuration's flags against them into out. Nothing here fails the
 * build: what went wrong becomes out->note. 0 or TN_ECANCELLED / -1.
 */
static int check_applied(struct applied *out, const struct study *s, const char *flags,
			 const struct cmd_env *e, const char *log)
{
	struct runner r = RUNNER_INIT;
	struct strbuf problems = STRBUF_INIT;
	char **lines = NULL, *note = NULL;
	size_t n = 0;
	int ret = 0;

	if (s->applied == APPLIED_RECORD) {
		n = recorded_lines(&lines, &note, e->artifact);
	} else {
		log_append(log, "== tuner: %s\n", "applied");
		ret = run_in_env(&r, s->applied_cmd.command, e, log, CAPTURE_APPLIED,
				 s->applied_cmd.timeout);
		if (ret < 0)
			goto out;
		if (r.result.cancelled) {
			ret = TN_ECANCELLED;
			goto out;
		}
		if (r.result.timed_out)
			note = xasprintf("build.applied command timed out after %gs",
					 s->applied_cmd.timeout);
		else if (r.result.status != 0)
			note = xasprintf("build.applied command failed with status %d",
					 r.result.status);
		else
			n = applied_text_lines(&lines, r.result.out ? r.result.out : "",
					       r.result.out_len);
		/* Past the cap: judge the whole lines, say what was left out. */
		if (!note && r.result.out_truncated) {
			if (n && r.result.out_len && r.result.out[r.result.out_len - 1] != '\n')
				free(lines[--n]);
			note = xasprintf("build.applied command printed more than %zu MiB: "
					 "only its first %zu lines were judged",
					 CAPTURE_APPLIED >> 20, n);
		}
		if (!note && !n)
			note = xstrdup("build.applied command printed no command lines");
	}
	applied_analyse(out, flags, lines, n, s->applied == APPLIED_RECORD);
	out->note = note;
	printable(out->note);
	for (size_t i = 0; i < out->nflags; i++)
		printable(out->flags[i].overridden_by);
	applied_describe(&problems, out, "== tuner: applied: ");
	if (problems.len)
		log_append(log, "%s", problems.buf);
out:
	applied_lines_free(lines, n);
	strbuf_release(&problems);
	runner_release(&r);
	return ret;
}

/* train.share: copies the profile an earlier build trained (req) into
 * profile_dir instead of training; its hash into out. 0 or -1. */
static int shared_profile(struct build_record *out, const struct build_request *req,
			  const char *profile_dir, const char *log)
{
	char *note;

	if (copy_tree(req->profile_from_dir, profile_dir) < 0 ||
	    tree_hash(out->profile, profile_dir) < 0)
		return -1;
	snprintf(out->profile_from, sizeof(out->profile_from), "%s", req->profile_from_key);
	note = xasprintf("== tuner: no instrumented build or training: the profile is the one "
			 "build %s trained (train.share: check), copied from %s\n",
			 req->profile_from_key, req->profile_from_dir);
	log_append(log, "%s", note);
	free(note);
	return 0;
}

/* The build commands' environment: flags (the configuration's, or with
 * the record switch), the request's directories, jobs and layout seed;
 * no PGO yet. */
static void build_env(struct cmd_env *e, const struct build_request *req, const char *flags)
{
	const struct study *s = req->study;

	e->flags = flags;
	e->src = req->src_dir;
	e->out = req->dir;
	e->cache = req->cache_dir;
	e->study_dir = s->dir;
	e->jobs = s->executor_slurm && s->slurm.cpus ? s->slurm.cpus : req->jobs;
	e->layout_seed = req->layout_seed;
	e->config_id = req->config->id;
	e->run = -1;
	e->pgo = "off";
}

/*
 * Whether the build left its artifact inside its directory dir: 1 yes,
 * 0 no (missing, or a link out of dir: said in log).
 */
static int artifact_inside(const char *dir, const char *artifact, const char *log)
{
	char *where, *msg;
	int in = path_within(dir, artifact, &where);

	if (in > 0)
		return 1;
	msg = in < 0 ? xasprintf("== tuner: artifact %s is missing\n", artifact) :
	      xasprintf("== tuner: artifact %s leads out of the build directory "
			"(to %s): refused, for it is not this build's\n", artifact, where);
	log_append(log, "%s", msg);
	free(msg);
	free(where);
	return 0;
}

/*
 * PGO: the profile in profile_dir, the one an earlier build trained
 * (train.share) or an instrumented build's (in DIR/pgo-generate) after
 * training; out->profile its hash (on_trained told). Leaves e set for the
 * use build. 0 with *st BUILD_OK or the failure, or TN_ECANCELLED / -1.
 */
static int pgo_profile(enum build_status *st, struct build_record *out,
		       const struct build_request *req, struct executor *x, struct cmd_env *e,
		       const char *profile_dir, const char *log)
{
	const struct study *s = req->study;
	char *gen_dir = xasprintf("%s/pgo-generate", req->dir);
	char *gen_artifact = xasprintf("%s/%s", gen_dir, s->artifact);
	int ret = -1;

	e->profile_dir = profile_dir;
	if (req->profile_from_dir) {
		ret = shared_profile(out, req, profile_dir, log);
		goto out;
	}
	if (mkdir_p(gen_dir) < 0 || mkdir_p(profile_dir) < 0)
		goto out;
	e->out = gen_dir;
	e->pgo = "generate";
	ret = phase(st, &out->exit_status, "build (pgo generate)", "generate", x, &s->build, e,
		    log, BUILD_FAILED);
	if (ret < 0 || *st != BUILD_OK)
		goto out;
	if (!artifact_inside(gen_dir, gen_artifact, log)) {
		*st = BUILD_NO_ARTIFACT;
		goto out;
	}
	e->artifact = gen_artifact;
	ret = phase(st, &out->exit_status, "train", "train", x, &s->train, e, log,
		    BUILD_TRAIN_FAILED);
	if (ret < 0 || *st != BUILD_OK)
		goto out;
	/* What the training left, to compare (train.share). */
	if (tree_hash(out->profile, profile_dir) < 0) {
		log_append(log, "== tuner: profile hash: %s\n", tn_errmsg());
		tn_error_clear();
		out->profile[0] = '\0';
	} else if (req->on_trained) {
		req->on_trained(req->on_trained_arg, out->profile);
	}
out:
	e->artifact = NULL;
	e->out = req->dir;
	e->pgo = "use";
	free(gen_dir);
	free(gen_artifact);
	return ret;
}

/*
 * What a build that succeeded made: its artifact (missing: *st
 * BUILD_NO_ARTIFACT), code id, applied flags (build.applied) and size
 * (failed: *st BUILD_SIZE_FAILED). 0, or TN_ECANCELLED / -1.
 */
static int examine(enum build_status *st, struct build_record *out,
		   const struct build_request *req, struct cmd_env *e, const char *artifact,
		   const char *log)
{
	const struct study *s = req->study;
	int ret;

	if (!artifact_inside(req->dir, artifact, log)) {
		*st = BUILD_NO_ARTIFACT;
		return 0;
	}
	e->artifact = artifact;
	e->flags = req->config->flags;
	/* Unknown when it cannot be worked out: then never shared. */
	if (codeid_file(out->code, artifact) < 0) {
		log_append(log, "== tuner: code id: %s\n", tn_errmsg());
		out->code[0] = '\0';
	}
	if (s->applied != APPLIED_OFF) {
		ret = check_applied(&out->applied, s, req->config->flags, e, log);
		if (ret < 0)
			return ret;
	}
	ret = measure_size(&out->size, s, artifact, e, log);
	if (ret == -1) {
		log_append(log, "== tuner: size: %s\n", tn_errmsg());
		*st = BUILD_SIZE_FAILED;
		ret = 0;
	}
	return ret;
}

/* The record of a build that ended with status st (its artifact, if it
 * succeeded), begun at start. */
static void fill_record(struct build_record *out, const struct build_request *req,
			enum build_status st, const char *artifact, struct executor *x,
			double start)
{
	const struct config *c = req->config;

	memcpy(out->key, req->key, sizeof(out->key));
	memcpy(out->config_id, c->id, sizeof(out->config_id));
	out->layout_seed = req->layout_seed;
	out->flags = xstrdup(c->flags);
	out->pgo = c->pgo == PGO_ON;
	snprintf(out->commit, sizeof(out->commit), "%s", req->commit);
	snprintf(out->tree, sizeof(out->tree), "%s", req->tree);
	out->dirty = req->dirty;
	out->status = st;
	out->seconds = now_seconds() - start;
	out->dir = xstrdup(req->dir);
	out->artifact = st == BUILD_OK ? xstrdup(artifact) : NULL;
	if (st != BUILD_OK)
		out->size = NAN;
	if (x->attempts) {
		out->jobs = strbuf_detach(&x->jobs);
		out->job_attempts = x->attempts;
	}
}

int build_run(struct build_record *out, const struct build_request *req)
{
	const struct study *s = req->study;
	const struct config *c = req->config;
	char *log = xasprintf("%s/build.log", req->dir);
	char *profile_dir = NULL;
	char *artifact = xasprintf("%s/%s", req->dir, s->artifact);
	char *build_flags = NULL;
	struct cmd_env e = { 0 };
	struct executor x = { .study = s, .key = req->key, .dir = req->dir,
			      .jobs = STRBUF_INIT };
	double start = now_seconds();
	enum build_status st = BUILD_OK;
	int ret = -1;

	memset(out, 0, sizeof(*out));
	out->size = NAN;
	if (remove_tree(req->dir) < 0 || mkdir_p(req->dir) < 0)
		goto out;

	/* Build and train see the record switch; size (and measure) the
	 * configuration's flags. */
	if (s->applied == APPLIED_RECORD)
		build_flags = xasprintf("%s%s-frecord-gcc-switches", c->flags,
					*c->flags ? " " : "");
	build_env(&e, req, build_flags ? build_flags : c->flags);
	if (c->pgo == PGO_ON) {
		profile_dir = xasprintf("%s/profile", req->dir);
		ret = pgo_profile(&st, out, req, &x, &e, profile_dir, log);
		if (ret < 0 || st != BUILD_OK)
			goto done;
	}
	ret = phase(&st, &out->exit_status, c->pgo == PGO_ON ? "build (pgo use)" : "build",
		    c->pgo == PGO_ON ? "use" : "build", &x, &s->build, &e, log, BUILD_FAILED);
	if (ret == 0 && st == BUILD_OK)
		ret = examine(&st, out, req, &e, artifact, log);

done:
	/* A full disk or tuner's file size limit is not the build's
	 * result: not recorded, so a run after space is freed (the limit
	 * lifted) builds it again. */
	if (ret == 0 && (st == BUILD_FAILED || st == BUILD_TRAIN_FAILED ||
			 st == BUILD_NO_ARTIFACT) &&
	    (out_of_space(log, req->dir) || over_file_size_limit(log, out->exit_status))) {
		char *why = xstrdup(tn_errmsg());

		tn_error("build of %s [%s] failed: %s; not recorded as a failed build", c->id,
			 c->flags, why);
		free(why);
		ret = -1;
	}
	if (ret < 0) {
		applied_release(&out->applied);
		goto out;
	}
	fill_record(out, req, st, artifact, &x, start);
	ret = 0;
out:
	strbuf_release(&x.jobs);
	free(log);
	free(profile_dir);
	free(artifact);
	free(build_flags);
	return ret;
}
