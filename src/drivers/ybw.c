/* SPDX-License-Identifier: MIT */
/*
 * ybw.c — Young Brothers Wait with helpful masters.
 *
 * The idea. A node's eldest brother (its first move) is searched alone. If it did not cut
 * off, the node is an expected ALL node: every younger brother will have to be searched,
 * so they may be searched in parallel without speculative work. The node's owner makes
 * a split point from its own pool, books idle threads for it, and all of them take moves
 * from its cursor until none is left or one of them reaches beta (a cut-off: everything
 * below the split point stops). The owner, out of moves, waits for its helpers — and while
 * it waits it helps them: it may be booked for any split point made below its own (a
 * "helpful master"), never elsewhere, so that it is back as soon as its helpers are done
 * and no thread ever waits on a thread that waits on it.
 *
 * Late join. A thread that goes idle (a helper between split points, or an owner waiting
 * for its helpers) need not wait to be booked: it looks for a running split point that
 * still has moves and joins it. The rule: a round-robin scan of the other threads from
 * the next index, each thread's split points from its outermost (nearest the root) in;
 * the first open one with moves left whose node lies below the joiner's own split point
 * (a helpful master) or anywhere (a helper) is joined. A waiting thread tries every
 * YBW_JOIN_LOOKS looks, twice as seldom after each try that found nothing (to a limit
 * that grows with the threads), so that many idle threads do not crowd the lines of the
 * split points they read.
 *
 * No lock that every thread takes. Shared state and who touches it:
 *   t->state      thread t's state word, (transitions << 1) | idle: t makes itself idle
 *                 (a store, from busy, which only t leaves) and busy (a compare-and-swap
 *                 from idle); a booker makes t busy by the same compare-and-swap, so of a
 *                 booker and t, or of two bookers, exactly one wins, and the count in the
 *                 word makes a booker's swap fail if t has been busy in between (its
 *                 `waiting`, read before the swap, may have changed then).
 *   y->idle[]     a bit per thread, set by t after it has made itself idle, cleared by
 *                 whoever made it busy: a hint where to look (a stale bit costs a failed
 *                 swap); bookers find idle threads by its words, not by a scan.
 *   t->waiting    a helpful master's own split point (NULL: none), written (release) by t
 *                 only while busy; read (acquire) by bookers and by t after the state word
 *                 said idle.
 *   t->assigned   the split point t is booked for: stored (sequentially consistent) by the
 *                 booker that won t's state, after the split point is complete; read
 *                 (acquire) and cleared by t as it takes the booking. A thread that finds
 *                 itself made busy by someone else waits for it.
 *   t->nsplits    the number of t's split points in use, written by t alone (release),
 *                 read by joiners (acquire): the published part of t's pool.
 *   t->park       where t sleeps once a wait has outlasted YBW_SPIN_NS (platform.h's
 *                 parking protocol): t sleeps only after a last sequentially consistent
 *                 look at the three things it waits for (its booking, its split point's
 *                 members, done), and each of the three is written sequentially consistently
 *                 (a store or a read-modify-write) before its writer wakes t, so no wake-up
 *                 is lost. A thread asleep is not found by a late join; it is woken by a
 *                 booking.
 *   t->asleep     1 while t sleeps in its park (written by t around the sleep, relaxed; a
 *                 hint): bookers take threads awake first and wake sleepers only when too
 *                 few are awake, so that threads a search has no work for stay asleep and
 *                 cost it nothing (a wake-up, and the owner's wait for the late helper).
 *   y->done       set (sequentially consistent) by thread 0 when its search is over, which
 *                 then wakes every thread; read in the idle loop.
 *   y->cpus       set by begin() when the threads outnumber the CPUs the caller may run on
 *                 (platform.h's cutoff_cpus; 0 otherwise), read-only while a search runs.
 *   y->busy       only when y->cpus is set: the threads busy, a count kept beside the state
 *                 words (fetch-and-add: -1 as a thread makes itself idle, +1 as it leaves
 *                 idle itself, +n by a booker after it booked n). A hint, never a guard: it
 *                 may lag a transition or run ahead of one, and no correctness rests on it.
 *                 It caps new work: a booker books at most y->cpus - busy helpers, a late
 *                 join is tried only while busy < y->cpus, and a wait sleeps at once
 *                 instead of spinning, so that about as many threads search as there are
 *                 CPUs and the rest sleep. More would only take turns on the CPUs: an owner
 *                 waits for its slowest helper, and a helper preempted behind a dozen others
 *                 holds it up for their time slices (71 s instead of 6.5 at 32 threads on 2
 *                 CPUs, issue 43). An owner whose helpers have left, and a thread whose
 *                 search is done, leave idle whatever the count.
 *   sp fields     see cutoff_split_t: the read-only part is written before publication;
 *                 sp->next, the cursor, hands out moves by fetch-and-add (a move is taken
 *                 by exactly one thread, and a thread that draws past n has nothing to do);
 *                 alpha, best, best_move, best_index, pv, horizon and the profiler's row
 *                 under sp->lock (alpha also read without it, atomically: a stale alpha
 *                 only widens the window the next move is searched with, which keeps the
 *                 contract); sp->above.cut set under sp->lock and read anywhere (relaxed: a
 *                 late read only costs some wasted nodes); sp->aborted set by a thread that
 *                 a stop made leave a move unsearched, read by the owner after everyone left;
 *                 sp->members, SP_OPEN while the owner takes moves (joiners may come) plus
 *                 the helpers inside: booked helpers are counted before they are told,
 *                 joiners count themselves by compare-and-swap only while SP_OPEN is set,
 *                 each helper takes itself off as it leaves (fetch-and-add), and the owner
 *                 clears SP_OPEN when the cursor is spent, then waits for 0; the helper
 *                 that takes it to 0 wakes the owner, after marking itself idle.
 *   owner's stack the split node's state and move list stay on the owner's stack, which
 *                 it does not touch at that ply or above while the split point lives
 *                 (helping below its own split point, it only writes deeper plies).
 *
 * Why no move is lost: every move from node->from on is handed out by the cursor to one
 * thread, which searches it (or, when the split point cut or the search stopped, leaves
 * it: nothing after a cut matters, and a stop voids the node by `aborted`). Why no thread
 * waits forever: the owner waits only for members to reach 0, and every member leaves
 * once the cursor is spent; a helpful master helps only below its own split point, so no
 * thread waits on a thread that waits on it.
 *
 * Locks: only sp->lock (each split point's own, for a completed move's result), never two
 * at once.
 *
 * Lifetime. A split point is released (its owner pops it) only after members == 0, and no
 * one can join once SP_OPEN is clear; a helper's last access is its decrement. A joiner
 * that read a split point of an earlier incarnation can only join one that is open, whose
 * fields were published (release) before SP_OPEN was set, and checks the helpful-master
 * rule after its join. Split points nest LIFO in each owner's pool, at most one per ply,
 * so a pool of max_ply split points (the engine's ply limit) per thread is enough.
 *
 * The few points where a thread waits, locks or looks for work are named: split_lock
 * (every lock), wait_for_work (the only wait), book_helpers (the only search for idle
 * threads), find_join (the only search for a split point to join); their spinning, yielding and sleeping is platform.h's, the seam a
 * deterministic scheduler of virtual threads takes over. A wait sleeps after
 * YBW_SPIN_NS because when another program takes a core a spinning waiter keeps the CPU
 * the thread it waits for needs (platform.h); a wake-up costs a system call only when
 * the thread woken is asleep.
 *
 * The seam (driver.h): the move loop calls try_split through the searcher's hook, the
 * helpers' searches read the split points' cut flags through searcher.above, thread 0
 * iterates (iterate.c) and the others wait in idle_loop until it is done. Options:
 * config.ybw_min_split_depth (the hook's depth), config.ybw_max_helpers,
 * config.ybw_split_after (the moves searched alone first: 1, the eldest, by default),
 * config.ybw_late_join (late join on or off), config.ybw_split_nodes (which expected node
 * types may split) and config.ybw_max_splits (split points a thread may have open at
 * once). Their defaults are the rule's own; the sweep that kept them is in
 * docs/simulation.md ("Where YBW splits, on chess").
 *
 * The profiler reads the clock at those points only, into the thread's own searcher
 * (prof, count): split_lock times its slow path (a lock found taken) as lock time;
 * wait_for_work times its waiting, less the help() calls inside it, as idle time (a helper
 * between split points) or split-wait time (an owner waiting for its helpers), and a lock
 * taken while waiting counts as waiting. a late join counts in late_joins. work() counts the nodes of a move a cut-off made
 * void (split_nodes_lost) and, when a move cuts, the nodes of the moves after it that were
 * done already (split_nodes_after_cut, from each move's count in the split point's row
 * of the owner's move_nodes), try_split the helpers booked and the split points that
 * cut.
 */
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/atomic.h"
#include "base/platform.h"
#include "drivers/driver.h"

