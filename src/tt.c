/*
 * tt.c — the shared, lock-free transposition table.
 *
 * Layout. The table is an array of 64-byte buckets (one cache line each), every bucket
 * four 16-byte entries. An entry is two 64-bit words:
 *
 *     data   bits  0..31  move (CUTOFF_MOVE_NONE when none)
 *                 32..47  value, int16, wins stored as distance from this node
 *                 48..55  depth in plies (0..255)
 *                 56..57  bound: 0 empty, 1 upper, 2 lower, 3 exact (cutoff_bound_t)
 *                 58..63  generation (6 bits, wrapping)
 *     check  key XOR data
 *
 * A key goes to bucket (key * buckets) >> 64, so the whole key picks the bucket and the
 * table need not be a power of two in size.
 *
 * Two bounds per position. An entry holds one bound, but a position may own two entries
 * of one bucket, a lower and an upper bound (MTD(f)'s passes leave both); a probe combines
 * every entry of the position whose depth is enough.
 *
 * Replacement, when storing (key, depth, bound):
 *   1. an entry of the same key and the opposite bound type (lower against upper), at
 *      least as deep and of this generation, is kept, and the new bound goes beside it
 *      (step 2) — unless both have equal depth and value: then they merge into one exact
 *      entry. Any other entry of the same key is overwritten when it is from an older
 *      generation, or not deeper than the new one, or the new one is exact and it is not;
 *      otherwise (a deeper bound of the same type, a deeper exact value) nothing is written;
 *   2. otherwise the victim is an empty entry, else the one with the least
 *      depth - 4 * age (age = generations since it was written), never the entry kept in 1.
 *
 * Memory ordering — why no lock is needed. Each word is written and read with one atomic
 * 64-bit access (relaxed); a writer stores data then check, but no order is relied on.
 * A reader loads check and data and accepts the entry only when check ^ data == key.
 * If the two words come from different writes (a torn entry: another thread overwrote the
 * entry between the two loads, or two writers interleaved their stores), then
 * check ^ data = keyA ^ dataA ^ dataB, which equals the probed key only when dataA ==
 * dataB (then the entry is whole anyway) or by a 64-bit coincidence. So a torn entry is
 * never returned as a hit; a lost write (two threads replacing the same entry) only loses
 * information, which a cache may always do. Stale entries are harmless for the same
 * reason: each one is a true statement about its key at its depth. Generation and
 * clearing are written only while no search runs; the search start publishes them.
 */
#include "tt.h"

#include <stdlib.h>
#include <string.h>

#include "atomic.h"

typedef struct tt_entry {
	uint64_t check;
	uint64_t data;
} tt_entry_t;

#define TT_BUCKET_ENTRIES 4

typedef struct tt_bucket {
	tt_entry_t e[TT_BUCKET_ENTRIES];
} __attribute__((aligned(64))) tt_bucket_t;

_Static_assert(sizeof(tt_entry_t) == 16, "an entry is two words");
_Static_assert(sizeof(tt_bucket_t) == 64, "a bucket is one cache line");

struct cutoff_tt {
	tt_bucket_t *buckets;
	uint64_t nbuckets;
	unsigned generation; /* 0..63; written only between searches */
};

enum {
	TT_MOVE_SHIFT = 0,
	TT_VALUE_SHIFT = 32,
	TT_DEPTH_SHIFT = 48,
	TT_BOUND_SHIFT = 56,
	TT_GEN_SHIFT = 58,
	TT_DEPTH_MASK = 0xff,
	TT_BOUND_MASK = 0x3,
	TT_GEN_MASK = 0x3f
};

static inline cutoff_move_t data_move(uint64_t d) { return (cutoff_move_t)(d >> TT_MOVE_SHIFT); }
static inline int32_t data_value(uint64_t d) { return (int16_t)(uint16_t)(d >> TT_VALUE_SHIFT); }
static inline int data_depth(uint64_t d) { return (int)((d >> TT_DEPTH_SHIFT) & TT_DEPTH_MASK); }
static inline int data_bound(uint64_t d) { return (int)((d >> TT_BOUND_SHIFT) & TT_BOUND_MASK); }
static inline unsigned data_gen(uint64_t d) { return (unsigned)((d >> TT_GEN_SHIFT) & TT_GEN_MASK); }

