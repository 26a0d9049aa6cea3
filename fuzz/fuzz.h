/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One fuzz target per parser of ptbench's inputs: each file defines
 * LLVMFuzzerTestOneInput. Built with libFuzzer (clang, -DPTBENCH_FUZZ=ON,
 * fuzz/run.sh) to fuzz, and with replay.c in every build to run the saved
 * corpus as a test (docs/development.md, "Fuzzing").
 */
#ifndef PTBENCH_FUZZ_H
#define PTBENCH_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* data as a NUL-terminated string (parsers of text take C strings); free it. */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (s) {
		memcpy(s, data, size);
		s[size] = '\0';
	}
	return s;
}

#endif
