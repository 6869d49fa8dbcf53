/* SPDX-License-Identifier: MIT */
/*
 * session.h — the UCI engine's entry: one session over two streams, for the command line
 * (cli/cmd_uci.c). The folder's own files share uci/uci.h.
 */
#ifndef CUTOFF_UCI_SESSION_H
#define CUTOFF_UCI_SESSION_H

#include <stddef.h>
#include <stdio.h>

/*
 * Runs one UCI session (loop.c): reads command lines from `in` and writes every answer to
 * `out`, each line whole and flushed, until quit or the end of `in`. Under mpirun (Open
 * MPI's environment) every rank runs the session, rank 0 reading `in` and passing each
 * line on, and Algorithm is cluster. The session has no settings besides its streams:
 * setoption sets everything. SIGPIPE is ignored from the call on, so that a reader that
 * goes away makes a write fail instead of ending the process. Returns kit/args.h's
 * CLI_EXIT_OK, or CLI_EXIT_FAIL after the one-line error on stderr ("cutoff uci: ...")
 * when the chess tables or the ranks could not be made.
 */
int uci_run(FILE *in, FILE *out);

/* The names of the engine's own options (options.c), in the order `uci` lists them
 * before the drivers', as "Threads, Hash, ..., Clear Hash", into buf; buf. For
 * --help. */
const char *uci_option_names(char *buf, size_t size);

#endif /* CUTOFF_UCI_SESSION_H */
