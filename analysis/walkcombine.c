// SPDX-License-Identifier: GPL-2.0-only
/*
 * Several runs' walk_model.csv combined (analysis/walkcombine.h): the
 * parsing of one file, the per-case summary, and the coverage of k-run
 * envelopes.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/walkcombine.h"
#include "util/csv.h"
#include "util/errf.h"
#include "util/parse.h"
#include "util/rng.h"
#include "util/stats.h"

#define MAX_FIELDS 32

static const char *const source[PT_D128_AT_N] = { "predicted-d128", "predicted-d128-host",
						  "predicted-d128-both" };

/* The columns combine reads, by header name. */
enum { COL_SOURCE, COL_CASE, COL_BACKING, COL_WS, COL_PT, COL_LO, COL_HI, COL_HYP, COL_N };
static const char *const col_name[COL_N] = { "source",		 "case",
					     "backing",		 "ws_bytes",
					     "d128_over_d64",	 "d128_over_d64_lo",
					     "d128_over_d64_hi", "hypothesis" };

const char *pt_walkcombine_source(enum pt_d128_at e)
{
	return source[e];
}

int pt_walkcombine_init(struct pt_walkcombine *c)
{
	memset(c, 0, sizeof(*c));
	c->cases = calloc(PT_WALKCOMBINE_MAX_CASES, sizeof(*c->cases));
	return c->cases ? 0 : -1;
}

void pt_walkcombine_free(struct pt_walkcombine *c)
{
	free(c->cases);
	c->cases = NULL;
}

/*
 * s as a D128/D64 ratio (util/parse: digits and one dot, as walk_model.csv
 * writes them), above 0; an empty field, no prediction, is NAN.
 */
static int ratio_of(const char *s, double *v)
{
	if (!*s) {
		*v = NAN;
		return 0;
	}
	return pt_parse_double(s, 0, 1e9, v) || !(*v > 0) ? -1 : 0;
}

/* col: each column's index; *need: the fields a row must have to hold them all. */
static int header(char **f, int nf, int col[COL_N], int *need, const char *name, char *err,
		  size_t errlen)
{
	int k, j;

	*need = 0;
	for (k = 0; k < COL_N; k++) {
		col[k] = -1;
		for (j = 0; j < nf; j++)
			if (!strcmp(f[j], col_name[k]))
				col[k] = j;
		if (col[k] < 0)
			return pt_errf(err, errlen,
				       "%s:1: no column '%s'; expected walk_model.csv from "
				       "'ptbench model walk calibrate'",
				       name, col_name[k]);
		*need = col[k] + 1 > *need ? col[k] + 1 : *need;
	}
	return 0;
}

/* The case called name, added (with its backing and ws) when new; NULL when full. */
static struct pt_walkcombine_case *case_of(struct pt_walkcombine *c, const char *name,
					   const char *backing, uint64_t ws, const char *file,
					   long line, char *err, size_t errlen)
{
	struct pt_walkcombine_case *k;
	size_t i, r;
	int e;

	for (i = 0; i < c->ncases; i++) {
		k = &c->cases[i];
		if (strcmp(k->name, name))
			continue;
		if (k->ws != ws || strcmp(k->backing, backing)) {
			pt_errf(err, errlen,
				"%s:%ld: case %s: backing %s, ws_bytes %llu where an earlier run "
				"has %s, %llu; not the same case",
				file, line, name, backing, (unsigned long long)ws, k->backing,
				(unsigned long long)k->ws);
			return NULL;
		}
		return k;
	}
	if (c->ncases == PT_WALKCOMBINE_MAX_CASES || strlen(name) >= sizeof(k->name) ||
	    strlen(backing) >= sizeof(k->backing)) {
		pt_errf(err, errlen, "%s:%ld: case %s: too many cases or too long a name", file,
			line, name);
		return NULL;
	}
	k = &c->cases[c->ncases++];
	snprintf(k->name, sizeof(k->name), "%s", name);
	snprintf(k->backing, sizeof(k->backing), "%s", backing);
	k->ws = ws;
	for (e = 0; e < PT_D128_AT_N; e++)
		for (r = 0; r < PT_WALKCOMBINE_MAX_RUNS; r++)
			k->pt[e][r] = k->lo[e][r] = k->hi[e][r] = NAN;
	return k;
}

static int stage_of(const char *s)
{
	int e;

	for (e = 0; e < PT_D128_AT_N; e++)
		if (!strcmp(s, source[e]))
			return e;
	return -1;
}

