/* SPDX-License-Identifier: MIT */
/*
 * The transposition table through its public API (cutoff.h, section 5), on one thread:
 * round trips of every bound, a lower and an upper bound of one position side by side,
 * their merge into an exact value, the depth rule, win distances across plies, clearing
 * (whole and in parts), aging by generation, hashfull, and bad arguments. Every check runs
 * on the lock-free table and again on a CUTOFF_TT_LOCKED one, which must behave
 * identically; a last check replays one random sequence of stores and probes on both kinds
 * and compares every answer, and the internal upper-bound probe (cutoff_tt_probe_upper,
 * enhanced transposition cut-offs' question) with the whole probe's upper bounds.
 *
 * Two checks lean on the layout that opens src/core/tt.c, and say so where they do:
 *   - a key goes to bucket (key * nbuckets) >> 64, nbuckets = entries / 4 (16384 for
 *     1 MiB): computed here to make keys that fight for one bucket;
 *   - hashfull samples the first 250 buckets, 1000 entries, so that for keys stored in
 *     those buckets it counts entries one per mille: used to see that two bounds take two
 *     entries and a merge one.
 *
 * cutoff-test-labels: core
 */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "core/tt.h"
#include "cutoff.h"
#include "random.h"

/* splitmix64: a fixed, seedable stream of keys, so that every run checks the same ones. */
static uint64_t next_u64(uint64_t *s) { return splitmix64(s); }

/* The bucket of `key`, as tt.c computes it (see the opening comment). */
static uint64_t bucket_of(const cutoff_tt_t *tt, uint64_t key)
{
	uint64_t nbuckets = cutoff_tt_entries(tt) / 4;
	return (uint64_t)(((unsigned __int128)key * nbuckets) >> 64);
}

/* A random key that lands in `bucket`, found by trying random keys (about nbuckets tries). */
static uint64_t key_in_bucket(const cutoff_tt_t *tt, uint64_t bucket, uint64_t *rng)
{
	for (;;) {
		uint64_t key = next_u64(rng);
		if (bucket_of(tt, key) == bucket)
			return key;
	}
}

static cutoff_tt_t *make_table(size_t mb, unsigned flags)
{
	int err = 12345;
	cutoff_tt_t *tt = cutoff_tt_new(mb, flags, &err);
	CHECK(tt && err == CUTOFF_OK, "cutoff_tt_new(%zu, %u) -> %s", mb, flags,
	      cutoff_strerror(err));
	return tt;
}

/* Probes and compares every field of the answer; `found` is the expected return value. */
static void expect(const cutoff_tt_t *tt, const char *kind, const char *what, uint64_t key,
                   int depth, int ply, bool found, int32_t lower, int32_t upper, cutoff_move_t move,
                   int edepth)
{
	cutoff_tt_hit_t h;
	memset(&h, 0x5a, sizeof(h)); /* written in every case, found or not */
	bool f = cutoff_tt_probe(tt, key, depth, ply, &h);
	CHECK(f == found && h.lower == lower && h.upper == upper && h.move == move &&
	              h.depth == edepth,
	      "%s: %s: probe(depth %d, ply %d) -> found %d, [%d, %d], move %u, depth %d; "
	      "expected found %d, [%d, %d], move %u, depth %d",
	      kind, what, depth, ply, f, (int)h.lower, (int)h.upper, (unsigned)h.move, h.depth,
	      found, (int)lower, (int)upper, (unsigned)move, edepth);
}

static bool present(const cutoff_tt_t *tt, uint64_t key)
{
	cutoff_tt_hit_t h;
	return cutoff_tt_probe(tt, key, 0, 0, &h);
}

/* Small numbers spread over the table, so that the keys of one check do not all share
 * bucket 0 (which small keys would). */
static uint64_t K(uint64_t n) { return n * 0x9e3779b97f4a7c15u; }

#define INF CUTOFF_INF
#define NOMOVE CUTOFF_MOVE_NONE

