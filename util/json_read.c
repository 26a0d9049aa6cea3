// SPDX-License-Identifier: GPL-2.0-only
/*
 * The reader beside json.c's writer: a small strict JSON parser that
 * flattens scalars to dotted paths ("env.page_size", "cases.0.name"). It
 * serves meta.json and snapshots, where a few known fields are looked up
 * and unknown keys are ignored.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/errf.h"
#include "util/json.h"

struct json_p {
	const char *s;
	size_t i, len;
	long line;
	int depth;
	struct pt_json_kv *kv;
	size_t nkv, cap;
	const char *name;
	char *err;
	size_t errlen;
};

static int json_value(struct json_p *p, const char *path);

static void json_ws(struct json_p *p)
{
	while (p->i < p->len && strchr(" \t\r\n", p->s[p->i])) {
		if (p->s[p->i] == '\n')
			p->line++;
		p->i++;
	}
}

static int json_fail(struct json_p *p, const char *what)
{
	return pt_errf(p->err, p->errlen, "%s:%ld: invalid JSON: %s", p->name, p->line, what);
}

static void put_utf8(char *out, size_t *o, size_t cap, unsigned cp)
{
	char tmp[4];
	size_t n, k;

	if (cp < 0x80) {
		tmp[0] = (char)cp;
		n = 1;
	} else if (cp < 0x800) {
		tmp[0] = (char)(0xc0 | (cp >> 6));
		tmp[1] = (char)(0x80 | (cp & 0x3f));
		n = 2;
	} else {
		tmp[0] = (char)(0xe0 | (cp >> 12));
		tmp[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		tmp[2] = (char)(0x80 | (cp & 0x3f));
		n = 3;
	}
	for (k = 0; k < n && *o + 1 < cap; k++)
		out[(*o)++] = tmp[k];
}

static int json_escape_char(struct json_p *p, char *out, size_t *o, size_t cap)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *hit;
	unsigned cp = 0;
	int k;

	if (p->i >= p->len)
		return json_fail(p, "unterminated string");
	hit = strchr(from, p->s[p->i]);
	if (p->s[p->i] && hit) {
		if (*o + 1 < cap)
			out[(*o)++] = to[hit - from];
		p->i++;
		return 0;
	}
	if (p->s[p->i] != 'u')
		return json_fail(p, "bad escape in a string");
	for (k = 1; k <= 4; k++) {
		char c = p->i + k < p->len ? p->s[p->i + k] : '\0';

		if (!isxdigit((unsigned char)c))
			return json_fail(p, "bad \\u escape");
		cp = cp * 16 +
		     (unsigned)(isdigit((unsigned char)c) ? c - '0' : (c | 0x20) - 'a' + 10);
	}
	p->i += 5;
	/* Surrogate pairs are not needed for the fields shown; keep a marker. */
	put_utf8(out, o, cap, (cp >= 0xd800 && cp < 0xe000) ? '?' : cp);
	return 0;
}

/* A string into out (truncated to cap), p->i at the opening quote. */
static int json_string(struct json_p *p, char *out, size_t cap)
{
	size_t o = 0;

	p->i++;
	for (;;) {
		char c;

		if (p->i >= p->len)
			return json_fail(p, "unterminated string");
		c = p->s[p->i];
		if (c == '"') {
			p->i++;
			break;
		}
		if ((unsigned char)c < 0x20)
			return json_fail(p, "control character in a string");
		if (c == '\\') {
			p->i++;
			if (json_escape_char(p, out, &o, cap))
				return -1;
			continue;
		}
		if (o + 1 < cap)
			out[o++] = c;
		p->i++;
	}
	out[o] = '\0';
	return 0;
}

static int json_add(struct json_p *p, const char *path, const char *val)
{
	struct pt_json_kv *nk;

	if (p->nkv == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 64;
		nk = realloc(p->kv, p->cap * sizeof(*nk));
		if (!nk)
			return pt_errf(p->err, p->errlen, "%s: out of memory", p->name);
		p->kv = nk;
	}
	snprintf(p->kv[p->nkv].path, sizeof(p->kv[0].path), "%s", path);
	snprintf(p->kv[p->nkv].val, sizeof(p->kv[0].val), "%s", val);
	p->nkv++;
	return 0;
}

