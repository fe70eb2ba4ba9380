/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * space: the flag space of a study. A space is a list of named dimensions,
 * each a list of values; a configuration picks one value per dimension.
 *
 * A value of a flag dimension is a flag string (possibly empty, possibly
 * several flags separated by spaces). The dimension named "pgo" is special:
 * its values are "off" and/or "on" and select profile-guided optimisation.
 *
 * Configurations are numbered 0 .. space_size()-1 in mixed radix (the last
 * dimension varies fastest). A configuration is also its *pick*: the index
 * of its value in each dimension (ndims of them), which names every
 * configuration of a space of any size, where a number does so only below
 * 2^64 (space_beyond_u64()). A configuration's *id* does not depend on that
 * numbering: it is a hash of the normalized flag set (whitespace-separated
 * tokens, sorted, duplicates removed) and the PGO mode, so renaming or
 * reordering dimensions keeps every id.
 *
 * Pure: no I/O.
 */
#ifndef TUNER_SPACE_H
#define TUNER_SPACE_H

#include <stddef.h>
#include <stdint.h>

enum dim_kind { DIM_FLAGS, DIM_PGO };

struct dimension {
	char *name;   /* malloced */
	enum dim_kind kind;
	char **values; /* nvalues malloced strings; for DIM_PGO "off"/"on" */
	size_t nvalues;
};

struct space {
	struct dimension *dims;
	size_t ndims;
};
#define SPACE_INIT { .dims = NULL, .ndims = 0 }

enum pgo_mode { PGO_OFF = 0, PGO_ON = 1 };

/* config.index of a configuration whose number does not fit 64 bits. */
#define SPACE_NO_INDEX UINT64_MAX

struct config {
	uint64_t index; /* its number, or SPACE_NO_INDEX */
	char *flags;  /* malloced; the chosen flag values in dimension order,
	                 joined by one space, empty values skipped; byte for byte
	                 as written in the study otherwise */
	enum pgo_mode pgo;
	char id[17];  /* stable id, 16 hex digits */
};
#define CONFIG_INIT { .index = 0, .flags = NULL, .pgo = PGO_OFF, .id = { 0 } }

/*
 * Adds a dimension, copying name and values. kind is DIM_PGO when name is
 * "pgo". Fails (-1, message without location) on an empty value list, a
 * duplicate dimension name, a duplicate value, or a pgo value other than
 * "off"/"on".
 */
int space_add_dimension(struct space *s, const char *name,
			const char *const *values, size_t nvalues);

/* Number of configurations; saturates at UINT64_MAX (space_beyond_u64()
 * tells). 1 for no dimensions. */
uint64_t space_size(const struct space *s);
/* 1 if the space has more configurations than UINT64_MAX, else 0. */
int space_beyond_u64(const struct space *s);
/* The exact number of configurations less sub (at most that number), in
 * decimal, however large. Caller frees with free(). */
char *space_size_str(const struct space *s, uint64_t sub);

/* Fills out with configuration `index` (< the number of configurations).
 * Caller releases out with config_release(). Returns 0, or -1 if index is
 * out of range. */
int space_config(struct config *out, const struct space *s, uint64_t index);
/* Fills out with the configuration of pick (s->ndims value indices, each
 * below its dimension's nvalues). Caller releases out with
 * config_release(). Returns 0, or -1 if a value index is out of range. */
int space_config_pick(struct config *out, const struct space *s, const size_t *pick);
/* The pick of configuration `index` (< the number of configurations) into
 * pick (s->ndims entries, the caller's). */
void space_index_pick(size_t *pick, const struct space *s, uint64_t index);

/*
 * The pick (s->ndims entries, the caller's) of the configuration whose
 * flags, as space_config_pick() joins them, are flags byte for byte and
 * whose PGO mode is pgo: 1 found, 0 when no pick of s joins to them (the
 * study was edited since). When several picks join to the same flags (a
 * value repeated across dimensions), the first in configuration order.
 * Time O(ndims * strlen(flags) * values), however the values repeat.
 */
int space_flags_pick(size_t *pick, const struct space *s, const char *flags,
		     enum pgo_mode pgo);

/* Computes the stable id of a flag string and PGO mode: of its canonical
 * form (gccopt_canonical()), so flags GCC treats alike share an id. */
void config_id(char out[17], const char *flags, enum pgo_mode pgo);

/*
 * A switch of one dimension's value that another dimension's value
 * overrides wherever the two meet (gccopt: the last switch of a kind
 * wins, and values join in dimension order): dims[dim].values[value]'s
 * `flag` loses to dims[by_dim].values[by_value]'s `by`. by_dim == dim
 * when a value overrides itself ("-O2 -O3").
 */
struct space_override {
	size_t dim, value, by_dim, by_value;
	char *flag, *by; /* malloced */
};

/* Every override among the dimensions' values, in dimension order. *out
 * is malloced (space_overrides_free()); returns the count. */
size_t space_overrides(struct space_override **out, const struct space *s);
void space_overrides_free(struct space_override *o, size_t n);

void config_release(struct config *c);
void space_release(struct space *s);

#endif
