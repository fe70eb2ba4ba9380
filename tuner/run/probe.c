/* SPDX-License-Identifier: GPL-2.0-or-later */
/* probe: variants measured on demand into one journal (see probe.h). */
#include <stdlib.h>
#include <string.h>

#include "tuner/probe.h"
#include "tuner/space.h"
#include "tuner/util.h"

int probe_init(struct probe *out, const struct study *s, const char *kind,
	       const char *key, const char *results, unsigned repeats, unsigned layout)
{
	uint64_t h = hash64_str(hash64_str(hash64_str(HASH64_INIT, s->hash), kind), key);

	memset(out, 0, sizeof(*out));
	out->objective = s->nobjectives;
	for (size_t i = 0; i < s->nobjectives; i++) {
		if (!s->objectives[i].from_size) {
			out->objective = i;
			break;
		}
	}
	if (!s->measure.command || out->objective == s->nobjectives)
		return tn_error("%s has no measured objective: nothing to %s", s->path, kind);
	out->s = s;
	hash64_hex(out->hash, h);
	out->results = results ? xstrdup(results)
			       : xasprintf("results/%s/%s-%s", s->name, kind, out->hash);
	out->repeats = repeats ? repeats : 1;
	out->layout = layout ? layout : s->layout_samples;
	return 0;
}

void probe_release(struct probe *p)
{
	free(p->results);
	p->results = NULL;
}

int probe_measure(struct probe *p, struct run_result *out, const char *const *flags,
		  size_t nflags, const char *const *revs, size_t nrevs)
{
	static char exhaustive[] = "exhaustive";
	struct run_opts ro = RUN_OPTS_INIT;
	struct study d = *p->s;
	int ret;

	memset(out, 0, sizeof(*out));
	d.space = (struct space)SPACE_INIT;
	d.has_pgo_on = 0;
	if (space_add_dimension(&d.space, "variant", flags, nflags) < 0)
		return -1;
	/* One journal for the session whatever the variants, N and K: the
	 * build keys decide what is reused. */
	memcpy(d.hash, p->hash, sizeof(d.hash));
	d.repeats_min = d.repeats_max = p->repeats;
	d.layout_samples = p->layout;
	d.strategy = exhaustive;
	d.budget = 0;
	ro.jobs = p->jobs;
	ro.report = p->report;
	ro.results = p->results;
	ro.revs = nrevs ? revs : NULL;
	ro.nrevs = nrevs;
	ret = run_study(out, &d, &ro);
	if (ret == 0) {
		p->builds_done += out->builds_done;
		p->builds_cached += out->builds_cached;
		p->measures_done += out->measures_done;
		p->measures_cached += out->measures_cached;
	}
	space_release(&d.space);
	return ret;
}

int probe_judge(struct stats_test *t, const struct probe *p, const struct config_result *a,
		const struct config_result *b)
{
	const struct run_samples *x = &a->samples[p->objective], *y = &b->samples[p->objective];

	stats_compare_clustered(t, x->x, x->layout_seed, x->n, y->x, y->layout_seed, y->n, 0.95);
	if (strcmp(a->status, "ok") || strcmp(b->status, "ok") || !stats_significant(t, 0.05))
		return 0;
	return (t->diff > 0) == (p->s->objectives[p->objective].maximize != 0) ? 1 : -1;
}
