/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for gitsrc, against a real repository made with the git
 * command line (so libgit2 is checked against git itself):
 *
 *   c1  sub/{a.c, run.sh (+x), link -> a.c, deeper/b.h}, other/x.txt, .gitignore
 *   c2  changes sub/a.c
 *   c3  changes other/x.txt only, so HEAD:sub == HEAD~1:sub
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tuner/gitsrc.h"
#include "tuner/util.h"

struct fixture {
	char root[64];  /* mkdtemp'd; also $HOME of the git commands */
	char *repo;     /* root/repo */
	char *exports;  /* root/exports */
};

static void sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void sh(const char *fmt, ...)
{
	va_list ap;
	char *cmd = NULL;
	int rc;

	va_start(ap, fmt);
	assert_true(vasprintf(&cmd, fmt, ap) >= 0);
	va_end(ap);
	rc = system(cmd);
	if (rc != 0)
		fail_msg("command failed (%d): %s", rc, cmd);
	free(cmd);
}

/* Output of `git -C repo ARGS`, without the trailing newline. Caller frees. */
static char *git_out(struct fixture *f, const char *args)
{
	struct strbuf sb = STRBUF_INIT;
	char *cmd = xasprintf("git -C '%s' %s", f->repo, args);
	char buf[256];
	size_t n;
	FILE *p = popen(cmd, "r");

	assert_non_null(p);
	for (;;) {
		n = fread(buf, 1, sizeof(buf), p);
		if (!n)
			break;
		strbuf_add(&sb, buf, n);
	}
	assert_int_equal(pclose(p), 0);
	free(cmd);
	while (sb.len && sb.buf[sb.len - 1] == '\n')
		sb.buf[--sb.len] = '\0';
	return strbuf_detach(&sb);
}

static void put(struct fixture *f, const char *rel, const char *text, mode_t mode)
{
	char *path = xasprintf("%s/%s", f->repo, rel);
	char *dir = path_dirname(path);

	assert_int_equal(mkdir_p(dir), 0);
	assert_int_equal(write_file_atomic(path, text, strlen(text)), 0);
	assert_int_equal(chmod(path, mode), 0);
	free(dir);
	free(path);
}

static char *slurp(const char *dir, const char *rel)
{
	char *path = xasprintf("%s/%s", dir, rel);
	char *text = NULL;

	if (read_file(&text, NULL, path) < 0)
		text = NULL;
	free(path);
	return text;
}

static void assert_file(const char *dir, const char *rel, const char *want)
{
	char *text = slurp(dir, rel);

	if (!text)
		fail_msg("%s/%s: missing", dir, rel);
	assert_string_equal(text, want);
	free(text);
}

static int exists(const char *dir, const char *rel)
{
	char *path = xasprintf("%s/%s", dir, rel);
	struct stat st;
	int r = lstat(path, &st) == 0;

	free(path);
	return r;
}

static mode_t mode_of(const char *dir, const char *rel)
{
	char *path = xasprintf("%s/%s", dir, rel);
	struct stat st;

	assert_int_equal(lstat(path, &st), 0);
	free(path);
	return st.st_mode;
}

static int setup(void **state)
{
	struct fixture *f = xcalloc(1, sizeof(*f));

	strcpy(f->root, "/tmp/tuner-gitsrc-XXXXXX");
	assert_non_null(mkdtemp(f->root));
	f->repo = xasprintf("%s/repo", f->root);
	f->exports = xasprintf("%s/exports", f->root);

	/* A git that reads no user or system config and makes the same ids
	 * every time; set before any thread starts. */
	setenv("HOME", f->root, 1);
	setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
	setenv("GIT_OPTIONAL_LOCKS", "0", 1);
	setenv("GIT_AUTHOR_NAME", "Tuner Test", 1);
	setenv("GIT_AUTHOR_EMAIL", "test@example.invalid", 1);
	setenv("GIT_COMMITTER_NAME", "Tuner Test", 1);
	setenv("GIT_COMMITTER_EMAIL", "test@example.invalid", 1);
	setenv("GIT_AUTHOR_DATE", "2024-01-01T00:00:00Z", 1);
	setenv("GIT_COMMITTER_DATE", "2024-01-01T00:00:00Z", 1);
	unsetenv("GIT_DIR");
	unsetenv("GIT_WORK_TREE");
	unsetenv("GIT_INDEX_FILE");
	unsetenv("XDG_CONFIG_HOME");

	sh("git init -q -b main '%s'", f->repo);
	put(f, "sub/a.c", "one\n", 0644);
	put(f, "sub/run.sh", "#!/bin/sh\necho hi\n", 0755);
	put(f, "sub/deeper/b.h", "int b;\n", 0644);
	put(f, "other/x.txt", "x1\n", 0644);
	put(f, ".gitignore", "*.o\n", 0644);
	sh("ln -s a.c '%s/sub/link'", f->repo);
	sh("git -C '%s' add -A && git -C '%s' commit -q -m c1", f->repo, f->repo);
	put(f, "sub/a.c", "two two\n", 0644);
	sh("git -C '%s' commit -q -am c2", f->repo);
	put(f, "other/x.txt", "x2\n", 0644);
	sh("git -C '%s' commit -q -am c3", f->repo);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(remove_tree(f->root), 0);
	free(f->repo);
	free(f->exports);
	free(f);
	return 0;
}

