// SPDX-License-Identifier: GPL-2.0-only
/* model walk --config: the walk simulator's key = value file. */
#include "fuzz.h"
#include "model/walk_cfg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pt_walk_cfg c;
	char err[2048], *text = fuzz_text(data, size);

	if (!text)
		return 0;
	pt_walk_cfg_default(&c);
	pt_walk_cfg_parse_text(&c, text, "walk.cfg", err, sizeof(err));
	free(text);
	return 0;
}
