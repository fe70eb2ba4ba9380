/* SPDX-License-Identifier: GPL-2.0-or-later */
/* journal: see include/tuner/journal.h */
#include "tuner/journal.h"
#include "tuner/util.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "journal_record.h"

/*
 * A string-keyed hash table, open addressing with linear probing. Keys
 * point into the values (records and groups), which never move, so the
 * table stores no strings of its own.
 */
struct slot {
	const char *key; /* NULL: empty */
	void *val;
};

struct table {
	struct slot *slots;
	size_t cap; /* 0 or a power of two */
	size_t n;
};

/* All measurements of one build, in journal order. */
struct measure_group {
	char key[17];
	struct measure_record **recs;
	size_t n, alloc;
};

struct journal {
	pthread_mutex_t lock;
	char *path;
	int fd;
	off_t size;      /* end of the last complete record */
	int torn;        /* a torn last line was dropped at open */
	int damaged;     /* a failed append could not be undone */
	size_t replayed_builds;
	struct build_record **builds; /* every build record, to free */
	size_t nbuilds, abuilds;
	struct table latest; /* key -> newest struct build_record */
	struct table groups; /* build key -> struct measure_group */
	struct testbed_record **tbrecs; /* every testbed record, in order */
	size_t ntbrecs, atbrecs;
};

static size_t table_find(const struct table *t, const char *key)
{
	size_t mask = t->cap - 1;
	size_t i = (size_t)hash64_str(HASH64_INIT, key) & mask;

	while (t->slots[i].key && strcmp(t->slots[i].key, key))
		i = (i + 1) & mask;
	return i;
}

static void *table_get(const struct table *t, const char *key)
{
	if (!t->cap)
		return NULL;
	return t->slots[table_find(t, key)].val;
}

static void table_put(struct table *t, const char *key, void *val)
{
	size_t i;

	/* At most half full keeps probe sequences short. */
	if ((t->n + 1) * 2 > t->cap) {
		struct table bigger = { NULL, t->cap ? t->cap * 2 : 64, 0 };

		bigger.slots = xcalloc(bigger.cap, sizeof(*bigger.slots));
		for (size_t k = 0; k < t->cap; k++)
			if (t->slots[k].key)
				table_put(&bigger, t->slots[k].key, t->slots[k].val);
		free(t->slots);
		*t = bigger;
	}
	i = table_find(t, key);
	if (!t->slots[i].key)
		t->n++;
	t->slots[i].key = key;
	t->slots[i].val = val;
}

/* Takes ownership of rec (malloced, fields filled). Lock held. */
static void remember_build(struct journal *j, struct build_record *rec)
{
	ALLOC_GROW(j->builds, j->nbuilds + 1, j->abuilds);
	j->builds[j->nbuilds++] = rec;
	table_put(&j->latest, rec->key, rec);
}

/* Takes ownership of rec. Lock held. */
static void remember_measure(struct journal *j, struct measure_record *rec)
{
	struct measure_group *g = table_get(&j->groups, rec->build_key);

	if (!g) {
		g = xcalloc(1, sizeof(*g));
		memcpy(g->key, rec->build_key, sizeof(g->key));
		table_put(&j->groups, g->key, g);
	}
	ALLOC_GROW(g->recs, g->n + 1, g->alloc);
	g->recs[g->n++] = rec;
}