/*
 * A split point: one node whose younger brothers are searched by several threads. Made
 * from its owner's per-thread pool, alive from try_split until every helper has left it.
 */
typedef struct cutoff_split {
	/* The shared node this is (search.h): its `parent` is the shared node the owner was
	 * working under, or NULL; its `cut` says a move reached beta, and all work below
	 * stops (set under `lock`, read anywhere). First, so that a split point is one. */
	cutoff_above_t above;

	/* written by the owner before the split point is published; read-only afterwards */
	const cutoff_searcher_t *owner; /* whose stack holds the node (path keys, in-check) */
	const int32_t *hints;           /* the moves' hints, or NULL */
	const void *state;              /* the node's state, on the owner's stack */
	const cutoff_move_t *moves;     /* the node's ordered moves, on the owner's stack */
	int n;                          /* the moves (atomic: a joiner's look reads it early) */
	int ply, depth;
	cutoff_algo_t algo;
	cutoff_node_type_t type; /* the node's expected type, for its children's */
	int32_t beta;

	/* under `lock` (alpha also read without it, atomically) */
	cutoff_spinlock_t lock;
	int32_t alpha; /* the best value so far, or the node's alpha if higher */
	int32_t best;
	cutoff_move_t best_move;
	int best_index; /* the position of best_move in moves[] */
	int pv_length;
	uint32_t *move_nodes; /* the profiler: nodes of each move completed, 0 for the
	                              others (saturating), from the owner's pool; NULL without
	                              the profiler */
	bool horizon;         /* the solve mode: a move's search met the horizon
	                              (searcher.horizon), so the node's value may not be stored
	                              as exact to the end */
	cutoff_move_t pv[CUTOFF_PLY_LIMIT];

	/* atomic */
	int next;    /* the cursor: the next move to hand out (fetch-and-add; may pass n) */
	int members; /* SP_OPEN while the owner hands out moves, plus the helpers inside (the
	                owner waits for 0) */
	int aborted; /* a thread left a move unfinished because the search was stopped: the
	                node's result is void, and its owner must stop too */
} cutoff_split_t;

