/* SPDX-License-Identifier: GPL-2.0-only */
/* CSV fields (RFC 4180). */
#ifndef PTBENCH_CSV_H
#define PTBENCH_CSV_H

#include <stddef.h>
#include <stdio.h>

/* Quote a CSV field when it needs it; -1 when out is too small. */
int pt_csv_escape(const char *in, char *out, size_t len);

/*
 * One RFC 4180 record starting at *pos of buf. Fields are unquoted into out
 * (a buffer as long as the input) and pointed to by fields[] (at most max).
 * *line advances past the newlines consumed; errors name "name:line".
 * Returns the field count, or -1 with the problem in err.
 */
int pt_csv_record(const char *buf, size_t len, size_t *pos, long *line, char *out, char **fields,
		  int max, const char *name, char *err, size_t errlen);

/* ",<v>" with 9 significant digits; "," alone (an empty field) for NaN or infinity. */
void pt_csv_put_num(FILE *f, double v);

#endif
