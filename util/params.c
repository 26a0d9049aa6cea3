// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/params.h"
#include "util/units.h"

void pt_params_init(struct pt_params *p)
{
	memset(p, 0, sizeof(*p));
}

static int key_ok(const char *key)
{
	size_t n = strlen(key);

	return n && n < PT_PARAMS_KEY && !strpbrk(key, "=;");
}

int pt_params_str(struct pt_params *p, const char *key, const char *val)
{
	size_t i;
	int c = 1;

	if (p->bad || !key_ok(key) || strlen(val) >= PT_PARAMS_VAL || strchr(val, ';') ||
	    p->n == PT_PARAMS_MAX)
		goto bad;
	for (i = 0; i < p->n && (c = strcmp(p->kv[i].key, key)) < 0; i++)
		;
	if (i < p->n && !c)
		goto bad;
	memmove(&p->kv[i + 1], &p->kv[i], (p->n - i) * sizeof(p->kv[0]));
	snprintf(p->kv[i].key, sizeof(p->kv[i].key), "%s", key);
	snprintf(p->kv[i].val, sizeof(p->kv[i].val), "%s", val);
	p->n++;
	return 0;
bad:
	p->bad = true;
	return -1;
}

int pt_params_size(struct pt_params *p, const char *key, uint64_t bytes)
{
	char v[24];

	snprintf(v, sizeof(v), "%" PRIu64, bytes);
	return pt_params_str(p, key, v);
}

int pt_params_int(struct pt_params *p, const char *key, long long v)
{
	char s[24];

	snprintf(s, sizeof(s), "%lld", v);
	return pt_params_str(p, key, s);
}

int pt_params_render(const struct pt_params *p, char *out, size_t len)
{
	size_t i, at = 0;
	int n;

	if (!len)
		return -1;
	out[0] = 0;
	if (p->bad)
		return -1;
	for (i = 0; i < p->n; i++) {
		n = snprintf(out + at, len - at, "%s%s=%s", i ? ";" : "", p->kv[i].key,
			     p->kv[i].val);
		if (n < 0 || (size_t)n >= len - at) {
			out[0] = 0;
			return -1;
		}
		at += (size_t)n;
	}
	return 0;
}

int pt_params_parse(const char *s, struct pt_params *p)
{
	const char *field = s;

	pt_params_init(p);
	while (*field) {
		size_t flen = strcspn(field, ";"), klen = strcspn(field, "=;");
		struct pt_param *kv = &p->kv[p->n];

		if (p->n == PT_PARAMS_MAX || !klen || klen >= flen || klen >= PT_PARAMS_KEY ||
		    flen - klen - 1 >= PT_PARAMS_VAL)
			return -1;
		memcpy(kv->key, field, klen);
		kv->key[klen] = 0;
		memcpy(kv->val, field + klen + 1, flen - klen - 1);
		kv->val[flen - klen - 1] = 0;
		if (pt_params_get(p, kv->key))
			return -1;
		p->n++;
		field += flen;
		if (*field == ';')
			field++;
	}
	return 0;
}

const char *pt_params_get(const struct pt_params *p, const char *key)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		if (!strcmp(p->kv[i].key, key))
			return p->kv[i].val;
	return NULL;
}

int pt_params_get_size(const struct pt_params *p, const char *key, uint64_t *bytes)
{
	const char *v = pt_params_get(p, key);

	return v && !pt_size_parse(v, bytes) ? 0 : -1;
}

int pt_params_get_int(const struct pt_params *p, const char *key, long long *v)
{
	const char *s = pt_params_get(p, key);
	char *end;

	if (!s || !*s)
		return -1;
	errno = 0;
	*v = strtoll(s, &end, 10);
	return errno || *end ? -1 : 0;
}