static int export(struct gitsrc *out, struct fixture *f, const char *rev,
		  const char *path, int dirty)
{
	struct gitsrc_opts o = GITSRC_OPTS_INIT;

	o.repo = f->repo;
	o.rev = rev;
	o.path = path;
	o.dest_root = f->exports;
	o.dirty = dirty;
	return gitsrc_export(out, &o);
}

static size_t count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;

	assert_non_null(d);
	for (e = readdir(d); e; e = readdir(d))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

static void test_gitsrc__export_matches_commit(void **state)
{
	struct fixture *f = *state;
	struct gitsrc g = GITSRC_INIT;
	char *head = git_out(f, "rev-parse HEAD");
	char *tree = git_out(f, "rev-parse HEAD:sub");
	char *want_dir = xasprintf("%s/%s", f->exports, tree);
	char *link_path;
	char link[64];
	ssize_t n;

	assert_int_equal(export(&g, f, "HEAD", "sub", 0), 0);
	assert_string_equal(g.commit, head);
	assert_string_equal(g.tree, tree);
	assert_string_equal(g.dir, want_dir);
	assert_int_equal(g.dirty, 0);
	assert_int_equal(g.worktree_dirty, 0);

	assert_file(g.dir, "a.c", "two two\n");
	assert_file(g.dir, "run.sh", "#!/bin/sh\necho hi\n");
	assert_file(g.dir, "deeper/b.h", "int b;\n");
	assert_false(exists(g.dir, "x.txt"));
	assert_int_equal(mode_of(g.dir, "a.c") & 07777, 0644);
	assert_int_equal(mode_of(g.dir, "run.sh") & 07777, 0755);
	assert_true(S_ISDIR(mode_of(g.dir, "deeper")));
	assert_true(S_ISLNK(mode_of(g.dir, "link")));
	link_path = xasprintf("%s/link", g.dir);
	n = readlink(link_path, link, sizeof(link));
	assert_int_equal(n, 3);
	assert_memory_equal(link, "a.c", 3);
	/* Nothing but the export itself is left in dest_root. */
	assert_int_equal(count_entries(f->exports), 1);
	gitsrc_release(&g);
	assert_null(g.dir);
	free(link_path);
	free(head);
	free(tree);
	free(want_dir);
}

/* A crash mid-export leaves "<tree>.tmp.<pid>.<n>": the next export
 * removes a dead process's, and leaves a living one's (its work). */
