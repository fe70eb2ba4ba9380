/* SPDX-License-Identifier: GPL-2.0-or-later */
/* gitsrc: see include/tuner/gitsrc.h */
#include "tuner/gitsrc.h"
#include "tuner/util.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <git2.h>

#include "gitsrc_priv.h"

/*
 * libgit2's init is reference counted; we take one reference for the life
 * of the process and never drop it, so concurrent callers never race a
 * shutdown.
 */
pthread_once_t gitsrc_once = PTHREAD_ONCE_INIT;

/* Makes temporary export names unique among the threads of this process;
 * the pid makes them unique among processes. */
static atomic_ulong tmp_counter;

void gitsrc_init_once(void)
{
	git_libgit2_init();
}

const char *gitsrc_msg(void)
{
	const git_error *e = git_error_last();

	return e && e->message ? e->message : "unknown libgit2 error";
}

/* The helpers shared with gitsrc_range.c are documented in gitsrc_priv.h. */
char *gitsrc_clean_path(const char *path)
{
	char *p;
	size_t len;

	if (!path)
		return xstrdup("");
	while (path[0] == '.' && path[1] == '/')
		path += 2;
	while (*path == '/')
		path++;
	p = xstrdup(path);
	len = strlen(p);
	while (len && p[len - 1] == '/')
		p[--len] = '\0';
	if (!strcmp(p, "."))
		p[0] = '\0';
	return p;
}

int gitsrc_open_repo(git_repository **out, const char *dir)
{
	int err = git_repository_open_ext(out, dir, 0, NULL);

	if (err == GIT_ENOTFOUND) {
		tn_error("'%s' is not in a git repository", dir);
		return GITSRC_ENOREPO;
	}
	if (err < 0)
		return tn_error("cannot open the repository at '%s': %s", dir, gitsrc_msg());
	return 0;
}

int gitsrc_resolve_commit(git_commit **out, git_repository *repo, const char *rev)
{
	git_object *obj = NULL;
	git_object *peeled = NULL;
	int ret = GITSRC_EBADREV;
	int err;

	err = git_revparse_single(&obj, repo, rev);
	if (err == GIT_EAMBIGUOUS) {
		tn_error("ambiguous revision '%s'", rev);
		goto out;
	}
	if (err == GIT_ENOTFOUND || err == GIT_EINVALIDSPEC) {
		tn_error("unknown revision '%s'", rev);
		goto out;
	}
	if (err < 0) {
		ret = tn_error("cannot resolve '%s': %s", rev, gitsrc_msg());
		goto out;
	}
	if (git_object_peel(&peeled, obj, GIT_OBJECT_COMMIT) < 0) {
		tn_error("unknown revision '%s' (not a commit)", rev);
		goto out;
	}
	*out = (git_commit *)peeled;
	peeled = NULL;
	ret = 0;
out:
	git_object_free(peeled);
	git_object_free(obj);
	return ret;
}

/* The id of the directory at path in root ("" is root itself). */
static int subtree_id(git_oid *out, git_tree *root, const char *path,
		      const char *shown_path, const char *where)
{
	git_tree_entry *e = NULL;
	int ret = GITSRC_ENOPATH;

	if (!*path) {
		git_oid_cpy(out, git_tree_id(root));
		return 0;
	}
	if (git_tree_entry_bypath(&e, root, path) < 0 ||
	    git_tree_entry_type(e) != GIT_OBJECT_TREE) {
		tn_error("'%s' is not a directory in %s", shown_path, where);
		goto out;
	}
	git_oid_cpy(out, git_tree_entry_id(e));
	ret = 0;
out:
	git_tree_entry_free(e);
	return ret;
}

static void set_pathspec(git_strarray *ps, char **one, const char *path)
{
	one[0] = (char *)path;
	ps->strings = *path ? one : NULL;
	ps->count = *path ? 1 : 0;
}

/*
 * Whether anything below path differs from HEAD: staged or unstaged changes
 * to tracked files, or untracked files that are not ignored. Submodules are
 * left out because exports leave them out too.
 */
