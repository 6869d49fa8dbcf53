/* SPDX-License-Identifier: MIT */
/*
 * ybw.c — Young Brothers Wait with helpful masters; idle threads take work (pull).
 *
 * The idea. A node's eldest brother (its first move) is searched alone. If it did not cut
 * off, the node is an expected ALL node: every younger brother will have to be searched,
 * so they may be searched in parallel without speculative work. The node's owner opens a
 * split point from its own pool and goes on taking moves from its cursor; idle threads
 * join it on their own and take moves from the same cursor, until none is left or one of
 * them reaches beta (a cut-off: everything below the split point stops). The owner, out
 * of moves, closes it and waits for the helpers inside — and while it waits it helps
 * them: it may join any split point made below its own (a "helpful master"), never
 * elsewhere, so that it is back as soon as its helpers are done and no thread ever waits
 * on a thread that waits on it.
 *
 * Pull, not push (issue 44). No thread books another: opening a split point writes the
 * owner's own lines only (its fields, its crew word, its offer, its pool's count), a
 * constant number whatever the threads, and the owner goes on at once. Measured by call
 * site in the simulator (docs/simulation.md, "YBW and ABDADA by call site"), the booking
 * that this replaced (reading other threads' state words, swapping them, storing their
 * bookings) and the crowd of late joiners on one split point's words held most of the
 * threads' time at 64 and 256 threads.
 *
 * Joining. An idle thread (a helper between split points, or an owner waiting for its
 * helpers) looks every YBW_JOIN_LOOKS looks of its wait, twice as seldom after each look
 * that found nothing (to a limit that grows with the threads, so that many idle threads
 * do not crowd the lines they read). A look (find_join) scans the other threads from the
 * next index round, reads each one's pool count and its split points' offers (words
 * that change twice in a split point's life, so that a look mostly reads lines in its
 * own cache), and keeps the YBW_CANDIDATES deepest offers, the first found among equal
 * ones: threads that start at different places spread over equal offers. Then it reads
 * the candidates' crew words, the deepest first, and joins the first with more moves
 * left than helpers inside (a split point whose moves its helpers will take anyway is
 * left to them), else the first with a move left; a join is one compare-and-swap of the
 * crew word that also takes the joiner's first move. A helpful master looks only at
 * offers shallower than its own split point, joins without taking a move, checks that
 * the split point lies below its own (its fields are stable once it is inside), and if
 * not leaves at once and skips it for the rest of its wait.
 *
 * The one push: waking sleepers. A wait sleeps after YBW_SPIN_NS (below), and a thread
 * asleep looks for nothing. An owner opening a split point counts the idle bits of
 * threads awake in a wait (a hint) and, when fewer than the helpers it could use (its
 * moves left, at most config.ybw_max_helpers), wakes as many sleepers more: claiming
 * each by a swap of its `sleeping` word, then a wake-up (a system call each). Threads
 * that no owner needs stay asleep and cost the search nothing. No correctness rests on a
 * sleeper being woken for work: an owner never waits for a thread that has not joined
 * (it searches every move nobody took), so a wake-up missed this way costs speed only.
 *
 * No lock that every thread takes. Shared state and who touches it:
 *   y->idle[]     a bit per thread awake in a wait, a word (a line) per YBW_GROUP threads:
 *                 set by the thread as it goes idle or comes back from a visit, cleared
 *                 by it for a visit, before it sleeps and as it leaves the wait
 *                 (compare-and-swap). Read (relaxed) by owners as a hint: whether anyone
 *                 may come, and how many sleepers to wake. Nothing else rests on it.
 *   y->sleep[]    a bit per helper asleep (same layout), set by the thread before it
 *                 sleeps and cleared by it after: where owners find sleepers (a hint).
 *   t->sleeping   1 while helper t sleeps for want of work (stored sequentially
 *                 consistently by t before its last look and after it wakes); a waker
 *                 claims t by swapping it from 1 to 0, so that of two wakers one wakes t.
 *   t->waiting    a helpful master's own split point (NULL: none), written (release) by t
 *                 only; read by t's own joins.
 *   t->nsplits    the number of t's split points in use, written by t alone (release,
 *                 sequentially consistent as it opens one), read by joiners (acquire):
 *                 the published part of t's pool.
 *   t->park       where t sleeps once a wait has outlasted YBW_SPIN_NS (platform.h's
 *                 parking protocol): t sleeps only after a last sequentially consistent
 *                 look at what it waits for — an owner at its split point's helpers
 *                 (crew's count 0), a helper at done and at its `sleeping` word (a waker's
 *                 claim), and a helper looks once more for an offer — and each of these is
 *                 written sequentially consistently (a store or a read-modify-write)
 *                 before its writer wakes t, so no wake-up that a wait needs is lost: the
 *                 last helper out of a closed split point wakes its owner, thread 0 wakes
 *                 everyone when done.
 *   y->done       set (sequentially consistent) by thread 0 when its search is over, which
 *                 then wakes every thread; read in the waits.
 *   y->cpus       set by begin() when the threads outnumber the CPUs the caller may run on
 *                 (platform.h's cutoff_cpus; 0 otherwise), read-only while a search runs.
 *   y->busy       only when y->cpus is set: the threads busy. A thread entering a wait
 *                 takes itself off (fetch-and-add), one leaving it to go back to its own
 *                 search adds itself back whatever the count (an owner whose helpers have
 *                 left, a search that is done); a joiner takes a CPU by a compare-and-swap
 *                 that succeeds only while busy < cpus, and gives it back after its visit.
 *                 So about as many threads search as there are CPUs and the rest sleep
 *                 (waits sleep at once then, without spinning, and owners wake at most
 *                 cpus - busy sleepers): more would only take turns on the CPUs, an owner
 *                 waiting for a helper preempted behind a dozen others (71 s instead of
 *                 6.5 at 32 threads on 2 CPUs, issue 43). No correctness rests on it.
 *   sp->offer     depth + 1 while the split point may have moves to take, else 0: stored
 *                 (release) by the owner as it opens it; cleared (relaxed) by whoever
 *                 draws its last move or past it, by a move that cuts, by a member that
 *                 finds it cut or stopped, and by the owner as it closes — each a member
 *                 at that moment, so never an offer of a later incarnation. A hint: a
 *                 stale offer costs a look at the crew word.
 *   sp->crew      one word (CREW_*): the helpers inside, the cursor, and CREW_CLOSED. The
 *                 owner stores it (release) as it opens the split point, after every
 *                 other field; members take moves by fetch-and-add of CREW_NEXT (a move
 *                 is taken by exactly one thread, and a thread that draws past n has
 *                 nothing to do); a joiner adds itself (and its first move) by
 *                 compare-and-swap only while CREW_CLOSED is clear, so its swap acquires
 *                 the owner's fields; each helper takes itself off as it leaves
 *                 (fetch-and-add); the owner sets CREW_CLOSED once it draws no more, then
 *                 waits for the count to reach 0, and the helper that takes it to 0 of a
 *                 closed split point wakes the owner.
 *   sp fields     see cutoff_split_t: the read-only part is written before the crew word
 *                 opens it; alpha, best, best_move, best_index, pv, horizon, helped and
 *                 the profiler's row under sp->lock (alpha also read without it,
 *                 atomically: a stale alpha only widens the window the next move is
 *                 searched with, which keeps the contract); sp->above.cut set under
 *                 sp->lock and read anywhere (relaxed: a late read only costs some wasted
 *                 nodes); sp->aborted set by a thread that a stop made leave a move
 *                 unsearched, read by the owner after everyone left.
 *   owner's stack the split node's state and move list stay on the owner's stack, which
 *                 it does not touch at that ply or above while the split point lives
 *                 (helping below its own split point, it only writes deeper plies).
 *
 * Why no move is lost: every move from node->from on is handed out by the cursor to one
 * thread, which searches it (or, when the split point cut or the search stopped, leaves
 * it: nothing after a cut matters, and a stop voids the node by `aborted`), including
 * the move a join takes with its swap. Why no value is lost: every completed move's value
 * goes into the split point under its lock before its searcher leaves, and the owner
 * reads the result only after the count is 0. Why no thread waits forever: the owner
 * waits only for the count to reach 0, every helper leaves once the cursor is spent or
 * the node halted, and no one joins once CREW_CLOSED is set; a helpful master helps only
 * below its own split point, so no thread waits on a thread that waits on it.
 *
 * Locks: only sp->lock (each split point's own, for a completed move's result), never two
 * at once.
 *
 * Lifetime. A split point is released (its owner pops it) only after the count is 0 with
 * CREW_CLOSED set, and no one can join then; a helper's last access is its decrement. A
 * joiner that read the offer of an earlier incarnation can only join one that is open,
 * whose fields were published (release) before its crew word, and a helpful master
 * checks its rule after its join. Split points nest LIFO in each owner's pool, at most
 * one per ply, so a pool of max_ply split points (the engine's ply limit) per thread is
 * enough.
 *
 * The few points where a thread waits, locks or looks for work are named: split_lock
 * (every lock), wait_for_work (the only wait), find_join (the only search for a split
 * point to join), wake_sleepers (the only wake-up for work); their spinning, yielding
 * and sleeping is platform.h's, the seam a deterministic scheduler of virtual threads
 * takes over. A wait sleeps after YBW_SPIN_NS because when another program takes a core
 * a spinning waiter keeps the CPU the thread it waits for needs (platform.h); a wake-up
 * costs a system call only when the thread woken is asleep.
 *
 * The seam (driver.h): the move loop calls try_split through the searcher's hook, the
 * helpers' searches read the split points' cut flags through searcher.above, thread 0
 * iterates (iterate.c) and the others wait in idle_loop until it is done. Options:
 * config.ybw_min_split_depth (the hook's depth), config.ybw_max_helpers (helpers inside
 * one split point at once), config.ybw_split_after (the moves searched alone first: 1,
 * the eldest, by default), config.ybw_split_nodes (which expected node types may split)
 * and config.ybw_max_splits (split points a thread may have open at once);
 * config.ybw_late_join is kept for configurations that set it and has no effect (every
 * join is a late join now). Their defaults are the rule's own; the sweep that kept them
 * is in docs/simulation.md ("Where YBW splits, on chess").
 *
 * The profiler reads the clock at those points only, into the thread's own searcher
 * (prof, count): split_lock times its slow path (a lock found taken) as lock time;
 * wait_for_work times its waiting, less the visits inside it, as idle time (a helper
 * between split points) or split-wait time (an owner waiting for its helpers). Counters:
 * splits are the split points a helper completed a move at (an opened split point that
 * nobody helped is the serial loop over a cursor, and is not counted), split_helpers the
 * visits that completed a move, late_joins every join. work() counts the nodes of a move
 * a cut-off made void (split_nodes_lost) and, when a move cuts, the nodes of the moves
 * after it that were done already (split_nodes_after_cut, from each move's count in the
 * split point's row of the owner's move_nodes), try_split the split points that cut.
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

	/* written by the owner before the split point is opened; read-only afterwards */
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
	bool helped;          /* a helper completed a move here (the counters' splits) */
	cutoff_move_t pv[CUTOFF_PLY_LIMIT];

	/* atomic, each on a line of its own: `crew` changes at every move handed out,
	 * `offer` twice in the split point's life, and the idle threads read `offer` */
	_Alignas(64) int crew; /* the cursor and the helpers inside, one word (CREW_*) */
	int aborted; /* a thread left a move unfinished because the search was stopped: the
	                node's result is void, and its owner must stop too */
	_Alignas(64) int offer; /* depth + 1 while moves may be left to take, else 0 */
} cutoff_split_t;

