/* SPDX-License-Identifier: GPL-2.0-or-later */
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
 *   build: {command: CMD, artifact: FILE, timeout: SECONDS,
 *           applied: record | {command: CMD, timeout: SECONDS},
 *           inputs: [PATH, ...], equivalent: build | skip,
 *           executor: local | slurm,
 *           slurm: {partition: NAME, cpus: N, mem: SIZE, time: MINUTES,
 *                   retries: N, poll: SECONDS}}
 *                                     # command and artifact required;
 *                                     # artifact relative to $TUNER_OUT;
 *                                     # applied: check which flags each
 *                                     # build really used (below);
 *                                     # inputs: below; equivalent: skip
 *                                     # the builds GCC is predicted, and
 *                                     # was seen, to make alike
 *                                     # (gccopt_predicted());
 *                                     # executor: slurm submits every
 *                                     # build phase as a Slurm job
 *                                     # (slurm.h, docs/cluster.md): cpus
 *                                     # also sets TUNER_JOBS, time
 *                                     # defaults to the timeout's,
 *                                     # retries (default 2) to submit
 *                                     # a job lost with its node again,
 *                                     # poll (default 2 s) between
 *                                     # squeue calls; slurm only with it
 *   train: {command: CMD, timeout: SECONDS, inputs: [PATH, ...],
 *           share: own | check}
 *                                     # required if pgo: on appears;
 *                                     # share: check: configurations
 *                                     # predicted to train the same
 *                                     # profile share one, once a pair
 *                                     # trained both and got the same
 *                                     # (gccopt_profile_form())
 *   deploy: {command: CMD, timeout: SECONDS}  # optional: puts a build on
 *                                     # a testbed (flash a router), when
 *                                     # the testbed does not hold it
 *   ready: {command: CMD, timeout: SECONDS, interval: SECONDS,
 *           within: SECONDS}          # optional: polled after deploy,
 *                                     # reboot and recover until it
 *                                     # succeeds (wait for boot)
 *   reboot: {command: CMD, timeout: SECONDS}  # optional, between two
 *                                     # measurements on a testbed (not
 *                                     # right after a deploy)
 *   recover: {command: CMD, timeout: SECONDS} # optional: brings a testbed
 *                                     # back after a failed deploy, boot or
 *                                     # measurement (power-cycle, failsafe)
 *   size: {of: artifact, measure: text|file|command, command: CMD}
 *   measure: {command: CMD, parser: P, timeout: S, inputs: [PATH, ...],
 *             repeats: N | {min: N, max: N}, same_code: share|separate,
 *             model: {l1_miss: C, ll_miss: C, clock_mhz: F, files: GLOB},
 *             uarch: {preset: NAME, KEY: VALUE, ...}}
 *                                     # P: number | iperf3 | json:PATH |
 *                                     # cachegrind-model | cachegrind-model:
 *                                     # cycles, :ir or :i1-misses |
 *                                     # uarch-model[:cycles, :insns, ...]
 *                                     # (measure.h); model: for
 *                                     # cachegrind-model only; uarch: for
 *                                     # uarch-model only, and required by it
 *   testbeds: [NAME | {name: NAME, env: {VAR: VALUE, ...}}, ...]
 *                                     # default [local]; VALUE may name
 *                                     # the user's ${VARIABLE}s (secrets:
 *                                     # never journaled nor logged)
 *   lab: {mode: split|all, order: rounds|builds, quarantine: N,
 *         boot_attempts: N}           # how testbeds share the work
 *                                     # (lab.h)
 *   objectives:                       # required, >= 1
 *     - {name: N, unit: U, goal: max|min, limit: X,
 *        from: measure|size, parser: P}
 *                                     # from defaults to size for the name
 *                                     # "size", else measure; parser
 *                                     # defaults to measure.parser
 *   search: {strategy: exhaustive|random|nsga2|surrogate, budget: N,
 *            seed: N, time: DURATION, race: true|false}
 *                                     # strategy.h; time: "8h", "90m",
 *                                     # "1h30m", "600" (seconds): no new
 *                                     # batch is started after it; race
 *                                     # (default true): the strategy may
 *                                     # measure a configuration again
 *   layout: {samples: K}              # K >= 1 layout seeds per config
 *   watch: {flags: F, layout: K, repeats: N,
 *           notify: {command: CMD, timeout: SECONDS}}
 *                                     # tuner watch (docs/watch.md): the
 *                                     # flags every commit is built with
 *                                     # (default: the first
 *                                     # configuration's), layout seeds
 *                                     # (>= 2) and runs per commit to
 *                                     # start with, and a command run
 *                                     # with the report when a commit
 *                                     # is named
 *
 * Numbers have upper bounds, past which a value is a slip of the keyboard
 * (4294967295 samples), refused where it is written rather than by the
 * allocator: measure.repeats (min, max) and layout.samples at most
 * STUDY_MAX_COUNT, every timeout at most STUDY_MAX_TIMEOUT seconds,
 * search.budget at most STUDY_MAX_CONFIGS. A run evaluates at most
 * STUDY_MAX_CONFIGS configurations (the budget, else the whole space):
 * its front weighs every pair of them, in memory (pareto.h); and plans at
 * most STUDY_MAX_BUILDS builds, those times the layout seeds times the
 * source revisions (study_check_plan()).
 *
 * Every command runs in its build's directory ($TUNER_OUT; the training
 * run in the instrumented build's) and sees the study file's directory as
 * $TUNER_STUDY_DIR.
 *
 * build.applied collects each build's compiler command lines, stores in
 * the journal which requested flags were in effect in them, and warns
 * when one was not (applied.h has the rules):
 *   record: the build and train commands get TUNER_FLAGS with
 *     " -frecord-gcc-switches" appended, and the lines are read back from
 *     the artifact's .GCC.command.line section (one per distinct switch
 *     set). The configuration's id, its build key's flags and the
 *     journal's "flags" stay the configuration's own flags; the key adds
 *     "applied=record", since such an artifact differs (it carries the
 *     section). A flag that reaches no compiler takes the record switch
 *     with it: a file built without $TUNER_FLAGS leaves no line at all, so
 *     use a command to see every compilation.
 *   {command: CMD}: CMD runs after a successful build, in the build's
 *     environment (TUNER_OUT, TUNER_ARTIFACT, ...), and prints one compiler
 *     command line per line on stdout (a kernel: the cmd_ lines of the
 *     .cmd files under $TUNER_OUT). Not part of the build key.
 * A check that finds no lines, or a command that fails, is a warning, not
 * a failed build.
 *
 * build.inputs and train.inputs name the files a build reads from outside
 * the source tree (its script, a config fragment): their bytes are part of
 * the build key, so editing one rebuilds, where the command's text alone
 * would keep the old builds. Paths are relative to the study file's
 * directory; a directory stands for every regular file below it (names and
 * bytes, in name order; symlinks followed). train.inputs count for PGO
 * builds only, as the train command does. A path that cannot be read is
 * an error at load time.
 *
 * measure.uarch is the modelled core of the uarch-model parsers (uarch.h,
 * uarch_score.h): a preset (cortex-a9: a BCM47094's Cortex-A9 with its
 * PL310 L2; 1004k: an MT7621's MIPS 1004Kc; cachegrind: cachegrind's cache
 * model), then any key of ua_config_set() to change it, as strings or
 * numbers: the machine (l1i, l1d, l2: "SIZE:WAYS:LINE[:lru|rr|random]";
 * dir: "none|bimodal:N|gshare:N:H"; btb: "N:WAYS|none"; ras: N;
 * indirect: btb|none; writeback: on|off) and the penalties in cycles
 * (insn, l1i_miss, l1d_miss, l2_miss, taken, mispredict) and clock_mhz.
 * uarch_config.c says where every preset number comes from. The machine
 * reaches the measure command as $TUNER_UARCH (comma-separated plugin
 * arguments) with the plugin's path in $TUNER_UARCH_PLUGIN; the scorer
 * checks that the report was made for that machine. The penalties stay in
 * tuner: `tuner uarch` weighs saved reports with other ones.
 *
 * measure.model is the cache model of the cachegrind-model parsers (see
 * cgmodel.h); every key is optional, the numbers are > 0:
 *   l1_miss: 12       cycles an L1 miss costs when the L2 has the line
 *   ll_miss: 100      cycles an L2 miss costs on top of that (DRAM)
 *   clock_mhz: 1400   core clock; the BCM47094 runs its A9s at 1.4 GHz
 *   files: "fp_*"     base names of the counted source files (fnmatch)
 * Where the penalties come from. Published figures for a Cortex-A9 with a
 * PL310 (L2C-310) L2:
 *   - ARM, L2C-310 TRM (DDI 0246E), table 1.1, "typical access times":
 *     on-chip L2 8 cycles, DRAM 30-100 cycles.
 *   - 7-cpu.com, "ARM Cortex-A9" (Exynos 4210 at 1.2 GHz, dependent loads):
 *     L1 hit 4 cycles, L2 hit 23 (19 more), DRAM 110 ns more again, which
 *     is 154 cycles at 1.4 GHz.
 *   - the PL310's tag and data RAM latencies are set per SoC, 1 to 8
 *     cycles each (arm,tag-latency and arm,data-latency in Linux device
 *     trees), so its hit time differs from chip to chip.
 * A pointer chase exposes the whole latency, but the A9 issues out of
 * order with non-blocking caches (hit-under-miss, two linefill buffers, a
 * store buffer that hides most write misses, a prefetcher on DRAM misses),
 * so an average miss in forwarding code stalls for less. 12 and 100 are
 * that effective cost, between ARM's typical figures and the dependent-load
 * ones: an assumption, not a measurement. Instruction misses are hidden
 * least; l1_miss: 19 and ll_miss: 154 are the dependent-load bounds to try.
 * The penalty scales layout effects: in the feasibility run, 30 cycles
 * instead of 12 roughly doubled the spread between layout seeds.
 */
