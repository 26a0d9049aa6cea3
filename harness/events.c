// SPDX-License-Identifier: GPL-2.0-only
#include <ctype.h>
#include <perfmon/pfmlib_perf_event.h>
#include <stdio.h>
#include <string.h>

#include "harness/events.h"
#include "util/sysfs.h"

static int pfm_ready(void)
{
	static int state; /* 0 not tried, 1 ok, -1 failed */

	if (!state)
		state = pfm_initialize() == PFM_SUCCESS ? 1 : -1;
	return state > 0;
}

/* The kernel's own event list: /sys/bus/event_source/devices/<pmu>/events/<name>. */
static int resolve_sysfs_event(const char *name, struct pt_event_code *code)
{
	static const char *const pmus[] = { "armv8_pmuv3_0", "armv8_pmuv3", "cpu", "cpu_core" };
	char lower[96], path[256], buf[128];
	unsigned long long hex;
	uint64_t type;
	size_t i;

	for (i = 0; name[i] && i < sizeof(lower) - 1; i++)
		lower[i] = (char)tolower((unsigned char)name[i]);
	lower[i] = '\0';
	for (i = 0; i < sizeof(pmus) / sizeof(pmus[0]); i++) {
		snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/events/%s", pmus[i],
			 lower);
		if (pt_sys_read(path, buf, sizeof(buf)) < 0 || sscanf(buf, "event=%llx", &hex) != 1)
			continue;
		snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type", pmus[i]);
		if (pt_sys_read_u64(path, &type))
			continue;
		code->type = (uint32_t)type;
		code->config = hex;
		return 0;
	}
	return -1;
}

int pt_event_resolve(const char *name, struct pt_event_code *code, char *err, size_t errlen)
{
	struct perf_event_attr attr_buf, *attr = &attr_buf;
	pfm_perf_encode_arg_t arg;
	char alt[96];
	int ret;

	memset(attr, 0, sizeof(*attr));
	if (!pfm_ready()) {
		snprintf(err, errlen, "libpfm4 failed to initialise");
		return -1;
	}
	memset(&arg, 0, sizeof(arg));
	arg.attr = attr;
	arg.size = sizeof(arg);
	ret = pfm_get_os_event_encoding(name, PFM_PLM3, PFM_OS_PERF_EVENT_EXT, &arg);
	if (ret != PFM_SUCCESS && strchr(name, '.') && strlen(name) < sizeof(alt)) {
		/* perf spells Intel umasks EVENT.UMASK; libpfm4 wants EVENT:UMASK. */
		snprintf(alt, sizeof(alt), "%s", name);
		*strchr(alt, '.') = ':';
		memset(attr, 0, sizeof(*attr));
		ret = pfm_get_os_event_encoding(alt, PFM_PLM3, PFM_OS_PERF_EVENT_EXT, &arg);
	}
	if (ret != PFM_SUCCESS) {
		memset(attr, 0, sizeof(*attr));
		memset(code, 0, sizeof(*code));
		if (!resolve_sysfs_event(name, code))
			return 0;
		snprintf(err, errlen, "unknown event '%s': %s", name, pfm_strerror(ret));
		return -1;
	}
	memset(code, 0, sizeof(*code));
	code->type = attr->type;
	code->config = attr->config;
	code->config1 = attr->config1;
	code->config2 = attr->config2;
	code->exclude_user = attr->exclude_user;
	code->exclude_kernel = attr->exclude_kernel;
	code->exclude_hv = attr->exclude_hv;
	return 0;
}