enum {
	SP_OPEN = 1 << 30, /* in members: joiners may come */
	/* Threads whose idle bits share a word (a line): few, so that the bits' writes, two
	 * per booked visit, spread over many lines instead of queueing on one (measured in
	 * the simulator: one word for 64 threads moved 240,000 times in one search and held
	 * them 0.6 s in its queue). */
	YBW_GROUP = 8
};

enum {
	/* A late join is tried every YBW_JOIN_LOOKS looks of a wait, and twice as seldom
	 * after each try that found nothing, down to once every y->join_looks_max looks:
	 * YBW_JOIN_LOOKS times the threads over YBW_JOIN_THREADS, so that the idle threads
	 * together look about as often at any thread count (their looks read the lines the
	 * working threads write, and queue on them). */
	YBW_JOIN_LOOKS = 16,
	YBW_JOIN_THREADS = 16
};

typedef struct ybw_thread {
	void *assigned;           /* cutoff_split_t *: booked for it, or NULL (atomic) */
	int state;                /* (transitions << 1) | idle (atomic; see the top) */
	void *waiting;            /* cutoff_split_t *: a helpful master's own split point */
	int nsplits;              /* split points in use (written by the owner, atomic) */
	cutoff_split_t *splits;   /* max_ply split points, owner only */
	uint32_t *move_nodes;     /* max_ply rows of max_moves, one per split point
	                            (the profiler's), owner only until published */
	int *booked;              /* book_helpers' list of the threads it booked (at most
	                            max_helpers), owner only */
	cutoff_park_t park;       /* where the thread sleeps in wait_for_work (platform.h) */
	int asleep;               /* 1 from just before it sleeps there until it wakes (atomic;
	                            written by the thread, read by bookers: a hint) */
	long preemptions;         /* its involuntary context switches at its last long wait */
	uint64_t contended_until; /* until then (ns) its waits sleep without spinning */
} __attribute__((aligned(64))) ybw_thread_t;

typedef struct cutoff_ybw {
	int threads;
	int max_helpers;
	int max_splits;                       /* config.ybw_max_splits */
	cutoff_ybw_split_nodes_t split_nodes; /* config.ybw_split_nodes */
	bool late_join;                       /* config.ybw_late_join */
	int join_looks_max;                   /* the longest interval between late joins */
	int max_moves;
	int words; /* of idle[] */
	cutoff_searcher_t *searchers;
	ybw_thread_t *t;
	uint64_t *idle; /* a bit per idle thread (a hint; the state words decide): a word, on
	                   a line of its own, per YBW_GROUP threads */
	int cpus;       /* the CPUs when fewer than the threads, else 0 (begin; see the top) */
	int done;
	_Alignas(64) int busy; /* the threads busy, while cpus is set (see the top) */
} cutoff_ybw_t;

/* Every lock of the driver: spins briefly, then yields, because with more threads than
 * cores the holder may be preempted, and a pure spin would burn the time slice it needs.
 * The time of the slow path is added to *spin_ns (when not NULL: the caller's lock time). */
static void split_lock(cutoff_spinlock_t *l, uint64_t *spin_ns)
{
	if (cutoff_spinlock_trylock(l))
		return;
	uint64_t t0 = CUTOFF_PROFILING && spin_ns ? cutoff_now_ns() : 0;
	for (cutoff_spin_t spin = { 0 }; !cutoff_spinlock_trylock(l);)
		cutoff_spin_wait(&spin);
	if (CUTOFF_PROFILING && spin_ns)
		*spin_ns += cutoff_now_ns() - t0;
}

/* How long a wait spins (pauses, then yields) before it sleeps: see platform.h for why it
 * must sleep. With another program on one of two cores, no spin (sleep after the pauses)
 * serves best, and on a quiet machine worst (a wake-up at most split points); a short
 * spin keeps the quiet figures (docs/benchmarks.md, "Why a 2-thread figure is what it
 * is"). So a thread that the scheduler preempted since its last long wait
 * (cutoff_preemptions moved) takes its CPU to be contended, and for the next
 * YBW_CONTENDED_NS its waits sleep at once. */
enum {
	YBW_SPIN_NS = 50000,
	YBW_CONTENDED_NS = 20000000
};

/* YBW's counters (driver.h): one line each; every report lists them. */
#define YBW_COUNTERS(X)                                                                            \
	X(YBW_SPLITS, "splits", "split points", false, "split points made")                        \
	X(YBW_SPLIT_HELPERS, "split_helpers", "threads", true,                                     \
	  "helpers booked over all split points made (by this thread's split points): helpers "    \
	  "per split point is split_helpers / splits")                                             \
	X(YBW_SPLIT_CUTOFFS, "split_cutoffs", "split points", true,                                \
	  "split points (made by this thread) that cut off, voiding the moves still being "        \
	  "searched below them")                                                                   \
	X(YBW_SPLIT_NODES_LOST, "split_nodes_lost", "nodes", true,                                 \
	  "nodes this thread searched for moves it took from a split point and left unfinished "   \
	  "because a cut-off at or above that split point made them void (a move nested in "       \
	  "another such move counted once; a stop is not a cut-off and loses nothing here)")       \
	X(YBW_SPLIT_NODES_AFTER_CUT, "split_nodes_after_cut", "nodes", true,                       \
	  "nodes of moves searched to the end at a split point although a move before them in "    \
	  "the order cut it off (work the serial search never does, which split_nodes_lost "       \
	  "misses); counted by the thread whose move cut")                                         \
	X(YBW_LATE_JOINS, "late_joins", "joins", false,                                            \
	  "running split points this thread joined on its own when it went idle (a late join), "   \
	  "without being booked")
