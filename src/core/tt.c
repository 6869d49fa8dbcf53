/* SPDX-License-Identifier: MIT */
/*
 * tt.c — the shared, lock-free transposition table.
 *
 * Layout. The table is an array of 64-byte buckets (one cache line each), every bucket
 * four 16-byte entries. An entry is two 64-bit words:
 *
 *     data   bits  0..31  move (CUTOFF_MOVE_NONE when none)
 *                 32..47  value, int16, wins stored as distance from this node
 *                 48..55  depth in plies (0..255; 255, CUTOFF_TT_DEPTH_END in tt.h, marks
 *                         a value exact to the end of the game, the solve mode's: deeper
 *                         than any search, so every probe may use it, and the last to go)
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
 *
 * Writers (the profiler). An engine's table, when config.profile_tt_writers asks for it
 * (CUTOFF_TT_WRITERS), keeps beside the buckets
 * an array of one 16-bit thread index per entry: after writing an entry, a store writes
 * its thread's index into the entry's slot (relaxed); a probe that hits reads the slot of
 * the position's deepest entry. The slot is not part of the entry and no decision of the
 * search depends on it: a reader that catches an entry and its slot from different writes
 * only misattributes one hit in the profile (tt_hits_other). The entry words, the check
 * and the argument above are untouched. Putting the writer into the entry instead would
 * need bits it does not have (every bit of data is used, and check must cover all of data
 * for the torn-entry argument), so the profile pays one more cache line per store and per
 * hit (its cost: docs/measurements.md, "(f)"), which is why it is asked for, not the
 * default. Tables made through the public cutoff_tt_new have
 * no writers array.
 */
#include "core/tt.h"

#include <hwloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef __linux__
#include <sys/mman.h>
#include <unistd.h>
#endif

#include "base/atomic.h"
#include "base/platform.h"
#include "base/topo.h"

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
	size_t bytes;
	unsigned generation;       /* 0..63; written only between searches */
	cutoff_spinlock_t *locks;  /* one per bucket with CUTOFF_TT_LOCKED, else NULL */
	uint16_t *writers;         /* per entry, with CUTOFF_TT_WRITERS, else NULL */
	hwloc_topology_t topology; /* the bucket memory came from it, when from_hwloc */
	bool from_hwloc;
	bool own_topology; /* loaded by the table itself (cutoff_tt_new) */
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
static inline unsigned data_gen(uint64_t d)
{
	return (unsigned)((d >> TT_GEN_SHIFT) & TT_GEN_MASK);
}

static inline uint64_t data_pack(cutoff_move_t move, int32_t value, int depth, int bound,
                                 unsigned gen)
{
	return (uint64_t)move << TT_MOVE_SHIFT |
	       (uint64_t)(uint16_t)(int16_t)value << TT_VALUE_SHIFT |
	       (uint64_t)(depth & TT_DEPTH_MASK) << TT_DEPTH_SHIFT |
	       (uint64_t)(bound & TT_BOUND_MASK) << TT_BOUND_SHIFT |
	       (uint64_t)(gen & TT_GEN_MASK) << TT_GEN_SHIFT;
}

static inline uint64_t bucket_index(const cutoff_tt_t *tt, uint64_t key)
{
	return (uint64_t)(((unsigned __int128)key * tt->nbuckets) >> 64);
}

/* Reads one entry; returns its data when it is whole and belongs to `key`, else 0 (data 0
 * has bound 0, "empty"). */
static inline uint64_t entry_read(const tt_entry_t *e, uint64_t key)
{
	uint64_t check = cutoff_u64_load_table(&e->check);
	uint64_t data = cutoff_u64_load_table(&e->data);
	if ((check ^ data) != key || data_bound(data) == CUTOFF_BOUND_NONE)
		return 0;
	return data;
}

static inline void entry_write(tt_entry_t *e, uint64_t key, uint64_t data)
{
	cutoff_u64_store_table(&e->data, data);
	cutoff_u64_store_table(&e->check, key ^ data);
}

/*
 * Asks the kernel for transparent huge pages over the table (where it offers them only on
 * request, as Debian's default "madvise" mode does): a random probe then misses the TLB
 * far less often, and the table is faulted in 2 MiB at a time instead of 4 KiB. Only
 * advice: on a kernel without it, or for the part of the range that is not page-aligned,
 * nothing changes.
 */