/* sp->crew: the helpers inside (not the owner), the next move to hand out, and whether
 * the owner has closed it (no more joins). One word, so
 * that a join is one compare-and-swap that also takes the joiner's first move, and the
 * owner's wait for its helpers reads the word it hands moves out of. */
enum {
	CREW_COUNT = (1 << 11) - 1, /* the helpers inside: at most CUTOFF_MAX_THREADS - 1 */
	CREW_NEXT_SHIFT = 11,
	CREW_NEXT = 1 << CREW_NEXT_SHIFT, /* one move handed out */
	CREW_NEXT_MAX = (1 << 14) - 1,    /* the cursor's field: 14 bits */
	CREW_CLOSED = 1 << 30             /* the owner is out of moves: no more joins */
};
_Static_assert(CUTOFF_MAX_THREADS <= CREW_COUNT + 1, "every helper counted in crew");
/* The cursor passes n by one draw per member at most (each leaves at its first miss). */
_Static_assert(CUTOFF_MAX_MOVES + CUTOFF_MAX_THREADS <= CREW_NEXT_MAX &&
                       (CREW_NEXT_MAX << CREW_NEXT_SHIFT) < CREW_CLOSED,
               "the cursor's field holds every draw");

static int crew_count(int c) { return c & CREW_COUNT; }
static int crew_next(int c) { return (c >> CREW_NEXT_SHIFT) & CREW_NEXT_MAX; }

