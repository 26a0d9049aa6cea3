// SPDX-License-Identifier: GPL-2.0-only
/*
 * The key table: one line per configuration key, so parsing, --help and
 * the "valid keys" message cannot drift apart.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/geometry.h"
#include "model/walk_cfg.h"
#include "util/units.h"

enum key_type {
	K_U64,
	K_UINT,
	K_SIZE,
	K_DOUBLE,
	K_POSITIVE,
	K_BOOL_ON,
	K_REPL,
	K_REPL_TLB, /* both TLBs' replacement: L1's too, which tlb.l1.replacement then sets */
	K_EVICTIONS, /* per lookup, 0 to PT_WALK_MAX_EVICTIONS */
	K_TAG,
	K_GRANULE,
	K_S2FMT,
	K_S2BACK,
	K_LAYOUT,
	K_PFLINES /* 1, 2, 4 or 8 */
};

struct key_def {
	const char *name;
	enum key_type type;
	size_t off;
};

#define K(n, t, f)                                                                                 \
	{                                                                                          \
		n, t, offsetof(struct pt_walk_cfg, f)                                              \
	}

static const struct key_def keys[] = {
	K("tlb.l1.entries", K_U64, l1tlb_entries),
	K("tlb.l1.ways", K_UINT, l1tlb_ways),
	K("tlb.l2.entries", K_U64, l2tlb_entries),
	K("tlb.l2.ways", K_UINT, l2tlb_ways),
	K("tlb.replacement", K_REPL_TLB, tlb_random),
	K("tlb.l1.replacement", K_REPL, l1tlb_random),
	K("tlb.l2.evictions", K_EVICTIONS, l2tlb_evictions),
	K("pwc.tag", K_TAG, pwc_tag),
	K("pwc.pmd.entries", K_U64, pwc_entries[0]),
	K("pwc.pud.entries", K_U64, pwc_entries[1]),
	K("pwc.upper.entries", K_U64, pwc_entries[2]),
	K("pwc.ways", K_UINT, pwc_ways),
	K("pwc.pa.entries", K_U64, pwc_pa_entries),
	K("cache.model", K_BOOL_ON, cache_on),
	K("cache.l1.size", K_SIZE, cache[0].size_bytes),
	K("cache.l1.ways", K_UINT, cache[0].ways),
	K("cache.l2.size", K_SIZE, cache[1].size_bytes),
	K("cache.l2.ways", K_UINT, cache[1].ways),
	K("cache.llc.size", K_SIZE, cache[2].size_bytes),
	K("cache.llc.ways", K_UINT, cache[2].ways),
	K("cache.llc.replacement", K_REPL, cache[2].random),
	K("cache.prefetch.lines", K_PFLINES, prefetch_lines),
	K("lat.l1", K_DOUBLE, lat[PT_LAT_L1]),
	K("lat.l2", K_DOUBLE, lat[PT_LAT_L2]),
	K("lat.llc", K_DOUBLE, lat[PT_LAT_LLC]),
	K("lat.mem", K_DOUBLE, lat[PT_LAT_MEM]),
	K("lat.l1tlb", K_DOUBLE, lat[PT_LAT_L1TLB]),
	K("lat.l2tlb", K_DOUBLE, lat[PT_LAT_L2TLB]),
	K("lat.pwc", K_DOUBLE, lat[PT_LAT_PWC]),
	K("lat.walk", K_DOUBLE, lat[PT_LAT_WALK]),
	K("cpu.ghz", K_POSITIVE, ghz), /* divides: 0 would make every ns infinite */
	K("va.bits", K_UINT, va_bits),
	K("granule", K_GRANULE, granule_shift),
	K("lat.walk2", K_DOUBLE, lat[PT_LAT_WALK2]),
	K("stage2", K_S2FMT, s2.format),
	K("stage2.granule", K_GRANULE, s2.granule_shift),
	K("stage2.ipa.bits", K_UINT, s2.ipa_bits),
	K("stage2.backing", K_S2BACK, s2.block_h),
	K("stage2.tlb.entries", K_U64, s2.tlb_entries),
	K("stage2.tlb.ways", K_UINT, s2.tlb_ways),
	K("stage2.pwc.pmd.entries", K_U64, s2.pwc_entries[0]),
	K("stage2.pwc.pud.entries", K_U64, s2.pwc_entries[1]),
	K("stage2.pwc.upper.entries", K_U64, s2.pwc_entries[2]),
	K("stage2.guest.ram", K_SIZE, s2.guest_ram),
	K("stage2.guest.layout", K_LAYOUT, s2.layout),
	K("shadow", K_BOOL_ON, shadow),
};

#define NKEYS (sizeof(keys) / sizeof(keys[0]))

