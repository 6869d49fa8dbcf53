/* SPDX-License-Identifier: MIT */
/*
 * sched.c — virtual threads, their scheduler and virtual time; the pool of a simulated
 * engine (pool.h's functions, in place of pool.c).
 *
 * A pool of N threads is N virtual threads, each a fiber (sim/fiber.c) with a clock. A job
 * starts every thread at the simulator's `now` (the workers `start` later), runs them on
 * the OS thread that called cutoff_pool_run, and ends when all have returned; `now` is then
 * the latest clock (plus `start` for a worker's hand-back). Nothing runs in parallel: one
 * virtual thread runs at a time, and it changes only at the points of sim/sched.h.
 *
 * Invariants.
 *
 *   run       `cur` is the running thread (-1: the OS thread's own stack, between jobs or
 *             waiting for one); run.clock points at its times, NULL when cur < 0.
 *   ready     the runnable threads other than `cur`: a binary heap by (clock, index) in the
 *             clock schedule, an unordered array in the random one. A thread is in exactly
 *             one of: running, ready, asleep (`parked` names the word it sleeps on),
 *             waiting for a lock's release (`lock_wait`), done.
 *   limit     (clock schedule) the running thread goes on at a point while its clock is at
 *             most `limit`: the earliest ready thread's clock plus the quantum, minus one
 *             when that thread's index is lower (ties go to the lower index). Recomputed
 *             whenever `cur` or the heap's top changes. So with quantum 0 the thread that
 *             runs is always one of the earliest: the order of shared-memory accesses is the
 *             order of virtual time, and a run is a function of the code, the workload and
 *             the model alone (no address, no real time enters a decision).
 *   waits     a spin-wait look costs `spin` while it pauses and `yield` after (as
 *             platform.h's spin-wait does), and when another thread is ready moves the
 *             clock on to just past the earliest ready thread's and gives way: nothing
 *             the spinner reads can change before another thread runs. A lock spin (a
 *             look right after a failed trylock, clock schedule) sleeps instead until
 *             the lock's release (LOCK_WAIT); a release wakes the one spinner whose
 *             next look ends first after it (ties: the lower index), at that look, its
 *             looks counted as if made: the others would have found the lock taken.
 *             A sleeper leaves the ready set until cutoff_sim_unpark finds it, and
 *             starts again at max(its clock, the waker's + `wake`).
 *   buffers   (tt_visible > 0) each thread's delayed stores, oldest first; a store is
 *             applied once the running thread's clock has reached its moment (checked at
 *             every switch), or when its writer drains (an ordered store or RMW), or when
 *             the buffer is full. The writer's loads look in its own buffer first.
 *   span      each thread's span grows with its work; an acquire of an address, a lock or
 *             a wake-up takes the maximum with the span that its releaser had (the `sync`
 *             map, by exact address; full: the estimate is marked partial).
 *   lines     (line_transfer, atomic or numa_transfer > 0) every word that atomic.h
 *             touches, the table's aside, is a cache line of its own, whose state the
 *             `lines` map keeps for the job (one line a word: the sharing charged is the
 *             true sharing of a word; two words in one 64-byte line would share it on a
 *             real machine only as the allocator placed them, and an address must not
 *             decide a run; the library aligns its hot shared objects to 64 bytes): which
 *             threads hold a copy, which wrote it last, whether that write has been read by
 *             another thread yet ("dirty"), and `busy`, when the transfers queued on it
 *             end. A write or a read-modify-write of a line that another thread holds, and
 *             a read of a dirty line that another thread wrote, move it: one
 *             `line_transfer` (+ `numa_transfer` from a thread of another socket), which
 *             starts when the line's earlier transfers have ended (a line moves one
 *             transfer at a time: the queue of a hot line is its `busy`), so that the
 *             thread waits first and then pays the transfer as work. A read of a clean line
 *             (one that another reader has already fetched from its writer: it is in the
 *             shared cache) costs nothing, nor does a line first touched in the job
 *             (memory: the node's cost holds it). A read-modify-write also pays `atomic`. A
 *             lock is a line: a failed try reads it (test-and-test-and-set), a take is a
 *             read-modify-write that pays `lock` in place of `atomic`, a release a write;
 *             when a lock is taken with W threads spinning on it, their failed exchanges
 *             after the release occupy the line for W transfers more (after the taker's
 *             own; their re-reads find a clean line) and leave it in their caches, so that
 *             the holder's release waits behind them and moves it again. The table's
 *             buckets are lines kept by index (its words are not in the map): a store into
 *             a bucket another thread wrote last pays a transfer (queued on the bucket's
 *             own `busy`), a probe waits for a transfer under way and pays `numa_transfer`
 *             when the bucket's last writer sits on another socket. Sockets: thread i of n
 *             is on socket i * S / n. The map is exact (no address decides anything) and
 *             forgotten at each job (an epoch per slot, so that nothing is cleared).
 *
 * The work/span estimate: a job's span is the longest of its threads' spans at the end;
 * the work is every thread's charged work. Work / span bounds the speed-up that any
 * number of threads could reach on this run's tree with this run's dependencies.
 */
#include "sim/sim.h"

#include <stdlib.h>
#include <string.h>

#include "base/fiber.h"
#include "base/platform.h"
#include "base/pool.h"
#include "cutoff.h"
#include "sim/sched.h"

_Thread_local cutoff_sim_run_t *cutoff_sim_self;

