// SPDX-License-Identifier: GPL-2.0-only
#include <stdarg.h>
#include <stdlib.h>

#include "util/table.h"

size_t pt_display_width(const char *s)
{
	size_t w = 0;

	for (; *s; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			w++;
	return w;
}

int pt_table_row(struct pt_table *t, ...)
{
	va_list ap;
	size_t c;

	if (t->nrow == t->cap) {
		size_t ncap = t->cap ? t->cap * 2 : 16;
		void *n = realloc(t->cell, ncap * sizeof(*t->cell));

		if (!n)
			return -1;
		t->cell = n;
		t->cap = ncap;
	}
	va_start(ap, t);
	for (c = 0; c < t->ncol && c < PT_TABLE_COLS; c++)
		snprintf(t->cell[t->nrow][c], PT_TABLE_CELL, "%s", va_arg(ap, const char *));
	va_end(ap);
	t->nrow++;
	return 0;
}

static void print_row(const struct pt_table *t, const size_t *w, size_t r, FILE *f)
{
	size_t last = t->ncol, c, pad;

	while (last > 1 && !t->cell[r][last - 1][0])
		last--;
	for (c = 0; c < last; c++) {
		pad = w[c] - pt_display_width(t->cell[r][c]);
		if (t->right[c])
			fprintf(f, "%*s%s", (int)pad, "", t->cell[r][c]);
		else if (c + 1 < last)
			fprintf(f, "%s%*s", t->cell[r][c], (int)pad, "");
		else
			fputs(t->cell[r][c], f);
		if (c + 1 < last)
			fputs("  ", f);
	}
	fputc('\n', f);
}

void pt_table_print(struct pt_table *t, FILE *f, const char *indent)
{
	size_t w[PT_TABLE_COLS] = { 0 }, r, c;

	if (t->ncol > PT_TABLE_COLS)
		t->ncol = PT_TABLE_COLS;
	for (r = 0; r < t->nrow; r++)
		for (c = 0; c < t->ncol; c++)
			if (pt_display_width(t->cell[r][c]) > w[c])
				w[c] = pt_display_width(t->cell[r][c]);
	for (r = 0; r < t->nrow; r++) {
		fputs(indent, f);
		print_row(t, w, r, f);
	}
	pt_table_free(t);
}

void pt_table_free(struct pt_table *t)
{
	free(t->cell);
	t->cell = NULL;
	t->nrow = t->cap = 0;
}
