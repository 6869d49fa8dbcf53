/* SPDX-License-Identifier: MIT */
/*
 * sched.h — the simulator's half of the seam (internal; only with CUTOFF_SIM), whose
 * functions the scheduler, sched.c, defines.
 *
 * When the library is compiled with CUTOFF_SIM (the objects of `cutoff sim`, never the
 * library that is installed), base/atomic.h and base/platform.h take their functions from
 * here, and base/pool.c gives way to the pool of sim/sched.c: the same driver, table and
 * search files then run on virtual threads, coroutines on one OS thread under that
 * scheduler, in virtual time. Nothing else changes (docs/simulation.md).
 *
 * Every function here is, for the scheduler, one of three things:
 *
 *   a point   an access to shared memory (every atomic.h operation, a lock): the running
 *             thread may be switched out here, and only here or at a wait, so that the
 *             order of shared-memory accesses is the scheduler's decision alone;
 *   a charge  virtual time for work (a node, a table probe or store, a split point):
 *             cutoff_charge, from the hooks that cost nothing in a real build;
 *   a wait    a spin-wait look, a yield, a sleep on a parking place: the thread gives
 *             way until something can have changed.
 *
 * Memory. All of it runs on one OS thread, so a plain access is atomic and sequentially
 * consistent; the builtins below keep the compiler honest about it. The one relaxation
 * modelled is the delay before a table write is seen (the cost model's `tt_visible`):
 * relaxed 64-bit stores wait in the writing thread's store buffer (first in, first out, as
 * on x86) until the virtual time passes their moment; the writer's own loads see them at
 * once, and any read-modify-write, sequentially consistent or release store of the writer
 * drains its buffer first.
 *
 * `cutoff_sim_self` (thread-local, set by the simulator that owns this OS thread, NULL
 * otherwise) is the only state of the backend that is not inside a simulator object: the
 * seam's functions take no context argument. Outside a virtual thread (on the OS thread's
 * own stack) the points do nothing and the clock reads the simulator's `now`.
 */
#ifndef CUTOFF_SIM_SCHED_H
#define CUTOFF_SIM_SCHED_H

#include <stdbool.h>
#include <stdint.h>

/* The kinds of work a charge is for: cutoff_charge_kind_t in platform.h. */
enum {
	CUTOFF_SIM_CHARGE_KINDS = 5
};

/* A virtual thread's times, in picoseconds: its clock; the work charged to it; and its
 * span, the work on the longest chain of work that ends at it (work that happened before
 * its present through the synchronisation it has seen: locks, acquire loads of release
 * stores, wake-ups, the pool's hand-overs). */
typedef struct cutoff_sim_time {
	uint64_t clock, work, span;
	uint64_t rng;      /* the node cost's jitter (a seeded sequence of the thread's own) */
	void *lock_failed; /* the lock of a failed trylock with no point since (sched.c) */
} cutoff_sim_time_t;

/* How an operation touches a word's cache line (cutoff_sim_line). */
enum {
	CUTOFF_SIM_R, /* a load */
	CUTOFF_SIM_W, /* a store */
	CUTOFF_SIM_X  /* a read-modify-write: an atomic (fetch-and-add, compare-and-swap) */
};

/* The running virtual thread as the inline fast paths see it (sim/sched.c owns it). */
typedef struct cutoff_sim_run {
	cutoff_sim_time_t *clock; /* the running thread's times; NULL: none runs */
	uint64_t limit;           /* it runs on while *clock <= limit (clock schedule) */
	bool random;              /* the random schedule: a choice at every point */
	bool buffered;            /* table writes are delayed (tt_visible > 0) */
	bool lines;               /* the cache lines are charged (line_transfer, atomic or
	                             numa_transfer > 0) */
	uint64_t jitter;          /* a node costs charge[NODE] +- up to this much (ps), uniform */
	uint64_t charge[CUTOFF_SIM_CHARGE_KINDS]; /* ps of each kind of work */
} cutoff_sim_run_t;

extern _Thread_local cutoff_sim_run_t *cutoff_sim_self;

