/* SPDX-License-Identifier: MIT */
/*
 * folder.c — the report folder of `cutoff bench` and `cutoff sim` (folder.h).
 *
 * The folder is made and checked before the sweep, which may run for minutes: a folder
 * that cannot be made or written, or that holds a report already, is said at once, not
 * after the results exist. Every file the report writes is named through
 * bench_folder_file, which records it; report-files.txt, written last, lists them, so
 * that a later --replace removes exactly that report's files. The old report is removed
 * after the sweep, just before the new one is written: a sweep that fails or is stopped
 * leaves it whole.
 *
 * Invariant: this file removes only names that a report writes (report_name below), never
 * a subfolder and never another file a user keeps in the folder; a report-files.txt is
 * read through the same names, so an edited list cannot name anything else.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "args.h"
#include "bench/common.h"
#include "bench/folder.h"

/* Every name a report may write: the files of the report, the plots' data of each
 * workload, the pictures in either format (gnuplot draws them; plots.log is its output),
 * and the list. */
static const char *const fixed_names[] = { "report.txt",    "results.json",
	                                   "results.csv",   "runs.csv",
	                                   "threads.csv",   "ceilings.csv",
	                                   "positions.csv", "chess-positions.txt",
	                                   "searches.txt",  "plots.gp",
	                                   "plots.log",     "published.dat",
	                                   "quality.csv",   "quality-positions.csv",
	                                   "quality.dat",   BENCH_FILE_LIST };
/* Each workload's: STEM WORKLOAD .dat; each picture: STEM FORMAT. */
static const char *const workload_names[] = { "speedup-", "node-rate-", "time-split-" };
static const char *const picture_names[] = { "speedup.", "node-rate-per-thread.", "time-split.",
	                                     "quality." };
static const char *const picture_formats[] = { "svg", "png" };

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))
enum {
	NAMES = COUNT(fixed_names) + COUNT(workload_names) * BENCH_NWORKLOADS +
	        COUNT(picture_names) * COUNT(picture_formats)
};
_Static_assert((int)NAMES <= (int)BENCH_MAX_FILES, "b->files cannot hold every file of a report");

/* The k-th name a report may write (0 <= k < NAMES), into out. */
static const char *report_name_at(int k, char out[BENCH_FILE_NAME])
{
	if (k < COUNT(fixed_names))
		return fixed_names[k];
	k -= COUNT(fixed_names);
	if (k < COUNT(workload_names) * BENCH_NWORKLOADS) {
		snprintf(out, BENCH_FILE_NAME, "%s%s.dat", workload_names[k / BENCH_NWORKLOADS],
		         bench_workload_names[k % BENCH_NWORKLOADS]);
		return out;
	}
	k -= COUNT(workload_names) * BENCH_NWORKLOADS;
	snprintf(out, BENCH_FILE_NAME, "%s%s", picture_names[k / COUNT(picture_formats)],
	         picture_formats[k % COUNT(picture_formats)]);
	return out;
}

static bool report_name(const char *name)
{
	char buf[BENCH_FILE_NAME];
	for (int k = 0; k < NAMES; k++)
		if (strcmp(report_name_at(k, buf), name) == 0)
			return true;
	return false;
}

/* The first name of a report that is in dir, into found; false when there is none. */
static bool holds_report(const char *dir, char found[BENCH_FILE_NAME])
{
	char path[PATH_MAX];
	struct stat st;
	for (int k = 0; k < NAMES; k++) {
		const char *name = report_name_at(k, found);
		snprintf(path, sizeof(path), "%s/%s", dir, name);
		if (lstat(path, &st) == 0) {
			if (name != found)
				snprintf(found, BENCH_FILE_NAME, "%s", name);
			return true;
		}
	}
	return false;
}

static bool make_dir(const char *cmd, const char *dir)
{
	char q[CLI_QUOTE_SIZE];
	if (mkdir(dir, 0777) == 0 || errno == EEXIST) {
		struct stat st;
		if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
			return true;
	}
	cli_error(cmd, "--out: cannot make the folder %s: %s", cli_quote(q, sizeof(q), dir),
	          strerror(errno == EEXIST ? ENOTDIR : errno));
	return false;
}

/* Whether a file can be made in dir: one is made and removed. Permission bits alone do
 * not say (root passes them; a read-only file system or /proc does not). */
static bool can_write(const char *dir)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/.cutoff-write-check-%ld", dir, (long)getpid());
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	if (fd < 0)
		return false;
	close(fd);
	return unlink(path) == 0;
}

