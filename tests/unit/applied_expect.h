/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared by the unit tests that judge struct applied (test_applied.c,
 * test_elf.c): include after <cmocka.h> and "tuner/applied.h".
 */
#ifndef TUNER_TEST_APPLIED_EXPECT_H
#define TUNER_TEST_APPLIED_EXPECT_H

#include <string.h>

static const struct applied_flag *find_flag(const struct applied *a, const char *flag)
{
	for (size_t i = 0; i < a->nflags; i++)
		if (!strcmp(a->flags[i].flag, flag))
			return &a->flags[i];
	fail_msg("flag '%s' was not judged", flag);
	return NULL;
}

/* flag was in effect in `in` lines and overridden in `over` lines by `by`. */
static void expect(const struct applied *a, const char *flag, unsigned in, unsigned over,
		   const char *by)
{
	const struct applied_flag *f = find_flag(a, flag);

	if (f->in_effect != in || f->overridden != over)
		fail_msg("%s: in effect %u, overridden %u; want %u, %u", flag, f->in_effect,
			 f->overridden, in, over);
	if (by && (!f->overridden_by || strcmp(f->overridden_by, by)))
		fail_msg("%s: overridden by '%s', want '%s'", flag,
			 f->overridden_by ? f->overridden_by : "(null)", by);
	if (!by && f->overridden_by)
		fail_msg("%s: overridden by '%s', want none", flag, f->overridden_by);
}

#endif
