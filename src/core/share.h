/* SPDX-License-Identifier: MIT */
/*
 * share.h — a thread's export of its deep table stores (internal): the library's side of
 * sharing a table with other engines (cutoff.h, section 7; the cluster layer in
 * src/cluster/ is its one user today).
 *
 * Each searching thread owns one ring of cutoff_tt_entry_t (Concurrency Kit's ck_ring,
 * single producer, single consumer):
 *
 *   producer  the searcher of the ring's thread, in tt_record (search.c): every store of
 *             at least the control's export depth is pushed, with its value as the table
 *             keeps it (a win counted from the node, tt.h), so that another engine stores
 *             it with ply 0 through the normal store path. A full ring drops the entry
 *             and counts it in `dropped` (written by the producer only, relaxed).
 *   consumer  whoever calls cutoff_engine_export for that thread (one caller at a time
 *             per thread, documented in cutoff.h): it takes the oldest entries.
 *
 * ck_ring orders the two (the producer's write of an entry before its index, the
 * consumer's read of the index before the entry); `dropped` is a statistic, read relaxed.
 * The ring is allocated with the engine and emptied before each search, when no thread
 * pushes and no consumer may take (cutoff_engine_search owns the engine then). No
 * allocation, no lock in the search.
 */
#ifndef CUTOFF_SHARE_H
#define CUTOFF_SHARE_H

#include <ck_ring.h>
#include <stdint.h>

#include "base/atomic.h"
#include "cutoff.h"

CK_RING_PROTOTYPE(cutoff_share, cutoff_tt_entry)

typedef struct cutoff_share {
	ck_ring_t ring;
	struct cutoff_tt_entry *buffer; /* `size` entries, a power of two */
	unsigned size;
	uint64_t dropped; /* entries not pushed because the ring was full, this search */
} cutoff_share_t;

/* Allocates a ring of `size` entries (a power of two, at least 4). Returns 0 or
 * CUTOFF_ENOMEM. */
int cutoff_share_init(cutoff_share_t *sh, unsigned size);
void cutoff_share_destroy(cutoff_share_t *sh);

/* Empties the ring and its count of dropped entries: only while nobody pushes or takes. */
void cutoff_share_reset(cutoff_share_t *sh);

/* The producer: pushes one store (value as the table keeps it). */
static inline void cutoff_share_push(cutoff_share_t *sh, uint64_t key, int depth,
                                     cutoff_bound_t bound, int32_t value, cutoff_move_t move)
{
	struct cutoff_tt_entry e = {
		.key = key,
		.move = move,
		.value = (int16_t)value,
		.depth = (uint8_t)(depth > 255 ? 255 : depth),
		.bound = (uint8_t)bound,
	};
	if (!ck_ring_enqueue_spsc_cutoff_share(&sh->ring, sh->buffer, &e))
		cutoff_u64_store_relaxed(&sh->dropped, cutoff_u64_load_relaxed(&sh->dropped) + 1);
}

/* The consumer: takes up to `max` entries, oldest first, into out; returns how many. */
int cutoff_share_take(cutoff_share_t *sh, cutoff_tt_entry_t *out, int max);

#endif /* CUTOFF_SHARE_H */