/* One predicted row of run r: its stage e's prediction and range. */
static int take_row(struct pt_walkcombine *c, size_t r, int e, char **f, const int col[COL_N],
		    const char *name, long line, char *err, size_t errlen)
{
	struct pt_walkcombine_case *k;
	double pt, lo, hi;
	uint64_t ws;

	if (pt_parse_u64(f[col[COL_WS]], 0, UINT64_MAX, &ws))
		return pt_errf(err, errlen, "%s:%ld: ws_bytes '%s' is not a byte count", name, line,
			       f[col[COL_WS]]);
	if (ratio_of(f[col[COL_PT]], &pt) || ratio_of(f[col[COL_LO]], &lo) ||
	    ratio_of(f[col[COL_HI]], &hi))
		return pt_errf(err, errlen,
			       "%s:%ld: case %s: d128_over_d64 '%s' [%s, %s]: expected numbers "
			       "above 0",
			       name, line, f[col[COL_CASE]], f[col[COL_PT]], f[col[COL_LO]],
			       f[col[COL_HI]]);
	if (!*f[col[COL_CASE]])
		return pt_errf(err, errlen, "%s:%ld: a prediction without a case name", name, line);
	k = case_of(c, f[col[COL_CASE]], f[col[COL_BACKING]], ws, name, line, err, errlen);
	if (!k)
		return -1;
	if (!isnan(k->pt[e][r]))
		return pt_errf(err, errlen, "%s:%ld: case %s, %s: a second row", name, line,
			       k->name, source[e]);
	if (isnan(pt))
		return 0; /* no prediction: the run says nothing of this case */
	/* a range the bootstrap left out holds its point alone */
	k->pt[e][r] = pt;
	k->lo[e][r] = isnan(lo) ? pt : fmin(lo, pt);
	k->hi[e][r] = isnan(hi) ? pt : fmax(hi, pt);
	if (!c->hyp[r][0])
		snprintf(c->hyp[r], sizeof(c->hyp[r]), "%s", f[col[COL_HYP]]);
	return 0;
}

int pt_walkcombine_add(struct pt_walkcombine *c, const char *buf, size_t len, const char *name,
		       char *err, size_t errlen)
{
	char *scratch, *f[MAX_FIELDS];
	size_t pos = 0, r = c->nruns, taken = 0, ncases = c->ncases, i;
	long line = 1, start;
	int col[COL_N], need, nf, e, ret = -1;

	if (r == PT_WALKCOMBINE_MAX_RUNS)
		return pt_errf(err, errlen, "%s: more than %d runs", name, PT_WALKCOMBINE_MAX_RUNS);
	if (!len)
		return pt_errf(err, errlen, "%s: empty file; expected walk_model.csv", name);
	if (memchr(buf, '\0', len))
		return pt_errf(err, errlen, "%s: contains a NUL byte; not a CSV text file", name);
	scratch = malloc(len + 1);
	if (!scratch)
		return pt_errf(err, errlen, "%s: out of memory", name);
	c->hyp[r][0] = '\0';
	nf = pt_csv_record(buf, len, &pos, &line, scratch, f, MAX_FIELDS, name, err, errlen);
	if (nf < 0 || header(f, nf, col, &need, name, err, errlen))
		goto out;
	while (pos < len) {
		start = line;
		nf = pt_csv_record(buf, len, &pos, &line, scratch, f, MAX_FIELDS, name, err,
				   errlen);
		if (nf < 0)
			goto out;
		if (nf < need) {
			pt_errf(err, errlen, "%s:%ld: %d fields, fewer than the header's", name,
				start, nf);
			goto out;
		}
		e = stage_of(f[col[COL_SOURCE]]);
		if (e < 0)
			continue; /* measured and fitted rows */
		if (take_row(c, r, e, f, col, name, start, err, errlen))
			goto out;
		taken++;
	}
	if (!taken) {
		pt_errf(err, errlen, "%s: no predicted-d128 rows; expected walk_model.csv", name);
		goto out;
	}
	c->nruns++;
	ret = 0;
out:
	if (ret) {
		/* a file refused halfway leaves nothing of itself */
		c->ncases = ncases;
		for (i = 0; i < ncases; i++)
			for (e = 0; e < PT_D128_AT_N; e++)
				c->cases[i].pt[e][r] = c->cases[i].lo[e][r] = c->cases[i].hi[e][r] =
					NAN;
		c->hyp[r][0] = '\0';
	}
	free(scratch);
	return ret;
}

void pt_walkcombine_summarize(const struct pt_walkcombine *c, size_t i, enum pt_d128_at e,
			      struct pt_walkcombine_summary *s)
{
	const struct pt_walkcombine_case *k = &c->cases[i];
	double v[PT_WALKCOMBINE_MAX_RUNS];
	size_t r, n = 0;