/* Out of line (sim/sched.c). */
void cutoff_sim_switch(void); /* a point that must decide */
/* A look of a spin-wait: the caller's count of looks so far (NULL: a lone yield), and how
 * many of its first looks pause (`spin`); the others yield (`yield`). The simulator may
 * advance *looks by the looks it skips (a lock spin sleeps until the lock is released). */
void cutoff_sim_spin_look(unsigned *looks, unsigned pauses);
uint64_t cutoff_sim_now_ns(void);                 /* the running thread's clock, or now */
void cutoff_sim_sync_acquire(const void *p);      /* work/span: p was read, acquire */
void cutoff_sim_sync_release(const void *p);      /* work/span: p was written, release */
void cutoff_sim_drain(void);                      /* the store buffer, before an ordered store */
void cutoff_sim_store64(uint64_t *p, uint64_t v); /* a delayed relaxed store */
uint64_t cutoff_sim_load64(const uint64_t *p);    /* a load that sees the writer's own */
void cutoff_sim_tt_store(uint64_t bucket, uint64_t buckets); /* coherence and cost */
void cutoff_sim_tt_probe(uint64_t bucket, uint64_t buckets); /* a transfer's wait */
void cutoff_sim_line_access(const void *p, int how);         /* cutoff_sim_line's */
void cutoff_sim_park_sleep(int *word, int token);
/* A driver's fibers (platform.h's cutoff_fiber_home and cutoff_fiber_go): the running
 * virtual thread's own fiber (outside one: the OS thread's, made in *scratch), and a switch
 * the virtual thread follows (charged as CUTOFF_CHARGE_FIBER). */
struct cutoff_fiber;
struct cutoff_fiber *cutoff_sim_fiber_home(struct cutoff_fiber *scratch);
void cutoff_sim_fiber_go(struct cutoff_fiber *from, struct cutoff_fiber *to, bool exiting);
void cutoff_sim_unpark(int *word);

typedef struct cutoff_sim_lock {
	int locked;
	int last;      /* the virtual thread that released it last, -1: none */
	int waiters;   /* the first virtual thread asleep until it is released, -1: none */
	uint64_t span; /* work/span: the releaser's span at the release */
} cutoff_sim_lock_t;
bool cutoff_sim_trylock(cutoff_sim_lock_t *l);
void cutoff_sim_unlock(cutoff_sim_lock_t *l);

/* A point: the running thread may be switched out. */
static inline void cutoff_sim_point(void)
{
	cutoff_sim_run_t *r = cutoff_sim_self;
	if (r && r->clock) {
		r->clock->lock_failed = NULL;
		if (r->random || r->clock->clock > r->limit)
			cutoff_sim_switch();
	}
}

static inline void cutoff_sim_charge(int kind)
{
	cutoff_sim_run_t *r = cutoff_sim_self;
	if (r && r->clock) {
		uint64_t c = r->charge[kind];
		if (kind == 0 && r->jitter) { /* CUTOFF_CHARGE_NODE: splitmix64 */
			uint64_t z = (r->clock->rng += 0x9e3779b97f4a7c15u);
			z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
			z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
			c = c - r->jitter + (z ^ (z >> 31)) % (2 * r->jitter + 1);
		}
		r->clock->clock += c;
		r->clock->work += c;
		r->clock->span += c;
	}
}

/* An access of kind `how` (CUTOFF_SIM_R, _W, _X) to the cache line that holds p, by the
 * running thread, right after a point: its transfers and atomics, when charged. */
static inline void cutoff_sim_line(const void *p, int how)
{
	cutoff_sim_run_t *r = cutoff_sim_self;
	if (r && r->clock && r->lines)
		cutoff_sim_line_access(p, how);
}

/* An ordered store or read-modify-write: the writer's delayed stores go first. */
static inline void cutoff_sim_ordered(void)
{
	cutoff_sim_run_t *r = cutoff_sim_self;
	if (r && r->buffered)
		cutoff_sim_drain();
}

#endif /* CUTOFF_SIM_SCHED_H */
