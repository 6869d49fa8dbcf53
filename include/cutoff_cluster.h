/* SPDX-License-Identifier: MIT */
/*
 * cutoff_cluster.h — one search over several processes (MPI ranks), each with its own
 * engine and table: the cluster layer (libcutoff_cluster, built when MPI is found).
 *
 * Every rank runs its engine's own driver (lazy SMP, or ABDADA) on its own threads; the
 * ranks share their deepest recent table entries and stop together; every rank's answer
 * is gathered (to every rank, rank 0 among them), the same vote picks one on each, and
 * every rank returns it. The layer uses nothing of the engine but
 * cutoff.h, chiefly its section 7 (export, import, the poll hook, thread_base): the
 * library itself knows nothing of MPI. docs/cluster.md has the design and the figures.
 *
 * Threads. The layer makes its MPI calls only from the thread that calls
 * cutoff_cluster_search (the engine's thread 0, through the poll hook, and before and
 * after the engine's search), on a communicator of its own (a duplicate of the one it is
 * given). It asks MPI_THREAD_MULTIPLE of MPI_Init_thread nonetheless, so that a front
 * end may talk over another communicator from another thread while a search runs (UCI's
 * reader does): cutoff_cluster_new refuses a lower level.
 *
 * The exchange. Each rank's threads export the table stores of at least the shared depth
 * (cutoff_engine_export); at the first poll of thread 0 once `send_us` has passed since
 * its last batch, the rank sends the deepest `batch` of them (full 64-bit keys, 16 bytes each)
 * to the next rank of a ring, which stores them through the normal store path
 * (cutoff_engine_import) and passes them on until they come back to their origin; or,
 * with CUTOFF_CLUSTER_ALL, to every other rank at once. At most `in_flight` sends are
 * outstanding; what does not fit is dropped and counted, and the shared depth rises by
 * one (it falls back, not below `min_depth`, while batches stay under a quarter full).
 *
 * Coordination. At every poll a rank also completes a round of a non-blocking allreduce
 * of (stop, nodes, entries stored) and starts the next: every rank sees the same sums,
 * so all agree on the round that ends the search. A rank votes to stop when its own
 * search has ended (its last iteration completed, a proven result, its time limit: only
 * rank 0 has the time limit) or when cutoff_cluster_stop was called; the node limit is
 * the sum over ranks. Afterwards every message in flight is received and every request
 * completed before the call returns. A rank that does not answer within `timeout_ms`
 * makes the others return CUTOFF_EPEER (cutoff_cluster_error says which step waited);
 * their MPI state is then unusable and the caller should MPI_Abort.
 *
 * The vote (computed alike on every rank from the same gathered ballots, so rank 0's is
 * everyone's): a value solved to the end of the game if
 * any rank has one; else a proven win, the shortest, and of equally short the deepest;
 * otherwise the deepest completed iteration; among ranks at that same depth, the move
 * most of them report, and on a tie the lowest rank's. It is the engine's own rule
 * among threads (cutoff_pick_deepest), with a majority of moves as its tie-break, so
 * the answer is exact wherever the serial search is: any completed root search keeps
 * the contract.
 */
#ifndef CUTOFF_CLUSTER_H
#define CUTOFF_CLUSTER_H

/* CUTOFF_CLUSTER_NO_MPI: the protocol without MPI's constructor, for the simulator's
 * build (src/cluster/transport_sim.c carries it on a simulated network instead). */
#ifndef CUTOFF_CLUSTER_NO_MPI
#include <mpi.h>
#endif

#include "cutoff.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where a rank's batches go. */
typedef enum cutoff_cluster_exchange {
	CUTOFF_CLUSTER_RING = 0, /* to the next rank, passed on until back at the origin */
	CUTOFF_CLUSTER_ALL = 1,  /* to every other rank */
	CUTOFF_CLUSTER_NONE = 2  /* nothing: the ranks only stop and vote together (the
	                            control that measures what sharing buys) */
} cutoff_cluster_exchange_t;

typedef struct cutoff_cluster_config {
	cutoff_cluster_exchange_t exchange; /* default CUTOFF_CLUSTER_RING */
	int batch;      /* entries per message, 16 .. 65536; default 256 (4 KiB) */
	int in_flight;  /* most sends outstanding at once, 1 .. 64; default 8 */
	int min_depth;  /* the least depth of a shared entry, where the adaptive shared depth
	                   starts and which it never goes below, 0 .. 255; default 2 (on
	                   chess here, 1 rank against 2, shallower sharing gave fewer nodes
	                   to the same depth: docs/cluster.md) */
	int send_us;    /* a batch that is not full goes at most this often, 0 .. 1000000
	                   microseconds; default 200 */
	int timeout_ms; /* a rank silent this long is dead: CUTOFF_EPEER, 100 .. 3600000;
	                   default 20000 */
} cutoff_cluster_config_t;

/* Fills *cfg with the defaults above; nothing for NULL. */
void cutoff_cluster_config_default(cutoff_cluster_config_t *cfg);

