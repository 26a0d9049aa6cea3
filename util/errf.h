/* SPDX-License-Identifier: GPL-2.0-only */
/* Error messages into a caller's buffer, the convention of every reader. */
#ifndef PTBENCH_ERRF_H
#define PTBENCH_ERRF_H

#include <stddef.h>

/* Format a message into err (when given); returns -1 for "return pt_errf(...)". */
int pt_errf(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
