/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A JUnit XML document as CI servers read it (Jenkins, GitLab): one
 * <testsuite> of <testcase>s inside <testsuites>, each case passed, failed,
 * in error or skipped, with the suite's settings and inputs as <properties>.
 * The shape follows tests/fixtures/junit.xsd. compare_junit.c fills it.
 */
#ifndef PTBENCH_CLI_JUNIT_H
#define PTBENCH_CLI_JUNIT_H

#include <limits.h>
#include <stddef.h>
#include <stdio.h>

enum ju_kind { JU_PASS, JU_FAIL, JU_ERROR, JU_SKIP };

struct ju_case {
	char classname[256]; /* the workload */
	char name[512]; /* case/metric: stable from run to run */
	enum ju_kind kind;
	char type[32]; /* failure/error/skipped type: "regression", "too-few", ... */
	char message[512]; /* one line: the attribute */
	char detail[1024]; /* the element's text; a passing case's system-out */
};

struct ju_prop {
	char name[64];
	char value[PATH_MAX + 64];
};

struct ju_doc {
	const char *suite; /* the testsuite's name */
	const char *hostname, *timestamp; /* "" or NULL: left out */
	struct ju_case *cases;
	size_t n, cap;
	struct ju_prop *props;
	size_t nprops, capprops;
	char out[3 * PATH_MAX]; /* the suite's system-out: the gate's summary */
	int oom; /* an allocation failed: the document is incomplete */
};

/* A new case at the end (zeroed); NULL when out of memory. */
struct ju_case *ju_add(struct ju_doc *d, const char *classname, const char *name,
		       enum ju_kind kind);
/* A property; an empty value is left out (the schema wants one). */
void ju_prop(struct ju_doc *d, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The document; -1 when it could not be built (out of memory). */
int ju_print(const struct ju_doc *d, FILE *f);
void ju_free(struct ju_doc *d);

#endif
