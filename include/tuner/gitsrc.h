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
 * libgit2 is used here and nowhere else. Thread-safe (each call opens its own
 * repository handle).
 */
#ifndef TUNER_GITSRC_H
#define TUNER_GITSRC_H

struct gitsrc_opts {
	const char *repo;      /* a directory inside a work tree (discovered
	                          upwards, like git does) */
	const char *rev;       /* any revision git_revparse_single takes */
	const char *path;      /* subdirectory of the tree; "" or NULL: root */
	const char *dest_root; /* where exports live; created if missing */
	int dirty;             /* export the working directory instead */
};
#define GITSRC_OPTS_INIT { NULL, "HEAD", NULL, NULL, 0 }

struct gitsrc {
	char commit[41];  /* resolved commit id (HEAD's when dirty) */
	char tree[41];    /* id of the exported tree */
	int dirty;        /* the export holds uncommitted changes */
	int worktree_dirty; /* the work tree had uncommitted changes below
	                       path (whether or not they were exported) */
	char *dir;        /* malloced: DEST_ROOT/<tree-id> */
};
#define GITSRC_INIT { { 0 }, { 0 }, 0, 0, NULL }

/* Named error for callers that add a location. */
#define GITSRC_EBADREV (-2) /* rev does not name a commit */
#define GITSRC_ENOREPO (-3) /* no repository at repo */
#define GITSRC_ENOPATH (-4) /* path is not a directory in that commit */

/* Resolves and exports. 0, or -1 / a named negative with message. Caller
 * releases out with gitsrc_release(). */
int gitsrc_export(struct gitsrc *out, const struct gitsrc_opts *opts);
void gitsrc_release(struct gitsrc *g);

/* Only resolves: fills commit (41 bytes) with the id rev names, exporting
 * nothing. opts->dest_root and opts->dirty are ignored. 0, or -1 / a named
 * negative with message. For `tuner check`. */
int gitsrc_resolve(char commit[41], const struct gitsrc_opts *opts);

#endif
