// SPDX-License-Identifier: GPL-2.0-only
#include <stdlib.h>

#include "util/dvec.h"

int pt_dvec_push(struct pt_dvec *d, double x)
{
	if (d->n == d->cap) {
		/* doubling keeps a long series to few copies */
		size_t cap = d->cap ? 2 * d->cap : 64;
		double *nv = realloc(d->v, cap * sizeof(*nv));

		if (!nv)
			return -1;
		d->v = nv;
		d->cap = cap;
	}
	d->v[d->n++] = x;
	return 0;
}

void pt_dvec_free(struct pt_dvec *d)
{
	free(d->v);
	*d = (struct pt_dvec){ 0 };
}
