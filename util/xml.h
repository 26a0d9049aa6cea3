/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Text written into an XML 1.0 document (compare --format junit). Names in
 * results.csv may hold any bytes: markup characters are written as
 * entities, and what XML 1.0 cannot carry at all, not even as a character
 * reference (control characters other than tab, newline and carriage
 * return, U+FFFE, U+FFFF, bytes that are not UTF-8), is written as the
 * visible text \xNN, one per byte, so a hostile name can neither break the
 * document nor vanish from it.
 */
#ifndef PTBENCH_XML_H
#define PTBENCH_XML_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * s as character data. attr: inside a double- or single-quoted attribute
 * value, where tab, newline and carriage return are written as character
 * references (a parser would turn them into spaces); otherwise as element
 * text, where newline and tab stay as they are.
 */
void pt_xml_escape(FILE *f, const char *s, bool attr);

/*
 * The length of the UTF-8 sequence at s if it encodes a character XML 1.0
 * allows (shortest form, no surrogate, at most U+10FFFF, tab/LF/CR and
 * U+0020 on, not U+FFFE or U+FFFF); 0 otherwise.
 */
size_t pt_xml_char_len(const char *s);

#endif