#define YBW_COUNTER(id, ...) CUTOFF_DRIVER_COUNTER_INFO(CUTOFF_DRIVER_YBW, __VA_ARGS__)
enum {
	YBW_COUNTERS(CUTOFF_DRIVER_COUNTER_ENUM) YBW_NCOUNTERS
};
static const cutoff_counter_info_t ybw_counters[] = { YBW_COUNTERS(YBW_COUNTER) };

static void destroy(void *state);
static bool try_split(cutoff_searcher_t *s, const cutoff_node_t *node, cutoff_younger_t *out);

/* Every thread's split points and state, and each searcher's hook (driver.h). */
static int create(const cutoff_config_t *cfg, const cutoff_game_t *game,
                  cutoff_searcher_t *searchers, void **state)
{
	const int threads = cfg->threads;
	cutoff_ybw_t *y = aligned_alloc(_Alignof(cutoff_ybw_t), sizeof(*y));
	if (!y)
		return CUTOFF_ENOMEM;
	memset(y, 0, sizeof(*y));
	y->threads = threads;
	y->max_helpers = cfg->ybw_max_helpers;
	y->max_splits = cfg->ybw_max_splits;
	y->split_nodes = cfg->ybw_split_nodes;
	y->late_join = cfg->ybw_late_join;
	y->join_looks_max =
		YBW_JOIN_LOOKS * (threads > YBW_JOIN_THREADS ? threads / YBW_JOIN_THREADS : 1);
	y->max_moves = game->max_moves;
	const size_t plies = (size_t)cutoff_config_plies(cfg);
	y->searchers = searchers;
	y->t = aligned_alloc(64, sizeof(ybw_thread_t) * (size_t)threads);
	if (!y->t) {
		free(y);
		return CUTOFF_ENOMEM;
	}
	memset(y->t, 0, sizeof(ybw_thread_t) * (size_t)threads);
	y->words = (threads + YBW_GROUP - 1) / YBW_GROUP;
	y->idle = aligned_alloc(64, 64 * (size_t)y->words); /* a word a line */
	if (!y->idle) {
		destroy(y);
		return CUTOFF_ENOMEM;
	}
	memset(y->idle, 0, 64 * (size_t)y->words);
	for (int i = 0; i < threads; i++) {
		/* aligned_alloc wants a whole number of lines */
		const size_t bytes = (sizeof(cutoff_split_t) * plies + 63) & ~(size_t)63;
		y->t[i].splits = aligned_alloc(64, bytes);
		if (y->t[i].splits)
			memset(y->t[i].splits, 0, bytes);
		if (CUTOFF_PROFILING)
			y->t[i].move_nodes =
				malloc(sizeof(uint32_t) * plies * (size_t)game->max_moves);
		y->t[i].booked =
			malloc(sizeof(int) *
		               (size_t)(threads < y->max_helpers ? threads : y->max_helpers));
		if (!y->t[i].splits || !y->t[i].booked ||
		    (CUTOFF_PROFILING && !y->t[i].move_nodes)) {
			destroy(y);
			return CUTOFF_ENOMEM;
		}
	}
	for (int i = 0; i < threads; i++) {
		searchers[i].younger = try_split;
		searchers[i].driver = y;
		searchers[i].younger_depth = cfg->ybw_min_split_depth;
		searchers[i].younger_from = cfg->ybw_split_after; /* the eldest first, alone */
	}
	*state = y;
	return CUTOFF_OK;
}

static void destroy(void *state)
{
	cutoff_ybw_t *y = state;
	if (!y)
		return;
	for (int i = 0; i < y->threads; i++) {
		free(y->t[i].splits);
		free(y->t[i].move_nodes);
		free(y->t[i].booked);
	}
	free(y->t);
	free(y->idle);
	free(y);
}

/* Before a search (no thread searching): every thread busy, no split point. */
static void begin(void *state)
{
	cutoff_ybw_t *y = state;
	for (int i = 0; i < y->threads; i++) {
		y->t[i].assigned = NULL;
		y->t[i].state = 0;
		y->t[i].waiting = NULL;
		y->t[i].nsplits = 0;
	}
	for (int w = 0; w < y->words; w++)
		y->idle[w * 8] = 0;
	y->done = 0;
	const int cpus = y->threads > 1 ? cutoff_cpus() : INT_MAX;
	y->cpus = cpus < y->threads ? cpus : 0;
	y->busy = y->threads;
}

/* The count of busy threads moves by `d` (only while capped: see y->busy at the top). */
static void busy_add(cutoff_ybw_t *y, int d)
{
	if (y->cpus)
		cutoff_int_faa(&y->busy, d);
}

/* True when no CPU is free for new work (only while capped). */
static bool cpus_full(cutoff_ybw_t *y)
{
	return y->cpus && cutoff_int_load_relaxed(&y->busy) >= y->cpus;
}

/* ---- the idle bits: hints, each written by its own thread alone: set once it is idle,
 * cleared once it is busy (by itself, or by a booker: then as it takes the booking) ---- */

static uint64_t *idle_word(cutoff_ybw_t *y, int i) { return &y->idle[(i / YBW_GROUP) * 8]; }

static void idle_bit(cutoff_ybw_t *y, int i, bool set)
{
	uint64_t *w = idle_word(y, i), bit = 1ull << (i % YBW_GROUP);
	for (;;) {
		uint64_t v = cutoff_u64_load_relaxed(w);
		if ((v & bit) == (set ? bit : 0) || cutoff_u64_cas(w, v, set ? v | bit : v & ~bit))
			return;
	}
}

