// SPDX-License-Identifier: GPL-2.0-only
/*
 * Runs a fuzz target over files and directories of inputs without
 * libFuzzer: the saved corpus becomes a test in every build (gcc, the
 * sanitizer build), so an input that once crashed keeps being tried.
 */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static long count;

static int replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	size_t n;
	long len;

	if (!f || fseek(f, 0, SEEK_END) || (len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		perror(path);
		if (f)
			fclose(f);
		return -1;
	}
	buf = malloc((size_t)len + 1);
	n = buf ? fread(buf, 1, (size_t)len, f) : 0;
	fclose(f);
	if (!buf || n != (size_t)len) {
		fprintf(stderr, "%s: cannot read\n", path);
		free(buf);
		return -1;
	}
	LLVMFuzzerTestOneInput(buf, n);
	free(buf);
	count++;
	return 0;
}

static int replay(const char *path)
{
	char child[PATH_MAX];
	struct dirent *e;
	struct stat st;
	int err = 0;
	DIR *d;

	if (stat(path, &st)) {
		perror(path);
		return -1;
	}
	if (!S_ISDIR(st.st_mode))
		return replay_file(path);
	d = opendir(path);
	if (!d) {
		perror(path);
		return -1;
	}
	while ((e = readdir(d)))
		if (e->d_name[0] != '.' &&
		    snprintf(child, sizeof(child), "%s/%s", path, e->d_name) < (int)sizeof(child))
			err |= replay(child);
	closedir(d);
	return err;
}

int main(int argc, char **argv)
{
	int i, err = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE|DIR...\n", argv[0]);
		return 2;
	}
	for (i = 1; i < argc; i++)
		err |= replay(argv[i]);
	printf("%s: %ld inputs, no crash\n", argv[0], count);
	return err ? 1 : count ? 0 : 1;
}