int bench_folder_check(const bench_t *b)
{
	char q[CLI_QUOTE_SIZE], found[BENCH_FILE_NAME];
	if (strlen(b->out_dir) + 1 + BENCH_FILE_NAME >= PATH_MAX) {
		cli_error(b->cmd, "--out: the folder's name is too long (%zu bytes)",
		          strlen(b->out_dir));
		return CLI_EXIT_USAGE;
	}
	if (!make_dir(b->cmd, b->out_dir))
		return CLI_EXIT_FAIL;
	if (!b->replace && holds_report(b->out_dir, found)) {
		cli_error(b->cmd,
		          "--out: the folder %s holds a report already (%s): give --replace to "
		          "remove that report's files and write this one, or another folder",
		          cli_quote(q, sizeof(q), b->out_dir), found);
		return CLI_EXIT_USAGE;
	}
	if (!can_write(b->out_dir)) {
		cli_error(b->cmd, "--out: cannot write into the folder %s: %s",
		          cli_quote(q, sizeof(q), b->out_dir), strerror(errno));
		return CLI_EXIT_FAIL;
	}
	return CLI_EXIT_OK;
}

/* Removes dir/name when it is there; false after one line when it cannot be removed. */
static bool remove_file(const bench_t *b, const char *name)
{
	char path[PATH_MAX], q[CLI_QUOTE_SIZE];
	snprintf(path, sizeof(path), "%s/%s", b->out_dir, name);
	if (unlink(path) == 0 || errno == ENOENT)
		return true;
	cli_error(b->cmd, "--replace: cannot remove %s of the earlier report: %s",
	          cli_quote(q, sizeof(q), path), strerror(errno));
	return false;
}

/* The names that report-files.txt lists, removed, then the list itself; false when the
 * list cannot be read (errno ENOENT: there is none) or a file cannot be removed. */
static bool remove_listed(const bench_t *b, bool *listed)
{
	char path[PATH_MAX], line[256];
	snprintf(path, sizeof(path), "%s/%s", b->out_dir, BENCH_FILE_LIST);
	FILE *f = fopen(path, "r");
	*listed = f != NULL;
	if (!f)
		return errno == ENOENT;
	bool ok = true;
	while (ok && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0] != '#' && strcmp(line, BENCH_FILE_LIST) != 0 && report_name(line))
			ok = remove_file(b, line);
	}
	fclose(f);
	return ok && remove_file(b, BENCH_FILE_LIST);
}

bool bench_folder_clear(const bench_t *b)
{
	if (!b->replace)
		return true;
	bool listed;
	if (!remove_listed(b, &listed))
		return false;
	/* A report without its list: one written before there were lists, or one whose
	 * writing failed part way. Every name a report writes goes. */
	char buf[BENCH_FILE_NAME];
	for (int k = 0; !listed && k < NAMES; k++)
		if (!remove_file(b, report_name_at(k, buf)))
			return false;
	return true;
}

bool bench_folder_file(bench_t *b, const char *name, char *path, size_t size)
{
	/* A name that no report writes would escape --replace: refused (EINVAL, and every
	 * test's sweep fails), so that a new file is added to the names above first. */
	if (!report_name(name)) {
		errno = EINVAL;
		return false;
	}
	if ((size_t)snprintf(path, size, "%s/%s", b->out_dir, name) >= size) {
		errno = ENAMETOOLONG;
		return false;
	}
	for (int i = 0; i < b->nfiles; i++)
		if (strcmp(b->files[i], name) == 0)
			return true;
	if (b->nfiles < BENCH_MAX_FILES)
		snprintf(b->files[b->nfiles++], BENCH_FILE_NAME, "%s", name);
	return true;
}

bool bench_folder_write_list(bench_t *b)
{
	char path[PATH_MAX];
	if (!bench_folder_file(b, BENCH_FILE_LIST, path, sizeof(path)))
		return false;
	FILE *f = fopen(path, "w");
	if (!f)
		return false;
	fprintf(f,
	        "# The files of the report in this folder, one a line, written by cutoff %s:\n"
	        "# `cutoff %s --out FOLDER --replace` removes these (and nothing else) before "
	        "it writes its own.\n",
	        b->cmd, b->cmd);
	for (int i = 0; i < b->nfiles; i++)
		fprintf(f, "%s\n", b->files[i]);
	return fclose(f) == 0;
}
