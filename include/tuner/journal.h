/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * journal: results/<study>/journal.jsonl, the study's memory.
 *
 * Append-only JSON Lines, one record per event, each written with a single
 * write() and flushed, so a crash (even SIGKILL) loses at most the record
 * being written. The first line is a header {"type":"header","format":1,
 * "study":NAME,"study_hash":H,"tuner":VERSION}. Opening an existing journal
 * replays it: builds and measurements it holds are looked up instead of
 * being redone. A torn last line (no newline, or not JSON) is cut off (the
 * caller warns, see journal_torn()) and the next record takes its place; a
 * line in the middle that is not JSON, or another format version, is an
 * error, and so is a record of a known type with a field of the wrong
 * type or out of range ("PATH:LINE: bad build record: 'size' must be a
 * number or null, not a string"): a damaged value never becomes a result.
 * Record types this tuner does not know are skipped.
 *
 * Records:
 *   {"type":"build","key","config","seed","flags","pgo","commit","tree",
 *    "dirty","status","exit","seconds","size","dir","artifact","applied"}
 *   where "applied" (only when the study checks applied flags; absent:
 *   not checked) is {"source":"record"|"command","lines":M,"note":S|null,
 *   "flags":[{"flag":F,"in_effect":K,"overridden":O,"overridden_by":S|null,
 *   "unrecorded":true (only when set)}]} (struct applied)
 *   {"type":"measure","build","config","mkey","testbed","run","ok",
 *    "values":{NAME:NUMBER|null},"seconds","error" (only when set)}
 *   where "deploy_failed":true (only when set) marks the record of a build
 *   that did not come up on a testbed (lab.h)
 *   {"type":"testbed","testbed","event","build","ok","seconds","error"
 *    (only when set),"time"}: the lifecycle of a testbed (struct
 *    testbed_record; never any of its environment)
 *   {"type":"run","jobs","planned","cached","time"}, {"type":"end",
 *    "status","time"}; times are UTC, ISO 8601.
 *
 * jansson is used here, in measure (parsers) and in report only.
 * All functions are thread-safe.
 */
#ifndef TUNER_JOURNAL_H
#define TUNER_JOURNAL_H

#include <stddef.h>

#include "analysis/applied.h"

#define JOURNAL_FORMAT 1

enum build_status { BUILD_OK = 0, BUILD_FAILED, BUILD_TIMEOUT, BUILD_TRAIN_FAILED,
		    BUILD_NO_ARTIFACT, BUILD_SIZE_FAILED };

/* Name of a status as written in the journal ("ok", "failed", ...). */
const char *journal_build_status_name(enum build_status s);

struct build_record {
	char key[17];       /* build cache key */
	char config_id[17];
	unsigned layout_seed;
	char *flags;        /* the candidate's TUNER_FLAGS */
	int pgo;            /* 0 off, 1 on */
	char commit[41];
	char tree[41];
	int dirty;          /* the source held uncommitted changes */
	enum build_status status;
	int exit_status;    /* of the failing step, or 0 */
	double seconds;     /* wall time of all phases */
	double size;        /* NaN when no size objective or failed */
	char *dir;          /* build output directory */
	char *artifact;     /* path of the artifact, or NULL */
	char code[41];      /* codeid_file() of the artifact; "" unknown */
	struct applied applied; /* checked 0: not checked */
	/* Not built (build.equivalent: skip): the key of the build GCC was
	 * predicted, and found, to make alike, whose artifact, code and size
	 * this record repeats; "" for a build of its own. */
	char same_build[17];
	char *ignored;      /* same_build: the switches GCC ignores; else NULL */
	/* PGO builds: tree_hash() of the profile the use build read, "" when
	 * unknown (no PGO, training failed, older tuners); and the key of the
	 * build whose profile it was (train.share: check), "" when trained
	 * by this build itself. */
	char profile[17];
	char profile_from[17];
	/* build.executor: slurm: its phases' jobs, "PHASE=ID@NODE ..." (NODE
	 * "?" when never seen running), the last job of each phase; and how
	 * many jobs were submitted in all (retries included). NULL and 0 for
	 * a build made here. */
	char *jobs;
	unsigned job_attempts;
};

struct measure_record {
	char build_key[17];
	char config_id[17];
	/* measure_key() of what made it (commands, inputs, parsers,
	 * objective names, model); "" when unknown (older tuners) */
	char mkey[17];
	char *testbed;
	unsigned run;        /* repeat index, 0-based */
	int ok;              /* all values parsed */
	size_t nvalues;
	char **names;        /* objective names */
	double *values;      /* NaN where not parsed */
	double seconds;
	char *error;         /* NULL when ok; else a one-line reason */
	/* The build did not come up on the testbeds it was deployed to
	 * (lab.boot_attempts times, each testbed recovered): its result,
	 * no value; the run measures it no more. */
	int deploy_failed;
};

/* What happened to a testbed (the run's lab lifecycle): a deploy of a
 * build, a ready wait, a reboot, a recovery, a build that did not boot
 * there, a fault of the testbed's (a measurement it could not take), its
 * quarantine. */
enum tb_event { TB_DEPLOY, TB_READY, TB_REBOOT, TB_RECOVER, TB_BOOT_FAILED, TB_FAULT,
		TB_QUARANTINE, TB_NEVENTS };

/* Name of an event as written in the journal ("deploy", "boot-failed"...). */
const char *journal_tb_event_name(enum tb_event e);

struct testbed_record {
	char *testbed;
	enum tb_event event;
	char build[17];  /* the build concerned (deploy, boot-failed, fault); "" */
	int ok;
	double seconds;
	char *error;     /* NULL when ok; else a one-line reason */
};

struct journal;

/*
 * Opens (creating if missing, with its directory) and replays the journal at
 * path. A new journal gets the header. An existing one whose study_hash
 * differs is still used (the build keys decide what is reusable); *changed
 * is set to 1 then (NULL ok). An existing journal of another study (its
 * header names another) is refused, unless study is NULL (a reader that
 * takes any). Caller frees with journal_close().
 */
int journal_open(struct journal **out, const char *path, const char *study,
		 const char *study_hash, int *changed);

/* Appends (and remembers) a copy of rec. 0 or -1 with message. Strings
 * must be UTF-8 (JSON cannot carry other bytes); NaN and infinite numbers
 * are written as null and read back as NaN. */
int journal_add_build(struct journal *j, const struct build_record *rec);
int journal_add_measure(struct journal *j, const struct measure_record *rec);
int journal_add_testbed(struct journal *j, const struct testbed_record *rec);
/* Appends {"type":"run","jobs":..,"planned":..,"cached":..,"time":..}. */
int journal_add_run(struct journal *j, unsigned jobs, unsigned long planned,
		    unsigned long cached);
/* Appends {"type":"end","status":"complete"|"interrupted",...}. */
int journal_add_end(struct journal *j, int interrupted);

/* The last build record with this key, or NULL. The pointer stays valid
 * until journal_close(); do not free. */
const struct build_record *journal_find_build(struct journal *j, const char *key);

/*
 * The measurement records of a build on a testbed (testbed NULL: all
 * testbeds), in journal order. *out is a malloced array of pointers owned by
 * the journal (free the array with free(), not the records), NULL when the
 * count is 0. Returns the count.
 */
size_t journal_measures(struct journal *j, const char *build_key,
			const char *testbed, const struct measure_record ***out);

/*
 * The build whose image testbed holds, as the journal knows it: its last
 * successful deploy, with no failed deploy or recovery after it. 1 with
 * out set, or 0 when unknown (never deployed, recovered since).
 */
int journal_testbed_image(struct journal *j, const char *testbed, char out[17]);
/* How many times build_key did not come up on a testbed (boot-failed). */
unsigned journal_boot_failures(struct journal *j, const char *build_key);
/* Every testbed record, in journal order: *out malloced (free() it; the
 * records are the journal's), NULL when none. Returns the count. */
size_t journal_testbed_records(struct journal *j, const struct testbed_record ***out);

/* Number of build records replayed from the file when it was opened. */
size_t journal_replayed_builds(struct journal *j);

/* 1 if opening dropped a torn last line (and cut it from the file), for
 * the caller to warn about; the library itself prints nothing. */
int journal_torn(struct journal *j);

void journal_close(struct journal *j);

/* Releases the fields of a record (not the struct). */
void journal_build_record_release(struct build_record *r);
void journal_measure_record_release(struct measure_record *r);
void journal_testbed_record_release(struct testbed_record *r);

#endif