/* True when some thread other than `me` may be idle (a hint): the groups' words from
 * me's own on. */
static bool any_idle(cutoff_ybw_t *y, int me)
{
	int first = me / YBW_GROUP;
	for (int k = 0; k < y->words; k++) {
		int w = first + k < y->words ? first + k : first + k - y->words;
		uint64_t v = cutoff_u64_load_relaxed(&y->idle[w * 8]);
		if (w == first)
			v &= ~(1ull << (me % YBW_GROUP));
		if (v)
			return true;
	}
	return false;
}

/* Thread i, busy, makes itself idle (only it leaves the busy state, so a store). */
static void go_idle(cutoff_ybw_t *y, int i)
{
	ybw_thread_t *t = &y->t[i];
	int s = cutoff_int_load_relaxed(&t->state);
	cutoff_int_store_seq_cst(&t->state, s + 1);
	busy_add(y, -1);
	idle_bit(y, i, true);
}

/* Thread i leaves its idle state itself: true, or false when someone booked it first
 * (its booking is then on its way). Its idle bit is cleared unless `keep_bit`: a late
 * join keeps it over a visit that is usually short, so that a thread trying joins does
 * not write the bits' line twice a try (a booker that finds the bit reads the state word
 * and passes on). */
static bool leave_idle(cutoff_ybw_t *y, int i, bool keep_bit)
{
	ybw_thread_t *t = &y->t[i];
	int s = cutoff_int_load_seq_cst(&t->state);
	if (!(s & 1) || !cutoff_int_cas(&t->state, s, s + 1))
		return false;
	busy_add(y, 1);
	if (!keep_bit)
		idle_bit(y, i, false);
	return true;
}

/* Takes moves from `sp` by its cursor and searches them until none is left, the split
 * point cut off, or the search is over. Run by the owner and by every helper. */
static void work(cutoff_searcher_t *s, cutoff_split_t *sp)
{
	uint64_t *spin = &s->prof.lock_ns;
	for (;;) {
		if (cutoff_int_load_relaxed(&sp->above.cut) || cutoff_search_halted(s))
			return;
		int i = cutoff_int_faa(&sp->next, 1);
		if (i >= sp->n)
			return;
		cutoff_move_t m = sp->moves[i];
		int32_t a = cutoff_int_load_relaxed(&sp->alpha);

		uint64_t nodes = s->count.nodes, lost = s->driver_count[YBW_SPLIT_NODES_LOST];
		uint64_t horizon = s->horizon;
		int32_t v = cutoff_search_move(s, sp->algo, sp->ply, sp->depth, sp->type, m, i,
		                               sp->hints ? sp->hints[i] : 0, a, sp->beta);
		if (cutoff_search_halted(s)) {
			/* A cut-off above only voids work that nobody needs; a stopped search
			 * leaves this move unsearched, which the owner must learn even if its
			 * own next poll is far away. */
			if (s->aborted)
				cutoff_int_store_relaxed(&sp->aborted, 1);
			else if (CUTOFF_PROFILING)
				/* Every node of this move is lost, those that inner split
				 * points counted already among them. */
				s->driver_count[YBW_SPLIT_NODES_LOST] =
					lost + (s->count.nodes - nodes);
			return;
		}

		split_lock(&sp->lock, spin);
		sp->horizon |= s->horizon != horizon;
		if (CUTOFF_PROFILING) {
			uint64_t spent = s->count.nodes - nodes;
			sp->move_nodes[i] = spent < UINT32_MAX ? (uint32_t)spent : UINT32_MAX;
		}
		if (v > sp->best) {
			sp->best = v;
			sp->best_move = m;
			sp->best_index = i;
			sp->pv_length =
				cutoff_pv_join(sp->pv, m, cutoff_searcher_pv(s, sp->ply + 1),
			                       s->pv_length[sp->ply + 1], s->max_ply);
			if (v >= sp->beta) {
				/* The moves after this one that are done already: work the
				 * serial search, stopping here, would not have done (counted
				 * once, by the first move to cut). */
				int drawn = cutoff_int_load_relaxed(&sp->next);
				for (int j = i + 1; CUTOFF_PROFILING && j < drawn && j < sp->n &&
				                    !cutoff_int_load_relaxed(&sp->above.cut);
				     j++)
					s->driver_count[YBW_SPLIT_NODES_AFTER_CUT] +=
						sp->move_nodes[j];
				cutoff_int_store_relaxed(&sp->above.cut, 1);
			} else if (v > sp->alpha) {
				cutoff_int_store_relaxed(&sp->alpha, v);
			}
		}
		cutoff_spinlock_unlock(&sp->lock);
	}
}

/* True when `sp` lies below `above` (its chain of parents reaches it). */
static bool lies_below(const cutoff_split_t *sp, const cutoff_split_t *above)
{
	for (const cutoff_above_t *a = sp->above.parent; a; a = a->parent)
		if (a == &above->above)
			return true;
	return false;
}

/* A member leaves sp: the owner's parking place when it was the last of a closed one. */
static cutoff_park_t *leave(cutoff_ybw_t *y, cutoff_split_t *sp)
{
	/* The split point may be gone once its members are 0: its owner is read before. */
	cutoff_park_t *owner = &y->t[sp->owner->index].park;
	return cutoff_int_faa(&sp->members, -1) == 1 ? owner : NULL;
}

