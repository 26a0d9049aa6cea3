/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Text from a run (a tag, a host or CPU name, a case) inside a Markdown
 * table cell: markup characters are escaped, < > & as entities (an HTML
 * tag would pass a backslash), line breaks flattened, so the text cannot
 * leave its cell or turn into a link, an image or HTML.
 */
#ifndef PTBENCH_MDTEXT_H
#define PTBENCH_MDTEXT_H

#include <stdio.h>

void pt_md_escape(FILE *f, const char *s);

#endif
