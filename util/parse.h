/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Numbers from the command line and from files: base 10, the whole string,
 * within a range. strtol alone accepts " 12", "12abc" (when the end is not
 * checked) and wraps "-1" to ULONG_MAX for strtoul; strtod also takes
 * "nan", "inf" and hex; these do none of that.
 */
#ifndef PTBENCH_PARSE_H
#define PTBENCH_PARSE_H

#include <stdint.h>

/* Digits only; 0, or -1 with errno EINVAL (not a number) or ERANGE (outside min..max). */
int pt_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);
/* An optional '-', then digits; 0, or -1 with errno EINVAL or ERANGE. */
int pt_parse_long(const char *s, long min, long max, long *out);
int pt_parse_int(const char *s, int min, int max, int *out);
int pt_parse_uint(const char *s, unsigned min, unsigned max, unsigned *out);
/* Digits with at most one '.' (no sign, no exponent); 0, or -1 with errno EINVAL or ERANGE. */
int pt_parse_double(const char *s, double min, double max, double *out);

#endif
