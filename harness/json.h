/* SPDX-License-Identifier: GPL-2.0-only */
/* A small streaming JSON writer with escaping and nesting. */
#ifndef PTBENCH_JSON_H
#define PTBENCH_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define PT_JSON_MAX_DEPTH 16

struct pt_json {
	FILE *f;
	int depth;
	bool first[PT_JSON_MAX_DEPTH];
	bool after_key;
};

void pt_json_init(struct pt_json *j, FILE *f);
void pt_json_obj_begin(struct pt_json *j, const char *key);
void pt_json_obj_end(struct pt_json *j);
void pt_json_arr_begin(struct pt_json *j, const char *key);
void pt_json_arr_end(struct pt_json *j);
/* key may be NULL inside arrays. */
void pt_json_str(struct pt_json *j, const char *key, const char *val);
void pt_json_int(struct pt_json *j, const char *key, int64_t val);
void pt_json_uint(struct pt_json *j, const char *key, uint64_t val);
/* NaN and infinities are written as null. */
void pt_json_num(struct pt_json *j, const char *key, double val);
void pt_json_bool(struct pt_json *j, const char *key, bool val);
void pt_json_null(struct pt_json *j, const char *key);
void pt_json_escape(FILE *f, const char *s);

#endif
