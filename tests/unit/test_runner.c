/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for tuner/sys/runner.c: real child processes under /bin/sh -c. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tuner/runner.h"
#include "tuner/util.h"

static char tmpdir[] = "/tmp/tuner-test-runner-XXXXXX";

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* Path under the test's temp dir; caller frees. */
static char *tmp_path(const char *name)
{
	return xasprintf("%s/%s", tmpdir, name);
}

static int file_exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

static pid_t read_pid(const char *path)
{
	char *s;
	long pid;

	assert_int_equal(read_file(&s, NULL, path), 0);
	pid = strtol(s, NULL, 10);
	free(s);
	assert_true(pid > 1);
	return (pid_t)pid;
}

/*
 * True once pid is gone. The test process is a child subreaper, so an
 * orphaned grandchild becomes our child: reap it, or it stays a zombie and
 * kill(pid, 0) keeps succeeding.
 */
static int gone(pid_t pid)
{
	for (int i = 0; i < 1000; i++) {
		waitpid(pid, NULL, WNOHANG);
		if (kill(pid, 0) < 0 && errno == ESRCH)
			return 1;
		sleep_ms(10);
	}
	return 0;
}

/* What runner_set_warn() said, for the tests to look at. */
static struct {
	char line[4][256];
	size_t len;
} warnings;

static void record_warning(const char *line)
{
	if (warnings.len < ARRAY_SIZE(warnings.line))
		snprintf(warnings.line[warnings.len++], sizeof(warnings.line[0]), "%s", line);
}

static int run_sh(struct runner *r, struct runner_opts *opts, const char *cmd)
{
	const char *argv[] = { "/bin/sh", "-c", cmd, NULL };
	int ret;

	opts->argv = argv;
	ret = runner_run(r, opts);
	opts->argv = NULL;
	return ret;
}

static void test_runner__exit_codes(void **state)
{
	struct runner r = RUNNER_INIT;
	struct runner_opts o = RUNNER_OPTS_INIT;

	assert_int_equal(run_sh(&r, &o, "exit 0"), 0);
	assert_true(r.result.exited);
	assert_int_equal(r.result.exit_code, 0);
	assert_int_equal(r.result.status, 0);
	assert_int_equal(r.result.signal, 0);
	assert_false(r.result.timed_out);
	assert_false(r.result.cancelled);
	assert_null(r.result.out);
	assert_true(r.result.maxrss_kb > 0);
	runner_release(&r);

	assert_int_equal(run_sh(&r, &o, "i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done; exit 42"), 0);
	assert_true(r.result.exited);
	assert_int_equal(r.result.exit_code, 42);
	assert_int_equal(r.result.status, 42);
	assert_true(r.result.user + r.result.sys > 0.01);
	assert_true(r.result.wall >= r.result.user * 0.5);
	runner_release(&r);
}

static void test_runner__signals(void **state)
{
	struct runner r = RUNNER_INIT;
	struct runner_opts o = RUNNER_OPTS_INIT;
	sigset_t block, old;

	/* Ignored dispositions and the mask survive exec: the runner must
	 * reset them, or the child would not die of these signals. */
	signal(SIGUSR1, SIG_IGN);
	sigemptyset(&block);
	sigaddset(&block, SIGUSR2);
	pthread_sigmask(SIG_BLOCK, &block, &old);

	assert_int_equal(run_sh(&r, &o, "kill -USR1 $$; exit 3"), 0);
	assert_false(r.result.exited);
	assert_int_equal(r.result.signal, SIGUSR1);
	assert_int_equal(r.result.status, 128 + SIGUSR1);
	runner_release(&r);

	assert_int_equal(run_sh(&r, &o, "kill -USR2 $$; exit 3"), 0);
	assert_int_equal(r.result.signal, SIGUSR2);
	assert_int_equal(r.result.status, 128 + SIGUSR2);
	runner_release(&r);

	pthread_sigmask(SIG_SETMASK, &old, NULL);
	signal(SIGUSR1, SIG_DFL);

	/* tuner ignores SIGXFSZ (main.c); a command writing past a file
	 * size limit still dies of it (its shell says 128 + SIGXFSZ), which
	 * tells the limit from the command's own failure (util.h,
	 * over_file_size_limit()), not EFBIG and whatever exit the writer
	 * makes of it. */
	signal(SIGXFSZ, SIG_IGN);
	assert_int_equal(run_sh(&r, &o, "f=$(mktemp) || exit 99; (ulimit -f 1; "
				"exec head -c 4096 /dev/zero >\"$f\"); s=$?; rm -f \"$f\"; exit $s"), 0);
	assert_true(r.result.exited);
	assert_int_equal(r.result.exit_code, 128 + SIGXFSZ);
	runner_release(&r);
	signal(SIGXFSZ, SIG_DFL);
}

