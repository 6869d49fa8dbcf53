/* SPDX-License-Identifier: MIT */
/*
 * games.c — each game's default search settings: the one table (games.h says who reads
 * which row). Every field of every row is written out, so that two rows of a game can be
 * compared at a glance; the commands' --help reads them from here (cli_game_defaults_text).
 */
#include "kit/games.h"

#include <stdio.h>
#include <string.h>

static const cli_game_defaults_t rows[] = {
	/* Tic-tac-toe: the textbook counts (549,946 minimax nodes from the empty board): the
	 * whole game, no table, the squares' order. MTD(f) without a table would search the
	 * tree again on every pass, and a parallel driver's threads share what they learn
	 * through it: those get 16 MiB. */
	{ .game = CLI_GAME_TTT,
	  .use = CLI_USE_SEARCH,
	  .algo = CUTOFF_ALGO_ALPHABETA,
	  .depth = 9,
	  .time_ms = 0,
	  .iterate = false,
	  .solve = false,
	  .tt_mb = 0,
	  .tt_mb_shared = 16,
	  .ordering = CUTOFF_ORDER_NONE,
	  .pruning = CUTOFF_PRUNE_NONE,
	  .extensions = CUTOFF_EXTEND_ALL,
	  .tt_cutoffs = true,
	  .etc_min_depth = 0,
	  .branching = 0 },
	/* Chess: an engine's search, as the bench's chess workload runs it (docs/measurements.md
	 * (j) for its depths): PVS by iterative deepening, null move and LMR, quiescence and
	 * check extensions, the table's cut-offs, every ordering heuristic, 16 MiB. */
	{ .game = CLI_GAME_CHESS,
	  .use = CLI_USE_SEARCH,
	  .algo = CUTOFF_ALGO_PVS,
	  .depth = 8,
	  .time_ms = 0,
	  .iterate = true,
	  .solve = false,
	  .tt_mb = 16,
	  .tt_mb_shared = 16,
	  .ordering = CUTOFF_ORDER_ALL,
	  .pruning = CUTOFF_PRUNE_ALL,
	  .extensions = CUTOFF_EXTEND_ALL,
	  .tt_cutoffs = true,
	  .etc_min_depth = 0,
	  .branching = 0 },
	/* `cutoff epd`: the same search of a test suite's position, for a second each (or to
	 * --depth) with a 64 MiB table. */
	{ .game = CLI_GAME_CHESS,
	  .use = CLI_USE_EPD,
	  .algo = CUTOFF_ALGO_PVS,
	  .depth = 0,
	  .time_ms = 1000,
	  .iterate = true,
	  .solve = false,
	  .tt_mb = 64,
	  .tt_mb_shared = 64,
	  .ordering = CUTOFF_ORDER_ALL,
	  .pruning = CUTOFF_PRUNE_ALL,
	  .extensions = CUTOFF_EXTEND_ALL,
	  .tt_cutoffs = true,
	  .etc_min_depth = 0,
	  .branching = 0 },
	/* Connect Four: PVS to the end of the game (the game's bounds hook stops each line
	 * where the window's score can no longer come), exact, 4 MiB, ordering tt,hints: the
	 * bench's weak solve is this search with the window (-1, 1). */
	{ .game = CLI_GAME_CONNECT4,
	  .use = CLI_USE_SEARCH,
	  .algo = CUTOFF_ALGO_PVS,
	  .depth = 0,
	  .time_ms = 0,
	  .iterate = false,
	  .solve = false,
	  .tt_mb = 4,
	  .tt_mb_shared = 4,
	  .ordering = CUTOFF_ORDER_TT | CUTOFF_ORDER_HINTS,
	  .pruning = CUTOFF_PRUNE_NONE,
	  .extensions = CUTOFF_EXTEND_ALL,
	  .tt_cutoffs = true,
	  .etc_min_depth = 0,
	  .branching = 0 },
	/* `cutoff solve`: MTD(f), whose weak solve asks Pons' two questions (a tenth fewer
	 * nodes than PVS's (-1, 1) on the hard sets), and enhanced transposition cut-offs from
	 * 10 plies left (docs/connect4.md, "Weak mode" and "Enhanced transposition
	 * cut-offs"). A table that stays in the caches is faster even where a bigger one saves
	 * nodes: 4 MiB. */
	{ .game = CLI_GAME_CONNECT4,
	  .use = CLI_USE_SOLVE,
	  .algo = CUTOFF_ALGO_MTDF,
	  .depth = 0,
	  .time_ms = 0,
	  .iterate = false,
	  .solve = false,
	  .tt_mb = 4,
	  .tt_mb_shared = 4,
	  .ordering = CUTOFF_ORDER_TT | CUTOFF_ORDER_HINTS,
	  .pruning = CUTOFF_PRUNE_NONE,
	  .extensions = CUTOFF_EXTEND_ALL,
	  .tt_cutoffs = true,
	  .etc_min_depth = 10,
	  .branching = 0 },
	/* Random trees: incremental trees searched to their leaves by iterative deepening,
	 * every ordering heuristic, 64 MiB (the trees of bench/scaling.sh). */
	{ .game = CLI_GAME_RTREE,
	  .use = CLI_USE_SEARCH,
	  .algo = CUTOFF_ALGO_PVS,
	  .depth = 11,
	  .time_ms = 0,
	  .iterate = true,
	  .solve = false,
	  .tt_mb = 64,
	  .tt_mb_shared = 64,
	  .ordering = CUTOFF_ORDER_ALL,
	  .pruning = CUTOFF_PRUNE_NONE,
	  .extensions = CUTOFF_EXTEND_ALL,
	  .tt_cutoffs = true,
	  .etc_min_depth = 0,
	  .branching = 8 },
	/* The game with passes: solved to its end (its oracle gives the exact value). */
	{ .game = CLI_GAME_PGAME,
	  .use = CLI_USE_SEARCH,
	  .algo = CUTOFF_ALGO_PVS,
	  .depth = 0,
	  .time_ms = 0,
	  .iterate = false,
	  .solve = true,
	  .tt_mb = 16,
	  .tt_mb_shared = 16,
	  .ordering = CUTOFF_ORDER_ALL,
	  .pruning = CUTOFF_PRUNE_NONE,
	  .extensions = CUTOFF_EXTEND_ALL,
	  .tt_cutoffs = true,
	  .etc_min_depth = 0,
	  .branching = 0 },
};

