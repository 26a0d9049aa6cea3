/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Configuration of the TLB / walk simulator: structure sizes and latencies.
 * Every key has a default modelled on an Arm Neoverse V2 core (docs/walk.md
 * gives the source of each, or says it is an assumption).
 */
#ifndef PTBENCH_MODEL_WALK_CFG_H
#define PTBENCH_MODEL_WALK_CFG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/cachesim.h"

/* Latency parameters, in core cycles; the cost model is linear in them. */
enum pt_lat {
	PT_LAT_L1,
	PT_LAT_L2,
	PT_LAT_LLC,
	PT_LAT_MEM,
	PT_LAT_L1TLB,
	PT_LAT_L2TLB,
	PT_LAT_PWC,
	PT_LAT_WALK,
	PT_LAT_WALK2, /* per stage-2 (host) walk, on top of its fetches */
	PT_LAT_N
};

enum pt_pwc_tag { PT_PWC_VA = 0, PT_PWC_PA = 1 };

/* Walk-cache size groups by height above the leaf: 1 (pmd), 2 (pud), 3+. */
#define PT_PWC_GROUPS 3
/*
 * The most entries others may insert into the L2 TLB per lookup
 * (tlb.l2.evictions): 64 empties a 4096-entry TLB every 64 lookups, and
 * each costs the simulator an insert.
 */
#define PT_WALK_MAX_EVICTIONS 64

/*
 * Stage 2 (nested paging, model/walk_nested.h). format < 0: none, the
 * one-stage model. The host's levels come from its format, granule and IPA
 * size; block_h is the host's leaf height for all guest memory (0: 4K
 * pages, 1: PMD blocks, e.g. THP-backed guest RAM).
 */
enum pt_guest_layout { PT_LAYOUT_SCATTER = 0, PT_LAYOUT_LINEAR = 1 };

struct pt_stage2_cfg {
	int format; /* -1 none, else enum pt_format */
	unsigned granule_shift, ipa_bits, block_h;
	uint64_t tlb_entries; /* nested TLB (IPA -> PA) */
	unsigned tlb_ways;
	uint64_t pwc_entries[PT_PWC_GROUPS]; /* host walk caches, per level */
	uint64_t guest_ram; /* bytes of guest-physical data memory, a power of two */
	enum pt_guest_layout layout;
};

struct pt_walk_cfg {
	uint64_t l1tlb_entries, l2tlb_entries;
	unsigned l1tlb_ways, l2tlb_ways;
	bool tlb_random; /* the L2 TLB's victims random, not LRU (tlb.replacement) */
	bool l1tlb_random; /* the L1 TLB's (tlb.replacement, then tlb.l1.replacement) */
	/* entries others insert into the L2 TLB per lookup, each displacing one (tlb.l2.evictions) */
	double l2tlb_evictions;
	enum pt_pwc_tag pwc_tag;
	uint64_t pwc_entries[PT_PWC_GROUPS]; /* VA-tagged, per level */
	unsigned pwc_ways;
	uint64_t pwc_pa_entries; /* PA-tagged, shared by all levels */
	bool cache_on;
	struct pt_cache_level_cfg cache[PT_CACHE_LEVELS];
	/*
	 * Lines per aligned block a data load's miss past the L2 brings into
	 * the L2 and the LLC (cache.prefetch.lines: 1, 2, 4 or 8; 1 is none):
	 * a spatial prefetcher. A chase that uses one line per page then fills
	 * the caches with neighbours it never reads; the dense control reads
	 * them. The walker's fetches are not prefetched.
	 */
	unsigned prefetch_lines;
	double lat[PT_LAT_N]; /* cycles */
	double ghz;
	unsigned va_bits;
	unsigned granule_shift;
	/*
	 * The hardware walks a shadow of the guest's tables, built by a host
	 * that backs the guest with 4K pages (PVM, or shadow paging in general):
	 * no leaf is larger than 4K whatever the guest maps.
	 */
	bool shadow;
	struct pt_stage2_cfg s2;
};

void pt_walk_cfg_default(struct pt_walk_cfg *c);
/*
 * Set one key from its text value. 0; -1 unknown key; -2 bad value (a
 * message in err in both cases).
 */
int pt_walk_cfg_set(struct pt_walk_cfg *c, const char *key, const char *value, char *err,
		    size_t errlen);
/* "key = value" lines, '#' comments. 0, or -1 with "name:line: ..." in err. */
int pt_walk_cfg_parse_text(struct pt_walk_cfg *c, const char *text, const char *name, char *err,
			   size_t errlen);
/* The valid keys, for messages and --help; NULL after the last. */
const char *pt_walk_cfg_key(size_t i);
/* The current value of key i as text ("" past the end). */
void pt_walk_cfg_value(const struct pt_walk_cfg *c, size_t i, char *out, size_t len);

const char *pt_lat_key(enum pt_lat l);

#endif
