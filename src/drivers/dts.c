/* SPDX-License-Identifier: MIT */
/*
 * dts.c — of Dynamic Tree Splitting's family: idle threads choose their work among every
 * open node, and no thread waits at a join.
 *
 * The idea (Hyatt's DTS, 1997, over a recursive search by continuation stealing, as Cilk's Jamboree
 * search). Every node with at least config.dts_min_split_depth plies left whose eldest move did not
 * cut off, and took at least config.dts_min_split_nodes nodes (the estimate of a younger move's
 * work; by default 32 under 16 threads, every node from 16, where more open nodes pay more than
 * cheaper nodes), becomes an open split point at once, whether or not a thread is idle: its younger
 * moves are handed out by a cursor, its owner takes them one by one, and any idle thread may come
 * and take some too. An idle thread chooses where, among the open split points of every search in
 * progress (each one's whole path, not only the node where it is now): the one with the most plies
 * left, of those the one with the most moves left per thread already there (rule (a) of issue 44).
 * When the cursor is spent, the owner does not wait for its helpers: if any is still busy, it parks
 * its search and its thread goes to find other work; whoever finishes the node's last move then
 * carries the owner's search on, on its own thread — completes the node (its value, bound, table
 * store, cut-off to the parent) and goes on above it (rule (b)). Nothing ever waits for a
 * particular thread, so no thread is idle while any split point has a move left.
 *
 * How, over the recursive search of search.c: each search runs on a fiber (base/fiber.h,
 * Boost.Context), a stack of its own with a searcher of its own (its stacks of states and
 * moves, killers, history, principal variation, counters). Parking is switching from the
 * owner's fiber to its thread's own stack (`home`); resuming is switching to the parked
 * fiber, from whichever thread resumes it. A fiber therefore moves between threads with
 * everything its search reads: a resumed node reads only its own fiber's searcher, never
 * a third thread's stack. A helper starts on a fresh fiber of the pool, which copies the
 * split node's state and path keys from the owner's searcher (the owner does not touch
 * that ply or any above it while the split point lives).
 *
 * Fibers. fib[0] runs the root (iterative deepening on the engine's searcher 0); fib[1 ..]
 * are the pool, config.dts_fibers per thread, each with a searcher of this driver's
 * (searchers' counters are added to the engine's thread k / dts_fibers after the search,
 * `end`). A fiber is in use from the moment an idle thread takes it (in_use, a swap from
 * 0) until, its help done, it switched away for good and the thread that arrived after
 * it cleared in_use (release): its stack is never reused while anything runs on it. A
 * parked owner holds its fiber. With no fiber free an idle thread waits (counted:
 * no_fiber).
 *
 * Shared state and who touches it:
 *   f->nsplits    fiber f's split points in use, LIFO on its path: written by the search
 *                 on f alone (a fetch-and-add when one opens, so that the new split point
 *                 is published before the fiber reads `sleepers`; a release store when
 *                 one closes), read by choosers (acquire).
 *   d->listed[]   a bit per fiber with split points (a hint, where choosers look): set by
 *                 f when its nsplits leaves 0, cleared when it returns to 0.
 *   sp fields     the read-only part is written before `members` is stored (release),
 *                 which opens the split point; sp->next, the cursor, hands out moves by
 *                 fetch-and-add (each move to exactly one thread); alpha, best, best_move,
 *                 best_index, pv and horizon under sp->lock (alpha also read without it: a
 *                 stale alpha only widens a window); above.cut set under the lock, read
 *                 anywhere (relaxed: a late read wastes some nodes); aborted set by a thread
 *                 a stop made leave a move unsearched.
 *   sp->members   SP_OPEN while the cursor may have moves (joiners may come), SP_OWNER
 *                 until the owner has parked (or finished), plus the helpers inside.
 *                 Joiners count themselves by compare-and-swap while SP_OPEN is set; each
 *                 helper takes itself off by fetch-and-add as it leaves; the owner clears
 *                 SP_OPEN when its own draw from the cursor found nothing, and, if helpers
 *                 remain, parks: once its fiber is switched out, its thread takes SP_OWNER
 *                 off. Of the owner's thread and the helpers, exactly one takes members to
 *                 0 (the read-modify-writes are ordered), and that one resumes the owner's
 *                 fiber, whose context was saved before SP_OWNER went: no wake-up is lost,
 *                 and no fiber runs on two threads.
 *   w->release,   set by a fiber just before it switches to its thread's home (the split
 *   w->free       point whose SP_OWNER the home takes off) or away for good (itself, for
 *                 the thread that arrives next to free): read and cleared on that thread
 *                 only, right after the switch.
 *   f->worker     the thread fiber f runs on: written by whoever starts or resumes f,
 *                 before the switch (the switch orders it).
 *   d->cut_news   a count raised (fetch-and-add, after the lock) by whoever sets a split
 *                 point's cut while a search below it may run on another fiber (a helper
 *                 cut: the owner's search is below; or helpers were inside): searches walk
 *                 their chain of cut flags only when it moved (search.h, cut_news), so a
 *                 node's look costs one load however deep the chain. A helper walks its
 *                 chain once as it starts (cutoff_search_recheck); one that joins as the
 *                 owner cuts alone, unseen, at worst searches one move in vain.
 *   d->done       set (sequentially consistent) by the root fiber when the search is
 *                 over, which then wakes every thread; read by idle threads.
 *   d->sleepers   threads asleep or about to be (fetch-and-add), read (seq_cst) by a fiber
 *                 that opened a split point, which then wakes one (w->asleep, a swap from
 *                 1, decides which). A wake-up only brings a helper sooner: no thread ever
 *                 waits for one, so a lost one would cost time, never a move or a value.
 *   d->cpus,      as in ybw.c: with more threads than CPUs, busy counts the threads
 *   d->busy       running a fiber (a hint), and an idle thread takes no work and sleeps at
 *                 once while busy >= cpus.
 *
 * Why no move, value or wake-up is lost. Every move from the eldest's successor on is
 * drawn from the cursor by exactly one thread, which searches it (or leaves it: after a
 * cut nothing matters; a stop marks the node void by `aborted`) and merges its value
 * under the lock before it leaves. The owner goes on above the node only after members
 * reached 0, i.e. after every helper merged and left; the one who took it there resumes
 * it, and every merge happened before that read-modify-write. A helper's visit ends by
 * switching away for good; the root's search ends by setting done. No thread waits for
 * another: a parked fiber's continuation is carried on by whoever finishes last, so
 * there is no chain of waits to deadlock, and the threads need no helpful-master rule.
 *
 * Lifetime. A split point is reused only after members reached 0 and SP_OPEN was clear,
 * so no one can join it any more; a chooser that read an earlier incarnation joins only
 * an open one (the compare-and-swap on members) whose fields were published before.
 *
 * The driver's waits: an idle thread at home looks for work (choose), spinning with
 * back-off between looks (its looks read the lines busy threads write), then sleeps after
 * DTS_SPIN_NS; woken by a fiber that opens a split point while threads sleep, or by done.
 */
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/atomic.h"
#include "base/fiber.h"
#include "base/platform.h"
#include "drivers/driver.h"

