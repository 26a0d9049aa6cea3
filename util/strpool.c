// SPDX-License-Identifier: GPL-2.0-only
#include <stdlib.h>
#include <string.h>

#include "util/strpool.h"

const char *pt_strpool_add(struct pt_strpool *p, const char *s)
{
	char *copy;

	if (p->n == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 1024;
		char **ns = realloc(p->s, cap * sizeof(*ns));

		if (!ns)
			return NULL;
		p->s = ns;
		p->cap = cap;
	}
	copy = strdup(s ? s : "");
	if (copy)
		p->s[p->n++] = copy;
	return copy;
}

void pt_strpool_free(struct pt_strpool *p)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		free(p->s[i]);
	free(p->s);
	*p = (struct pt_strpool){ 0 };
}