/* A member's visit to a split point (booked, or joined late): its node's state onto the
 * thread's own stack, its share of the moves, and the decrement that lets the owner go on.
 * Returns the owner's parking place when this was the last member to leave a closed split
 * point (the caller wakes the owner once it has marked itself idle, so that the owner,
 * back at work, finds it idle at its next split point), else NULL. */
static cutoff_park_t *help(cutoff_ybw_t *y, int index, cutoff_split_t *sp)
{
	cutoff_searcher_t *s = &y->searchers[index];
	const cutoff_above_t *saved = s->above;
	cutoff_charge(CUTOFF_CHARGE_JOIN);
	memcpy(cutoff_searcher_state(s, sp->ply), sp->state, s->game->state_size);
	const cutoff_split_t *own = cutoff_ptr_load_relaxed(&y->t[index].waiting); /* its own */
	cutoff_searcher_adopt_path(s, sp->owner, sp->ply, own ? own->ply : -1);
	s->above = &sp->above;
	work(s, sp);
	s->above = saved;
	return leave(y, sp);
}

/* The only search for a split point to join (the rule at the top): a running split point
 * with moves left that thread `index` may help (below its own, for a helpful master), or
 * NULL. Only atomic fields are read: the split point may be reused meanwhile; the join
 * (join_open) decides. */
static cutoff_split_t *find_join(cutoff_ybw_t *y, int index)
{
	for (int k = 1; k < y->threads; k++) {
		int j = index + k < y->threads ? index + k : index + k - y->threads;
		ybw_thread_t *t = &y->t[j];
		int n = cutoff_int_load_acquire(&t->nsplits);
		for (int q = 0; q < n; q++) {
			cutoff_split_t *sp = &t->splits[q];
			if ((cutoff_int_load_relaxed(&sp->members) & SP_OPEN) &&
			    cutoff_int_load_relaxed(&sp->next) < cutoff_int_load_relaxed(&sp->n) &&
			    !cutoff_int_load_relaxed(&sp->above.cut))
				return sp;
		}
	}
	return NULL;
}

/* Joins sp if it is still open (a member more); false when it closed first. */
static bool join_open(cutoff_split_t *sp)
{
	for (;;) {
		int m = cutoff_int_load_seq_cst(&sp->members);
		if (!(m & SP_OPEN))
			return false;
		if (cutoff_int_cas(&sp->members, m, m + 1))
			return true;
	}
}

/* Thread `index`, idle, tries a late join: leaves its idle state, joins a running split
 * point it may help and helps there, then is idle again. Returns false when it found none
 * or was booked meanwhile (then its booking is on its way), with nothing changed but the
 * time; true after a visit. */
static bool late_join(cutoff_ybw_t *y, int index)
{
	cutoff_split_t *sp = y->late_join && !cpus_full(y) ? find_join(y, index) : NULL;
	if (!sp || !leave_idle(y, index, true))
		return false;
	const cutoff_split_t *own = cutoff_ptr_load_acquire(&y->t[index].waiting);
	cutoff_park_t *owner = NULL;
	bool joined = join_open(sp);
	if (joined && (sp->owner->index == index || (own && !lies_below(sp, own)))) {
		owner = leave(y, sp); /* an incarnation it may not help: out at once */
		joined = false;
	}
	if (joined) {
		y->searchers[index].driver_count[YBW_LATE_JOINS]++;
		owner = help(y, index, sp);
	}
	go_idle(y, index);
	if (owner)
		cutoff_unpark(owner);
	return joined;
}

/* True when a thread waiting in wait_for_work may stop waiting: it is booked, or
 * *until_zero is 0, or (until_zero NULL) the search is done. Sequentially consistent, the
 * sleeper's half of the parking protocol (platform.h). */
static bool wait_over(const cutoff_ybw_t *y, const ybw_thread_t *me, int *until_zero)
{
	return cutoff_ptr_load_seq_cst(&me->assigned) ||
	       (until_zero ? cutoff_int_load_seq_cst(until_zero) == 0
	                   : cutoff_int_load_seq_cst(&y->done) != 0);
}

/*
 * The only place a thread waits: until *until_zero is 0 (an owner waiting for its
 * helpers) or, when until_zero is NULL, until the search is done (a helper between split
 * points). The caller has made itself idle; whenever it is booked meanwhile it helps, then
 * is idle again; every YBW_JOIN_LOOKS looks it tries a late join. It leaves busy, having
 * made itself so (if a booker came first, it takes that booking and goes on waiting). A
 * wait spins for YBW_SPIN_NS (none while the thread's CPU is contended), then sleeps
 * until one of the three things it waits for happens (each wakes it: book_helpers, help,
 * job).
 */