void pt_walk_cfg_default(struct pt_walk_cfg *c)
{
	memset(c, 0, sizeof(*c));
	c->l1tlb_entries = 48;
	c->l1tlb_ways = 48;
	c->l2tlb_entries = 2048;
	c->l2tlb_ways = 8;
	c->pwc_tag = PT_PWC_VA;
	c->pwc_entries[0] = 32;
	c->pwc_entries[1] = 16;
	c->pwc_entries[2] = 16;
	c->pwc_ways = 4;
	c->pwc_pa_entries = 64;
	c->cache_on = true;
	c->cache[0] = (struct pt_cache_level_cfg){ 64 << 10, 4, false };
	c->cache[1] = (struct pt_cache_level_cfg){ 1 << 20, 8, false };
	c->cache[2] = (struct pt_cache_level_cfg){ 32 << 20, 16, false };
	c->prefetch_lines = 1;
	c->lat[PT_LAT_L1] = 4;
	c->lat[PT_LAT_L2] = 12;
	c->lat[PT_LAT_LLC] = 90;
	c->lat[PT_LAT_MEM] = 360;
	c->lat[PT_LAT_L1TLB] = 0;
	c->lat[PT_LAT_L2TLB] = 5;
	c->lat[PT_LAT_PWC] = 1;
	c->lat[PT_LAT_WALK] = 4;
	c->ghz = 3.0;
	c->va_bits = 48;
	c->granule_shift = 12;
	c->lat[PT_LAT_WALK2] = 4; /* assumption, as lat.walk */
	/* stage 2: off; when on, all sizes below are assumptions (docs/walk.md) */
	c->s2.format = -1;
	c->s2.granule_shift = 12;
	c->s2.ipa_bits = 48;
	c->s2.block_h = 0;
	c->s2.tlb_entries = 32;
	c->s2.tlb_ways = 4;
	c->s2.pwc_entries[0] = 16;
	c->s2.pwc_entries[1] = 8;
	c->s2.pwc_entries[2] = 8;
	c->s2.guest_ram = 16ull << 30;
	c->s2.layout = PT_LAYOUT_SCATTER;
}

const char *pt_walk_cfg_key(size_t i)
{
	return i < NKEYS ? keys[i].name : NULL;
}

const char *pt_lat_key(enum pt_lat l)
{
	static const char *const n[PT_LAT_N] = { "lat.l1",  "lat.l2",	 "lat.llc",
						 "lat.mem", "lat.l1tlb", "lat.l2tlb",
						 "lat.pwc", "lat.walk",	 "lat.walk2" };

	return l < PT_LAT_N ? n[l] : "?";
}

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (!s || !isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return errno || *end ? -1 : 0;
}

static int parse_double(const char *s, double *v)
{
	char *end;

	if (!s || !*s)
		return -1;
	errno = 0;
	*v = strtod(s, &end);
	return errno || *end || !(*v >= 0) || *v > 1e9 ? -1 : 0;
}

static int parse_choice(const char *s, const char *a, const char *b, bool *out)
{
	if (!strcmp(s, a))
		*out = false;
	else if (!strcmp(s, b))
		*out = true;
	else
		return -1;
	return 0;
}

/* "none", or a descriptor format for the host's tables */
static int parse_s2fmt(const char *s, int *out)
{
	enum pt_format f;

	if (!strcmp(s, "none")) {
		*out = -1;
		return 0;
	}
	if (pt_format_parse(s, &f))
		return -1;
	*out = (int)f;
	return 0;
}

static int set_value(struct pt_walk_cfg *c, const struct key_def *k, const char *s)
{
	char *p = (char *)c + k->off;
	uint64_t u;
	double d;
	bool b;

	switch (k->type) {
	case K_U64:
		return parse_u64(s, (uint64_t *)p);
	case K_UINT:
		if (parse_u64(s, &u) || u > 1u << 20)
			return -1;
		*(unsigned *)p = (unsigned)u;
		return 0;
	case K_PFLINES:
		if (parse_u64(s, &u) || !u || u > PT_CACHE_MAX_PREFETCH || (u & (u - 1)))
			return -1;
		*(unsigned *)p = (unsigned)u;
		return 0;
	case K_SIZE:
		return pt_size_parse(s, (uint64_t *)p);
	case K_DOUBLE:
		return parse_double(s, (double *)p);
	case K_POSITIVE:
		return parse_double(s, (double *)p) || !(*(double *)p > 0) ? -1 : 0;
	case K_BOOL_ON:
		return parse_choice(s, "off", "on", (bool *)p);
	case K_REPL:
		return parse_choice(s, "lru", "random", (bool *)p);
	case K_REPL_TLB:
		if (parse_choice(s, "lru", "random", (bool *)p))
			return -1;
		c->l1tlb_random = *(bool *)p;
		return 0;
	case K_EVICTIONS:
		/* each is a simulated insert: a bound keeps a typo from stalling a run */
		if (parse_double(s, &d) || d > PT_WALK_MAX_EVICTIONS)
			return -1;
		*(double *)p = d;
		return 0;
	case K_TAG:
		if (parse_choice(s, "va", "pa", &b))
			return -1;
		*(enum pt_pwc_tag *)p = b ? PT_PWC_PA : PT_PWC_VA;
		return 0;
	case K_GRANULE:
		return pt_granule_parse(s, (unsigned *)p);
	case K_S2FMT:
		return parse_s2fmt(s, (int *)p);
	case K_S2BACK:
		if (parse_choice(s, "4k", "thp", &b))
			return -1;
		*(unsigned *)p = b;
		return 0;
	case K_LAYOUT:
		if (parse_choice(s, "scatter", "linear", &b))
			return -1;
		*(enum pt_guest_layout *)p = b ? PT_LAYOUT_LINEAR : PT_LAYOUT_SCATTER;
		return 0;
	}
	return -1;
}

