// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: the journal reader. The bytes are an existing
 * journal; journal_open() replays them, and every build it kept is
 * looked up with its measurements, as a run would.
 */
#include "fuzz_input.h"

#include <stdlib.h>

#include "tuner/journal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct journal *j;
	const char *path = fuzz_input_path(data, size, "journal.jsonl");

	if (journal_open(&j, path, "fuzz", "0123456789abcdef", NULL) < 0)
		return 0;
	(void)journal_find_build(j, "9c43bcd4b9ab8a24");
	{
		const struct measure_record **m;
		size_t n = journal_measures(j, "9c43bcd4b9ab8a24", NULL, &m);

		for (size_t i = 0; i < n; i++)
			if (m[i]->nvalues && !m[i]->names[0])
				__builtin_trap();
		free(m);
	}
	journal_close(j);
	return 0;
}
