// SPDX-License-Identifier: GPL-2.0-only
/* How many repetitions fit a run's time budget (runbudget.h). */
#include <math.h>

#include "harness/runbudget.h"

int pt_budget_reps(const struct pt_budget_in *in)
{
	int floor_reps = in->reps < PT_BUDGET_MIN_REPS ? in->reps : PT_BUDGET_MIN_REPS;
	int done_reps = in->rounds_done > in->warmup ? in->rounds_done - in->warmup : 0;
	double left = in->budget_s * (1 - PT_BUDGET_HEADROOM) - in->elapsed_s - in->profile_s;
	double rounds;
	int reps;

	if (!(in->round_s > 0) || !(in->budget_s > 0))
		return in->reps;
	rounds = floor(left / in->round_s);
	/* the warm-up rounds not yet run come out of the same time */
	if (in->rounds_done < in->warmup)
		rounds -= in->warmup - in->rounds_done;
	reps = rounds > in->reps ? in->reps : done_reps + (rounds > 0 ? (int)rounds : 0);
	if (reps > in->reps)
		reps = in->reps;
	if (reps < floor_reps)
		reps = floor_reps;
	return reps < done_reps ? done_reps : reps;
}
