/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for tuner/sys/pool.c: real threads, atomic counters. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#include "sys/pool.h"
#include "tuner/util.h"

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* --- many jobs over several queues ------------------------------------ */

/* cmocka's assertions longjmp, which is only valid on the test's own
 * thread: jobs record problems here and the test checks it. */
static atomic_int job_errors;

static atomic_int ran[3];

struct tag {
	int q;
};

static void count_job(void *arg, int cancelled)
{
	struct tag *t = arg;

	if (cancelled)
		atomic_fetch_add(&job_errors, 1);
	atomic_fetch_add(&ran[t->q], 1);
	free(t);
}

static void test_pool__many_jobs(void **state)
{
	const unsigned workers[] = { 4, 1, 2 };
	struct pool *p;
	size_t queued, running, done;

	for (int i = 0; i < 3; i++)
		atomic_store(&ran[i], 0);
	assert_int_equal(pool_new(&p, workers, 3), 0);
	for (int i = 0; i < 3000; i++) {
		struct tag *t = xmalloc(sizeof(*t));
		t->q = i % 3;
		pool_submit(p, (size_t)t->q, count_job, t);
	}
	assert_int_equal(pool_wait(p, -1), 1);
	assert_int_equal(atomic_load(&job_errors), 0);
	for (size_t q = 0; q < 3; q++) {
		assert_int_equal(atomic_load(&ran[q]), 1000);
		pool_counts(p, q, &queued, &running, &done);
		assert_int_equal(queued, 0);
		assert_int_equal(running, 0);
		assert_int_equal(done, 1000);
	}
	pool_free(p);
}

/* --- jobs submitting jobs --------------------------------------------- */

static struct pool *chain_pool;
static size_t chain_nqueues;
static atomic_int chain_ran;

/* Fans out: a job of depth d submits two jobs of depth d - 1, to the first
 * and the last queue, so 2^(d+1) - 1 jobs run in all. */
static void fan_job(void *arg, int cancelled)
{
	intptr_t depth = (intptr_t)arg;

	if (cancelled)
		atomic_fetch_add(&job_errors, 1);
	/* Finish late, so pool_wait would return early if it only looked at
	 * the queues and not at running jobs. */
	if (depth == 0)
		sleep_ms(1);
	atomic_fetch_add(&chain_ran, 1);
	if (depth > 0) {
		pool_submit(chain_pool, 0, fan_job, (void *)(depth - 1));
		pool_submit(chain_pool, chain_nqueues - 1, fan_job, (void *)(depth - 1));
	}
}

static void test_pool__jobs_submit_jobs(void **state)
{
	const unsigned workers[] = { 3, 1 };

	atomic_store(&chain_ran, 0);
	chain_nqueues = 2;
	assert_int_equal(pool_new(&chain_pool, workers, 2), 0);
	pool_submit(chain_pool, 1, fan_job, (void *)(intptr_t)8);
	assert_int_equal(pool_wait(chain_pool, -1), 1);
	assert_int_equal(atomic_load(&chain_ran), (1 << 9) - 1);
	assert_int_equal(atomic_load(&job_errors), 0);
	pool_free(chain_pool);
	chain_pool = NULL;
}

/* --- per-queue concurrency bound and FIFO order ------------------------- */

static atomic_int cur_single, max_single, cur_multi, max_multi;
static atomic_int next_order, order_ok;

static void track_max(atomic_int *cur, atomic_int *max)
{
	int now = atomic_fetch_add(cur, 1) + 1;
	int m = atomic_load(max);

	while (now > m && !atomic_compare_exchange_weak(max, &m, now))
		;
}

static void single_job(void *arg, int cancelled)
{
	int want = (int)(intptr_t)arg;

	track_max(&cur_single, &max_single);
	/* One worker: jobs run in submission order. */
	if (atomic_fetch_add(&next_order, 1) != want)
		atomic_store(&order_ok, 0);
	sleep_ms(1);
	atomic_fetch_sub(&cur_single, 1);
}

static void multi_job(void *arg, int cancelled)
{
	track_max(&cur_multi, &max_multi);
	sleep_ms(2);
	atomic_fetch_sub(&cur_multi, 1);
}

static void test_pool__queue_concurrency(void **state)
{
	const unsigned workers[] = { 1, 3 };
	struct pool *p;

	atomic_store(&max_single, 0);
	atomic_store(&max_multi, 0);
	atomic_store(&next_order, 0);
	atomic_store(&order_ok, 1);
	assert_int_equal(pool_new(&p, workers, 2), 0);
	for (int i = 0; i < 60; i++) {
		pool_submit(p, 0, single_job, (void *)(intptr_t)i);
		pool_submit(p, 1, multi_job, NULL);
	}
	assert_int_equal(pool_wait(p, -1), 1);
	assert_int_equal(atomic_load(&max_single), 1);
	assert_true(atomic_load(&max_multi) >= 1);
	assert_true(atomic_load(&max_multi) <= 3);
	assert_int_equal(atomic_load(&next_order), 60);
	assert_int_equal(atomic_load(&order_ok), 1);
	pool_free(p);
}

/* --- a blocked job: counts and pool_wait timeout ---------------------- */