	memset(s, 0, sizeof(*s));
	s->median = s->pmin = s->pmax = s->lo = s->hi = NAN;
	for (r = 0; r < c->nruns; r++) {
		if (isnan(k->pt[e][r]))
			continue;
		v[n++] = k->pt[e][r];
		s->lo = isnan(s->lo) ? k->lo[e][r] : fmin(s->lo, k->lo[e][r]);
		s->hi = isnan(s->hi) ? k->hi[e][r] : fmax(s->hi, k->hi[e][r]);
	}
	s->runs = n;
	if (!n)
		return;
	pt_sort_doubles(v, n);
	s->median = pt_quantile_sorted(v, n, 0.5);
	s->pmin = v[0];
	s->pmax = v[n - 1];
}

bool pt_walkcombine_has_effect(const struct pt_walkcombine *c, size_t i, enum pt_d128_at e)
{
	size_t r;

	for (r = 0; r < c->nruns; r++)
		if (fabs(c->cases[i].pt[e][r] - 1) >= PT_WALKCOMBINE_EFFECT)
			return true;
	return false;
}

/* n choose k, or SIZE_MAX past PT_WALKCOMBINE_MAX_SUBSETS (all that matters). */
static size_t choose(size_t n, size_t k)
{
	size_t i, v = 1;

	for (i = 1; i <= k; i++) {
		v = v * (n - k + i) / i; /* exact: a product of i consecutive over i! */
		if (v > PT_WALKCOMBINE_MAX_SUBSETS)
			return SIZE_MAX;
	}
	return v;
}

/* The next k-subset of 0..n-1 in lexicographic order; false after the last. */
static bool next_subset(size_t *s, size_t k, size_t n)
{
	size_t i = k;

	while (i > 0 && s[i - 1] == n - k + i - 1)
		i--;
	if (!i)
		return false;
	s[i - 1]++;
	for (; i < k; i++)
		s[i] = s[i - 1] + 1;
	return true;
}

/* k of the n runs drawn without replacement (a partial shuffle). */
static void draw_subset(size_t *s, size_t k, size_t n, uint64_t *seed)
{
	size_t perm[PT_WALKCOMBINE_MAX_RUNS], i, j, t;

	for (i = 0; i < n; i++)
		perm[i] = i;
	for (i = 0; i < k; i++) {
		j = i + pt_rng_next(seed) % (n - i);
		t = perm[i];
		perm[i] = perm[j];
		perm[j] = t;
		s[i] = perm[i];
	}
}

/* One subset's envelopes judged on every run outside it. */
static void cover_subset(const struct pt_walkcombine *c, enum pt_d128_at e, const size_t *s,
			 size_t k, const bool *effect, struct pt_walkcombine_coverage *cov)
{
	bool in[PT_WALKCOMBINE_MAX_RUNS] = { false };
	size_t i, j, r;

	for (j = 0; j < k; j++)
		in[s[j]] = true;
	for (i = 0; i < c->ncases; i++) {
		const struct pt_walkcombine_case *x = &c->cases[i];
		double lo = INFINITY, hi = -INFINITY;

		if (!effect[i])
			continue;
		for (j = 0; j < k; j++)
			if (!isnan(x->pt[e][s[j]])) {
				lo = fmin(lo, x->lo[e][s[j]]);
				hi = fmax(hi, x->hi[e][s[j]]);
			}
		if (lo > hi)
			continue; /* no run of the subset predicts it */
		for (r = 0; r < c->nruns; r++) {
			if (in[r] || isnan(x->pt[e][r]))
				continue;
			cov->points++;
			/* the CSV's 9 digits: a point on the envelope's edge is inside */
			cov->inside += x->pt[e][r] >= lo * (1 - 1e-8) &&
				       x->pt[e][r] <= hi * (1 + 1e-8);
		}
	}
}

int pt_walkcombine_cover(const struct pt_walkcombine *c, enum pt_d128_at e, size_t k,
			 struct pt_walkcombine_coverage *cov)
{
	size_t s[PT_WALKCOMBINE_MAX_RUNS], i, total;
	bool *effect;
	uint64_t seed = 0x9e3779b97f4a7c15ull;

	memset(cov, 0, sizeof(*cov));
	cov->k = k;
	if (!k || k >= c->nruns)
		return -1;
	effect = malloc(c->ncases * sizeof(*effect) + 1);
	if (!effect)
		return -1;
	for (i = 0; i < c->ncases; i++)
		effect[i] = pt_walkcombine_has_effect(c, i, e);
	total = choose(c->nruns, k);
	cov->sampled = total == SIZE_MAX;
	if (cov->sampled) {
		for (cov->subsets = 0; cov->subsets < PT_WALKCOMBINE_MAX_SUBSETS; cov->subsets++) {
			draw_subset(s, k, c->nruns, &seed);
			cover_subset(c, e, s, k, effect, cov);
		}
	} else {
		for (i = 0; i < k; i++)
			s[i] = i;
		do {
			cover_subset(c, e, s, k, effect, cov);
			cov->subsets++;
		} while (next_subset(s, k, c->nruns));
	}
	free(effect);
	return 0;
}