static void wait_for_work(cutoff_ybw_t *y, int index, int *until_zero)
{
	ybw_thread_t *me = &y->t[index];
	cutoff_prof_clock_t *prof = &y->searchers[index].prof;
	uint64_t *waited = until_zero ? &prof->split_wait_ns : &prof->idle_ns;
	uint64_t since = CUTOFF_PROFILING ? cutoff_now_ns() : 0;
	uint64_t spun_from = 0; /* when the pauses ended, or 0 */
	int join_every = YBW_JOIN_LOOKS;
	for (cutoff_spin_t spin = { 0 };;) {
		cutoff_split_t *sp = cutoff_ptr_load_acquire(&me->assigned);
		if (sp) {
			/* Taken at once: a helper that makes a split point of its own inside
			 * help() waits here again, and must not find this booking twice. No one
			 * else writes `assigned` while the thread is busy. */
			cutoff_ptr_store_release(&me->assigned, NULL);
			idle_bit(y, index, false); /* the booker made it busy */
			if (CUTOFF_PROFILING)
				*waited += cutoff_now_ns() - since;
			cutoff_park_t *owner = help(y, index, sp);
			go_idle(y, index);
			if (owner)
				cutoff_unpark(owner);
			if (CUTOFF_PROFILING)
				since = cutoff_now_ns();
			spin.looks = 0;
			spun_from = 0;
			join_every = YBW_JOIN_LOOKS;
			continue;
		}
		bool over = until_zero ? cutoff_int_load_acquire(until_zero) == 0
		                       : cutoff_int_load_acquire(&y->done) != 0;
		if (over) {
			if (!leave_idle(y, index, false)) {
				cutoff_spin_wait(&spin); /* booked: the booking comes next */
				continue;
			}
			if (CUTOFF_PROFILING)
				*waited += cutoff_now_ns() - since;
			return;
		}
		if (spin.looks % join_every == 0) {
			uint64_t t0 = CUTOFF_PROFILING ? cutoff_now_ns() : 0;
			if (late_join(y, index)) {
				if (CUTOFF_PROFILING)
					since +=
						cutoff_now_ns() - t0; /* the visit is not waiting */
				spin.looks = 1;
				spun_from = 0;
				join_every = YBW_JOIN_LOOKS;
				continue;
			}
			if (join_every < y->join_looks_max)
				join_every *= 2;
		}
		if (spin.looks >= CUTOFF_SPIN_PAUSES || y->cpus) {
			uint64_t now = cutoff_now_ns();
			if (!spun_from)
				spun_from = now;
			if (spun_from == now) { /* a long wait begins: is the CPU contended? */
				long n = cutoff_preemptions();
				if (n != me->preemptions)
					me->contended_until = now + YBW_CONTENDED_NS;
				me->preemptions = n;
			}
			/* With more threads than CPUs a spin takes the CPU of a busy one. */
			if (now - spun_from >=
			    (y->cpus || now < me->contended_until ? 0 : YBW_SPIN_NS)) {
				int token = cutoff_park_begin(&me->park);
				cutoff_int_store_relaxed(&me->asleep, 1);
				if (!wait_over(y, me, until_zero))
					cutoff_park_sleep(&me->park, token);
				cutoff_int_store_relaxed(&me->asleep, 0);
				cutoff_park_end(&me->park);
				continue;
			}
		}
		cutoff_spin_wait(&spin);
	}
}

/* A helper thread's whole search: wait for split points, help, until thread 0 is done. */
static void idle_loop(cutoff_ybw_t *y, int index)
{
	cutoff_ptr_store_release(&y->t[index].waiting, NULL);
	go_idle(y, index);
	wait_for_work(y, index, NULL);
}

/* The only search for idle threads: books up to `most` of them for `sp` (a helpful
 * master only for a split point below its own) by their idle bits and state words, counts
 * them in sp->members, opens it, tells them, and returns how many (0: sp untouched). The
 * wake-ups (a system call each for a thread asleep) come last. */
static int book_helpers(cutoff_ybw_t *y, int owner, cutoff_split_t *sp, int most)
{
	int n = 0, *booked = y->t[owner].booked;
	cutoff_charge(CUTOFF_CHARGE_SPLIT);
	if (y->cpus) { /* no more busy threads than CPUs (see the top) */
		int room = y->cpus - cutoff_int_load_relaxed(&y->busy);
		most = room < most ? room : most;
	}
	int first = owner / YBW_GROUP;
	/* Threads awake first; asleep ones (a wake-up each, and the owner waits for them to
	 * come and leave) only when too few are awake. */
	for (int pass = 0; pass < 2 && n < most; pass++)
		for (int k = 0; k < y->words && n < most; k++) {
			int w = first + k < y->words ? first + k : first + k - y->words;
			uint64_t bits = cutoff_u64_load_relaxed(&y->idle[w * 8]);
			while (bits && n < most) {
				int j = w * YBW_GROUP + __builtin_ctzll(bits);
				bits &= bits - 1;
				ybw_thread_t *t = &y->t[j];
				bool asleep = cutoff_int_load_relaxed(&t->asleep) != 0;
				if (j == owner || asleep != (pass == 1))
					continue;
				int st = cutoff_int_load_seq_cst(&t->state);
				if (!(st & 1))
					continue;
				const cutoff_split_t *wt = cutoff_ptr_load_acquire(&t->waiting);
				if (wt && !lies_below(sp, wt))
					continue;
				/* The swap fails if t left its idle state since `st`, whose
				 * waiting was read above. */
				if (!cutoff_int_cas(&t->state, st, st + 1))
					continue;
				booked[n++] = j; /* its bit stays until it takes the booking */
			}
		}
	if (n == 0)
		return 0;
	busy_add(y, n);
	/* Counted, and the split point opened to late joiners (its fields before: the
	 * read-modify-write is a release), before any of them can see it and leave it. */
	cutoff_int_faa(&sp->members, n + SP_OPEN);
	for (int k = 0; k < n; k++)
		cutoff_ptr_store_seq_cst(&y->t[booked[k]].assigned, sp);
	/* A thread's parking place outlives every search: waking one that has taken its
	 * booking already only costs it a spurious wake-up. */
	for (int k = 0; k < n; k++)
		cutoff_unpark(&y->t[booked[k]].park);
	return n;
}

/* True when config.ybw_split_nodes lets a node of this expected type split. */
static bool may_split(const cutoff_ybw_t *y, cutoff_node_type_t type)
{
	switch (y->split_nodes) {
	case CUTOFF_YBW_SPLIT_NOT_CUT:
		return type != CUTOFF_NODE_CUT;
	case CUTOFF_YBW_SPLIT_ALL:
		return type == CUTOFF_NODE_ALL;
	default:
		return true;
	}
}