static void test_gitsrc__stale_tmp_removed(void **state)
{
	struct fixture *f = *state;
	struct gitsrc g = GITSRC_INIT;
	/* Beyond pid_max (at most 2^22): no such process. */
	char *dead = xasprintf("%s/0123.tmp.999999999.0", f->exports);
	char *dead_file = xasprintf("%s/half-written.c", dead);
	char *alive = xasprintf("%s/4567.tmp.1.3", f->exports);
	char *mine = xasprintf("%s/89ab.tmp.%ld.0", f->exports, (long)getpid());
	struct stat st;

	assert_int_equal(mkdir_p(dead), 0);
	assert_int_equal(write_file_atomic(dead_file, "x", 1), 0);
	assert_int_equal(mkdir_p(alive), 0);
	assert_int_equal(mkdir_p(mine), 0);
	assert_int_equal(export(&g, f, "HEAD", "sub", 0), 0);
	assert_int_equal(stat(dead, &st), -1);
	assert_int_equal(stat(alive, &st), 0);
	assert_int_equal(stat(mine, &st), 0);
	gitsrc_release(&g);
	/* Also when the tree is already exported (no new export). */
	assert_int_equal(mkdir_p(dead), 0);
	assert_int_equal(export(&g, f, "HEAD", "sub", 0), 0);
	assert_int_equal(stat(dead, &st), -1);
	gitsrc_release(&g);
	free(dead);
	free(dead_file);
	free(alive);
	free(mine);
}

static void test_gitsrc__export_root(void **state)
{
	struct fixture *f = *state;
	struct gitsrc g = GITSRC_INIT;
	char *tree = git_out(f, "rev-parse 'HEAD^{tree}'");

	assert_int_equal(export(&g, f, "main", NULL, 0), 0);
	assert_string_equal(g.tree, tree);
	assert_file(g.dir, "other/x.txt", "x2\n");
	assert_file(g.dir, ".gitignore", "*.o\n");
	assert_file(g.dir, "sub/a.c", "two two\n");
	gitsrc_release(&g);

	/* "./" and a trailing slash name the same directory. */
	free(tree);
	tree = git_out(f, "rev-parse HEAD:sub");
	assert_int_equal(export(&g, f, "HEAD", "./sub/", 0), 0);
	assert_string_equal(g.tree, tree);
	gitsrc_release(&g);
	free(tree);
}

static void test_gitsrc__resolve(void **state)
{
	struct fixture *f = *state;
	struct gitsrc_opts o = GITSRC_OPTS_INIT;
	char *want = git_out(f, "rev-parse HEAD~1");
	char commit[41];

	o.repo = f->repo;
	o.rev = "HEAD~1";
	o.path = "sub";
	assert_int_equal(gitsrc_resolve(commit, &o), 0);
	assert_string_equal(commit, want);

	/* Searches upwards from a subdirectory, like git. */
	free(want);
	want = git_out(f, "rev-parse HEAD");
	o.repo = xasprintf("%s/sub/deeper", f->repo);
	o.rev = "HEAD";
	assert_int_equal(gitsrc_resolve(commit, &o), 0);
	assert_string_equal(commit, want);
	free((char *)o.repo);
	o.repo = f->repo;

	o.rev = "nope";
	assert_int_equal(gitsrc_resolve(commit, &o), GITSRC_EBADREV);
	assert_non_null(strstr(tn_errmsg(), "unknown revision 'nope'"));
	/* A blob is not a commit. */
	o.rev = "HEAD:sub/a.c";
	assert_int_equal(gitsrc_resolve(commit, &o), GITSRC_EBADREV);
	o.rev = "HEAD";
	o.path = "missing";
	assert_int_equal(gitsrc_resolve(commit, &o), GITSRC_ENOPATH);
	free(want);
}

static void test_gitsrc__errors(void **state)
{
	struct fixture *f = *state;
	struct gitsrc g = GITSRC_INIT;
	struct gitsrc_opts o = GITSRC_OPTS_INIT;
	char *plain = xasprintf("%s/plain", f->root);

	assert_int_equal(export(&g, f, "nope", "sub", 0), GITSRC_EBADREV);
	assert_string_equal(tn_errmsg(), "unknown revision 'nope'");
	assert_null(g.dir);

	assert_int_equal(export(&g, f, "HEAD", "missing", 0), GITSRC_ENOPATH);
	assert_string_equal(tn_errmsg(), "'missing' is not a directory in HEAD");
	/* A file is not a directory. */
	assert_int_equal(export(&g, f, "HEAD~2", "sub/a.c", 0), GITSRC_ENOPATH);
	assert_string_equal(tn_errmsg(), "'sub/a.c' is not a directory in HEAD~2");

	assert_int_equal(mkdir(plain, 0755), 0);
	o.repo = plain;
	o.dest_root = f->exports;
	assert_int_equal(gitsrc_export(&g, &o), GITSRC_ENOREPO);
	assert_non_null(strstr(tn_errmsg(), "is not in a git repository"));
	assert_non_null(strstr(tn_errmsg(), plain));
	gitsrc_release(&g);

	/* Nothing was exported on the way. */
	assert_false(exists(f->root, "exports"));
	free(plain);
}