enum {
	SP_OPEN = 1 << 30,  /* in members: the cursor may have moves; joiners may come */
	SP_OWNER = 1 << 29, /* in members: the owner has not parked */
	SP_HELPERS = SP_OWNER - 1,
	DTS_SPIN_NS = 50000,      /* an idle thread's looks before it sleeps */
	DTS_LOOKS_MAX = 64,       /* the longest back-off between two looks for work, in pauses */
	DTS_STACK_BYTES = 4 << 20 /* a fiber's stack (reserved, touched as used) */
};

struct dts_fiber;

/* A split point: one node whose younger moves any thread may take. */
typedef struct dts_split {
	cutoff_above_t above; /* first: the shared node the searches below read */

	/* written by the owner before `members` opens it; read-only afterwards */
	const cutoff_searcher_t *owner; /* its fiber's searcher: the node's state, path keys */
	struct dts_fiber *fiber;        /* the owner's fiber, resumed by the last to leave */
	const int32_t *hints;
	const void *state;
	const cutoff_move_t *moves;
	int n;          /* atomic: a chooser reads it early */
	int ply, depth; /* depth atomic: a chooser reads it */
	cutoff_algo_t algo;
	cutoff_node_type_t type;
	int32_t beta;

	/* under `lock` (alpha also read without it) */
	cutoff_spinlock_t lock;
	int32_t alpha, best;
	cutoff_move_t best_move;
	int best_index;
	int pv_length;
	bool horizon;
	cutoff_move_t *pv; /* max_ply moves of the fiber's own */

	/* atomic */
	int next;
	int members;
	int aborted;
} dts_split_t;

typedef struct dts_worker dts_worker_t;

typedef struct dts_fiber {
	cutoff_fiber_t f;
	cutoff_searcher_t *s; /* its search's searcher */
	struct dts *d;
	dts_worker_t *worker; /* the thread it runs on (see the top) */
	dts_split_t *helping; /* a pool fiber's split point to help, set before it starts */
	dts_split_t *splits;  /* max_ply, LIFO */
	cutoff_move_t *pvs;   /* max_ply rows of max_ply moves, one per split point */
	int id;
	int nsplits; /* atomic (see the top) */
	int in_use;  /* atomic: a pool fiber taken */
} __attribute__((aligned(64))) dts_fiber_t;

