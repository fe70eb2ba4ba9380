/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * guard: no orphan outlives tuner, even when tuner is killed with SIGKILL.
 *
 * A runner puts each command in a process group of its own and kills the
 * group at the deadline, on Ctrl-C and after the command exits. That needs a
 * living tuner. guard_start() forks a small guard process before any thread
 * exists; the runner tells it each group it starts (guard_watch) and each
 * group it has finished with (guard_unwatch) over a pipe. When the pipe
 * closes without guard_stop() (tuner died, however), the guard SIGKILLs
 * every group still watched, then every process marked as one of tuner's
 * commands (below) with its group, and exits. The write end of the pipe is
 * close-on-exec, so no command keeps the guard waiting. Slurm jobs it is
 * told of (guard_watch_job) are cancelled with scancel then.
 *
 * The guard runs in a session and process group of its own (setsid), so
 * a signal to tuner's group (kill -KILL -- -PGID, or Ctrl-C from the
 * terminal) does not reach it; it still never outlives tuner, since it
 * exits when the pipe closes.
 *
 * Marks: the runner puts "TUNER_CMD_<tuner pid>_<n>=1" (n: one number per
 * command) into every command's environment, and descendants inherit it,
 * also those that leave the command's group with setsid. The name differs
 * per command and per tuner, so a tuner run by a tuner's command keeps the
 * outer mark too. guard_kill_marked() finds them in /proc/PID/environ.
 *
 * Without guard_start() (unit tests, other tools) watch/unwatch do nothing.
 */
#ifndef TUNER_GUARD_H
#define TUNER_GUARD_H

#include <sys/types.h>

/* Forks the guard. Call once, from the main thread, before threads start.
 * 0, or -1 with message. */
int guard_start(void);

/*
 * The entry "TUNER_GUARD=<guard pid>" the runner also puts in every
 * command's environment (it tells a command which process watches it), or
 * NULL without a guard. Owned by the guard module, valid until guard_stop().
 */
const char *guard_env(void);

/* The start of every command's mark: "TUNER_CMD_<tuner pid>_<n>=1". */
#define GUARD_MARK "TUNER_CMD_"

/*
 * SIGKILLs every process (but the caller) whose environment holds an
 * entry starting with prefix ("TUNER_CMD_123_4=": one command's mark;
 * "TUNER_CMD_123_": all of tuner 123's), and its process group unless that
 * is the caller's own; processes in group spare (0: none) are left alone
 * and not counted. Scans /proc again while a scan finds new ones (at most
 * 8 times). Processes whose environment cannot be read (another user's,
 * not dumpable) are not found. Returns the number of processes killed.
 * Thread-safe; works without guard_start().
 */
unsigned guard_kill_marked(const char *prefix, pid_t spare);

/* Thread-safe, async-signal-safe; no-ops without a guard. */
void guard_watch(pid_t pgid);
void guard_unwatch(pid_t pgid);

/*
 * A Slurm job of tuner's (slurm.h): when tuner dies without guard_stop(),
 * the guard runs `scancel` (from PATH) with every job still watched,
 * after killing the groups and marked processes, and waits for it (at
 * most 30 s). Thread-safe, async-signal-safe; no-ops without a guard.
 */
void guard_watch_job(unsigned job);
void guard_unwatch_job(unsigned job);

/* Normal exit: the guard leaves everything alone and is reaped. */
void guard_stop(void);

#endif
