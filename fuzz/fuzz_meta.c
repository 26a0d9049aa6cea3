// SPDX-License-Identifier: GPL-2.0-only
/* meta.json: the JSON reader and the fields compare shows. */
#include "analysis/rundir.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pt_rundir_meta m;
	char err[512], *text = fuzz_text(data, size);

	if (!text)
		return 0;
	pt_meta_parse(text, "meta.json", &m, err, sizeof(err));
	free(text);
	return 0;
}
