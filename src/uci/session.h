/* SPDX-License-Identifier: MIT */
/*
 * session.h — the UCI engine's entry point, for the command line (cli/commands.h). The
 * folder's own files share uci/uci.h.
 */
#ifndef CUTOFF_UCI_SESSION_H
#define CUTOFF_UCI_SESSION_H

/* cutoff uci: a UCI chess engine, one session on stdin and stdout (loop.c); argv[0] is
 * "uci". Returns the process exit status (kit/args.h's CLI_EXIT_*). */
int cli_uci(int argc, char **argv);

#endif /* CUTOFF_UCI_SESSION_H */
