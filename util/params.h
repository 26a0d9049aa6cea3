/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A case's params: "key=value;key=value", keys sorted, as results.csv
 * records them (results/SCHEMA.md). Workloads build them with typed values
 * and the builder keeps the keys sorted, so no two workloads can order or
 * format them differently; readers (the walk calibration) parse them back
 * instead of searching the string, so "backing=4k" never matches
 * "xbacking=4k" or a longer value.
 */
#ifndef PTBENCH_UTIL_PARAMS_H
#define PTBENCH_UTIL_PARAMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PT_PARAMS_MAX 8
#define PT_PARAMS_KEY 24
#define PT_PARAMS_VAL 64

struct pt_param {
	char key[PT_PARAMS_KEY];
	char val[PT_PARAMS_VAL];
};

struct pt_params {
	struct pt_param kv[PT_PARAMS_MAX]; /* sorted by key */
	size_t n;
	bool bad; /* an add failed: render refuses */
};

void pt_params_init(struct pt_params *p);

/*
 * Add key=value in key order. A key must be non-empty and hold neither '='
 * nor ';', a value neither ';'; a duplicate key, one too many, or one too
 * long marks p bad (and returns -1) so that render fails rather than write
 * params that differ from what the workload meant.
 */
int pt_params_str(struct pt_params *p, const char *key, const char *val);
/* A byte count, written in decimal bytes ("size=67108864"). */
int pt_params_size(struct pt_params *p, const char *key, uint64_t bytes);
int pt_params_int(struct pt_params *p, const char *key, long long v);

/* "k=v;k=v" into out. 0, or -1 when p is bad or out too small. */
int pt_params_render(const struct pt_params *p, char *out, size_t len);

/*
 * Parse a params string into p, in the order written. 0, or -1 when a
 * field is not key=value, a key repeats, or there are too many.
 */
int pt_params_parse(const char *s, struct pt_params *p);
/* The value of key, NULL when absent. */
const char *pt_params_get(const struct pt_params *p, const char *key);
/* A size: decimal bytes or with a K/M/G/T suffix. 0, or -1 absent or bad. */
int pt_params_get_size(const struct pt_params *p, const char *key, uint64_t *bytes);
/* A decimal integer. 0, or -1 absent or bad. */
int pt_params_get_int(const struct pt_params *p, const char *key, long long *v);

#endif