static void test_gitsrc__shared_tree(void **state)
{
	struct fixture *f = *state;
	struct gitsrc a = GITSRC_INIT, b = GITSRC_INIT, c = GITSRC_INIT;

	assert_int_equal(export(&a, f, "HEAD", "sub", 0), 0);
	assert_int_equal(export(&b, f, "HEAD~1", "sub", 0), 0);
	assert_int_equal(export(&c, f, "HEAD~2", "sub", 0), 0);
	/* c3 touched only other/: same tree, same export, other commit. */
	assert_string_not_equal(a.commit, b.commit);
	assert_string_equal(a.tree, b.tree);
	assert_string_equal(a.dir, b.dir);
	assert_string_not_equal(a.tree, c.tree);
	assert_file(c.dir, "a.c", "one\n");
	assert_file(a.dir, "a.c", "two two\n");
	assert_int_equal(count_entries(f->exports), 2);
	gitsrc_release(&a);
	gitsrc_release(&b);
	gitsrc_release(&c);
}

static void test_gitsrc__reuse(void **state)
{
	struct fixture *f = *state;
	struct gitsrc g = GITSRC_INIT;
	struct stat before, after;
	char *marker;

	assert_int_equal(export(&g, f, "HEAD", "sub", 0), 0);
	marker = xasprintf("%s/marker", g.dir);
	assert_int_equal(write_file_atomic(marker, "m", 1), 0);
	gitsrc_release(&g);

	/*
	 * Reusing writes nothing at all, not even a temporary directory: the
	 * mtime of dest_root stays put (the pause lets the clock move on, so
	 * a write would show) and a read-only dest_root is no obstacle.
	 */
	usleep(50 * 1000);
	assert_int_equal(stat(f->exports, &before), 0);
	assert_int_equal(chmod(f->exports, 0555), 0);
	assert_int_equal(export(&g, f, "HEAD", "sub", 0), 0);
	assert_file(g.dir, "marker", "m");
	assert_file(g.dir, "a.c", "two two\n");
	gitsrc_release(&g);
	assert_int_equal(stat(f->exports, &after), 0);
	assert_int_equal(after.st_mtim.tv_sec, before.st_mtim.tv_sec);
	assert_int_equal(after.st_mtim.tv_nsec, before.st_mtim.tv_nsec);
	assert_int_equal(chmod(f->exports, 0755), 0);
	free(marker);
}

static void test_gitsrc__uncommitted(void **state)
{
	struct fixture *f = *state;
	struct gitsrc g = GITSRC_INIT;
	char *head = git_out(f, "rev-parse HEAD");
	char *tree = git_out(f, "rev-parse HEAD:sub");
	char *index_path = xasprintf("%s/.git/index", f->repo);
	char *index_before, *index_after, *status_before, *status_after, *head_after;
	size_t len_before, len_after;

	put(f, "sub/a.c", "changed locally\n", 0644);
	put(f, "sub/new.txt", "untracked\n", 0644);
	put(f, "sub/newdir/deep.txt", "untracked too\n", 0644);
	put(f, "sub/junk.o", "ignored\n", 0644);
	sh("rm '%s/sub/deeper/b.h'", f->repo);
	status_before = git_out(f, "status --porcelain");
	assert_int_equal(read_file(&index_before, &len_before, index_path), 0);

	/* Without dirty the commit is exported; the changes are only noticed. */
	assert_int_equal(export(&g, f, "HEAD", "sub", 0), 0);
	assert_string_equal(g.tree, tree);
	assert_int_equal(g.dirty, 0);
	assert_int_equal(g.worktree_dirty, 1);
	assert_file(g.dir, "a.c", "two two\n");
	assert_false(exists(g.dir, "new.txt"));
	assert_true(exists(g.dir, "deeper/b.h"));
	gitsrc_release(&g);

	/* With dirty the work tree is exported as it is. */
	assert_int_equal(export(&g, f, "HEAD", "sub", 1), 0);
	assert_string_equal(g.commit, head);
	assert_string_not_equal(g.tree, tree);
	assert_int_equal(g.dirty, 1);
	assert_int_equal(g.worktree_dirty, 1);
	assert_file(g.dir, "a.c", "changed locally\n");
	assert_file(g.dir, "new.txt", "untracked\n");
	assert_file(g.dir, "newdir/deep.txt", "untracked too\n");
	assert_false(exists(g.dir, "junk.o"));
	assert_false(exists(g.dir, "deeper/b.h"));
	assert_int_equal(mode_of(g.dir, "run.sh") & 07777, 0755);
	assert_true(S_ISLNK(mode_of(g.dir, "link")));
	gitsrc_release(&g);

	/* The user's index, HEAD and status are as they were. */
	assert_int_equal(read_file(&index_after, &len_after, index_path), 0);
	assert_int_equal(len_after, len_before);
	assert_memory_equal(index_after, index_before, len_before);
	head_after = git_out(f, "rev-parse HEAD");
	assert_string_equal(head_after, head);
	status_after = git_out(f, "status --porcelain");
	assert_string_equal(status_after, status_before);

	free(head);
	free(tree);
	free(index_path);
	free(index_before);
	free(index_after);
	free(status_before);
	free(status_after);
	free(head_after);
}

