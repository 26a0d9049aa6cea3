/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kernel's text symbols from /proc/kallsyms, sorted by address, for
 * turning a sampled kernel IP into the function it was in. Under
 * kptr_restrict (or for a reader without CAP_SYSLOG) every address reads
 * as zero: the table is then empty and says so, and the profiler counts
 * kernel samples as kernel_other only.
 */
#ifndef PTBENCH_KALLSYMS_H
#define PTBENCH_KALLSYMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pt_ksym {
	uint64_t addr;
	uint32_t name; /* offset of the NUL-terminated name in pt_ksyms.text */
	uint32_t line; /* 1-based, keeps the sort stable among aliases */
};

struct pt_ksyms {
	struct pt_ksym *sym; /* text symbols (t, T, w, W), by address */
	size_t n;
	char *text; /* the file, names cut out in place */
	size_t lines; /* lines read */
	bool restricted; /* text symbols were listed, every address zero */
};

/*
 * Parse kallsyms text, len bytes and a NUL after them (taken over: freed by
 * pt_ksyms_free, also on error). 0, or -1 with
 * "name:line: problem" in err for a line that is not "ADDR TYPE NAME[\t[MOD]]".
 */
int pt_ksyms_parse(struct pt_ksyms *ks, char *text, size_t len, const char *name, char *err,
		   size_t errlen);
/*
 * Load path (NULL: /proc/kallsyms through the sysroot accessor). 0, or -1
 * with "path: reason" in err.
 */
int pt_ksyms_load(struct pt_ksyms *ks, const char *path, char *err, size_t errlen);
/* Index of the symbol containing addr (the last one at or below it), -1 if none. */
long pt_ksyms_find(const struct pt_ksyms *ks, uint64_t addr);
const char *pt_ksyms_name(const struct pt_ksyms *ks, long idx);
void pt_ksyms_free(struct pt_ksyms *ks);

#endif