enum {
	READY = 0,
	RUNNING = 1,
	ASLEEP = 2,
	DONE = 3,
	LOCK_WAIT = 4
};

enum {
	STORE_BUFFER = 64,        /* delayed stores per thread at most */
	SYNC_SLOTS = 1 << 17,     /* the span's map of synchronisation addresses */
	SYNC_MAX = SYNC_SLOTS / 2 /* entries at most (then the estimate is partial) */
};

#if defined(__SANITIZE_ADDRESS__)
#define STACK_BYTES (4u << 20)
#else
#define STACK_BYTES (1u << 20)
#endif

typedef struct delayed {
	uint64_t *p;
	uint64_t v;
	uint64_t at; /* ps: seen by the others from then on */
} delayed_t;

typedef struct vthread {
	cutoff_sim_time_t t;
	int index, state;
	int *parked; /* the word it sleeps on, while ASLEEP */
	/* A lock spin (the clock schedule; t.lock_failed says which lock a look right after
	 * a failed trylock spins on): asleep until the lock's release, where its looks began
	 * (the clock after the failed try), the caller's count then, its pauses, and the
	 * count's place. */
	cutoff_sim_lock_t *lock_wait;
	int next_waiter; /* the next thread asleep on lock_wait, -1: none */
	uint64_t look_from;
	unsigned look_count, look_pauses, *looks;
	cutoff_fiber_t fiber;    /* its own: the job runs from its top */
	cutoff_fiber_t *running; /* the fiber it runs on: its own, or a driver's
	                            (cutoff_sim_fiber_go) */
	delayed_t buf[STORE_BUFFER];
	int buf_head, buf_count;
} vthread_t;

typedef struct slot {
	uint64_t clock; /* the thread's, while it is ready */
	int index;
} slot_t;

typedef struct sync_slot {
	const void *p;
	uint32_t epoch; /* the job that wrote it: a slot of another job is empty */
	uint64_t span;
} sync_slot_t;

enum {
	LINE_SHIFT = 0,     /* a word is its line: see "lines" */
	HOLDER_WORDS = 16,  /* 1024 threads at most (cutoff sim --threads) */
	LINES_FIRST = 4096, /* the lines map's first capacity (slots; doubled when half full) */
};

typedef struct line {
	uintptr_t key;  /* the word's address >> LINE_SHIFT */
	uint32_t epoch; /* the job that touched it: a slot of another job is empty */
	int writer;     /* the thread that wrote it last, -1: none in this job */
	bool dirty;     /* written, and not read by another thread since */
	uint64_t busy;  /* ps: the transfers queued on it end then */
	uint64_t holders[HOLDER_WORDS]; /* the threads holding a copy */
} line_t;

typedef struct bucket_line {
	uint16_t owner; /* the thread that wrote it last, + 1; 0: none */
	uint64_t busy;  /* ps: the transfer queued on it ends then (lines on) */
} bucket_line_t;

struct cutoff_sim {
	cutoff_sim_run_t run; /* the fast paths' view (sched.h) */
	cutoff_sim_model_t m;
	cutoff_sim_schedule_t schedule;
	uint64_t seed, rng;
	uint64_t now, span_now; /* ps, outside the jobs */
	cutoff_sim_stats_t stats;
	void (*deadlock)(const char *, void *);
	void *deadlock_arg;

	/* The running job's. */
	cutoff_pool_t *pool;
	vthread_t *t;
	int n, cur, done;
	slot_t *ready;
	int nready;
	int pending; /* delayed stores in all buffers */
	cutoff_fiber_t main;
	cutoff_pool_job_fn job;
	void *arg;

	uint32_t epoch; /* the job's: its entries in `sync` and `lines` */
	sync_slot_t *sync;
	int nsync;
	bucket_line_t *owner; /* the table's buckets (sched.c, "lines") */
	uint64_t nowner;
	line_t *lines; /* the cache lines of the running job (open addressing) */
	uint64_t nlines, lines_cap;
	int sockets; /* the model's, at least 1 */
};

struct cutoff_pool {
	cutoff_sim_t *sim;
	int threads;
	vthread_t *t;
	slot_t *ready;
};

/* ------------------------------------------------------------------------------------ */
/* The simulator */

static void default_deadlock(const char *what, void *arg)
{
	(void)arg;
	fprintf(stderr, "cutoff sim: %s\n", what);
	abort();
}

cutoff_sim_t *cutoff_sim_new(const cutoff_sim_model_t *m, cutoff_sim_schedule_t schedule,
                             uint64_t seed)
{
	cutoff_sim_t *sim = calloc(1, sizeof(*sim));
	if (!sim)
		return NULL;
	sim->sync = calloc(SYNC_SLOTS, sizeof(*sim->sync));
	if (!sim->sync) {
		free(sim);
		return NULL;
	}
	sim->schedule = schedule;
	sim->seed = seed;
	sim->cur = -1;
	sim->deadlock = default_deadlock;
	cutoff_sim_set_model(sim, m);
	return sim;
}

void cutoff_sim_free(cutoff_sim_t *sim)
{
	if (!sim)
		return;
	if (cutoff_sim_self == &sim->run)
		cutoff_sim_self = NULL;
	free(sim->sync);
	free(sim->owner);
	free(sim->lines);
	free(sim);
}

void cutoff_sim_set_seed(cutoff_sim_t *sim, uint64_t seed) { sim->seed = seed; }

void cutoff_sim_install(cutoff_sim_t *sim) { cutoff_sim_self = sim ? &sim->run : NULL; }