struct dts_worker {
	cutoff_fiber_t scratch; /* the OS thread's stack as a fiber (a real build) */
	cutoff_fiber_t *home;   /* where the thread looks for work */
	dts_split_t *release;   /* see the top */
	dts_fiber_t *free;
	int index;
	cutoff_park_t park;
	int asleep; /* atomic: 1 while asleep or about to be; a waker swaps it to 0 */
	uint64_t idle_ns;
} __attribute__((aligned(64)));

typedef struct dts {
	int threads, per, nfibers; /* nfibers = 1 + threads x per */
	int max_ply;
	int min_nodes;                        /* config.dts_min_split_nodes, 0 resolved */
	cutoff_ybw_split_nodes_t split_nodes; /* config.dts_split_nodes */
	const cutoff_job_t *job;              /* the running search's, for the root fiber */
	cutoff_searcher_t *searchers; /* the engine's: [0] the root's, [i] thread i's account */
	cutoff_searcher_t *pool;      /* the pool fibers' searchers, nfibers - 1 */
	dts_fiber_t *fib;
	dts_worker_t *w;
	uint64_t *listed; /* a bit per fiber (see the top) */
	int words;
	int cpus;
	_Alignas(64) int done;
	_Alignas(64) int sleepers;
	_Alignas(64) int busy;
	_Alignas(64) int cut_news; /* see the top */
} dts_t;

/* DTS's counters (driver.h): one line each; every report lists them. */
#define DTS_COUNTERS(X)                                                                            \
	X(DTS_SPLITS, "dts_splits", "split points", false,                                         \
	  "nodes that offered their younger moves (open split points made)")                       \
	X(DTS_HELPS, "dts_helps", "visits", false,                                                 \
	  "visits of idle threads to open split points they chose")                                \
	X(DTS_PARKS, "dts_parks", "parks", false,                                                  \
	  "owners that parked their search, their helpers still busy, and took other work")        \
	X(DTS_STEALS, "dts_steals", "resumes", false,                                              \
	  "parked searches carried on by the helper that finished their node's last move")         \
	X(DTS_NO_FIBER, "dts_no_fiber", "looks", false,                                            \
	  "looks that found work but no free fiber to do it on (config.dts_fibers too low)")
#define DTS_COUNTER(id, ...) CUTOFF_DRIVER_COUNTER_INFO(CUTOFF_DRIVER_DTS, __VA_ARGS__)
enum {
	DTS_COUNTERS(CUTOFF_DRIVER_COUNTER_ENUM) DTS_NCOUNTERS
};
static const cutoff_counter_info_t dts_counters[] = { DTS_COUNTERS(DTS_COUNTER) };

static void destroy(void *state);
static bool try_split(cutoff_searcher_t *s, const cutoff_node_t *node, cutoff_younger_t *out);

/* The fiber whose search `s` is. */
static dts_fiber_t *fiber_of(dts_t *d, const cutoff_searcher_t *s)
{
	return s->index == 0 ? &d->fib[0] : &d->fib[s->index - d->threads + 1];
}

static void set_hook(cutoff_searcher_t *s, dts_t *d, const cutoff_config_t *cfg)
{
	s->younger = try_split;
	s->driver = d;
	s->younger_depth = cfg->dts_min_split_depth;
	s->younger_from = 1;
	s->cut_news = &d->cut_news;
}

