// SPDX-License-Identifier: GPL-2.0-only
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "util/xml.h"

/* s escaped, as a malloc'd string */
static char *escaped(const char *s, bool attr)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	pt_xml_escape(f, s, attr);
	fclose(f);
	return buf;
}

static void expect(const char *in, bool attr, const char *want)
{
	char *got = escaped(in, attr);

	assert_string_equal(got, want);
	free(got);
}

static void test_markup(void **state)
{
	(void)state;
	expect("plain-case_1", true, "plain-case_1");
	expect("a&b<c>d\"e'f", true, "a&amp;b&lt;c&gt;d&quot;e&apos;f");
	expect("]]>", false, "]]&gt;");
	expect("&amp;", false, "&amp;amp;"); /* already an entity: escaped again */
}

static void test_whitespace(void **state)
{
	(void)state;
	expect("a\tb\nc\rd", true, "a&#9;b&#10;c&#13;d");
	expect("a\tb\nc\rd", false, "a\tb\nc&#13;d");
}

static void test_not_xml(void **state)
{
	(void)state;
	/* control characters XML 1.0 cannot carry, even as &#1; */
	expect("a\x01z\x1b[31m", true, "a\\x01z\\x1B[31m");
	expect("\x7f", true, "\x7f"); /* DEL is a Char */
	/* bytes that are not UTF-8: a stray continuation, a truncated sequence,
	 * an overlong '/', a surrogate, a code point past U+10FFFF */
	expect("\x80", true, "\\x80");
	expect("\xc3", true, "\\xC3");
	expect("\xc0\xaf", true, "\\xC0\\xAF");
	expect("\xed\xa0\x80", true, "\\xED\\xA0\\x80");
	expect("\xf4\x90\x80\x80", true, "\\xF4\\x90\\x80\\x80");
	/* U+FFFE and U+FFFF are not Chars; U+FFFD and U+10FFFF are */
	expect("\xef\xbf\xbe", true, "\\xEF\\xBF\\xBE");
	expect("\xef\xbf\xbd\xf4\x8f\xbf\xbf", true, "\xef\xbf\xbd\xf4\x8f\xbf\xbf");
	/* valid UTF-8 passes as is */
	expect("µs · Ünïcödé", true, "µs · Ünïcödé");
}

static void test_char_len(void **state)
{
	(void)state;
	assert_int_equal(pt_xml_char_len("a"), 1);
	assert_int_equal(pt_xml_char_len("\xc2\xb5"), 2);
	assert_int_equal(pt_xml_char_len("\xe2\x82\xac"), 3);
	assert_int_equal(pt_xml_char_len("\xf0\x9f\x98\x80"), 4);
	assert_int_equal(pt_xml_char_len("\x02"), 0);
	assert_int_equal(pt_xml_char_len("\xe2\x82"), 0); /* ends early: no read past the NUL */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_markup),
		cmocka_unit_test(test_whitespace),
		cmocka_unit_test(test_not_xml),
		cmocka_unit_test(test_char_len),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
