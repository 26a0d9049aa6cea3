// SPDX-License-Identifier: GPL-2.0-only
/* Snapshot round trip; every truncation and corruption is rejected. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/snapshot.h"

static void sample(struct pt_layout *l)
{
	pt_layout_init(l, 12);
	l->va_bits = 48;
	l->flags = PT_LAYOUT_THP_KNOWN;
	l->pid = 4242;
	strcpy(l->comm, "postgres");
	assert_int_equal(pt_layout_add(l, 0x400000, 0x3000, PT_MAP_BASE, 0), 0);
	assert_int_equal(pt_layout_add(l, 0x600000, 0x400000, PT_MAP_THP, 21), 0);
	assert_int_equal(pt_layout_add(l, 0x40000000, 0x40000000, PT_MAP_HUGETLB, 30), 0);
	assert_int_equal(pt_layout_add(l, 0x7ffff7dd0000, 0x1000, PT_MAP_BASE, 0), 0);
	assert_int_equal(pt_layout_add(l, 0x7ffffffde000, 0x21000, PT_MAP_BASE, 0), 0);
}

static uint8_t *encode(const struct pt_layout *l, size_t *len)
{
	char err[160];
	size_t cap = pt_snapshot_size_max(l);
	uint8_t *buf = malloc(cap);

	assert_non_null(buf);
	assert_int_equal(pt_snapshot_encode(l, buf, cap, len, err, sizeof(err)), 0);
	return buf;
}

static void test_round_trip(void **state)
{
	struct pt_layout l, d;
	char err[160];
	size_t len, i;
	uint8_t *buf;

	(void)state;
	sample(&l);
	buf = encode(&l, &len);
	assert_memory_equal(buf, "PTBSNAP", 8);
	/* header + 5 small extents + CRC: compact */
	assert_true(len < 64 + 5 * 12 + 4);
	assert_int_equal(pt_snapshot_decode(buf, len, &d, err, sizeof(err)), 0);
	assert_int_equal(d.n, l.n);
	assert_int_equal(d.page_shift, 12);
	assert_int_equal(d.va_bits, 48);
	assert_int_equal(d.flags, PT_LAYOUT_THP_KNOWN);
	assert_int_equal(d.pid, 4242);
	assert_string_equal(d.comm, "postgres");
	for (i = 0; i < l.n; i++) {
		assert_int_equal(d.ext[i].start, l.ext[i].start);
		assert_int_equal(d.ext[i].len, l.ext[i].len);
		assert_int_equal(d.ext[i].kind, l.ext[i].kind);
		assert_int_equal(d.ext[i].huge_shift, l.ext[i].huge_shift);
	}
	pt_layout_free(&d);
	/* the CRC is zlib's crc32: "123456789" -> 0xcbf43926 */
	assert_int_equal(pt_crc32((const uint8_t *)"123456789", 9), 0xcbf43926u);
	free(buf);
	pt_layout_free(&l);

	/* an empty layout round-trips too */
	pt_layout_init(&l, 16);
	buf = encode(&l, &len);
	assert_int_equal(len, 68);
	assert_int_equal(pt_snapshot_decode(buf, len, &d, err, sizeof(err)), 0);
	assert_int_equal(d.n, 0);
	assert_int_equal(d.page_shift, 16);
	pt_layout_free(&d);
	free(buf);
}

static void test_truncated(void **state)
{
	struct pt_layout l, d;
	char err[160];
	size_t len, cut;
	uint8_t *buf;

	(void)state;
	sample(&l);
	buf = encode(&l, &len);
	for (cut = 0; cut < len; cut++) {
		err[0] = '\0';
		assert_int_equal(pt_snapshot_decode(buf, cut, &d, err, sizeof(err)), -1);
		assert_true(strlen(err) > 0);
		assert_null(d.ext);
	}
	free(buf);
	pt_layout_free(&l);
}

/* Fix the checksum after an edit, to reach the checks behind it. */
static void reseal(uint8_t *buf, size_t len)
{
	uint32_t crc = pt_crc32(buf, len - 4);

	buf[len - 4] = (uint8_t)crc;
	buf[len - 3] = (uint8_t)(crc >> 8);
	buf[len - 2] = (uint8_t)(crc >> 16);
	buf[len - 1] = (uint8_t)(crc >> 24);
}

static void expect_reject(const uint8_t *orig, size_t len, size_t off, uint8_t val, bool seal)
{
	struct pt_layout d;
	char err[160] = "";
	uint8_t *buf = malloc(len);

	assert_non_null(buf);
	memcpy(buf, orig, len);
	buf[off] = val;
	if (seal)
		reseal(buf, len);
	assert_int_equal(pt_snapshot_decode(buf, len, &d, err, sizeof(err)), -1);
	assert_true(strlen(err) > 0);
	free(buf);
}

static void test_corrupt(void **state)
{
	struct pt_layout l, d;
	char err[160];
	size_t len, off;
	uint8_t *buf, *big;

	(void)state;
	sample(&l);
	buf = encode(&l, &len);
	/* every single-byte flip is caught by the checksum */
	for (off = 0; off < len; off++)
		expect_reject(buf, len, off, buf[off] ^ 0x10, false);
	/* and with a valid checksum, by the field checks */
	expect_reject(buf, len, 0, 'X', true); /* magic */
	expect_reject(buf, len, 8, 2, true); /* version */
	expect_reject(buf, len, 10, 32, true); /* header size */
	expect_reject(buf, len, 12, 11, true); /* page shift */
	expect_reject(buf, len, 13, 12, true); /* VA bits */
	expect_reject(buf, len, 14, 0x80, true); /* flags */
	expect_reject(buf, len, 20, 1, true); /* reserved */
	expect_reject(buf, len, 24, 200, true); /* count vs body */
	expect_reject(buf, len, 24, 4, true); /* fewer extents: bytes left */
	expect_reject(buf, len, 41, 0x01, true); /* comm not printable */
	expect_reject(buf, len, 50, 'x', true); /* comm not NUL padded */
	expect_reject(buf, len, 64 + 3, 7, true); /* kind of extent 0 (gap takes 2 bytes) */
	expect_reject(buf, len, 64 + 2, 0, true); /* zero-length extent 0 */

	/* trailing bytes */
	big = malloc(len + 1);
	assert_non_null(big);
	memcpy(big, buf, len - 4);
	big[len - 4] = 0;
	reseal(big, len + 1);
	assert_int_equal(pt_snapshot_decode(big, len + 1, &d, err, sizeof(err)), -1);
	free(big);

	/* an encoder buffer too small is refused, not overrun */
	assert_int_equal(pt_snapshot_encode(&l, buf, 10, &off, err, sizeof(err)), -1);
	free(buf);
	pt_layout_free(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_corrupt),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
