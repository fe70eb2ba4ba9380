/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Helpers shared by the uarch_*.c files (not part of the API). */
#ifndef TUNER_UARCH_PRIV_H
#define TUNER_UARCH_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include "uarch.h"

/* Formats a message into err (if any) and returns -1. */
int ua_err(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int ua_is_pow2(uint64_t v);
unsigned ua_log2(uint64_t v);
/* Checks one cache's geometry; name goes into the message. */
int ua_geom_check(const struct ua_cache_geom *g, const char *name, char *err, size_t errlen);

#endif
