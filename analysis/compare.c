// SPDX-License-Identifier: GPL-2.0-only
/*
 * The regression gate. A change counts only when it is both unlikely to be
 * noise (Mann-Whitney p below alpha after correcting for the number of
 * series compared) and large enough to matter (at least the threshold).
 * The rank test assumes nothing about the shape of the noise, which on a
 * VM is skewed and heavy-tailed; the threshold keeps a tiny but real
 * difference (a cache-line shift between builds) from failing a CI job.
 */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare.h"
#include "util/errf.h"
#include "util/fileio.h"
#include "util/yuen.h"

const char *pt_correction_name(enum pt_correction c)
{
	switch (c) {
	case PT_CORR_HOLM:
		return "holm";
	case PT_CORR_BH:
		return "bh";
	default:
		return "none";
	}
}

const char *pt_cmp_test_name(enum pt_cmp_test t)
{
	return t == PT_TEST_YUEN ? "yuen" : "mw";
}

int pt_cmp_test_parse(const char *s, enum pt_cmp_test *t)
{
	if (!strcmp(s, "mw"))
		*t = PT_TEST_MW;
	else if (!strcmp(s, "yuen"))
		*t = PT_TEST_YUEN;
	else
		return -1;
	return 0;
}

int pt_correction_parse(const char *s, enum pt_correction *c)
{
	if (!strcmp(s, "holm"))
		*c = PT_CORR_HOLM;
	else if (!strcmp(s, "bh"))
		*c = PT_CORR_BH;
	else if (!strcmp(s, "none"))
		*c = PT_CORR_NONE;
	else
		return -1;
	return 0;
}

const char *pt_verdict_name(enum pt_verdict v)
{
	static const char *const names[] = {
		[PT_V_SAME] = "~",
		[PT_V_BETTER] = "better",
		[PT_V_WORSE] = "worse",
		[PT_V_CHANGED] = "changed",
		[PT_V_TOO_FEW] = "too few samples",
		[PT_V_BASE_ONLY] = "base only",
		[PT_V_NEW_ONLY] = "new only",
		[PT_V_UNGATED] = "not gated",
		[PT_V_INFO] = "shown",
	};

	return (unsigned)v < sizeof(names) / sizeof(names[0]) ? names[v] : "?";
}

/* ---- multiple comparisons ---- */

struct p_idx {
	double p;
	size_t i;
};

static int p_idx_cmp(const void *pa, const void *pb)
{
	const struct p_idx *a = pa, *b = pb;

	if (a->p != b->p)
		return a->p < b->p ? -1 : 1;
	return a->i < b->i ? -1 : a->i > b->i;
}

int pt_p_adjust(const double *p, size_t m, enum pt_correction c, double *adj)
{
	struct p_idx *o;
	double run;
	size_t k;

	if (!m)
		return 0;
	if (c == PT_CORR_NONE) {
		for (k = 0; k < m; k++)
			adj[k] = p[k];
		return 0;
	}
	o = malloc(m * sizeof(*o));
	if (!o)
		return -1;
	for (k = 0; k < m; k++)
		o[k] = (struct p_idx){ p[k], k };
	qsort(o, m, sizeof(*o), p_idx_cmp);
	if (c == PT_CORR_HOLM) {
		/* Step down: the k-th smallest is scaled by m - k, kept monotone. */
		run = 0;
		for (k = 0; k < m; k++) {
			double v = fmin(1.0, (double)(m - k) * o[k].p);

			run = fmax(run, v);
			adj[o[k].i] = run;
		}
	} else {
		/* Step up: the k-th smallest is scaled by m / k, kept monotone. */
		run = 1.0;
		for (k = m; k-- > 0;) {
			double v = fmin(1.0, (double)m / (double)(k + 1) * o[k].p);

			run = fmin(run, v);
			adj[o[k].i] = run;
		}
	}
	free(o);
	return 0;
}

/* ---- thresholds, alpha and the config file ---- */

