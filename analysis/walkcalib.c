// SPDX-License-Identifier: GPL-2.0-only
#include <math.h>
#include <stdio.h>

#include "analysis/walkcalib.h"
#include "util/csv.h"

int pt_walkcalib_fit(struct pt_calib_point *pts, size_t n, const struct pt_walk_cfg *cfg,
		     double lat[PT_LAT_N], double *rms, char *err, size_t errlen)
{
	char why[256];
	size_t i;
	unsigned j;

	for (i = 0; i < n; i++) {
		if (pt_calib_simulate(&pts[i], cfg, why, sizeof(why))) {
			snprintf(err, errlen, "case %s: %s", pts[i].cs, why);
			return -1;
		}
	}
	for (j = 0; j < PT_LAT_N; j++)
		lat[j] = cfg->lat[j] / cfg->ghz;
	*rms = pt_calib_fit(pts, n, PT_CALIB_MASK_DEFAULT, lat);
	return 0;
}

static void row(FILE *f, const char *src, const struct pt_calib_point *p, double ns, double rel,
		double ratio)
{
	fprintf(f, "%s,%s,%s,%llu", src, p->cs, p->backing, (unsigned long long)p->ws);
	pt_csv_put_num(f, ns);
	pt_csv_put_num(f, rel);
	pt_csv_put_num(f, ratio);
	fputc('\n', f);
}

void pt_walkcalib_csv(FILE *f, const struct pt_calib_point *p, size_t n, const double lat[PT_LAT_N])
{
	size_t i;

	fprintf(f, "source,case,backing,ws_bytes,ns_per_access,rel_error,d128_over_d64\n");
	for (i = 0; i < n; i++)
		row(f, "measured", &p[i], p[i].measured_ns, NAN, NAN);
	for (i = 0; i < n; i++) {
		double fit = pt_calib_predict(p[i].f_d64, lat);

		row(f, "fitted-d64", &p[i], fit, (fit - p[i].measured_ns) / p[i].measured_ns, NAN);
	}
	for (i = 0; i < n; i++) {
		double fit = pt_calib_predict(p[i].f_d64, lat);
		double pred = pt_calib_predict(p[i].f_d128, lat);

		row(f, "predicted-d128", &p[i], pred, NAN, fit > 0 ? pred / fit : NAN);
	}
}