static void test_runner__capture(void **state)
{
	struct runner r = RUNNER_INIT;
	struct runner_opts o = RUNNER_OPTS_INIT;

	o.capture = 1;
	assert_int_equal(run_sh(&r, &o, "printf 'hello\\nworld'; echo nope >&2"), 0);
	assert_string_equal(r.result.out, "hello\nworld");
	assert_int_equal(r.result.out_len, 11);
	assert_false(r.result.out_truncated);
	runner_release(&r);

	assert_int_equal(run_sh(&r, &o, "true"), 0);
	assert_non_null(r.result.out);
	assert_int_equal(r.result.out_len, 0);
	runner_release(&r);

	/* Under the default cap of 1 MiB: all of it, beyond: the cap, and the
	 * writer is drained to the end (head exits 0, no SIGPIPE). */
	o.timeout = 60;
	assert_int_equal(run_sh(&r, &o, "head -c 1000000 /dev/zero"), 0);
	assert_int_equal(r.result.out_len, 1000000);
	assert_false(r.result.out_truncated);
	runner_release(&r);

	assert_int_equal(run_sh(&r, &o, "head -c 1500000 /dev/zero"), 0);
	assert_int_equal(r.result.out_len, 1 << 20);
	assert_true(r.result.out_truncated);
	assert_int_equal(r.result.status, 0);
	runner_release(&r);

	o.capture_max = 1000;
	assert_int_equal(run_sh(&r, &o, "yes | head -c 300000"), 0);
	assert_int_equal(r.result.out_len, 1000);
	assert_int_equal(strlen(r.result.out), 1000);
	assert_true(r.result.out_truncated);
	assert_int_equal(r.result.status, 0);
	assert_int_equal(memcmp(r.result.out, "y\ny\n", 4), 0);
	runner_release(&r);
}

static void test_runner__log(void **state)
{
	struct runner r = RUNNER_INIT;
	struct runner_opts o = RUNNER_OPTS_INIT;
	char *log = tmp_path("log.txt");
	char *bad = tmp_path("missing/log.txt");
	char *s;
	size_t len;

	assert_int_equal(write_file_atomic(log, "old\n", 4), 0);
	o.log_path = log;
	assert_int_equal(run_sh(&r, &o, "echo out; echo err >&2"), 0);
	assert_null(r.result.out);
	runner_release(&r);
	assert_int_equal(read_file(&s, NULL, log), 0);
	assert_string_equal(s, "old\nout\nerr\n");
	free(s);

	/* Captured stdout is also copied to the log, past the cap too. The
	 * two pipes are read as they fill, so "err" may land before or after
	 * the 100000 bytes: those are letters, not NULs, for strstr to see
	 * the whole log either way. */
	unlink(log);
	o.capture = 1;
	o.capture_max = 10;
	assert_int_equal(run_sh(&r, &o, "echo err >&2; echo out; head -c 100000 /dev/zero | tr '\\0' z"), 0);
	assert_int_equal(r.result.out_len, 10);
	assert_int_equal(memcmp(r.result.out, "out\n", 4), 0);
	assert_true(r.result.out_truncated);
	runner_release(&r);
	assert_int_equal(read_file(&s, &len, log), 0);
	assert_int_equal(len, 4 + 4 + 100000);
	assert_non_null(strstr(s, "out\n"));
	assert_non_null(strstr(s, "err\n"));
	free(s);

	o.log_path = bad;
	assert_int_equal(run_sh(&r, &o, "true"), -1);
	assert_non_null(strstr(tn_errmsg(), "missing/log.txt"));
	runner_release(&r);

	unlink(log);
	free(log);
	free(bad);
}