static int worktree_changed(int *out, git_repository *repo, const char *path)
{
	git_status_options so;
	git_status_list *list = NULL;
	char *one[1];

	*out = 0;
	if (git_repository_is_bare(repo))
		return 0;
	git_status_options_init(&so, GIT_STATUS_OPTIONS_VERSION);
	so.show = GIT_STATUS_SHOW_INDEX_AND_WORKDIR;
	so.flags = GIT_STATUS_OPT_INCLUDE_UNTRACKED |
		   GIT_STATUS_OPT_RECURSE_UNTRACKED_DIRS |
		   GIT_STATUS_OPT_DISABLE_PATHSPEC_MATCH |
		   GIT_STATUS_OPT_EXCLUDE_SUBMODULES;
	set_pathspec(&so.pathspec, one, path);
	if (git_status_list_new(&list, repo, &so) < 0)
		return tn_error("cannot read the status of the work tree: %s", gitsrc_msg());
	*out = git_status_list_entrycount(list) > 0;
	git_status_list_free(list);
	return 0;
}

/*
 * The tree the work tree would commit as after `git add -A path` (which
 * also drops deleted files): files are hashed into the object database and
 * trees written there (harmless, as with `git stash create`), but the index
 * stays in memory and is never written back, so the user's index and refs
 * are untouched.
 */
static int worktree_tree(git_oid *out, git_repository *repo, const char *path,
			 const char *shown_path)
{
	git_index *index = NULL;
	git_tree *root = NULL;
	git_strarray ps;
	git_oid root_id;
	char *one[1];
	int ret = -1;

	if (git_repository_is_bare(repo))
		return tn_error("a bare repository has no work tree to export");
	set_pathspec(&ps, one, path);
	if (git_repository_index(&index, repo) < 0 ||
	    git_index_add_all(index, &ps, GIT_INDEX_ADD_DISABLE_PATHSPEC_MATCH, NULL, NULL) < 0 ||
	    git_index_write_tree(&root_id, index) < 0 ||
	    git_tree_lookup(&root, repo, &root_id) < 0) {
		tn_error("cannot snapshot the work tree: %s", gitsrc_msg());
		goto out;
	}
	ret = subtree_id(out, root, path, shown_path, "the work tree");
out:
	git_tree_free(root);
	git_index_free(index);
	return ret;
}


static int write_blob(git_repository *repo, const git_oid *id, const char *dst,
		      git_filemode_t mode)
{
	git_blob *blob = NULL;
	const void *data;
	size_t len;
	char *target = NULL;
	int fd = -1;
	int ret = -1;

	if (git_blob_lookup(&blob, repo, id) < 0) {
		tn_error("cannot read the blob for '%s': %s", dst, gitsrc_msg());
		goto out;
	}
	data = git_blob_rawcontent(blob);
	len = (size_t)git_blob_rawsize(blob);
	if (mode == GIT_FILEMODE_LINK) {
		target = xstrndup(data, len);
		if (symlink(target, dst) < 0) {
			tn_error_errno("cannot create symbolic link '%s'", dst);
			goto out;
		}
		ret = 0;
		goto out;
	}
	fd = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		tn_error_errno("cannot create '%s'", dst);
		goto out;
	}
	/* Exact modes, whatever the umask: exports must not depend on who ran. */
	if (write_all(fd, data, len) < 0 ||
	    fchmod(fd, mode == GIT_FILEMODE_BLOB_EXECUTABLE ? 0755 : 0644) < 0) {
		tn_error_errno("cannot write '%s'", dst);
		goto out;
	}
	if (close(fd) < 0) {
		fd = -1;
		tn_error_errno("cannot write '%s'", dst);
		goto out;
	}
	fd = -1;
	ret = 0;
out:
	if (fd >= 0)
		close(fd);
	free(target);
	git_blob_free(blob);
	return ret;
}

/* A name we can join to a directory without leaving it. */
static int safe_name(const char *name)
{
	return *name && strcmp(name, ".") && strcmp(name, "..") && !strchr(name, '/');
}

/* Writes tree's entries below the directory dst (which exists). dst is
 * restored before returning. */