static void test_gitsrc__changes_elsewhere(void **state)
{
	struct fixture *f = *state;
	struct gitsrc g = GITSRC_INIT;
	char *tree = git_out(f, "rev-parse HEAD:sub");

	/* Changes outside path leave path clean, in both modes. */
	put(f, "other/x.txt", "edited\n", 0644);
	put(f, "other/fresh.txt", "new\n", 0644);
	assert_int_equal(export(&g, f, "HEAD", "sub", 0), 0);
	assert_int_equal(g.worktree_dirty, 0);
	gitsrc_release(&g);
	assert_int_equal(export(&g, f, "HEAD", "sub", 1), 0);
	assert_int_equal(g.worktree_dirty, 0);
	assert_int_equal(g.dirty, 0);
	assert_string_equal(g.tree, tree);
	gitsrc_release(&g);

	/* An ignored file is not a change. */
	put(f, "sub/junk.o", "ignored\n", 0644);
	assert_int_equal(export(&g, f, "HEAD", "sub", 0), 0);
	assert_int_equal(g.worktree_dirty, 0);
	gitsrc_release(&g);

	/* At the root, the change in other/ counts. */
	assert_int_equal(export(&g, f, "HEAD", "", 0), 0);
	assert_int_equal(g.worktree_dirty, 1);
	gitsrc_release(&g);
	free(tree);
}

struct racer {
	struct fixture *f;
	struct gitsrc g;
	int ret;
};

static void *race(void *arg)
{
	struct racer *r = arg;

	r->ret = export(&r->g, r->f, "HEAD~2", "sub", 0);
	return NULL;
}

static void test_gitsrc__concurrent(void **state)
{
	struct fixture *f = *state;
	struct racer r[4];
	pthread_t t[4];

	for (int round = 0; round < 3; round++) {
		assert_int_equal(remove_tree(f->exports), 0);
		for (int i = 0; i < 4; i++) {
			r[i].f = f;
			r[i].g = (struct gitsrc)GITSRC_INIT;
			r[i].ret = 1;
			assert_int_equal(pthread_create(&t[i], NULL, race, &r[i]), 0);
		}
		for (int i = 0; i < 4; i++)
			assert_int_equal(pthread_join(t[i], NULL), 0);
		for (int i = 0; i < 4; i++) {
			assert_int_equal(r[i].ret, 0);
			assert_string_equal(r[i].g.dir, r[0].g.dir);
		}
		/* One complete export and no temporary leftovers. */
		assert_int_equal(count_entries(f->exports), 1);
		assert_file(r[0].g.dir, "a.c", "one\n");
		assert_file(r[0].g.dir, "deeper/b.h", "int b;\n");
		for (int i = 0; i < 4; i++)
			gitsrc_release(&r[i].g);
	}
}

static int range(struct gitsrc_range *out, struct fixture *f, const char *good, const char *bad,
		 const char *path, int first_parent)
{
	struct gitsrc_opts o = GITSRC_OPTS_INIT;

	o.repo = f->repo;
	o.path = path;
	return gitsrc_range(out, &o, good, bad, first_parent);
}

