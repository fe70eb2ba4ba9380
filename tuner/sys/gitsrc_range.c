/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gitsrc_range: the commits between two revisions, for bisect (see
 * include/tuner/gitsrc.h). The other half of the gitsrc module; the two
 * share gitsrc_priv.h.
 */
#include "tuner/gitsrc.h"
#include "tuner/util.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <git2.h>

#include "gitsrc_priv.h"


/* The id of the directory at path in c's tree into out, "" when none. */
static int tree_at(char out[41], git_commit *c, const char *path)
{
	git_tree *root = NULL;
	git_tree_entry *e = NULL;

	out[0] = '\0';
	if (git_commit_tree(&root, c) < 0)
		return tn_error("cannot read the tree of %.12s: %s",
				git_oid_tostr_s(git_commit_id(c)), gitsrc_msg());
	if (!*path)
		git_oid_tostr(out, 41, git_tree_id(root));
	else if (git_tree_entry_bypath(&e, root, path) == 0 &&
		 git_tree_entry_type(e) == GIT_OBJECT_TREE)
		git_oid_tostr(out, 41, git_tree_entry_id(e));
	git_tree_entry_free(e);
	git_tree_free(root);
	return 0;
}

static int fill_commit(struct gitsrc_commit *out, git_commit *c, const char *path)
{
	const char *summary = git_commit_summary(c);

	git_oid_tostr(out->id, sizeof(out->id), git_commit_id(c));
	if (git_commit_parentcount(c))
		git_oid_tostr(out->parent, sizeof(out->parent), git_commit_parent_id(c, 0));
	out->subject = xstrdup(summary ? summary : "");
	return tree_at(out->tree, c, path);
}

struct oid_index {
	git_oid id;
	size_t i;
};

static int cmp_oid_index(const void *a, const void *b)
{
	return git_oid_cmp(&((const struct oid_index *)a)->id, &((const struct oid_index *)b)->id);
}

/* Fills commit i's parents (indices via the sorted map) and unchanged. */
static int link_parents(struct gitsrc_commit *commits, size_t i, git_commit *c,
			const struct oid_index *map, size_t n, int first_parent, const char *path)
{
	struct gitsrc_commit *rc = &commits[i];
	unsigned np = git_commit_parentcount(c);
	git_commit *p = NULL;
	char tree[41];
	int ret = 0;

	if (first_parent && np > 1)
		np = 1;
	rc->parents = xcalloc(np ? np : 1, sizeof(*rc->parents));
	rc->nparents = np;
	for (unsigned k = 0; k < np; k++) {
		struct oid_index key, *hit;

		git_oid_cpy(&key.id, git_commit_parent_id(c, k));
		hit = bsearch(&key, map, n, sizeof(*map), cmp_oid_index);
		rc->parents[k] = hit ? hit->i : GITSRC_OUTSIDE;
	}
	if (!np)
		return 0;
	if (rc->parents[0] != GITSRC_OUTSIDE) {
		rc->unchanged = !strcmp(commits[rc->parents[0]].tree, rc->tree);
		return 0;
	}
	if (git_commit_parent(&p, c, 0) < 0)
		return tn_error("cannot read the parent of %.12s: %s", rc->id, gitsrc_msg());
	ret = tree_at(tree, p, path);
	rc->unchanged = ret == 0 && !strcmp(tree, rc->tree);
	git_commit_free(p);
	return ret;
}

/* good..bad into out->commits (ids only in ids[]), oldest first. */
static int walk_range(git_oid **ids, size_t *n, git_repository *repo, git_commit *good,
		      git_commit *bad, int first_parent)
{
	git_revwalk *walk = NULL;
	size_t alloc = 0;
	git_oid id;
	int err, ret = -1;

	*ids = NULL;
	*n = 0;
	if (git_revwalk_new(&walk, repo) < 0 ||
	    git_revwalk_sorting(walk, GIT_SORT_TOPOLOGICAL | GIT_SORT_REVERSE) < 0 ||
	    git_revwalk_push(walk, git_commit_id(bad)) < 0 ||
	    git_revwalk_hide(walk, git_commit_id(good)) < 0 ||
	    (first_parent && git_revwalk_simplify_first_parent(walk) < 0)) {
		tn_error("cannot walk the history: %s", gitsrc_msg());
		goto out;
	}
	for (;;) {
		err = git_revwalk_next(&id, walk);
		if (err == GIT_ITEROVER)
			break;
		if (err < 0) {
			tn_error("cannot walk the history: %s", gitsrc_msg());
			goto out;
		}
		ALLOC_GROW(*ids, *n + 1, alloc);
		git_oid_cpy(&(*ids)[(*n)++], &id);
	}
	ret = 0;
out:
	git_revwalk_free(walk);
	return ret;
}

