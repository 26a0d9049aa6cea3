// SPDX-License-Identifier: GPL-2.0-only
/*
 * Page-fault workload: the cost of one fault actually taken, for first
 * touches of anonymous memory (write, and read of the zero page), of a
 * private file mapping (read; write, a copy-on-write from the page cache),
 * of a shared file mapping (write), and of copy-on-write in a child after
 * fork. Mapping and unmapping stay outside the timed region. Scaling cases
 * run the anonymous write in several processes or threads at once.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness/pin.h"
#include "harness/procmem.h"
#include "harness/timer.h"
#include "util/params.h"
#include "workloads/fault.h"
#include "workloads/wl_common.h"

#define SHMEM_KNOB "/sys/kernel/mm/transparent_hugepage/shmem_enabled"
#define QUICK_SIZE (64ull << 20)
#define MAX_TASKS 64
#define CHUNK (1u << 20)

static const char *const kind_names[FAULT_NKINDS] = {
	"anon-write",	   "anon-read",		"file-priv-read",
	"file-priv-write", "file-shared-write", "cow-child",
};

const char *fault_kind_name(enum fault_kind k)
{
	return k < FAULT_NKINDS ? kind_names[k] : "unknown";
}

static bool kind_is_file(enum fault_kind k)
{
	return k == FAULT_FILE_PRIV_READ || k == FAULT_FILE_PRIV_WRITE ||
	       k == FAULT_FILE_SHARED_WRITE;
}

static bool kind_writes(enum fault_kind k)
{
	return k != FAULT_ANON_READ && k != FAULT_FILE_PRIV_READ;
}

void fault_bounds(enum fault_kind k, enum pt_backing b, uint64_t pages, uint64_t page, uint64_t pmd,
		  uint64_t mthp, double *lo, double *hi)
{
	uint64_t unit = page;
	double units;

	if (k != FAULT_COW_CHILD && k != FAULT_FILE_PRIV_WRITE) {
		if (b == PT_BACK_THP)
			unit = pmd;
		else if (b == PT_BACK_MTHP && mthp > page)
			unit = mthp;
	}
	units = (double)pages * (double)page / (double)unit;
	/* Fault-around maps up to a PMD span of page cache per read fault. */
	if (k == FAULT_FILE_PRIV_READ && unit == page)
		*lo = (double)pages * (double)page / (double)pmd;
	else
		*lo = unit == page ? units * 0.99 : units * 0.5;
	/* A few faults of the harness itself (stack, rusage) are allowed. */
	*hi = (unit == page ? units * 1.05 : units * 2) + 4;
}

/*
 * One byte per page; volatile so every access happens. Not instrumented by
 * ASan, whose shadow memory would take faults of its own inside the loop.
 */
__attribute__((no_sanitize_address)) static void touch(char *base, size_t len, size_t page,
						       bool write)
{
	volatile char *p = (volatile char *)base;
	size_t off;
	char sum = 0;

	if (write) {
		for (off = 0; off < len; off += page)
			p[off] = 1;
		return;
	}
	for (off = 0; off < len; off += page)
		sum += p[off];
	*(volatile char *)&sum = sum;
}

/* ---- the measured mapping ---------------------------------------------- */

struct target {
	struct wl_region reg; /* anon: the region; file: knobs only */
	char *base;
	size_t len;
	int fd;
};

/* The page cache of len bytes, written through write() so it is up to date. */
static int make_memfd(size_t len, struct pt_rep *r)
{
	static const char zero[CHUNK];
	size_t off;
	int fd = memfd_create("ptbench-fault", MFD_CLOEXEC);

	if (fd < 0) {
		pt_rep_fail(r, "memfd_create: %s", strerror(errno));
		return -1;
	}
	if (ftruncate(fd, (off_t)len))
		goto fail;
	for (off = 0; off < len; off += CHUNK)
		if (pwrite(fd, zero, CHUNK < len - off ? CHUNK : len - off, (off_t)off) <= 0)
			goto fail;
	return fd;
fail:
	pt_rep_fail(r, "populating a memfd of %zu bytes: %s", len, strerror(errno));
	close(fd);
	return -1;
}