#ifndef TUNER_STUDY_H
#define TUNER_STUDY_H

#include "tuner/cgmodel.h"
#include "uarch/uarch.h"
#include "sys/slurm.h"
#include "tuner/space.h"

struct study_loc {
	int line, col; /* 1-based; 0 when unknown */
};

/* Upper bounds of the study's numbers (above; docs/study.md). */
#define STUDY_MAX_COUNT 10000         /* measure.repeats, layout.samples */
#define STUDY_MAX_TIMEOUT 604800      /* seconds: a week */
#define STUDY_MAX_CONFIGS 10000ULL    /* search.budget; what a run evaluates */
#define STUDY_MAX_BUILDS 100000ULL    /* the builds a run plans */

/* A testbed: where measurements run, and the environment its commands
 * get (testbeds: entries). */
struct testbed {
	char *name;        /* malloced */
	size_t nenv;
	char **env_name;   /* malloced: the variables' names */
	char **env_value;  /* malloced: their values as written, ${VAR}
	                      references unexpanded (lab_env() expands them) */
	struct study_loc loc;
};

/* lab.mode: split: each measurement goes to one free testbed (identical
 * routers); all: every testbed measures every build. lab.order: rounds:
 * one run of each build in turn (interleaved; a testbed reflashes between
 * builds); builds: a build's runs back to back where it is deployed. */