/* Checks that good and bad make a range; GITSRC_ERANGE with message if not. */
static int check_range(git_repository *repo, git_commit *g, git_commit *b, const char *good,
		       const char *bad)
{
	char gid[13], bid[13];
	int err;

	git_oid_tostr(gid, sizeof(gid), git_commit_id(g));
	git_oid_tostr(bid, sizeof(bid), git_commit_id(b));
	if (git_oid_equal(git_commit_id(g), git_commit_id(b))) {
		tn_error("good '%s' and bad '%s' are the same commit (%s): nothing between them",
			 good, bad, gid);
		return GITSRC_ERANGE;
	}
	err = git_graph_descendant_of(repo, git_commit_id(b), git_commit_id(g));
	if (err < 0)
		return tn_error("cannot relate '%s' and '%s': %s", good, bad, gitsrc_msg());
	if (err == 0) {
		err = git_graph_descendant_of(repo, git_commit_id(g), git_commit_id(b));
		tn_error("good '%s' (%s) is not an ancestor of bad '%s' (%s)%s", good, gid, bad, bid,
			 err == 1 ? "; it is a descendant: are they swapped?" : "");
		return GITSRC_ERANGE;
	}
	return 0;
}

int gitsrc_range(struct gitsrc_range *out, const struct gitsrc_opts *opts, const char *good,
		 const char *bad, int first_parent)
{
	struct gitsrc_range r = GITSRC_RANGE_INIT;
	git_repository *repo = NULL;
	git_commit *g = NULL, *b = NULL, *c = NULL;
	struct oid_index *map = NULL;
	git_oid *ids = NULL;
	char *path = gitsrc_clean_path(opts->path);
	const char *shown = opts->path ? opts->path : "";
	size_t n = 0;
	int ret;

	memset(out, 0, sizeof(*out));
	pthread_once(&gitsrc_once, gitsrc_init_once);
	ret = gitsrc_open_repo(&repo, opts->repo ? opts->repo : ".");
	if (ret == 0)
		ret = gitsrc_resolve_commit(&g, repo, good);
	if (ret == 0)
		ret = gitsrc_resolve_commit(&b, repo, bad);
	if (ret == 0)
		ret = check_range(repo, g, b, good, bad);
	if (ret == 0)
		ret = fill_commit(&r.good, g, path);
	if (ret == 0)
		ret = fill_commit(&r.bad, b, path);
	if (ret < 0)
		goto out;
	ret = GITSRC_ENOPATH;
	if (!*r.good.tree || !*r.bad.tree) {
		tn_error("'%s' is not a directory in %s", shown, !*r.good.tree ? good : bad);
		goto out;
	}
	ret = walk_range(&ids, &n, repo, g, b, first_parent);
	if (ret < 0)
		goto out;
	map = xcalloc(n ? n : 1, sizeof(*map));
	for (size_t i = 0; i < n; i++) {
		git_oid_cpy(&map[i].id, &ids[i]);
		map[i].i = i;
	}
	qsort(map, n, sizeof(*map), cmp_oid_index);
	r.commits = xcalloc(n ? n : 1, sizeof(*r.commits));
	for (size_t i = 0; i < n && ret == 0; i++) {
		r.n = i + 1;
		if (git_commit_lookup(&c, repo, &ids[i]) < 0) {
			ret = tn_error("cannot read commit %s: %s", git_oid_tostr_s(&ids[i]), gitsrc_msg());
			break;
		}
		ret = fill_commit(&r.commits[i], c, path);
		if (ret == 0)
			ret = link_parents(r.commits, i, c, map, n, first_parent, path);
		git_commit_free(c);
		c = NULL;
	}
	if (ret < 0)
		goto out;
	*out = r;
	memset(&r, 0, sizeof(r));
out:
	gitsrc_range_release(&r);
	free(map);
	free(ids);
	git_commit_free(b);
	git_commit_free(g);
	git_repository_free(repo);
	free(path);
	return ret;
}

void gitsrc_range_release(struct gitsrc_range *r)
{
	for (size_t i = 0; i < r->n; i++) {
		free(r->commits[i].subject);
		free(r->commits[i].parents);
	}
	free(r->commits);
	free(r->good.subject);
	free(r->bad.subject);
	memset(r, 0, sizeof(*r));
}

int gitsrc_relation(const struct gitsrc_opts *opts, const char *a, const char *b)
{
	git_repository *repo = NULL;
	git_commit *ca = NULL, *cb = NULL;
	int ret;

	pthread_once(&gitsrc_once, gitsrc_init_once);
	ret = gitsrc_open_repo(&repo, opts->repo ? opts->repo : ".");
	if (ret == 0)
		ret = gitsrc_resolve_commit(&ca, repo, a);
	if (ret == 0)
		ret = gitsrc_resolve_commit(&cb, repo, b);
	if (ret == 0 && !git_oid_equal(git_commit_id(ca), git_commit_id(cb))) {
		int down = git_graph_descendant_of(repo, git_commit_id(cb), git_commit_id(ca));
		int up = down == 0 ? git_graph_descendant_of(repo, git_commit_id(ca),
							     git_commit_id(cb)) : 0;

		if (down < 0 || up < 0)
			ret = tn_error("cannot relate '%s' and '%s': %s", a, b, gitsrc_msg());
		else
			ret = down ? 0 : up ? 1 : 2;
	}
	git_commit_free(cb);
	git_commit_free(ca);
	git_repository_free(repo);
	return ret;
}
