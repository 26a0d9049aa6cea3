/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Memory traces: valgrind lackey's text output (--trace-mem=yes) and the
 * project's compact binary format (docs/walk.md):
 *
 *   header  8 bytes "PTTRACE1"
 *   record  1 byte  bits 0-1 kind (0 I, 1 L, 2 S, 3 M), bits 2-7 s:
 *                   s = 1..62 is the size in bytes, s = 0 means the size
 *                   follows as a LEB128 varint, byte 0xFF ends the trace;
 *           varint  zigzag(address - previous address), LEB128
 *   end     0xFF, then the record count as a LEB128 varint
 *
 * A stream without the end record is truncated. Streams are passed in;
 * nothing here opens a file or prints.
 */
#ifndef PTBENCH_MODEL_TRACE_H
#define PTBENCH_MODEL_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum pt_access_kind { PT_ACC_INSTR = 0, PT_ACC_LOAD, PT_ACC_STORE, PT_ACC_MODIFY };

struct pt_access {
	uint64_t addr;
	uint64_t size;
	enum pt_access_kind kind;
};

#define PT_TRACE_MAGIC "PTTRACE1"
#define PT_TRACE_END 0xFF

/*
 * Parse one lackey line (without its newline). 1: an access in *a; 0: a
 * line that carries none (valgrind's "==pid==" messages, blank); -1:
 * malformed, with the reason in err.
 */
int pt_lackey_parse_line(const char *line, struct pt_access *a, char *err, size_t errlen);

typedef int (*pt_access_fn)(const struct pt_access *a, void *ctx);

/*
 * Read lackey lines from f, calling fn for each access (a non-zero return
 * stops). 0 at the end; -1 with "name:line: reason" in err.
 */
int pt_lackey_read(FILE *f, const char *name, pt_access_fn fn, void *ctx, char *err, size_t errlen);

struct pt_trace_writer {
	FILE *f;
	uint64_t prev, count;
};

int pt_trace_write_begin(struct pt_trace_writer *w, FILE *f);
int pt_trace_write(struct pt_trace_writer *w, const struct pt_access *a);
/* The end record; the caller closes f. */
int pt_trace_write_end(struct pt_trace_writer *w);

/*
 * Read a binary trace from f, calling fn per record. 0 at a complete end;
 * -1 with "name: offset N: reason" in err (bad magic, truncation, count).
 */
int pt_trace_read(FILE *f, const char *name, pt_access_fn fn, void *ctx, char *err, size_t errlen);

#endif