static int create(const cutoff_config_t *cfg, const cutoff_game_t *game,
                  cutoff_searcher_t *searchers, void **state)
{
	dts_t *d = aligned_alloc(_Alignof(dts_t), sizeof(*d));
	if (!d)
		return CUTOFF_ENOMEM;
	memset(d, 0, sizeof(*d));
	d->threads = cfg->threads;
	d->per = cfg->dts_fibers;
	d->nfibers = 1 + d->threads * d->per;
	d->max_ply = cutoff_config_plies(cfg);
	d->min_nodes = cfg->dts_min_split_nodes ? cfg->dts_min_split_nodes
	               : cfg->threads < 16      ? 32
	                                        : 1;
	d->split_nodes = cfg->dts_split_nodes;
	d->searchers = searchers;
	d->words = (d->nfibers + 63) / 64;
	d->fib = aligned_alloc(64, sizeof(dts_fiber_t) * (size_t)d->nfibers);
	d->w = aligned_alloc(64, sizeof(dts_worker_t) * (size_t)d->threads);
	d->pool = aligned_alloc(_Alignof(cutoff_searcher_t),
	                        sizeof(cutoff_searcher_t) * (size_t)(d->nfibers - 1));
	d->listed = aligned_alloc(64, 64 * (size_t)d->words); /* a word a line */
	if (!d->fib || !d->w || !d->pool || !d->listed) {
		free(d->fib);
		free(d->w);
		free(d->pool);
		free(d->listed);
		free(d);
		return CUTOFF_ENOMEM;
	}
	memset(d->fib, 0, sizeof(dts_fiber_t) * (size_t)d->nfibers);
	memset(d->w, 0, sizeof(dts_worker_t) * (size_t)d->threads);
	memset(d->pool, 0, sizeof(cutoff_searcher_t) * (size_t)(d->nfibers - 1));
	memset(d->listed, 0, 64 * (size_t)d->words);
	const size_t plies = (size_t)d->max_ply;
	const int base = cutoff_driver_counter_base(CUTOFF_DRIVER_DTS);
	int rc = CUTOFF_OK;
	for (int k = 0; k < d->nfibers && rc == CUTOFF_OK; k++) {
		dts_fiber_t *f = &d->fib[k];
		f->d = d;
		f->id = k;
		f->splits = calloc(plies, sizeof(dts_split_t));
		f->pvs = malloc(sizeof(cutoff_move_t) * plies * plies);
		if (!f->splits || !f->pvs) {
			rc = CUTOFF_ENOMEM;
			break;
		}
		for (size_t q = 0; q < plies; q++)
			f->splits[q].pv = f->pvs + q * plies;
		if (k == 0) {
			f->s = &searchers[0];
			continue;
		}
		f->s = &d->pool[k - 1];
		rc = cutoff_searcher_init(f->s, game, searchers[0].tt, searchers[0].ctl,
		                          d->threads + k - 1, cfg);
		if (rc == CUTOFF_OK && !cutoff_fiber_alloc(&f->f, DTS_STACK_BYTES))
			rc = CUTOFF_ENOMEM;
		if (rc == CUTOFF_OK) {
			f->s->driver_count = &f->s->count.driver[base];
			set_hook(f->s, d, cfg);
		}
	}
	/* The root's fiber: a stack of its own too (it moves between threads). */
	if (rc == CUTOFF_OK && !cutoff_fiber_alloc(&d->fib[0].f, DTS_STACK_BYTES))
		rc = CUTOFF_ENOMEM;
	if (rc != CUTOFF_OK) {
		destroy(d);
		return rc;
	}
	for (int i = 0; i < d->threads; i++) {
		d->w[i].index = i;
		set_hook(&searchers[i], d, cfg);
	}
	*state = d;
	return CUTOFF_OK;
}

static void destroy(void *state)
{
	dts_t *d = state;
	if (!d)
		return;
	for (int k = 0; k < d->nfibers; k++) {
		dts_fiber_t *f = &d->fib[k];
		cutoff_fiber_free(&f->f);
		if (k > 0 && f->s)
			cutoff_searcher_destroy(f->s);
		free(f->splits);
		free(f->pvs);
	}
	free(d->fib);
	free(d->w);
	free(d->pool);
	free(d->listed);
	free(d);
}

/* Before a search (no thread searching): no split point, every pool fiber held until its
 * thread has readied its searcher (job). */
static void begin(void *state)
{
	dts_t *d = state;
	for (int k = 0; k < d->nfibers; k++) {
		d->fib[k].nsplits = 0;
		d->fib[k].in_use = k > 0;
		d->fib[k].worker = NULL;
	}
	for (int i = 0; i < d->threads; i++) {
		d->w[i].release = NULL;
		d->w[i].free = NULL;
		d->w[i].asleep = 0;
		d->w[i].idle_ns = 0;
	}
	memset(d->listed, 0, 64 * (size_t)d->words);
	d->done = 0;
	d->sleepers = 0;
	const int cpus = d->threads > 1 ? cutoff_cpus() : INT_MAX;
	d->cpus = cpus < d->threads ? cpus : 0;
	d->busy = d->threads;
}

/* After the search: every pool searcher's counters to its thread's (fiber k belongs to
 * thread (k - 1) / per: where it was readied, not necessarily where it ran). */