/* Takes ownership of rec. Lock held. */
static void remember_testbed(struct journal *j, struct testbed_record *rec)
{
	ALLOC_GROW(j->tbrecs, j->ntbrecs + 1, j->atbrecs);
	j->tbrecs[j->ntbrecs++] = rec;
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

static struct build_record *copy_build(const struct build_record *r)
{
	struct build_record *c = xmalloc(sizeof(*c));

	*c = *r;
	c->flags = xstrdup(r->flags ? r->flags : "");
	c->dir = dup_or_null(r->dir);
	c->artifact = dup_or_null(r->artifact);
	c->ignored = dup_or_null(r->ignored);
	c->jobs = dup_or_null(r->jobs);
	applied_copy(&c->applied, &r->applied);
	return c;
}

static struct measure_record *copy_measure(const struct measure_record *r)
{
	struct measure_record *c = xmalloc(sizeof(*c));

	*c = *r;
	c->testbed = xstrdup(r->testbed ? r->testbed : "");
	c->error = dup_or_null(r->error);
	c->names = xcalloc(r->nvalues, sizeof(*c->names));
	c->values = xcalloc(r->nvalues, sizeof(*c->values));
	for (size_t i = 0; i < r->nvalues; i++) {
		c->names[i] = xstrdup(r->names[i]);
		c->values[i] = r->values[i];
	}
	return c;
}

/*
 * Appends line (ending in '\n') with a single write(): O_APPEND puts it at
 * the end, and a failure part way is cut off again so that the file never
 * holds half a record followed by whole ones. Lock held.
 */
static int append(struct journal *j, const char *line)
{
	size_t len = strlen(line);
	size_t done = 0;

	if (j->damaged)
		return tn_error("'%s' could not be repaired after a failed write", j->path);
	while (done < len) {
		ssize_t n = write(j->fd, line + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			tn_error_errno("cannot write '%s'", j->path);
			if (done && ftruncate(j->fd, j->size) < 0)
				j->damaged = 1;
			return -1;
		}
		done += (size_t)n;
	}
	j->size += (off_t)len;
	return 0;
}

/*
 * Appends line (consumed; NULL: encoding it failed) under the lock and, once
 * it is written, remembers a copy of rec through remember (NULL: nothing to
 * remember).
 */
static int append_line(struct journal *j, char *line,
		       void (*remember)(struct journal *, const void *), const void *rec)
{
	int ret;

	if (!line)
		return -1;
	pthread_mutex_lock(&j->lock);
	ret = append(j, line);
	if (ret == 0 && remember)
		remember(j, rec);
	pthread_mutex_unlock(&j->lock);
	free(line);
	return ret;
}

static void remember_build_copy(struct journal *j, const void *rec)
{
	remember_build(j, copy_build(rec));
}

static void remember_measure_copy(struct journal *j, const void *rec)
{
	remember_measure(j, copy_measure(rec));
}

static void remember_testbed_copy(struct journal *j, const void *rec)
{
	const struct testbed_record *r = rec;
	struct testbed_record *c = xmalloc(sizeof(*c));

	*c = *r;
	c->testbed = xstrdup(r->testbed ? r->testbed : "");
	c->error = dup_or_null(r->error);
	remember_testbed(j, c);
}

int journal_add_testbed(struct journal *j, const struct testbed_record *rec)
{
	return append_line(j, journal_rec_testbed_line(rec), remember_testbed_copy, rec);
}

int journal_testbed_image(struct journal *j, const char *testbed, char out[17])
{
	int known = 0;

	out[0] = '\0';
	pthread_mutex_lock(&j->lock);
	for (size_t i = j->ntbrecs; i-- > 0;) {
		const struct testbed_record *r = j->tbrecs[i];

		if (strcmp(r->testbed, testbed))
			continue;
		if (r->event == TB_RECOVER)
			break;
		if (r->event == TB_DEPLOY) {
			if (r->ok && r->build[0]) {
				memcpy(out, r->build, 17);
				known = 1;
			}
			break;
		}
	}
	pthread_mutex_unlock(&j->lock);
	return known;
}

unsigned journal_boot_failures(struct journal *j, const char *build_key)
{
	unsigned n = 0;

	pthread_mutex_lock(&j->lock);
	for (size_t i = 0; i < j->ntbrecs; i++)
		n += j->tbrecs[i]->event == TB_BOOT_FAILED &&
		     !strcmp(j->tbrecs[i]->build, build_key);
	pthread_mutex_unlock(&j->lock);
	return n;
}

size_t journal_testbed_records(struct journal *j, const struct testbed_record ***out)
{
	size_t n;

	pthread_mutex_lock(&j->lock);
	n = j->ntbrecs;
	*out = n ? xcalloc(n, sizeof(**out)) : NULL;
	for (size_t i = 0; i < n; i++)
		(*out)[i] = j->tbrecs[i];
	pthread_mutex_unlock(&j->lock);
	return n;
}

int journal_add_build(struct journal *j, const struct build_record *rec)
{
	return append_line(j, journal_rec_build_line(rec), remember_build_copy, rec);
}

int journal_add_measure(struct journal *j, const struct measure_record *rec)
{
	return append_line(j, journal_rec_measure_line(rec), remember_measure_copy, rec);
}

int journal_add_run(struct journal *j, unsigned jobs, unsigned long planned,
		    unsigned long cached)
{
	return append_line(j, journal_rec_run_line(jobs, planned, cached), NULL, NULL);
}

int journal_add_end(struct journal *j, int interrupted)
{
	return append_line(j, journal_rec_end_line(interrupted), NULL, NULL);
}

/* Takes the record r holds, if any. Line 1 is known to be a header. */
static int apply(struct journal *j, struct jrec *r, size_t line, const char *study,
		 const char *study_hash, int *changed)
{
	if (line == 1) {
		if (r->format != JOURNAL_FORMAT)
			return tn_error_at(j->path, 1, 0, "journal format %lld, this tuner reads %d",
					   r->format, JOURNAL_FORMAT);
		if (study && r->study && strcmp(r->study, study))
			return tn_error_at(j->path, 1, 0, "the journal of study '%s', not of '%s': "
					   "give this study a results directory of its own "
					   "(--results DIR)", r->study, study);
		if (changed && study_hash &&
		    (!r->study_hash || strcmp(r->study_hash, study_hash)))
			*changed = 1;
		return 0;
	}
	/* Other types (run, end, and any a newer tuner adds) are history
	 * for people, not state. */
	if (r->type == JREC_BUILD) {
		struct build_record *b = xmalloc(sizeof(*b));

		*b = r->build;
		memset(&r->build, 0, sizeof(r->build));
		remember_build(j, b);
		j->replayed_builds++;
	} else if (r->type == JREC_MEASURE) {
		struct measure_record *m = xmalloc(sizeof(*m));

		*m = r->measure;
		memset(&r->measure, 0, sizeof(r->measure));
		remember_measure(j, m);
	} else if (r->type == JREC_TESTBED) {
		struct testbed_record *t = xmalloc(sizeof(*t));

		*t = r->testbed;
		memset(&r->testbed, 0, sizeof(r->testbed));
		remember_testbed(j, t);
	}
	return 0;
}

/*
 * Replays data, the whole file. Sets j->size to the end of the last good
 * line; a torn last line (no newline, or not JSON) is left beyond it.
 */
static int replay(struct journal *j, const char *data, size_t len, const char *study,
		  const char *study_hash, int *changed)
{
	size_t pos = 0;
	size_t line = 0;

	while (pos < len) {
		const char *nl = memchr(data + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - data) : len;
		struct jrec r;
		int ret;

		line++;
		if (!nl) {
			j->torn = 1;
			break;
		}
		ret = journal_rec_parse(&r, data + pos, end - pos, j->path, line);
		if (ret == JREC_NOT_JSON && end + 1 == len) {
			j->torn = 1;
			break;
		}
		if (ret == JREC_NOT_JSON)
			return tn_error_at(j->path, (int)line, 0, "not a JSON record");
		if (line == 1 && (ret < 0 || r.type != JREC_HEADER))
			ret = tn_error_at(j->path, 1, 0, "not a tuner journal (no header)");
		else if (ret == 0)
			ret = apply(j, &r, line, study, study_hash, changed);
		journal_rec_release(&r);
		if (ret < 0)
			return -1;
		pos = end + 1;
	}
	j->size = (off_t)pos;
	return 0;
}

int journal_open(struct journal **out, const char *path, const char *study,
		 const char *study_hash, int *changed)
{
	struct journal *j = xcalloc(1, sizeof(*j));
	char *dir = path_dirname(path);
	char *data = NULL;
	char *header = NULL;
	size_t len = 0;
	int ret = -1;

	*out = NULL;
	if (changed)
		*changed = 0;
	pthread_mutex_init(&j->lock, NULL);
	j->path = xstrdup(path);
	j->fd = -1;
	if (mkdir_p(dir) < 0)
		goto out;
	j->fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0666);
	if (j->fd < 0) {
		tn_error_errno("cannot open '%s'", path);
		goto out;
	}
	if (read_file(&data, &len, path) < 0 ||
	    replay(j, data, len, study, study_hash, changed) < 0)
		goto out;
	/* Cut the torn tail so that the next record starts a clean line. */
	if (j->torn && ftruncate(j->fd, j->size) < 0) {
		tn_error_errno("cannot truncate '%s'", path);
		goto out;
	}
	if (j->size == 0) {
		header = journal_rec_header_line(study ? study : "", study_hash);
		if (!header || append(j, header) < 0)
			goto out;
	}
	*out = j;
	j = NULL;
	ret = 0;
out:
	journal_close(j);
	free(header);
	free(data);
	free(dir);
	return ret;
}

