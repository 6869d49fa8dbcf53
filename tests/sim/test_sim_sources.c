/* SPDX-License-Identifier: MIT */
/*
 * test_sim_sources.c — the simulated library runs the same driver files as the real one
 * (issue 15, item 1: "no driver logic is written twice: simulation swaps backends, nothing
 * else"). tests/CMakeLists.txt writes, at generation time, the source lists the build
 * really uses for the library's objects (cutoff_objects) and for the simulated library
 * (cutoff_sim_static) into two files; this test reads them and checks that
 *   - the simulated library's sources are exactly the library's plus the files of
 *     src/sim/ and the simulated cluster transport (src/cluster/transport_sim.c): every
 *     library file, once, none left out, nothing else outside those;
 *   - each driver of the registry (cutoff_driver_name: src/drivers/<name>.c) is one of the
 *     library's sources, and src/sim/ has no file of the same name as any library file
 *     (a second copy of a driver, or of anything else, would be one);
 *   - in the library's sources and internal headers (src/, src/base/, src/games/..., not
 *     src/sim/, src/cli/ or src/lab/), only the seam names CUTOFF_SIM or includes a "sim/"
 *     header: base/atomic.h and base/platform.h (the backends) and base/pool.c (which gives
 *     way to sim/sched.c's pool);
 *     any other file that did would behave differently in the two modes.
 * It also checks that the comparison catches a library file left out, a file added
 * outside src/sim/, a driver copied into src/sim/, and a second seam file.
 */
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cutoff.h"

#ifndef CUTOFF_SOURCE_DIR
#error "tests/CMakeLists.txt defines CUTOFF_SOURCE_DIR, CUTOFF_LIST_LIBRARY and CUTOFF_LIST_SIMULATED"
#endif

enum {
	MAX_FILES = 512,
	PATH_MAX_LEN = 1024
};

typedef struct list {
	int n;
	char path[MAX_FILES][PATH_MAX_LEN]; /* relative to the source folder: "src/drivers/ybw.c" */
} list_t;

static const char *source_dir = CUTOFF_SOURCE_DIR;

/* The path relative to the source folder ("src/drivers/ybw.c"), or the path itself when it lies
 * outside it. */
static const char *relative(const char *p)
{
	size_t n = strlen(source_dir);
	if (strncmp(p, source_dir, n) == 0 && p[n] == '/')
		return p + n + 1;
	return p;
}

static bool add(list_t *l, const char *p)
{
	if (l->n >= MAX_FILES || strlen(p) >= PATH_MAX_LEN)
		return false;
	snprintf(l->path[l->n++], PATH_MAX_LEN, "%s", p);
	return true;
}

/* Reads a list written by tests/CMakeLists.txt: one path a line (absolute, or relative to
 * the source folder as CMake may keep a target's sources). */
static bool read_list(const char *file, list_t *l)
{
	FILE *f = fopen(file, "r");
	if (!f) {
		printf("cannot read %s\n", file);
		return false;
	}
	char line[PATH_MAX_LEN + 2];
	bool ok = true;
	l->n = 0;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\r\n")] = '\0';
		if (line[0])
			ok = add(l, relative(line)) && ok;
	}
	fclose(f);
	return ok;
}

static int find(const list_t *l, const char *p)
{
	for (int i = 0; i < l->n; i++)
		if (!strcmp(l->path[i], p))
			return i;
	return -1;
}

static int count(const list_t *l, const char *p)
{
	int k = 0;
	for (int i = 0; i < l->n; i++)
		k += !strcmp(l->path[i], p);
	return k;
}

/* The simulator's own files: src/sim/, and the cluster transport over its network. */
static bool in_sim(const char *p)
{
	return !strncmp(p, "src/sim/", 8) || !strcmp(p, "src/cluster/transport_sim.c");
}

