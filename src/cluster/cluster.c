/* SPDX-License-Identifier: MIT */
/*
 * cluster.c — one search over several ranks (contract and design in
 * include/cutoff_cluster.h; figures in docs/cluster.md): the protocol, over a transport
 * (transport.h) that carries its messages and collectives. MPI's is transport_mpi.c;
 * nothing here names MPI.
 *
 * Who runs what. Everything here runs on the thread that called cutoff_cluster_search:
 * before the engine's search (checks, limits), inside it (progress(), from the engine's
 * poll hook on thread 0, about every 1024 of thread 0's nodes), and after it (the rounds
 * until every rank agrees, the drain, the vote). So no state of the cluster is shared
 * between threads, except `stop_requested` (cutoff_cluster_stop, from any thread: an
 * atomic int, relaxed) and what the engine guards itself (its export rings, its table).
 *
 * Invariants.
 *   - Rounds. Every rank runs the same sequence of collective calls on its transport:
 *     rounds 0, 1, ..., K of an allreduce, each started only after the previous one
 *     completed on this rank, then the end's collectives in a fixed order. Round k's
 *     sums are the same on every rank, so the first round whose stop sum is positive (or
 *     whose node sum reaches the limit) is the same K everywhere: no rank starts round
 *     K + 1.
 *   - Messages. A rank sends only before it has seen round K; after K it only receives.
 *     A search's messages carry a tag of their own, so that a receive still posted from
 *     one search never takes a message of the next.
 *     sent_to[r] counts its messages to rank r; at the end a reduce-scatter of those
 *     counts tells each rank how many messages it must still take, and it receives until
 *     it has, so no message is left unmatched and every send completes.
 *   - Buffers. A send slot is busy from its isend until its test succeeds; a receive
 *     slot always has a receive posted during a search, and none after it (the last
 *     ones are cancelled once every expected message is in). No allocation during a
 *     search: slots, scratch and the result copy are made by cutoff_cluster_make.
 *   - Time. Every wait (a round, the end's collectives, the drain) is a loop of tests
 *     and short sleeps, bounded by timeout_ms; on expiry the call returns CUTOFF_EPEER
 *     with the step named, and leaves the transport to the caller (MPI_Abort). A
 *     transport that knows when a rank has deserted (transport.h: the simulated network,
 *     whose ranks are never silent) bounds them by that instead: its clock is virtual,
 *     and a rank's virtual time between two polls grows with the cost model without
 *     limit (1024 nodes of 1 s each), so no fixed time-out fits every model.
 */
#include "cluster/cluster.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/atomic.h"
#include "base/platform.h"

enum {
	TAGS = 32767, /* a search's messages carry tag 1 + (its number % TAGS): a receive
	                 left over from one search cannot match the next one's */
	RECV_SLOTS = 4,
	SLEEP_NS = 50000,  /* a wait's nap between tests: leaves the CPU to searching ranks */
	SPIN_NS = 50000,   /* ... after this long testing without a nap: the answer of a
	                     rank that is not searching comes in microseconds */
	SPIN_TESTS = 2000, /* ... or after this many tests (a simulated transport's clock
	                      does not move while it is only tested) */
	MAX_SHARED_DEPTH = 64,
	QUIET_SENDS = 8, /* sends under a quarter full before the shared depth falls */
};

/* A message: its origin rank and count, then `count` entries. */
typedef struct msg_header {
	int32_t origin;
	int32_t count;
} msg_header_t;

/* What the vote weighs: one rank's answer in brief. */
typedef struct ballot {
	int32_t iterations, solved, value, bound, depth, rc;
	uint32_t move;
} ballot_t;

typedef struct slot {
	cutoff_req_t req;
	unsigned char *buf;
	bool busy;
} slot_t;

/* What a round sums: the stop votes, nodes, entries stored. */
enum {
	SUM_STOP,
	SUM_NODES,
	SUM_STORED,
	SUMS
};