const struct build_record *journal_find_build(struct journal *j, const char *key)
{
	const struct build_record *r;

	pthread_mutex_lock(&j->lock);
	r = table_get(&j->latest, key);
	pthread_mutex_unlock(&j->lock);
	return r;
}

size_t journal_measures(struct journal *j, const char *build_key,
			const char *testbed, const struct measure_record ***out)
{
	const struct measure_record **list = NULL;
	struct measure_group *g;
	size_t n = 0;

	pthread_mutex_lock(&j->lock);
	g = table_get(&j->groups, build_key);
	if (g && g->n) {
		list = xcalloc(g->n, sizeof(*list));
		for (size_t i = 0; i < g->n; i++)
			if (!testbed || !strcmp(g->recs[i]->testbed, testbed))
				list[n++] = g->recs[i];
	}
	pthread_mutex_unlock(&j->lock);
	if (!n) {
		free(list);
		list = NULL;
	}
	*out = list;
	return n;
}

size_t journal_replayed_builds(struct journal *j)
{
	size_t n;

	pthread_mutex_lock(&j->lock);
	n = j->replayed_builds;
	pthread_mutex_unlock(&j->lock);
	return n;
}

int journal_torn(struct journal *j)
{
	int t;

	pthread_mutex_lock(&j->lock);
	t = j->torn;
	pthread_mutex_unlock(&j->lock);
	return t;
}

void journal_close(struct journal *j)
{
	if (!j)
		return;
	if (j->fd >= 0)
		close(j->fd);
	for (size_t i = 0; i < j->nbuilds; i++) {
		journal_build_record_release(j->builds[i]);
		free(j->builds[i]);
	}
	free(j->builds);
	for (size_t i = 0; i < j->groups.cap; i++) {
		struct measure_group *g = j->groups.slots[i].val;

		if (!g)
			continue;
		for (size_t k = 0; k < g->n; k++) {
			journal_measure_record_release(g->recs[k]);
			free(g->recs[k]);
		}
		free(g->recs);
		free(g);
	}
	for (size_t i = 0; i < j->ntbrecs; i++) {
		journal_testbed_record_release(j->tbrecs[i]);
		free(j->tbrecs[i]);
	}
	free(j->tbrecs);
	free(j->groups.slots);
	free(j->latest.slots);
	pthread_mutex_destroy(&j->lock);
	free(j->path);
	free(j);
}
