// SPDX-License-Identifier: GPL-2.0-only
/* Snapshot encode/decode: pure functions over buffers (format in snapshot.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/snapshot.h"

#define LEB128_MAX 10 /* bytes of a 64-bit ULEB128 */
#define CRC_BYTES 4

uint32_t pt_crc32(const uint8_t *buf, size_t len)
{
	uint32_t crc = 0xffffffffu;
	size_t i;
	int k;

	for (i = 0; i < len; i++) {
		crc ^= buf[i];
		for (k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
	}
	return ~crc;
}

static void put_le(uint8_t *p, uint64_t v, unsigned bytes)
{
	unsigned i;

	for (i = 0; i < bytes; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_le(const uint8_t *p, unsigned bytes)
{
	uint64_t v = 0;
	unsigned i;

	for (i = 0; i < bytes; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

static size_t put_uleb(uint8_t *p, uint64_t v)
{
	size_t n = 0;

	do {
		uint8_t b = v & 0x7f;

		v >>= 7;
		p[n++] = b | (v ? 0x80 : 0);
	} while (v);
	return n;
}

/* Read a ULEB128 from p[*pos..end); -1 when truncated or over 64 bits. */
static int get_uleb(const uint8_t *p, size_t end, size_t *pos, uint64_t *v)
{
	unsigned shift = 0;

	*v = 0;
	for (;;) {
		uint8_t b;

		if (*pos >= end || shift >= 64)
			return -1;
		b = p[(*pos)++];
		if (shift == 63 && (b & 0x7e))
			return -1;
		*v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return 0;
		shift += 7;
	}
}

size_t pt_snapshot_size_max(const struct pt_layout *l)
{
	return PT_SNAPSHOT_HEADER_BYTES + l->n * (2 * LEB128_MAX + 2) + CRC_BYTES;
}

static void put_header(const struct pt_layout *l, uint8_t *h, uint64_t body)
{
	memset(h, 0, PT_SNAPSHOT_HEADER_BYTES);
	memcpy(h, PT_SNAPSHOT_MAGIC, sizeof(PT_SNAPSHOT_MAGIC));
	put_le(h + 8, PT_SNAPSHOT_VERSION, 2);
	put_le(h + 10, PT_SNAPSHOT_HEADER_BYTES, 2);
	h[12] = (uint8_t)l->page_shift;
	h[13] = (uint8_t)l->va_bits;
	put_le(h + 14, l->flags, 2);
	put_le(h + 16, l->pid, 4);
	put_le(h + 24, l->n, 8);
	put_le(h + 32, body, 8);
	memcpy(h + 40, l->comm, strnlen(l->comm, PT_COMM_LEN));
}

int pt_snapshot_encode(const struct pt_layout *l, uint8_t *buf, size_t cap, size_t *used, char *err,
		       size_t errlen)
{
	size_t pos = PT_SNAPSHOT_HEADER_BYTES, i;
	uint64_t prev_end = 0;

	if (pt_layout_check(l, err, errlen))
		return -1;
	if (l->va_bits > 64 || (l->va_bits && l->va_bits < 25)) {
		snprintf(err, errlen, "VA size %u bits out of range", l->va_bits);
		return -1;
	}
	if (cap < pt_snapshot_size_max(l)) {
		snprintf(err, errlen, "snapshot buffer of %zu bytes is too small", cap);
		return -1;
	}
	for (i = 0; i < l->n; i++) {
		const struct pt_extent *e = &l->ext[i];

		pos += put_uleb(buf + pos, (e->start - prev_end) >> l->page_shift);
		pos += put_uleb(buf + pos, e->len >> l->page_shift);
		buf[pos++] = e->kind;
		if (e->kind != PT_MAP_BASE)
			buf[pos++] = e->huge_shift;
		prev_end = e->start + e->len;
	}
	put_header(l, buf, pos - PT_SNAPSHOT_HEADER_BYTES);
	put_le(buf + pos, pt_crc32(buf, pos), CRC_BYTES);
	*used = pos + CRC_BYTES;
	return 0;
}

static int bad(char *err, size_t errlen, const char *what)
{
	snprintf(err, errlen, "%s", what);
	return -1;
}

static int is_zero(const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i])
			return 0;
	return 1;
}

/* Check the header and fill the layout's scalar fields; *count, *body. */
static int get_header(const uint8_t *buf, size_t len, struct pt_layout *out, uint64_t *count,
		      char *err, size_t errlen)
{
	uint64_t body;
	size_t i;

	if (len < PT_SNAPSHOT_HEADER_BYTES + CRC_BYTES)
		return bad(err, errlen, "truncated: shorter than the header");
	if (memcmp(buf, PT_SNAPSHOT_MAGIC, sizeof(PT_SNAPSHOT_MAGIC)))
		return bad(err, errlen, "not a ptbench snapshot (bad magic)");
	if (get_le(buf + 8, 2) != PT_SNAPSHOT_VERSION)
		return bad(err, errlen, "unsupported snapshot version");
	if (get_le(buf + 10, 2) != PT_SNAPSHOT_HEADER_BYTES)
		return bad(err, errlen, "bad header size");
	body = get_le(buf + 32, 8);
	if (body != len - PT_SNAPSHOT_HEADER_BYTES - CRC_BYTES)
		return bad(err, errlen, "truncated or trailing bytes: body size does not match");
	if (pt_crc32(buf, len - CRC_BYTES) != get_le(buf + len - CRC_BYTES, CRC_BYTES))
		return bad(err, errlen, "checksum mismatch: the file is corrupt");
	out->page_shift = buf[12];
	out->va_bits = buf[13];
	out->flags = (unsigned)get_le(buf + 14, 2);
	out->pid = (uint32_t)get_le(buf + 16, 4);
	if (out->page_shift < 12 || out->page_shift > 16)
		return bad(err, errlen, "page shift out of range");
	if (out->va_bits > 64 || (out->va_bits && out->va_bits < 25))
		return bad(err, errlen, "VA size out of range");
	if (out->flags & ~PT_LAYOUT_FLAGS_ALL)
		return bad(err, errlen, "unknown flags");
	if (!is_zero(buf + 20, 4) || !is_zero(buf + 56, 8))
		return bad(err, errlen, "reserved header bytes are not zero");
	for (i = 0; i < PT_COMM_LEN && buf[40 + i]; i++)
		if (buf[40 + i] < 0x20 || buf[40 + i] > 0x7e)
			return bad(err, errlen, "comm is not printable");
	if (!is_zero(buf + 40 + i, PT_COMM_LEN - i))
		return bad(err, errlen, "comm is not NUL padded");
	memcpy(out->comm, buf + 40, i);
	out->comm[i] = '\0';
	*count = get_le(buf + 24, 8);
	/* each extent takes at least three bytes */
	if (*count > body / 3)
		return bad(err, errlen, "extent count does not fit the body");
	return 0;
}

static int get_extent(const uint8_t *buf, size_t end, size_t *pos, unsigned page_shift,
		      uint64_t *prev_end, struct pt_extent *e)
{
	uint64_t gap, pages, limit = UINT64_MAX >> page_shift;

	if (get_uleb(buf, end, pos, &gap) || get_uleb(buf, end, pos, &pages))
		return -1;
	if (!pages || gap > limit || pages > limit || *pos >= end)
		return -1;
	e->start = *prev_end + (gap << page_shift);
	e->len = pages << page_shift;
	if (e->start < *prev_end || e->start + e->len < e->start)
		return -1;
	e->kind = buf[(*pos)++];
	e->huge_shift = 0;
	if (e->kind != PT_MAP_BASE) {
		if (*pos >= end)
			return -1;
		e->huge_shift = buf[(*pos)++];
	}
	*prev_end = e->start + e->len;
	return 0;
}

int pt_snapshot_decode(const uint8_t *buf, size_t len, struct pt_layout *out, char *err,
		       size_t errlen)
{
	uint64_t count, i, prev_end = 0;
	size_t pos = PT_SNAPSHOT_HEADER_BYTES, end;

	pt_layout_init(out, 12);
	if (get_header(buf, len, out, &count, err, errlen))
		return -1;
	end = len - CRC_BYTES;
	out->ext = calloc(count ? count : 1, sizeof(*out->ext));
	if (!out->ext)
		return bad(err, errlen, "out of memory");
	out->cap = count ? count : 1;
	for (i = 0; i < count; i++) {
		if (get_extent(buf, end, &pos, out->page_shift, &prev_end, &out->ext[i])) {
			snprintf(err, errlen, "extent %" PRIu64 " is truncated or out of range", i);
			pt_layout_free(out);
			return -1;
		}
		out->n++;
	}
	if (pos != end) {
		pt_layout_free(out);
		return bad(err, errlen, "bytes left after the last extent");
	}
	if (pt_layout_check(out, err, errlen)) {
		pt_layout_free(out);
		return -1;
	}
	return 0;
}