static void test_bad_arguments(unsigned flags, const char *kind)
{
	int err = 12345;
	CHECK(cutoff_tt_new(0, flags, &err) == NULL && err == CUTOFF_EINVAL, "%s: 0 MiB refused",
	      kind);
	err = 12345;
	CHECK(cutoff_tt_new(CUTOFF_MAX_TT_MB + 1, flags, &err) == NULL && err == CUTOFF_EINVAL,
	      "%s: CUTOFF_MAX_TT_MB + 1 refused", kind);
	err = 12345;
	CHECK(cutoff_tt_new(1, flags | 2u, &err) == NULL && err == CUTOFF_EINVAL,
	      "%s: unknown flag 2 refused", kind);
	err = 12345;
	CHECK(cutoff_tt_new(1, flags | 0x80000000u, &err) == NULL && err == CUTOFF_EINVAL,
	      "%s: unknown flag 0x80000000 refused", kind);
	CHECK(cutoff_tt_new(0, flags, NULL) == NULL, "%s: a NULL err is allowed", kind);

	cutoff_tt_t *tt = make_table(1, flags);
	if (tt) {
		CHECK(cutoff_tt_entries(tt) == 65536, "%s: 1 MiB holds 65536 entries, got %llu",
		      kind, (unsigned long long)cutoff_tt_entries(tt));
		cutoff_tt_free(tt);
	}
	tt = make_table(3, flags);
	if (tt) {
		CHECK(cutoff_tt_entries(tt) == 3 * 65536,
		      "%s: 3 MiB holds 196608 entries, got %llu", kind,
		      (unsigned long long)cutoff_tt_entries(tt));
		cutoff_tt_free(tt);
	}
	cutoff_tt_free(NULL);
	printf("%s: bad sizes and flags refused with CUTOFF_EINVAL\n", kind);
}

static void test_round_trip(cutoff_tt_t *tt, const char *kind)
{
	static const cutoff_bound_t bounds[] = { CUTOFF_BOUND_UPPER, CUTOFF_BOUND_LOWER,
		                                 CUTOFF_BOUND_EXACT };
	static const char *const names[] = { "upper", "lower", "exact" };
	static const int32_t values[] = { 100, -250, 0, CUTOFF_WIN_MIN - 1, -(CUTOFF_WIN_MIN - 1) };

	cutoff_tt_clear(tt);
	for (int b = 0; b < 3; b++) {
		for (int v = 0; v < 5; v++) {
			uint64_t key = 0x0123456789abcdefu * (uint64_t)(10 * b + v + 1);
			int32_t value = values[v];
			cutoff_move_t move = (cutoff_move_t)(7 + 10 * b + v);
			cutoff_tt_store(tt, key, 5, 0, bounds[b], value, move);
			expect(tt, kind, names[b], key, 5, 0, true,
			       (bounds[b] & CUTOFF_BOUND_LOWER) ? value : -INF,
			       (bounds[b] & CUTOFF_BOUND_UPPER) ? value : INF, move, 5);
		}
	}
	expect(tt, kind, "a key never stored", 0x5555aaaa5555aaaau, 0, 0, false, -INF, INF, NOMOVE,
	       -1);

	/* Stores that must be ignored, and the depth limits. */
	cutoff_tt_store(tt, K(0x1111), 3, 0, CUTOFF_BOUND_NONE, 5, 1);
	expect(tt, kind, "a bound NONE is ignored", K(0x1111), 0, 0, false, -INF, INF, NOMOVE, -1);
	cutoff_tt_store(tt, K(0x2222), -1, 0, CUTOFF_BOUND_EXACT, 5, 1);
	expect(tt, kind, "a negative depth is ignored", K(0x2222), 0, 0, false, -INF, INF, NOMOVE,
	       -1);
	cutoff_tt_store(tt, K(0x3333), 0, 0, CUTOFF_BOUND_EXACT, 6, NOMOVE);
	expect(tt, kind, "depth 0, no move", K(0x3333), 0, 0, true, 6, 6, NOMOVE, 0);
	cutoff_tt_store(tt, K(0x4444), 255, 0, CUTOFF_BOUND_EXACT, 7, 2);
	expect(tt, kind, "depth 255", K(0x4444), 255, 0, true, 7, 7, 2, 255);
	cutoff_tt_store(tt, K(0x5555), 300, 0, CUTOFF_BOUND_EXACT, 8, 3);
	expect(tt, kind, "depth 300 is kept as 255", K(0x5555), 255, 0, true, 8, 8, 3, 255);
	cutoff_tt_store(tt, 0, 4, 0, CUTOFF_BOUND_LOWER, 9, 4);
	expect(tt, kind, "key 0 (the key of an empty entry's check word)", 0, 4, 0, true, 9, INF, 4,
	       4);
	printf("%s: store and probe round trips for upper, lower and exact\n", kind);
}

