/*
 * tt.h — the shared transposition table (internal). Layout, replacement rule and the
 * memory-ordering argument are at the top of tt.c.
 */
#ifndef CUTOFF_TT_H
#define CUTOFF_TT_H

#include "cutoff.h"

typedef struct cutoff_tt cutoff_tt_t;

/* What a probe learnt about one position, for a search of `depth` plies. */
typedef struct cutoff_tt_hit {
	int32_t lower;        /* the best lower bound from entries at least `depth` deep, or
	                         -CUTOFF_INF when none */
	int32_t upper;        /* the best upper bound likewise, or +CUTOFF_INF */
	cutoff_move_t move;   /* the move of the deepest entry of the position (any depth), or
	                         CUTOFF_MOVE_NONE; not checked for legality */
} cutoff_tt_hit_t;

/* A table of at most `mb` MiB (mb >= 1), rounded down to whole 64-byte buckets. NULL with
 * *err set on failure (CUTOFF_EINVAL for a size out of range, CUTOFF_ENOMEM). */
cutoff_tt_t *cutoff_tt_new(size_t mb, int *err);
void cutoff_tt_free(cutoff_tt_t *tt);

/* Forgets every entry. Only while no thread probes or stores. */
void cutoff_tt_clear(cutoff_tt_t *tt);

/* Starts a new search generation (older entries age out first). Only while no thread
 * probes or stores; the start of the search publishes it to the searching threads. */
void cutoff_tt_new_search(cutoff_tt_t *tt);

/* Looks up `key` for a search of `depth` plies at distance `ply` from the root (win scores
 * are converted back from distance-to-node). Returns true when the position was found;
 * *hit is written in every case. Any number of threads may probe and store at once. */
bool cutoff_tt_probe(const cutoff_tt_t *tt, uint64_t key, int depth, int ply, cutoff_tt_hit_t *hit);

/* Records that a search of `depth` plies of `key` at distance `ply` from the root returned
 * `value` with `bound` (LOWER, UPPER or EXACT) and `move` (may be CUTOFF_MOVE_NONE). */
void cutoff_tt_store(cutoff_tt_t *tt, uint64_t key, int depth, int ply, cutoff_bound_t bound,
                     int32_t value, cutoff_move_t move);

/* Per mille of sampled entries written in the current generation (UCI's hashfull). */
int cutoff_tt_hashfull(const cutoff_tt_t *tt);

/* The number of entries. */
uint64_t cutoff_tt_entries(const cutoff_tt_t *tt);

#endif /* CUTOFF_TT_H */
