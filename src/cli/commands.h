/* SPDX-License-Identifier: MIT */
/*
 * commands.h — the subcommands of the `cutoff` command, dispatched by main.c.
 *
 * Each one takes (argc, argv) with argv[0] its own name, parses the rest with cli_parse()
 * (kit/args.h) and returns the process exit status: CLI_EXIT_OK, CLI_EXIT_FAIL or
 * CLI_EXIT_USAGE. Each one prints its usage for --help.
 */
#ifndef CUTOFF_CLI_COMMANDS_H
#define CUTOFF_CLI_COMMANDS_H

/* cutoff search: one search of one position of any game, every counter (cmd_search.c). */
int cli_search(int argc, char **argv);

/* cutoff tree: searches of synthetic random trees against their oracle (cmd_tree.c). */
int cli_tree(int argc, char **argv);

/* cutoff ttbench: probes and stores per second, lock-free table against locked (cmd_ttbench.c). */
int cli_ttbench(int argc, char **argv);

/* cutoff topo: the machine as hwloc sees it and an engine's thread placement (cmd_topo.c). */
int cli_topo(int argc, char **argv);

/* cutoff uci: a UCI chess engine on stdin and stdout (cmd_uci.c, over uci/session.h). */
int cli_uci(int argc, char **argv);

/* cutoff match: a UCI referee for engine games (cmd_match.c, over match/match.h). */
int cli_match(int argc, char **argv);

int cli_solve(int argc, char **argv); /* cutoff solve: exact Connect Four scores (cmd_solve.c) */
int cli_perft(int argc, char **argv); /* cutoff perft: chess move-generator counts (cmd_perft.c) */
int cli_bench(int argc,
              char **argv); /* cutoff bench: the scaling sweep and its report (cmd_bench.c) */
int cli_epd(int argc, char **argv);     /* cutoff epd: chess test suites in EPD (cmd_epd.c) */
int cli_drivers(int argc, char **argv); /* cutoff drivers: the registry's drivers (cmd_drivers.c) */

/* cutoff sim: the drivers on virtual threads (cmd_sim.c; in `cutoff` it runs cutoff-sim). */
int cli_sim(int argc, char **argv);
/* cutoff sim --calibrate FILE: this machine's cost model, measured (cmd_calibrate.c). */
int sim_calibrate(int argc, char **argv);

#endif /* CUTOFF_CLI_COMMANDS_H */