static void valid_keys(char *out, size_t len)
{
	size_t i, n = 0;

	out[0] = 0;
	for (i = 0; i < NKEYS && n < len; i++)
		n += snprintf(out + n, len - n, "%s%s", i ? ", " : "", keys[i].name);
}

int pt_walk_cfg_set(struct pt_walk_cfg *c, const char *key, const char *value, char *err,
		    size_t errlen)
{
	char list[2048];
	size_t i;

	for (i = 0; i < NKEYS; i++) {
		if (strcmp(keys[i].name, key))
			continue;
		if (set_value(c, &keys[i], value)) {
			if (keys[i].type == K_EVICTIONS)
				snprintf(err, errlen,
					 "bad value '%s' for %s: entries per lookup, 0 to %d",
					 value, key, PT_WALK_MAX_EVICTIONS);
			else if (keys[i].type == K_PFLINES)
				snprintf(err, errlen,
					 "bad value '%s' for %s: lines per block, 1, 2, 4 or 8",
					 value, key);
			else
				snprintf(err, errlen, "bad value '%s' for %s", value, key);
			return -2;
		}
		return 0;
	}
	valid_keys(list, sizeof(list));
	snprintf(err, errlen, "unknown key '%s'; valid keys: %s", key, list);
	return -1;
}

void pt_walk_cfg_value(const struct pt_walk_cfg *c, size_t i, char *out, size_t len)
{
	const char *p;

	if (i >= NKEYS) {
		snprintf(out, len, "%s", "");
		return;
	}
	p = (const char *)c + keys[i].off;
	switch (keys[i].type) {
	case K_U64:
	case K_SIZE:
		snprintf(out, len, "%llu", (unsigned long long)*(const uint64_t *)p);
		break;
	case K_UINT:
	case K_PFLINES:
		snprintf(out, len, "%u", *(const unsigned *)p);
		break;
	case K_DOUBLE:
	case K_POSITIVE:
	case K_EVICTIONS:
		snprintf(out, len, "%.6g", *(const double *)p);
		break;
	case K_BOOL_ON:
		snprintf(out, len, "%s", *(const bool *)p ? "on" : "off");
		break;
	case K_REPL:
	case K_REPL_TLB:
		snprintf(out, len, "%s", *(const bool *)p ? "random" : "lru");
		break;
	case K_TAG:
		snprintf(out, len, "%s", *(const enum pt_pwc_tag *)p == PT_PWC_PA ? "pa" : "va");
		break;
	case K_GRANULE:
		snprintf(out, len, "%uK", 1u << (*(const unsigned *)p - 10));
		break;
	case K_S2FMT:
		snprintf(out, len, "%s",
			 *(const int *)p < 0 ? "none"
			 : *(const int *)p   ? "d128"
					     : "d64");
		break;
	case K_S2BACK:
		snprintf(out, len, "%s", *(const unsigned *)p ? "thp" : "4k");
		break;
	case K_LAYOUT:
		snprintf(out, len, "%s", *(const enum pt_guest_layout *)p ? "linear" : "scatter");
		break;
	}
}

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = 0;
	return s;
}

static int parse_line(struct pt_walk_cfg *c, char *line, const char *name, long lineno, char *err,
		      size_t errlen)
{
	char *hash = strchr(line, '#'), *eq, *key, why[1200];

	if (hash)
		*hash = 0;
	key = trim(line);
	if (!*key)
		return 0;
	eq = strchr(key, '=');
	if (!eq) {
		snprintf(err, errlen, "%s:%ld: expected 'key = value'", name, lineno);
		return -1;
	}
	*eq = 0;
	if (pt_walk_cfg_set(c, trim(key), trim(eq + 1), why, sizeof(why))) {
		snprintf(err, errlen, "%s:%ld: %s", name, lineno, why);
		return -1;
	}
	return 0;
}

int pt_walk_cfg_parse_text(struct pt_walk_cfg *c, const char *text, const char *name, char *err,
			   size_t errlen)
{
	char line[1024];
	long lineno = 0;

	while (*text) {
		size_t n = strcspn(text, "\n");

		lineno++;
		if (n >= sizeof(line)) {
			snprintf(err, errlen, "%s:%ld: line too long", name, lineno);
			return -1;
		}
		memcpy(line, text, n);
		line[n] = 0;
		if (parse_line(c, line, name, lineno, err, errlen))
			return -1;
		text += n + (text[n] == '\n');
	}
	return 0;
}