void cutoff_sim_set_model(cutoff_sim_t *sim, const cutoff_sim_model_t *m)
{
	sim->m = *m;
	sim->run.random = sim->schedule == CUTOFF_SIM_RANDOM;
	sim->run.buffered = m->tt_visible > 0;
	sim->run.lines = m->line_transfer > 0 || m->atomic > 0 || m->numa_transfer > 0;
	sim->sockets = m->sockets >= 2000 ? (int)(m->sockets / 1000) : 1;
	sim->run.charge[CUTOFF_CHARGE_NODE] = m->node;
	sim->run.charge[CUTOFF_CHARGE_TT_PROBE] = m->tt_probe;
	sim->run.charge[CUTOFF_CHARGE_SPLIT] = m->split;
	sim->run.charge[CUTOFF_CHARGE_JOIN] = m->join;
	sim->run.charge[CUTOFF_CHARGE_FIBER] = m->fiber;
	uint64_t pct = m->node_jitter > 100000 ? 100000 : m->node_jitter; /* at most 100 % */
	sim->run.jitter = (uint64_t)((unsigned __int128)m->node * pct / 100000);
}

const cutoff_sim_model_t *cutoff_sim_model(const cutoff_sim_t *sim) { return &sim->m; }

void cutoff_sim_stats(const cutoff_sim_t *sim, cutoff_sim_stats_t *out) { *out = sim->stats; }

void cutoff_sim_reset_stats(cutoff_sim_t *sim) { sim->stats = (cutoff_sim_stats_t){ 0 }; }

uint64_t cutoff_sim_time_ns(const cutoff_sim_t *sim) { return sim->now / 1000; }

void cutoff_sim_advance_to(cutoff_sim_t *sim, uint64_t ns)
{
	if (ns * 1000 > sim->now)
		sim->now = ns * 1000;
}

void cutoff_sim_on_deadlock(cutoff_sim_t *sim, void (*fn)(const char *, void *), void *arg)
{
	sim->deadlock = fn ? fn : default_deadlock;
	sim->deadlock_arg = arg;
}

/* The simulator of the calling OS thread; only called where one is installed. */
static cutoff_sim_t *self(void) { return (cutoff_sim_t *)cutoff_sim_self; }

void cutoff_sim_wait_ns(uint64_t ns)
{
	cutoff_sim_t *sim = self();
	if (!sim)
		return;
	if (sim->cur >= 0)
		sim->t[sim->cur].t.clock += ns * 1000;
	else
		sim->now += ns * 1000;
}

