// SPDX-License-Identifier: GPL-2.0-only
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/sysfs.h"

static char sysroot[512];
static int sysroot_loaded;

void pt_sysroot_reload(void)
{
	const char *env = getenv("PTBENCH_SYSROOT");

	snprintf(sysroot, sizeof(sysroot), "%s", env ? env : "");
	/* "/" and "" both mean the real root. */
	if (!strcmp(sysroot, "/"))
		sysroot[0] = '\0';
	sysroot_loaded = 1;
}

const char *pt_sysroot(void)
{
	if (!sysroot_loaded)
		pt_sysroot_reload();
	return sysroot;
}

/* /proc/self/... and /proc/<pid>/... belong to a live process. */
static int is_process_path(const char *path)
{
	const char *p;

	if (strncmp(path, "/proc/", 6))
		return 0;
	p = path + 6;
	if (!strncmp(p, "self/", 5) || !strncmp(p, "thread-self/", 12))
		return 1;
	if (!isdigit((unsigned char)*p))
		return 0;
	while (isdigit((unsigned char)*p))
		p++;
	return *p == '/';
}

int pt_sys_path(const char *path, char *out, size_t len)
{
	const char *root = pt_sysroot();
	int n;

	if (!root[0]) {
		n = snprintf(out, len, "%s", path);
		return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
	}
	n = snprintf(out, len, "%s%s", root, path);
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	if (is_process_path(path) && access(out, F_OK))
		snprintf(out, len, "%s", path);
	return 0;
}

FILE *pt_sys_fopen(const char *path, const char *mode)
{
	char real[PATH_MAX];

	if (pt_sys_path(path, real, sizeof(real)))
		return NULL;
	return fopen(real, mode);
}

int pt_sys_open(const char *path, int flags)
{
	char real[PATH_MAX];
	int err = pt_sys_path(path, real, sizeof(real));

	if (err)
		return err;
	return open(real, flags | O_CLOEXEC);
}

bool pt_sys_exists(const char *path)
{
	char real[PATH_MAX];

	return !pt_sys_path(path, real, sizeof(real)) && !access(real, F_OK);
}

int pt_sys_read(const char *path, char *buf, size_t len)
{
	ssize_t n, total = 0;
	int fd;

	if (!len)
		return -EINVAL;
	fd = pt_sys_open(path, O_RDONLY);
	if (fd < 0)
		return fd == -1 ? -errno : fd;
	while ((size_t)total < len - 1) {
		n = read(fd, buf + total, len - 1 - total);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int err = -errno;

			close(fd);
			return err;
		}
		if (!n)
			break;
		total += n;
	}
	close(fd);
	buf[total] = '\0';
	while (total > 0 && (buf[total - 1] == '\n' || buf[total - 1] == ' '))
		buf[--total] = '\0';
	return (int)total;
}

int pt_sys_read_u64(const char *path, uint64_t *val)
{
	char buf[64], *end;
	int n = pt_sys_read(path, buf, sizeof(buf));

	if (n < 0)
		return n;
	errno = 0;
	*val = strtoull(buf, &end, 0);
	if (errno || end == buf)
		return -EINVAL;
	return 0;
}

int pt_sys_read_long(const char *path, long *val)
{
	char buf[64], *end;
	int n = pt_sys_read(path, buf, sizeof(buf));

	if (n < 0)
		return n;
	errno = 0;
	*val = strtol(buf, &end, 0);
	if (errno || end == buf)
		return -EINVAL;
	return 0;
}

int pt_sys_write(const char *path, const char *val)
{
	size_t len = strlen(val);
	ssize_t n;
	int fd = pt_sys_open(path, O_WRONLY | O_TRUNC);

	if (fd < 0)
		return fd == -1 ? -errno : fd;
	n = write(fd, val, len);
	if (n < 0) {
		int err = -errno;

		close(fd);
		return err;
	}
	close(fd);
	return (size_t)n == len ? 0 : -EIO;
}

int pt_sys_read_choice(const char *path, char *buf, size_t len)
{
	char raw[256], *l, *r;
	int n = pt_sys_read(path, raw, sizeof(raw));

	if (n < 0)
		return n;
	l = strchr(raw, '[');
	r = l ? strchr(l, ']') : NULL;
	if (l && r) {
		*r = '\0';
		snprintf(buf, len, "%s", l + 1);
	} else {
		snprintf(buf, len, "%s", raw);
	}
	return 0;
}

long pt_sys_kv_kb(const char *path, const char *key)
{
	size_t klen = strlen(key);
	char line[256];
	long val = -1;
	FILE *f = pt_sys_fopen(path, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, key, klen) && line[klen] == ':') {
			val = strtol(line + klen + 1, NULL, 10);
			break;
		}
	}
	fclose(f);
	return val;
}