static void end(void *state)
{
	dts_t *d = state;
	for (int k = 1; k < d->nfibers; k++) {
		cutoff_searcher_t *p = d->fib[k].s, *to = &d->searchers[(k - 1) / d->per];
		cutoff_counters_add(&to->count, &p->count);
		for (int t = 0; t < 3; t++) {
			to->typed[t] += p->typed[t];
			to->uncut[t] += p->uncut[t];
			to->cuts[t] += p->cuts[t];
			to->first_cuts[t] += p->first_cuts[t];
		}
		to->prof.lock_ns += p->prof.lock_ns;
	}
	for (int i = 0; i < d->threads; i++)
		d->searchers[i].prof.idle_ns += d->w[i].idle_ns;
}

static void forget(void *state)
{
	dts_t *d = state;
	for (int k = 1; k < d->nfibers; k++)
		cutoff_searcher_forget(d->fib[k].s);
}

/* ---- the listed bits: a hint where choosers look ---- */

static void listed_bit(dts_t *d, int id, bool set)
{
	uint64_t *w = &d->listed[(id / 64) * 8], bit = 1ull << (id % 64);
	for (;;) {
		uint64_t v = cutoff_u64_load_relaxed(w);
		if ((v & bit) == (set ? bit : 0) || cutoff_u64_cas(w, v, set ? v | bit : v & ~bit))
			return;
	}
}

/* ---- switching: every switch is cutoff_fiber_go (platform.h), every arrival goes through
 * arrived() ---- */

/* On arrival in a fiber's search (w: the thread it now runs on): the fiber that switched
 * away for good to come here is free now. */
static void arrived(dts_worker_t *w)
{
	dts_fiber_t *f = w->free;
	if (f) {
		w->free = NULL;
		cutoff_int_store_release(&f->in_use, 0);
	}
}

/* Thread w's home, after a switch back to it: frees what left for good, and takes
 * SP_OWNER off the split point whose owner just parked, resuming that owner at once when
 * its helpers all left meanwhile. */
static void home_arrived(dts_worker_t *w)
{
	for (;;) {
		arrived(w);
		dts_split_t *sp = w->release;
		if (!sp)
			return;
		w->release = NULL;
		if (cutoff_int_faa(&sp->members, -SP_OWNER) != SP_OWNER)
			return; /* a helper is inside: the last to leave resumes the owner */
		dts_fiber_t *o = sp->fiber;
		o->worker = w;
		cutoff_fiber_go(w->home, &o->f, false);
	}
}

/* ---- the split point's moves ---- */

/* Takes moves from sp by its cursor and searches them until none is left, the split
 * point cut off, or the search is over. Run by the owner and by every helper. */
static void work(cutoff_searcher_t *s, dts_split_t *sp)
{
	uint64_t *spin = CUTOFF_PROFILING ? &s->prof.lock_ns : NULL;
	for (;;) {
		if (cutoff_int_load_relaxed(&sp->above.cut) || cutoff_search_halted(s))
			return;
		int i = cutoff_int_faa(&sp->next, 1);
		if (i >= sp->n)
			return;
		cutoff_move_t m = sp->moves[i];
		bool news = false;
		int32_t a = cutoff_int_load_relaxed(&sp->alpha);
		uint64_t horizon = s->horizon;
		int32_t v = cutoff_search_move(s, sp->algo, sp->ply, sp->depth, sp->type, m, i,
		                               sp->hints ? sp->hints[i] : 0, a, sp->beta);
		if (cutoff_search_halted(s)) {
			if (s->aborted)
				cutoff_int_store_relaxed(&sp->aborted, 1);
			return;
		}
		if (!cutoff_spinlock_trylock(&sp->lock)) {
			uint64_t t0 = CUTOFF_PROFILING ? cutoff_now_ns() : 0;
			for (cutoff_spin_t w = { 0 }; !cutoff_spinlock_trylock(&sp->lock);)
				cutoff_spin_wait(&w);
			if (CUTOFF_PROFILING)
				*spin += cutoff_now_ns() - t0;
		}
		sp->horizon |= s->horizon != horizon;
		if (v > sp->best) {
			sp->best = v;
			sp->best_move = m;
			sp->best_index = i;
			sp->pv_length =
				cutoff_pv_join(sp->pv, m, cutoff_searcher_pv(s, sp->ply + 1),
			                       s->pv_length[sp->ply + 1], s->max_ply);
			if (v >= sp->beta) {
				cutoff_int_store_relaxed(&sp->above.cut, 1);
				/* news for searches below: the owner's, if a helper cut,
				 * and the helpers' */
				news = s != sp->owner ||
				       (cutoff_int_load_relaxed(&sp->members) & SP_HELPERS);
			} else if (v > sp->alpha)
				cutoff_int_store_relaxed(&sp->alpha, v);
		}
		cutoff_spinlock_unlock(&sp->lock);
		if (news) {
			cutoff_int_faa(&((dts_t *)s->driver)->cut_news, 1);
			return;
		}
	}
}

