/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gitsrc: turns (repository, revision, path) into an exported source tree.
 *
 * The tree of the resolved commit (or, with dirty, of the working directory
 * as it is, tracked and untracked-but-not-ignored files) below `path` is
 * written to DEST_ROOT/<tree-id>/, once: an existing complete export is
 * reused. The tree id is git's id of that subtree, so commits that do not
 * touch `path` share one export and one build cache key. Uncommitted changes
 * never reach an export unless dirty is set.
 *
 * gitsrc_range() lists the commits between two revisions for tuner bisect;
 * gitsrc_blob_id() is git's id of some bytes (the code id, codeid.h).
 *
 * libgit2 is used here and nowhere else. Thread-safe (each call opens its own
 * repository handle).
 */
#ifndef TUNER_GITSRC_H
#define TUNER_GITSRC_H

#include <stddef.h>

struct gitsrc_opts {
	const char *repo;      /* a directory inside a work tree (discovered
	                          upwards, like git does) */
	const char *rev;       /* any revision git_revparse_single takes */
	const char *path;      /* subdirectory of the tree; "" or NULL: root */
	const char *dest_root; /* where exports live; created if missing */
	int dirty;             /* export the working directory instead */
};
#define GITSRC_OPTS_INIT { .repo = NULL, .rev = "HEAD", .path = NULL, .dest_root = NULL, \
			   .dirty = 0 }

struct gitsrc {
	char commit[41];  /* resolved commit id (HEAD's when dirty) */
	char tree[41];    /* id of the exported tree */
	int dirty;        /* the export holds uncommitted changes */
	int worktree_dirty; /* the work tree had uncommitted changes below
	                       path (whether or not they were exported) */
	char *dir;        /* malloced: DEST_ROOT/<tree-id> */
};
#define GITSRC_INIT { .commit = { 0 }, .tree = { 0 }, .dirty = 0, .worktree_dirty = 0, \
		      .dir = NULL }

/* Named errors for callers that add a location; below -2, so that none is
 * TN_ECANCELLED (util.h) when a caller passes one up. */
#define GITSRC_EBADREV (-10) /* rev does not name a commit */
#define GITSRC_ENOREPO (-11) /* no repository at repo */
#define GITSRC_ENOPATH (-12) /* path is not a directory in that commit */
#define GITSRC_ERANGE (-13)  /* gitsrc_range(): good and bad make no range */

/* Resolves and exports. 0, or -1 / a named negative with message. Caller
 * releases out with gitsrc_release(). */
int gitsrc_export(struct gitsrc *out, const struct gitsrc_opts *opts);
void gitsrc_release(struct gitsrc *g);

/* Only resolves: fills commit (41 bytes) with the id rev names, exporting
 * nothing. opts->dest_root and opts->dirty are ignored. 0, or -1 / a named
 * negative with message. For `tuner check`. */
int gitsrc_resolve(char commit[41], const struct gitsrc_opts *opts);

/* git's id of a blob holding the len bytes at data (git hash-object; data
 * may be NULL when len is 0), as 40 hex digits and a NUL into out. No
 * repository needed. 0, or -1 with message. */
int gitsrc_blob_id(char out[41], const void *data, size_t len);

/* ---- The commits between two revisions, for tuner bisect ---- */

#define GITSRC_OUTSIDE ((size_t)-1) /* a parent outside the range */

struct gitsrc_commit {
	char id[41];
	char tree[41];     /* id of the tree at opts->path; "" when the commit
	                      has no such directory */
	char parent[41];   /* its first parent's id; "" for a root commit */
	char *subject;     /* the message's first paragraph on one line
	                      (git_commit_summary()); malloced */
	/* Its tree at path equals its first parent's: it changed nothing a
	 * build sees, so it builds and measures exactly like that parent. */
	int unchanged;
	/* Indices in the range of its parents (all of them; only the first
	 * with first_parent), GITSRC_OUTSIDE for a parent outside the range
	 * (one reachable from good, or beyond a first-parent walk); malloced */
	size_t *parents;
	size_t nparents;
};

struct gitsrc_range {
	struct gitsrc_commit good, bad; /* the resolved endpoints (parents
	                                   left empty, parent filled) */
	/* Every commit reachable from bad and not from good, parents before
	 * children (topological order, oldest first); bad is the last one.
	 * With first_parent only the commits on bad's first-parent line. */
	struct gitsrc_commit *commits;
	size_t n;
};
#define GITSRC_RANGE_INIT { .good = { .id = { 0 } }, .bad = { .id = { 0 } }, .commits = NULL, .n = 0 }

/*
 * Lists the commits between good and bad in the repository at opts->repo
 * (opts->rev, dest_root and dirty are ignored; opts->path names the
 * subtree whose ids fill gitsrc_commit.tree): a libgit2 revwalk that
 * pushes bad and hides good (git rev-list good..bad), sorted
 * GIT_SORT_TOPOLOGICAL | GIT_SORT_REVERSE, simplified to first parents
 * when first_parent is set (git rev-list --first-parent). Fails with
 * GITSRC_EBADREV for a revision that names no commit, GITSRC_ERANGE when
 * good and bad are the same commit or good is not an ancestor of bad, and
 * GITSRC_ENOPATH when good or bad has no directory at path. 0, or a
 * negative with message. Caller releases out with gitsrc_range_release().
 */
int gitsrc_range(struct gitsrc_range *out, const struct gitsrc_opts *opts, const char *good,
		 const char *bad, int first_parent);
void gitsrc_range_release(struct gitsrc_range *r);

/*
 * How commit b (a revision) stands to commit a in the repository at
 * opts->repo (the rest of opts ignored): 0 when b is a or descends from
 * it (a branch that moved on), 1 when a descends from b (the branch
 * moved back), 2 when neither (it diverged). A negative with message when
 * either cannot be read (GITSRC_EBADREV: a commit that is gone).
 */
int gitsrc_relation(const struct gitsrc_opts *opts, const char *a, const char *b);

#endif
