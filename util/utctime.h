/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The UTC timestamps ptbench writes (meta.json's run.started_utc, a
 * history's runs): "YYYY-MM-DDTHH:MM:SS" with an optional fraction and a
 * trailing Z, as seconds since the epoch.
 */
#ifndef PTBENCH_UTCTIME_H
#define PTBENCH_UTCTIME_H

/* 0 and *t, or -1 when s is not such a timestamp (*t is then NAN). */
int pt_utc_parse(const char *s, double *t);

#endif
