/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pool: see tuner/sys/pool.h */
#include "pool.h"
#include "tuner/util.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct job {
	pool_fn fn;
	void *arg;
	struct job *next;
};

struct queue {
	struct job *head, *tail; /* FIFO */
	size_t queued, running, done;
	pthread_cond_t work;     /* a job was queued, or shutdown */
};

struct worker {
	struct pool *pool;
	size_t q;
	pthread_t thread;
};

/* One mutex guards everything: jobs are coarse (builds, measurements), so
 * the lock is never contended for long. */
struct pool {
	pthread_mutex_t lock;
	pthread_cond_t idle;     /* pending reached 0; on CLOCK_MONOTONIC */
	struct queue *queues;
	size_t nqueues;
	struct worker *workers;
	size_t nworkers;         /* threads started */
	size_t pending;          /* queued + running, all queues */
	int shutdown;
};

static void *worker_main(void *data)
{
	struct worker *w = data;
	struct pool *p = w->pool;
	struct queue *q = &p->queues[w->q];

	pthread_mutex_lock(&p->lock);
	for (;;) {
		struct job *job;
		int cancelled;

		while (!q->head && !p->shutdown)
			pthread_cond_wait(&q->work, &p->lock);
		if (!q->head)
			break;
		job = q->head;
		q->head = job->next;
		if (!q->head)
			q->tail = NULL;
		q->queued--;
		q->running++;
		/* Read at dequeue: a job queued before the interrupt but started
		 * after it only cleans up. */
		cancelled = tn_cancelled();
		pthread_mutex_unlock(&p->lock);

		job->fn(job->arg, cancelled);
		free(job);

		pthread_mutex_lock(&p->lock);
		q->running--;
		q->done++;
		p->pending--;
		if (!p->pending)
			pthread_cond_broadcast(&p->idle);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

/* Stops and joins the started threads and frees everything. Called with
 * no jobs pending. */
static void destroy(struct pool *p)
{
	pthread_mutex_lock(&p->lock);
	p->shutdown = 1;
	for (size_t i = 0; i < p->nqueues; i++)
		pthread_cond_broadcast(&p->queues[i].work);
	pthread_mutex_unlock(&p->lock);
	for (size_t i = 0; i < p->nworkers; i++)
		pthread_join(p->workers[i].thread, NULL);
	for (size_t i = 0; i < p->nqueues; i++)
		pthread_cond_destroy(&p->queues[i].work);
	pthread_cond_destroy(&p->idle);
	pthread_mutex_destroy(&p->lock);
	free(p->workers);
	free(p->queues);
	free(p);
}

int pool_new(struct pool **out, const unsigned *workers, size_t nqueues)
{
	struct pool *p;
	pthread_condattr_t ca;
	size_t total = 0;
	int err;

	*out = NULL;
	if (!nqueues)
		return tn_error("pool: no queues");
	for (size_t i = 0; i < nqueues; i++) {
		if (!workers[i])
			return tn_error("pool: queue %zu has no workers", i);
		total += workers[i];
	}

	p = xcalloc(1, sizeof(*p));
	pthread_mutex_init(&p->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&p->idle, &ca);
	pthread_condattr_destroy(&ca);
	p->queues = xcalloc(nqueues, sizeof(*p->queues));
	p->nqueues = nqueues;
	for (size_t i = 0; i < nqueues; i++)
		pthread_cond_init(&p->queues[i].work, NULL);
	p->workers = xcalloc(total, sizeof(*p->workers));

	/* No lock needed: nworkers is only read by destroy(), after the
	 * threads are told to stop. */
	for (size_t i = 0; i < nqueues; i++) {
		for (unsigned k = 0; k < workers[i]; k++) {
			struct worker *w = &p->workers[p->nworkers];

			w->pool = p;
			w->q = i;
			err = pthread_create(&w->thread, NULL, worker_main, w);
			if (err) {
				errno = err;
				tn_error_errno("cannot start worker thread");
				destroy(p);
				return -1;
			}
			p->nworkers++;
		}
	}
	*out = p;
	return 0;
}

void pool_submit(struct pool *p, size_t q, pool_fn fn, void *arg)
{
	struct job *job = xmalloc(sizeof(*job));
	struct queue *queue;

	job->fn = fn;
	job->arg = arg;
	job->next = NULL;
	pthread_mutex_lock(&p->lock);
	/* A bad queue index is a programming error, not a runtime one. */
	if (q >= p->nqueues)
		abort();
	queue = &p->queues[q];
	if (queue->tail)
		queue->tail->next = job;
	else
		queue->head = job;
	queue->tail = job;
	queue->queued++;
	p->pending++;
	pthread_cond_signal(&queue->work);
	pthread_mutex_unlock(&p->lock);
}

int pool_wait(struct pool *p, double timeout)
{
	struct timespec until;
	int idle;

	if (timeout >= 0) {
		double whole;

		clock_gettime(CLOCK_MONOTONIC, &until);
		if (timeout > 1e9)
			timeout = 1e9;
		whole = (double)(long)timeout;
		until.tv_sec += (time_t)whole;
		until.tv_nsec += (long)((timeout - whole) * 1e9);
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
	}

	pthread_mutex_lock(&p->lock);
	while (p->pending) {
		if (timeout < 0) {
			pthread_cond_wait(&p->idle, &p->lock);
		} else if (pthread_cond_timedwait(&p->idle, &p->lock, &until) == ETIMEDOUT) {
			break;
		}
	}
	idle = p->pending == 0;
	pthread_mutex_unlock(&p->lock);
	return idle;
}

/* Any of the out-parameters may be NULL. */
void pool_counts(struct pool *p, size_t q, size_t *queued, size_t *running,
		 size_t *done)
{
	struct queue *queue;

	pthread_mutex_lock(&p->lock);
	if (q >= p->nqueues)
		abort();
	queue = &p->queues[q];
	if (queued)
		*queued = queue->queued;
	if (running)
		*running = queue->running;
	if (done)
		*done = queue->done;
	pthread_mutex_unlock(&p->lock);
}

void pool_free(struct pool *p)
{
	if (!p)
		return;
	pool_wait(p, -1);
	destroy(p);
}