static inline uint64_t data_pack(cutoff_move_t move, int32_t value, int depth, int bound,
                                 unsigned gen)
{
	return (uint64_t)move << TT_MOVE_SHIFT | (uint64_t)(uint16_t)(int16_t)value << TT_VALUE_SHIFT |
	       (uint64_t)(depth & TT_DEPTH_MASK) << TT_DEPTH_SHIFT |
	       (uint64_t)(bound & TT_BOUND_MASK) << TT_BOUND_SHIFT |
	       (uint64_t)(gen & TT_GEN_MASK) << TT_GEN_SHIFT;
}

/* Wins are stored as distance from the node, so that a transposition reached at another
 * ply reads the right distance from its own root. */
static inline int32_t value_to_tt(int32_t v, int ply)
{
	if (v >= CUTOFF_WIN_MIN)
		return v + ply;
	if (v <= -CUTOFF_WIN_MIN)
		return v - ply;
	return v;
}

static inline int32_t value_from_tt(int32_t v, int ply)
{
	if (v >= CUTOFF_WIN_MIN)
		return v - ply;
	if (v <= -CUTOFF_WIN_MIN)
		return v + ply;
	return v;
}

static inline tt_bucket_t *bucket_of(const cutoff_tt_t *tt, uint64_t key)
{
	return &tt->buckets[(uint64_t)(((unsigned __int128)key * tt->nbuckets) >> 64)];
}

/* Reads one entry; returns its data when it is whole and belongs to `key`, else 0 (data 0
 * has bound 0, "empty"). */
static inline uint64_t entry_read(const tt_entry_t *e, uint64_t key)
{
	uint64_t check = cutoff_u64_load_relaxed(&e->check);
	uint64_t data = cutoff_u64_load_relaxed(&e->data);
	if ((check ^ data) != key || data_bound(data) == CUTOFF_BOUND_NONE)
		return 0;
	return data;
}

static inline void entry_write(tt_entry_t *e, uint64_t key, uint64_t data)
{
	cutoff_u64_store_relaxed(&e->data, data);
	cutoff_u64_store_relaxed(&e->check, key ^ data);
}

cutoff_tt_t *cutoff_tt_new(size_t mb, int *err)
{
	int dummy;
	if (!err)
		err = &dummy;
	if (mb < 1 || mb > CUTOFF_MAX_TT_MB) {
		*err = CUTOFF_EINVAL;
		return NULL;
	}
	cutoff_tt_t *tt = calloc(1, sizeof(*tt));
	if (!tt) {
		*err = CUTOFF_ENOMEM;
		return NULL;
	}
	tt->nbuckets = ((uint64_t)mb << 20) / sizeof(tt_bucket_t);
	tt->buckets = aligned_alloc(sizeof(tt_bucket_t), tt->nbuckets * sizeof(tt_bucket_t));
	if (!tt->buckets) {
		free(tt);
		*err = CUTOFF_ENOMEM;
		return NULL;
	}
	cutoff_tt_clear(tt);
	*err = CUTOFF_OK;
	return tt;
}

void cutoff_tt_free(cutoff_tt_t *tt)
{
	if (!tt)
		return;
	free(tt->buckets);
	free(tt);
}

void cutoff_tt_clear(cutoff_tt_t *tt)
{
	memset(tt->buckets, 0, tt->nbuckets * sizeof(tt_bucket_t));
	tt->generation = 0;
}

void cutoff_tt_new_search(cutoff_tt_t *tt) { tt->generation = (tt->generation + 1) & TT_GEN_MASK; }

uint64_t cutoff_tt_entries(const cutoff_tt_t *tt) { return tt->nbuckets * TT_BUCKET_ENTRIES; }

