// SPDX-License-Identifier: GPL-2.0-only
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "harness/damon.h"
#include "harness/env.h"
#include "harness/virt.h"
#include "util/json.h"
#include "util/sysfs.h"

#define THP_DIR "/sys/kernel/mm/transparent_hugepage"

/* Find "key=value" in the kernel config, gzip'd or plain. */
static int kconfig_search(const char *path, const char *key, char *val, size_t len)
{
	char real[1024], line[512];
	size_t klen = strlen(key);
	gzFile gz;
	int found = -1;

	if (pt_sys_path(path, real, sizeof(real)) || access(real, R_OK))
		return -2;
	gz = gzopen(real, "r"); /* reads plain files too */
	if (!gz)
		return -2;
	while (gzgets(gz, line, sizeof(line))) {
		if (strncmp(line, key, klen) || line[klen] != '=')
			continue;
		line[strcspn(line, "\n")] = '\0';
		snprintf(val, len, "%s", line + klen + 1);
		found = 0;
		break;
	}
	gzclose(gz);
	return found;
}

int pt_kconfig_get(const char *key, char *val, size_t len)
{
	char release[128], path[256];
	int ret = kconfig_search("/proc/config.gz", key, val, len);

	if (ret != -2)
		return ret;
	if (pt_sys_read("/proc/sys/kernel/osrelease", release, sizeof(release)) < 0)
		return -2;
	snprintf(path, sizeof(path), "/boot/config-%s", release);
	return kconfig_search(path, key, val, len);
}

static bool kconfig_yes(const char *key)
{
	char v[16];

	return !pt_kconfig_get(key, v, sizeof(v)) && !strcmp(v, "y");
}

static long kconfig_long(const char *key, long dflt)
{
	char v[32];

	return pt_kconfig_get(key, v, sizeof(v)) ? dflt : strtol(v, NULL, 0);
}

static bool cpuinfo_has_flag(const char *flag)
{
	char line[4096];
	bool found = false;
	FILE *f = pt_sys_fopen("/proc/cpuinfo", "r");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		char *tok, *save = NULL;

		if (strncmp(line, "flags", 5))
			continue;
		for (tok = strtok_r(strchr(line, ':'), " :\n", &save); tok;
		     tok = strtok_r(NULL, " \n", &save))
			if (!strcmp(tok, flag))
				found = true;
		break;
	}
	fclose(f);
	return found;
}

/* arm64 base page size from the config, else from the PMD size. */
static uint64_t arm64_page_size(uint64_t pmd)
{
	static const unsigned shifts[] = { 12, 14, 16 };
	size_t i;

	if (kconfig_yes("CONFIG_ARM64_4K_PAGES"))
		return 4096;
	if (kconfig_yes("CONFIG_ARM64_16K_PAGES"))
		return 16384;
	if (kconfig_yes("CONFIG_ARM64_64K_PAGES"))
		return 65536;
	/* A PMD block maps page * page / descriptor bytes: unique per granule. */
	for (i = 0; i < 3; i++) {
		uint64_t page = 1ull << shifts[i];

		if (pmd == page * page / 8 || pmd == page * page / 16)
			return page;
	}
	return pt_sysroot()[0] ? 0 : (uint64_t)sysconf(_SC_PAGESIZE);
}

static void detect_arm64(struct pt_regime *r)
{
	char v[16];

	r->page_size = arm64_page_size(r->pmd_size);
	if (!pt_kconfig_get("CONFIG_ARM64_D128", v, sizeof(v)))
		r->format = !strcmp(v, "y") ? PT_D128 : PT_D64;
	else if (r->page_size && r->pmd_size == r->page_size * r->page_size / 16)
		r->format = PT_D128;
	else
		r->format = PT_D64;
	r->va_bits = (unsigned)kconfig_long("CONFIG_ARM64_VA_BITS", 48);
}

