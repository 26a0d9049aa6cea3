// SPDX-License-Identifier: GPL-2.0-only
#include "cli/commands.h"
#include "cli/gate_opts.h"

#include <stdlib.h>
#include <string.h>

#include "util/parse.h"

int pt_gate_option(const char *cmd, int c, const char *arg, struct pt_cmp_opts *o)
{
	switch (c) {
	case 'a':
		if (pt_cmp_parse_alpha(arg, &o->alpha))
			return pt_usage_error(cmd, "--alpha '%s': expected 0 < A < 1", arg);
		return 0;
	case 't':
		if (pt_cmp_parse_pct(arg, &o->threshold_pct))
			return pt_usage_error(cmd, "--threshold '%s': expected a percentage >= 0",
					      arg);
		return 0;
	case 'c':
		if (pt_correction_parse(arg, &o->correction))
			return pt_usage_error(cmd, "--correction '%s': expected holm, bh or none",
					      arg);
		return 0;
	case 'Y':
		if (pt_cmp_test_parse(arg, &o->test))
			return pt_usage_error(cmd, "--test '%s': expected mw or yuen", arg);
		return 0;
	default:
		return pt_usage_error(cmd, "unknown gate option");
	}
}

int pt_factors_option(const char *cmd, const char *arg, int *out)
{
	if (!strcmp(arg, "auto")) {
		*out = -1;
		return 0;
	}
	if (pt_parse_int(arg, 0, PT_POOL_FACTORS_MAX, out))
		return pt_usage_error(cmd, "--factors '%s': expected auto or 0 to %d", arg,
				      PT_POOL_FACTORS_MAX);
	return 0;
}

int pt_trim_option(const char *cmd, const char *arg, struct pt_trim *out)
{
	const char *comma = strchr(arg, ',');
	char lo[64];
	double x, y;

	if (!comma) {
		if (pt_parse_double(arg, 0, 0.5, &x))
			return pt_usage_error(
				cmd, "--trim '%s': expected a fraction from 0 to 0.5, or LO,HI",
				arg);
		*out = (struct pt_trim){ x, x };
		return 0;
	}
	if ((size_t)(comma - arg) >= sizeof(lo) || comma == arg)
		goto bad;
	memcpy(lo, arg, (size_t)(comma - arg));
	lo[comma - arg] = 0;
	if (pt_parse_double(lo, 0, 1, &x) || pt_parse_double(comma + 1, 0, 1, &y))
		goto bad;
	if (x + y > 1 + 1e-12)
		return pt_usage_error(
			cmd, "--trim '%s': the two fractions cut more than the whole sample", arg);
	*out = (struct pt_trim){ x, y };
	return 0;
bad:
	return pt_usage_error(cmd, "--trim '%s': expected LO,HI, two fractions from 0 to 1", arg);
}

int pt_serial_option(const char *cmd, const char *arg, enum pt_pool_serial_mode *mode, double *rho)
{
	double x;

	*rho = 0;
	if (!strcmp(arg, "auto") || !strcmp(arg, "off")) {
		*mode = !strcmp(arg, "auto") ? PT_POOL_SERIAL_AUTO : PT_POOL_SERIAL_OFF;
		return 0;
	}
	if (pt_parse_double(arg, 0, PT_POOL_SERIAL_MAX_RHO, &x))
		return pt_usage_error(cmd,
				      "--serial '%s': expected auto, off or a lag-1 correlation "
				      "from 0 to %g",
				      arg, PT_POOL_SERIAL_MAX_RHO);
	*mode = PT_POOL_SERIAL_FIXED;
	*rho = x;
	return 0;
}

int pt_on_off_option(const char *cmd, const char *name, const char *arg, bool *out)
{
	if (strcmp(arg, "on") && strcmp(arg, "off"))
		return pt_usage_error(cmd, "--%s must be on or off, not '%s'", name, arg);
	*out = !strcmp(arg, "on");
	return 0;
}

int pt_run_effect_option(const char *cmd, const char *arg, bool *on, bool *split)
{
	if (strcmp(arg, "on") && strcmp(arg, "off") && strcmp(arg, "split"))
		return pt_usage_error(cmd, "--run-effect must be on, off or split, not '%s'", arg);
	*on = strcmp(arg, "off") != 0;
	*split = !strcmp(arg, "split");
	return 0;
}

int pt_spread_option(const char *cmd, const char *arg, bool *moderate)
{
	if (strcmp(arg, "series") && strcmp(arg, "moderated"))
		return pt_usage_error(cmd, "--spread must be series or moderated, not '%s'", arg);
	*moderate = !strcmp(arg, "moderated");
	return 0;
}