static pthread_mutex_t gate_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t gate_cond = PTHREAD_COND_INITIALIZER;
static int gate_open, gate_entered;

static void gate_job(void *arg, int cancelled)
{
	pthread_mutex_lock(&gate_lock);
	gate_entered++;
	pthread_cond_broadcast(&gate_cond);
	while (!gate_open)
		pthread_cond_wait(&gate_cond, &gate_lock);
	pthread_mutex_unlock(&gate_lock);
}

static void test_pool__wait_timeout(void **state)
{
	const unsigned workers[] = { 1 };
	struct pool *p;
	size_t queued, running, done;
	double t0, waited;

	gate_open = 0;
	gate_entered = 0;
	assert_int_equal(pool_new(&p, workers, 1), 0);
	pool_submit(p, 0, gate_job, NULL);
	pool_submit(p, 0, gate_job, NULL);

	pthread_mutex_lock(&gate_lock);
	while (!gate_entered)
		pthread_cond_wait(&gate_cond, &gate_lock);
	pthread_mutex_unlock(&gate_lock);

	pool_counts(p, 0, &queued, &running, &done);
	assert_int_equal(queued, 1);
	assert_int_equal(running, 1);
	assert_int_equal(done, 0);

	t0 = now_seconds();
	assert_int_equal(pool_wait(p, 0.2), 0);
	waited = now_seconds() - t0;
	assert_true(waited >= 0.19);
	assert_true(waited < 30);
	assert_int_equal(pool_wait(p, 0), 0);

	pthread_mutex_lock(&gate_lock);
	gate_open = 1;
	pthread_cond_broadcast(&gate_cond);
	pthread_mutex_unlock(&gate_lock);

	assert_int_equal(pool_wait(p, 60), 1);
	pool_counts(p, 0, &queued, &running, &done);
	assert_int_equal(queued, 0);
	assert_int_equal(running, 0);
	assert_int_equal(done, 2);
	pool_free(p);
}

/* --- cancellation ------------------------------------------------------ */

static atomic_int calls_cancelled, calls_normal;

struct cjob {
	atomic_int calls;
};

static void cancel_job(void *arg, int cancelled)
{
	struct cjob *c = arg;

	atomic_fetch_add(&c->calls, 1);
	atomic_fetch_add(cancelled ? &calls_cancelled : &calls_normal, 1);
}

static void test_pool__cancelled_jobs_called_once(void **state)
{
	const unsigned workers[] = { 2, 1 };
	struct cjob jobs[200];
	struct pool *p;

	atomic_store(&calls_cancelled, 0);
	atomic_store(&calls_normal, 0);
	for (size_t i = 0; i < ARRAY_SIZE(jobs); i++)
		atomic_init(&jobs[i].calls, 0);
	assert_int_equal(pool_new(&p, workers, 2), 0);
	tn_cancel();
	for (size_t i = 0; i < ARRAY_SIZE(jobs); i++)
		pool_submit(p, i % 2, cancel_job, &jobs[i]);
	assert_int_equal(pool_wait(p, -1), 1);
	tn_cancel_reset();

	assert_int_equal(atomic_load(&calls_cancelled), (int)ARRAY_SIZE(jobs));
	assert_int_equal(atomic_load(&calls_normal), 0);
	for (size_t i = 0; i < ARRAY_SIZE(jobs); i++)
		assert_int_equal(atomic_load(&jobs[i].calls), 1);

	/* After the reset jobs run normally again. */
	pool_submit(p, 0, cancel_job, &jobs[0]);
	assert_int_equal(pool_wait(p, -1), 1);
	assert_int_equal(atomic_load(&calls_normal), 1);
	pool_free(p);
}

/* --- construction ------------------------------------------------------ */

static void test_pool__bad_args(void **state)
{
	const unsigned zero[] = { 2, 0 };
	struct pool *p = (struct pool *)&p;

	assert_int_equal(pool_new(&p, zero, 2), -1);
	assert_null(p);
	assert_true(tn_errmsg()[0] != '\0');
	assert_int_equal(pool_new(&p, zero, 0), -1);
	pool_free(NULL);
}

static void test_pool__free_waits(void **state)
{
	const unsigned workers[] = { 1, 2 };
	struct pool *p;

	atomic_store(&chain_ran, 0);
	assert_int_equal(pool_new(&p, workers, 2), 0);
	chain_pool = p;
	chain_nqueues = 2;
	pool_submit(p, 0, fan_job, (void *)(intptr_t)5);
	/* No pool_wait: pool_free must let every job run, including those a
	 * job of one queue submits to another. */
	pool_free(p);
	chain_pool = NULL;
	assert_int_equal(atomic_load(&chain_ran), (1 << 6) - 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pool__many_jobs),
		cmocka_unit_test(test_pool__jobs_submit_jobs),
		cmocka_unit_test(test_pool__queue_concurrency),
		cmocka_unit_test(test_pool__wait_timeout),
		cmocka_unit_test(test_pool__cancelled_jobs_called_once),
		cmocka_unit_test(test_pool__bad_args),
		cmocka_unit_test(test_pool__free_waits),
	};

	return cmocka_run_group_tests_name("pool", tests, NULL, NULL);
}