static void detect_x86(struct pt_regime *r)
{
	bool five = kconfig_long("CONFIG_PGTABLE_LEVELS", 4) == 5 && cpuinfo_has_flag("la57");

	r->page_size = pt_sysroot()[0] ? 4096 : (uint64_t)sysconf(_SC_PAGESIZE);
	r->format = PT_D64;
	r->va_bits = five ? 57 : 48;
	r->levels = five ? 5 : 4;
}

static unsigned granule_shift(uint64_t page)
{
	unsigned s = 0;

	while ((1ull << s) < page)
		s++;
	return s;
}

static void describe(struct pt_regime *r)
{
	char g[24];

	if (!strcmp(r->arch, "x86_64")) {
		snprintf(r->text, sizeof(r->text), "x86-64 %u-level%s", r->levels,
			 r->levels == 4 ? " (same geometry as arm64 4K D64 VA48)" : "");
		return;
	}
	snprintf(g, sizeof(g), "%lluK", (unsigned long long)(r->page_size >> 10));
	snprintf(r->text, sizeof(r->text), "%s %s %s VA%u, %u levels",
		 !strcmp(r->arch, "aarch64") ? "arm64" : r->arch, g, pt_format_name(r->format),
		 r->va_bits, r->levels);
}

int pt_regime_detect(struct pt_regime *r)
{
	struct pt_geometry geo;
	char err[128], v[8];

	memset(r, 0, sizeof(*r));
	if (pt_sys_read("/proc/sys/kernel/arch", r->arch, sizeof(r->arch)) < 0)
		return -1;
	if (pt_sys_read_u64(THP_DIR "/hpage_pmd_size", &r->pmd_size))
		r->pmd_size = 0;
	r->config_known = pt_kconfig_get("CONFIG_PGTABLE_LEVELS", v, sizeof(v)) != -2;
	if (!strcmp(r->arch, "x86_64")) {
		detect_x86(r);
	} else if (!strcmp(r->arch, "aarch64")) {
		detect_arm64(r);
		if (!r->page_size)
			return -1;
		r->levels = (unsigned)kconfig_long("CONFIG_PGTABLE_LEVELS", 0);
		if (!r->levels && !pt_geometry_make(&geo, r->format, granule_shift(r->page_size),
						    r->va_bits, err, sizeof(err)))
			r->levels = geo.nlevels;
	} else {
		r->page_size = (uint64_t)sysconf(_SC_PAGESIZE);
		r->levels = (unsigned)kconfig_long("CONFIG_PGTABLE_LEVELS", 0);
	}
	describe(r);
	return 0;
}

bool pt_env_has_hw_pmu(void)
{
	static const char *const pmus[] = { "cpu", "cpu_core", "cpu_atom", "armv8_pmuv3",
					    "armv8_pmuv3_0" };
	char path[128];
	size_t i;

	for (i = 0; i < sizeof(pmus) / sizeof(pmus[0]); i++) {
		snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s", pmus[i]);
		if (pt_sys_exists(path))
			return true;
	}
	return false;
}

static void json_file(struct pt_json *j, const char *key, const char *path, bool choice)
{
	char buf[256];
	int ret = choice ? pt_sys_read_choice(path, buf, sizeof(buf))
			 : pt_sys_read(path, buf, sizeof(buf));

	if (ret < 0)
		pt_json_null(j, key);
	else
		pt_json_str(j, key, buf);
}

static void json_kconfig(struct pt_json *j)
{
	static const char *const keys[] = {
		"CONFIG_ARM64_D128",	  "CONFIG_PGTABLE_LEVELS", "CONFIG_ARM64_VA_BITS",
		"CONFIG_ARM64_PA_BITS",	  "CONFIG_ARM64_4K_PAGES", "CONFIG_ARM64_16K_PAGES",
		"CONFIG_ARM64_64K_PAGES", "CONFIG_X86_5LEVEL",	   "CONFIG_TRANSPARENT_HUGEPAGE",
		"CONFIG_HUGETLBFS",	  "CONFIG_PAGE_SIZE_4KB",  "CONFIG_ARM64_CONT_PTE_SHIFT",
	};
	char v[64];
	size_t i;

	pt_json_obj_begin(j, "kconfig");
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!pt_kconfig_get(keys[i], v, sizeof(v)))
			pt_json_str(j, keys[i], v);
	pt_json_obj_end(j);
}

