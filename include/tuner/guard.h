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
 * every group still watched and exits. The write end of the pipe is
 * close-on-exec, so no command keeps the guard waiting.
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
 * The entry "TUNER_GUARD=<guard pid>" the runner puts in every command's
 * environment, or NULL without a guard. A command is watched only once
 * its spawn has returned; if tuner dies in between, the guard still finds
 * it by this mark (in /proc/PID/environ) and kills its group.
 */
const char *guard_env(void);

/* Thread-safe, async-signal-safe; no-ops without a guard. */
void guard_watch(pid_t pgid);
void guard_unwatch(pid_t pgid);

/* Normal exit: the guard leaves everything alone and is reaped. */
void guard_stop(void);

#endif