/* The owner's fiber f, out of moves at sp with helpers still inside: parks (its thread
 * takes SP_OWNER off at home) and returns once someone resumed it, members then 0. */
static void park(dts_fiber_t *f, dts_split_t *sp)
{
	dts_worker_t *w = f->worker;
	f->s->driver_count[DTS_PARKS]++;
	w->release = sp;
	cutoff_fiber_go(&f->f, w->home, false);
	/* resumed, on f->worker's thread */
	arrived(f->worker);
	if (f->worker != w)
		cutoff_charge(CUTOFF_CHARGE_JOIN); /* the node's state moves to that cache */
}

/*
 * The move loop's hook (search.h): at every node with dts_min_split_depth plies left
 * whose eldest move did not cut off and took min_nodes nodes or more, opens a split point
 * for the younger moves, searches them by its cursor (with whoever joins), parks if
 * helpers are still busy when the cursor is spent, and returns true with the node's best
 * value and move (and s->pv[ply]). Returns false, doing nothing, when fewer than two
 * moves are left or the eldest took fewer nodes.
 */
static bool try_split(cutoff_searcher_t *s, const cutoff_node_t *node, cutoff_younger_t *out)
{
	dts_t *d = s->driver;
	dts_fiber_t *f = fiber_of(d, s);
	const int ply = node->ply;
	if (node->n - node->from < 2 || node->searched < (uint64_t)d->min_nodes ||
	    !cutoff_split_type_allowed(d->split_nodes, node->type))
		return false;
	const int nsplits = cutoff_int_load_relaxed(&f->nsplits);
	dts_split_t *sp = &f->splits[nsplits]; /* one per ply at most: max_ply is enough */
	sp->above.parent = s->above;
	cutoff_int_store_relaxed(&sp->above.cut, 0);
	sp->owner = s;
	sp->fiber = f;
	sp->hints = node->hints;
	sp->state = cutoff_searcher_state(s, ply);
	sp->moves = node->moves;
	cutoff_int_store_relaxed(&sp->n, node->n);
	sp->ply = ply;
	cutoff_int_store_relaxed(&sp->depth, node->depth);
	sp->algo = node->algo;
	sp->type = node->type;
	sp->beta = node->beta;
	cutoff_spinlock_init(&sp->lock);
	cutoff_int_store_relaxed(&sp->next, node->from);
	cutoff_int_store_relaxed(&sp->alpha, node->alpha);
	sp->best = node->best;
	sp->best_move = node->best_move;
	sp->best_index = 0;
	sp->pv_length = s->pv_length[ply];
	sp->horizon = false;
	memcpy(sp->pv, cutoff_searcher_pv(s, ply), (size_t)sp->pv_length * sizeof(cutoff_move_t));
	cutoff_int_store_relaxed(&sp->aborted, 0);
	cutoff_charge(CUTOFF_CHARGE_SPLIT); /* as YBW's, though no thread is booked here */
	cutoff_int_store_release(&sp->members, SP_OPEN | SP_OWNER); /* open */
	cutoff_int_faa(&f->nsplits, 1);
	if (nsplits == 0)
		listed_bit(d, f->id, true);
	s->driver_count[DTS_SPLITS]++;
	if (cutoff_int_load_seq_cst(&d->sleepers) > 0) {
		for (int i = 0; i < d->threads; i++) /* wake one */
			if (cutoff_int_load_relaxed(&d->w[i].asleep) &&
			    cutoff_int_cas(&d->w[i].asleep, 1, 0)) {
				cutoff_unpark(&d->w[i].park);
				break;
			}
	}

	s->above = &sp->above;
	work(s, sp);
	if (cutoff_int_faa(&sp->members, -SP_OPEN) != (SP_OPEN | SP_OWNER))
		park(f, sp);
	cutoff_int_store_relaxed(&sp->members, 0);
	cutoff_int_store_release(&f->nsplits, nsplits);
	if (nsplits == 0)
		listed_bit(d, f->id, false);

	s->above = sp->above.parent;
	if (cutoff_int_load_relaxed(&sp->aborted))
		s->aborted = true;
	s->horizon += sp->horizon;
	out->best = sp->best;
	out->best_move = sp->best_move;
	out->cut = cutoff_int_load_relaxed(&sp->above.cut) != 0;
	out->cut_index = sp->best_index;
	s->pv_length[ply] = sp->pv_length;
	memcpy(cutoff_searcher_pv(s, ply), sp->pv, (size_t)sp->pv_length * sizeof(cutoff_move_t));
	return true;
}

/* ---- idle threads: choosing, joining, helping ---- */