typedef struct cutoff_cluster cutoff_cluster_t;

/*
 * A cluster over the ranks of `comm` (duplicated; collective: every rank of comm calls
 * it). MPI must be initialized with MPI_THREAD_MULTIPLE granted. NULL with *err (when not
 * NULL): CUTOFF_EINVAL for a bad field of cfg (NULL cfg: the defaults), CUTOFF_ENOTSUP
 * when MPI is not initialized or granted less than MPI_THREAD_MULTIPLE, CUTOFF_ENOMEM.
 * On CUTOFF_EINVAL and CUTOFF_ENOTSUP, no rank has made a collective call yet.
 */
#ifndef CUTOFF_CLUSTER_NO_MPI
cutoff_cluster_t *cutoff_cluster_new(MPI_Comm comm, const cutoff_cluster_config_t *cfg, int *err);
#endif

/* Frees the cluster (not collective). NULL is ignored. */
void cutoff_cluster_free(cutoff_cluster_t *cl);

/* cutoff_cluster_rank: this process's rank; cutoff_cluster_size: the number of ranks;
 * -1 for NULL. */
int cutoff_cluster_rank(const cutoff_cluster_t *cl);
int cutoff_cluster_size(const cutoff_cluster_t *cl);

/*
 * Prepares an engine configuration for the cluster: an export ring for every thread
 * (config.share_ring, when 0, gets one of 4 batches) and config.thread_base = rank x
 * threads, so that the ranks' lazy SMP threads skip differently (every rank must use the
 * same thread count). CUTOFF_EINVAL for NULL.
 */
int cutoff_cluster_configure(const cutoff_cluster_t *cl, cutoff_config_t *cfg);

/*
 * One search by every rank together (collective: every rank calls it with its engine,
 * made from a configuration that cutoff_cluster_configure prepared, the same root
 * position and the same limits). Rank 0's limits.time_ms holds for all; limits.nodes is
 * the sum over ranks; limits.poll must be NULL (the layer's own). `info` is called on
 * rank 0 only, after each of its iterations, with the nodes of every rank (as of the
 * latest round). Every rank writes the voted answer into *result, with the counters and
 * profiles of all ranks summed; time_s is this rank's wall time in the call (its
 * search, the end's drain and the vote).
 *
 * Returns what cutoff_engine_search returns for the voted answer (0, CUTOFF_ETERMINAL),
 * CUTOFF_EINVAL for NULL, a limits.poll, or limits that differ between ranks (every
 * rank returns it), the engine's own error, or CUTOFF_EPEER when a rank did not answer
 * in time (cutoff_cluster_error says where; MPI should then be aborted).
 */
int cutoff_cluster_search(cutoff_cluster_t *cl, cutoff_engine_t *engine, const void *root,
                          const cutoff_limits_t *limits, cutoff_result_t *result,
                          cutoff_info_fn info, void *info_user);

/* Asks the running (or the next) cluster search of this rank to stop: the ranks agree at
 * the next round. Safe from any thread; the request is consumed when a search returns.
 * Nothing for NULL. */
void cutoff_cluster_stop(cutoff_cluster_t *cl);

/* Withdraws a stop that no search consumed, as cutoff_engine_cancel_stop does. Only
 * while no search of cl runs. Nothing for NULL. */
void cutoff_cluster_cancel_stop(cutoff_cluster_t *cl);

/* One rank's share of the latest cluster search, gathered to every rank. */
typedef struct cutoff_cluster_stats {
	uint64_t nodes;        /* the rank's engine's nodes */
	double time_s;         /* the rank's wall time in cutoff_cluster_search */
	double comm_s;         /* of which spent in the layer: exchanges, rounds, the end */
	uint64_t rounds;       /* allreduce rounds completed */
	uint64_t sent_entries; /* entries sent (own and passed on) */
	uint64_t sent_messages;
	uint64_t sent_bytes; /* bytes on the wire, headers included */
	uint64_t received_entries;
	uint64_t received_messages;
	uint64_t received_bytes;
	uint64_t stored_entries;    /* received entries written into the table */
	uint64_t forwarded_entries; /* received entries passed on around the ring */
	uint64_t dropped_entries;   /* exported entries not sent: rings full, batch overflow,
	                              no free send slot */
	uint64_t tt_hits_shared;    /* the rank's search found an imported entry (counted only
	                              with config.profile_tt_writers) */
	int shared_depth;           /* the adaptive shared depth at the end */
} cutoff_cluster_stats_t;

/* The stats of `rank` for the latest search into *out. CUTOFF_EINVAL for NULL or a bad
 * rank. */
int cutoff_cluster_stats(const cutoff_cluster_t *cl, int rank, cutoff_cluster_stats_t *out);

/* What went wrong in the latest failed call, in one line ("" when nothing). Never NULL
 * for a non-NULL cl. */
const char *cutoff_cluster_error(const cutoff_cluster_t *cl);

#ifdef __cplusplus
}
#endif

#endif /* CUTOFF_CLUSTER_H */