enum lab_mode { LAB_SPLIT, LAB_ALL };
enum lab_order { LAB_ROUNDS, LAB_BUILDS };

struct lab_opts {
	enum lab_mode mode;     /* default LAB_SPLIT */
	enum lab_order order;   /* default LAB_ROUNDS */
	unsigned quarantine;    /* testbed faults in a row that quarantine it
	                           (default 3) */
	unsigned boot_attempts; /* a build that does not come up this many
	                           times (the testbed recovered each time) is a
	                           failed deploy (default 2) */
	struct study_loc loc;   /* of the lab key (1:1 without one) */
};

struct cmd_spec {
	char *command;  /* malloced; NULL when the section is absent */
	double timeout; /* seconds; 0 = no limit */
	struct study_loc loc;
	char inputs[17]; /* hash of the inputs' names and bytes (build and
	                    train only); "" without inputs */
};

enum size_kind { SIZE_NONE, SIZE_FILE, SIZE_TEXT, SIZE_COMMAND };

enum applied_mode { APPLIED_OFF, APPLIED_RECORD, APPLIED_COMMAND };

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
	char *dir;  /* directory of the file, absolute when it exists */
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
	enum applied_mode applied;   /* build.applied; APPLIED_OFF if absent */
	struct cmd_spec applied_cmd; /* APPLIED_COMMAND: its command */
	/* build.equivalent: skip: a configuration GCC is predicted to build
	 * as an earlier one (gccopt_predicted()) is not built, once a build
	 * of such a pair confirmed it; build (default): every one is. */
	int skip_equivalent;
	/* build.executor: slurm: every build phase (PGO's too, training
	 * included) runs as a Slurm job (slurm.h); local (default): here.
	 * build.slurm: the jobs' options; partition and mem malloced. */
	int executor_slurm;
	struct slurm_opts slurm;
	struct cmd_spec train;
	/* train.share: check: a PGO configuration predicted to train the same
	 * profile as an earlier one (gccopt_profile_form(): same source,
	 * layout seed and flags but for switches GCC applies after
	 * instrumenting) uses that one's profile instead of building and
	 * training its own, once a pair that differs in the same kinds of
	 * switch trained the same profile; own (default): each trains. */
	int share_profiles;
	struct cmd_spec deploy;
	struct cmd_spec reboot;

	enum size_kind size_kind; /* SIZE_NONE if no size section */
	struct cmd_spec size_cmd; /* for SIZE_COMMAND: parser "number" */

	struct cmd_spec measure; /* command NULL: no measure objectives */
	char *parser;            /* default "number" */
	unsigned repeats_min, repeats_max;
	struct cg_model model;   /* measure.model; the defaults if absent */
	struct ua_config uarch;  /* measure.uarch; valid when has_uarch */
	int has_uarch;
	/* measure.same_code: share (default): builds whose code is the
	 * same (codeid.h) are measured once; separate: each is (for a
	 * measure that judges the flags, not the program). */
	int share_same_code;

	/* The testbeds' names (pointers into tbs[].name, not owned: for
	 * the many readers that need only the name), and each testbed. */
	char **testbeds;
	size_t ntestbeds;
	struct testbed *tbs;
	/* The testbed lifecycle (docs/testbeds.md): ready is polled every
	 * ready_interval seconds for at most ready_within after a deploy,
	 * reboot or recover; recover runs when one fails. */
	struct cmd_spec ready, recover;
	double ready_interval, ready_within;
	struct lab_opts lab;

	struct objective *objectives;
	size_t nobjectives;

	char *strategy;  /* "exhaustive" (default), "random", "nsga2", "surrogate" */
	uint64_t budget; /* 0 = the whole space */
	uint64_t seed;   /* default 1 */
	double time;     /* search.time in seconds; 0: none */
	/* search.race: a learning strategy may propose a configuration again
	 * to measure it with more layout seeds (run_search()); default 1 */
	int race;
	/* For study_check_plan()'s messages: the search section's key (the
	 * space's without one) and layout.samples (the layout key's; 1:1
	 * without one). */
	struct study_loc search_loc, samples_loc;

	unsigned layout_samples; /* default 1 */
	/* watch: what tuner watch measures each commit with (NULL / 0: its
	 * defaults, those of tuner bisect), and the command that receives its
	 * report (watch.notify; command NULL when absent). */
	char *watch_flags;
	unsigned watch_layout, watch_repeats;
	struct cmd_spec watch_notify;
};

