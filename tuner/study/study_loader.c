/* SPDX-License-Identifier: GPL-2.0-or-later */
/* study_loader: the checks every section parser of a load shares (study_priv.h) */
#include <stdarg.h>

#include "formats/parse.h"
#include "study_priv.h"

int study_err(const struct loader *ld, const struct ynode *n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	study_ynode_verror(ld->path, n, fmt, ap);
	va_end(ap);
	return -1;
}

int study_want_map(const struct loader *ld, const struct ynode *n, const char *what,
		   const char *const *known)
{
	if (study_ynode_want(ld->path, n, YNODE_MAP, what) < 0)
		return -1;
	return study_ynode_check_keys(ld->path, n, known);
}

int study_check_parser(const struct loader *ld, const struct ynode *n, const char *name)
{
	if (!parse_valid(name))
		return study_err(ld, n, "unknown parser '%s' (known: %s)", name,
				 parse_names());
	return 0;
}
