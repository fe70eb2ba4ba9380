/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pool: worker threads serving named queues.
 *
 * A pool has several queues, each with its own number of worker threads
 * (e.g. queue 0: N build slots; queue 1..T: one worker per testbed, so a
 * testbed runs one measurement at a time). A job may submit further jobs to
 * any queue (a finished build submits its measurements).
 *
 * Jobs run in submission order per queue. When tn_cancelled() is set, jobs
 * not yet started are still called, once, with cancelled = 1, so that they
 * free their argument and do nothing else. Workers never print.
 */
#ifndef TUNER_POOL_H
#define TUNER_POOL_H

#include <stddef.h>

struct pool;

typedef void (*pool_fn)(void *arg, int cancelled);

/* Creates the pool and starts its threads: queue q gets workers[q] >= 1
 * threads. Caller frees with pool_free(). */
int pool_new(struct pool **out, const unsigned *workers, size_t nqueues);

/* Queues fn(arg) on queue q. Thread-safe; callable from jobs. */
void pool_submit(struct pool *p, size_t q, pool_fn fn, void *arg);

/* Waits until no job is queued or running, or `timeout` seconds pass
 * (timeout < 0: no limit). Returns 1 when idle, 0 on timeout. */
int pool_wait(struct pool *p, double timeout);

/* Counts for progress: queued and running jobs of queue q, and jobs done. */
void pool_counts(struct pool *p, size_t q, size_t *queued, size_t *running,
		 size_t *done);

/* Waits until idle, stops and joins the threads, frees the pool. NULL ok. */
void pool_free(struct pool *p);

#endif
