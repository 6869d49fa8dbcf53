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
 *
 * One run a folder. Two runs started at once (the same second without --out, or the same
 * --out) would both find the folder free, and the later report would silently replace
 * the earlier. So a run claims its folder before it checks it, and holds the claim until
 * it ends: without --out, the folder is made by mkdir(), which only one caller can
 * succeed at (a name taken gets -2, -3, ...); with --out, an existing folder is fine, and
 * the claim is an exclusive flock() on CLAIM_NAME in it. flock rather than a file made
 * with O_EXCL: the kernel drops the lock when its holder dies, so a run killed with
 * SIGKILL leaves a file but no claim. The holder unlinks the file at its end; another run
 * may have opened the old file just before and then lock it, so a lock is kept only when
 * the name still leads to the locked file (the same device and inode), else taken again.
 * The descriptor is close-on-exec (gnuplot and Stockfish do not hold the claim); a forked
 * child shares it but never gives it back (claim_pid).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kit/args.h"
#include "lab/common.h"
#include "lab/folder.h"

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

/* The claim file: a dot file, among no report's names, never listed nor replaced. */
#define CLAIM_NAME ".cutoff-claim"

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))
enum {
	NAMES = COUNT(fixed_names) + COUNT(workload_names) * BENCH_NWORKLOADS +
	        COUNT(picture_names) * COUNT(picture_formats)
};
_Static_assert((int)NAMES <= (int)BENCH_MAX_FILES,
               "b->folder.files cannot hold every file of a report");

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

static bool make_dir(bench_error_t *err, const char *dir)
{
	char q[CLI_QUOTE_SIZE];
	if (mkdir(dir, 0777) == 0 || errno == EEXIST) {
		struct stat st;
		if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
			return true;
	}
	bench_fail(err, "--out: cannot make the folder %s: %s", cli_quote(q, sizeof(q), dir),
	           strerror(errno == EEXIST ? ENOTDIR : errno));
	return false;
}

/* Without --out: b->folder.out_name made new, STEM, else STEM-2, STEM-3, ... (one that another
 * run made, or that was there, is never used). */
static bool make_fresh_dir(bench_t *b)
{
	char q[CLI_QUOTE_SIZE];
	for (int n = 2; n <= 1000; n++) {
		if (mkdir(b->folder.out_name, 0777) == 0)
			return true;
		if (errno != EEXIST)
			break;
		snprintf(b->folder.out_name + b->folder.stem_len,
		         sizeof(b->folder.out_name) - b->folder.stem_len, "-%d", n);
	}
	bench_fail(b->err, "cannot make the report folder %s: %s",
	           cli_quote(q, sizeof(q), b->folder.out_name), strerror(errno));
	return false;
}

/* Takes the claim on b->set.out_dir (see the top of the file): CLI_EXIT_OK with b->folder.claim_fd
 * set, or the exit status after one line of error: CLI_EXIT_USAGE when another run holds it,
 * CLI_EXIT_FAIL when the claim file cannot be made (no file can be made in the folder). */
static int claim(bench_t *b)
{
	char path[PATH_MAX], q[CLI_QUOTE_SIZE];
	snprintf(path, sizeof(path), "%s/%s", b->set.out_dir, CLAIM_NAME);
	for (;;) {
		int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
		if (fd < 0) {
			bench_fail(b->err, "--out: cannot write into the folder %s: %s",
			           cli_quote(q, sizeof(q), b->set.out_dir), strerror(errno));
			return CLI_EXIT_FAIL;
		}
		if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
			int err = errno;
			close(fd);
			if (err == EINTR)
				continue;
			if (err == EWOULDBLOCK)
				bench_fail(
					b->err,
					"--out: the folder %s is in use by another cutoff bench or "
					"sim that is running: give another folder",
					cli_quote(q, sizeof(q), b->set.out_dir));
			else
				bench_fail(b->err, "--out: cannot lock %s: %s",
				           cli_quote(q, sizeof(q), path), strerror(err));
			return err == EWOULDBLOCK ? CLI_EXIT_USAGE : CLI_EXIT_FAIL;
		}
		struct stat held, named;
		if (fstat(fd, &held) == 0 && stat(path, &named) == 0 &&
		    held.st_dev == named.st_dev && held.st_ino == named.st_ino) {
			b->folder.claim_fd = fd;
			b->folder.claim_pid = getpid();
			return CLI_EXIT_OK;
		}
		close(fd); /* the file its holder unlinked as it ended: the name again */
	}
}

int bench_folder_check(bench_t *b)
{
	char q[CLI_QUOTE_SIZE], found[BENCH_FILE_NAME];
	if (strlen(b->set.out_dir) + 1 + BENCH_FILE_NAME >= PATH_MAX) {
		bench_fail(b->err, "--out: the folder's name is too long (%zu bytes)",
		           strlen(b->set.out_dir));
		return CLI_EXIT_USAGE;
	}
	if (b->folder.out_fresh ? !make_fresh_dir(b) : !make_dir(b->err, b->set.out_dir))
		return CLI_EXIT_FAIL;
	int st = claim(b);
	if (st != CLI_EXIT_OK)
		return st;
	if (!b->set.replace && holds_report(b->set.out_dir, found)) {
		bench_fail(b->err,
		           "--out: the folder %s holds a report already (%s): give --replace to "
		           "remove that report's files and write this one, or another folder",
		           cli_quote(q, sizeof(q), b->set.out_dir), found);
		bench_folder_release(b);
		return CLI_EXIT_USAGE;
	}
	return CLI_EXIT_OK;
}

void bench_folder_release(bench_t *b)
{
	if (b->folder.claim_fd < 0 || b->folder.claim_pid != getpid())
		return;
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/%s", b->set.out_dir, CLAIM_NAME);
	(void)unlink(path); /* before the lock goes: see the top of the file */
	close(b->folder.claim_fd);
	b->folder.claim_fd = -1;
}

/* Removes dir/name when it is there; false after one line of error when it cannot be removed. */
static bool remove_file(const bench_t *b, const char *name)
{
	char path[PATH_MAX], q[CLI_QUOTE_SIZE];
	snprintf(path, sizeof(path), "%s/%s", b->set.out_dir, name);
	if (unlink(path) == 0 || errno == ENOENT)
		return true;
	bench_fail(b->err, "--replace: cannot remove %s of the earlier report: %s",
	           cli_quote(q, sizeof(q), path), strerror(errno));
	return false;
}

/* The names that report-files.txt lists, removed, then the list itself; false when the
 * list cannot be read (errno ENOENT: there is none) or a file cannot be removed. */
static bool remove_listed(const bench_t *b, bool *listed)
{
	char path[PATH_MAX], line[256];
	snprintf(path, sizeof(path), "%s/%s", b->set.out_dir, BENCH_FILE_LIST);
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
	if (!b->set.replace)
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
	if ((size_t)snprintf(path, size, "%s/%s", b->set.out_dir, name) >= size) {
		errno = ENAMETOOLONG;
		return false;
	}
	for (int i = 0; i < b->folder.nfiles; i++)
		if (strcmp(b->folder.files[i], name) == 0)
			return true;
	if (b->folder.nfiles < BENCH_MAX_FILES)
		snprintf(b->folder.files[b->folder.nfiles++], BENCH_FILE_NAME, "%s", name);
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
	for (int i = 0; i < b->folder.nfiles; i++)
		fprintf(f, "%s\n", b->folder.files[i]);
	return fclose(f) == 0;
}