struct cutoff_cluster {
	cutoff_transport_t tp; /* its ctx owned here (transport.h) */
	int rank, size;
	cutoff_cluster_config_t cfg;
	size_t msg_bytes; /* header + batch entries */
	slot_t send[64];
	slot_t recv[RECV_SLOTS];
	uint64_t *sent_to;          /* messages sent to each rank in this search */
	cutoff_tt_entry_t *scratch; /* what one progress takes from the rings */
	int scratch_cap;
	cutoff_result_t *voted;        /* the answer broadcast from the voting rank */
	cutoff_cluster_stats_t *stats; /* every rank's, after a search */
	struct ballot *ballots;        /* every rank's answer in brief, for the vote */
	int stop_requested;            /* cutoff_cluster_stop: any thread, relaxed */
	char error[256];

	/* one search's state: written and read by the searching thread only */
	cutoff_engine_t *engine;
	int threads;
	uint64_t node_limit;
	bool searching; /* the engine's search has not returned yet */
	bool agreed;    /* round K seen: the search is over for every rank */
	bool failed;    /* a wait timed out: CUTOFF_EPEER */
	cutoff_req_t round;
	bool round_busy;
	int64_t round_in[SUMS], round_out[SUMS];
	uint64_t round_started_ns;
	uint64_t nodes;         /* the engine's, as the poll hook last said */
	uint64_t cluster_nodes; /* every rank's, as of the latest round */
	uint64_t own_nodes_at_round;
	uint64_t last_send_ns;
	uint64_t ring_dropped; /* the rings' drop counts summed, as last read */
	uint64_t arrivals;     /* messages received, well formed or not */
	uint64_t searches;     /* cutoff_cluster_search calls so far: the tag */
	int tag;
	int shared_depth;
	int quiet_sends;
	cutoff_cluster_stats_t mine;
	cutoff_info_fn info;
	void *info_user;
	cutoff_result_t *info_copy;
};

/* The transport's clock (real, or virtual in a simulation) and its pause. */
static uint64_t now_ns(const cutoff_cluster_t *cl) { return cl->tp.now_ns(cl->tp.ctx); }
static void nap(const cutoff_cluster_t *cl) { cl->tp.nap(cl->tp.ctx, SLEEP_NS); }