enum {
	/* Threads whose idle and sleep bits share a word (a line): few, so that the bits'
	 * writes spread over many lines instead of queueing on one (measured in the
	 * simulator: one word for 64 threads moved 240,000 times in one search and held
	 * them 0.6 s in its queue). */
	YBW_GROUP = 8,
	/* The candidates a join looks at closely (their crew words), the deepest first. */
	YBW_CANDIDATES = 4,
	/* Split points a helpful master found not below its own, skipped for the rest of
	 * its wait. */
	YBW_REJECTED = 4
};

enum {
	/* A join is tried every YBW_JOIN_LOOKS looks of a wait, and twice as seldom
	 * after each try that found nothing, down to once every y->join_looks_max looks:
	 * YBW_JOIN_LOOKS times the threads over YBW_JOIN_THREADS, so that the idle threads
	 * together look about as often at any thread count (their looks read the lines the
	 * working threads write, and queue on them). */
	YBW_JOIN_LOOKS = 16,
	YBW_JOIN_THREADS = 16
};

typedef struct ybw_thread {
	void *waiting;            /* cutoff_split_t *: a helpful master's own split point */
	int nsplits;              /* split points in use (written by the owner, atomic) */
	cutoff_split_t *splits;   /* max_ply split points, owner only */
	uint32_t *move_nodes;     /* max_ply rows of max_moves, one per split point
	                            (the profiler's), owner only until published */
	cutoff_park_t park;       /* where the thread sleeps in wait_for_work (platform.h) */
	int sleeping;             /* 1 while a helper sleeps and may be woken for work; a
	                            waker claims it by swapping it to 0 (atomic) */
	long preemptions;         /* its involuntary context switches at its last long wait */
	uint64_t contended_until; /* until then (ns) its waits sleep without spinning */
} __attribute__((aligned(64))) ybw_thread_t;

