// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer target: the study loader (study_load()) on any bytes. */
#include "fuzz_input.h"

#include "tuner/study.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct study s;

	if (study_load(&s, fuzz_input_path(data, size, "study.yaml")) == 0)
		study_release(&s);
	return 0;
}