int pt_cmp_parse_pct(const char *s, double *pct)
{
	char *end;
	double v;

	if (!*s || isspace((unsigned char)*s))
		return -1;
	v = strtod(s, &end);
	if (end == s)
		return -1; /* "%" alone is no number, not 0% */
	if (*end == '%')
		end++;
	if (*end || !isfinite(v) || v < 0)
		return -1;
	*pct = v;
	return 0;
}

int pt_cmp_parse_alpha(const char *s, double *alpha)
{
	char *end;
	double v;

	if (!*s || isspace((unsigned char)*s))
		return -1;
	v = strtod(s, &end);
	if (*end || !(v > 0 && v < 1))
		return -1;
	*alpha = v;
	return 0;
}

static int rule_setting(struct pt_cmp_rule *r, char *tok, const char *name, long line, char *err,
			size_t errlen)
{
	char *eq = strchr(tok, '=');

	if (!eq)
		return pt_errf(err, errlen,
			       "%s:%ld: '%s' is not key=value (threshold=P%%, alpha=A, gate=off)",
			       name, line, tok);
	*eq++ = '\0';
	if (!strcmp(tok, "threshold")) {
		if (pt_cmp_parse_pct(eq, &r->threshold_pct))
			return pt_errf(err, errlen,
				       "%s:%ld: threshold '%s' is not a percentage >= 0 (e.g. 3%%)",
				       name, line, eq);
		r->has_threshold = true;
	} else if (!strcmp(tok, "alpha")) {
		if (pt_cmp_parse_alpha(eq, &r->alpha))
			return pt_errf(err, errlen, "%s:%ld: alpha '%s' is not a number in (0, 1)",
				       name, line, eq);
		r->has_alpha = true;
	} else if (!strcmp(tok, "gate")) {
		if (strcmp(eq, "on") && strcmp(eq, "off"))
			return pt_errf(err, errlen, "%s:%ld: gate '%s' is neither on nor off", name,
				       line, eq);
		r->gate = !strcmp(eq, "on");
		r->has_gate = true;
	} else {
		return pt_errf(err, errlen,
			       "%s:%ld: unknown setting '%s' (threshold, alpha or gate)", name,
			       line, tok);
	}
	return 0;
}

/* One non-blank line, comments already cut off. */
static int rule_parse(char *text, struct pt_cmp_rule *r, const char *name, long line, char *err,
		      size_t errlen)
{
	char *save = NULL, *tok;

	memset(r, 0, sizeof(*r));
	r->line = line;
	tok = strtok_r(text, " \t", &save);
	if (strlen(tok) >= sizeof(r->glob))
		return pt_errf(err, errlen, "%s:%ld: pattern longer than %zu characters", name,
			       line, sizeof(r->glob) - 1);
	if (strchr(tok, '='))
		return pt_errf(err, errlen,
			       "%s:%ld: a line starts with a pattern over workload/case/metric, "
			       "not '%s'",
			       name, line, tok);
	snprintf(r->glob, sizeof(r->glob), "%s", tok);
	while ((tok = strtok_r(NULL, " \t", &save)))
		if (rule_setting(r, tok, name, line, err, errlen))
			return -1;
	if (!r->has_alpha && !r->has_threshold && !r->has_gate)
		return pt_errf(err, errlen,
			       "%s:%ld: pattern '%s' sets none of threshold, alpha and gate", name,
			       line, r->glob);
	return 0;
}

static int rule_append(struct pt_cmp_config *c, const struct pt_cmp_rule *r)
{
	struct pt_cmp_rule *nr = realloc(c->rules, (c->n + 1) * sizeof(*nr));

	if (!nr)
		return -1;
	c->rules = nr;
	c->rules[c->n++] = *r;
	return 0;
}

/* A gate config is a page of text; more than this is not one. */
#define CONFIG_MAX (1u << 20)
#define CONFIG_LINE_MAX 1022