/* A file mapping whose start is aligned to the PMD size. */
static char *map_file_aligned(int fd, size_t len, int prot, int flags)
{
	size_t pmd = pt_pmd_size();
	char *raw, *at;

	raw = mmap(NULL, len + pmd, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (raw == MAP_FAILED)
		return NULL;
	at = (char *)(((uintptr_t)raw + pmd - 1) / pmd * pmd);
	if (mmap(at, len, prot, flags | MAP_FIXED, fd, 0) == MAP_FAILED) {
		munmap(raw, len + pmd);
		return NULL;
	}
	if (at > raw)
		munmap(raw, (size_t)(at - raw));
	munmap(at + len, (size_t)(raw + len + pmd - (at + len)));
	return at;
}

/* Is the page cache PMD-mapped where it should be (and only there)? */
static int verify_page_cache(const struct pt_case *c, struct target *t, struct pt_rep *r)
{
	struct pt_smaps_info s;
	char *probe = map_file_aligned(t->fd, t->len, PROT_READ, MAP_SHARED);
	double frac;

	if (!probe)
		return pt_rep_fail(r, "mmap of the memfd: %s", strerror(errno));
	touch(probe, t->len, pt_page_size(), false);
	if (pt_smaps_range(probe, t->len, &s)) {
		munmap(probe, t->len);
		return pt_rep_fail(r, "cannot read /proc/self/smaps");
	}
	munmap(probe, t->len);
	frac = (double)s.file_pmd_bytes / (double)t->len;
	pt_rep_emit(r, "page_cache_pmd_fraction", frac, "ratio", PT_NEITHER);
	if (c->backing == PT_BACK_THP && frac < PT_THP_MIN_FRACTION)
		return pt_rep_fail(r, "THP page cache is PMD-mappable for only %.0f%% of %zu bytes",
				   frac * 100, t->len);
	if (c->backing == PT_BACK_4K && s.file_pmd_bytes)
		return pt_rep_fail(r, "4K case: the page cache has huge pages (shmem_enabled?)");
	return 0;
}

static int open_file_target(const struct pt_case *c, struct target *t, struct pt_rep *r)
{
	enum fault_kind k = fault_case_get(c).kind;
	int flags = k == FAULT_FILE_SHARED_WRITE ? MAP_SHARED : MAP_PRIVATE;
	int ret;

	/* Huge page cache for THP; none for 4K (only root may say so). */
	if (wl_knob_push(&t->reg.knobs, SHMEM_KNOB,
			 c->backing == PT_BACK_THP ? "always" : "never") &&
	    c->backing == PT_BACK_THP)
		return pt_rep_skip(r, "cannot enable THP for shmem (%s): not root?",
				   strerror(errno));
	t->fd = make_memfd(t->len, r);
	if (t->fd < 0)
		return -1;
	ret = verify_page_cache(c, t, r);
	if (ret)
		return ret;
	t->base = map_file_aligned(t->fd, t->len, PROT_READ | PROT_WRITE, flags);
	if (!t->base)
		return pt_rep_fail(r, "mmap of the memfd: %s", strerror(errno));
	madvise(t->base, t->len, c->backing == PT_BACK_4K ? MADV_NOHUGEPAGE : MADV_HUGEPAGE);
	return 0;
}

static int open_target(const struct pt_case *c, size_t len, struct target *t, struct pt_rep *r)
{
	int ret;

	memset(t, 0, sizeof(*t));
	t->fd = -1;
	t->len = len;
	if (kind_is_file(fault_case_get(c).kind))
		return open_file_target(c, t, r);
	ret = wl_region_map(&t->reg, c, len, r);
	t->base = t->reg.base;
	return ret;
}

static void close_target(struct target *t)
{
	if (t->fd >= 0) {
		pt_unmap(t->base, t->len);
		close(t->fd);
		t->reg.base = NULL;
	}
	wl_region_unmap(&t->reg);
}

/* ---- verification ------------------------------------------------------ */

static int verify_faults(const struct pt_case *c, struct pt_rep *r, double faults, uint64_t pages)
{
	double lo, hi;

	fault_bounds(fault_case_get(c).kind, c->backing, pages, pt_page_size(), pt_pmd_size(),
		     c->mthp_size, &lo, &hi);
	if (faults < lo || faults > hi)
		return pt_rep_fail(r, "%.0f faults over %llu pages, expected %.0f..%.0f", faults,
				   (unsigned long long)pages, lo, hi);
	return 0;
}

/* mTHP folios obtained, from kpageflags (root only; otherwise the faults tell). */
static int verify_mthp(struct pt_rep *r, const void *base, size_t len)
{
	struct pt_pagemap_info p;
	double frac;

	if (pt_pagemap_range(base, len, &p))
		return pt_rep_fail(r, "cannot read /proc/self/pagemap");
	if (!p.thp_known || !p.present)
		return 0;
	frac = (double)p.thp_pages / (double)p.present;
	pt_rep_emit(r, "mthp_fraction", frac, "ratio", PT_NEITHER);
	if (frac < PT_THP_MIN_FRACTION)
		return pt_rep_fail(r, "mTHP case got large folios for only %.0f%% of the pages",
				   frac * 100);
	return 0;
}

static int verify_backing(const struct pt_case *c, struct pt_rep *r, const void *base, size_t len)
{
	enum fault_kind k = fault_case_get(c).kind;

	if (kind_is_file(k))
		return 0; /* the page cache was checked before the timed region */
	if (k == FAULT_ANON_READ)
		return 0; /* the zero page: the fault count is the check */
	if (c->backing == PT_BACK_MTHP && k == FAULT_ANON_WRITE)
		return wl_verify_thp(r, PT_BACK_4K, base, len) ?: verify_mthp(r, base, len);
	if (k == FAULT_COW_CHILD && c->backing == PT_BACK_MTHP)
		return verify_mthp(r, base, len);
	return wl_verify_thp(r, c->backing, base, len);
}

static void emit_fault_rates(struct pt_rep *r, double ns, double faults, uint64_t pages)
{
	pt_rep_emit(r, "faults_per_page", faults / (double)pages, "ratio", PT_NEITHER);
	pt_rep_emit(r, "ns_per_page", ns / (double)pages, "ns", PT_LOWER);
	pt_rep_emit(r, "faults_per_sec_per_task", faults / ns * 1e9, "faults/s", PT_HIGHER);
}

/* ---- one task in this process ------------------------------------------ */

static int run_single(const struct pt_case *c, struct pt_rep *r)
{
	uint64_t page = pt_page_size(), pages = c->size / page;
	long vmpte0 = pt_vmpte_kb();
	struct target t;
	double faults;
	int ret;

	ret = open_target(c, c->size, &t, r);
	if (ret)
		goto out;
	pt_rep_begin(r);
	touch(t.base, t.len, page, kind_writes(fault_case_get(c).kind));
	pt_rep_end(r);
	faults = wl_faults_taken(r);
	ret = verify_faults(c, r, faults, pages) ?: verify_backing(c, r, t.base, t.len);
	if (ret)
		goto out;
	pt_rep_emit_per_op(r, faults, "fault");
	emit_fault_rates(r, (double)r->elapsed_ns, faults, pages);
	pt_rep_pgtable_point(r, vmpte0);
out:
	close_target(&t);
	return ret;
}

/* ---- several tasks, or a child after fork ------------------------------ */

struct task_result {
	uint64_t ns;
	long faults;
	double thp_fraction; /* -1: not measured */
	int err;
};

/* What a child process sends back through the result pipe. */
struct task_msg {
	int idx;
	struct task_result res;
};

struct task_set {
	const struct pt_case *c;
	char *given; /* copy-on-write: the parent's populated region */
	int tasks;
	struct task_result res[MAX_TASKS];
	pthread_barrier_t go, done, release;
};

static long faults_of(int who)
{
	struct rusage u;

	getrusage(who, &u);
	return u.ru_minflt + u.ru_majflt;
}

/* The measured touch of one task; its own mapping unless given one. */
static void task_touch(struct task_set *ts, int idx, int rusage_who, struct wl_region *reg,
		       void (*wait_go)(struct task_set *))
{
	struct task_result *res = &ts->res[idx];
	size_t len = ts->c->size;
	struct pt_smaps_info s;
	uint64_t t0;
	char *base;
	long f0;

	pt_pin_thread_nth(idx);
	res->thp_fraction = -1;
	if (!ts->given && wl_region_map(reg, ts->c, len, &(struct pt_rep){ 0 }))
		res->err = ENOMEM;
	base = ts->given ? ts->given : reg->base;
	wait_go(ts);
	f0 = faults_of(rusage_who);
	t0 = pt_now_ns();
	if (base)
		touch(base, len, pt_page_size(), true);
	res->ns = pt_now_ns() - t0;
	res->faults = faults_of(rusage_who) - f0;
	if (base && !ts->given && !pt_smaps_range(base, len, &s))
		res->thp_fraction = (double)s.anon_huge_bytes / (double)len;
}

static void thread_wait_go(struct task_set *ts)
{
	pthread_barrier_wait(&ts->go);
}

struct thread_arg {
	struct task_set *ts;
	int idx;
};

static void *thread_main(void *p)
{
	struct thread_arg *a = p;
	struct wl_region reg = { 0 };

	task_touch(a->ts, a->idx, RUSAGE_THREAD, &reg, thread_wait_go);
	pthread_barrier_wait(&a->ts->done);
	pthread_barrier_wait(&a->ts->release);
	pt_unmap(reg.base, reg.len);
	return NULL;
}

static int run_threads(struct task_set *ts, struct pt_rep *r, long vmpte0)
{
	struct thread_arg args[MAX_TASKS];
	pthread_t tid[MAX_TASKS];
	int i, n = ts->tasks;

	pthread_barrier_init(&ts->go, NULL, (unsigned)n + 1);
	pthread_barrier_init(&ts->done, NULL, (unsigned)n + 1);
	pthread_barrier_init(&ts->release, NULL, (unsigned)n + 1);
	for (i = 0; i < n; i++) {
		args[i] = (struct thread_arg){ ts, i };
		if (pthread_create(&tid[i], NULL, thread_main, &args[i]))
			abort(); /* the barriers cannot be undone */
	}
	pt_rep_begin(r);
	pthread_barrier_wait(&ts->go);
	pthread_barrier_wait(&ts->done);
	pt_rep_end(r);
	pt_rep_pgtable_point(r, vmpte0);
	pthread_barrier_wait(&ts->release);
	for (i = 0; i < n; i++)
		pthread_join(tid[i], NULL);
	pthread_barrier_destroy(&ts->go);
	pthread_barrier_destroy(&ts->done);
	pthread_barrier_destroy(&ts->release);
	return 0;
}

/* Pipes between the parent and its child processes. */
struct proc_pipes {
	int ready[2], go[2], res[2], finish[2];
};

static int read_full(int fd, void *buf, size_t len)
{
	char *p = buf;

	while (len) {
		ssize_t got = read(fd, p, len);

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return -1;
		p += got;
		len -= (size_t)got;
	}
	return 0;
}

static int write_full(int fd, const void *buf, size_t len)
{
	return write(fd, buf, len) == (ssize_t)len ? 0 : -1;
}

static struct proc_pipes *child_pipes;

static void proc_wait_go(struct task_set *ts)
{
	char b = 1;

	(void)ts;
	write_full(child_pipes->ready[1], &b, 1);
	read_full(child_pipes->go[0], &b, 1);
}

static void child_main(struct task_set *ts, struct proc_pipes *pp, int idx)
{
	struct wl_region reg = { 0 };
	struct task_msg msg;
	char b;

	child_pipes = pp;
	close(pp->ready[0]);
	close(pp->go[1]);
	close(pp->res[0]);
	close(pp->finish[1]);
	task_touch(ts, idx, RUSAGE_SELF, &reg, proc_wait_go);
	msg.idx = idx;
	msg.res = ts->res[idx];
	write_full(pp->res[1], &msg, sizeof(msg));
	read_full(pp->finish[0], &b, 1); /* EOF: the parent has stopped its clock */
	_exit(0);
}

static void close_pipes(struct proc_pipes *pp)
{
	int *fds = &pp->ready[0];
	int i;

	for (i = 0; i < 8; i++)
		if (fds[i] >= 0)
			close(fds[i]);
}

static int collect_children(struct task_set *ts, struct proc_pipes *pp, int started)
{
	struct task_msg msg;
	int i, ret = 0;

	for (i = 0; i < started; i++) {
		if (read_full(pp->res[0], &msg, sizeof(msg)) || msg.idx < 0 ||
		    msg.idx >= ts->tasks) {
			ret = -1;
			break;
		}
		ts->res[msg.idx] = msg.res;
	}
	return ret;
}

static int run_processes(struct task_set *ts, struct pt_rep *r)
{
	struct proc_pipes pp;
	pid_t pid[MAX_TASKS];
	int i, started = 0, ret = 0, status;
	char b[MAX_TASKS] = { 0 };

	memset(&pp, -1, sizeof(pp));
	if (pipe(pp.ready) || pipe(pp.go) || pipe(pp.res) || pipe(pp.finish)) {
		close_pipes(&pp);
		return pt_rep_fail(r, "pipe: %s", strerror(errno));
	}
	fflush(NULL); /* a child must not write the parent's buffers */
	for (i = 0; i < ts->tasks; i++) {
		pid[i] = fork();
		if (pid[i] == 0)
			child_main(ts, &pp, i);
		if (pid[i] < 0)
			break;
		started++;
	}
	close(pp.ready[1]);
	close(pp.go[0]);
	close(pp.res[1]);
	close(pp.finish[0]);
	pp.ready[1] = pp.go[0] = pp.res[1] = pp.finish[0] = -1;
	if (read_full(pp.ready[0], b, (size_t)started))
		ret = -1;
	pt_rep_begin(r);
	if (!ret && write_full(pp.go[1], b, (size_t)started))
		ret = -1;
	if (!ret)
		ret = collect_children(ts, &pp, started);
	pt_rep_end(r);
	close_pipes(&pp);
	for (i = 0; i < started; i++)
		if (waitpid(pid[i], &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
			ret = -1;
	if (started < ts->tasks)
		return pt_rep_fail(r, "fork: %s", strerror(errno));
	return ret ? pt_rep_fail(r, "a child task did not report back") : 0;
}

static int verify_tasks(const struct task_set *ts, struct pt_rep *r)
{
	const struct pt_case *c = ts->c;
	uint64_t pages = c->size / pt_page_size();
	double min_frac = 1;
	int i;

	for (i = 0; i < ts->tasks; i++) {
		const struct task_result *t = &ts->res[i];

		if (t->err || !t->ns)
			return pt_rep_fail(r, "task %d could not map its region", i);
		if (verify_faults(c, r, (double)t->faults, pages))
			return -1;
		if (t->thp_fraction >= 0 && t->thp_fraction < min_frac)
			min_frac = t->thp_fraction;
	}
	if (ts->given)
		return 0;
	pt_rep_emit(r, "thp_fraction", min_frac, "ratio", PT_NEITHER);
	if (c->backing == PT_BACK_THP && min_frac < PT_THP_MIN_FRACTION)
		return pt_rep_fail(r, "THP task got huge pages for only %.0f%% of its region",
				   min_frac * 100);
	return 0;
}

/* Per-task latency and throughput, and the total rate over the wall clock. */
static void emit_tasks(const struct task_set *ts, struct pt_rep *r)
{
	uint64_t pages = ts->c->size / pt_page_size();
	double lat = 0, rate = 0, faults = 0, ns = 0;
	int i;

	for (i = 0; i < ts->tasks; i++) {
		const struct task_result *t = &ts->res[i];

		lat += (double)t->ns / (double)t->faults;
		rate += (double)t->faults / (double)t->ns * 1e9;
		faults += (double)t->faults;
		ns += (double)t->ns;
	}
	pt_rep_emit(r, "ns_per_fault", lat / ts->tasks, "ns", PT_LOWER);
	pt_rep_emit(r, "faults_per_page", faults / ((double)pages * ts->tasks), "ratio",
		    PT_NEITHER);
	pt_rep_emit(r, "ns_per_page", ns / ((double)pages * ts->tasks), "ns", PT_LOWER);
	pt_rep_emit(r, "faults_per_sec_per_task", rate / ts->tasks, "faults/s", PT_HIGHER);
	if (r->elapsed_ns)
		pt_rep_emit(r, "faults_per_sec_total", faults / (double)r->elapsed_ns * 1e9,
			    "faults/s", PT_HIGHER);
	/* a profiled repetition: the CPU time of every task, per fault of all of them */
	pt_rep_emit_profile(r, faults, "fault");
}

static int run_tasks(const struct pt_case *c, struct pt_rep *r)
{
	const struct fault_case d = fault_case_get(c);
	struct task_set *ts = calloc(1, sizeof(*ts));
	long vmpte0 = pt_vmpte_kb();
	int ret;

	if (!ts)
		return pt_rep_fail(r, "out of memory");
	ts->c = c;
	ts->tasks = d.tasks > 1 ? d.tasks : 1;
	if (ts->tasks > MAX_TASKS)
		ts->tasks = MAX_TASKS;
	ret = d.threads ? run_threads(ts, r, vmpte0) : run_processes(ts, r);
	if (!ret)
		ret = verify_tasks(ts, r);
	if (!ret)
		emit_tasks(ts, r);
	free(ts);
	return ret;
}

/* The parent populates; a child writes every page (copy-on-write). */
static int run_cow(const struct pt_case *c, struct pt_rep *r)
{
	struct task_set *ts;
	long vmpte0 = pt_vmpte_kb();
	struct target t;
	int ret;

	ret = open_target(c, c->size, &t, r);
	if (ret)
		goto out;
	touch(t.base, t.len, pt_page_size(), true);
	ret = verify_backing(c, r, t.base, t.len);
	if (ret)
		goto out;
	ts = calloc(1, sizeof(*ts));
	if (!ts) {
		ret = pt_rep_fail(r, "out of memory");
		goto out;
	}
	ts->c = c;
	ts->tasks = 1;
	ts->given = t.base;
	ret = run_processes(ts, r) ?: verify_tasks(ts, r);
	if (!ret) {
		emit_tasks(ts, r);
		pt_rep_pgtable_point(r, vmpte0);
	}
	free(ts);
out:
	close_target(&t);
	return ret;
}

static int fault_run(const struct pt_case *c, struct pt_rep *r)
{
	const struct fault_case d = fault_case_get(c);

	if (d.kind == FAULT_COW_CHILD)
		return run_cow(c, r);
	if (d.tasks > 1)
		return run_tasks(c, r);
	return run_single(c, r);
}

/* ---- cases ------------------------------------------------------------- */

static void add_case(struct pt_case *out, size_t max, size_t *n, enum fault_kind k,
		     enum pt_backing b, uint64_t mthp, uint64_t size, int tasks, bool threads)
{
	struct fault_case d = { k, tasks > 1 ? tasks : 1, threads };
	struct pt_case *c = wl_case_next(out, max, n, b, size);
	char sz[32], back[32], suffix[32] = "";
	struct pt_params p;

	if (!c)
		return;
	c->mthp_size = b == PT_BACK_MTHP ? mthp : 0;
	fault_case_set(c, &d);
	pt_size_name(size, sz, sizeof(sz));
	wl_backing_label(c, back, sizeof(back));
	if (tasks > 1)
		snprintf(suffix, sizeof(suffix), "-%d%s", tasks, threads ? "threads" : "procs");
	snprintf(c->name, sizeof(c->name), "%s-%.12s-%.10s%.14s", fault_kind_name(k), back, sz,
		 suffix);
	pt_params_init(&p);
	pt_params_str(&p, "backing", back);
	pt_params_str(&p, "kind", fault_kind_name(k));
	pt_params_size(&p, "size", size);
	pt_params_str(&p, "task", threads ? "thread" : "process");
	pt_params_int(&p, "tasks", d.tasks);
	pt_params_render(&p, c->params, sizeof(c->params));
	c->mem_bytes =
		size * (uint64_t)(tasks > 1 ? tasks : 1) * (kind_is_file(k) ? 2 : 1) + (8u << 20);
	if (k == FAULT_COW_CHILD)
		c->mem_bytes += size;
}

/*
 * The page cache holds folios up to order 11 (MAX_PAGECACHE_ORDER: two
 * levels of 64-slot xarray nodes, since 6.10 and in 6.1.y): no PMD-sized
 * shmem folio under arm64 64K pages (order 13), where shmem never even
 * tries (thp_file_alloc and thp_file_fallback stay 0).
 */
#define MAX_PAGECACHE_ORDER 11

static bool pmd_page_cache(const struct pt_suite_opts *o)
{
	return !o->page_size || o->pmd_size / o->page_size <= 1ull << MAX_PAGECACHE_ORDER;
}

/* Every kind at one size: 4K, THP and the mTHP size where it applies. */
static void add_kinds(const struct pt_suite_opts *o, struct pt_case *out, size_t max, size_t *n,
		      uint64_t size, bool with_mthp)
{
	uint64_t mthp = with_mthp ? wl_mthp_size(o) : 0;
	int k;

	for (k = 0; k < FAULT_NKINDS; k++) {
		add_case(out, max, n, k, PT_BACK_4K, 0, size, 1, false);
		if (kind_is_file(k) && (!o->is_root || !pmd_page_cache(o)))
			continue; /* huge page cache needs the shmem knob */
		add_case(out, max, n, k, PT_BACK_THP, 0, size, 1, false);
		/* mTHP: anonymous memory only (no mTHP zero page; memfd ignores the knobs). */
		if (mthp && (k == FAULT_ANON_WRITE || k == FAULT_COW_CHILD))
			add_case(out, max, n, k, PT_BACK_MTHP, mthp, size, 1, false);
	}
}

/*
 * will-it-scale style: 2 and all cores (1 is the plain case), processes and
 * threads, each task its own region of size (less where --max-mem says so).
 */
static void add_scaling(const struct pt_suite_opts *o, struct pt_case *out, size_t max, size_t *n,
			uint64_t size, enum pt_backing b)
{
	int counts[2] = { 2, o->ncpus < MAX_TASKS ? o->ncpus : MAX_TASKS }, i;
	uint64_t each;

	for (i = 0; i < 2; i++) {
		if (counts[i] < 2 || (i == 1 && counts[1] == counts[0]))
			continue;
		each = o->max_mem / (uint64_t)counts[i] / o->pmd_size * o->pmd_size;
		if (!each)
			continue;
		each = each < size ? each : size;
		add_case(out, max, n, FAULT_ANON_WRITE, b, 0, each, counts[i], false);
		add_case(out, max, n, FAULT_ANON_WRITE, b, 0, each, counts[i], true);
	}
}

static int fault_cases(const struct pt_suite_opts *o, struct pt_case *out, size_t max)
{
	uint64_t size = wl_fit_size(o, QUICK_SIZE), s;
	size_t n = 0;

	if (o->suite == PT_SUITE_CI) {
		add_case(out, max, &n, FAULT_ANON_WRITE, PT_BACK_4K, 0, size, 1, false);
		add_case(out, max, &n, FAULT_ANON_WRITE, PT_BACK_THP, 0, size, 1, false);
		add_case(out, max, &n, FAULT_ANON_READ, PT_BACK_4K, 0, size, 1, false);
		add_case(out, max, &n, FAULT_FILE_SHARED_WRITE, PT_BACK_4K, 0, size, 1, false);
		add_case(out, max, &n, FAULT_COW_CHILD, PT_BACK_4K, 0, size, 1, false);
		add_case(out, max, &n, FAULT_ANON_WRITE, PT_BACK_4K, 0, size, 2, true);
		return (int)n;
	}
	if (o->suite == PT_SUITE_FULL) {
		for (s = size; s <= o->max_mem && s <= (1ull << 30); s *= 4)
			add_kinds(o, out, max, &n, s, true);
	} else {
		add_kinds(o, out, max, &n, size, true);
	}
	add_scaling(o, out, max, &n, size, PT_BACK_4K);
	add_scaling(o, out, max, &n, size, PT_BACK_THP);
	return (int)n;
}

const struct pt_workload pt_wl_fault = {
	.name = "fault",
	.primary_metric = "ns_per_fault",
	.control = "cpu-loop",
	.profile = true,
	.summary = "page faults: ns per fault taken, anon/file/COW, 4K/THP/mTHP, 1..N tasks",
	.help = "cases: <kind>-<backing>-<size>[-<n>procs|-<n>threads]\n"
		"  kind: anon-write (first touch), anon-read (zero page), file-priv-read,\n"
		"        file-priv-write (COW from the page cache), file-shared-write,\n"
		"        cow-child (a forked child writes the parent's populated region)\n"
		"  backing: 4k, thp, mthp64K (root, anon-write and cow-child only)\n"
		"  size: quick and ci 64M, full 64M..1G by 4x (capped by --max-mem)\n"
		"  <n>procs/<n>threads: anon-write at 2 and all cores, each task its own region\n"
		"verified: faults per page within the bounds of the kind and backing\n"
		"  (base pages 0.99..1.05); thp and mthp >= 90% huge; file thp: the page\n"
		"  cache PMD-mappable (page_cache_pmd_fraction >= 0.9)\n"
		"metrics: ns_per_fault, ns_per_page, faults_per_page, faults_per_sec_per_task,\n"
		"  faults_per_sec_total (tasks), ticks_per_fault, <event>_per_fault,\n"
		"  thp_fraction, mthp_fraction, page_cache_pmd_fraction, pgtable_*",
	.cases = fault_cases,
	.run = fault_run,
};
