/* SPDX-License-Identifier: MIT */
/*
 * tt.h — the shared transposition table. Its functions are public (cutoff.h, section 5);
 * this header is where the core includes them from. Layout, replacement rule and the
 * memory-ordering argument open tt.c.
 */
#ifndef CUTOFF_TT_H
#define CUTOFF_TT_H

#include "cutoff.h"

/* An internal flag of cutoff_tt_new_placed, beside the public ones: keep the writers array
 * (the profiler's "who wrote this entry", see tt.c). */
enum {
	CUTOFF_TT_WRITERS = 1u << 16
};

/* The depth of an entry that is exact to the end of the game: its value was proven
 * without meeting the horizon anywhere (the solve mode, search.c), so it holds for a
 * search of any depth. Deeper than any search can ask for, so every probe uses it. */
enum {
	CUTOFF_TT_DEPTH_END = 255
};
_Static_assert(CUTOFF_PLY_LIMIT - 1 < CUTOFF_TT_DEPTH_END, "no search is as deep as the end");

/* The writer recorded for entries stored by cutoff_engine_import: no thread of this
 * engine (thread indices end below CUTOFF_MAX_THREADS). */
enum {
	CUTOFF_TT_IMPORTED = CUTOFF_MAX_THREADS
};

/* A value as the table keeps it: a win or loss counted from the node at `ply` instead of
 * from the root, so that a transposition reached at another ply reads the right distance
 * from its own root (cutoff_tt_value_from_node undoes it). */
static inline int32_t cutoff_tt_value_to_node(int32_t v, int ply)
{
	if (v >= CUTOFF_WIN_MIN)
		return v + ply;
	if (v <= -CUTOFF_WIN_MIN)
		return v - ply;
	return v;
}

static inline int32_t cutoff_tt_value_from_node(int32_t v, int ply)
{
	if (v >= CUTOFF_WIN_MIN)
		return v - ply;
	if (v <= -CUTOFF_WIN_MIN)
		return v + ply;
	return v;
}

/* Like cutoff_tt_new, with the memory placed through an already loaded hwloc topology
 * (a hwloc_topology_t, which must outlive the table), or plain memory when it is NULL. */
cutoff_tt_t *cutoff_tt_new_placed(void *topology, size_t mb, unsigned flags, int *err);

/* cutoff_tt_probe, which also writes into *writer the thread that last wrote the deepest
 * entry of the position (-1 when not known: no hit, or a table without CUTOFF_TT_WRITERS;
 * advisory only: see tt.c), and, when `end` is not NULL, into *end the bounds of the
 * position's entries exact to the end (CUTOFF_TT_DEPTH_END; depth -1 when there is none),
 * read in the same pass over the bucket as *hit's. */
bool cutoff_tt_probe_by(const cutoff_tt_t *tt, uint64_t key, int depth, int ply,
                        cutoff_tt_hit_t *hit, cutoff_tt_hit_t *end, int *writer);

/* The upper bound alone that cutoff_tt_probe_by would give in hit->upper (CUTOFF_INF when
 * none), and, when `end_upper` is not NULL, end->upper's, from one pass over the bucket:
 * what enhanced transposition cut-offs ask of a child. True when the bucket holds an entry
 * of the position, at any depth (a hit, as cutoff_tt_probe_by's answer). */
bool cutoff_tt_probe_upper(const cutoff_tt_t *tt, uint64_t key, int depth, int ply, int32_t *upper,
                           int32_t *end_upper);

/* Asks the processor to bring `key`'s bucket into the cache (a hint: nothing else
 * changes), so that a probe soon after does not wait for memory; several in a row overlap
 * their waits. */
void cutoff_tt_prefetch(const cutoff_tt_t *tt, uint64_t key);

/* What a store did. */
typedef enum cutoff_tt_stored {
	CUTOFF_TT_KEPT = -1,  /* nothing written: an entry of the position says more */
	CUTOFF_TT_SAME = 0,   /* nothing written: the entry already held exactly this */
	CUTOFF_TT_WRITTEN = 1 /* an entry was written */
} cutoff_tt_stored_t;

/* cutoff_tt_store by thread `writer` (0 .. CUTOFF_MAX_THREADS-1), remembered when the
 * table keeps writers; says what it did. */
cutoff_tt_stored_t cutoff_tt_store_by(cutoff_tt_t *tt, uint64_t key, int depth, int ply,
                                      cutoff_bound_t bound, int32_t value, cutoff_move_t move,
                                      int writer);

#endif /* CUTOFF_TT_H */