/* Every hugepages-<size>kB directory below dir, with one file of each. */
static void json_size_dirs(struct pt_json *j, const char *key, const char *dir, const char *file,
			   bool choice)
{
	char real[512], path[512];
	struct dirent *de;
	DIR *d;

	pt_json_obj_begin(j, key);
	if (!pt_sys_path(dir, real, sizeof(real)) && (d = opendir(real))) {
		while ((de = readdir(d))) {
			if (strncmp(de->d_name, "hugepages-", 10))
				continue;
			snprintf(path, sizeof(path), "%s/%s/%s", dir, de->d_name, file);
			json_file(j, de->d_name + 10, path, choice);
		}
		closedir(d);
	}
	pt_json_obj_end(j);
}

static void json_cpu(struct pt_json *j)
{
	char line[512], model[256] = "", impl[32] = "", part[32] = "";
	FILE *f = pt_sys_fopen("/proc/cpuinfo", "r");

	while (f && fgets(line, sizeof(line), f)) {
		char *v = strchr(line, ':');

		if (!v)
			continue;
		v += 2;
		v[strcspn(v, "\n")] = '\0';
		if (!model[0] && !strncmp(line, "model name", 10))
			snprintf(model, sizeof(model), "%s", v);
		else if (!impl[0] && !strncmp(line, "CPU implementer", 15))
			snprintf(impl, sizeof(impl), "%s", v);
		else if (!part[0] && !strncmp(line, "CPU part", 8))
			snprintf(part, sizeof(part), "%s", v);
	}
	if (f)
		fclose(f);
	if (!model[0] && impl[0])
		snprintf(model, sizeof(model), "implementer %s part %s", impl, part);
	pt_json_str(j, "cpu_model", model[0] ? model : NULL);
	json_file(j, "cpus_online", "/sys/devices/system/cpu/online", false);
	json_file(j, "smt_active", "/sys/devices/system/cpu/smt/active", false);
	json_file(j, "cpufreq_governor", "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
		  false);
	json_file(j, "numa_nodes", "/sys/devices/system/node/online", false);
}

void pt_env_write_json(struct pt_json *j)
{
	char damon[512];

	pt_json_obj_begin(j, "env");
	json_file(j, "hostname", "/proc/sys/kernel/hostname", false);
	pt_damon_describe(damon, sizeof(damon));
	pt_json_str(j, "damon", damon[0] ? damon : NULL);
	json_file(j, "kernel_release", "/proc/sys/kernel/osrelease", false);
	json_file(j, "kernel_version", "/proc/sys/kernel/version", false);
	json_file(j, "arch", "/proc/sys/kernel/arch", false);
	pt_json_uint(j, "page_size", (uint64_t)sysconf(_SC_PAGESIZE));
	json_file(j, "hpage_pmd_size", THP_DIR "/hpage_pmd_size", false);
	json_file(j, "thp_enabled", THP_DIR "/enabled", true);
	json_file(j, "thp_defrag", THP_DIR "/defrag", true);
	json_file(j, "thp_shmem_enabled", THP_DIR "/shmem_enabled", true);
	json_size_dirs(j, "mthp_enabled", THP_DIR, "enabled", true);
	json_size_dirs(j, "hugetlb_pools", "/sys/kernel/mm/hugepages", "nr_hugepages", false);
	json_file(j, "fault_around_bytes", "/sys/kernel/debug/fault_around_bytes", false);
	json_file(j, "aslr", "/proc/sys/kernel/randomize_va_space", false);
	json_cpu(j);
	pt_json_bool(j, "hw_pmu", pt_env_has_hw_pmu());
	pt_virt_write_json(j);
	json_kconfig(j);
	pt_json_obj_end(j);
}
