// SPDX-License-Identifier: GPL-2.0-only
/* Sizes (--max-mem 4G) and integers (--reps, --cpu): every option's numbers. */
#include <limits.h>

#include "fuzz.h"
#include "util/parse.h"
#include "util/units.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	unsigned un;
	uint64_t u;
	long l;
	int i;

	if (!text)
		return 0;
	pt_size_parse(text, &u);
	pt_parse_u64(text, 0, UINT64_MAX, &u);
	pt_parse_long(text, LONG_MIN, LONG_MAX, &l);
	pt_parse_int(text, 1, INT_MAX, &i);
	pt_parse_uint(text, 0, UINT_MAX, &un);
	free(text);
	return 0;
}
