/* SPDX-License-Identifier: MIT */
/*
 * lab.h — the experiment lab's entry point, for the command line (cli/commands.h). The
 * folder's own files and `cutoff sim` share lab/bench.h and the headers it names.
 */
#ifndef CUTOFF_LAB_LAB_H
#define CUTOFF_LAB_LAB_H

/* cutoff bench: the scaling sweep and its report (bench.c); argv[0] is "bench". Returns the
 * process exit status (kit/args.h's CLI_EXIT_*). */
int cli_bench(int argc, char **argv);

#endif /* CUTOFF_LAB_LAB_H */