/* One line of text (NUL-terminated, no newline) into a rule, or nothing. */
static int config_line(char *buf, struct pt_cmp_config *c, const char *name, long line, char *err,
		       size_t errlen)
{
	struct pt_cmp_rule rule;
	char *hash, *s;

	if (strlen(buf) > CONFIG_LINE_MAX)
		return pt_errf(err, errlen, "%s:%ld: line longer than %u characters", name, line,
			       CONFIG_LINE_MAX);
	buf[strcspn(buf, "\r")] = '\0';
	/* '#' starts a comment at the start of a line or after a blank. */
	for (hash = buf; (hash = strchr(hash, '#')); hash++)
		if (hash == buf || hash[-1] == ' ' || hash[-1] == '\t') {
			*hash = '\0';
			break;
		}
	for (s = buf; *s == ' ' || *s == '\t'; s++)
		;
	if (!*s)
		return 0;
	if (rule_parse(s, &rule, name, line, err, errlen))
		return -1;
	if (rule_append(c, &rule))
		return pt_errf(err, errlen, "%s: out of memory", name);
	return 0;
}

static bool has_text(const char *s)
{
	for (; *s; s++)
		if (!isspace((unsigned char)*s))
			return true;
	return false;
}

/* The line of the first NUL byte, for the message. */
static long nul_line(const char *text, size_t len)
{
	const char *nul = memchr(text, '\0', len), *p;
	long line = 1;

	for (p = text; p < nul; p++)
		line += *p == '\n';
	return line;
}

int pt_cmp_config_parse(FILE *f, const char *name, struct pt_cmp_config *c, char *err,
			size_t errlen)
{
	char *text, *line, *nl;
	long lineno = 0;
	size_t len;

	memset(c, 0, sizeof(*c));
	/*
	 * The whole text first, bounded: /dev/zero must end in an error, and a
	 * NUL byte must be refused, not end a line early (which made
	 * "* gate=off\0junk" un-gate every series).
	 */
	errno = 0;
	text = pt_read_stream(f, CONFIG_MAX, &len);
	if (!text)
		return pt_errf(err, errlen, "%s: cannot read: %s", name,
			       strerror(errno ? errno : EIO));
	if (len > CONFIG_MAX || (len == CONFIG_MAX && fgetc(f) != EOF)) {
		pt_errf(err, errlen, "%s: larger than %u bytes; not a gate config", name,
			CONFIG_MAX);
		goto bad;
	}
	if (memchr(text, '\0', len)) {
		pt_errf(err, errlen, "%s:%ld: contains a NUL byte; not a text file", name,
			nul_line(text, len));
		goto bad;
	}
	/*
	 * An empty file is a truncated write or the wrong path, not "defaults
	 * everywhere"; a file of comments only (calibrate's gate.conf where
	 * nothing needs loosening) says the latter on purpose.
	 */
	if (!has_text(text)) {
		pt_errf(err, errlen,
			"%s: empty; a gate config has lines of PATTERN "
			"threshold=P%%|alpha=A|gate=on|off, or comments",
			name);
		goto bad;
	}
	for (line = text; *line; line = nl ? nl + 1 : line + strlen(line)) {
		nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		if (config_line(line, c, name, ++lineno, err, errlen))
			goto bad;
		if (!nl)
			break;
	}
	free(text);
	return 0;
bad:
	free(text);
	pt_cmp_config_free(c);
	return -1;
}

int pt_cmp_config_load(const char *path, struct pt_cmp_config *c, char *err, size_t errlen)
{
	FILE *f = pt_open_regular(path, err, errlen);
	int ret;

	memset(c, 0, sizeof(*c));
	if (!f)
		return -1;
	ret = pt_cmp_config_parse(f, path, c, err, errlen);
	fclose(f);
	return ret;
}

void pt_cmp_config_free(struct pt_cmp_config *c)
{
	free(c->rules);
	c->rules = NULL;
	c->n = 0;
}

void pt_cmp_config_lookup(const struct pt_cmp_config *c, const char *name, double *alpha,
			  double *threshold_pct, bool *gate)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->n; i++) {
		if (fnmatch(c->rules[i].glob, name, 0))
			continue;
		if (c->rules[i].has_alpha)
			*alpha = c->rules[i].alpha;
		if (c->rules[i].has_threshold)
			*threshold_pct = c->rules[i].threshold_pct;
		if (c->rules[i].has_gate)
			*gate = c->rules[i].gate;
	}
}

/* ---- the comparison ---- */