const char *const cli_game_names[] = { "ttt", "chess", "connect4", "rtree", "pgame", NULL };

const char *cli_game_defaults_text(char *buf, size_t size, cli_game_use_t use,
                                   void (*value)(const cli_game_defaults_t *d, char *out,
                                                 size_t out_size))
{
	enum {
		NGAMES = CLI_GAME_PGAME + 1
	};
	char text[NGAMES][160];
	bool said[NGAMES] = { false };
	size_t used = 0;
	buf[0] = '\0';
	for (int g = 0; g < NGAMES; g++)
		value(cli_game_defaults((cli_game_t)g, use), text[g], sizeof(text[g]));
	for (int g = 0; g < NGAMES && used < size; g++) {
		if (said[g])
			continue;
		int same = 0;
		for (int h = g; h < NGAMES; h++)
			same += !strcmp(text[h], text[g]);
		used += (size_t)snprintf(buf + used, size - used, "%s%s for", used ? "; " : "",
		                         text[g]);
		for (int h = g, k = 0; h < NGAMES && used < size; h++) {
			if (said[h] || strcmp(text[h], text[g]))
				continue;
			said[h] = true;
			k++;
			used += (size_t)snprintf(buf + used, size - used, "%s%s",
			                         k == 1      ? " "
			                         : k == same ? " and "
			                                     : ", ",
			                         cli_game_names[h]);
		}
	}
	return buf;
}

const cli_game_defaults_t *cli_game_defaults(cli_game_t game, cli_game_use_t use)
{
	const cli_game_defaults_t *found = NULL;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		if (rows[i].game == game && rows[i].use == use)
			return &rows[i];
		if (rows[i].game == game && rows[i].use == CLI_USE_SEARCH)
			found = &rows[i];
	}
	return found;
}

void cli_game_config(const cli_game_defaults_t *d, cutoff_config_t *cfg)
{
	cfg->algo = d->algo;
	cfg->tt_mb = d->tt_mb;
	cfg->ordering = d->ordering;
	cfg->pruning = d->pruning;
	cfg->extensions = d->extensions;
	cfg->tt_cutoffs = d->tt_cutoffs;
	cfg->etc_min_depth = d->etc_min_depth;
}
