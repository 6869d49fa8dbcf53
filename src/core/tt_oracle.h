/* SPDX-License-Identifier: MIT */
/*
 * tt_oracle.h — what the table may answer, for the programs that hammer it with made-up
 * entries and check every answer: tests/core/test_tt_torture.c, which decides (a corrupt hit
 * fails it), and `cutoff ttbench`, which measures and counts (src/cli/ttbench.c). One
 * oracle for both, so that the benchmark's count and the test's verdict mean the same.
 * Over the public API only (cutoff.h): header-only, no state.
 *
 * Every entry is a function of its key. From h = cutoff_oracle_hash(key): the move, the
 * value seen from the ply of the store or probe, and the least depth. Only the bound
 * (upper, lower or exact), the ply and an extra depth of 0..3 vary from store to store.
 * So a hit for key K must carry K's move, a depth in K's range, bounds that are either
 * absent (+-CUTOFF_INF) or K's value, and a bound only when the entry is as deep as the
 * probe asked. Anything else is a corrupt hit: a mix of two writes, or of two keys. One
 * key in eight holds a win or a loss 1..64 plies from its node, so that the distance
 * conversion (the ply) is part of what is checked.
 */
#ifndef CUTOFF_TT_ORACLE_H
#define CUTOFF_TT_ORACLE_H

#include <stdbool.h>
#include <stdint.h>

#include "cutoff.h"

/* splitmix64's finaliser (Steele, Lea and Flood): a bijection of 64-bit words. */
static inline uint64_t cutoff_oracle_mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

/* Everything the table may say about `key` comes from this hash of it. */
static inline uint64_t cutoff_oracle_hash(uint64_t key)
{
	return cutoff_oracle_mix(key ^ 0x5bd1e9955bd1e995u);
}

static inline cutoff_move_t cutoff_oracle_move(uint64_t h)
{
	cutoff_move_t m = (cutoff_move_t)h;
	return m == CUTOFF_MOVE_NONE ? 0 : m;
}

/* The least depth of the key's entries, 0..31; a store adds 0..3. */
static inline int cutoff_oracle_depth(uint64_t h) { return (int)(h >> 32 & 31); }

/* The key's value seen from `ply`: a plain value, or for one key in eight a win or a loss
 * 1..64 plies from the node. */
static inline int32_t cutoff_oracle_value(uint64_t h, int ply)
{
	if ((h >> 40 & 7) == 0) {
		int32_t v = CUTOFF_WIN - (ply + 1 + (int32_t)(h >> 43 & 63));
		return (h >> 49 & 1) ? v : -v;
	}
	return (int32_t)((h >> 48) % (2 * (CUTOFF_WIN_MIN - 1) + 1)) - (CUTOFF_WIN_MIN - 1);
}

/* Stores the entry of `key` (h = cutoff_oracle_hash(key)) with `bound`, from `ply`, at its
 * least depth + extra (0..3). */
static inline void cutoff_oracle_store(cutoff_tt_t *tt, uint64_t key, uint64_t h, int extra,
                                       int ply, cutoff_bound_t bound)
{
	cutoff_tt_store(tt, key, cutoff_oracle_depth(h) + extra, ply, bound,
	                cutoff_oracle_value(h, ply), cutoff_oracle_move(h));
}

/* True when (found, *hit) is a possible answer of cutoff_tt_probe for (key, depth, ply),
 * h = cutoff_oracle_hash(key); false for a corrupt hit. */
static inline bool cutoff_oracle_answer_ok(uint64_t h, int depth, int ply, bool found,
                                           const cutoff_tt_hit_t *hit)
{
	if (!found)
		return hit->lower == -CUTOFF_INF && hit->upper == CUTOFF_INF &&
		       hit->move == CUTOFF_MOVE_NONE && hit->depth == -1;
	int32_t v = cutoff_oracle_value(h, ply);
	int d0 = cutoff_oracle_depth(h);
	bool bounded = hit->lower != -CUTOFF_INF || hit->upper != CUTOFF_INF;
	return hit->move == cutoff_oracle_move(h) && hit->depth >= d0 && hit->depth <= d0 + 3 &&
	       (hit->lower == -CUTOFF_INF || hit->lower == v) &&
	       (hit->upper == CUTOFF_INF || hit->upper == v) && (!bounded || hit->depth >= depth);
}

#endif /* CUTOFF_TT_ORACLE_H */
