// SPDX-License-Identifier: GPL-2.0-only
/* XML 1.0 character data: entities for markup, \xNN for what XML cannot hold. */
#include <stdint.h>

#include "util/xml.h"

/* Code point of a well-formed UTF-8 sequence of n bytes at s; -1 when malformed. */
static int32_t decode(const unsigned char *s, size_t n)
{
	static const uint32_t min[] = { 0, 0, 0x80, 0x800, 0x10000 };
	uint32_t cp = s[0] & (0x7f >> n);
	size_t i;

	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return -1;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < min[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return -1; /* overlong, out of range, or a surrogate */
	return (int32_t)cp;
}

size_t pt_xml_char_len(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n;
	int32_t cp;

	if (s[0] < 0x80)
		n = 1;
	else if ((s[0] & 0xe0) == 0xc0)
		n = 2;
	else if ((s[0] & 0xf0) == 0xe0)
		n = 3;
	else if ((s[0] & 0xf8) == 0xf0)
		n = 4;
	else
		return 0;
	cp = n == 1 ? s[0] : decode(s, n);
	if (cp < 0)
		return 0;
	if (cp < 0x20 && cp != '\t' && cp != '\n' && cp != '\r')
		return 0;
	if (cp == 0xfffe || cp == 0xffff)
		return 0;
	return n;
}

static const char *entity(char c, bool attr)
{
	switch (c) {
	case '&':
		return "&amp;";
	case '<':
		return "&lt;";
	case '>':
		return "&gt;"; /* "]]>" is not allowed in text */
	case '"':
		return "&quot;";
	case '\'':
		return "&apos;";
	case '\r':
		return "&#13;"; /* a parser would fold CR LF into LF */
	case '\t':
		return attr ? "&#9;" : NULL;
	case '\n':
		return attr ? "&#10;" : NULL;
	default:
		return NULL;
	}
}

void pt_xml_escape(FILE *f, const char *s, bool attr)
{
	while (*s) {
		size_t n = pt_xml_char_len(s);
		const char *e;

		if (!n) {
			fprintf(f, "\\x%02X", (unsigned char)*s++);
			continue;
		}
		e = n == 1 ? entity(*s, attr) : NULL;
		if (e)
			fputs(e, f);
		else
			fwrite(s, 1, n, f);
		s += n;
	}
}