static void test_two_bounds(cutoff_tt_t *tt, const char *kind)
{
	uint64_t rng = 11;
	/* Keys in the first 250 buckets: hashfull counts their entries (see the top). */
	uint64_t k1 = key_in_bucket(tt, 3, &rng), k2 = key_in_bucket(tt, 4, &rng);
	uint64_t k3 = key_in_bucket(tt, 5, &rng), k4 = key_in_bucket(tt, 6, &rng);

	cutoff_tt_clear(tt);
	cutoff_tt_store(tt, k1, 6, 0, CUTOFF_BOUND_LOWER, 10, 1);
	cutoff_tt_store(tt, k1, 6, 0, CUTOFF_BOUND_UPPER, 50, 1);
	expect(tt, kind, "lower 10 and upper 50 at depth 6", k1, 6, 0, true, 10, 50, 1, 6);
	CHECK(cutoff_tt_hashfull(tt) == 2, "%s: two bounds take two entries (hashfull %d)", kind,
	      cutoff_tt_hashfull(tt));
	expect(tt, kind, "both bounds, asked deeper", k1, 7, 0, true, -INF, INF, 1, 6);

	/* The upper bound, shallower, goes beside the deeper lower one. */
	cutoff_tt_store(tt, k2, 8, 0, CUTOFF_BOUND_LOWER, -20, 2);
	cutoff_tt_store(tt, k2, 4, 0, CUTOFF_BOUND_UPPER, 30, 2);
	expect(tt, kind, "lower at 8, upper at 4, asked 4", k2, 4, 0, true, -20, 30, 2, 8);
	expect(tt, kind, "lower at 8, upper at 4, asked 6", k2, 6, 0, true, -20, INF, 2, 8);
	expect(tt, kind, "lower at 8, upper at 4, asked 9", k2, 9, 0, true, -INF, INF, 2, 8);
	CHECK(cutoff_tt_hashfull(tt) == 4, "%s: four entries now (hashfull %d)", kind,
	      cutoff_tt_hashfull(tt));

	/* Equal bounds at equal depth: the value is known, in one entry. */
	cutoff_tt_store(tt, k3, 5, 0, CUTOFF_BOUND_LOWER, 20, 3);
	cutoff_tt_store(tt, k3, 5, 0, CUTOFF_BOUND_UPPER, 20, 3);
	expect(tt, kind, "lower 20 then upper 20 at depth 5 merge", k3, 5, 0, true, 20, 20, 3, 5);
	CHECK(cutoff_tt_hashfull(tt) == 5, "%s: the merge takes one entry (hashfull %d, want 5)",
	      kind, cutoff_tt_hashfull(tt));
	cutoff_tt_store(tt, k4, 5, 2, CUTOFF_BOUND_UPPER, -(CUTOFF_WIN - 9), 4);
	cutoff_tt_store(tt, k4, 5, 2, CUTOFF_BOUND_LOWER, -(CUTOFF_WIN - 9), 4);
	expect(tt, kind, "upper then lower of a loss merge", k4, 5, 2, true, -(CUTOFF_WIN - 9),
	       -(CUTOFF_WIN - 9), 4, 5);
	CHECK(cutoff_tt_hashfull(tt) == 6, "%s: one entry more (hashfull %d, want 6)", kind,
	      cutoff_tt_hashfull(tt));
	printf("%s: lower and upper bounds side by side (two entries), equal ones merged (one)\n",
	       kind);
}