typedef struct cutoff_ybw {
	int threads;
	int max_helpers;
	int max_splits;                       /* config.ybw_max_splits */
	cutoff_ybw_split_nodes_t split_nodes; /* config.ybw_split_nodes */
	int join_looks_max;                   /* the longest interval between joins */
	int max_moves;
	int words; /* of idle[] and sleep[] */
	cutoff_searcher_t *searchers;
	ybw_thread_t *t;
	uint64_t *idle;  /* a bit per thread awake in wait_for_work (a hint): a word, on a
	                    line of its own, per YBW_GROUP threads */
	uint64_t *sleep; /* a bit per helper asleep there, until it or a waker clears it */
	int cpus;        /* the CPUs when fewer than the threads, else 0 (begin; see the top) */
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
	X(YBW_SPLITS, "splits", "split points", false,                                             \
	  "split points made that a helper completed a move at (one nobody helped is not "         \
	  "counted)")                                                                              \
	X(YBW_SPLIT_HELPERS, "split_helpers", "threads", true,                                     \
	  "helpers' visits to split points that completed a move (counted by the helper): "        \
	  "helpers per split point is split_helpers / splits")                                     \
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
	  "running split points this thread joined on its own when it went idle (every join is "   \
	  "one: no thread books another)")
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
	y->sleep = aligned_alloc(64, 64 * (size_t)y->words);
	if (!y->idle || !y->sleep) {
		destroy(y);
		return CUTOFF_ENOMEM;
	}
	memset(y->idle, 0, 64 * (size_t)y->words);
	memset(y->sleep, 0, 64 * (size_t)y->words);
	for (int i = 0; i < threads; i++) {
		/* aligned_alloc wants a whole number of lines */
		const size_t bytes = (sizeof(cutoff_split_t) * plies + 63) & ~(size_t)63;
		y->t[i].splits = aligned_alloc(64, bytes);
		if (y->t[i].splits)
			memset(y->t[i].splits, 0, bytes);
		if (CUTOFF_PROFILING)
			y->t[i].move_nodes =
				malloc(sizeof(uint32_t) * plies * (size_t)game->max_moves);
		if (!y->t[i].splits || (CUTOFF_PROFILING && !y->t[i].move_nodes)) {
			destroy(y);
			return CUTOFF_ENOMEM;
		}
		for (size_t q = 0; q < plies; q++)
			y->t[i].splits[q].crew = CREW_CLOSED; /* no join before it is opened */
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
	}
	free(y->t);
	free(y->idle);
	free(y->sleep);
	free(y);
}