static void advise_huge_pages(void *p, size_t bytes)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
	long page = sysconf(_SC_PAGESIZE);
	if (page <= 0)
		return;
	uintptr_t start = ((uintptr_t)p + (uintptr_t)page - 1) & ~((uintptr_t)page - 1);
	uintptr_t end = ((uintptr_t)p + bytes) & ~((uintptr_t)page - 1);
	if (end > start)
		(void)madvise((void *)start, end - start, MADV_HUGEPAGE);
#else
	(void)p;
	(void)bytes;
#endif
}

/*
 * The buckets come from hwloc, interleaved page by page over the NUMA nodes where the
 * system supports it, so that every thread of a many-node machine sees the same average
 * latency; on a single node, or where binding is refused, they are plain memory.
 */
static bool tt_alloc(cutoff_tt_t *tt)
{
	if (tt->topology) {
		hwloc_const_nodeset_t nodes = hwloc_topology_get_topology_nodeset(tt->topology);
		if (hwloc_bitmap_weight(nodes) > 1)
			tt->buckets = hwloc_alloc_membind(tt->topology, tt->bytes, nodes,
			                                  HWLOC_MEMBIND_INTERLEAVE,
			                                  HWLOC_MEMBIND_BYNODESET);
		if (!tt->buckets)
			tt->buckets = hwloc_alloc(tt->topology, tt->bytes);
		tt->from_hwloc = tt->buckets != NULL;
	}
	if (!tt->buckets)
		tt->buckets = aligned_alloc(sizeof(tt_bucket_t), tt->bytes);
	if (tt->buckets)
		advise_huge_pages(tt->buckets, tt->bytes);
	return tt->buckets != NULL;
}

cutoff_tt_t *cutoff_tt_new_placed(void *topology, size_t mb, unsigned flags, int *err)
{
	int dummy;
	if (!err)
		err = &dummy;
	if (mb < 1 || mb > CUTOFF_MAX_TT_MB ||
	    (flags & ~(unsigned)(CUTOFF_TT_LOCKED | CUTOFF_TT_WRITERS))) {
		*err = CUTOFF_EINVAL;
		return NULL;
	}
	cutoff_tt_t *tt = calloc(1, sizeof(*tt));
	if (!tt) {
		*err = CUTOFF_ENOMEM;
		return NULL;
	}
	tt->topology = topology;
	tt->nbuckets = ((uint64_t)mb << 20) / sizeof(tt_bucket_t);
	tt->bytes = tt->nbuckets * sizeof(tt_bucket_t);
	if (!tt_alloc(tt) ||
	    ((flags & CUTOFF_TT_LOCKED) &&
	     !(tt->locks = calloc(tt->nbuckets, sizeof(*tt->locks)))) ||
	    ((flags & CUTOFF_TT_WRITERS) &&
	     !(tt->writers = calloc(tt->nbuckets * TT_BUCKET_ENTRIES, sizeof(*tt->writers))))) {
		cutoff_tt_free(tt);
		*err = CUTOFF_ENOMEM;
		return NULL;
	}
	if (tt->locks)
		for (uint64_t i = 0; i < tt->nbuckets; i++)
			cutoff_spinlock_init(&tt->locks[i]);
	cutoff_tt_clear(tt);
	*err = CUTOFF_OK;
	return tt;
}

cutoff_tt_t *cutoff_tt_new(size_t mb, unsigned flags, int *err)
{
	void *topo = NULL;
	if (cutoff_topology_load(&topo) < 0)
		topo = NULL; /* plain memory then */
	cutoff_tt_t *tt = cutoff_tt_new_placed(topo, mb, flags, err);
	if (tt)
		tt->own_topology = topo != NULL;
	else
		cutoff_topology_free(topo);
	return tt;
}

void cutoff_tt_free(cutoff_tt_t *tt)
{
	if (!tt)
		return;
	if (tt->from_hwloc)
		hwloc_free(tt->topology, tt->buckets, tt->bytes);
	else
		free(tt->buckets);
	if (tt->own_topology)
		cutoff_topology_free(tt->topology);
	free(tt->locks);
	free(tt->writers);
	free(tt);
}

void cutoff_tt_clear_part(cutoff_tt_t *tt, int part, int parts)
{
	if (!tt || parts < 1 || part < 0 || part >= parts)
		return;
	uint64_t from = tt->nbuckets * (uint64_t)part / (uint64_t)parts;
	uint64_t to = tt->nbuckets * (uint64_t)(part + 1) / (uint64_t)parts;
	memset(&tt->buckets[from], 0, (size_t)(to - from) * sizeof(tt_bucket_t));
	if (part == 0)
		tt->generation = 0;
}