/*
 * Loads and validates the study file at path into out (which need not be
 * initialised). On failure returns -1 with tn_errmsg() set to a one-line
 * "path:line:col: message" (or "path: message" without a location) and
 * leaves out released. On success the caller releases out with
 * study_release().
 */
int study_load(struct study *out, const char *path);
/* How a run counts measurements of a build: per testbed (lab.mode all:
 * each testbed measures each build) or over all of them (split): the
 * number of such slots. */
static inline size_t study_slots(const struct study *s)
{
	return s->lab.mode == LAB_ALL ? s->ntestbeds : 1;
}

/* name is an environment variable's name: [A-Za-z_][A-Za-z0-9_]*. */
int study_env_name_ok(const char *name);
void study_release(struct study *s);

/*
 * Whether a run of s with search budget `budget` (0: the whole space; the
 * study's, or the one `tuner run --budget` gives) over nrevs source
 * revisions can be planned: at most STUDY_MAX_CONFIGS configurations and
 * STUDY_MAX_BUILDS builds, so a budget for a larger space. Costs
 * nothing however large the space. 0, or -1 with a "path:line:col:
 * message" of kind input saying what to change.
 */
int study_check_plan(const struct study *s, uint64_t budget, size_t nrevs);

/* The study's objectives as a front compares them (goal, hard limit;
 * exact: the size objective), into objs (s->nobjectives, the caller's):
 * what the strategies are given. */
struct pareto_obj;
void study_pareto_objs(struct pareto_obj *objs, const struct study *s);

#endif