static void test_runner__no_fd_leak(void **state)
{
	struct runner r = RUNNER_INIT;
	struct runner_opts o = RUNNER_OPTS_INIT;
	char *log = tmp_path("fds.log");
	const char *fd_names[] = { " 1 -> ", " 2 -> " };
	char *p, *eol;

	/* The child lists its shell's descriptors. Our pipes must show up
	 * only as its stdout (capture) and stderr (the log's), not as leaked
	 * extra descriptors; the log file itself is ours alone. */
	o.log_path = log;
	o.capture = 1;
	assert_int_equal(run_sh(&r, &o, "ls -l /proc/$$/fd"), 0);
	assert_int_equal(r.result.status, 0);
	for (size_t i = 0; i < ARRAY_SIZE(fd_names); i++) {
		char *target;
		int n = 0;

		p = strstr(r.result.out, fd_names[i]);
		assert_non_null(p);
		eol = strchr(p, '\n');
		assert_non_null(eol);
		target = xstrndup(p + 6, (size_t)(eol - p - 6));
		assert_non_null(strstr(target, "pipe:"));
		for (p = r.result.out; (p = strstr(p, target)); p++)
			n++;
		assert_int_equal(n, 1);
		free(target);
	}
	assert_null(strstr(r.result.out, log));
	runner_release(&r);
	unlink(log);
	free(log);
}

static void test_runner__env(void **state)
{
	static const char nasty[] = "a;b $(touch %s/pwned) `touch %s/pwned2` "
		"\"dq\" 'sq' back\\slash \\\" \\' $X ${HOME}\nnewline; rm -rf %s";
	struct runner r = RUNNER_INIT;
	struct runner_opts o = RUNNER_OPTS_INIT;
	char *value = xasprintf(nasty, tmpdir, tmpdir, tmpdir);
	char *assign = xasprintf("X=%s", value);
	char *pwned = tmp_path("pwned");
	char *pwned2 = tmp_path("pwned2");
	const char *env[] = { assign, "TN_TEST_OVERRIDE=new", NULL };
	const char *env_argv[] = { "env", NULL };
	const char *p;

	setenv("TN_TEST_INHERIT", "inherited", 1);
	setenv("TN_TEST_OVERRIDE", "old", 1);
	o.capture = 1;
	o.env = env;
	assert_int_equal(run_sh(&r, &o, "printf %s \"$X\""), 0);
	assert_int_equal(r.result.out_len, strlen(value));
	assert_string_equal(r.result.out, value);
	assert_false(file_exists(pwned));
	assert_false(file_exists(pwned2));
	runner_release(&r);

	assert_int_equal(run_sh(&r, &o, "printf '%s|%s' \"$TN_TEST_INHERIT\" \"$TN_TEST_OVERRIDE\""), 0);
	assert_string_equal(r.result.out, "inherited|new");
	runner_release(&r);

	/* Exactly one TN_TEST_OVERRIDE reaches the program (a shell would
	 * hide a duplicate: ask env itself). */
	o.argv = env_argv;
	assert_int_equal(runner_run(&r, &o), 0);
	assert_non_null(strstr(r.result.out, "\nTN_TEST_OVERRIDE=new\n"));
	assert_null(strstr(r.result.out, "TN_TEST_OVERRIDE=old"));
	p = strstr(r.result.out, "TN_TEST_OVERRIDE=");
	assert_non_null(p);
	assert_null(strstr(p + 1, "TN_TEST_OVERRIDE="));
	runner_release(&r);

	/* Within opts->env the later of two entries wins. */
	env[0] = "TN_TEST_OVERRIDE=first";
	assert_int_equal(runner_run(&r, &o), 0);
	assert_null(strstr(r.result.out, "TN_TEST_OVERRIDE=first"));
	p = strstr(r.result.out, "TN_TEST_OVERRIDE=new\n");
	assert_non_null(p);
	assert_null(strstr(p + 1, "TN_TEST_OVERRIDE="));
	runner_release(&r);
	env[0] = assign;
	o.argv = NULL;

	o.clear_env = 1;
	assert_int_equal(run_sh(&r, &o, "printf '%s|%s' \"${TN_TEST_INHERIT-unset}\" \"$TN_TEST_OVERRIDE\""), 0);
	assert_string_equal(r.result.out, "unset|new");
	runner_release(&r);

	unsetenv("TN_TEST_INHERIT");
	unsetenv("TN_TEST_OVERRIDE");
	free(value);
	free(assign);
	free(pwned);
	free(pwned2);
}