/* The open split point an idle thread should join (rule (a) at the top), or NULL. Only
 * atomic fields are read: a split point may be reused meanwhile; the join decides. */
static dts_split_t *choose(dts_t *d)
{
	dts_split_t *best = NULL;
	int best_depth = -1, best_share = 0;
	for (int wd = 0; wd < d->words; wd++) {
		uint64_t bits = cutoff_u64_load_relaxed(&d->listed[wd * 8]);
		while (bits) {
			dts_fiber_t *f = &d->fib[wd * 64 + __builtin_ctzll(bits)];
			bits &= bits - 1;
			int n = cutoff_int_load_acquire(&f->nsplits);
			for (int q = 0; q < n; q++) {
				dts_split_t *sp = &f->splits[q];
				int depth = cutoff_int_load_relaxed(&sp->depth);
				if (depth < best_depth)
					break; /* deeper on the path: fewer plies left */
				int m = cutoff_int_load_relaxed(&sp->members);
				if (!(m & SP_OPEN) || cutoff_int_load_relaxed(&sp->above.cut))
					continue;
				int left = cutoff_int_load_relaxed(&sp->n) -
				           cutoff_int_load_relaxed(&sp->next);
				/* moves left per thread there once this one comes */
				int share = left / ((m & SP_HELPERS) + 2);
				if (share < 1)
					continue;
				if (depth > best_depth || share > best_share) {
					best = sp;
					best_depth = depth;
					best_share = share;
				}
				break; /* the shallowest open one of this fiber */
			}
		}
	}
	return best;
}

/* Joins sp if it is still open (a member more); false when it closed first. */
static bool join_open(dts_split_t *sp)
{
	for (;;) {
		int m = cutoff_int_load_seq_cst(&sp->members);
		if (!(m & SP_OPEN))
			return false;
		if (cutoff_int_cas(&sp->members, m, m + 1))
			return true;
	}
}

/* A free pool fiber for thread w (its own first, then the others'), taken; or NULL. */
static dts_fiber_t *take_fiber(dts_t *d, int w)
{
	const int pool = d->nfibers - 1;
	for (int k = 0; k < pool; k++) {
		dts_fiber_t *f = &d->fib[1 + (w * d->per + k) % pool];
		if (!cutoff_int_load_relaxed(&f->in_use) && cutoff_int_cas(&f->in_use, 0, 1))
			return f;
	}
	return NULL;
}

/* A pool fiber's run: helps at f->helping, then leaves it — resuming its owner when it
 * was the last one out of a split point whose owner parked — and switches away for good. */
static void help_main(void *arg)
{
	dts_fiber_t *f = arg;
	arrived(f->worker);
	dts_split_t *sp = f->helping;
	cutoff_searcher_t *s = f->s;
	s->driver_count[DTS_HELPS]++;
	cutoff_charge(CUTOFF_CHARGE_JOIN);
	memcpy(cutoff_searcher_state(s, sp->ply), sp->state, s->game->state_size);
	cutoff_searcher_adopt_path(s, sp->owner, sp->ply, -1);
	s->above = &sp->above;
	cutoff_search_recheck(s); /* a chain it has not walked */
	work(s, sp);
	s->above = NULL;
	dts_worker_t *w = f->worker; /* its search may have parked and moved meanwhile */
	dts_fiber_t *owner = sp->fiber;
	w->free = f;
	if (cutoff_int_faa(&sp->members, -1) == 1) {
		/* the last one out, the owner parked: carry its search on here */
		s->driver_count[DTS_STEALS]++;
		owner->worker = w;
		cutoff_fiber_go(&f->f, &owner->f, true);
	}
	cutoff_fiber_go(&f->f, w->home, true);
	__builtin_trap(); /* never resumed */
}

/* The root's fiber: iterative deepening on searcher 0, then done for every thread. */
static void root_main(void *arg)
{
	dts_fiber_t *f = arg;
	dts_t *d = f->d;
	arrived(f->worker);
	cutoff_iterate(d->job, 0, NULL, false);
	cutoff_int_store_seq_cst(&d->done, 1);
	for (int i = 0; i < d->threads; i++)
		cutoff_unpark(&d->w[i].park);
	cutoff_fiber_go(&f->f, f->worker->home, true);
	__builtin_trap();
}

/* Readies thread w's share of the pool for this search (the root's settings), and frees
 * it for choosers. */
