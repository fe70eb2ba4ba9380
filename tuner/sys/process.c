/* SPDX-License-Identifier: GPL-2.0-or-later */
/* process: the monotonic clock, the CPU count, the file size limit and the
 * cancellation flag (tuner/util.h) */
#include "tuner/util.h"

#include <stdatomic.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

unsigned long long file_size_limit(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_FSIZE, &rl) < 0 || rl.rlim_cur == RLIM_INFINITY)
		return 0;
	return (unsigned long long)rl.rlim_cur;
}

unsigned cpu_count(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (unsigned)n : 1;
}

/* Lock-free atomic: async-signal-safe and race-free across threads. */
static atomic_int cancel_flag;

void tn_cancel(void)
{
	atomic_store(&cancel_flag, 1);
}

int tn_cancelled(void)
{
	return atomic_load(&cancel_flag) != 0;
}

void tn_cancel_reset(void)
{
	atomic_store(&cancel_flag, 0);
}
