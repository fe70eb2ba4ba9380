/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * util: errors, memory, strings, hashing, a seeded RNG, files, the
 * cancellation flag. Everything here is safe to call from any thread.
 *
 * One header for the base layer that every file uses; each section names
 * the file of tuner/sys/ that implements it (error.c, alloc.c, strbuf.c,
 * hash.c, rng.c, files.c, tree.c, lock.c, process.c, strconv.c).
 *
 * Errors: a function that fails sets one message with tn_error() (kept per
 * thread) and returns -1; the command layer prints it once with tn_errmsg().
 * The message has a kind (tn_errkind()): bad input (a study file, set by
 * tn_input_error_at()) or a runtime error (everything else); the exit
 * code follows the kind, never the text.
 * Allocation failure is not an error but an abort: x*() never return NULL.
 */
#ifndef TUNER_UTIL_H
#define TUNER_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define TUNER_VERSION "0.1.0"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---- errors: error.c ---- */

/* The kinds of error: exit 2 and exit 1. */
enum tn_errkind { TN_ERR_RUNTIME, TN_ERR_INPUT };

/* Sets this thread's error message (printf format; kind runtime) and
 * returns -1. */
int tn_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Same, prefixed "FILE:LINE:COL: "; line/col 0 are left out. Returns -1. */
int tn_error_at(const char *file, int line, int col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Same, appending ": strerror(errno)". Returns -1. */
int tn_error_errno(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "PARSER: line NO: WHAT: 'TEXT'" (returns -1): a parser's complaint
 * about one input line (len bytes), shortened to 60 bytes ("..." after)
 * and made printable, so the message stays one line. */
int tn_error_line(const char *parser, size_t no, const char *what, const char *text,
		  size_t len);
/* As tn_error_at(), of kind TN_ERR_INPUT: the user's input is wrong at
 * FILE:LINE:COL (a study file). Returns -1. */
int tn_input_error_at(const char *file, int line, int col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* This thread's last message ("" if none). Owned by the thread; valid until
 * the next tn_error*() call on the same thread. */
const char *tn_errmsg(void);
/* The kind of this thread's last message. */
enum tn_errkind tn_errkind(void);
/* Sets this thread's message and kind to msg and kind (another thread's,
 * carried over); returns -1. */
int tn_error_set(enum tn_errkind kind, const char *msg);
void tn_error_clear(void);

/* ---- allocation: alloc.c ---- */

/* Allocation: abort on out-of-memory. Caller frees with free(). */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Grows *arr (of *alloc elements of size sz) to hold at least n elements. */
#define ALLOC_GROW(arr, n, alloc) \
	do { \
		if ((n) > (alloc)) { \
			(alloc) = (alloc) ? (alloc) * 2 : 8; \
			if ((alloc) < (n)) \
				(alloc) = (n); \
			(arr) = xrealloc((arr), (alloc) * sizeof(*(arr))); \
		} \
	} while (0)

/* ---- strbuf: strbuf.c ---- */

/* A growable, always NUL-terminated byte string (git's strbuf). */
struct strbuf {
	char *buf; /* never NULL after any strbuf_add*; "" before */
	size_t len;
	size_t alloc;
};
#define STRBUF_INIT { .buf = NULL, .len = 0, .alloc = 0 }
/* Makes room for extra more bytes (and the NUL) without changing sb. */
void strbuf_grow(struct strbuf *sb, size_t extra);
void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, char c);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void strbuf_reset(struct strbuf *sb);
/* Returns the string (malloced, caller frees with free()) and resets sb. */
char *strbuf_detach(struct strbuf *sb);
void strbuf_release(struct strbuf *sb);
/* buf or "" when nothing was added yet. */
const char *strbuf_str(const struct strbuf *sb);

/* ---- hashing: hash.c ---- */

/* 64-bit FNV-1a, continuing from h (start with HASH64_INIT). */
#define HASH64_INIT 0xcbf29ce484222325ULL
uint64_t hash64(uint64_t h, const void *data, size_t len);
uint64_t hash64_str(uint64_t h, const char *s); /* includes the NUL */
/* 16 lowercase hex digits + NUL. */
void hash64_hex(char out[17], uint64_t h);

/* splitmix64's finalizer: a bijection that spreads nearby values apart. */
uint64_t mix64(uint64_t x);

/*
 * A set of 64-bit values: open addressing, at most half full, growing as
 * values come. Start from U64SET_INIT; release with u64set_release().
 */
struct u64set {
	uint64_t *slot; /* 0: empty (a value of 0 is has_zero) */
	size_t n, cap;
	int has_zero;
};
#define U64SET_INIT { .slot = NULL, .n = 0, .cap = 0, .has_zero = 0 }
/* Adds v: 1 if it was new, 0 if it was there already. */
int u64set_add(struct u64set *set, uint64_t v);
void u64set_release(struct u64set *set);

/* ---- random numbers: rng.c ---- */

/* xoshiro256** seeded through splitmix64 (Blackman & Vigna 2018). */
struct rng {
	uint64_t s[4];
};
void rng_seed(struct rng *r, uint64_t seed);
uint64_t rng_next(struct rng *r);
/* Uniform in [0, n), n > 0, without modulo bias. */
uint64_t rng_below(struct rng *r, uint64_t n);
/* Uniform in [0, 1). */
double rng_double(struct rng *r);

/* ---- files: files.c ---- */

/* mkdir -p; 0 or -1 with message. */
int mkdir_p(const char *path);
/*
 * Whether path, all its links followed, names something inside the
 * directory dir (itself resolved): 1 inside, 0 outside (*where, if not
 * NULL, set to where it leads: caller frees with free()), -1 with errno
 * set when either cannot be resolved (a missing path: ENOENT).
 */
int path_within(const char *dir, const char *path, char **where);
/* Whole file, NUL-terminated; *out caller frees with free(). Only a
 * regular file (or a link to one) is read: a FIFO, a device such as
 * /dev/zero or a directory is refused at once, and so is a file larger
 * than READ_FILE_MAX bytes, with a message that says which. */
#define READ_FILE_MAX ((size_t)1 << 30)
int read_file(char **out, size_t *len, const char *path);
/* Writes all of data to fd (retrying short writes and EINTR); -1 with
 * errno set. */
int write_all(int fd, const void *data, size_t len);
/*
 * Writes data to path. A regular file or an absent one is replaced
 * atomically (a new temporary file beside it, then rename). What is not
 * tuner's to replace is not: "-" (and /dev/stdout, /dev/stderr,
 * /dev/fd/N) is the process's own stream, written through; a FIFO or a
 * character device (/dev/null, /dev/full, a terminal) is written through, its errors returned (a FIFO that gets no reader
 * within 5 s is an error); a symbolic link to anything else, a directory, a
 * block device or a socket is refused. 0, or -1 with a message naming
 * path.
 */
int write_file_atomic(const char *path, const void *data, size_t len);
/*
 * Whether a command that failed did so for want of space, not for its
 * own reasons: the last 64 KiB of its log (NULL: none) say "No space
 * left on device" or "Disk quota exceeded", or the filesystem of dir has
 * less than 1 MiB left. 1 with a message saying which (the caller then
 * does not record the failure as the command's result), else 0.
 */
int out_of_space(const char *log, const char *dir);
/*
 * Whether a command that failed with status (128 + a signal, or its
 * shell's exit status) did so for the file size limit tuner runs under
 * (and passes on to its commands), not for its own reasons: there is a
 * limit, and the command died of SIGXFSZ (status 128 + SIGXFSZ) or the
 * last 64 KiB of its log (NULL: none) say "File size limit exceeded" (a
 * child of make's or gcc's that died of it) or "File too large" (EFBIG).
 * 1 with a message saying which (the caller then does not record the
 * failure as the command's result), else 0.
 */
int over_file_size_limit(const char *log, int status);
/* Appends fmt, with what for its one %s, to the log file at path (a
 * line of tuner's own among a command's output); best effort. */
void log_append(const char *path, const char *fmt, const char *what);
/* Directory part of path ("." if none). Caller frees with free(). */
char *path_dirname(const char *path);

/* ---- directory trees: tree.c ---- */

/* rm -rf (does not follow links); 0 or -1 with message. Missing is fine. */
int remove_tree(const char *path);
/* cp -rp: copies the tree at from (files, directories, symbolic links)
 * to to, which must not exist, keeping modes and modification times;
 * 0 or -1 with message. */
int copy_tree(const char *from, const char *to);
/* A 64-bit hash of the tree at path (hex into out): every entry's name
 * relative to path, in sorted order, its type, and a file's bytes or a
 * link's target; not modes or times. 0 or -1 with message. */
int tree_hash(char out[17], const char *path);

/* ---- locks: lock.c ---- */

/*
 * One writer per directory: takes an exclusive lock (flock) on dir/lock,
 * writing this process's pid into it, and keeps it until *fd is closed
 * (or the process ends, however it ends). 0 with *fd set; -1 with a
 * message naming the holder's pid when another process holds it, or
 * with the error. Caller closes *fd to release.
 */
int dir_lock(int *fd, const char *dir);

/* ---- this process: process.c ---- */

/* Monotonic clock, seconds. */
double now_seconds(void);
/* Number of online CPUs, >= 1. */
unsigned cpu_count(void);
/* The file size limit tuner runs under (RLIMIT_FSIZE, `ulimit -f`) in
 * bytes; 0 when there is none. */
unsigned long long file_size_limit(void);

/*
 * Cancellation: one process-wide flag, set from the SIGINT/SIGTERM handler
 * (tn_cancel is async-signal-safe). Runners and the pool poll it.
 */
void tn_cancel(void);
int tn_cancelled(void);
void tn_cancel_reset(void); /* for tests */
/* Returned by a function that tn_cancelled() interrupted (a build, a
 * measurement): nothing done to record, no message; -1 stays an error. */
#define TN_ECANCELLED (-2)

/* ---- numbers and durations in text: strconv.c ---- */

/* Parses a decimal/float in full ("12", "1e3", "0.5"); 0 or -1 (no message). */
int parse_double(double *out, const char *s);
int parse_u64(uint64_t *out, const char *s);
/* A duration as "1h02m", "3m05s" or "12s" into buf. */
void format_duration(char *buf, size_t len, double seconds);
/* A duration "8h", "90m", "1h30m", "45s", "2d" or "600" (seconds) into
 * *out (seconds): 0, or -1 when s is not one. */
int parse_duration(double *out, const char *s);

#endif
