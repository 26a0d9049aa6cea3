/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Several runs' walk_model.csv (ptbench model walk calibrate) combined:
 * per case and stage, the median of the runs' D128/D64 predictions and the
 * envelope of their ranges; and how often a set of k runs' envelope holds
 * another run's prediction. One run's range covers its own repetitions and
 * the configurations that pass on it, not what the next run on a drifting
 * host chooses; the combination and its coverage say how far that reaches.
 */
#ifndef PTBENCH_ANALYSIS_WALKCOMBINE_H
#define PTBENCH_ANALYSIS_WALKCOMBINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/walkcalib.h"

#define PT_WALKCOMBINE_MAX_RUNS 64
#define PT_WALKCOMBINE_MAX_CASES 1024
/* a case "has an effect" in a stage when some run predicts D128/D64 this far from 1 */
#define PT_WALKCOMBINE_EFFECT 0.01
/* k-subsets drawn (with a fixed seed) when there are more than this many */
#define PT_WALKCOMBINE_MAX_SUBSETS 4000

struct pt_walkcombine_case {
	char name[64], backing[16];
	uint64_t ws;
	/* per stage and run: the prediction and its range; NAN where the run lacks it */
	double pt[PT_D128_AT_N][PT_WALKCOMBINE_MAX_RUNS];
	double lo[PT_D128_AT_N][PT_WALKCOMBINE_MAX_RUNS];
	double hi[PT_D128_AT_N][PT_WALKCOMBINE_MAX_RUNS];
};

struct pt_walkcombine {
	size_t nruns, ncases;
	char hyp[PT_WALKCOMBINE_MAX_RUNS][64]; /* each run's chosen hypothesis */
	struct pt_walkcombine_case *cases; /* PT_WALKCOMBINE_MAX_CASES */
};

/* Per case and stage, over the runs that predict it. */
struct pt_walkcombine_summary {
	size_t runs;
	double median, pmin, pmax; /* of the runs' predictions */
	double lo, hi; /* the envelope of their ranges */
};

/* Coverage of one stage by k-run envelopes. */
struct pt_walkcombine_coverage {
	size_t k, subsets, points, inside;
	bool sampled; /* subsets drawn, not every one */
};

int pt_walkcombine_init(struct pt_walkcombine *c);
void pt_walkcombine_free(struct pt_walkcombine *c);

/*
 * One run's walk_model.csv text (buf, len; name for messages) added as the
 * next run. -1 with "name:line: problem" in err when it is not one: a
 * missing column, a prediction that is not a number, a range that does not
 * hold its prediction, a case twice, no prediction at all, or too many
 * runs or cases.
 */
int pt_walkcombine_add(struct pt_walkcombine *c, const char *buf, size_t len, const char *name,
		       char *err, size_t errlen);

/* Case i's summary at stage e; runs 0 when no run predicts it. */
void pt_walkcombine_summarize(const struct pt_walkcombine *c, size_t i, enum pt_d128_at e,
			      struct pt_walkcombine_summary *s);

/* Some run predicts case i at stage e at least PT_WALKCOMBINE_EFFECT from 1. */
bool pt_walkcombine_has_effect(const struct pt_walkcombine *c, size_t i, enum pt_d128_at e);

/*
 * Over k-subsets of the runs (every one, or PT_WALKCOMBINE_MAX_SUBSETS
 * drawn): each other run's predictions of the cases with an effect at
 * stage e, and how many fall inside the subset's envelope (the smallest
 * lo to the largest hi of the subset's runs that predict the case). k from
 * 1 to nruns - 1; -1 otherwise.
 */
int pt_walkcombine_cover(const struct pt_walkcombine *c, enum pt_d128_at e, size_t k,
			 struct pt_walkcombine_coverage *cov);

/* The walk_model.csv source of stage e: predicted-d128, -host or -both. */
const char *pt_walkcombine_source(enum pt_d128_at e);

#endif
