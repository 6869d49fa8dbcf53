/* SPDX-License-Identifier: MIT */
/*
 * folder.h — the report folder of `cutoff bench` and `cutoff sim` (folder.c): made and
 * checked before the sweep, each of the report's files named through it, the list of
 * them (report-files.txt) written beside them, and an earlier report refused or, with
 * --replace, removed.
 */
#ifndef CUTOFF_LAB_FOLDER_H
#define CUTOFF_LAB_FOLDER_H

#include "lab/types.h"

/* The list of a report's files, in its folder. */
#define BENCH_FILE_LIST "report-files.txt"

/* Before the sweep: makes b->set.out_dir when it is not there (without --out, b->folder.out_fresh:
 * a new folder, its name given a suffix when taken), claims it for this run (another
 * run that holds the claim, with the same --out at the same time, is refused; folder.c
 * says how), refuses a folder that holds a report (or part of one) unless b->set.replace.
 * CLI_EXIT_OK with the claim held until bench_folder_release, or the exit status after
 * one line of error: CLI_EXIT_USAGE for a folder that holds a report or that another run holds,
 * CLI_EXIT_FAIL for one that cannot be made or written. */
int bench_folder_check(bench_t *b);

/* Gives back the claim that bench_folder_check took, if this process took it (a forked
 * child's call does nothing). */
void bench_folder_release(bench_t *b);

/* After the sweep, before the report's first file: with b->set.replace, removes the files of
 * the report that is in the folder (those its report-files.txt names, or, without one,
 * every name a report writes), and nothing else. True when nothing is left of it; false
 * after one line of error naming the file that could not be removed. */
bool bench_folder_clear(const bench_t *b);

/* The path of the report's file `name` into path, and the name recorded in b->folder.files for
 * the list; false with errno EINVAL for a name that is not among those a report writes
 * (folder.c's list), ENAMETOOLONG for a path that does not fit. */
bool bench_folder_file(bench_t *b, const char *name, char *path, size_t size);

/* Writes report-files.txt: every file recorded, and itself. False when it cannot be
 * written (errno says why). */
bool bench_folder_write_list(bench_t *b);

#endif /* CUTOFF_LAB_FOLDER_H */