static int series_ptr_cmp(const void *pa, const void *pb)
{
	const struct pt_series *const *a = pa, *const *b = pb;

	return pt_series_key_cmp(*a, *b);
}

static const struct pt_series **sorted_ptrs(const struct pt_series *s, size_t n)
{
	const struct pt_series **v = malloc((n ? n : 1) * sizeof(*v));
	size_t i;

	if (!v)
		return NULL;
	for (i = 0; i < n; i++)
		v[i] = &s[i];
	qsort(v, n, sizeof(*v), series_ptr_cmp);
	return v;
}

static bool filtered_out(const struct pt_cmp_opts *o, const struct pt_series *s)
{
	char name[768];

	if (!o->filter)
		return false;
	pt_series_name(s, name, sizeof(name));
	return fnmatch(o->filter, name, 0) != 0;
}

static double change_pct(double base, double cand)
{
	if (base == 0)
		return cand == 0 ? 0 : copysign(INFINITY, cand);
	return (cand - base) / fabs(base) * 100.0;
}

static bool all_equal(const struct pt_series *a, const struct pt_series *b)
{
	double v = a->values[0];
	size_t i;

	for (i = 0; i < a->n; i++)
		if (a->values[i] != v)
			return false;
	for (i = 0; i < b->n; i++)
		if (b->values[i] != v)
			return false;
	return true;
}

/* Yuen's p on logs when every value is > 0 (a ratio of timings is what moves), else on values. */
static double row_p_yuen(const struct pt_cmp_row *w, const double *cand, size_t n)
{
	size_t nb = w->base->n, i;
	double *v = malloc((nb + n + 1) * sizeof(*v));
	bool logs = true;
	struct pt_yuen y;
	double p = -1;

	if (!v)
		return -1;
	for (i = 0; i < nb + n; i++) {
		v[i] = i < nb ? w->base->values[i] : cand[i - nb];
		logs = logs && v[i] > 0;
	}
	for (i = 0; logs && i < nb + n; i++)
		v[i] = log(v[i]);
	if (pt_yuen(v, nb, v + nb, n, PT_CMP_YUEN_TRIM, &y))
		p = w->key->better != PT_NEITHER ? y.p_two / 2 : y.p_two;
	free(v);
	return p;
}

/*
 * The test's p for row w with these new samples. A metric with a better
 * direction is judged one-sided, in the direction the statistic moved:
 * the gate asks "is NEW worse?", and a "worse" verdict then has a false
 * positive rate of alpha, not alpha / 2 as the two-sided test gave it.
 * Half the two-sided p is the one-sided p of the observed direction (the
 * exact rank test, its normal approximation and the t test alike).
 */
static double row_p(const struct pt_cmp_row *w, const double *cand, size_t n)
{
	double p;

	if (w->test == PT_TEST_YUEN)
		return row_p_yuen(w, cand, n);
	p = pt_mann_whitney_p(w->base->values, w->base->n, cand, n);
	if (isnan(p))
		return 1.0; /* identical constant samples: 0/0 in the approximation */
	if (p >= 0 && w->key->better != PT_NEITHER)
		p /= 2;
	return p;
}

/* The smallest p row_p can give for these sample counts: a t test's can be any. */
static double row_min_p(const struct pt_cmp_row *w, size_t nb, size_t nc)
{
	double p;

	if (w->test == PT_TEST_YUEN) {
		size_t need = pt_yuen_min_n(PT_CMP_YUEN_TRIM);

		return nb >= need && nc >= need ? 0 : 1;
	}
	p = pt_mann_whitney_min_p(nb, nc);
	return w->key->better != PT_NEITHER ? p / 2 : p;
}