static void test_runner__cwd(void **state)
{
	struct runner r = RUNNER_INIT;
	struct runner_opts o = RUNNER_OPTS_INIT;
	char real[PATH_MAX];
	char *want;
	char *missing = tmp_path("no-such-dir");

	assert_non_null(realpath(tmpdir, real));
	want = xasprintf("%s\n", real);
	o.capture = 1;
	o.cwd = tmpdir;
	assert_int_equal(run_sh(&r, &o, "pwd -P"), 0);
	assert_string_equal(r.result.out, want);
	runner_release(&r);

	o.cwd = missing;
	assert_int_equal(run_sh(&r, &o, "true"), -1);
	assert_non_null(strstr(tn_errmsg(), "no-such-dir"));
	assert_int_equal(r.pid, -1);
	runner_release(&r);
	free(want);
	free(missing);
}

static void test_runner__spawn_failure(void **state)
{
	const char *abs[] = { "/nonexistent/tuner-prog", NULL };
	const char *rel[] = { "tuner-no-such-program-here", NULL };
	const char *tr[] = { "true", NULL };
	struct runner r = RUNNER_INIT;
	struct runner_opts o = RUNNER_OPTS_INIT;

	o.capture = 1;
	o.argv = abs;
	assert_int_equal(runner_run(&r, &o), -1);
	assert_non_null(strstr(tn_errmsg(), "/nonexistent/tuner-prog"));
	runner_release(&r);

	o.argv = rel;
	assert_int_equal(runner_start(&r, &o), -1);
	assert_non_null(strstr(tn_errmsg(), "tuner-no-such-program-here"));
	runner_release(&r);

	/* PATH search finds programs. */
	o.argv = tr;
	assert_int_equal(runner_run(&r, &o), 0);
	assert_int_equal(r.result.status, 0);
	runner_release(&r);
}

static void test_runner__timeout_kills_group(void **state)
{
	struct runner r = RUNNER_INIT;
	struct runner_opts o = RUNNER_OPTS_INIT;
	char *pidfile = tmp_path("timeout.pid");
	char *cmd = xasprintf("sleep 1000 & echo $! > '%s'; sleep 1000", pidfile);
	const char *argv[] = { "/bin/sh", "-c", cmd, NULL };
	pid_t child, grandchild;

	o.argv = argv;
	o.timeout = 0.5;
	assert_int_equal(runner_start(&r, &o), 0);
	child = r.pid;
	assert_true(child > 0);
	assert_int_equal(runner_wait(&r), 0);
	assert_true(r.result.timed_out);
	assert_false(r.result.cancelled);
	assert_int_equal(r.result.signal, SIGTERM);
	assert_int_equal(r.result.status, 128 + SIGTERM);
	assert_true(r.result.wall >= 0.45);
	assert_true(r.result.wall < 30);
	runner_release(&r);

	grandchild = read_pid(pidfile);
	assert_true(gone(child));
	assert_true(gone(grandchild));
	unlink(pidfile);
	free(pidfile);
	free(cmd);
}

/* SIGTERM goes to the whole group, not only to the child: the child traps
 * it, waits for its own child, and reports how that one ended. */
static void test_runner__term_reaches_group(void **state)
{
	struct runner r = RUNNER_INIT;
	struct runner_opts o = RUNNER_OPTS_INIT;

	o.capture = 1;
	o.timeout = 0.5;
	o.grace = 20;
	assert_int_equal(run_sh(&r, &o, "sleep 1000 & p=$!; "
				"trap 'wait $p; echo gc=$?; exit 0' TERM; wait"), 0);
	assert_true(r.result.timed_out);
	assert_int_equal(r.result.status, 0);
	assert_string_equal(r.result.out, "gc=143\n");
	assert_true(r.result.wall < 15);
	runner_release(&r);
}

static void test_runner__term_ignored_then_killed(void **state)
{
	struct runner r = RUNNER_INIT;
	struct runner_opts o = RUNNER_OPTS_INIT;

	o.timeout = 1.0;
	o.grace = 0.5;
	assert_int_equal(run_sh(&r, &o, "trap '' TERM; while :; do sleep 0.05; done"), 0);
	assert_true(r.result.timed_out);
	assert_int_equal(r.result.signal, SIGKILL);
	assert_int_equal(r.result.status, 128 + SIGKILL);
	assert_true(r.result.wall >= 1.4);
	assert_true(r.result.wall < 30);
	runner_release(&r);
}

struct canceller {
	const char *ready;
	atomic_int fired;
};