void cutoff_tt_clear(cutoff_tt_t *tt) { cutoff_tt_clear_part(tt, 0, 1); }

void cutoff_tt_new_search(cutoff_tt_t *tt)
{
	if (tt)
		tt->generation = (tt->generation + 1) & TT_GEN_MASK;
}

uint64_t cutoff_tt_entries(const cutoff_tt_t *tt)
{
	return tt ? tt->nbuckets * TT_BUCKET_ENTRIES : 0;
}

void cutoff_tt_prefetch(const cutoff_tt_t *tt, uint64_t key)
{
	__builtin_prefetch(&tt->buckets[bucket_index(tt, key)]);
}

/* What a probe that finds nothing says. */
static inline void hit_nothing(cutoff_tt_hit_t *hit)
{
	hit->lower = -CUTOFF_INF;
	hit->upper = CUTOFF_INF;
	hit->move = CUTOFF_MOVE_NONE;
	hit->depth = -1;
}

/* Combines the bucket's entries of `key` into *hit; returns the index of the deepest one,
 * or -1 when there is none. With `end` (the solve mode's question, search.c), the entries
 * exact to the end are combined into *end as well, from the same reads: what *hit says and
 * what *end says then describe one view of the bucket, whatever other threads write
 * meanwhile (a second probe could find an end entry replaced by a weaker one, and answer
 * differently). Inlined with `end` a constant, so a plain probe pays nothing for it. */
static inline __attribute__((always_inline)) int probe_bucket(const tt_bucket_t *b, uint64_t key,
                                                              int depth, int ply,
                                                              cutoff_tt_hit_t *hit,
                                                              cutoff_tt_hit_t *end)
{
	int deepest = -1;
	int move_depth = -1;

	hit_nothing(hit);
	if (end)
		hit_nothing(end);
	for (int i = 0; i < TT_BUCKET_ENTRIES; i++) {
		uint64_t d = entry_read(&b->e[i], key);
		if (!d)
			continue;
		int edepth = data_depth(d);
		if (edepth > hit->depth) {
			hit->depth = edepth;
			deepest = i;
		}
		if (edepth > move_depth && data_move(d) != CUTOFF_MOVE_NONE) {
			move_depth = edepth;
			hit->move = data_move(d);
		}
		if (edepth < depth)
			continue;
		int32_t v = cutoff_tt_value_from_node(data_value(d), ply);
		int bound = data_bound(d);
		if ((bound & CUTOFF_BOUND_LOWER) && v > hit->lower)
			hit->lower = v;
		if ((bound & CUTOFF_BOUND_UPPER) && v < hit->upper)
			hit->upper = v;
		if (end && edepth == CUTOFF_TT_DEPTH_END) {
			end->depth = edepth;
			if ((bound & CUTOFF_BOUND_LOWER) && v > end->lower)
				end->lower = v;
			if ((bound & CUTOFF_BOUND_UPPER) && v < end->upper)
				end->upper = v;
		}
	}
	return deepest;
}

static inline int probe_bucket_either(const tt_bucket_t *b, uint64_t key, int depth, int ply,
                                      cutoff_tt_hit_t *hit, cutoff_tt_hit_t *end)
{
	return end ? probe_bucket(b, key, depth, ply, hit, end)
	           : probe_bucket(b, key, depth, ply, hit, NULL);
}

bool cutoff_tt_probe_by(const cutoff_tt_t *tt, uint64_t key, int depth, int ply,
                        cutoff_tt_hit_t *hit, cutoff_tt_hit_t *end, int *writer)
{
	uint64_t i = bucket_index(tt, key);
	int deepest;
	cutoff_charge_tt_probe(i, tt->nbuckets);
	if (!tt->locks) {
		deepest = probe_bucket_either(&tt->buckets[i], key, depth, ply, hit, end);
	} else {
		cutoff_spinlock_lock(&tt->locks[i]);
		deepest = probe_bucket_either(&tt->buckets[i], key, depth, ply, hit, end);
		cutoff_spinlock_unlock(&tt->locks[i]);
	}
	*writer = -1;
	if (deepest >= 0 && tt->writers)
		*writer = cutoff_u16_load_relaxed(
			&tt->writers[i * TT_BUCKET_ENTRIES + (uint64_t)deepest]);
	return deepest >= 0;
}

