// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/kallsyms.h"
#include "util/errf.h"
#include "util/fileio.h"
#include "util/sysfs.h"

/* A kernel with every module loaded lists a few tens of MB; more is not kallsyms. */
#define KALLSYMS_MAX (256u << 20)

static bool is_text(char type)
{
	return type == 't' || type == 'T' || type == 'w' || type == 'W';
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* "ADDR TYPE NAME[\t[MOD]]": the address, type and name cut out; -1 if malformed. */
static int parse_line(char *line, uint64_t *addr, char *type, char **name)
{
	int digits = 0, v;

	*addr = 0;
	for (; (v = hexval(*line)) >= 0; line++, digits++)
		*addr = *addr << 4 | (uint64_t)v;
	if (!digits || digits > 16 || line[0] != ' ' || !line[1] || line[2] != ' ' || !line[3])
		return -1;
	*type = line[1];
	*name = line + 3;
	(*name)[strcspn(*name, "\t ")] = '\0';
	return **name ? 0 : -1;
}

static int by_addr(const void *a, const void *b)
{
	const struct pt_ksym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

int pt_ksyms_parse(struct pt_ksyms *ks, char *text, size_t len, const char *name, char *err,
		   size_t errlen)
{
	size_t cap = 0, zero = 0, listed = 0;
	char *p = text, *end = text + len, *nl, *sym;
	struct pt_ksym *ns;
	uint64_t addr;
	char type;

	memset(ks, 0, sizeof(*ks));
	ks->text = text;
	for (; p < end; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end; /* text[len] is already the NUL */
		else
			*nl = '\0';
		ks->lines++;
		if (nl == p)
			continue;
		if (parse_line(p, &addr, &type, &sym) || (size_t)(sym - text) > UINT32_MAX) {
			pt_errf(err, errlen, "%s:%zu: not 'ADDRESS TYPE NAME'", name, ks->lines);
			pt_ksyms_free(ks);
			return -1;
		}
		if (!is_text(type))
			continue;
		listed++;
		if (!addr) {
			zero++; /* kptr_restrict, or an undefined weak symbol */
			continue;
		}
		if (ks->n == cap) {
			cap = cap ? cap * 2 : 4096;
			ns = realloc(ks->sym, cap * sizeof(*ns));
			if (!ns) {
				pt_errf(err, errlen, "%s: %s", name, strerror(ENOMEM));
				pt_ksyms_free(ks);
				return -1;
			}
			ks->sym = ns;
		}
		ks->sym[ks->n++] =
			(struct pt_ksym){ addr, (uint32_t)(sym - text), (uint32_t)ks->lines };
	}
	ks->restricted = listed && zero == listed;
	if (ks->n)
		qsort(ks->sym, ks->n, sizeof(*ks->sym), by_addr);
	return 0;
}

int pt_ksyms_load(struct pt_ksyms *ks, const char *path, char *err, size_t errlen)
{
	const char *shown = path ? path : "/proc/kallsyms";
	size_t len = 0;
	char *text;
	FILE *f;

	memset(ks, 0, sizeof(*ks));
	f = path ? fopen(path, "r") : pt_sys_fopen("/proc/kallsyms", "r");
	if (!f) {
		pt_errf(err, errlen, "%s: %s", shown, strerror(errno));
		return -1;
	}
	text = pt_read_stream(f, KALLSYMS_MAX, &len);
	fclose(f);
	if (!text) {
		pt_errf(err, errlen, "%s: %s", shown, strerror(errno ? errno : EIO));
		return -1;
	}
	if (len >= KALLSYMS_MAX) {
		free(text);
		pt_errf(err, errlen, "%s: larger than %u MiB", shown, KALLSYMS_MAX >> 20);
		return -1;
	}
	return pt_ksyms_parse(ks, text, len, shown, err, errlen);
}

long pt_ksyms_find(const struct pt_ksyms *ks, uint64_t addr)
{
	size_t lo = 0, hi = ks->n;

	if (!ks->n || addr < ks->sym[0].addr)
		return -1;
	/* the last symbol whose address is <= addr */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (ks->sym[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	return (long)lo;
}

const char *pt_ksyms_name(const struct pt_ksyms *ks, long idx)
{
	if (idx < 0 || (size_t)idx >= ks->n)
		return NULL;
	return ks->text + ks->sym[idx].name;
}

void pt_ksyms_free(struct pt_ksyms *ks)
{
	free(ks->sym);
	free(ks->text);
	memset(ks, 0, sizeof(*ks));
}