static void test_depth_rule(cutoff_tt_t *tt, const char *kind)
{
	cutoff_tt_clear(tt);
	cutoff_tt_store(tt, K(0xd00d), 7, 0, CUTOFF_BOUND_EXACT, 30, 9);
	expect(tt, kind, "asked as deep", K(0xd00d), 7, 0, true, 30, 30, 9, 7);
	expect(tt, kind, "asked shallower", K(0xd00d), 3, 0, true, 30, 30, 9, 7);
	expect(tt, kind, "asked deeper: no bound, the move stays", K(0xd00d), 8, 0, true, -INF, INF,
	       9, 7);

	/* The documented replacement of an entry of the same key. */
	cutoff_tt_store(tt, K(0xbeef), 20, 0, CUTOFF_BOUND_LOWER, 1, 5);
	cutoff_tt_store(tt, K(0xbeef), 3, 0, CUTOFF_BOUND_LOWER, 2, 6);
	expect(tt, kind, "a shallower bound of the same type is not written", K(0xbeef), 3, 0, true,
	       1, INF, 5, 20);
	cutoff_tt_store(tt, K(0xbeef), 3, 0, CUTOFF_BOUND_EXACT, 2, 6);
	expect(tt, kind, "a shallower exact value replaces a bound", K(0xbeef), 3, 0, true, 2, 2, 6,
	       3);
	cutoff_tt_store(tt, K(0xcafe), 20, 0, CUTOFF_BOUND_EXACT, 1, 5);
	cutoff_tt_new_search(tt);
	cutoff_tt_store(tt, K(0xcafe), 3, 0, CUTOFF_BOUND_UPPER, 2, 6);
	expect(tt, kind, "an older generation's entry is replaced", K(0xcafe), 3, 0, true, -INF, 2,
	       6, 3);
	printf("%s: deeper entries answer, shallower ones give their move only\n", kind);
}

static void test_win_distance(cutoff_tt_t *tt, const char *kind)
{
	const int32_t win7 = CUTOFF_WIN - 7, win9 = CUTOFF_WIN - 9, win4 = CUTOFF_WIN - 4;

	cutoff_tt_clear(tt);
	/* A win found 7 plies from the root, stored at ply 3: 4 plies from the node. */
	cutoff_tt_store(tt, K(0xa1), 4, 3, CUTOFF_BOUND_EXACT, win7, 1);
	expect(tt, kind, "win stored at ply 3, read at 5", K(0xa1), 4, 5, true, win9, win9, 1, 4);
	expect(tt, kind, "win stored at ply 3, read at 3", K(0xa1), 4, 3, true, win7, win7, 1, 4);
	expect(tt, kind, "win stored at ply 3, read at 0", K(0xa1), 4, 0, true, win4, win4, 1, 4);
	cutoff_tt_store(tt, K(0xa2), 4, 3, CUTOFF_BOUND_EXACT, -win7, 2);
	expect(tt, kind, "loss stored at ply 3, read at 5", K(0xa2), 4, 5, true, -win9, -win9, 2,
	       4);
	cutoff_tt_store(tt, K(0xa3), 4, 3, CUTOFF_BOUND_LOWER, win7, 3);
	expect(tt, kind, "lower bound of a win", K(0xa3), 4, 5, true, win9, INF, 3, 4);
	cutoff_tt_store(tt, K(0xa4), 4, 3, CUTOFF_BOUND_UPPER, -win7, 4);
	expect(tt, kind, "upper bound of a loss", K(0xa4), 4, 5, true, -INF, -win9, 4, 4);
	cutoff_tt_store(tt, K(0xa5), 4, 0, CUTOFF_BOUND_EXACT, CUTOFF_WIN, 5);
	expect(tt, kind, "a win at the node itself, read at 2", K(0xa5), 4, 2, true, CUTOFF_WIN - 2,
	       CUTOFF_WIN - 2, 5, 4);

	static const int32_t plain[] = { 1234, -1234, 0, CUTOFF_WIN_MIN - 1,
		                         -(CUTOFF_WIN_MIN - 1) };
	for (int i = 0; i < 5; i++) {
		uint64_t key = K(0xb0 + (uint64_t)i);
		cutoff_tt_store(tt, key, 4, 3, CUTOFF_BOUND_EXACT, plain[i], 6);
		expect(tt, kind, "an ordinary value is the same at every ply", key, 4, 5, true,
		       plain[i], plain[i], 6, 4);
	}
	printf("%s: wins and losses kept as distance from the node, ordinary values unchanged\n",
	       kind);
}