/* The range's ids, one a line, as `git rev-list` prints them. */
static char *range_ids(const struct gitsrc_range *r)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < r->n; i++)
		strbuf_addf(&sb, "%s%s", i ? "\n" : "", r->commits[i].id);
	return strbuf_detach(&sb);
}

static void test_gitsrc__range_linear(void **state)
{
	struct fixture *f = *state;
	struct gitsrc_range r = GITSRC_RANGE_INIT;
	char *c1 = git_out(f, "rev-parse HEAD~2"), *c2 = git_out(f, "rev-parse HEAD~1");
	char *c3 = git_out(f, "rev-parse HEAD"), *t2 = git_out(f, "rev-parse HEAD~1:sub");

	assert_int_equal(range(&r, f, "HEAD~2", "main", "sub", 0), 0);
	assert_string_equal(r.good.id, c1);
	assert_string_equal(r.bad.id, c3);
	assert_string_equal(r.bad.subject, "c3");
	assert_int_equal(r.n, 2);
	assert_string_equal(r.commits[0].id, c2);
	assert_string_equal(r.commits[0].subject, "c2");
	assert_string_equal(r.commits[0].tree, t2);
	assert_string_equal(r.commits[1].id, c3);
	/* c2's parent is good, outside; c3's is c2. */
	assert_int_equal(r.commits[0].nparents, 1);
	assert_true(r.commits[0].parents[0] == GITSRC_OUTSIDE);
	assert_int_equal(r.commits[1].nparents, 1);
	assert_int_equal(r.commits[1].parents[0], 0);
	assert_string_equal(r.commits[0].parent, c1);
	assert_string_equal(r.commits[1].parent, c2);
	assert_string_equal(r.bad.parent, c2);
	/* c3 touched other/ only: below sub it is c2 again. */
	assert_int_equal(r.commits[0].unchanged, 0);
	assert_int_equal(r.commits[1].unchanged, 1);
	assert_string_equal(r.commits[1].tree, t2);
	gitsrc_range_release(&r);
	assert_null(r.commits);

	/* At the root every commit changes something; first_parent is the
	 * same walk on a line. */
	assert_int_equal(range(&r, f, "HEAD~2", "HEAD", NULL, 1), 0);
	assert_int_equal(r.n, 2);
	assert_int_equal(r.commits[1].unchanged, 0);
	gitsrc_range_release(&r);
	free(c1);
	free(c2);
	free(c3);
	free(t2);
}

/*
 * A merge: side branch s1, s2 from c3, main m1, then merge (tree differs
 * from m1's at sub) and a commit after it. Checked against git rev-list.
 */
static void test_gitsrc__range_merge(void **state)
{
	struct fixture *f = *state;
	struct gitsrc_range r = GITSRC_RANGE_INIT;
	char *want, *got, *merge;
	size_t mi;

	sh("git -C '%s' checkout -q -b side", f->repo);
	put(f, "sub/s.c", "s1\n", 0644);
	sh("git -C '%s' add -A && git -C '%s' commit -q -m s1", f->repo, f->repo);
	put(f, "sub/s.c", "s2\n", 0644);
	sh("git -C '%s' commit -q -am s2", f->repo);
	sh("git -C '%s' checkout -q main", f->repo);
	put(f, "sub/m.c", "m1\n", 0644);
	sh("git -C '%s' add -A && git -C '%s' commit -q -m m1", f->repo, f->repo);
	sh("git -C '%s' merge -q --no-ff -m merge side", f->repo);
	put(f, "sub/a.c", "after\n", 0644);
	sh("git -C '%s' commit -q -am after", f->repo);
	merge = git_out(f, "rev-parse HEAD~1");

	assert_int_equal(range(&r, f, "HEAD~3", "HEAD", "sub", 0), 0);
	want = git_out(f, "rev-list --topo-order --reverse HEAD~3..HEAD");
	got = range_ids(&r);
	assert_string_equal(got, want);
	assert_int_equal(r.n, 5);
	for (mi = 0; mi < r.n && strcmp(r.commits[mi].id, merge); mi++)
		;
	assert_true(mi < r.n);
	assert_string_equal(r.commits[mi].subject, "merge");
	assert_int_equal(r.commits[mi].nparents, 2);
	assert_int_equal(r.commits[mi].unchanged, 0);
	/* Parents come first, and are the merge's. */
	for (size_t i = 0; i < r.n; i++)
		for (size_t k = 0; k < r.commits[i].nparents; k++)
			assert_true(r.commits[i].parents[k] == GITSRC_OUTSIDE ||
				    r.commits[i].parents[k] < i);
	assert_string_equal(r.commits[r.commits[mi].parents[0]].subject, "m1");
	assert_string_equal(r.commits[r.commits[mi].parents[1]].subject, "s2");
	assert_string_equal(r.commits[r.n - 1].id, r.bad.id);
	gitsrc_range_release(&r);
	free(want);
	free(got);

	/* First parents only: c3 -> m1 -> merge -> after. */
	assert_int_equal(range(&r, f, "HEAD~3", "HEAD", "sub", 1), 0);
	want = git_out(f, "rev-list --first-parent --topo-order --reverse HEAD~3..HEAD");
	got = range_ids(&r);
	assert_string_equal(got, want);
	assert_int_equal(r.n, 3);
	assert_string_equal(r.commits[1].subject, "merge");
	assert_int_equal(r.commits[1].nparents, 1);
	assert_int_equal(r.commits[1].parents[0], 0);
	gitsrc_range_release(&r);
	free(want);
	free(got);
	free(merge);
}

