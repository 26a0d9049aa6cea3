// SPDX-License-Identifier: GPL-2.0-only
/* The options every ptbench model walk subcommand shares. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd_walk.h"
#include "cli/commands.h"
#include "util/fileio.h"
#include "util/units.h"

/* A configuration file is a few hundred bytes; this bounds a mistaken one. */
#define CONFIG_MAX (1u << 20)

/* An option's error names it through walk_opt_name(), not by its place here. */
const struct option walk_long_opts[] = {
	{ "pattern", required_argument, NULL, OPT_PATTERN },
	{ "ws", required_argument, NULL, OPT_WS },
	{ "stride", required_argument, NULL, OPT_STRIDE },
	{ "accesses", required_argument, NULL, OPT_ACCESSES },
	{ "warmup", required_argument, NULL, OPT_WARMUP },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "lackey", required_argument, NULL, OPT_LACKEY },
	{ "trace", required_argument, NULL, OPT_TRACE },
	{ "formats", required_argument, NULL, OPT_FORMATS },
	{ "granule", required_argument, NULL, OPT_GRANULE },
	{ "va", required_argument, NULL, OPT_VA },
	{ "thp", no_argument, NULL, OPT_THP },
	{ "pud", no_argument, NULL, OPT_PUD },
	{ "config", required_argument, NULL, OPT_CONFIG },
	{ "set", required_argument, NULL, OPT_SET },
	{ "bench", no_argument, NULL, OPT_BENCH },
	{ "bench-reps", required_argument, NULL, OPT_BENCH_REPS },
	{ "threads", required_argument, NULL, OPT_THREADS },
	{ "results", required_argument, NULL, OPT_RESULTS },
	{ "host-caches", no_argument, NULL, OPT_HOST_CACHES },
	{ "no-host-caches", no_argument, NULL, OPT_NO_HOST_CACHES },
	{ "stage2", required_argument, NULL, OPT_STAGE2 },
	{ "host-backing", required_argument, NULL, OPT_HOST_BACKING },
	{ "ipa", required_argument, NULL, OPT_IPA },
	{ "structures", required_argument, NULL, OPT_STRUCTURES },
	{ "stat", required_argument, NULL, OPT_STAT },
	{ "drop", required_argument, NULL, OPT_DROP },
	{ "output", required_argument, NULL, 'o' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

const char *walk_opt_name(int c)
{
	const struct option *l;

	for (l = walk_long_opts; l->name; l++)
		if (l->val == c)
			return l->name;
	return "?";
}

int walk_parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return errno || *end ? -1 : 0;
}

static int load_config(struct pt_walk_cfg *c, const char *path)
{
	char err[2048], *text;
	size_t len;
	int r;

	/*
	 * pt_read_file refuses a directory, a FIFO or a device (/dev/zero read
	 * as NULs was an empty config: defaults, exit 0) and an oversize file.
	 */
	text = pt_read_file(path, CONFIG_MAX, &len, err, sizeof(err));
	if (!text)
		return pt_usage_error(CMD, "--config %s", err);
	if (memchr(text, '\0', len)) {
		free(text);
		return pt_usage_error(CMD, "--config %s: contains a NUL byte; not a text file",
				      path);
	}
	r = pt_walk_cfg_parse_text(c, text, path, err, sizeof(err));
	free(text);
	return r ? pt_usage_error(CMD, "%s", err) : 0;
}

static int set_key(struct pt_walk_cfg *c, const char *kv)
{
	char key[128], err[2048];
	const char *eq = strchr(kv, '=');

	if (!eq || (size_t)(eq - kv) >= sizeof(key))
		return pt_usage_error(CMD, "--set %s: expected KEY=VALUE", kv);
	memcpy(key, kv, eq - kv);
	key[eq - kv] = 0;
	if (pt_walk_cfg_set(c, key, eq + 1, err, sizeof(err)))
		return pt_usage_error(CMD, "--set: %s", err);
	return 0;
}

int walk_opt_error(const char *sub, int c, char *const *argv)
{
	if (c == ':')
		return pt_usage_error(CMD, "%s%s needs a value", sub, argv[optind - 1]);
	if (c != '?' && strcmp(walk_opt_name(c), "?"))
		return pt_usage_error(CMD, "%s--%s is not an option here; see --help", sub,
				      walk_opt_name(c));
	return pt_usage_error(CMD, "%sunknown option '%s'; see --help", sub, argv[optind - 1]);
}

bool walk_is_config_opt(int c)
{
	return c == OPT_CONFIG || c == OPT_SET || c == OPT_GRANULE || c == OPT_VA ||
	       c == OPT_STAGE2 || c == OPT_HOST_BACKING || c == OPT_IPA;
}

/* --stage2, --host-backing and --ipa: shorthands for their configuration keys. */
static int stage2_opt(int c, const char *arg, struct walk_opts *o)
{
	const char *key = c == OPT_STAGE2 ? "stage2"
			  : c == OPT_IPA  ? "stage2.ipa.bits"
					  : "stage2.backing";
	char err[2048];

	if (pt_walk_cfg_set(&o->cfg, key, arg, err, sizeof(err)))
		return pt_usage_error(CMD, "--%s %s: %s", walk_opt_name(c), arg, err);
	return 0;
}

int walk_config_opt(int c, const char *arg, struct walk_opts *o)
{
	uint64_t v;

	switch (c) {
	case OPT_CONFIG:
		return load_config(&o->cfg, arg);
	case OPT_SET:
		return set_key(&o->cfg, arg);
	case OPT_STAGE2:
	case OPT_HOST_BACKING:
	case OPT_IPA:
		return stage2_opt(c, arg, o);
	case OPT_GRANULE:
		if (pt_granule_parse(arg, &o->cfg.granule_shift))
			return pt_usage_error(CMD, "--granule %s: use 4K, 16K or 64K", arg);
		return 0;
	default:
		if (walk_parse_u64(arg, &v) || v > 64)
			return pt_usage_error(CMD, "--va %s: expected a number of bits", arg);
		o->cfg.va_bits = (unsigned)v;
		return 0;
	}
}