enum {
	FILL_KEYS = 20000
};

/* Stores FILL_KEYS random keys, and writes in found[] which of them the table kept. */
static int fill(cutoff_tt_t *tt, uint64_t seed, uint64_t *keys, bool *found)
{
	uint64_t rng = seed;
	int n = 0;
	for (int i = 0; i < FILL_KEYS; i++) {
		keys[i] = next_u64(&rng);
		cutoff_tt_store(tt, keys[i], 1 + i % 7, 0, CUTOFF_BOUND_EXACT, i % 1000,
		                (cutoff_move_t)i);
	}
	for (int i = 0; i < FILL_KEYS; i++) {
		found[i] = present(tt, keys[i]);
		n += found[i];
	}
	return n;
}

static int count_present(const cutoff_tt_t *tt, const uint64_t *keys)
{
	int n = 0;
	for (int i = 0; i < FILL_KEYS; i++)
		n += present(tt, keys[i]);
	return n;
}

static void test_clear(cutoff_tt_t *tt, const char *kind)
{
	static uint64_t keys[FILL_KEYS];
	static bool found[FILL_KEYS];
	static const int parts[] = {
		1, 2, 3, 7, 64, 20000
	}; /* the last: more parts than buckets */

	cutoff_tt_clear(tt);
	int n = fill(tt, 1, keys, found);
	CHECK(n > FILL_KEYS / 2, "%s: the table keeps most of %d keys (%d)", kind, FILL_KEYS, n);
	cutoff_tt_clear(tt);
	CHECK(count_present(tt, keys) == 0 && cutoff_tt_hashfull(tt) == 0,
	      "%s: cutoff_tt_clear forgets everything", kind);

	for (int p = 0; p < (int)(sizeof(parts) / sizeof(parts[0])); p++) {
		fill(tt, 2 + (uint64_t)p, keys, found);
		/* Backwards: the parts are independent slices, in any order. */
		for (int part = parts[p] - 1; part >= 0; part--)
			cutoff_tt_clear_part(tt, part, parts[p]);
		CHECK(count_present(tt, keys) == 0 && cutoff_tt_hashfull(tt) == 0,
		      "%s: clearing every part of %d forgets everything", kind, parts[p]);
	}

	/* One part of two: exactly the keys of the first half of the buckets go. */
	cutoff_tt_clear(tt);
	fill(tt, 9, keys, found);
	cutoff_tt_clear_part(tt, 0, 2);
	uint64_t half = cutoff_tt_entries(tt) / 4 / 2;
	int wrong = 0;
	for (int i = 0; i < FILL_KEYS; i++) {
		bool want = found[i] && bucket_of(tt, keys[i]) >= half;
		wrong += present(tt, keys[i]) != want;
	}
	CHECK(wrong == 0, "%s: part 0 of 2 clears the first half of the buckets only (%d wrong)",
	      kind, wrong);

	/* Out-of-range parts are ignored. */
	cutoff_tt_clear(tt);
	n = fill(tt, 10, keys, found);
	cutoff_tt_clear_part(tt, 2, 2);
	cutoff_tt_clear_part(tt, -1, 2);
	cutoff_tt_clear_part(tt, 0, 0);
	CHECK(count_present(tt, keys) == n, "%s: clear_part with a bad part or count does nothing",
	      kind);
	printf("%s: clear and clear_part (1, 2, 3, 7, 64 and 20000 parts) forget everything\n",
	       kind);
}