/* probe_bucket's upper bounds alone: the same entries, the same minima. */
static inline __attribute__((always_inline)) bool upper_bucket(const tt_bucket_t *b, uint64_t key,
                                                               int depth, int ply, int32_t *upper,
                                                               int32_t *end_upper)
{
	bool found = false;
	int32_t u = CUTOFF_INF, eu = CUTOFF_INF;
	for (int i = 0; i < TT_BUCKET_ENTRIES; i++) {
		uint64_t d = entry_read(&b->e[i], key);
		if (!d)
			continue;
		found = true;
		int edepth = data_depth(d);
		if (edepth < depth || !(data_bound(d) & CUTOFF_BOUND_UPPER))
			continue;
		int32_t v = cutoff_tt_value_from_node(data_value(d), ply);
		if (v < u)
			u = v;
		if (edepth == CUTOFF_TT_DEPTH_END && v < eu)
			eu = v;
	}
	*upper = u;
	if (end_upper)
		*end_upper = eu;
	return found;
}

bool cutoff_tt_probe_upper(const cutoff_tt_t *tt, uint64_t key, int depth, int ply, int32_t *upper,
                           int32_t *end_upper)
{
	uint64_t i = bucket_index(tt, key);
	bool found;
	cutoff_charge_tt_probe(i, tt->nbuckets);
	if (!tt->locks)
		return upper_bucket(&tt->buckets[i], key, depth, ply, upper, end_upper);
	cutoff_spinlock_lock(&tt->locks[i]);
	found = upper_bucket(&tt->buckets[i], key, depth, ply, upper, end_upper);
	cutoff_spinlock_unlock(&tt->locks[i]);
	return found;
}

/* The public entry points take NULL (cutoff.h); the _by variants do not, since the search
 * calls them only with a table it has (and checks s->tt before it probes or stores). */
bool cutoff_tt_probe(const cutoff_tt_t *tt, uint64_t key, int depth, int ply, cutoff_tt_hit_t *hit)
{
	int writer;
	if (!hit)
		return false;
	if (!tt) {
		hit_nothing(hit);
		return false;
	}
	return cutoff_tt_probe_by(tt, key, depth, ply, hit, NULL, &writer);
}

/* Writes `data` into entry i of `b` unless it holds exactly that already (then the cache
 * line is only read: a store into a line another core holds is a coherence miss, and a
 * search rewrites what a probe has just read often). Returns the entry written, or
 * STORE_SAME. */
enum {
	STORE_SAME = -2,
	STORE_KEPT = -1
};

static inline int write_unless_same(tt_bucket_t *b, int i, uint64_t key, uint64_t old,
                                    uint64_t data)
{
	if (old == data)
		return STORE_SAME;
	entry_write(&b->e[i], key, data);
	return i;
}

/* Step 2's choice so far (store_bucket): the victim (-1: none yet) and its score; an empty
 * entry, once found, stays the victim. */
typedef struct victim {
	int i;
	int score;
	bool empty;
} victim_t;

static inline void weigh(victim_t *v, int i, uint64_t d, unsigned gen)
{
	if (v->empty)
		return;
	if (data_bound(d) == CUTOFF_BOUND_NONE) {
		v->i = i;
		v->empty = true;
		return;
	}
	int age = (int)((gen - data_gen(d)) & TT_GEN_MASK);
	int score = data_depth(d) - 4 * age;
	if (v->i < 0 || score < v->score) {
		v->i = i;
		v->score = score;
	}
}

/* Returns the index of the entry written, STORE_SAME when the entry already held it, or
 * STORE_KEPT when nothing was written because an entry of the position says more. One
 * pass over the bucket: the entries of other positions are weighed as victims (step 2) on
 * the way, in case none of the position's decides (step 1). An entry of the position that
 * the pass goes past is kept beside the new bound; only the last one is (two such entries
 * of one position are the work of racing stores), and one kept before it is weighed as a
 * victim then. Every other entry of the position ends the pass; so the victim is never the
 * entry kept, and there is one: four entries, at most one kept. Inlined into both callers
 * (with and without the bucket's lock). */