static void *cancel_when_ready(void *data)
{
	struct canceller *c = data;

	for (int i = 0; i < 3000 && !file_exists(c->ready); i++)
		sleep_ms(10);
	atomic_store(&c->fired, 1);
	tn_cancel();
	return NULL;
}

static void test_runner__cancel(void **state)
{
	struct runner r = RUNNER_INIT;
	struct runner_opts o = RUNNER_OPTS_INIT;
	char *ready = tmp_path("ready");
	char *pidfile = tmp_path("cancel.pid");
	char *cmd = xasprintf("sleep 1000 & echo $! > '%s'; : > '%s'; sleep 1000",
			      pidfile, ready);
	struct canceller c = { ready, 0 };
	pthread_t t;
	pid_t grandchild;

	o.timeout = 120;
	assert_int_equal(pthread_create(&t, NULL, cancel_when_ready, &c), 0);
	assert_int_equal(run_sh(&r, &o, cmd), 0);
	pthread_join(t, NULL);
	assert_true(atomic_load(&c.fired));
	assert_true(tn_cancelled());
	tn_cancel_reset();
	assert_true(r.result.cancelled);
	assert_false(r.result.timed_out);
	assert_int_equal(r.result.signal, SIGTERM);
	assert_true(r.result.wall < 60);
	runner_release(&r);

	grandchild = read_pid(pidfile);
	assert_true(gone(grandchild));
	unlink(ready);
	unlink(pidfile);
	free(ready);
	free(pidfile);
	free(cmd);
}

static void test_runner__grandchild_killed_after_exit(void **state)
{
	struct runner r = RUNNER_INIT;
	struct runner_opts o = RUNNER_OPTS_INIT;
	char *pidfile = tmp_path("stay.pid");
	char *cmd = xasprintf("sleep 1000 & echo $! > '%s'; echo done", pidfile);
	pid_t grandchild;

	/* The grandchild holds the capture pipe: only killing it ends the
	 * output, well before the drain bound would. */
	o.capture = 1;
	o.timeout = 120;
	assert_int_equal(run_sh(&r, &o, cmd), 0);
	assert_false(r.result.timed_out);
	assert_int_equal(r.result.status, 0);
	assert_string_equal(r.result.out, "done\n");
	assert_true(r.result.wall < 60);
	runner_release(&r);

	grandchild = read_pid(pidfile);
	assert_true(gone(grandchild));
	unlink(pidfile);
	free(pidfile);
	free(cmd);
}

/* A grandchild that left the group (setsid) but kept the environment is
 * found by its mark and killed: it neither holds the pipe open nor
 * outlives its command, and it is reported. */
static void test_runner__escaped_grandchild_killed(void **state)
{
	struct runner r = RUNNER_INIT;
	struct runner_opts o = RUNNER_OPTS_INIT;
	char *pidfile = tmp_path("escaped.pid");
	/* The grandchild writes its pid only after setsid, so it has left our
	 * process group (and session) by the time the child exits. */
	char *cmd = xasprintf("setsid sh -c 'echo $$ > \"$1\"; exec sleep 1000' sh '%s' & "
			      "while [ ! -s '%s' ]; do sleep 0.01; done; echo hi",
			      pidfile, pidfile);
	pid_t grandchild;
	double t0 = now_seconds();

	char *log = tmp_path("escaped.log");
	char *s;

	warnings.len = 0;
	runner_set_warn(record_warning);
	o.capture = 1;
	o.timeout = 120;
	o.log_path = log;
	assert_int_equal(run_sh(&r, &o, cmd), 0);
	assert_int_equal(r.result.status, 0);
	assert_string_equal(r.result.out, "hi\n");
	assert_int_equal(r.result.escaped, 1);
	/* Killed, so the pipe closed at once: no drain bound waited out. */
	assert_true(now_seconds() - t0 < 20);
	runner_release(&r);
	runner_set_warn(NULL);

	grandchild = read_pid(pidfile);
	assert_true(gone(grandchild));
	assert_int_equal(warnings.len, 1);
	assert_non_null(strstr(warnings.line[0], "killed 1 process that the command 'setsid sh -c"));
	assert_non_null(strstr(warnings.line[0], "outside its process group"));
	assert_int_equal(read_file(&s, NULL, log), 0);
	assert_non_null(strstr(s, "hi\n[tuner: killed 1 process the command left running outside its process group]\n"));
	free(s);
	unlink(log);
	unlink(pidfile);
	free(log);
	free(pidfile);
	free(cmd);
}

