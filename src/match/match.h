/* SPDX-License-Identifier: MIT */
/*
 * match.h — the referee's entry point, for the command line (cli/commands.h). The folder's
 * own files share match/referee.h.
 */
#ifndef CUTOFF_MATCH_MATCH_H
#define CUTOFF_MATCH_MATCH_H

/* cutoff match: a UCI referee for engine games (match.c); argv[0] is "match". Returns the
 * process exit status (kit/args.h's CLI_EXIT_*). */
int cli_match(int argc, char **argv);

#endif /* CUTOFF_MATCH_MATCH_H */
