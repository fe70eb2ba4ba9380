// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: the output parsers (parse_value()) and cachegrind's
 * per-function reader (cgfunc_parse()). The first byte picks the parser;
 * the rest is a measure command's stdout.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "formats/cgfunc.h"
#include "tuner/cgmodel.h"
#include "formats/parse.h"
#include "uarch/uarch.h"

static const char *const parsers[] = {
	"number",
	"iperf3",
	"json:end.sum_received.bits_per_second",
	"json:a[0].b[2]",
	"json:x",
	"cachegrind-model",
	"cachegrind-model:cycles",
	"cachegrind-model:i1-misses",
	"uarch-model",
	"uarch-model:l2-misses",
};
#define NPARSERS (sizeof(parsers) / sizeof(parsers[0]))

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ua_config ua;
	static int ready;
	struct parse_models models = { NULL, &ua };
	const char *text = (const char *)data + 1;
	double v;
	char err[256];

	if (!ready) {
		if (ua_config_preset(&ua, "cortex-a9", err, sizeof(err)) < 0)
			__builtin_trap();
		ready = 1;
	}
	if (size < 1)
		return 0;
	if (data[0] == 0xff) {
		struct cg_model m = { 0 };
		struct cg_profile p;

		cg_model_init(&m);
		if (cgfunc_parse(&p, &m, text, size - 1) == 0)
			cg_profile_release(&p);
		cg_model_release(&m);
		return 0;
	}
	(void)parse_value(&v, parsers[data[0] % NPARSERS], &models, text, size - 1);
	return 0;
}
