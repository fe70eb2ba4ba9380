/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lab_env: see include/tuner/lab.h */
#include "tuner/lab.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tuner/util.h"

const char *lab_next_ref(const char *p, char **name, const char **after)
{
	const char *ref = strstr(p, "${"), *end;

	*name = NULL;
	*after = NULL;
	if (!ref)
		return NULL;
	end = strchr(ref + 2, '}');
	if (end) {
		*name = xstrndup(ref + 2, (size_t)(end - ref - 2));
		*after = end + 1;
	}
	return ref;
}

/* Calls fn for each ${NAME} reference of value, with its name (valid
 * during the call). */
static void each_ref(const char *value, void (*fn)(const char *name, void *arg), void *arg)
{
	const char *p = value;
	char *name;

	while (lab_next_ref(p, &name, &p) && name) {
		fn(name, arg);
		free(name);
	}
}

static void note_unset(const char *name, void *arg)
{
	struct strbuf *sb = arg;

	if (getenv(name))
		return;
	if (sb->len)
		strbuf_addstr(sb, ", ");
	strbuf_addf(sb, "${%s}", name);
}

char *lab_env_unset(const struct testbed *tb)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < tb->nenv; i++)
		each_ref(tb->env_value[i], note_unset, &sb);
	if (sb.len)
		return strbuf_detach(&sb);
	strbuf_release(&sb);
	return NULL;
}

int lab_check_env(const struct study *s)
{
	for (size_t t = 0; t < s->ntestbeds; t++) {
		char *unset = lab_env_unset(&s->tbs[t]);
		int ret;

		if (!unset)
			continue;
		ret = tn_input_error_at(s->path, s->tbs[t].loc.line, s->tbs[t].loc.col,
					"testbed '%s' names %s, not set in tuner's environment "
					"(set %s before the run)", s->tbs[t].name, unset,
					strchr(unset, ',') ? "them" : "it");
		free(unset);
		return ret;
	}
	return 0;
}

int lab_env_expand(struct lab_env *out, const struct testbed *tb, const char *study_path)
{
	memset(out, 0, sizeof(*out));
	out->vars = xcalloc(tb->nenv + 1, sizeof(*out->vars));
	for (size_t i = 0; i < tb->nenv; i++) {
		struct strbuf sb = STRBUF_INIT;
		const char *p = tb->env_value[i], *ref, *after;
		char *name;

		strbuf_addf(&sb, "%s=", tb->env_name[i]);
		while ((ref = lab_next_ref(p, &name, &after)) && name) {
			const char *val;

			strbuf_add(&sb, p, (size_t)(ref - p));
			val = getenv(name);
			if (!val) {
				tn_input_error_at(study_path, tb->loc.line, tb->loc.col,
						  "testbed '%s': env %s names ${%s}, which is not "
						  "set in tuner's environment", tb->name,
						  tb->env_name[i], name);
				free(name);
				strbuf_release(&sb);
				lab_env_release(out);
				return -1;
			}
			free(name);
			strbuf_addstr(&sb, val);
			if (*val) {
				out->secrets = xrealloc(out->secrets,
							(out->nsecrets + 1) * sizeof(*out->secrets));
				out->secrets[out->nsecrets++] = xstrdup(val);
			}
			p = after;
		}
		strbuf_addstr(&sb, p);
		out->vars[out->nvars++] = strbuf_detach(&sb);
	}
	return 0;
}

void lab_env_release(struct lab_env *e)
{
	for (size_t i = 0; i < e->nvars; i++)
		free(e->vars[i]);
	for (size_t i = 0; i < e->nsecrets; i++)
		free(e->secrets[i]);
	free(e->vars);
	free(e->secrets);
	memset(e, 0, sizeof(*e));
}

/* Replaces every secret in buf (len bytes) with "***", into sb. 1 if any. */
static int replace(struct strbuf *sb, const char *buf, size_t len, char *const *secrets,
		   size_t n)
{
	int any = 0;

	for (size_t i = 0; i < len;) {
		size_t hit = 0;

		for (size_t k = 0; k < n && !hit; k++) {
			size_t sl = strlen(secrets[k]);
			if (sl && sl <= len - i && !memcmp(buf + i, secrets[k], sl))
				hit = sl;
		}
		if (hit) {
			strbuf_addstr(sb, "***");
			i += hit;
			any = 1;
		} else {
			strbuf_add(sb, buf + i, 1);
			i++;
		}
	}
	return any;
}

char *lab_scrub_text(const char *text, char *const *secrets, size_t n)
{
	struct strbuf sb = STRBUF_INIT;

	replace(&sb, text, strlen(text), secrets, n);
	return strbuf_detach(&sb);
}

off_t lab_log_mark(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? st.st_size : 0;
}

int lab_scrub(const char *path, off_t from, char *const *secrets, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	struct stat st;
	char *buf = NULL;
	ssize_t got;
	size_t len;
	int fd, ret = -1;

	if (!n)
		return 0;
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : tn_error_errno("cannot open '%s'", path);
	if (fstat(fd, &st) < 0) {
		tn_error_errno("cannot stat '%s'", path);
		goto out;
	}
	if (st.st_size <= from) {
		ret = 0;
		goto out;
	}
	len = (size_t)(st.st_size - from);
	buf = xmalloc(len);
	got = pread(fd, buf, len, from);
	if (got < 0) {
		tn_error_errno("cannot read '%s'", path);
		goto out;
	}
	if (!replace(&sb, buf, (size_t)got, secrets, n)) {
		ret = 0;
		goto out;
	}
	if (ftruncate(fd, from) < 0 || pwrite(fd, sb.buf, sb.len, from) != (ssize_t)sb.len) {
		tn_error_errno("cannot rewrite '%s'", path);
		goto out;
	}
	ret = 0;
out:
	strbuf_release(&sb);
	free(buf);
	close(fd);
	return ret;
}