/* Before a search (no thread searching): every thread busy, no split point. */
static void begin(void *state)
{
	cutoff_ybw_t *y = state;
	for (int i = 0; i < y->threads; i++) {
		y->t[i].waiting = NULL;
		y->t[i].nsplits = 0;
		y->t[i].sleeping = 0;
	}
	for (int w = 0; w < y->words; w++) {
		y->idle[w * 8] = 0;
		y->sleep[w * 8] = 0;
	}
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

/* CPUs free for new work: y->cpus - busy while capped (at least 0), else INT_MAX. */
static int cpus_free(cutoff_ybw_t *y)
{
	if (!y->cpus)
		return INT_MAX;
	int free = y->cpus - cutoff_int_load_relaxed(&y->busy);
	return free > 0 ? free : 0;
}

/* A thread about to join takes a CPU (only while capped): false when none is free. The
 * compare-and-swap makes two joiners that saw the last free CPU take it one at a time. */
static bool take_cpu(cutoff_ybw_t *y)
{
	if (!y->cpus)
		return true;
	for (;;) {
		int b = cutoff_int_load_relaxed(&y->busy);
		if (b >= y->cpus)
			return false;
		if (cutoff_int_cas(&y->busy, b, b + 1))
			return true;
	}
}

/* ---- the idle and sleep bits: hints (see the top) ---- */

static uint64_t *bit_word(uint64_t *bits, int i) { return &bits[(i / YBW_GROUP) * 8]; }

/* Sets or clears thread i's bit in `bits`; true when this call changed it (a waker
 * that clears a sleeper's bit claims it: of two wakers, one). */
static bool set_bit(uint64_t *bits, int i, bool set)
{
	uint64_t *w = bit_word(bits, i), bit = 1ull << (i % YBW_GROUP);
	for (;;) {
		uint64_t v = cutoff_u64_load_relaxed(w);
		if ((v & bit) == (set ? bit : 0))
			return false;
		if (cutoff_u64_cas(w, v, set ? v | bit : v & ~bit))
			return true;
	}
}

/* The threads other than `me` with a bit in `bits` (a hint), at most `enough`. */
static int count_bits(const cutoff_ybw_t *y, uint64_t *bits, int me, int enough)
{
	int first = me / YBW_GROUP, n = 0;
	for (int k = 0; k < y->words && n < enough; k++) {
		int w = first + k < y->words ? first + k : first + k - y->words;
		uint64_t v = cutoff_u64_load_relaxed(&bits[w * 8]);
		if (w == first)
			v &= ~(1ull << (me % YBW_GROUP));
		n += __builtin_popcountll(v);
	}
	return n;
}

/* Wakes up to `most` helpers asleep (never `me`), found by their sleep bits: each claimed
 * by swapping its `sleeping` to 0, the condition its sleep waits for (platform.h's
 * protocol), then unparked. */
static void wake_sleepers(cutoff_ybw_t *y, int me, int most)
{
	int first = me / YBW_GROUP;
	for (int k = 0; k < y->words && most > 0; k++) {
		int w = first + k < y->words ? first + k : first + k - y->words;
		uint64_t bits = cutoff_u64_load_relaxed(&y->sleep[w * 8]);
		while (bits && most > 0) {
			int j = w * YBW_GROUP + __builtin_ctzll(bits);
			bits &= bits - 1;
			if (j != me && cutoff_int_cas(&y->t[j].sleeping, 1, 0)) {
				cutoff_unpark(&y->t[j].park);
				most--;
			}
		}
	}
}

/* Thread i enters a wait (it is idle: counted off the busy threads, its idle bit set). */
static void go_idle(cutoff_ybw_t *y, int i)
{
	busy_add(y, -1);
	set_bit(y->idle, i, true);
}

/* Thread i leaves a wait to go back to its own search (counted busy whatever the cap:
 * an owner whose helpers have left, or a search that is done, must go on). */
static void leave_idle(cutoff_ybw_t *y, int i)
{
	busy_add(y, 1);
	set_bit(y->idle, i, false);
}

/* Searches move i of sp (drawn from its cursor by this thread) and takes its result into
 * the split point; false when the search was halted first (nothing taken). Run by the
 * owner and by every helper. */
static bool search_drawn(cutoff_searcher_t *s, cutoff_split_t *sp, int i)
{
	uint64_t *spin = &s->prof.lock_ns;
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
			s->driver_count[YBW_SPLIT_NODES_LOST] = lost + (s->count.nodes - nodes);
		return false;
	}

	split_lock(&sp->lock, spin);
	sp->horizon |= s->horizon != horizon;
	sp->helped |= s != sp->owner;
	if (CUTOFF_PROFILING) {
		uint64_t spent = s->count.nodes - nodes;
		sp->move_nodes[i] = spent < UINT32_MAX ? (uint32_t)spent : UINT32_MAX;
	}
	if (v > sp->best) {
		sp->best = v;
		sp->best_move = m;
		sp->best_index = i;
		sp->pv_length = cutoff_pv_join(sp->pv, m, cutoff_searcher_pv(s, sp->ply + 1),
		                               s->pv_length[sp->ply + 1], s->max_ply);
		if (v >= sp->beta) {
			/* The moves after this one that are done already: work the
			 * serial search, stopping here, would not have done (counted
			 * once, by the first move to cut). */
			int drawn = crew_next(cutoff_int_load_relaxed(&sp->crew));
			for (int j = i + 1; CUTOFF_PROFILING && j < drawn && j < sp->n &&
			                    !cutoff_int_load_relaxed(&sp->above.cut);
			     j++)
				s->driver_count[YBW_SPLIT_NODES_AFTER_CUT] += sp->move_nodes[j];
			cutoff_int_store_relaxed(&sp->above.cut, 1);
			cutoff_int_store_relaxed(&sp->offer, 0); /* nothing to join for */
		} else if (v > sp->alpha) {
			cutoff_int_store_relaxed(&sp->alpha, v);
		}
	}
	cutoff_spinlock_unlock(&sp->lock);
	return true;
}

/* Takes moves from `sp` by its cursor and searches them until none is left, the split
 * point cut off, or the search is over; `first`, when not negative, is a move this
 * thread drew already (by its join). Run by the owner and by every helper, always as a
 * member (so that sp is not reused meanwhile); returns whether it completed a move. */
