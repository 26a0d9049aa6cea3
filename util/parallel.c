// SPDX-License-Identifier: GPL-2.0-only
/* Independent jobs shared among one thread per CPU (parallel.h). */
#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

#include "util/parallel.h"

struct pool {
	int (*job)(void *arg, size_t k);
	void *arg;
	size_t n;
	atomic_size_t next;
	atomic_int failed;
};

/* Each worker takes the next job until none is left or one has failed. */
static void *worker(void *arg)
{
	struct pool *p = arg;
	size_t k;

	while (!atomic_load(&p->failed) && (k = atomic_fetch_add(&p->next, 1)) < p->n)
		if (p->job(p->arg, k))
			atomic_store(&p->failed, 1);
	return NULL;
}

int pt_parallel_for(size_t n, int (*job)(void *arg, size_t k), void *arg)
{
	pthread_t th[PT_PARALLEL_MAX_THREADS];
	struct pool p = { .job = job, .arg = arg, .n = n };
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t nt = cpus > 1 ? (size_t)cpus : 1, k, started = 0;

	if (nt > PT_PARALLEL_MAX_THREADS)
		nt = PT_PARALLEL_MAX_THREADS;
	if (nt > n)
		nt = n ? n : 1;
	atomic_init(&p.next, 0);
	atomic_init(&p.failed, 0);
	/* the calling thread is one of the workers; a thread that cannot start is one fewer */
	for (k = 1; k < nt; k++)
		if (!pthread_create(&th[started], NULL, worker, &p))
			started++;
	worker(&p);
	for (k = 0; k < started; k++)
		pthread_join(th[k], NULL);
	return atomic_load(&p.failed) ? -1 : (int)(started + 1);
}