static void fail(cutoff_cluster_t *cl, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(cutoff_cluster_t *cl, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(cl->error, sizeof(cl->error), fmt, ap);
	va_end(ap);
	cl->failed = true;
}

void cutoff_cluster_config_default(cutoff_cluster_config_t *c)
{
	if (!c)
		return;
	*c = (cutoff_cluster_config_t){
		.exchange = CUTOFF_CLUSTER_RING,
		.batch = 256,
		.in_flight = 8,
		.min_depth = 2,
		.send_us = 200,
		.timeout_ms = 20000,
	};
}

bool cutoff_cluster_config_ok(const cutoff_cluster_config_t *c)
{
	return (c->exchange == CUTOFF_CLUSTER_RING || c->exchange == CUTOFF_CLUSTER_ALL ||
	        c->exchange == CUTOFF_CLUSTER_NONE) &&
	       c->batch >= 16 && c->batch <= 65536 && c->in_flight >= 1 && c->in_flight <= 64 &&
	       c->min_depth >= 0 && c->min_depth <= 255 && c->send_us >= 0 &&
	       c->send_us <= 1000000 && c->timeout_ms >= 100 && c->timeout_ms <= 3600000;
}

void cutoff_cluster_free(cutoff_cluster_t *cl)
{
	if (!cl)
		return;
	for (int i = 0; i < 64; i++)
		free(cl->send[i].buf);
	for (int i = 0; i < RECV_SLOTS; i++)
		free(cl->recv[i].buf);
	free(cl->sent_to);
	free(cl->scratch);
	free(cl->voted);
	free(cl->info_copy);
	free(cl->stats);
	free(cl->ballots);
	if (cl->tp.destroy)
		cl->tp.destroy(cl->tp.ctx);
	free(cl);
}

cutoff_cluster_t *cutoff_cluster_make(const cutoff_transport_t *tp,
                                      const cutoff_cluster_config_t *cfg, int *err)
{
	int dummy;
	cutoff_cluster_config_t defaults;
	if (!err)
		err = &dummy;
	if (!cfg) {
		cutoff_cluster_config_default(&defaults);
		cfg = &defaults;
	}
	const bool valid = cutoff_cluster_config_ok(cfg);
	cutoff_cluster_t *cl = valid ? calloc(1, sizeof(*cl)) : NULL;
	if (!cl) {
		*err = valid ? CUTOFF_ENOMEM : CUTOFF_EINVAL;
		tp->destroy(tp->ctx);
		return NULL;
	}
	cl->tp = *tp;
	cl->cfg = *cfg;
	cl->rank = tp->rank;
	cl->size = tp->size;
	cl->msg_bytes = sizeof(msg_header_t) + (size_t)cfg->batch * sizeof(cutoff_tt_entry_t);
	bool ok = true;
	for (int i = 0; i < cfg->in_flight; i++)
		ok &= (cl->send[i].buf = malloc(cl->msg_bytes)) != NULL;
	for (int i = 0; i < RECV_SLOTS; i++)
		ok &= (cl->recv[i].buf = malloc(cl->msg_bytes)) != NULL;
	cl->scratch_cap = 4 * cfg->batch;
	ok &= (cl->sent_to = calloc((size_t)cl->size, sizeof(uint64_t))) != NULL;
	ok &= (cl->scratch = malloc((size_t)cl->scratch_cap * sizeof(cutoff_tt_entry_t))) != NULL;
	ok &= (cl->voted = malloc(sizeof(cutoff_result_t))) != NULL;
	ok &= (cl->info_copy = malloc(sizeof(cutoff_result_t))) != NULL;
	ok &= (cl->stats = calloc((size_t)cl->size, sizeof(cutoff_cluster_stats_t))) != NULL;
	ok &= (cl->ballots = calloc((size_t)cl->size, sizeof(ballot_t))) != NULL;
	if (!ok) {
		cutoff_cluster_free(cl);
		*err = CUTOFF_ENOMEM;
		return NULL;
	}
	cl->shared_depth = cfg->min_depth;
	*err = CUTOFF_OK;
	return cl;
}

int cutoff_cluster_rank(const cutoff_cluster_t *cl) { return cl ? cl->rank : -1; }
int cutoff_cluster_size(const cutoff_cluster_t *cl) { return cl ? cl->size : -1; }

const char *cutoff_cluster_error(const cutoff_cluster_t *cl) { return cl ? cl->error : ""; }

int cutoff_cluster_configure(const cutoff_cluster_t *cl, cutoff_config_t *cfg)
{
	if (!cl || !cfg)
		return CUTOFF_EINVAL;
	if (cfg->share_ring == 0) {
		int ring = 16;
		while (ring < 4 * cl->cfg.batch)
			ring *= 2;
		cfg->share_ring = ring;
	}
	cfg->thread_base = cl->rank * cfg->threads;
	return CUTOFF_OK;
}

void cutoff_cluster_stop(cutoff_cluster_t *cl)
{
	if (cl)
		cutoff_int_store_relaxed(&cl->stop_requested, 1);
}

void cutoff_cluster_cancel_stop(cutoff_cluster_t *cl)
{
	if (cl)
		cutoff_int_store_relaxed(&cl->stop_requested, 0);
}

int cutoff_cluster_stats(const cutoff_cluster_t *cl, int rank, cutoff_cluster_stats_t *out)
{
	if (!cl || !out || rank < 0 || rank >= cl->size)
		return CUTOFF_EINVAL;
	*out = cl->stats[rank];
	return CUTOFF_OK;
}

/* ---- waiting, bounded ------------------------------------------------------------- */

/* Whether a wait that began at t0 must give up: a rank deserted (when the transport can
 * tell), else timeout_ms has passed. */
static bool given_up(const cutoff_cluster_t *cl, uint64_t t0)
{
	if (cl->tp.deserted)
		return cl->tp.deserted(cl->tp.ctx);
	return now_ns(cl) - t0 > (uint64_t)cl->cfg.timeout_ms * 1000000u;
}

/* Waits for `req`, napping between tests; false (and the cluster failed, naming `what`)
 * when it gives up first (given_up). */
static bool wait_bounded(cutoff_cluster_t *cl, cutoff_req_t *req, const char *what)
{
	uint64_t t0 = now_ns(cl);
	for (int tests = 1;; tests++) {
		if (cl->tp.test(cl->tp.ctx, req, NULL))
			return true;
		if (given_up(cl, t0)) {
			if (cl->tp.deserted)
				fail(cl, "rank %d: a rank left the group (%s)", cl->rank, what);
			else
				fail(cl, "rank %d: no answer from the other ranks for %d ms (%s)",
				     cl->rank, cl->cfg.timeout_ms, what);
			return false;
		}
		if (now_ns(cl) - t0 > SPIN_NS || tests > SPIN_TESTS)
			nap(cl);
	}
}

/* ---- the exchange ----------------------------------------------------------------- */

/* A free send slot (its earlier send completed), or NULL. */
static slot_t *free_send_slot(cutoff_cluster_t *cl)
{
	for (int i = 0; i < cl->cfg.in_flight; i++) {
		slot_t *s = &cl->send[i];
		if (s->busy)
			s->busy = !cl->tp.test(cl->tp.ctx, &s->req, NULL);
		if (!s->busy)
			return s;
	}
	return NULL;
}

/* Sends `count` entries of `origin` to `dest` from a free slot; false when none is free
 * (the entries are then dropped and counted). */
static bool send_entries(cutoff_cluster_t *cl, int dest, int origin, const cutoff_tt_entry_t *e,
                         int count)
{
	slot_t *s = free_send_slot(cl);
	if (!s) {
		cl->mine.dropped_entries += (uint64_t)count;
		return false;
	}
	msg_header_t h = { origin, count };
	memcpy(s->buf, &h, sizeof(h));
	memcpy(s->buf + sizeof(h), e, (size_t)count * sizeof(*e));
	int bytes = (int)(sizeof(h) + (size_t)count * sizeof(*e));
	cl->tp.isend(cl->tp.ctx, s->buf, bytes, dest, cl->tag, &s->req);
	s->busy = true;
	cl->sent_to[dest]++;
	cl->mine.sent_messages++;
	cl->mine.sent_entries += (uint64_t)count;
	cl->mine.sent_bytes += (uint64_t)bytes;
	return true;
}

static void post_recv(cutoff_cluster_t *cl, slot_t *s)
{
	cl->tp.irecv(cl->tp.ctx, s->buf, (int)cl->msg_bytes, cl->tag, &s->req);
	s->busy = true;
}

/* Takes one received message: checks it, stores its entries and, around the ring,
 * passes it on unless the next rank is its origin (and no rank sends after round K). */
static void take_message(cutoff_cluster_t *cl, slot_t *s, int bytes)
{
	msg_header_t h;
	if (bytes < (int)sizeof(h))
		return;
	memcpy(&h, s->buf, sizeof(h));
	if (h.count < 0 || h.count > cl->cfg.batch || h.origin < 0 || h.origin >= cl->size ||
	    (size_t)bytes != sizeof(h) + (size_t)h.count * sizeof(cutoff_tt_entry_t))
		return; /* not ours to trust: dropped */
	const cutoff_tt_entry_t *e = (const cutoff_tt_entry_t *)(void *)(s->buf + sizeof(h));
	cl->mine.received_messages++;
	cl->mine.received_entries += (uint64_t)h.count;
	cl->mine.received_bytes += (uint64_t)bytes;
	int stored = cutoff_engine_import(cl->engine, e, h.count);
	if (stored > 0)
		cl->mine.stored_entries += (uint64_t)stored;
	int next = (cl->rank + 1) % cl->size;
	if (!cl->agreed && cl->cfg.exchange == CUTOFF_CLUSTER_RING && next != h.origin &&
	    send_entries(cl, next, h.origin, e, h.count))
		cl->mine.forwarded_entries += (uint64_t)h.count;
}

/* Tests every receive slot; takes what came and posts again (while `repost`). Returns
 * the messages taken. */
static int receive(cutoff_cluster_t *cl, bool repost)
{
	int taken = 0;
	for (int i = 0; i < RECV_SLOTS; i++) {
		slot_t *s = &cl->recv[i];
		if (!s->busy)
			continue;
		int bytes = 0;
		if (!cl->tp.test(cl->tp.ctx, &s->req, &bytes))
			continue;
		s->busy = false;
		cl->arrivals++;
		take_message(cl, s, bytes);
		taken++;
		if (repost)
			post_recv(cl, s);
	}
	return taken;
}

/* Orders entries deepest first (qsort's comparison). */
static int deeper_first(const void *a, const void *b)
{
	const cutoff_tt_entry_t *x = a, *y = b;
	return (int)y->depth - (int)x->depth;
}

/* Sends this rank's batch when it is due: the deepest `batch` of what the threads
 * exported since the last one; adapts the shared depth to overflows. */
static void send_own(cutoff_cluster_t *cl)
{
	uint64_t t = now_ns(cl);
	if (cl->cfg.exchange == CUTOFF_CLUSTER_NONE || cl->size < 2 ||
	    t - cl->last_send_ns < (uint64_t)cl->cfg.send_us * 1000u)
		return;
	cl->last_send_ns = t;
	int n = 0;
	uint64_t ring_dropped = 0;
	for (int th = 0; th < cl->threads; th++) {
		uint64_t d = 0;
		int got = cutoff_engine_export(cl->engine, th, cl->scratch + n, cl->scratch_cap - n,
		                               &d);
		n += got > 0 ? got : 0;
		ring_dropped += d;
		/* What a full scratch leaves in a ring waits for the next batch. */
	}
	bool overflow = ring_dropped > cl->ring_dropped;
	cl->mine.dropped_entries += ring_dropped - cl->ring_dropped;
	cl->ring_dropped = ring_dropped;
	if (n > cl->cfg.batch) {
		qsort(cl->scratch, (size_t)n, sizeof(*cl->scratch), deeper_first);
		cl->mine.dropped_entries += (uint64_t)(n - cl->cfg.batch);
		n = cl->cfg.batch;
		overflow = true;
	}
	if (n > 0) {
		if (cl->cfg.exchange == CUTOFF_CLUSTER_RING) {
			overflow |= !send_entries(cl, (cl->rank + 1) % cl->size, cl->rank,
			                          cl->scratch, n);
		} else {
			for (int r = 0; r < cl->size; r++)
				if (r != cl->rank)
					overflow |= !send_entries(cl, r, cl->rank, cl->scratch, n);
		}
	}
	if (overflow) {
		cl->quiet_sends = 0;
		if (cl->shared_depth < MAX_SHARED_DEPTH)
			cutoff_engine_export_depth(cl->engine, ++cl->shared_depth);
	} else if (n < cl->cfg.batch / 4 && ++cl->quiet_sends >= QUIET_SENDS) {
		cl->quiet_sends = 0;
		if (cl->shared_depth > cl->cfg.min_depth)
			cutoff_engine_export_depth(cl->engine, --cl->shared_depth);
	}
}

/* ---- the rounds ------------------------------------------------------------------- */

static void start_round(cutoff_cluster_t *cl)
{
	cl->round_in[SUM_STOP] = !cl->searching || cutoff_int_load_relaxed(&cl->stop_requested);
	cl->round_in[SUM_NODES] = (int64_t)cl->nodes;
	cl->round_in[SUM_STORED] = (int64_t)cl->mine.stored_entries;
	cl->own_nodes_at_round = cl->nodes;
	cl->tp.iallreduce(cl->tp.ctx, cl->round_in, cl->round_out, SUMS, CUTOFF_DT_I64,
	                  CUTOFF_OP_SUM, &cl->round);
	cl->round_busy = true;
	cl->round_started_ns = now_ns(cl);
}

/* Completes the current round if it is done and starts the next, unless the sums end
 * the search (round K: the same on every rank). */
static void step_round(cutoff_cluster_t *cl)
{
	if (cl->agreed || cl->failed)
		return;
	if (cl->round_busy) {
		if (!cl->tp.test(cl->tp.ctx, &cl->round, NULL)) {
			if (given_up(cl, cl->round_started_ns)) {
				if (cl->tp.deserted)
					fail(cl,
					     "rank %d: round %llu of the stop vote cannot "
					     "complete: a rank left the group",
					     cl->rank, (unsigned long long)cl->mine.rounds);
				else
					fail(cl,
					     "rank %d: round %llu of the stop vote not completed "
					     "in %d ms",
					     cl->rank, (unsigned long long)cl->mine.rounds,
					     cl->cfg.timeout_ms);
				if (cl->searching)
					cutoff_engine_stop(cl->engine);
			}
			return;
		}
		cl->round_busy = false;
		cl->mine.rounds++;
		cl->cluster_nodes = (uint64_t)cl->round_out[SUM_NODES];
		if (cl->round_out[SUM_STOP] > 0 ||
		    (cl->node_limit && cl->cluster_nodes >= cl->node_limit)) {
			cl->agreed = true;
			if (cl->searching)
				cutoff_engine_stop(cl->engine);
			return;
		}
	}
	start_round(cl);
}

/* One step of everything: the round, what came in, this rank's batch. */
static void progress(cutoff_cluster_t *cl)
{
	uint64_t t0 = now_ns(cl);
	step_round(cl);
	receive(cl, true);
	if (!cl->agreed && !cl->failed)
		send_own(cl);
	cl->mine.comm_s += (double)(now_ns(cl) - t0) / 1e9;
}

/* The engine's poll hook: thread 0, about every 1024 of its nodes. */
static void on_poll(void *user, cutoff_engine_t *engine, uint64_t nodes)
{
	cutoff_cluster_t *cl = user;
	(void)engine;
	cl->nodes = nodes;
	progress(cl);
}

/* Rank 0's info callback: its own iteration, with every rank's nodes. */
static void on_info(void *user, const cutoff_result_t *partial)
{
	cutoff_cluster_t *cl = user;
	memcpy(cl->info_copy, partial, sizeof(*partial));
	uint64_t others = cl->cluster_nodes > cl->own_nodes_at_round
	                          ? cl->cluster_nodes - cl->own_nodes_at_round
	                          : 0;
	cl->info_copy->counters.nodes += others;
	cl->info(cl->info_user, cl->info_copy);
}

/* ---- the end ---------------------------------------------------------------------- */

/* After round K: every message sent to this rank received, every request completed. */
static bool drain(cutoff_cluster_t *cl)
{
	uint64_t expect = 0;
	cutoff_req_t req;
	cl->tp.ireduce_scatter_u64(cl->tp.ctx, cl->sent_to, &expect, &req);
	if (!wait_bounded(cl, &req, "counting the messages in flight"))
		return false;
	uint64_t t0 = now_ns(cl);
	for (int tests = 1;; tests++) {
		receive(cl, false);
		if (cl->arrivals >= expect)
			break;
		/* Enough receives posted for what is still to come, no more. */
		uint64_t posted = 0;
		for (int i = 0; i < RECV_SLOTS; i++)
			posted += cl->recv[i].busy;
		for (int i = 0; i < RECV_SLOTS && cl->arrivals + posted < expect; i++)
			if (!cl->recv[i].busy) {
				post_recv(cl, &cl->recv[i]);
				posted++;
			}
		if (given_up(cl, t0)) {
			fail(cl, "rank %d: %llu of %llu messages in flight never came", cl->rank,
			     (unsigned long long)(expect - cl->arrivals),
			     (unsigned long long)expect);
			return false;
		}
		if (now_ns(cl) - t0 > SPIN_NS || tests > SPIN_TESTS)
			nap(cl);
	}
	for (int i = 0; i < RECV_SLOTS; i++) {
		slot_t *s = &cl->recv[i];
		if (s->busy) { /* posted for a message that was never sent */
			cl->tp.cancel(cl->tp.ctx, &s->req);
			s->busy = false;
		}
	}
	for (int i = 0; i < cl->cfg.in_flight; i++) {
		slot_t *s = &cl->send[i];
		if (s->busy && !wait_bounded(cl, &s->req, "completing a send"))
			return false;
		s->busy = false;
	}
	return true;
}

static bool proven_win(const ballot_t *b)
{
	return b->iterations > 0 && b->value >= CUTOFF_WIN_MIN &&
	       (b->bound == CUTOFF_BOUND_EXACT || b->bound == CUTOFF_BOUND_LOWER);
}

/* True when ballot a ranks before ballot b by the engine's own rule among threads
 * (cutoff_pick_deepest): solved, then a proven win (shortest, then deepest), then the
 * deepest; false on a tie. */
static bool better(const ballot_t *a, const ballot_t *b)
{
	if ((a->iterations > 0) != (b->iterations > 0))
		return a->iterations > 0;
	if (a->solved != b->solved)
		return a->solved;
	bool aw = proven_win(a), bw = proven_win(b);
	if (aw != bw)
		return aw;
	if (aw && a->value != b->value)
		return a->value > b->value;
	return a->depth > b->depth;
}

/* The vote (cutoff_cluster.h): the best ballot by `better`; among the ranks tied with
 * it, the move most of them report, then the lowest rank. */
static int vote(const ballot_t *b, int n)
{
	int best = 0;
	for (int r = 1; r < n; r++)
		if (better(&b[r], &b[best]))
			best = r;
	int pick = best, pick_votes = 0;
	for (int r = 0; r < n; r++) {
		if (better(&b[best], &b[r]))
			continue; /* not tied with the best */
		int votes = 0;
		for (int q = 0; q < n; q++)
			votes += !better(&b[best], &b[q]) && b[q].move == b[r].move;
		if (votes > pick_votes) {
			pick = r;
			pick_votes = votes;
		}
	}
	return pick;
}

/* Every rank's limits must be the same (rank 0's time limit aside). */
static bool same_limits(cutoff_cluster_t *cl, const cutoff_limits_t *l)
{
	int64_t mine[6] = { l->depth, l->iterate, l->solve, l->alpha, l->beta, l->played_length };
	int64_t lo[6], hi[6];
	cutoff_req_t req[2];
	cl->tp.iallreduce(cl->tp.ctx, mine, lo, 6, CUTOFF_DT_I64, CUTOFF_OP_MIN, &req[0]);
	cl->tp.iallreduce(cl->tp.ctx, mine, hi, 6, CUTOFF_DT_I64, CUTOFF_OP_MAX, &req[1]);
	if (!wait_bounded(cl, &req[0], "comparing the limits") ||
	    !wait_bounded(cl, &req[1], "comparing the limits"))
		return false;
	if (memcmp(lo, hi, sizeof(lo)) != 0) {
		snprintf(cl->error, sizeof(cl->error),
		         "the ranks were given different limits (depth %lld..%lld)",
		         (long long)lo[0], (long long)hi[0]);
		return false;
	}
	return true;
}

/* Sums every rank's counters and profile into r, gathers the stats, votes and broadcasts
 * the answer. Returns the voted rank's return code. */
static int conclude(cutoff_cluster_t *cl, int rc, cutoff_result_t *r)
{
	ballot_t mine = { r->iterations, r->solved, r->value,    (int32_t)r->bound,
		          r->depth,      rc,        r->best_move };
	ballot_t *all = cl->ballots;
	cutoff_req_t req;
	cl->tp.iallgather(cl->tp.ctx, &mine, (int)sizeof(mine), all, &req);
	if (!wait_bounded(cl, &req, "gathering the ballots"))
		return CUTOFF_EPEER;
	/* Every rank computes the same vote from the same ballots: rank 0's, in effect. */
	int pick = vote(all, cl->size);
	int voted_rc = all[pick].rc;

	uint64_t counters[sizeof(cutoff_counters_t) / sizeof(uint64_t)], csum[sizeof(counters) / 8];
	memcpy(counters, &r->counters, sizeof(counters));
	double prof[5] = { r->profile.time_s, r->profile.search_s, r->profile.idle_s,
		           r->profile.split_wait_s, r->profile.lock_s },
	       psum[5];
	uint64_t maxima[3] = { r->counters.seldepth, (uint64_t)r->profile.depth_reached,
		               (uint64_t)r->profile.depth_completed },
		 mmax[3];
	cutoff_req_t reqs[3];
	cl->tp.iallreduce(cl->tp.ctx, counters, csum, (int)(sizeof(counters) / 8), CUTOFF_DT_U64,
	                  CUTOFF_OP_SUM, &reqs[0]);
	cl->tp.iallreduce(cl->tp.ctx, prof, psum, 5, CUTOFF_DT_F64, CUTOFF_OP_SUM, &reqs[1]);
	cl->tp.iallreduce(cl->tp.ctx, maxima, mmax, 3, CUTOFF_DT_U64, CUTOFF_OP_MAX, &reqs[2]);
	for (int i = 0; i < 3; i++)
		if (!wait_bounded(cl, &reqs[i], "summing the counters"))
			return CUTOFF_EPEER;

	double time_s = r->time_s;
	if (cl->rank == pick)
		memcpy(cl->voted, r, sizeof(*r));
	cl->tp.ibcast(cl->tp.ctx, cl->voted, (int)sizeof(*cl->voted), pick, &req);
	if (!wait_bounded(cl, &req, "broadcasting the answer"))
		return CUTOFF_EPEER;
	cl->mine.tt_hits_shared = r->counters.tt_hits_shared;
	memcpy(r, cl->voted, sizeof(*r));
	memcpy(&r->counters, csum, sizeof(csum));
	r->counters.seldepth = mmax[0];
	r->profile = (cutoff_profile_t){ psum[0], psum[1],      psum[2],     psum[3],
		                         psum[4], (int)mmax[1], (int)mmax[2] };
	r->time_s = time_s;
	return voted_rc;
}

int cutoff_cluster_search(cutoff_cluster_t *cl, cutoff_engine_t *engine, const void *root,
                          const cutoff_limits_t *limits, cutoff_result_t *result,
                          cutoff_info_fn info, void *info_user)
{
	if (!cl || !engine || !root || !limits || !result || limits->poll)
		return CUTOFF_EINVAL;
	uint64_t t0 = now_ns(cl);
	cl->error[0] = '\0';
	cl->failed = false;
	cutoff_config_t cfg;
	cutoff_engine_config(engine, &cfg);
	if (cfg.share_ring == 0) {
		snprintf(cl->error, sizeof(cl->error),
		         "the engine has no export ring: make it from cutoff_cluster_configure");
		return CUTOFF_EINVAL;
	}
	if (!same_limits(cl, limits))
		return cl->failed ? CUTOFF_EPEER : CUTOFF_EINVAL;

	cl->tag = 1 + (int)(cl->searches++ % TAGS);
	cl->engine = engine;
	cl->threads = cfg.threads;
	cl->node_limit = limits->nodes;
	cl->searching = true;
	cl->agreed = false;
	cl->round_busy = false;
	cl->nodes = cl->cluster_nodes = cl->own_nodes_at_round = 0;
	cl->last_send_ns = t0;
	cl->ring_dropped = 0;
	cl->arrivals = 0;
	cl->quiet_sends = 0;
	memset(cl->sent_to, 0, (size_t)cl->size * sizeof(uint64_t));
	memset(&cl->mine, 0, sizeof(cl->mine));
	/* Nothing to share with: export nothing (a full ring costs a failed push). */
	bool alone = cl->cfg.exchange == CUTOFF_CLUSTER_NONE || cl->size < 2;
	cutoff_engine_export_depth(engine, alone ? 255 : cl->shared_depth);
	for (int i = 0; i < RECV_SLOTS; i++)
		post_recv(cl, &cl->recv[i]);

	cutoff_limits_t lim = *limits;
	lim.nodes = 0; /* the sum over ranks, decided by the rounds */
	if (cl->rank != 0)
		lim.time_ms = 0; /* rank 0's clock ends the search for all */
	lim.poll = on_poll;
	lim.poll_user = cl;
	cl->info = info;
	cl->info_user = info_user;
	int rc = cutoff_engine_search(engine, root, &lim, result,
	                              cl->rank == 0 && info ? on_info : NULL, cl);
	cl->searching = false;
	cl->nodes = result->counters.nodes;

	/* Rounds until every rank agrees; this rank votes to stop now. */
	uint64_t tw = now_ns(cl);
	for (int tests = 1; !cl->agreed && !cl->failed; tests++) {
		progress(cl);
		if (!cl->agreed && !cl->failed && (now_ns(cl) - tw > SPIN_NS || tests > SPIN_TESTS))
			nap(cl);
	}
	uint64_t tc = now_ns(cl);
	bool ok = !cl->failed && drain(cl);
	if (ok)
		rc = conclude(cl, rc, result);
	cl->mine.comm_s += (double)(now_ns(cl) - tc) / 1e9;
	cl->mine.nodes = cl->nodes;
	cl->mine.shared_depth = cl->shared_depth;
	cl->mine.time_s = (double)(now_ns(cl) - t0) / 1e9;
	result->time_s = cl->mine.time_s;
	if (ok && rc != CUTOFF_EPEER) {
		cutoff_req_t req;
		cl->tp.iallgather(cl->tp.ctx, &cl->mine, (int)sizeof(cl->mine), cl->stats, &req);
		ok = wait_bounded(cl, &req, "gathering the stats");
	}
	cutoff_int_store_relaxed(&cl->stop_requested, 0);
	cl->engine = NULL;
	if (!ok || cl->failed)
		return CUTOFF_EPEER;
	return rc;
}