/* The documented limit: a grandchild that leaves the group and clears its
 * environment carries no mark; the runner does not hang on it, and does
 * not find it. */
static void test_runner__escaped_env_cleared_not_found(void **state)
{
	struct runner r = RUNNER_INIT;
	struct runner_opts o = RUNNER_OPTS_INIT;
	char *pidfile = tmp_path("cleared.pid");
	char *cmd = xasprintf("setsid env -i sh -c 'echo $$ > \"$1\"; exec sleep 1000' sh '%s' & "
			      "while [ ! -s '%s' ]; do sleep 0.01; done; echo hi",
			      pidfile, pidfile);
	pid_t grandchild;

	o.capture = 1;
	o.timeout = 120;
	assert_int_equal(run_sh(&r, &o, cmd), 0);
	assert_int_equal(r.result.status, 0);
	assert_string_equal(r.result.out, "hi\n");
	assert_int_equal(r.result.escaped, 0);
	runner_release(&r);

	grandchild = read_pid(pidfile);
	assert_int_equal(kill(grandchild, 0), 0);
	assert_int_equal(getsid(grandchild), grandchild);
	kill(grandchild, SIGKILL);
	assert_true(gone(grandchild));
	unlink(pidfile);
	free(pidfile);
	free(cmd);
}

/* Each command has a mark of its own, also under clear_env, and an
 * inherited mark of another tuner is kept beside it. */
static void test_runner__mark(void **state)
{
	const char *argv[] = { "env", NULL };
	struct runner r = RUNNER_INIT;
	struct runner_opts o = RUNNER_OPTS_INIT;
	char *first, *p, *want;

	setenv("TUNER_CMD_1_1", "1", 1);
	o.argv = argv;
	o.capture = 1;
	assert_int_equal(runner_run(&r, &o), 0);
	want = xasprintf("\nTUNER_CMD_%ld_", (long)getpid());
	p = strstr(r.result.out, want);
	assert_non_null(p);
	first = xstrndup(p, strcspn(p + 1, "\n") + 1);
	assert_non_null(strstr(r.result.out, "TUNER_CMD_1_1=1\n"));
	runner_release(&r);
	unsetenv("TUNER_CMD_1_1");

	o.clear_env = 1;
	assert_int_equal(runner_run(&r, &o), 0);
	p = strstr(r.result.out, want + 1);
	assert_non_null(p);
	assert_null(strstr(r.result.out, first));
	assert_null(strstr(r.result.out, "TUNER_CMD_1_1"));
	runner_release(&r);
	free(first);
	free(want);
}

/* The log holds the first log_max bytes and one line saying so; the
 * command is drained to the end (head exits 0, no SIGPIPE). */
static void test_runner__log_cap(void **state)
{
	static const char note[] =
		"\n[tuner: log truncated after 100000 bytes; the command printed 5000000 bytes in all]\n";
	struct runner r = RUNNER_INIT;
	struct runner_opts o = RUNNER_OPTS_INIT;
	char *log = tmp_path("cap.log");
	char *s;
	size_t len;

	o.log_path = log;
	o.log_max = 100000;
	o.timeout = 60;
	assert_int_equal(run_sh(&r, &o, "head -c 5000000 /dev/zero"), 0);
	assert_int_equal(r.result.status, 0);
	assert_true(r.result.log_truncated);
	assert_int_equal(r.result.log_bytes, 5000000);
	runner_release(&r);
	assert_int_equal(read_file(&s, &len, log), 0);
	assert_int_equal(len, 100000 + strlen(note));
	assert_int_equal(memcmp(s + 100000, note, strlen(note)), 0);
	free(s);

	/* stderr counts too, the order of the two streams is kept, and a
	 * cut at the end of a line adds no empty one. */
	unlink(log);
	o.log_max = 4;
	assert_int_equal(run_sh(&r, &o, "echo a; echo b >&2; echo c"), 0);
	assert_int_equal(r.result.log_bytes, 6);
	runner_release(&r);
	assert_int_equal(read_file(&s, NULL, log), 0);
	assert_string_equal(s, "a\nb\n[tuner: log truncated after 4 bytes; the command printed 6 bytes in all]\n");
	free(s);

	/* Under the cap: the log as printed, no note. */
	unlink(log);
	o.log_max = 6;
	assert_int_equal(run_sh(&r, &o, "echo a; echo b >&2; echo c"), 0);
	assert_false(r.result.log_truncated);
	runner_release(&r);
	assert_int_equal(read_file(&s, NULL, log), 0);
	assert_string_equal(s, "a\nb\nc\n");
	free(s);

	/* Captured stdout is captured in full, whatever the log's cap. */
	unlink(log);
	o.capture = 1;
	o.log_max = 10;
	assert_int_equal(run_sh(&r, &o, "yes | head -c 1000"), 0);
	assert_int_equal(r.result.out_len, 1000);
	assert_false(r.result.out_truncated);
	assert_true(r.result.log_truncated);
	runner_release(&r);
	assert_int_equal(read_file(&s, &len, log), 0);
	assert_int_equal(memcmp(s, "y\ny\ny\ny\ny\n[tuner: log truncated after 10 bytes", 45), 0);
	free(s);
	unlink(log);
	free(log);
}