static void ready_pool(dts_t *d, int w)
{
	const cutoff_searcher_t *s0 = &d->searchers[0];
	for (int k = 1 + w * d->per; k < 1 + (w + 1) * d->per; k++) {
		cutoff_searcher_t *p = d->fib[k].s;
		p->tt = s0->tt;
		cutoff_searcher_start(p, NULL, NULL, 0, s0->solve);
		p->played_length = s0->played_length;
		cutoff_int_store_release(&d->fib[k].in_use, 0);
	}
}

/* Thread w, idle at home, tries once to find work and do it; true when it did some. */
static bool look(dts_t *d, dts_worker_t *w)
{
	if (d->cpus && cutoff_int_load_relaxed(&d->busy) >= d->cpus)
		return false;
	dts_split_t *sp = choose(d);
	if (!sp)
		return false;
	dts_fiber_t *f = take_fiber(d, w->index);
	if (!f) {
		d->searchers[w->index].driver_count[DTS_NO_FIBER]++;
		return false;
	}
	if (!join_open(sp)) {
		cutoff_int_store_release(&f->in_use, 0);
		return false;
	}
	f->helping = sp;
	f->worker = w;
	cutoff_fiber_make(&f->f, help_main, f);
	if (d->cpus)
		cutoff_int_faa(&d->busy, 1);
	cutoff_fiber_go(w->home, &f->f, false);
	home_arrived(w);
	if (d->cpus)
		cutoff_int_faa(&d->busy, -1);
	return true;
}

/* Thread w sleeps until woken (a split point opened, or done), unless its last look sees
 * either (the parking protocol, platform.h); true when it slept. */
static bool sleep_until_work(dts_t *d, dts_worker_t *w)
{
	int token = cutoff_park_begin(&w->park);
	cutoff_int_store_seq_cst(&w->asleep, 1);
	cutoff_int_faa(&d->sleepers, 1);
	bool sleep = !cutoff_int_load_seq_cst(&d->done) && !choose(d);
	if (sleep)
		cutoff_park_sleep(&w->park, token);
	cutoff_park_end(&w->park);
	cutoff_int_faa(&d->sleepers, -1);
	cutoff_int_store_relaxed(&w->asleep, 0);
	return sleep;
}

/* A thread's life at home: look for work, with back-off, sleep when none comes, until
 * the search is done. */
static void home_loop(dts_t *d, dts_worker_t *w)
{
	uint64_t since = CUTOFF_PROFILING ? cutoff_now_ns() : 0, spun_from = 0;
	unsigned every = 1;
	if (d->cpus)
		cutoff_int_faa(&d->busy, -1); /* busy from begin() until here */
	for (cutoff_spin_t spin = { 0 }; !cutoff_int_load_acquire(&d->done);) {
		if (spin.looks % every == 0) {
			uint64_t t0 = CUTOFF_PROFILING ? cutoff_now_ns() : 0;
			if (look(d, w)) {
				if (CUTOFF_PROFILING) {
					w->idle_ns += t0 - since;
					since = cutoff_now_ns();
				}
				spin.looks = 0;
				every = 1;
				spun_from = 0;
				continue;
			}
			every = every < DTS_LOOKS_MAX ? every * 2 : every;
		}
		if (spin.looks >= CUTOFF_SPIN_PAUSES || d->cpus) {
			uint64_t now = cutoff_now_ns();
			if (!spun_from)
				spun_from = now;
			if ((d->cpus || now - spun_from >= DTS_SPIN_NS) && sleep_until_work(d, w)) {
				spin.looks = 0;
				every = 1;
				spun_from = 0;
				continue;
			}
		}
		cutoff_spin_wait(&spin);
	}
	if (CUTOFF_PROFILING)
		w->idle_ns += cutoff_now_ns() - since;
}

/* Every thread readies its pool fibers and works from home; thread 0 first starts the
 * root's search on its fiber. */
static void job(const cutoff_job_t *job, int index)
{
	dts_t *d = job->driver;
	dts_worker_t *w = &d->w[index];
	w->home = cutoff_fiber_home(&w->scratch);
	ready_pool(d, index);
	if (index == 0) {
		d->job = job;
		dts_fiber_t *root = &d->fib[0];
		root->worker = w;
		cutoff_fiber_make(&root->f, root_main, root);
		cutoff_fiber_go(w->home, &root->f, false);
		home_arrived(w);
	}
	home_loop(d, w);
}

const cutoff_driver_ops_t cutoff_driver_dts_ops = {
	.name = "dts",
	.description = "of Dynamic Tree Splitting's family: idle threads choose the shallowest "
		       "open node of any search, and no thread waits at a join",
	.create = create,
	.destroy = destroy,
	.begin = begin,
	.job = job,
	.end = end,
	.forget = forget,
	.counters = dts_counters,
	.ncounters = DTS_NCOUNTERS,
};