static int write_tree(git_repository *repo, const git_tree *tree, struct strbuf *dst)
{
	size_t base = dst->len;
	size_t n = git_tree_entrycount(tree);
	int ret = 0;

	for (size_t i = 0; i < n && ret == 0; i++) {
		const git_tree_entry *e = git_tree_entry_byindex(tree, i);
		const char *name = git_tree_entry_name(e);
		git_filemode_t mode = git_tree_entry_filemode(e);
		git_tree *sub = NULL;

		if (!safe_name(name)) {
			ret = tn_error("refusing to export tree entry '%s'", name);
			break;
		}
		strbuf_addch(dst, '/');
		strbuf_addstr(dst, name);
		switch (mode) {
		case GIT_FILEMODE_TREE:
			if (mkdir(dst->buf, 0777) < 0) {
				ret = tn_error_errno("cannot create directory '%s'", dst->buf);
				break;
			}
			if (git_tree_lookup(&sub, repo, git_tree_entry_id(e)) < 0) {
				ret = tn_error("cannot read tree '%s': %s", dst->buf, gitsrc_msg());
				break;
			}
			ret = write_tree(repo, sub, dst);
			git_tree_free(sub);
			break;
		case GIT_FILEMODE_BLOB:
		case GIT_FILEMODE_BLOB_EXECUTABLE:
		case GIT_FILEMODE_LINK:
			ret = write_blob(repo, git_tree_entry_id(e), dst->buf, mode);
			break;
		case GIT_FILEMODE_COMMIT:
			/* A submodule: its sources live in another repository. */
			break;
		default:
			ret = tn_error("'%s' has unknown file mode %o", dst->buf, (unsigned)mode);
			break;
		}
		dst->len = base;
		dst->buf[base] = '\0';
	}
	return ret;
}

/*
 * Removes the temporary directories ("<tree>.tmp.<pid>.<n>") that a
 * process which has since died (a crash, SIGKILL) left in dest_root; a
 * living process's are its work in progress and stay.
 */
static void remove_stale_tmp(const char *dest_root)
{
	DIR *d = opendir(dest_root);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		const char *t = strstr(de->d_name, ".tmp.");
		char *end;
		long pid;
		char *path;

		if (!t || t == de->d_name)
			continue;
		pid = strtol(t + 5, &end, 10);
		if (pid <= 0 || *end != '.' || !end[1] || strspn(end + 1, "0123456789") != strlen(end + 1))
			continue;
		if (pid == (long)getpid() || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		path = xasprintf("%s/%s", dest_root, de->d_name);
		remove_tree(path);
		free(path);
	}
	closedir(d);
}

/*
 * Writes tree id to final through a private temporary directory and a
 * rename, so a directory named after a tree id is always complete. When
 * another thread or process wins the race, its copy is kept.
 */
static int export_tree(git_repository *repo, const git_oid *id,
		       const char *dest_root, const char *final)
{
	struct strbuf tmp = STRBUF_INIT;
	git_tree *tree = NULL;
	struct stat st;
	int made = 0;
	int ret = -1;

	remove_stale_tmp(dest_root);
	if (lstat(final, &st) == 0 && S_ISDIR(st.st_mode))
		return 0;
	if (mkdir_p(dest_root) < 0)
		return -1;
	strbuf_addf(&tmp, "%s.tmp.%ld.%lu", final, (long)getpid(),
		    (unsigned long)atomic_fetch_add(&tmp_counter, 1));
	if (mkdir(tmp.buf, 0777) < 0) {
		tn_error_errno("cannot create directory '%s'", tmp.buf);
		goto out;
	}
	made = 1;
	if (git_tree_lookup(&tree, repo, id) < 0) {
		tn_error("cannot read tree: %s", gitsrc_msg());
		goto out;
	}
	if (write_tree(repo, tree, &tmp) < 0)
		goto out;
	if (rename(tmp.buf, final) == 0) {
		made = 0;
	} else if (errno != EEXIST && errno != ENOTEMPTY) {
		tn_error_errno("cannot rename '%s' to '%s'", tmp.buf, final);
		goto out;
	}
	/* else someone else finished the same tree first: keep theirs. */
	ret = 0;
out:
	if (made)
		remove_tree(tmp.buf);
	git_tree_free(tree);
	strbuf_release(&tmp);
	return ret;
}

