/* SPDX-License-Identifier: MIT */
/*
 * games.h — the bundled games as the commands name them, and each game's default search
 * settings, written once (games.c).
 *
 * The table has a row for each game's search: `cutoff search --game NAME` starts from it,
 * and the lab's workload of that game (`cutoff bench`, `cutoff sim`) searches with it, so
 * that the `cutoff search` line the bench writes for each of its rows (searches.txt: the
 * position, the depth, --hash and the parallel options that differ from the defaults)
 * repeats the row's nodes by construction (tests/cli/bench.sh checks it). A command whose
 * defaults truly differ has a row of its own beside it: `cutoff solve` (Connect Four) and
 * `cutoff epd` (chess). Nothing here keeps state; the rows are constants.
 */
#ifndef CUTOFF_KIT_GAMES_H
#define CUTOFF_KIT_GAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cutoff.h"

/* The games the commands name. */
typedef enum cli_game {
	CLI_GAME_TTT,
	CLI_GAME_CHESS,
	CLI_GAME_CONNECT4,
	CLI_GAME_RTREE,
	CLI_GAME_PGAME
} cli_game_t;

/* Who reads a row. */
typedef enum cli_game_use {
	CLI_USE_SEARCH, /* `cutoff search`, and the lab's workloads, which it repeats */
	CLI_USE_SOLVE,  /* `cutoff solve` */
	CLI_USE_EPD     /* `cutoff epd` */
} cli_game_use_t;

/* One row: a game's default settings for one use. */
typedef struct cli_game_defaults {
	cli_game_t game;
	cli_game_use_t use;
	cutoff_algo_t algo;  /* at every node, under the default driver (--algo not given) */
	int depth;           /* plies; 0: no limit (to the end of the game, or until time_ms) */
	uint64_t time_ms;    /* the time a search may take; 0: no limit */
	bool iterate;        /* iterative deepening 1 .. depth */
	bool solve;          /* limits.solve: values that never met the horizon hold */
	size_t tt_mb;        /* the table */
	size_t tt_mb_shared; /* the table under MTD(f) or a driver other than the serial one,
	                        which need one (tic-tac-toe's serial search has none) */
	unsigned ordering;   /* CUTOFF_ORDER_* */
	unsigned pruning;    /* CUTOFF_PRUNE_* */
	unsigned extensions; /* CUTOFF_EXTEND_* */
	bool tt_cutoffs;     /* config.tt_cutoffs */
	int etc_min_depth;   /* config.etc_min_depth: 0 (none) or 2 .. */
	int branching;       /* rtree: children per inner node; 0 for the other games */
} cli_game_defaults_t;

/* The games' names as --game takes them, indexed by cli_game_t, NULL-terminated. */
extern const char *const cli_game_names[];

/* The row of `game` for `use`; the game's search row when it has none of its own. */
const cli_game_defaults_t *cli_game_defaults(cli_game_t game, cli_game_use_t use);

/* The row's engine settings into *cfg: algo, tt_mb, ordering, pruning, extensions,
 * tt_cutoffs and etc_min_depth; the rest (threads, driver, placement, the drivers'
 * options, the log) is left as it is. */
void cli_game_config(const cli_game_defaults_t *d, cutoff_config_t *cfg);

/* A setting of the `use` rows of every game as --help says it, the games with the same
 * text named together in the table's order: "9 for ttt; 8 for chess; ...". `value`
 * writes one row's setting into its buffer. Returns buf. */
const char *cli_game_defaults_text(char *buf, size_t size, cli_game_use_t use,
                                   void (*value)(const cli_game_defaults_t *d, char *out,
                                                 size_t out_size));

#endif /* CUTOFF_KIT_GAMES_H */