static void test_aging(cutoff_tt_t *tt, const char *kind)
{
	uint64_t rng = 77;
	uint64_t k[6]; /* A (old and deep), B, C, D (new), E (the newcomer), F: one bucket */
	for (int i = 0; i < 6; i++)
		k[i] = key_in_bucket(tt, 1000, &rng);

	/* Same generation: the depth decides, A stays, one of the shallow ones goes. */
	cutoff_tt_clear(tt);
	cutoff_tt_store(tt, k[0], 40, 0, CUTOFF_BOUND_EXACT, 1, 1);
	for (int i = 1; i <= 3; i++)
		cutoff_tt_store(tt, k[i], 10, 0, CUTOFF_BOUND_EXACT, 1, 1);
	cutoff_tt_store(tt, k[4], 2, 0, CUTOFF_BOUND_EXACT, 1, 1);
	int new_kept = present(tt, k[1]) + present(tt, k[2]) + present(tt, k[3]);
	CHECK(present(tt, k[0]) && present(tt, k[4]) && new_kept == 2,
	      "%s: one generation: the deep entry stays, a shallow one is replaced", kind);
	expect(tt, kind, "another key of a full bucket is not found", k[5], 0, 0, false, -INF, INF,
	       NOMOVE, -1);

	/* Two generations later A is still worth more than the new depth-10 entries. */
	cutoff_tt_clear(tt);
	cutoff_tt_store(tt, k[0], 40, 0, CUTOFF_BOUND_EXACT, 1, 1);
	cutoff_tt_new_search(tt);
	cutoff_tt_new_search(tt);
	for (int i = 1; i <= 3; i++)
		cutoff_tt_store(tt, k[i], 10, 0, CUTOFF_BOUND_EXACT, 1, 1);
	cutoff_tt_store(tt, k[4], 2, 0, CUTOFF_BOUND_EXACT, 1, 1);
	CHECK(present(tt, k[0]) && present(tt, k[4]), "%s: two generations: A still stays", kind);

	/* Ten generations later A goes first, before the newer, deeper-than-E entries. */
	cutoff_tt_clear(tt);
	cutoff_tt_store(tt, k[0], 40, 0, CUTOFF_BOUND_EXACT, 1, 1);
	for (int g = 0; g < 10; g++)
		cutoff_tt_new_search(tt);
	for (int i = 1; i <= 3; i++)
		cutoff_tt_store(tt, k[i], 10, 0, CUTOFF_BOUND_EXACT, 1, 1);
	cutoff_tt_store(tt, k[4], 2, 0, CUTOFF_BOUND_EXACT, 1, 1);
	CHECK(!present(tt, k[0]) && present(tt, k[1]) && present(tt, k[2]) && present(tt, k[3]) &&
	              present(tt, k[4]),
	      "%s: ten generations: the old deep entry is replaced, the new ones stay", kind);
	printf("%s: old entries are replaced before newer deep ones (keys of bucket 1000)\n", kind);
}

static void test_hashfull(cutoff_tt_t *tt, const char *kind)
{
	static uint64_t keys[FILL_KEYS];
	static bool found[FILL_KEYS];

	cutoff_tt_clear(tt);
	CHECK(cutoff_tt_hashfull(tt) == 0, "%s: an empty table has hashfull 0", kind);
	fill(tt, 5, keys, found);
	int full = cutoff_tt_hashfull(tt);
	CHECK(full > 0 && full <= 1000, "%s: hashfull %d after %d stores", kind, full, FILL_KEYS);
	cutoff_tt_new_search(tt);
	CHECK(cutoff_tt_hashfull(tt) == 0, "%s: a new search's hashfull is 0 (got %d)", kind,
	      cutoff_tt_hashfull(tt));
	fill(tt, 6, keys, found);
	CHECK(cutoff_tt_hashfull(tt) > 0, "%s: and grows again with stores", kind);
	cutoff_tt_clear(tt);
	CHECK(cutoff_tt_hashfull(tt) == 0, "%s: hashfull 0 after clear (got %d)", kind,
	      cutoff_tt_hashfull(tt));
	printf("%s: hashfull 0 -> %d -> 0\n", kind, full);
}

/* One random sequence of stores, probes and new searches on keys of 64 buckets, applied to
 * both kinds of table: every answer must be the same. */