static inline __attribute__((always_inline)) int store_bucket(tt_bucket_t *b, unsigned gen,
                                                              uint64_t key, int depth, int ply,
                                                              cutoff_bound_t bound, int32_t value,
                                                              cutoff_move_t move)
{
	int32_t stored = cutoff_tt_value_to_node(value, ply);
	victim_t victim = { -1, 0, false };
	int keep = -1;
	uint64_t keep_data = 0;

	for (int i = 0; i < TT_BUCKET_ENTRIES; i++) {
		uint64_t check = cutoff_u64_load_table(&b->e[i].check);
		uint64_t d = cutoff_u64_load_table(&b->e[i].data);
		int ebound = data_bound(d), edepth = data_depth(d);
		if ((check ^ d) != key || ebound == CUTOFF_BOUND_NONE) {
			weigh(&victim, i, d, gen); /* another position's entry, or an empty one */
			continue;
		}
		bool old = data_gen(d) != gen;
		if (move == CUTOFF_MOVE_NONE && edepth <= depth)
			move = data_move(d); /* a bound without a move keeps the one we knew */
		bool opposite = bound != CUTOFF_BOUND_EXACT && ebound != CUTOFF_BOUND_EXACT &&
		                ebound != (int)bound;
		if (opposite && !old && edepth >= depth) {
			if (edepth == depth && data_value(d) == stored) {
				/* lower == upper: the value is known */
				return write_unless_same(
					b, i, key, d,
					data_pack(move, stored, depth, CUTOFF_BOUND_EXACT, gen));
			}
			if (keep >= 0)
				weigh(&victim, keep, keep_data, gen);
			keep = i;
			keep_data = d;
			continue;
		}
		if (old || depth >= edepth ||
		    (bound == CUTOFF_BOUND_EXACT && ebound != CUTOFF_BOUND_EXACT))
			return write_unless_same(b, i, key, d,
			                         data_pack(move, stored, depth, bound, gen));
		return STORE_KEPT; /* a deeper bound of the same type, or a deeper exact value */
	}
	entry_write(&b->e[victim.i], key, data_pack(move, stored, depth, bound, gen));
	return victim.i;
}

cutoff_tt_stored_t cutoff_tt_store_by(cutoff_tt_t *tt, uint64_t key, int depth, int ply,
                                      cutoff_bound_t bound, int32_t value, cutoff_move_t move,
                                      int writer)
{
	if (bound < CUTOFF_BOUND_UPPER || bound > CUTOFF_BOUND_EXACT || depth < 0)
		return CUTOFF_TT_KEPT;
	if (depth > TT_DEPTH_MASK)
		depth = TT_DEPTH_MASK;
	uint64_t i = bucket_index(tt, key);
	int written;
	if (!tt->locks) {
		written = store_bucket(&tt->buckets[i], tt->generation, key, depth, ply, bound,
		                       value, move);
	} else {
		cutoff_spinlock_lock(&tt->locks[i]);
		written = store_bucket(&tt->buckets[i], tt->generation, key, depth, ply, bound,
		                       value, move);
		cutoff_spinlock_unlock(&tt->locks[i]);
	}
	if (written >= 0)
		cutoff_charge_tt_store(i, tt->nbuckets);
	if (written >= 0 && tt->writers)
		cutoff_u16_store_relaxed(&tt->writers[i * TT_BUCKET_ENTRIES + (uint64_t)written],
		                         (uint16_t)writer);
	return written >= 0            ? CUTOFF_TT_WRITTEN
	       : written == STORE_SAME ? CUTOFF_TT_SAME
	                               : CUTOFF_TT_KEPT;
}

void cutoff_tt_store(cutoff_tt_t *tt, uint64_t key, int depth, int ply, cutoff_bound_t bound,
                     int32_t value, cutoff_move_t move)
{
	if (tt)
		cutoff_tt_store_by(tt, key, depth, ply, bound, value, move, 0);
}

int cutoff_tt_hashfull(const cutoff_tt_t *tt)
{
	if (!tt)
		return 0;
	uint64_t n = tt->nbuckets < 250 ? tt->nbuckets : 250, used = 0;
	for (uint64_t i = 0; i < n; i++)
		for (int j = 0; j < TT_BUCKET_ENTRIES; j++) {
			uint64_t d = cutoff_u64_load_table(&tt->buckets[i].e[j].data);
			used += data_bound(d) != CUTOFF_BOUND_NONE && data_gen(d) == tt->generation;
		}
	return (int)(used * 1000 / (n * TT_BUCKET_ENTRIES));
}
