// SPDX-License-Identifier: GPL-2.0-only
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "util/errf.h"

#include "util/csv.h"

int pt_csv_escape(const char *in, char *out, size_t len)
{
	size_t o = 0;
	bool quote = strpbrk(in, ",\"\n\r") != NULL;

	if (quote && o < len)
		out[o++] = '"';
	for (; *in; in++) {
		if (*in == '"' && o < len)
			out[o++] = '"';
		if (o < len)
			out[o++] = *in;
	}
	if (quote && o < len)
		out[o++] = '"';
	if (o >= len)
		return -1;
	out[o] = '\0';
	return 0;
}

/*
 * One RFC 4180 record starting at *pos. Fields are unquoted in place into
 * out (a buffer as long as the input) and pointed to by fields[]. *line is
 * advanced past the newlines consumed. Returns the field count, or -1.
 */
int pt_csv_record(const char *buf, size_t len, size_t *pos, long *line, char *out, char **fields,
		  int max, const char *name, char *err, size_t errlen)
{
	size_t i = *pos;
	int nf = 0;
	long start_line = *line;

	for (;;) {
		char *f = out;
		bool quoted = false;

		if (i < len && buf[i] == '"') {
			quoted = true;
			i++;
			for (;;) {
				if (i >= len)
					return pt_errf(err, errlen,
						       "%s:%ld: unterminated quoted field", name,
						       start_line);
				if (buf[i] == '"') {
					if (i + 1 < len && buf[i + 1] == '"') {
						*out++ = '"';
						i += 2;
						continue;
					}
					i++;
					break;
				}
				if (buf[i] == '\n')
					(*line)++;
				*out++ = buf[i++];
			}
		} else {
			while (i < len && buf[i] != ',' && buf[i] != '\n' && buf[i] != '\r') {
				if (buf[i] == '"')
					return pt_errf(err, errlen,
						       "%s:%ld: quote inside an unquoted field %d",
						       name, start_line, nf + 1);
				*out++ = buf[i++];
			}
		}
		*out++ = '\0';
		if (nf < max)
			fields[nf] = f;
		nf++;
		if (i < len && buf[i] == ',') {
			i++;
			continue;
		}
		if (i < len && buf[i] == '\r')
			i++;
		if (i < len && buf[i] != '\n')
			return pt_errf(err, errlen, "%s:%ld: %s after field %d", name, start_line,
				       quoted ? "text after a closing quote"
					      : "stray carriage return",
				       nf);
		if (i < len)
			i++;
		(*line)++;
		break;
	}
	*pos = i;
	return nf;
}

void pt_csv_put_num(FILE *f, double v)
{
	if (isnan(v) || isinf(v))
		fputc(',', f);
	else
		fprintf(f, ",%.9g", v);
}