static void test_runner__release_without_wait(void **state)
{
	const char *argv[] = { "sleep", "1000", NULL };
	struct runner r = RUNNER_INIT;
	struct runner_opts o = RUNNER_OPTS_INIT;
	pid_t pid;

	o.argv = argv;
	o.capture = 1;
	assert_int_equal(runner_start(&r, &o), 0);
	pid = r.pid;
	runner_release(&r);
	/* Reaped by runner_release itself: not even a zombie is left. */
	assert_int_equal(kill(pid, 0), -1);
	assert_int_equal(errno, ESRCH);
	assert_int_equal(r.pid, -1);
	assert_int_equal(r.out_fd, -1);
	runner_release(&r);
}

/* Many runners on several threads at once: each gets its own output. */
static atomic_int concurrent_errors;

static void *run_many(void *data)
{
	intptr_t id = (intptr_t)data;

	for (int i = 0; i < 15; i++) {
		struct runner r = RUNNER_INIT;
		struct runner_opts o = RUNNER_OPTS_INIT;
		char *assign = xasprintf("ID=%ld-%d", (long)id, i);
		const char *env[] = { assign, NULL };
		const char *argv[] = { "/bin/sh", "-c", "printf %s \"$ID\"", NULL };

		o.argv = argv;
		o.env = env;
		o.capture = 1;
		o.timeout = 60;
		if (runner_run(&r, &o) < 0 || r.result.status != 0 ||
		    strcmp(r.result.out, assign + 3))
			atomic_fetch_add(&concurrent_errors, 1);
		runner_release(&r);
		free(assign);
	}
	return NULL;
}

static void test_runner__concurrent(void **state)
{
	pthread_t t[4];

	atomic_store(&concurrent_errors, 0);
	for (intptr_t i = 0; i < 4; i++)
		assert_int_equal(pthread_create(&t[i], NULL, run_many, (void *)i), 0);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	assert_int_equal(atomic_load(&concurrent_errors), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_runner__exit_codes),
		cmocka_unit_test(test_runner__signals),
		cmocka_unit_test(test_runner__capture),
		cmocka_unit_test(test_runner__log),
		cmocka_unit_test(test_runner__no_fd_leak),
		cmocka_unit_test(test_runner__env),
		cmocka_unit_test(test_runner__cwd),
		cmocka_unit_test(test_runner__spawn_failure),
		cmocka_unit_test(test_runner__timeout_kills_group),
		cmocka_unit_test(test_runner__term_reaches_group),
		cmocka_unit_test(test_runner__term_ignored_then_killed),
		cmocka_unit_test(test_runner__cancel),
		cmocka_unit_test(test_runner__grandchild_killed_after_exit),
		cmocka_unit_test(test_runner__escaped_grandchild_killed),
		cmocka_unit_test(test_runner__escaped_env_cleared_not_found),
		cmocka_unit_test(test_runner__mark),
		cmocka_unit_test(test_runner__log_cap),
		cmocka_unit_test(test_runner__release_without_wait),
		cmocka_unit_test(test_runner__concurrent),
	};
	int rc;

	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	/* Orphaned grandchildren become ours, so the tests can reap them and
	 * check that they are really gone. */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	rc = cmocka_run_group_tests_name("runner", tests, NULL, NULL);
	remove_tree(tmpdir);
	return rc;
}
