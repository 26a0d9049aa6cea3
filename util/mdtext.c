// SPDX-License-Identifier: GPL-2.0-only
#include <string.h>

#include "util/mdtext.h"

void pt_md_escape(FILE *f, const char *s)
{
	for (; *s; s++) {
		const char *ent = *s == '<'   ? "&lt;"
				  : *s == '>' ? "&gt;"
				  : *s == '&' ? "&amp;"
					      : NULL;

		if (ent)
			fputs(ent, f);
		else if (*s == '\n' || *s == '\r')
			fputc(' ', f);
		else if (strchr("\\`*_[]|!#", *s))
			fprintf(f, "\\%c", *s);
		else
			fputc(*s, f);
	}
}
