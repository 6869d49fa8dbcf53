/* SPDX-License-Identifier: MIT */
/*
 * suite.h — the quality suite of `--quality-suite FILE` (suite.c): chess positions with a
 * reference engine's best moves and their scores, read and checked whole before any
 * search, and the figures of a driver's moves against them.
 */
#ifndef CUTOFF_LAB_SUITE_H
#define CUTOFF_LAB_SUITE_H

#include <stdbool.h>
#include <stdint.h>

#include "cutoff.h"
#include "cutoff_games.h"

/* The most reference moves one position may list. */
#define BENCH_SUITE_REFS 16

/* A mate is scored as this many centipawns, less a centipawn per move to it (a mate in 3
 * is 9997 for the side that mates): larger than any evaluation, and ordered. */
#define BENCH_SUITE_MATE 10000

/* One position and its reference: moves best first, scores in centipawns from the side to
 * move (mates as above). */
typedef struct bench_suite_entry {
	char id[32];
	int line;  /* in the file */
	int depth; /* the reference's depth (acd), 0 when the file does not say */
	int nrefs;
	cutoff_move_t ref_move[BENCH_SUITE_REFS];
	char ref_text[BENCH_SUITE_REFS][8]; /* UCI notation */
	int ref_score[BENCH_SUITE_REFS];
	_Alignas(16) uint64_t state[16]; /* the position (cutoff_chess_state_t) */
} bench_suite_entry_t;

typedef struct bench_suite {
	char path[512];
	bench_suite_entry_t *entries;
	int n;
} bench_suite_t;

/* Reads and checks the whole suite file `path` into *s (entries allocated; free them with
 * bench_suite_free). Returns true, or false with a message in err naming the file, the
 * line and what is wrong: a FEN the chess adapter refuses, a malformed operation (a bad
 * opcode, a string without its closing quote: cutoff_chess_parse_epd), a position where
 * the game is over (the adapter's terminal: mate, stalemate, a draw by rule), no `refs`
 * operation, a reference move that is not legal in the position or a score that is not
 * a whole number of centipawns or #N, more than BENCH_SUITE_REFS moves, a line too long,
 * a file that cannot be read or holds no position. */
bool bench_suite_load(const cutoff_chess_t *chess, const char *path, bench_suite_t *s, char *err,
                      size_t errlen);
void bench_suite_free(bench_suite_t *s);

/* The centipawn scale of the losses: each score is clipped to +-BENCH_SUITE_CLIP before
 * the difference, so that a won position kept won costs nothing and one thrown away
 * counts as one large error rather than as a mate's distance. */
#define BENCH_SUITE_CLIP 1000

/* The centipawn loss of playing `move` in entry e: the best reference score less the
 * move's, both clipped (0 .. 2 * BENCH_SUITE_CLIP). A move outside the reference's list
 * gets the loss of the last one listed (the least it can be: the reference ranked it
 * lower), and *bound is set; else *bound is cleared. */
int bench_suite_loss(const bench_suite_entry_t *e, cutoff_move_t move, bool *bound);

/* The Wilson score interval at 95 % of k successes out of n (n > 0). */
void bench_wilson95(int k, int n, double *lo, double *hi);

#endif /* CUTOFF_LAB_SUITE_H */