static void test_same_answers(void)
{
	cutoff_tt_t *a = make_table(1, 0), *b = make_table(1, CUTOFF_TT_LOCKED);
	if (!a || !b) {
		cutoff_tt_free(a);
		cutoff_tt_free(b);
		return;
	}
	static uint64_t keys[512];
	uint64_t rng = 2024;
	for (int i = 0; i < 512; i++)
		keys[i] = key_in_bucket(a, 100 + (uint64_t)(i % 64), &rng);
	int differ = 0, hits = 0, upper_differ = 0, end_uppers = 0;
	for (int op = 0; op < 200000; op++) {
		uint64_t r = next_u64(&rng);
		uint64_t key = keys[r % 512];
		int depth = (int)(r >> 9 & 15), ply = (int)(r >> 13 & 7);
		if ((r >> 16 & 3) == 0) {
			cutoff_bound_t bound = (cutoff_bound_t)(1 + (r >> 18) % 3);
			int32_t value = (int32_t)(r >> 20 & 63) - 32;
			if ((r >> 26 & 7) == 0)
				value = CUTOFF_WIN - 10 - (int32_t)(r >> 29 & 15);
			cutoff_move_t move =
				(r >> 33 & 7) ? (cutoff_move_t)(r >> 36 & 255) : NOMOVE;
			if ((r >> 44 & 7) == 0)
				depth = CUTOFF_TT_DEPTH_END; /* exact to the end (the solve mode) */
			cutoff_tt_store(a, key, depth, ply, bound, value, move);
			cutoff_tt_store(b, key, depth, ply, bound, value, move);
		} else if ((r >> 16 & 1023) == 1) {
			cutoff_tt_new_search(a);
			cutoff_tt_new_search(b);
		} else {
			cutoff_tt_hit_t ha, hb;
			bool fa = cutoff_tt_probe(a, key, depth, ply, &ha);
			bool fb = cutoff_tt_probe(b, key, depth, ply, &hb);
			hits += fa;
			differ += fa != fb || ha.lower != hb.lower || ha.upper != hb.upper ||
			          ha.move != hb.move || ha.depth != hb.depth;
			/* The upper-bound probe agrees with the whole one, both kinds. */
			cutoff_tt_t *t = op & 1 ? a : b;
			cutoff_tt_hit_t hit, end;
			int writer;
			int32_t upper, end_upper;
			bool fw = cutoff_tt_probe_by(t, key, depth, ply, &hit, &end, &writer);
			bool fu = cutoff_tt_probe_upper(t, key, depth, ply, &upper, &end_upper);
			upper_differ += fw != fu || upper != hit.upper || end_upper != end.upper;
			end_uppers += end_upper < CUTOFF_INF;
		}
	}
	CHECK(differ == 0 && hits > 0,
	      "lock-free and locked tables answer alike: %d of 200000 operations differ, %d hits",
	      differ, hits);
	CHECK(cutoff_tt_hashfull(a) == cutoff_tt_hashfull(b), "and have the same hashfull");
	CHECK(upper_differ == 0 && end_uppers > 0,
	      "cutoff_tt_probe_upper gives the whole probe's upper bounds: %d answers differ "
	      "(%d with an end entry's)",
	      upper_differ, end_uppers);
	printf("lock-free and locked: 200000 random operations, %d hits, %d answers differ\n", hits,
	       differ);
	cutoff_tt_free(a);
	cutoff_tt_free(b);
}

int main(void)
{
	static const unsigned flags[] = { 0, CUTOFF_TT_LOCKED };
	static const char *const kinds[] = { "lock-free", "locked" };

	for (int i = 0; i < 2; i++) {
		test_bad_arguments(flags[i], kinds[i]);
		cutoff_tt_t *tt = make_table(1, flags[i]);
		if (!tt)
			continue;
		test_round_trip(tt, kinds[i]);
		test_two_bounds(tt, kinds[i]);
		test_depth_rule(tt, kinds[i]);
		test_win_distance(tt, kinds[i]);
		test_clear(tt, kinds[i]);
		test_aging(tt, kinds[i]);
		test_hashfull(tt, kinds[i]);
		cutoff_tt_free(tt);
	}
	test_same_answers();
	return check_report();
}
