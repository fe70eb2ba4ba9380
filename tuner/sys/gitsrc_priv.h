/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gitsrc_priv: what the two halves of the gitsrc module share, private to
 * it (libgit2 types do not leave gitsrc). gitsrc.c resolves and exports
 * trees; gitsrc_range.c walks the history between two revisions.
 */
#ifndef TUNER_GITSRC_PRIV_H
#define TUNER_GITSRC_PRIV_H

#include <pthread.h>

#include <git2.h>

/* libgit2's init, once per process (pthread_once(&gitsrc_once,
 * gitsrc_init_once) before any libgit2 call); never shut down. */
extern pthread_once_t gitsrc_once;
void gitsrc_init_once(void);

/* libgit2's last error message (static storage). */
const char *gitsrc_msg(void);

/* path as a tree path: "" for the root, no "./" prefix, no trailing '/'.
 * Caller frees. */
char *gitsrc_clean_path(const char *path);

/* Opens the repository containing dir. 0, GITSRC_ENOREPO, or -1; the
 * message is set. Caller frees *out with git_repository_free(). */
int gitsrc_open_repo(git_repository **out, const char *dir);

/* rev peeled to a commit. 0, GITSRC_EBADREV or -1, message set. Caller
 * frees *out with git_commit_free(). */
int gitsrc_resolve_commit(git_commit **out, git_repository *repo, const char *rev);

#endif