/*
 * The move loop's hook (search.h, cutoff_younger_fn), called by a node's owner after its
 * first node->from moves (the eldest, by default) were searched without a cut-off: when
 * idle threads can be booked, makes a split point for moves[node->from .. n), opens it to
 * late joiners, searches its moves with the helpers (the owner takes moves too, and once
 * they are all handed out closes it and helps its helpers' split points while it waits
 * for them), and returns true with the node's best value, move (and s->pv[ply]) and
 * whether it cut off. Returns false, having done nothing, when no thread could be booked:
 * the caller goes on alone.
 */
static bool try_split(cutoff_searcher_t *s, const cutoff_node_t *node, cutoff_younger_t *out)
{
	cutoff_ybw_t *y = s->driver;
	ybw_thread_t *me = &y->t[s->index];
	const int ply = node->ply;
	const int nsplits = cutoff_int_load_relaxed(&me->nsplits);
	/* Helpers beyond the moves left besides the owner's first would find none: booked
	 * at most that many (a node with one move left is not split). */
	const int left = node->n - node->from - 1;
	if (left < 1 || nsplits >= y->max_splits || !may_split(y, node->type) ||
	    !any_idle(y, s->index))
		return false;

	/* Not in use: members is 0, and no joiner can take it before it is opened below. */
	cutoff_split_t *sp = &me->splits[nsplits];
	sp->above.parent = s->above;
	cutoff_int_store_relaxed(&sp->above.cut, 0);
	sp->owner = s;
	sp->hints = node->hints;
	sp->state = cutoff_searcher_state(s, ply);
	sp->moves = node->moves;
	cutoff_int_store_relaxed(&sp->n, node->n);
	sp->ply = ply;
	sp->depth = node->depth;
	sp->algo = node->algo;
	sp->type = node->type;
	sp->beta = node->beta;
	cutoff_spinlock_init(&sp->lock);
	cutoff_int_store_relaxed(&sp->next, node->from);
	cutoff_int_store_relaxed(&sp->alpha, node->alpha);
	sp->best = node->best;
	sp->best_move = node->best_move;
	sp->best_index = 0; /* read only when a move from node->from on cuts, which sets it */
	sp->pv_length = s->pv_length[ply];
	sp->horizon = false;
	memcpy(sp->pv, cutoff_searcher_pv(s, ply), (size_t)sp->pv_length * sizeof(cutoff_move_t));
	if (CUTOFF_PROFILING) {
		sp->move_nodes = me->move_nodes + (size_t)nsplits * (size_t)y->max_moves;
		memset(sp->move_nodes, 0, sizeof(uint32_t) * (size_t)node->n);
	}
	cutoff_int_store_relaxed(&sp->aborted, 0);
	int helpers = book_helpers(y, s->index, sp, left < y->max_helpers ? left : y->max_helpers);
	if (helpers == 0)
		return false;
	cutoff_int_store_release(&me->nsplits, nsplits + 1); /* where joiners look */
	s->driver_count[YBW_SPLITS]++;
	if (CUTOFF_PROFILING)
		s->driver_count[YBW_SPLIT_HELPERS] += (uint64_t)helpers;

	s->above = &sp->above;
	work(s, sp);

	/* Out of moves: closed to joiners, then wait for the members, helping below this
	 * split point meanwhile. */
	cutoff_int_faa(&sp->members, -SP_OPEN);
	const void *outer = cutoff_ptr_load_relaxed(&me->waiting);
	cutoff_ptr_store_release(&me->waiting, sp);
	go_idle(y, s->index);
	wait_for_work(y, s->index, &sp->members);
	cutoff_ptr_store_release(&me->waiting, (void *)outer);
	cutoff_int_store_release(&me->nsplits, nsplits);

	s->above = sp->above.parent;
	if (cutoff_int_load_relaxed(&sp->aborted))
		s->aborted = true; /* the stop reached a helper first: this node is void */
	s->horizon += sp->horizon; /* the helpers' contacts, as if the owner had made them */
	out->best = sp->best;
	out->best_move = sp->best_move;
	out->cut = cutoff_int_load_relaxed(&sp->above.cut) != 0;
	if (CUTOFF_PROFILING)
		s->driver_count[YBW_SPLIT_CUTOFFS] += out->cut;
	out->cut_index = sp->best_index;
	s->pv_length[ply] = sp->pv_length;
	memcpy(cutoff_searcher_pv(s, ply), sp->pv, (size_t)sp->pv_length * sizeof(cutoff_move_t));
	return true;
}

/* Thread 0 runs iterative deepening, splitting as it goes; the others help until it is
 * done. */
static void job(const cutoff_job_t *job, int index)
{
	cutoff_ybw_t *y = job->driver;
	if (index == 0) {
		cutoff_iterate(job, 0, NULL, false);
		cutoff_int_store_seq_cst(&y->done, 1);
		for (int i = 1; i < y->threads; i++)
			cutoff_unpark(&y->t[i].park);
	} else {
		idle_loop(y, index);
	}
}

const cutoff_driver_ops_t cutoff_driver_ybw_ops = {
	.name = "ybw",
	.description = "Young Brothers Wait: idle threads help at nodes whose eldest move did "
		       "not cut off",
	.create = create,
	.destroy = destroy,
	.begin = begin,
	.job = job,
	.counters = ybw_counters,
	.ncounters = YBW_NCOUNTERS,
};