bool cutoff_tt_probe(const cutoff_tt_t *tt, uint64_t key, int depth, int ply, cutoff_tt_hit_t *hit)
{
	const tt_bucket_t *b = bucket_of(tt, key);
	bool found = false;
	int move_depth = -1;

	hit->lower = -CUTOFF_INF;
	hit->upper = CUTOFF_INF;
	hit->move = CUTOFF_MOVE_NONE;
	for (int i = 0; i < TT_BUCKET_ENTRIES; i++) {
		uint64_t d = entry_read(&b->e[i], key);
		if (!d)
			continue;
		found = true;
		int edepth = data_depth(d);
		if (edepth > move_depth && data_move(d) != CUTOFF_MOVE_NONE) {
			move_depth = edepth;
			hit->move = data_move(d);
		}
		if (edepth < depth)
			continue;
		int32_t v = value_from_tt(data_value(d), ply);
		int bound = data_bound(d);
		if ((bound & CUTOFF_BOUND_LOWER) && v > hit->lower)
			hit->lower = v;
		if ((bound & CUTOFF_BOUND_UPPER) && v < hit->upper)
			hit->upper = v;
	}
	return found;
}

void cutoff_tt_store(cutoff_tt_t *tt, uint64_t key, int depth, int ply, cutoff_bound_t bound,
                     int32_t value, cutoff_move_t move)
{
	tt_bucket_t *b = bucket_of(tt, key);
	unsigned gen = tt->generation;
	int32_t stored = value_to_tt(value, ply);
	int keep = -1; /* an entry of this key that must stay beside the new one */

	for (int i = 0; i < TT_BUCKET_ENTRIES; i++) {
		uint64_t d = entry_read(&b->e[i], key);
		if (!d)
			continue;
		int ebound = data_bound(d), edepth = data_depth(d);
		bool old = data_gen(d) != gen;
		if (move == CUTOFF_MOVE_NONE && edepth <= depth)
			move = data_move(d); /* a bound without a move keeps the one we knew */
		bool opposite = bound != CUTOFF_BOUND_EXACT && ebound != CUTOFF_BOUND_EXACT &&
		                ebound != (int)bound;
		if (opposite && !old && edepth >= depth) {
			if (edepth == depth && data_value(d) == stored) {
				/* lower == upper: the value is known */
				entry_write(&b->e[i], key,
				            data_pack(move, stored, depth, CUTOFF_BOUND_EXACT, gen));
				return;
			}
			keep = i;
			continue;
		}
		if (old || depth >= edepth || (bound == CUTOFF_BOUND_EXACT && ebound != CUTOFF_BOUND_EXACT)) {
			entry_write(&b->e[i], key, data_pack(move, stored, depth, bound, gen));
			return;
		}
		return; /* a deeper bound of the same type, or a deeper exact value, says more */
	}

	int victim = -1, worst = 0;
	for (int i = 0; i < TT_BUCKET_ENTRIES; i++) {
		if (i == keep)
			continue;
		uint64_t check = cutoff_u64_load_relaxed(&b->e[i].check);
		uint64_t d = cutoff_u64_load_relaxed(&b->e[i].data);
		(void)check;
		if (data_bound(d) == CUTOFF_BOUND_NONE) {
			victim = i;
			break;
		}
		int age = (int)((gen - data_gen(d)) & TT_GEN_MASK);
		int score = data_depth(d) - 4 * age;
		if (victim < 0 || score < worst) {
			victim = i;
			worst = score;
		}
	}
	entry_write(&b->e[victim], key, data_pack(move, stored, depth, bound, gen));
}

int cutoff_tt_hashfull(const cutoff_tt_t *tt)
{
	uint64_t n = tt->nbuckets < 250 ? tt->nbuckets : 250, used = 0;
	for (uint64_t i = 0; i < n; i++)
		for (int j = 0; j < TT_BUCKET_ENTRIES; j++) {
			uint64_t d = cutoff_u64_load_relaxed(&tt->buckets[i].e[j].data);
			used += data_bound(d) != CUTOFF_BOUND_NONE && data_gen(d) == tt->generation;
		}
	return (int)(used * 1000 / (n * TT_BUCKET_ENTRIES));
}