/* Summaries, alpha/threshold, the raw test; the family is formed later. */
static void row_fill(struct pt_cmp_row *w, const struct pt_cmp_opts *o)
{
	char name[768];

	bool off_by_config = true;

	w->key = w->base ? w->base : w->cand;
	w->test = o->test;
	w->alpha = o->alpha;
	w->threshold_pct = o->threshold_pct;
	w->gated = !o->is_primary || o->is_primary(o->primary_ctx, w->key);
	pt_series_name(w->key, name, sizeof(name));
	pt_cmp_config_lookup(o->config, name, &w->alpha, &w->threshold_pct, &w->gated);
	/* looked up again from "gated": does a rule say gate=off? */
	pt_cmp_config_lookup(o->config, name, &w->alpha, &w->threshold_pct, &off_by_config);
	off_by_config = !off_by_config;
	w->change_pct = NAN;
	w->p = NAN;
	w->p_adj = NAN;
	w->min_p = NAN;
	if (w->base)
		pt_summarize(w->base->values, w->base->n, &w->sb);
	if (w->cand)
		pt_summarize(w->cand->values, w->cand->n, &w->sn);
	if (!w->base || !w->cand) {
		w->verdict = w->base ? PT_V_BASE_ONLY : PT_V_NEW_ONLY;
		return;
	}
	w->change_pct = change_pct(w->sb.median, w->sn.median);
	if (!w->gated) {
		/*
		 * Shown, left out of the family: the config says it is too
		 * noisy, or it is not the metric its case is judged by.
		 */
		w->verdict = off_by_config ? PT_V_UNGATED : PT_V_INFO;
		return;
	}
	if (all_equal(w->base, w->cand)) {
		/*
		 * Every sample on both sides is the same value (a zero count, a
		 * verification ratio): the rank test cannot reach any alpha, so,
		 * as in Tarone's correction for discrete tests, it is left out of
		 * the family rather than diluting the gate for the others.
		 */
		w->p = w->p_adj = 1.0;
		w->verdict = PT_V_SAME;
		return;
	}
	w->min_p = row_min_p(w, w->base->n, w->cand->n);
	if (!(w->min_p < w->alpha)) {
		w->verdict = PT_V_TOO_FEW;
		return;
	}
	w->p = row_p(w, w->cand->values, w->cand->n);
	w->tested = w->p >= 0;
	if (!w->tested)
		w->verdict = PT_V_TOO_FEW;
}

enum pt_verdict pt_cmp_verdict(double p_adj, double alpha, double change_pct, double threshold_pct,
			       enum pt_better better)
{
	bool worse;

	if (!(p_adj < alpha) || !(fabs(change_pct) >= threshold_pct) || change_pct == 0)
		return PT_V_SAME;
	if (better == PT_NEITHER)
		return PT_V_CHANGED;
	worse = (change_pct > 0) == (better == PT_LOWER);
	return worse ? PT_V_WORSE : PT_V_BETTER;
}

static enum pt_verdict row_verdict(const struct pt_cmp_row *w)
{
	return pt_cmp_verdict(w->p_adj, w->alpha, w->change_pct, w->threshold_pct, w->key->better);
}

static int correct_family(struct pt_cmp_result *r)
{
	double *p, *adj;
	size_t i, k = 0;
	bool reachable = false;

	p = malloc((r->n ? r->n : 1) * sizeof(*p));
	adj = malloc((r->n ? r->n : 1) * sizeof(*adj));
	if (!p || !adj) {
		free(p);
		free(adj);
		return -1;
	}
	for (i = 0; i < r->n; i++)
		if (r->rows[i].tested)
			p[k++] = r->rows[i].p;
	r->tested = k;
	if (pt_p_adjust(p, k, r->correction, adj)) {
		free(p);
		free(adj);
		return -1;
	}
	for (i = 0, k = 0; i < r->n; i++) {
		struct pt_cmp_row *w = &r->rows[i];

		if (!w->tested)
			continue;
		w->p_adj = adj[k++];
		w->verdict = row_verdict(w);
		/* Holm's first step needs min_p * m < alpha, or nothing can pass. */
		if (r->correction != PT_CORR_HOLM || w->min_p * (double)r->tested < w->alpha)
			reachable = true;
	}
	r->gate_blind = !reachable && (r->tested || r->too_few);
	free(p);
	free(adj);
	return 0;
}

