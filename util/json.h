/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * JSON: a small streaming writer with escaping and nesting (json.c), and a
 * reader that flattens a document to path/value pairs (json_read.c).
 */
#ifndef PTBENCH_JSON_H
#define PTBENCH_JSON_H

#include <stdbool.h>
#include <stddef.h>
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

/* A parsed document: every scalar under its dotted path, as text. */
struct pt_json_kv {
	char path[256];
	char val[256];
};

struct pt_json_doc {
	struct pt_json_kv *kv;
	size_t nkv;
};

/*
 * Parse text (a top-level object); "name" is used in messages. 0, or -1
 * with "name:line: invalid JSON: problem" in err.
 */
int pt_json_parse(const char *text, const char *name, struct pt_json_doc *doc, char *err,
		  size_t errlen);
/* The value at path ("true", "null", numbers as written), or NULL. */
const char *pt_json_get(const struct pt_json_doc *doc, const char *path);
/* The first of several candidate paths that is present and not null ("" if none). */
void pt_json_pick(const struct pt_json_doc *doc, const char *const *paths, char *out,
		  size_t len);
void pt_json_doc_free(struct pt_json_doc *doc);

#endif
