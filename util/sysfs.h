/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The one accessor for /proc and /sys. When PTBENCH_SYSROOT is set, every
 * path is looked up below it, so tests can pose as another machine. Files of
 * a live process (/proc/self/..., /proc/<pid>/...) fall back to the real
 * ones when the fixture does not provide them.
 */
#ifndef PTBENCH_SYSFS_H
#define PTBENCH_SYSFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The sysroot in use ("" when none). */
const char *pt_sysroot(void);
/* Re-read PTBENCH_SYSROOT (tests change it at run time). */
void pt_sysroot_reload(void);
/* Map an absolute /proc or /sys path to the file to open. */
int pt_sys_path(const char *path, char *out, size_t len);
/* Read a whole small file, NUL-terminated, trailing newline stripped. */
int pt_sys_read(const char *path, char *buf, size_t len);
int pt_sys_read_u64(const char *path, uint64_t *val);
int pt_sys_read_long(const char *path, long *val);
bool pt_sys_exists(const char *path);
FILE *pt_sys_fopen(const char *path, const char *mode);
int pt_sys_open(const char *path, int flags);
/* Write a value to a knob (under the sysroot when one is set). */
int pt_sys_write(const char *path, const char *val);
/* "always [madvise] never" -> "madvise"; a plain value is copied. */
int pt_sys_read_choice(const char *path, char *buf, size_t len);
/* Value in kB of "Key:" in a /proc key-value file, -1 when absent. */
long pt_sys_kv_kb(const char *path, const char *key);

#endif