static void count_verdicts(struct pt_cmp_result *r)
{
	size_t i;

	r->regressions = r->improvements = r->changed = 0;
	r->too_few = r->base_only = r->new_only = r->ungated = 0;
	r->info = r->gated_both = 0;
	for (i = 0; i < r->n; i++) {
		if (r->rows[i].gated && r->rows[i].base && r->rows[i].cand)
			r->gated_both++;
		switch (r->rows[i].verdict) {
		case PT_V_WORSE:
			r->regressions++;
			break;
		case PT_V_BETTER:
			r->improvements++;
			break;
		case PT_V_CHANGED:
			r->changed++;
			break;
		case PT_V_TOO_FEW:
			r->too_few++;
			break;
		case PT_V_BASE_ONLY:
			r->base_only++;
			break;
		case PT_V_NEW_ONLY:
			r->new_only++;
			break;
		case PT_V_UNGATED:
			r->ungated++;
			break;
		case PT_V_INFO:
			r->info++;
			break;
		default:
			break;
		}
	}
}

/* Merge the two sorted lists into rows; one-sided series are kept. */
static size_t merge_rows(const struct pt_series **b, size_t nb, const struct pt_series **c,
			 size_t nc, const struct pt_cmp_opts *o, struct pt_cmp_row *rows)
{
	size_t i = 0, j = 0, n = 0;

	while (i < nb || j < nc) {
		struct pt_cmp_row *w = &rows[n];
		int cmp = i >= nb ? 1 : j >= nc ? -1 : pt_series_key_cmp(b[i], c[j]);

		memset(w, 0, sizeof(*w));
		if (cmp <= 0)
			w->base = b[i++];
		if (cmp >= 0)
			w->cand = c[j++];
		if (filtered_out(o, w->base ? w->base : w->cand))
			continue;
		row_fill(w, o);
		n++;
	}
	return n;
}

int pt_compare(const struct pt_series *base, size_t nb, const struct pt_series *cand, size_t nc,
	       const struct pt_cmp_opts *o, struct pt_cmp_result *r)
{
	const struct pt_series **b = sorted_ptrs(base, nb), **c = sorted_ptrs(cand, nc);
	int ret = -1;

	memset(r, 0, sizeof(*r));
	r->correction = o->correction;
	r->rows = calloc(nb + nc + 1, sizeof(*r->rows));
	if (!b || !c || !r->rows)
		goto out;
	r->n = merge_rows(b, nb, c, nc, o, r->rows);
	count_verdicts(r); /* too_few is needed to tell a blind gate */
	if (correct_family(r))
		goto out;
	count_verdicts(r);
	ret = 0;
out:
	free(b);
	free(c);
	if (ret)
		pt_cmp_result_free(r);
	return ret;
}

void pt_cmp_result_free(struct pt_cmp_result *r)
{
	free(r->rows);
	r->rows = NULL;
	r->n = 0;
}

enum pt_verdict pt_cmp_rejudge(const struct pt_cmp_result *r, size_t i, const double *values,
			       size_t n)
{
	struct pt_cmp_row w = r->rows[i];
	double *p, *adj;
	size_t k, m = 0, at = 0;

	if (!w.tested || !n)
		return w.verdict;
	p = malloc(r->n * sizeof(*p));
	adj = malloc(r->n * sizeof(*adj));
	if (!p || !adj) {
		free(p);
		free(adj);
		return w.verdict;
	}
	pt_summarize(values, n, &w.sn);
	w.change_pct = change_pct(w.sb.median, w.sn.median);
	w.p = row_p(&w, values, n);
	for (k = 0; k < r->n; k++) {
		if (!r->rows[k].tested)
			continue;
		if (k == i)
			at = m;
		p[m++] = k == i ? w.p : r->rows[k].p;
	}
	if (w.p >= 0 && !pt_p_adjust(p, m, r->correction, adj)) {
		w.p_adj = adj[at];
		w.verdict = row_verdict(&w);
	}
	free(p);
	free(adj);
	return w.verdict;
}

size_t pt_cmp_min_samples(double alpha, enum pt_cmp_test test)
{
	size_t n;

	if (test == PT_TEST_YUEN)
		return pt_yuen_min_n(PT_CMP_YUEN_TRIM);
	for (n = 1; n <= 1000; n++)
		if (pt_mann_whitney_min_p(n, n) < alpha)
			return n;
	return 0;
}
