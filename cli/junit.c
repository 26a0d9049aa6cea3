// SPDX-License-Identifier: GPL-2.0-only
/* The JUnit XML document: counts, properties, test cases, escaped text. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli/junit.h"
#include "util/xml.h"

struct ju_case *ju_add(struct ju_doc *d, const char *classname, const char *name, enum ju_kind kind)
{
	struct ju_case *c;

	if (d->n == d->cap) {
		size_t cap = d->cap ? 2 * d->cap : 64;
		struct ju_case *nc = realloc(d->cases, cap * sizeof(*nc));

		if (!nc) {
			d->oom = 1;
			return NULL;
		}
		d->cases = nc;
		d->cap = cap;
	}
	c = &d->cases[d->n++];
	memset(c, 0, sizeof(*c));
	snprintf(c->classname, sizeof(c->classname), "%s", classname);
	snprintf(c->name, sizeof(c->name), "%s", name);
	c->kind = kind;
	return c;
}

void ju_prop(struct ju_doc *d, const char *name, const char *fmt, ...)
{
	struct ju_prop *p;
	va_list ap;

	if (d->nprops == d->capprops) {
		size_t cap = d->capprops ? 2 * d->capprops : 32;
		struct ju_prop *np = realloc(d->props, cap * sizeof(*np));

		if (!np) {
			d->oom = 1;
			return;
		}
		d->props = np;
		d->capprops = cap;
	}
	p = &d->props[d->nprops];
	snprintf(p->name, sizeof(p->name), "%s", name);
	va_start(ap, fmt);
	vsnprintf(p->value, sizeof(p->value), fmt, ap);
	va_end(ap);
	if (p->value[0])
		d->nprops++;
}

static void attr(FILE *f, const char *name, const char *value)
{
	fprintf(f, " %s=\"", name);
	pt_xml_escape(f, value, true);
	fputc('"', f);
}

static const char *const elements[] = {
	[JU_FAIL] = "failure",
	[JU_ERROR] = "error",
	[JU_SKIP] = "skipped",
};

static void print_case(const struct ju_case *c, FILE *f)
{
	fputs("    <testcase", f);
	attr(f, "classname", c->classname);
	attr(f, "name", c->name);
	fputs(">\n", f);
	if (c->kind == JU_PASS) {
		fputs("      <system-out>", f);
		pt_xml_escape(f, c->detail, false);
		fputs("</system-out>\n", f);
	} else {
		fprintf(f, "      <%s", elements[c->kind]);
		attr(f, "type", c->type);
		attr(f, "message", c->message);
		fputc('>', f);
		pt_xml_escape(f, c->detail, false);
		fprintf(f, "</%s>\n", elements[c->kind]);
	}
	fputs("    </testcase>\n", f);
}

int ju_print(const struct ju_doc *d, FILE *f)
{
	size_t i, count[JU_SKIP + 1] = { 0 };
	char num[32];

	if (d->oom)
		return -1;
	for (i = 0; i < d->n; i++)
		count[d->cases[i].kind]++;
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites", f);
	attr(f, "name", d->suite);
	fprintf(f, " tests=\"%zu\" failures=\"%zu\" errors=\"%zu\">\n", d->n, count[JU_FAIL],
		count[JU_ERROR]);
	fputs("  <testsuite", f);
	attr(f, "name", d->suite);
	snprintf(num, sizeof(num), "%zu", d->n);
	attr(f, "tests", num);
	snprintf(num, sizeof(num), "%zu", count[JU_FAIL]);
	attr(f, "failures", num);
	snprintf(num, sizeof(num), "%zu", count[JU_ERROR]);
	attr(f, "errors", num);
	snprintf(num, sizeof(num), "%zu", count[JU_SKIP]);
	attr(f, "skipped", num);
	if (d->hostname && d->hostname[0])
		attr(f, "hostname", d->hostname);
	if (d->timestamp && d->timestamp[0])
		attr(f, "timestamp", d->timestamp);
	fputs(">\n    <properties>\n", f);
	for (i = 0; i < d->nprops; i++) {
		fputs("      <property", f);
		attr(f, "name", d->props[i].name);
		attr(f, "value", d->props[i].value);
		fputs("/>\n", f);
	}
	fputs("    </properties>\n", f);
	for (i = 0; i < d->n; i++)
		print_case(&d->cases[i], f);
	fputs("    <system-out>", f);
	pt_xml_escape(f, d->out, false);
	fputs("</system-out>\n  </testsuite>\n</testsuites>\n", f);
	return 0;
}

void ju_free(struct ju_doc *d)
{
	free(d->cases);
	free(d->props);
	d->cases = NULL;
	d->props = NULL;
	d->n = d->cap = d->nprops = d->capprops = 0;
}