static void test_gitsrc__range_errors(void **state)
{
	struct fixture *f = *state;
	struct gitsrc_range r = GITSRC_RANGE_INIT;
	char *head = git_out(f, "rev-parse --short=12 HEAD");

	assert_int_equal(range(&r, f, "nope", "HEAD", "sub", 0), GITSRC_EBADREV);
	assert_string_equal(tn_errmsg(), "unknown revision 'nope'");
	assert_int_equal(range(&r, f, "HEAD~1", "HEAD:sub/a.c", "sub", 0), GITSRC_EBADREV);
	assert_int_equal(range(&r, f, "main", "HEAD", "sub", 0), GITSRC_ERANGE);
	assert_non_null(strstr(tn_errmsg(), "are the same commit"));
	assert_non_null(strstr(tn_errmsg(), head));
	/* Swapped. */
	assert_int_equal(range(&r, f, "HEAD", "HEAD~2", "sub", 0), GITSRC_ERANGE);
	assert_non_null(strstr(tn_errmsg(), "is not an ancestor of bad 'HEAD~2'"));
	assert_non_null(strstr(tn_errmsg(), "swapped"));
	/* Unrelated history. */
	sh("git -C '%s' checkout -q --orphan lone && git -C '%s' commit -q -m lone",
	   f->repo, f->repo);
	assert_int_equal(range(&r, f, "main", "lone", "sub", 0), GITSRC_ERANGE);
	assert_null(strstr(tn_errmsg(), "swapped"));
	assert_int_equal(range(&r, f, "main~2", "main", "missing", 0), GITSRC_ENOPATH);
	assert_string_equal(tn_errmsg(), "'missing' is not a directory in main~2");
	assert_null(r.commits);
	assert_int_equal(r.n, 0);
	free(head);
}

/* git hash-object's ids, with no repository. */
static void test_gitsrc__blob_id(void **state)
{
	char id[41];

	(void)state;
	assert_int_equal(gitsrc_blob_id(id, "hello\n", 6), 0);
	assert_string_equal(id, "ce013625030ba8dba906f756967f9e9ca394464a");
	assert_int_equal(gitsrc_blob_id(id, NULL, 0), 0);
	assert_string_equal(id, "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391");
}

#define T(name) cmocka_unit_test_setup_teardown(test_gitsrc__##name, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(export_matches_commit),
		T(stale_tmp_removed),
		T(export_root),
		T(resolve),
		T(errors),
		T(shared_tree),
		T(reuse),
		T(uncommitted),
		T(changes_elsewhere),
		T(concurrent),
		T(range_linear),
		T(range_merge),
		T(range_errors),
		cmocka_unit_test(test_gitsrc__blob_id),
	};

	return cmocka_run_group_tests_name("gitsrc", tests, NULL, NULL);
}