int gitsrc_export(struct gitsrc *out, const struct gitsrc_opts *opts)
{
	struct gitsrc g = GITSRC_INIT;
	git_repository *repo = NULL;
	git_commit *commit = NULL;
	git_tree *root = NULL;
	git_oid committed = { { 0 } }, exported = { { 0 } };
	int have_committed;
	char *path = gitsrc_clean_path(opts->path);
	const char *shown_path = opts->path ? opts->path : "";
	const char *rev = opts->rev ? opts->rev : "HEAD";
	int ret;

	memset(out, 0, sizeof(*out));
	if (!opts->dest_root) {
		ret = tn_error("gitsrc: no destination directory");
		goto out;
	}
	pthread_once(&gitsrc_once, gitsrc_init_once);
	ret = gitsrc_open_repo(&repo, opts->repo ? opts->repo : ".");
	if (ret < 0)
		goto out;
	/* The work tree sits on top of HEAD, whatever rev says. */
	if (opts->dirty)
		rev = "HEAD";
	ret = gitsrc_resolve_commit(&commit, repo, rev);
	if (ret < 0)
		goto out;
	git_oid_tostr(g.commit, sizeof(g.commit), git_commit_id(commit));
	if (git_commit_tree(&root, commit) < 0) {
		ret = tn_error("cannot read the tree of %s: %s", rev, gitsrc_msg());
		goto out;
	}
	ret = subtree_id(&committed, root, path, shown_path, rev);
	/* A directory that exists only in the work tree is fine when dirty. */
	if (ret < 0 && !(opts->dirty && ret == GITSRC_ENOPATH))
		goto out;
	have_committed = ret == 0;
	ret = worktree_changed(&g.worktree_dirty, repo, path);
	if (ret < 0)
		goto out;
	if (opts->dirty) {
		ret = worktree_tree(&exported, repo, path, shown_path);
		if (ret < 0)
			goto out;
		g.dirty = !have_committed || !git_oid_equal(&exported, &committed);
	} else {
		git_oid_cpy(&exported, &committed);
	}
	git_oid_tostr(g.tree, sizeof(g.tree), &exported);
	g.dir = xasprintf("%s/%s", opts->dest_root, g.tree);
	ret = export_tree(repo, &exported, opts->dest_root, g.dir);
	if (ret < 0)
		goto out;
	*out = g;
	g.dir = NULL;
out:
	gitsrc_release(&g);
	git_tree_free(root);
	git_commit_free(commit);
	git_repository_free(repo);
	free(path);
	return ret;
}

void gitsrc_release(struct gitsrc *g)
{
	free(g->dir);
	g->dir = NULL;
}

int gitsrc_resolve(char commit[41], const struct gitsrc_opts *opts)
{
	git_repository *repo = NULL;
	git_commit *c = NULL;
	git_tree *root = NULL;
	git_oid sub;
	char *path = gitsrc_clean_path(opts->path);
	const char *rev = opts->rev ? opts->rev : "HEAD";
	int ret;

	commit[0] = '\0';
	pthread_once(&gitsrc_once, gitsrc_init_once);
	ret = gitsrc_open_repo(&repo, opts->repo ? opts->repo : ".");
	if (ret < 0)
		goto out;
	ret = gitsrc_resolve_commit(&c, repo, rev);
	if (ret < 0)
		goto out;
	/* Checking path too lets `tuner check` catch a typo before any build. */
	if (git_commit_tree(&root, c) < 0) {
		ret = tn_error("cannot read the tree of %s: %s", rev, gitsrc_msg());
		goto out;
	}
	ret = subtree_id(&sub, root, path, opts->path ? opts->path : "", rev);
	if (ret < 0)
		goto out;
	git_oid_tostr(commit, 41, git_commit_id(c));
out:
	git_tree_free(root);
	git_commit_free(c);
	git_repository_free(repo);
	free(path);
	return ret;
}

int gitsrc_blob_id(char out[41], const void *data, size_t len)
{
	git_oid oid;

	pthread_once(&gitsrc_once, gitsrc_init_once);
	if (git_odb_hash(&oid, len ? data : "", len, GIT_OBJECT_BLOB) < 0)
		return tn_error("cannot hash a blob: %s", gitsrc_msg());
	git_oid_tostr(out, 41, &oid);
	return 0;
}
