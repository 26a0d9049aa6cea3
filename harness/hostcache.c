// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>
#include <string.h>

#include "harness/hostcache.h"
#include "util/sysfs.h"
#include "util/units.h"

#define CACHE_DIR "/sys/devices/system/cpu/cpu0/cache"
#define MAX_INDEX 8

void pt_host_cache_size(struct pt_host_cache *c, uint64_t bytes, uint64_t ways)
{
	c->ways = ways;
	c->sets = c->sim_sets = bytes / (64 * ways);
	c->bytes = bytes;
	if (c->sets & (c->sets - 1)) {
		c->sim_sets = 1;
		while (c->sim_sets * 2 <= c->sets)
			c->sim_sets *= 2;
		c->bytes = c->sim_sets * 64 * ways;
	}
}

/* One data or unified cache; 0 when index idx is one, -1 otherwise. */
static int read_index(unsigned idx, struct pt_host_cache *c)
{
	char base[96], path[160], type[32];
	uint64_t level, bytes;

	snprintf(base, sizeof(base), CACHE_DIR "/index%u", idx);
	snprintf(path, sizeof(path), "%s/type", base);
	if (pt_sys_read(path, type, sizeof(type)) < 0 || !strncmp(type, "Instruction", 11))
		return -1;
	snprintf(path, sizeof(path), "%s/level", base);
	if (pt_sys_read_u64(path, &level) || level < 1 || level > PT_CACHE_LEVELS)
		return -1;
	snprintf(path, sizeof(path), "%s/size", base);
	if (pt_sys_read(path, c->size, sizeof(c->size)) < 0)
		return -1;
	c->size[strcspn(c->size, "\n")] = 0;
	snprintf(path, sizeof(path), "%s/ways_of_associativity", base);
	if (pt_size_parse(c->size, &bytes) || pt_sys_read_u64(path, &c->ways) || !c->ways)
		return -1;
	c->level = (unsigned)level;
	pt_host_cache_size(c, bytes, c->ways);
	return 0;
}

size_t pt_host_caches_read(struct pt_host_cache *out, size_t max)
{
	size_t n = 0;
	unsigned i;

	for (i = 0; i < MAX_INDEX && n < max; i++)
		if (!read_index(i, &out[n]))
			n++;
	return n;
}

void pt_host_caches_apply(const struct pt_host_cache *c, size_t n, struct pt_walk_cfg *cfg)
{
	size_t i;

	for (i = 0; i < n; i++) {
		cfg->cache[c[i].level - 1].size_bytes = c[i].bytes;
		cfg->cache[c[i].level - 1].ways = (unsigned)c[i].ways;
	}
}