static const char *base(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

/* The number of ways `sim` is not `lib` plus the files of src/sim/ (each printed when `say`). */
static int compare(const list_t *lib, const list_t *sim, bool say)
{
	int bad = 0, own = 0;
	for (int i = 0; i < lib->n; i++) {
		int k = count(sim, lib->path[i]);
		if (k != 1 || count(lib, lib->path[i]) != 1) {
			bad++;
			if (say)
				printf("  %s: %d times in the library's sources, %d in the "
				       "simulated library's\n",
				       lib->path[i], count(lib, lib->path[i]), k);
		}
	}
	for (int i = 0; i < sim->n; i++) {
		const char *p = sim->path[i];
		if (!in_sim(p)) {
			if (find(lib, p) < 0) {
				bad++;
				if (say)
					printf("  %s: in the simulated library only, outside "
					       "src/sim/\n",
					       p);
			}
			continue;
		}
		own++;
		for (int j = 0; j < lib->n; j++)
			if (!strcmp(base(lib->path[j]), base(p))) {
				bad++;
				if (say)
					printf("  %s: a second file of the name of %s\n", p,
					       lib->path[j]);
			}
	}
	if (own == 0) {
		bad++;
		if (say)
			printf("  the simulated library has no file of src/sim/\n");
	}
	return bad;
}

/* ---------------------------------------------------------------------------------------
 * The seam: who names the simulator
 * ------------------------------------------------------------------------------------- */

static const char *const seam[] = { "src/base/atomic.h", "src/base/platform.h", "src/base/pool.c" };

static bool is_seam(const char *p)
{
	for (size_t i = 0; i < sizeof(seam) / sizeof(seam[0]); i++)
		if (!strcmp(p, seam[i]))
			return true;
	return false;
}

/* True when the file names CUTOFF_SIM or includes a header of src/sim/. */
static bool names_sim(const char *rel)
{
	char path[2 * PATH_MAX_LEN];
	snprintf(path, sizeof(path), "%s/%s", source_dir, rel);
	FILE *f = fopen(path, "r");
	if (!f) {
		CHECK(false, "cannot read %s", path);
		return false;
	}
	char line[4096];
	bool found = false;
	while (!found && fgets(line, sizeof(line), f))
		found = strstr(line, "CUTOFF_SIM") || strstr(line, "\"sim/");
	fclose(f);
	return found;
}

/* The internal headers beside the library's sources (their folders, not src/sim/). */
static void add_headers(list_t *files)
{
	int sources = files->n;
	for (int i = 0; i < sources; i++) {
		char dir[PATH_MAX_LEN];
		snprintf(dir, sizeof(dir), "%s", files->path[i]);
		char *slash = strrchr(dir, '/');
		if (!slash)
			continue;
		*slash = '\0';
		char full[2 * PATH_MAX_LEN];
		snprintf(full, sizeof(full), "%s/%s", source_dir, dir);
		DIR *d = opendir(full);
		struct dirent *ent;
		while (d && (ent = readdir(d))) {
			size_t n = strlen(ent->d_name);
			char rel[2 * PATH_MAX_LEN];
			if (n < 3 || strcmp(ent->d_name + n - 2, ".h"))
				continue;
			snprintf(rel, sizeof(rel), "%s/%s", dir, ent->d_name);
			if (find(files, rel) < 0 && !add(files, rel))
				CHECK(false, "too many files");
		}
		if (d)
			closedir(d);
	}
}

/* The files of `files` other than the seam that name the simulator; printed when `say`. */
static int outside_seam(const list_t *files, bool say)
{
	int bad = 0;
	for (int i = 0; i < files->n; i++) {
		const char *p = files->path[i];
		if (in_sim(p) || !strncmp(p, "src/cli/", 8) || !strncmp(p, "src/lab/", 8) ||
		    is_seam(p) || !names_sim(p))
			continue;
		bad++;
		if (say)
			printf("  %s names CUTOFF_SIM or includes a sim/ header: it is not the "
			       "seam (atomic.h, platform.h, pool.c)\n",
			       p);
	}
	return bad;
}

int main(void)
{
	static list_t lib, sim, doctored, files;
	if (!read_list(CUTOFF_LIST_LIBRARY, &lib) || !read_list(CUTOFF_LIST_SIMULATED, &sim)) {
		CHECK(false, "the source lists of tests/CMakeLists.txt cannot be read");
		return check_report();
	}
	int nsim = 0;
	for (int i = 0; i < sim.n; i++)
		nsim += in_sim(sim.path[i]);
	CHECK(lib.n > 0 && nsim > 0, "the lists are empty");
	int bad = compare(&lib, &sim, true);
	CHECK(bad == 0, "the simulated library is not the library's sources plus src/sim/");
	printf("sources: the simulated library is the library's %d files plus %d of src/sim/ "
	       "(%d differences)\n",
	       lib.n, nsim, bad);
	CHECK(find(&sim, "src/sim/sched.c") >= 0, "src/sim/sched.c (the pool) is not built in");
	CHECK(find(&sim, "src/base/pool.c") >= 0,
	      "src/base/pool.c is not in the simulated library");

	/* The registry's drivers are library files, in both. */
	for (int d = 0; d < cutoff_driver_count(); d++) {
		char p[64];
		snprintf(p, sizeof(p), "src/drivers/%s.c", cutoff_driver_name((cutoff_driver_t)d));
		CHECK(count(&lib, p) == 1 && count(&sim, p) == 1,
		      "driver %s: %s is not once in each library",
		      cutoff_driver_name((cutoff_driver_t)d), p);
	}
	printf("drivers: the %d of the registry are the same files in both libraries\n",
	       cutoff_driver_count());

	/* The seam. */
	files = lib;
	add_headers(&files);
	int leaks = outside_seam(&files, true);
	CHECK(leaks == 0, "%d library files name the simulator outside the seam", leaks);
	for (size_t i = 0; i < sizeof(seam) / sizeof(seam[0]); i++)
		CHECK(names_sim(seam[i]),
		      "%s does not name CUTOFF_SIM (the seam moved? update this test)", seam[i]);
	printf("seam: of %d library sources and headers, only atomic.h, platform.h and pool.c "
	       "name the simulator\n",
	       files.n);

	/* The checks catch what they are for. */
	doctored = sim;
	int k = find(&doctored, "src/drivers/ybw.c");
	if (k >= 0)
		snprintf(doctored.path[k], PATH_MAX_LEN, "src/sim/sched.c");
	CHECK(compare(&lib, &doctored, false) > 0, "a library file left out is not seen");
	doctored = sim;
	add(&doctored, "src/extra.c");
	CHECK(compare(&lib, &doctored, false) > 0, "a file outside src/sim/ is not seen");
	doctored = sim;
	add(&doctored, "src/sim/ybw.c");
	CHECK(compare(&lib, &doctored, false) > 0, "a driver copied into src/sim/ is not seen");
	doctored = files;
	CHECK(outside_seam(&doctored, false) == 0 &&
	              (k = find(&doctored, "src/base/atomic.h")) >= 0,
	      "src/base/atomic.h is a library header");
	if (k >= 0) { /* a seam file presented as an ordinary one */
		snprintf(doctored.path[k], PATH_MAX_LEN, "src/base/./atomic.h");
		CHECK(outside_seam(&doctored, false) == 1, "a file that names CUTOFF_SIM outside "
		                                           "the seam is not seen");
	}
	printf("the comparison sees a file left out, one added, a driver copied into src/sim/, "
	       "and a file that names the simulator outside the seam\n");
	return check_report();
}
