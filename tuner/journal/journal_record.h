/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * journal_record: the JSON half of the journal module, private to it.
 *
 * Turns records into journal lines (journal_record.c) and lines back into
 * records (journal_record_read.c), so that journal.c deals in files, locks
 * and lookups and never sees a jansson type. The line formats are
 * documented in include/tuner/journal.h.
 */
#ifndef TUNER_JOURNAL_RECORD_H
#define TUNER_JOURNAL_RECORD_H

#include <stddef.h>

#include "tuner/journal.h"

/*
 * Encoders: the record as one compact JSON object and a '\n', malloced
 * (caller frees with free()); NULL with a message when a string is not
 * UTF-8. NaN and infinities become null.
 */
char *journal_rec_header_line(const char *study, const char *study_hash);
char *journal_rec_build_line(const struct build_record *r);
char *journal_rec_measure_line(const struct measure_record *r);
char *journal_rec_testbed_line(const struct testbed_record *r);
char *journal_rec_run_line(unsigned jobs, unsigned long planned, unsigned long cached);
char *journal_rec_end_line(int interrupted);

enum jrec_type {
	JREC_OTHER,   /* run, end, or a type a newer tuner writes */
	JREC_HEADER,
	JREC_BUILD,
	JREC_MEASURE,
	JREC_TESTBED,
};

/* One parsed line. */
struct jrec {
	enum jrec_type type;
	long long format;          /* HEADER: -1 when missing */
	char *study_hash;          /* HEADER: malloced, or NULL */
	char *study;               /* HEADER: the study's name, malloced, or NULL */
	struct build_record build; /* BUILD: fields malloced */
	struct measure_record measure; /* MEASURE: fields malloced */
	struct testbed_record testbed; /* TESTBED: fields malloced */
};

/* The status whose journal_build_status_name() is name into *out: 0, or -1. */
int journal_rec_parse_status(enum build_status *out, const char *name);

/* The text is not JSON: returned without a message, since only the caller
 * knows whether that is a torn tail or corruption. */
#define JREC_NOT_JSON (-2)

/*
 * Parses one line (text without its '\n'). 0; JREC_NOT_JSON; or -1 with
 * a message "PATH:LINE: ..." for JSON that is not a valid record. out is
 * always initialized; on 0 the caller takes its fields or frees them with
 * journal_rec_release().
 */
int journal_rec_parse(struct jrec *out, const char *text, size_t len, const char *path,
		      size_t line);
void journal_rec_release(struct jrec *r);

#endif