static uint64_t next_random(cutoff_sim_t *sim)
{
	/* splitmix64 */
	uint64_t z = (sim->rng += 0x9e3779b97f4a7c15u);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

/* ------------------------------------------------------------------------------------ */
/* The ready set. Its entries carry their thread's clock (which does not change while the
 * thread is ready), so that the heap's comparisons read only the heap. */

static bool before(slot_t a, slot_t b)
{
	return a.clock < b.clock || (a.clock == b.clock && a.index < b.index);
}

static slot_t slot_of(const cutoff_sim_t *sim, int i) { return (slot_t){ sim->t[i].t.clock, i }; }

/* Puts `s` at position k of the heap (a hole) and sifts it down. */
static void sift_down(cutoff_sim_t *sim, int k, slot_t s)
{
	for (;;) {
		int c = 2 * k + 1;
		if (c >= sim->nready)
			break;
		if (c + 1 < sim->nready && before(sim->ready[c + 1], sim->ready[c]))
			c++;
		if (!before(sim->ready[c], s))
			break;
		sim->ready[k] = sim->ready[c];
		k = c;
	}
	sim->ready[k] = s;
}

static void ready_push(cutoff_sim_t *sim, int i)
{
	sim->t[i].state = READY;
	slot_t s = slot_of(sim, i);
	int k = sim->nready++;
	if (sim->schedule == CUTOFF_SIM_CLOCK) {
		while (k > 0 && before(s, sim->ready[(k - 1) / 2])) {
			sim->ready[k] = sim->ready[(k - 1) / 2];
			k = (k - 1) / 2;
		}
	}
	sim->ready[k] = s;
}

/* Removes and returns ready[k]'s thread (the clock schedule: only k = 0, the earliest). */
static int ready_take(cutoff_sim_t *sim, int k)
{
	int taken = sim->ready[k].index;
	slot_t last = sim->ready[--sim->nready];
	if (k == sim->nready)
		return taken;
	if (sim->schedule == CUTOFF_SIM_RANDOM)
		sim->ready[k] = last;
	else
		sift_down(sim, k, last);
	return taken;
}

/* The clock schedule: the earliest ready thread's, taken, and thread i made ready in its
 * place (one sift instead of two). */
static int ready_exchange(cutoff_sim_t *sim, int i)
{
	int taken = sim->ready[0].index;
	sim->t[i].state = READY;
	sift_down(sim, 0, slot_of(sim, i));
	return taken;
}

static void set_limit(cutoff_sim_t *sim)
{
	if (sim->cur < 0 || sim->nready == 0) {
		sim->run.limit = UINT64_MAX;
		return;
	}
	int top = sim->ready[0].index;
	uint64_t l = sim->ready[0].clock + sim->m.quantum;
	if (top < sim->cur)
		l = l > 0 ? l - 1 : 0;
	sim->run.limit = l;
}

/* ------------------------------------------------------------------------------------ */
/* Delayed stores */

static void apply_oldest(cutoff_sim_t *sim, vthread_t *v)
{
	delayed_t *d = &v->buf[v->buf_head];
	__atomic_store_n(d->p, d->v, __ATOMIC_SEQ_CST);
	v->buf_head = (v->buf_head + 1) % STORE_BUFFER;
	v->buf_count--;
	sim->pending--;
}

/* Every delayed store whose moment has come by `clock`, in every buffer. */
static void apply_due(cutoff_sim_t *sim, uint64_t clock)
{
	if (!sim->pending)
		return;
	for (int i = 0; i < sim->n; i++) {
		vthread_t *v = &sim->t[i];
		while (v->buf_count && v->buf[v->buf_head].at <= clock)
			apply_oldest(sim, v);
	}
}

void cutoff_sim_drain(void)
{
	cutoff_sim_t *sim = self();
	if (sim->cur < 0)
		return;
	vthread_t *v = &sim->t[sim->cur];
	while (v->buf_count)
		apply_oldest(sim, v);
}

void cutoff_sim_store64(uint64_t *p, uint64_t x)
{
	cutoff_sim_t *sim = self();
	if (sim->cur < 0) {
		__atomic_store_n(p, x, __ATOMIC_SEQ_CST);
		return;
	}
	vthread_t *v = &sim->t[sim->cur];
	if (v->buf_count == STORE_BUFFER)
		apply_oldest(sim, v);
	v->buf[(v->buf_head + v->buf_count) % STORE_BUFFER] =
		(delayed_t){ p, x, v->t.clock + sim->m.tt_visible };
	v->buf_count++;
	sim->pending++;
}

uint64_t cutoff_sim_load64(const uint64_t *p)
{
	cutoff_sim_t *sim = self();
	if (sim->cur >= 0) {
		const vthread_t *v = &sim->t[sim->cur];
		for (int k = v->buf_count - 1; k >= 0; k--) {
			const delayed_t *d = &v->buf[(v->buf_head + k) % STORE_BUFFER];
			if (d->p == p)
				return d->v;
		}
	}
	return __atomic_load_n(p, __ATOMIC_SEQ_CST);
}

/* ------------------------------------------------------------------------------------ */
/* Switching */

/* Runs thread `next` (taken from the ready set, or the OS thread's stack when -1) in
 * place of `cur`, which has been put where it belongs (ready, asleep or done). */
static void switch_to(cutoff_sim_t *sim, int next, bool exiting)
{
	int from = sim->cur;
	cutoff_fiber_t *ff = from >= 0 ? sim->t[from].running : &sim->main;
	cutoff_fiber_t *tf = next >= 0 ? sim->t[next].running : &sim->main;
	sim->cur = next;
	if (next >= 0) {
		sim->t[next].state = RUNNING;
		sim->run.clock = &sim->t[next].t;
		apply_due(sim, sim->t[next].t.clock);
	} else {
		sim->run.clock = NULL;
	}
	set_limit(sim);
	if (next == from)
		return;
	sim->stats.switches++;
	cutoff_fiber_switch(ff, tf, exiting);
}

cutoff_fiber_t *cutoff_sim_fiber_home(cutoff_fiber_t *scratch)
{
	cutoff_sim_t *sim = self();
	if (sim && sim->cur >= 0)
		return sim->t[sim->cur].running;
	cutoff_fiber_main(scratch);
	return scratch;
}

/* A driver's switch: the running virtual thread goes on on `to`, where the scheduler will
 * save it and resume it from now on. */
void cutoff_sim_fiber_go(cutoff_fiber_t *from, cutoff_fiber_t *to, bool exiting)
{
	cutoff_sim_t *sim = self();
	if (sim && sim->cur >= 0) {
		cutoff_sim_charge(CUTOFF_CHARGE_FIBER);
		sim->t[sim->cur].running = to;
	}
	cutoff_fiber_switch(from, to, exiting);
}

/* The next thread to run (taken from the ready set), or -1 when none is ready. */
static int pick(cutoff_sim_t *sim)
{
	if (sim->nready == 0)
		return -1;
	if (sim->schedule == CUTOFF_SIM_CLOCK)
		return ready_take(sim, 0);
	return ready_take(sim, (int)(next_random(sim) % (uint64_t)sim->nready));
}

/* The running thread has left the ready set (asleep or done): run another. */
static void give_up(cutoff_sim_t *sim, bool exiting)
{
	int next = pick(sim);
	if (next < 0) {
		if (sim->done == sim->n) {
			switch_to(sim, -1, exiting);
			return;
		}
		char what[160];
		snprintf(what, sizeof(what),
		         "deadlock: all %d virtual threads of the job asleep or done, %d done",
		         sim->n, sim->done);
		sim->deadlock(what, sim->deadlock_arg);
		abort();
	}
	switch_to(sim, next, exiting);
}

void cutoff_sim_switch(void)
{
	cutoff_sim_t *sim = self();
	if (sim->cur < 0)
		return;
	sim->stats.points++;
	if (sim->nready == 0)
		return;
	if (sim->schedule == CUTOFF_SIM_RANDOM) {
		/* One choice among the ready and the running. */
		uint64_t k = next_random(sim) % (uint64_t)(sim->nready + 1);
		if (k == (uint64_t)sim->nready)
			return;
		int next = ready_take(sim, (int)k);
		ready_push(sim, sim->cur);
		switch_to(sim, next, false);
		return;
	}
	if (sim->t[sim->cur].t.clock <= sim->run.limit)
		return;
	switch_to(sim, ready_exchange(sim, sim->cur), false);
}

static uint64_t look_cost(const cutoff_sim_t *sim, unsigned count, unsigned pauses)
{
	uint64_t c = count < pauses ? sim->m.spin : sim->m.yield;
	return c ? c : 1; /* a spinner alone must see time pass (its spin window) */
}

void cutoff_sim_spin_look(unsigned *looks, unsigned pauses)
{
	cutoff_sim_t *sim = self();
	if (!sim || sim->cur < 0)
		return;
	sim->stats.spin_looks++;
	vthread_t *me = &sim->t[sim->cur];
	cutoff_sim_lock_t *failed = me->t.lock_failed;
	me->t.lock_failed = NULL;
	if (failed && looks && sim->schedule == CUTOFF_SIM_CLOCK &&
	    __atomic_load_n(&failed->locked, __ATOMIC_SEQ_CST)) {
		/* A lock spin: nothing it looks at changes before the lock's release, so it
		 * sleeps until then, and the release wakes it at its first look after
		 * (cutoff_sim_unlock). */
		me->lock_wait = failed;
		me->look_from = me->t.clock;
		me->look_count = *looks;
		me->look_pauses = pauses;
		me->looks = looks;
		me->next_waiter = failed->waiters;
		failed->waiters = me->index;
		me->state = LOCK_WAIT;
		give_up(sim, false);
		return;
	}
	me->t.clock += look_cost(sim, looks ? *looks : 0, looks ? pauses : pauses > 0);
	if (sim->nready == 0)
		return;
	if (sim->schedule == CUTOFF_SIM_RANDOM) {
		int next = ready_take(sim, (int)(next_random(sim) % (uint64_t)sim->nready));
		ready_push(sim, sim->cur);
		switch_to(sim, next, false);
		return;
	}
	slot_t top = sim->ready[0];
	if (me->t.clock < top.clock || (me->t.clock == top.clock && me->index < top.index))
		me->t.clock = top.clock + (me->index < top.index ? 1 : 0);
	switch_to(sim, ready_exchange(sim, sim->cur), false);
}

/* A lock spinner's first look after `at` (the release): the end of its first look that
 * ends at or after it (its looks from look_from on, each look_cost), and its count then. */
static uint64_t first_look(const cutoff_sim_t *sim, const vthread_t *v, uint64_t at,
                           unsigned *count)
{
	uint64_t t = v->look_from;
	uint64_t c = v->look_count;
	/* The pausing looks, then the yielding ones: each a run of equal costs. */
	for (int part = 0; part < 2; part++) {
		uint64_t cost = look_cost(sim, (unsigned)c, v->look_pauses);
		uint64_t left = c < v->look_pauses ? v->look_pauses - c : UINT64_MAX;
		uint64_t k = at > t ? (at - t + cost - 1) / cost : 0;
		if (k == 0)
			k = 1; /* the look under way ends first */
		if (part == 1 || k <= left) {
			t += k * cost;
			c += k;
			break;
		}
		t += left * cost;
		c += left;
		if (t >= at)
			break;
	}
	*count = (unsigned)c;
	return t;
}

uint64_t cutoff_sim_now_ns(void)
{
	cutoff_sim_t *sim = self();
	if (!sim)
		return 0;
	return (sim->cur >= 0 ? sim->t[sim->cur].t.clock : sim->now) / 1000;
}

/* ------------------------------------------------------------------------------------ */
/* Sleep and wake-up */

void cutoff_sim_park_sleep(int *word, int token)
{
	cutoff_sim_t *sim = self();
	if (!sim || sim->cur < 0)
		return;
	if (__atomic_load_n(word, __ATOMIC_SEQ_CST) != token)
		return;
	vthread_t *me = &sim->t[sim->cur];
	me->state = ASLEEP;
	me->parked = word;
	sim->stats.sleeps++;
	give_up(sim, false);
}

void cutoff_sim_unpark(int *word)
{
	cutoff_sim_t *sim = self();
	if (!sim || sim->cur < 0)
		return;
	const vthread_t *me = &sim->t[sim->cur];
	for (int i = 0; i < sim->n; i++) {
		vthread_t *v = &sim->t[i];
		if (v->state != ASLEEP || v->parked != word)
			continue;
		v->parked = NULL;
		uint64_t at = me->t.clock + sim->m.wake;
		if (v->t.clock < at)
			v->t.clock = at;
		if (v->t.span < me->t.span)
			v->t.span = me->t.span;
		sim->stats.wakes++;
		ready_push(sim, i);
		set_limit(sim);
	}
}

/* ------------------------------------------------------------------------------------ */
/* Cache lines (the invariant "lines" above) */

static int socket_of(const cutoff_sim_t *sim, int i)
{
	return sim->sockets > 1 ? (int)((int64_t)i * sim->sockets / sim->n) : 0;
}

/* The running thread pays one transfer of a line from thread `from`, queued behind the
 * transfers on `*busy`: it waits until they end, then the transfer is its work. */
static void transfer(cutoff_sim_t *sim, int from, uint64_t *busy)
{
	vthread_t *me = &sim->t[sim->cur];
	uint64_t cost = sim->m.line_transfer;
	if (from >= 0 && socket_of(sim, from) != socket_of(sim, sim->cur))
		cost += sim->m.numa_transfer;
	uint64_t start = me->t.clock > *busy ? me->t.clock : *busy;
	sim->stats.line_wait += start - me->t.clock;
	sim->stats.line_work += cost;
	sim->stats.transfers++;
	*busy = start + cost;
	me->t.clock = start + cost;
	me->t.work += cost;
	me->t.span += cost;
}

static uint64_t line_hash(uintptr_t key) { return (uint64_t)key * 0x9e3779b97f4a7c15u; }

/* The slot of `key` in a map of `cap` slots (a power of two): its own, or the free one
 * where it goes. */
static line_t *line_slot(line_t *map, uint64_t cap, uint32_t epoch, uintptr_t key)
{
	for (uint64_t k = line_hash(key) >> 20;; k++) {
		line_t *l = &map[k & (cap - 1)];
		if (l->epoch != epoch || l->key == key)
			return l;
	}
}

/* Doubles the map (the simulator's own memory, never the library's); false when out of
 * memory, which leaves the map as it was. */
static bool lines_grow(cutoff_sim_t *sim)
{
	uint64_t cap = sim->lines_cap ? 2 * sim->lines_cap : LINES_FIRST;
	line_t *map = calloc(cap, sizeof(*map));
	if (!map)
		return false;
	for (uint64_t i = 0; i < sim->lines_cap; i++) {
		const line_t *l = &sim->lines[i];
		if (l->epoch == sim->epoch)
			*line_slot(map, cap, sim->epoch, l->key) = *l;
	}
	free(sim->lines);
	sim->lines = map;
	sim->lines_cap = cap;
	return true;
}

/* The state of the line that holds p, made (no holder) when the job has not touched it;
 * NULL when out of memory (the access is then not charged). */
static line_t *line_of(cutoff_sim_t *sim, const void *p)
{
	/* At most half full; a map that cannot grow takes lines while it has a free slot. */
	if (2 * (sim->nlines + 1) > sim->lines_cap && !lines_grow(sim) &&
	    sim->nlines + 1 >= sim->lines_cap)
		return NULL;
	uintptr_t key = (uintptr_t)p >> LINE_SHIFT;
	line_t *l = line_slot(sim->lines, sim->lines_cap, sim->epoch, key);
	if (l->epoch != sim->epoch) {
		sim->nlines++;
		memset(l, 0, sizeof(*l));
		l->key = key;
		l->epoch = sim->epoch;
		l->writer = -1;
	}
	return l;
}

/* A holder of l other than thread `me` (the last writer first), or -1. */
static int other_holder(const cutoff_sim_t *sim, const line_t *l, int me)
{
	if (l->writer >= 0 && l->writer != me &&
	    (l->holders[l->writer >> 6] >> (l->writer & 63) & 1))
		return l->writer;
	int words = (sim->n + 63) / 64;
	for (int w = 0; w < words && w < HOLDER_WORDS; w++) {
		uint64_t h = l->holders[w];
		if (w == me >> 6)
			h &= ~(1ull << (me & 63));
		if (h)
			return w * 64 + __builtin_ctzll(h);
	}
	return -1;
}

/* The running thread's access to l: a read, a write or a read-modify-write (how), which
 * pays `extra` (the atomic's or the lock's own cost) beside its transfer. */
static void line_touch(cutoff_sim_t *sim, line_t *l, int how, uint64_t extra)
{
	int me = sim->cur;
	uint64_t bit = 1ull << (me & 63), *word = &l->holders[(me >> 6) & (HOLDER_WORDS - 1)];
	if (how == CUTOFF_SIM_R) {
		if (!(*word & bit) && l->dirty && l->writer != me)
			transfer(sim, l->writer, &l->busy);
		if (l->writer != me)
			l->dirty = false;
		*word |= bit;
	} else {
		int from = other_holder(sim, l, me);
		if (from >= 0)
			transfer(sim, from, &l->busy);
		memset(l->holders, 0, sizeof(l->holders));
		*word = bit;
		l->writer = me;
		l->dirty = true;
	}
	if (extra) {
		vthread_t *v = &sim->t[me];
		v->t.clock += extra;
		v->t.work += extra;
		v->t.span += extra;
		sim->stats.line_work += extra;
	}
}

void cutoff_sim_line_access(const void *p, int how)
{
	cutoff_sim_t *sim = self();
	line_t *l = line_of(sim, p);
	if (l)
		line_touch(sim, l, how, how == CUTOFF_SIM_X ? sim->m.atomic : 0);
}

/* The table's buckets, by index (the table's lines; see "lines"): NULL when out of
 * memory. */
static bucket_line_t *bucket_of(cutoff_sim_t *sim, uint64_t bucket, uint64_t buckets)
{
	if (sim->nowner != buckets) {
		/* The simulator's own memory, once per table size (never the library's). */
		free(sim->owner);
		sim->owner = calloc(buckets, sizeof(*sim->owner));
		sim->nowner = sim->owner ? buckets : 0;
	}
	return sim->owner ? &sim->owner[bucket] : NULL;
}

void cutoff_sim_tt_store(uint64_t bucket, uint64_t buckets)
{
	cutoff_sim_t *sim = self();
	vthread_t *me = &sim->t[sim->cur];
	uint64_t c = sim->m.tt_store;
	bucket_line_t *b = bucket_of(sim, bucket, buckets);
	if (b) {
		int w = b->owner;
		if (w && w != sim->cur + 1) {
			c += sim->m.tt_store_other;
			if (sim->run.lines)
				transfer(sim, w - 1, &b->busy);
		}
		b->owner = (uint16_t)(sim->cur + 1);
	}
	me->t.clock += c;
	me->t.work += c;
	me->t.span += c;
}

void cutoff_sim_tt_probe(uint64_t bucket, uint64_t buckets)
{
	cutoff_sim_t *sim = self();
	vthread_t *me = &sim->t[sim->cur];
	bucket_line_t *b = bucket_of(sim, bucket, buckets);
	if (!b)
		return;
	if (b->busy > me->t.clock) {
		sim->stats.line_wait += b->busy - me->t.clock;
		me->t.clock = b->busy;
	}
	int w = b->owner - 1;
	if (w >= 0 && w != sim->cur && socket_of(sim, w) != socket_of(sim, sim->cur)) {
		uint64_t c = sim->m.numa_transfer;
		me->t.clock += c;
		me->t.work += c;
		me->t.span += c;
		sim->stats.line_work += c;
	}
}

/* ------------------------------------------------------------------------------------ */
/* Locks and the span's synchronisation */

/* A lock just taken while W threads spin on it (asleep on l->waiters): after the
 * release they re-read its line (a clean line by then: read from the shared cache at
 * once, as any clean line) and try their exchanges, one transfer each after the taker's
 * own, and keep a copy (see "lines"). */
static void lock_stampede(cutoff_sim_t *sim, cutoff_sim_lock_t *l, line_t *line)
{
	uint64_t w = 0;
	for (int i = l->waiters; i >= 0; i = sim->t[i].next_waiter) {
		line->holders[(i >> 6) & (HOLDER_WORDS - 1)] |= 1ull << (i & 63);
		w++;
	}
	if (w) {
		line->busy += w * sim->m.line_transfer;
		sim->stats.transfers += w;
	}
}

bool cutoff_sim_trylock(cutoff_sim_lock_t *l)
{
	cutoff_sim_point();
	cutoff_sim_t *sim = self();
	bool running = sim && sim->cur >= 0;
	line_t *line = running && sim->run.lines ? line_of(sim, &l->locked) : NULL;
	if (__atomic_load_n(&l->locked, __ATOMIC_SEQ_CST)) {
		if (line)
			line_touch(sim, line, CUTOFF_SIM_R, 0); /* test-and-test-and-set: a look */
		if (running)
			sim->t[sim->cur].t.lock_failed = l;
		return false;
	}
	__atomic_store_n(&l->locked, 1, __ATOMIC_SEQ_CST);
	if (line) {
		line_touch(sim, line, CUTOFF_SIM_X, 0); /* the exchange: `lock` below */
		lock_stampede(sim, l, line);
	}
	if (running) {
		vthread_t *me = &sim->t[sim->cur];
		uint64_t c = sim->m.lock +
		             (l->last >= 0 && l->last != sim->cur ? sim->m.lock_handoff : 0);
		me->t.clock += c;
		me->t.work += c;
		me->t.span += c;
		if (me->t.span < l->span)
			me->t.span = l->span;
	}
	return true;
}

void cutoff_sim_unlock(cutoff_sim_lock_t *l)
{
	cutoff_sim_point();
	cutoff_sim_t *sim = self();
	if (sim && sim->cur >= 0) {
		if (sim->run.lines) {
			line_t *line = line_of(sim, &l->locked);
			if (line)
				line_touch(sim, line, CUTOFF_SIM_W, 0);
		}
		cutoff_sim_drain();
		l->last = sim->cur;
		l->span = sim->t[sim->cur].t.span;
	}
	__atomic_store_n(&l->locked, 0, __ATOMIC_SEQ_CST);
	if (sim && sim->cur >= 0 && l->waiters >= 0) {
		/* Only the spinner that looks first can take it: the others, looking later,
		 * find it taken by that one or sleep on until its release, exactly as if they
		 * had looked (so they are not woken; the first one may still find the lock
		 * taken by someone else, and sleeps again). */
		uint64_t at = sim->t[sim->cur].t.clock, best = UINT64_MAX;
		unsigned count = 0, c;
		int *link = &l->waiters, *best_link = link; /* the list is not empty */
		for (int i = *link; i >= 0; link = &sim->t[i].next_waiter, i = *link) {
			uint64_t t = first_look(sim, &sim->t[i], at, &c);
			if (t < best || (t == best && i < *best_link)) {
				best = t;
				count = c;
				best_link = link;
			}
		}
		vthread_t *first = &sim->t[*best_link];
		*best_link = first->next_waiter;
		*first->looks += count - first->look_count - 1; /* the caller adds the last */
		first->t.clock = best;
		first->lock_wait = NULL;
		ready_push(sim, first->index);
		set_limit(sim);
	}
}

static sync_slot_t *sync_find(cutoff_sim_t *sim, const void *p, bool add)
{
	uint64_t h = ((uint64_t)(uintptr_t)p >> 2) * 0x9e3779b97f4a7c15u;
	for (uint64_t k = h >> 47;; k = (k + 1) & (SYNC_SLOTS - 1)) {
		sync_slot_t *s = &sim->sync[k];
		if (s->epoch == sim->epoch && s->p == p)
			return s;
		if (s->epoch != sim->epoch) {
			if (!add)
				return NULL;
			if (sim->nsync >= SYNC_MAX) {
				sim->stats.span_partial = true;
				return NULL;
			}
			sim->nsync++;
			s->p = p;
			s->epoch = sim->epoch;
			s->span = 0;
			return s;
		}
	}
}

void cutoff_sim_sync_acquire(const void *p)
{
	cutoff_sim_t *sim = self();
	if (!sim || sim->cur < 0)
		return;
	const sync_slot_t *s = sync_find(sim, p, false);
	vthread_t *me = &sim->t[sim->cur];
	if (s && me->t.span < s->span)
		me->t.span = s->span;
}

void cutoff_sim_sync_release(const void *p)
{
	cutoff_sim_t *sim = self();
	if (!sim || sim->cur < 0)
		return;
	sync_slot_t *s = sync_find(sim, p, true);
	if (s)
		s->span = sim->t[sim->cur].t.span;
}

/* ------------------------------------------------------------------------------------ */
/* The pool (pool.h) */

static void thread_main(void *arg)
{
	vthread_t *v = arg;
	cutoff_sim_t *sim = self();
	sim->job(sim->arg, v->index, sim->n);
	cutoff_sim_drain();
	if (v->index > 0)
		v->t.clock += sim->m.start; /* the hand-back to the caller */
	v->state = DONE;
	sim->done++;
	give_up(sim, true);
}

int cutoff_pool_new(int threads, int pus, void *topology, const int *pu, int *bind_failures,
                    cutoff_pool_t **out)
{
	(void)pus;
	(void)topology;
	(void)pu;
	*out = NULL;
	if (bind_failures)
		*bind_failures = 0;
	if (!self())
		return CUTOFF_ETHREAD; /* no simulator on this OS thread */
	cutoff_pool_t *pool = calloc(1, sizeof(*pool));
	if (!pool)
		return CUTOFF_ENOMEM;
	/* A new engine starts afresh: what ran before it (another engine, another driver)
	 * does not change its run. */
	cutoff_sim_t *sim = self();
	sim->rng = sim->seed * 0x9e3779b97f4a7c15u + 0x632be59bd9b4e019u;
	if (sim->owner)
		memset(sim->owner, 0, sim->nowner * sizeof(*sim->owner));
	pool->sim = sim;
	pool->threads = threads;
	pool->t = calloc((size_t)threads, sizeof(*pool->t));
	pool->ready = calloc((size_t)threads, sizeof(*pool->ready));
	if (!pool->t || !pool->ready) {
		cutoff_pool_free(pool);
		return CUTOFF_ENOMEM;
	}
	for (int i = 0; i < threads; i++) {
		if (!cutoff_fiber_alloc(&pool->t[i].fiber, STACK_BYTES)) {
			cutoff_pool_free(pool);
			return CUTOFF_ENOMEM;
		}
		pool->t[i].index = i;
		pool->t[i].state = DONE;
		pool->t[i].t.rng =
			(sim->seed + 1) * 0xd1342543de82ef95u + (uint64_t)i * 0x9e3779b97f4a7c15u;
	}
	*out = pool;
	return CUTOFF_OK;
}

void cutoff_pool_free(cutoff_pool_t *pool)
{
	if (!pool)
		return;
	if (pool->t)
		for (int i = 0; i < pool->threads; i++)
			cutoff_fiber_free(&pool->t[i].fiber);
	free(pool->t);
	free(pool->ready);
	free(pool);
}

void cutoff_pool_run(cutoff_pool_t *pool, cutoff_pool_job_fn job, void *arg)
{
	cutoff_sim_t *sim = pool->sim;
	sim->pool = pool;
	sim->t = pool->t;
	sim->n = pool->threads;
	sim->ready = pool->ready;
	sim->nready = 0;
	sim->done = 0;
	sim->pending = 0;
	sim->job = job;
	sim->arg = arg;
	/* A new epoch empties the span's map and the lines' (nothing is cleared but at the
	 * epoch's wrap, once in 2^32 jobs). */
	if (++sim->epoch == 0) {
		memset(sim->sync, 0, SYNC_SLOTS * sizeof(*sim->sync));
		if (sim->lines)
			memset(sim->lines, 0, sim->lines_cap * sizeof(*sim->lines));
		sim->epoch = 1;
	}
	sim->nsync = 0;
	sim->nlines = 0;
	cutoff_fiber_main(&sim->main);
	for (int i = 0; i < sim->n; i++) {
		vthread_t *v = &sim->t[i];
		uint64_t at = sim->now + (i > 0 ? sim->m.start : 0);
		v->t = (cutoff_sim_time_t){
			.clock = at, .work = 0, .span = sim->span_now, .rng = v->t.rng
		};
		v->parked = NULL;
		v->lock_wait = NULL;
		v->buf_head = v->buf_count = 0;
		cutoff_fiber_make(&v->fiber, thread_main, v);
		v->running = &v->fiber;
		ready_push(sim, i);
	}
	sim->cur = -1;
	switch_to(sim, pick(sim), false);

	/* Every thread is done. */
	uint64_t end = sim->now, span = sim->span_now;
	for (int i = 0; i < sim->n; i++) {
		const vthread_t *v = &sim->t[i];
		end = v->t.clock > end ? v->t.clock : end;
		span = v->t.span > span ? v->t.span : span;
		sim->stats.work += v->t.work;
	}
	/* `now` stays a whole nanosecond, so that the nanoseconds the code reads from the
	 * clock (ps / 1000) differ by the same whatever the job's start. */
	end = (end + 999) / 1000 * 1000;
	sim->stats.jobs++;
	sim->stats.elapsed += end - sim->now;
	sim->stats.span += span - sim->span_now;
	sim->now = end;
	sim->span_now = span;
	sim->pool = NULL;
	sim->t = NULL;
	sim->n = 0;
}

int cutoff_pool_threads(const cutoff_pool_t *pool) { return pool->threads; }
