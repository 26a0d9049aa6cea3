/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Text tables: rows of cells, printed with each column as wide as its
 * widest cell. Widths count characters, not bytes, so UTF-8 cells ("±",
 * "µ") line up.
 */
#ifndef PTBENCH_TABLE_H
#define PTBENCH_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define PT_TABLE_COLS 8
#define PT_TABLE_CELL 256 /* bytes of a cell, NUL included; longer ones are cut */

struct pt_table {
	size_t ncol; /* set before the first row, at most PT_TABLE_COLS */
	bool right[PT_TABLE_COLS]; /* right-aligned columns */
	size_t nrow, cap;
	char (*cell)[PT_TABLE_COLS][PT_TABLE_CELL];
};

/* Characters in a UTF-8 string: bytes that do not continue a sequence. */
size_t pt_display_width(const char *s);
/* Add a row of ncol strings; 0, or -1 out of memory (the row is dropped). */
int pt_table_row(struct pt_table *t, ...);
/*
 * Print every row after indent, columns two spaces apart; empty cells at
 * the end of a row and the padding of its last cell are left out. The
 * rows are freed: the table can be filled again.
 */
void pt_table_print(struct pt_table *t, FILE *f, const char *indent);
void pt_table_free(struct pt_table *t);

#endif