static int json_literal(struct json_p *p, const char *path)
{
	static const char *const words[] = { "true", "false", "null" };
	char num[64];
	size_t k, start = p->i;

	for (k = 0; k < 3; k++) {
		size_t wl = strlen(words[k]);

		if (p->len - p->i >= wl && !strncmp(p->s + p->i, words[k], wl)) {
			p->i += wl;
			return json_add(p, path, words[k]);
		}
	}
	while (p->i < p->len && strchr("+-0123456789.eE", p->s[p->i]))
		p->i++;
	if (p->i == start || p->i - start >= sizeof(num))
		return json_fail(p, "unexpected character");
	memcpy(num, p->s + start, p->i - start);
	num[p->i - start] = '\0';
	{
		char *end;

		strtod(num, &end);
		if (*end)
			return json_fail(p, "bad number");
	}
	return json_add(p, path, num);
}

static int json_object(struct json_p *p, const char *path)
{
	char key[128], sub[256];

	p->i++;
	json_ws(p);
	if (p->i < p->len && p->s[p->i] == '}') {
		p->i++;
		return 0;
	}
	for (;;) {
		json_ws(p);
		if (p->i >= p->len || p->s[p->i] != '"')
			return json_fail(p, "expected a key");
		if (json_string(p, key, sizeof(key)))
			return -1;
		json_ws(p);
		if (p->i >= p->len || p->s[p->i] != ':')
			return json_fail(p, "expected ':'");
		p->i++;
		snprintf(sub, sizeof(sub), "%s%s%s", path, *path ? "." : "", key);
		if (json_value(p, sub))
			return -1;
		json_ws(p);
		if (p->i < p->len && p->s[p->i] == ',') {
			p->i++;
			continue;
		}
		if (p->i < p->len && p->s[p->i] == '}') {
			p->i++;
			return 0;
		}
		return json_fail(p, "expected ',' or '}'");
	}
}

static int json_array(struct json_p *p, const char *path)
{
	char sub[256];
	int idx = 0;

	p->i++;
	json_ws(p);
	if (p->i < p->len && p->s[p->i] == ']') {
		p->i++;
		return 0;
	}
	for (;;) {
		snprintf(sub, sizeof(sub), "%s[%d]", path, idx++);
		if (json_value(p, sub))
			return -1;
		json_ws(p);
		if (p->i < p->len && p->s[p->i] == ',') {
			p->i++;
			continue;
		}
		if (p->i < p->len && p->s[p->i] == ']') {
			p->i++;
			return 0;
		}
		return json_fail(p, "expected ',' or ']'");
	}
}

static int json_value(struct json_p *p, const char *path)
{
	char str[256];
	int ret;

	json_ws(p);
	if (p->i >= p->len)
		return json_fail(p, "unexpected end of input");
	if (++p->depth > 64)
		return json_fail(p, "nested too deeply");
	switch (p->s[p->i]) {
	case '{':
		ret = json_object(p, path);
		break;
	case '[':
		ret = json_array(p, path);
		break;
	case '"':
		ret = json_string(p, str, sizeof(str));
		if (!ret)
			ret = json_add(p, path, str);
		break;
	default:
		ret = json_literal(p, path);
	}
	p->depth--;
	return ret;
}

int pt_json_parse(const char *text, const char *name, struct pt_json_doc *doc, char *err,
		  size_t errlen)
{
	struct json_p p = {
		.s = text,
		.len = strlen(text),
		.line = 1,
		.name = name,
		.err = err,
		.errlen = errlen,
	};
	int ret;

	memset(doc, 0, sizeof(*doc));
	json_ws(&p);
	if (p.i >= p.len || p.s[p.i] != '{') {
		free(p.kv);
		return json_fail(&p, "expected a top-level object");
	}
	ret = json_value(&p, "");
	if (!ret) {
		json_ws(&p);
		if (p.i < p.len)
			ret = json_fail(&p, "text after the top-level object");
	}
	if (ret) {
		free(p.kv);
		return ret;
	}
	doc->kv = p.kv;
	doc->nkv = p.nkv;
	return 0;
}

void pt_json_doc_free(struct pt_json_doc *doc)
{
	free(doc->kv);
	doc->kv = NULL;
	doc->nkv = 0;
}

const char *pt_json_get(const struct pt_json_doc *p, const char *path)
{
	size_t i;

	for (i = 0; i < p->nkv; i++)
		if (!strcmp(p->kv[i].path, path))
			return p->kv[i].val;
	return NULL;
}

/* The first of several candidate paths that is present and not null. */
void pt_json_pick(const struct pt_json_doc *p, const char *const *paths, char *out, size_t len)
{
	const char *v;

	out[0] = '\0';
	for (; *paths; paths++) {
		v = pt_json_get(p, *paths);
		if (v && strcmp(v, "null")) {
			size_t n = strnlen(v, len - 1);

			memcpy(out, v, n);
			out[n] = '\0';
			return;
		}
	}
}