static bool work(cutoff_searcher_t *s, cutoff_split_t *sp, int first)
{
	bool searched = false;
	for (int i = first;; i = -1) {
		if (cutoff_int_load_relaxed(&sp->above.cut) || cutoff_search_halted(s)) {
			/* Cut here or above, or stopped: nothing here is worth joining. */
			cutoff_int_store_relaxed(&sp->offer, 0);
			if (i >= 0 && s->aborted) /* a drawn move left by a stop voids the node */
				cutoff_int_store_relaxed(&sp->aborted, 1);
			return searched;
		}
		if (i < 0)
			i = crew_next(cutoff_int_faa(&sp->crew, CREW_NEXT));
		if (i >= sp->n - 1) /* the last move, or none: nothing left to join for */
			cutoff_int_store_relaxed(&sp->offer, 0);
		if (i >= sp->n)
			return searched;
		searched |= search_drawn(s, sp, i);
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

/* A helper leaves sp: the owner's parking place when it was the last of a closed one
 * (the owner waits for it), else NULL. */
static cutoff_park_t *leave(cutoff_ybw_t *y, cutoff_split_t *sp)
{
	/* The split point may be gone once its helpers are 0: its owner is read before. */
	cutoff_park_t *owner = &y->t[sp->owner->index].park;
	int c = cutoff_int_faa(&sp->crew, -1);
	return (c & CREW_CLOSED) && crew_count(c) == 1 ? owner : NULL;
}

/* A helper's visit to a split point it joined: its node's state onto the thread's own
 * stack, its share of the moves (from `first`, drawn by the join, or drawn here), and the
 * decrement that lets the owner go on. Returns the owner's parking place when this was
 * the last helper to leave a closed split point (the caller wakes the owner), else NULL. */
static cutoff_park_t *help(cutoff_ybw_t *y, int index, cutoff_split_t *sp, int first)
{
	cutoff_searcher_t *s = &y->searchers[index];
	const cutoff_above_t *saved = s->above;
	cutoff_charge(CUTOFF_CHARGE_JOIN);
	memcpy(cutoff_searcher_state(s, sp->ply), sp->state, s->game->state_size);
	const cutoff_split_t *own = cutoff_ptr_load_relaxed(&y->t[index].waiting); /* its own */
	cutoff_searcher_adopt_path(s, sp->owner, sp->ply, own ? own->ply : -1);
	s->above = &sp->above;
	if (work(s, sp, first) && CUTOFF_PROFILING)
		s->driver_count[YBW_SPLIT_HELPERS]++;
	s->above = saved;
	return leave(y, sp);
}

/* What a helpful master remembers during one wait: split points it joined and found
 * not below its own, not to be joined again while it waits. */
typedef struct rejected {
	const cutoff_split_t *sp[YBW_REJECTED];
	int n;
} rejected_t;

static bool was_rejected(const rejected_t *r, const cutoff_split_t *sp)
{
	for (int k = 0; k < r->n; k++)
		if (r->sp[k] == sp)
			return true;
	return false;
}

/* The only search for split points to join (the rule at the top): up to YBW_CANDIDATES
 * split points of other threads that offer moves, the deepest first, from the thread
 * after `index` round the others (so that idle threads spread over equal offers), into
 * cand[]; returns how many. Only atomic words are read: a split point may be reused
 * meanwhile, and the join (join_crew) decides. A helpful master (own: its split point)
 * looks only at offers shallower than its own, which alone may lie below it. */
static int find_join(cutoff_ybw_t *y, int index, const cutoff_split_t *own,
                     const rejected_t *rejected, cutoff_split_t **cand)
{
	int found = 0, depth[YBW_CANDIDATES];
	const int below = own ? own->depth + 1 : INT_MAX; /* offers are depth + 1 */
	for (int k = 1; k < y->threads; k++) {
		int j = index + k < y->threads ? index + k : index + k - y->threads;
		ybw_thread_t *t = &y->t[j];
		int n = cutoff_int_load_acquire(&t->nsplits);
		for (int q = 0; q < n; q++) {
			cutoff_split_t *sp = &t->splits[q];
			int d = cutoff_int_load_relaxed(&sp->offer);
			if (d == 0 || d >= below || (own && was_rejected(rejected, sp)))
				continue;
			/* Into the list by depth, after equal ones (scan order breaks ties). */
			int at = found < YBW_CANDIDATES ? found++ : YBW_CANDIDATES;
			for (; at > 0 && depth[at - 1] < d; at--)
				if (at < YBW_CANDIDATES) {
					depth[at] = depth[at - 1];
					cand[at] = cand[at - 1];
				}
			if (at < YBW_CANDIDATES) {
				depth[at] = d;
				cand[at] = sp;
			}
		}
	}
	return found;
}

/* Joins sp as a helper if it is open, has fewer helpers than y->max_helpers and a move
 * left (more moves left than helpers inside when `spread`: a split point whose moves
 * its helpers will take anyway is left to them). With `draw` the join takes the
 * joiner's first move in the same swap: *first is its index. False, nothing changed,
 * when it may not join. */
static bool join_crew(const cutoff_ybw_t *y, cutoff_split_t *sp, bool spread, bool draw, int *first)
{
	const int n = cutoff_int_load_relaxed(&sp->n); /* a hint: the swap decides */
	for (;;) {
		int c = cutoff_int_load_acquire(&sp->crew);
		int left = n - crew_next(c), inside = crew_count(c);
		if ((c & CREW_CLOSED) || left <= 0 || inside >= y->max_helpers ||
		    (spread && left <= inside))
			return false;
		int to = c + 1 + (draw ? CREW_NEXT : 0);
		if (cutoff_int_cas(&sp->crew, c, to)) {
			*first = draw ? crew_next(c) : -1;
			return true;
		}
	}
}

/* Thread `index`, idle, tries to join a split point and help there (a helpful master
 * only below its own). Returns false when it found none or no CPU was free, with nothing
 * changed but the time; true after a visit. */
static bool try_join(cutoff_ybw_t *y, int index, rejected_t *rejected)
{
	cutoff_split_t *cand[YBW_CANDIDATES];
	const cutoff_split_t *own = cutoff_ptr_load_acquire(&y->t[index].waiting);
	int found = cpus_free(y) ? find_join(y, index, own, rejected, cand) : 0;
	if (found == 0 || !take_cpu(y))
		return false;
	cutoff_split_t *sp = NULL;
	int first = -1;
	/* The deepest with more moves than helpers, else the deepest with a move. A helpful
	 * master draws no move before it knows the split point lies below its own. */
	for (int pass = 0; pass < 2 && !sp; pass++)
		for (int k = 0; k < found && !sp; k++)
			if (join_crew(y, cand[k], pass == 0, !own, &first))
				sp = cand[k];
	cutoff_park_t *owner = NULL;
	if (sp && own && (sp->owner->index == index || !lies_below(sp, own))) {
		/* An incarnation it may not help: out at once, and not again this wait. */
		if (rejected->n < YBW_REJECTED)
			rejected->sp[rejected->n++] = sp;
		owner = leave(y, sp);
		sp = NULL;
	}
	if (sp) {
		/* Busy for the visit: owners count idle bits to know whom they may wait for. */
		set_bit(y->idle, index, false);
		y->searchers[index].driver_count[YBW_LATE_JOINS]++;
		owner = help(y, index, sp, first);
		set_bit(y->idle, index, true);
	}
	busy_add(y, -1); /* the CPU taken */
	if (owner)
		cutoff_unpark(owner);
	return sp != NULL;
}

/* True when a thread waiting in wait_for_work may stop waiting or sleeping: `sp`'s
 * helpers are all out (an owner's wait, sp not NULL), or the search is done, or (a
 * helper asleep) a waker has claimed it. Sequentially consistent, the sleeper's half of
 * the parking protocol (platform.h). */
static bool wait_over(const cutoff_ybw_t *y, int index, const cutoff_split_t *sp)
{
	if (sp)
		return crew_count(cutoff_int_load_seq_cst(&sp->crew)) == 0;
	return cutoff_int_load_seq_cst(&y->done) != 0 ||
	       cutoff_int_load_seq_cst(&y->t[index].sleeping) == 0;
}

/* A long wait's sleep (platform.h's parking protocol). A helper (sp NULL) sets its sleep
 * bit first and looks once more for an offer, so that an owner that opens a split point
 * either sees the bit (and may wake it) or is seen; an owner waiting for sp's helpers
 * only clears its idle bit (no one wakes it for work: it may help below sp alone). */
static void sleep_once(cutoff_ybw_t *y, int index, const cutoff_split_t *sp,
                       const rejected_t *rejected)
{
	ybw_thread_t *me = &y->t[index];
	int token = cutoff_park_begin(&me->park);
	set_bit(y->idle, index, false);
	if (!sp) {
		cutoff_int_store_seq_cst(&me->sleeping, 1);
		set_bit(y->sleep, index, true);
	}
	cutoff_split_t *cand[YBW_CANDIDATES];
	if (!wait_over(y, index, sp) && (sp || !find_join(y, index, NULL, rejected, cand)))
		cutoff_park_sleep(&me->park, token);
	if (!sp) {
		cutoff_int_store_seq_cst(&me->sleeping, 0); /* if no waker claimed it */
		set_bit(y->sleep, index, false);
	}
	set_bit(y->idle, index, true);
	cutoff_park_end(&me->park);
}

/*
 * The only place a thread waits: until sp's helpers are out (an owner waiting for its
 * helpers) or, when sp is NULL, until the search is done (a helper between split
 * points). The caller has gone idle (go_idle). Every YBW_JOIN_LOOKS looks it tries a
 * join. A wait spins for YBW_SPIN_NS (none while the thread's CPU is contended), then
 * sleeps until what it waits for happens (the last helper wakes its owner, thread 0
 * everyone when done) or, a helper, until an owner wakes it for a split point.
 */
static void wait_for_work(cutoff_ybw_t *y, int index, const cutoff_split_t *sp)
{
	ybw_thread_t *me = &y->t[index];
	cutoff_prof_clock_t *prof = &y->searchers[index].prof;
	uint64_t *waited = sp ? &prof->split_wait_ns : &prof->idle_ns;
	uint64_t since = CUTOFF_PROFILING ? cutoff_now_ns() : 0;
	uint64_t spun_from = 0; /* when the pauses ended, or 0 */
	int join_every = YBW_JOIN_LOOKS;
	rejected_t rejected = { .n = 0 };
	for (cutoff_spin_t spin = { 0 };;) {
		bool over = sp ? crew_count(cutoff_int_load_acquire(&sp->crew)) == 0
		               : cutoff_int_load_acquire(&y->done) != 0;
		if (over) {
			leave_idle(y, index);
			if (CUTOFF_PROFILING)
				*waited += cutoff_now_ns() - since;
			return;
		}
		if (spin.looks % join_every == 0) {
			uint64_t t0 = CUTOFF_PROFILING ? cutoff_now_ns() : 0;
			if (try_join(y, index, &rejected)) {
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
				sleep_once(y, index, sp, &rejected);
				spin.looks = 0; /* woken: look at once */
				spun_from = 0;
				join_every = YBW_JOIN_LOOKS;
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

/* The owner's close of sp, out of moves: no more joins; then, while helpers are inside,
 * its wait for them, helping below sp meanwhile. */
static void close_and_wait(cutoff_ybw_t *y, cutoff_searcher_t *s, cutoff_split_t *sp)
{
	ybw_thread_t *me = &y->t[s->index];
	cutoff_int_store_relaxed(&sp->offer, 0);
	int c = cutoff_int_faa(&sp->crew, CREW_CLOSED);
	if (crew_count(c) > 0) {
		const void *outer = cutoff_ptr_load_relaxed(&me->waiting);
		cutoff_ptr_store_release(&me->waiting, sp);
		go_idle(y, s->index);
		wait_for_work(y, s->index, sp);
		cutoff_ptr_store_release(&me->waiting, (void *)outer);
	}
}

/*
 * The move loop's hook (search.h, cutoff_younger_fn), called by a node's owner after its
 * first node->from moves (the eldest, by default) were searched without a cut-off: when
 * some thread may come, opens a split point for moves[node->from .. n) to idle threads
 * (they join it themselves), wakes sleeping helpers when too few are awake, searches its
 * moves with whoever joins (the owner takes moves too, and once they are all handed out
 * closes it and helps its helpers' split points while it waits for them), and returns
 * true with the node's best value, move (and s->pv[ply]) and whether it cut off. Returns
 * false, having done nothing, when no thread can come: the caller goes on alone.
 */
static bool try_split(cutoff_searcher_t *s, const cutoff_node_t *node, cutoff_younger_t *out)
{
	cutoff_ybw_t *y = s->driver;
	ybw_thread_t *me = &y->t[s->index];
	const int ply = node->ply;
	const int nsplits = cutoff_int_load_relaxed(&me->nsplits);
	/* Helpers beyond the moves left besides the owner's first would find none: wakes
	 * at most that many (a node with one move left is not split). */
	const int left = node->n - node->from - 1;
	if (left < 1 || nsplits >= y->max_splits ||
	    !cutoff_split_type_allowed(y->split_nodes, node->type))
		return false;
	const int room = cpus_free(y), want = left < y->max_helpers ? left : y->max_helpers;
	const int awake = room ? count_bits(y, y->idle, s->index, want) : 0;
	const int asleep = room && awake < want ? count_bits(y, y->sleep, s->index, want) : 0;
	if (awake + asleep == 0)
		return false;

	/* Not in use: its crew is closed with no helper, and no one joins before it opens. */
	cutoff_split_t *sp = &me->splits[nsplits];
	cutoff_charge(CUTOFF_CHARGE_SPLIT);
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
	cutoff_int_store_relaxed(&sp->alpha, node->alpha);
	sp->best = node->best;
	sp->best_move = node->best_move;
	sp->best_index = 0; /* read only when a move from node->from on cuts, which sets it */
	sp->pv_length = s->pv_length[ply];
	sp->horizon = false;
	sp->helped = false;
	memcpy(sp->pv, cutoff_searcher_pv(s, ply), (size_t)sp->pv_length * sizeof(cutoff_move_t));
	if (CUTOFF_PROFILING) {
		sp->move_nodes = me->move_nodes + (size_t)nsplits * (size_t)y->max_moves;
		memset(sp->move_nodes, 0, sizeof(uint32_t) * (size_t)node->n);
	}
	cutoff_int_store_relaxed(&sp->aborted, 0);
	/* Opened: the crew word last of the fields (a release; a join's swap acquires it),
	 * then the offer that idle threads look for, then the pool's count. */
	cutoff_int_store_release(&sp->crew, node->from << CREW_NEXT_SHIFT);
	cutoff_int_store_release(&sp->offer, node->depth + 1);
	cutoff_int_store_seq_cst(&me->nsplits, nsplits + 1);
	if (awake < want && asleep > 0) {
		int wake = want - awake < room ? want - awake : room;
		wake_sleepers(y, s->index, wake < asleep ? wake : asleep);
	}

	s->above = &sp->above;
	work(s, sp, -1);
	close_and_wait(y, s, sp);
	cutoff_int_store_release(&me->nsplits, nsplits);

	s->above = sp->above.parent;
	if (cutoff_int_load_relaxed(&sp->aborted))
		s->aborted = true; /* the stop reached a helper first: this node is void */
	s->horizon += sp->horizon; /* the helpers' contacts, as if the owner had made them */
	out->best = sp->best;
	out->best_move = sp->best_move;
	out->cut = cutoff_int_load_relaxed(&sp->above.cut) != 0;
	if (sp->helped) { /* read after every helper left (their decrements) */
		s->driver_count[YBW_SPLITS]++;
		if (CUTOFF_PROFILING)
			s->driver_count[YBW_SPLIT_CUTOFFS] += out->cut;
	}
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
