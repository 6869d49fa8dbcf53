/* SPDX-License-Identifier: MIT */
/*
 * pool.c — persistent worker threads: created once with the engine, reused by every job.
 *
 * A job round trip has two hand-overs: the caller publishes a job to the workers, and the
 * last worker to finish tells the caller. Each side first spins for a bounded window (a
 * pause instruction between looks), then sleeps on a condition variable; sleeping costs a
 * futex wake-up on the other side, and waking a halted CPU of a virtual machine, twice per
 * job, dominated short searches (docs/measurements.md, "(g)").
 *
 * Invariants.
 *
 *   generation, job, arg, running   The caller writes job, arg and running (threads - 1),
 *        then publishes with a release store of `generation` (only the caller writes it).
 *        A worker that reads a new generation with an acquire load sees job, arg and
 *        running. The caller publishes again only after `running` fell to 0, that is after
 *        every worker ran the previous generation: each worker runs every generation
 *        exactly once, and `generation` never moves by more than one under a worker's eyes.
 *   running   Each worker decrements it (fetch-and-add, sequentially consistent, so a
 *        release) once its share is done. The caller's acquire load that reads 0 reads the
 *        last link of a release sequence that contains every worker's decrement, so all the
 *        job's writes happen before the caller returns; jobs need no fences of their own for
 *        data handed over this way (and everything the caller wrote before the call happens
 *        before the job through `generation`).
 *   sleepers, caller_sleeping   Who is (or is about to be) blocked on `wake` (workers) or
 *        `done` (the caller). Written only with `lock` held, read without it. No wake-up is
 *        lost; the argument is the same at both ends (a store-buffering pair):
 *          sleeper:  lock; sleepers++ (seq_cst store); check the condition (seq_cst
 *                    load); cond_wait ...
 *          waker:    make the condition true (seq_cst store or read-modify-write);
 *                    if (sleepers) (seq_cst load) { lock; signal; unlock }
 *        All four are sequentially consistent (no stand-alone fence, which ThreadSanitizer
 *        does not model), so at least one side sees the other's write: either the sleeper
 *        sees the condition and does not wait, or the waker sees the sleeper and takes
 *        `lock`. The sleeper holds `lock` from its increment until cond_wait releases it,
 *        so the waker's signal comes after the sleeper is waiting (or after it has left).
 *        The conditions are: a new generation or quit (workers, `wake`); running == 0 (the
 *        caller, `done`).
 *   quit   Set once by cutoff_pool_free, under `lock`, then `wake` is broadcast: a worker
 *        spinning sees it in its loop, a sleeping one is woken, one in between reads it
 *        under the lock.
 *   ready, bind_failures   Only under `lock` (creation, signalled on `done`).
 *
 * Spinning is bounded: after `spin_ns` (CUTOFF_POOL_SPIN_NS, 200 us) without work a worker
 * sleeps, and the caller likewise, so an idle engine costs nothing once the window has
 * passed. A pool with more threads than the processing units it may run on never spins
 * (spin_ns = 0): a spinning thread would take the CPU from the thread doing the work. The
 * looks are platform.h's spin-wait (pauses, then yields), and the clock is read only every
 * SPIN_CHECK looks. The search drivers do their own fine-grained
 * waiting inside a job.
 *
 * A pool of one thread has no workers and no synchronisation at all: the caller runs the
 * job (share 0) and returns.
 *
 * Placement: a worker binds itself (topo.c) before anything else, and cutoff_pool_new
 * returns only when all have tried (`ready`, under `lock`, signalled on `done`).
 */
#include "base/pool.h"

/* The simulator's objects (CUTOFF_SIM) have their pool of virtual threads instead:
 * sim/sched.c. */
#ifndef CUTOFF_SIM

#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "base/atomic.h"
#include "base/platform.h"
#include "base/topo.h"
#include "cutoff.h"

/* While spinning: looks between two reads of the clock. */
enum {
	SPIN_CHECK = 64
};

struct worker {
	cutoff_pool_t *pool;
	int index;
	int pu; /* bind to this PU first, or -1 */
	pthread_t thread;
};

struct cutoff_pool {
	/* Set at creation, then only read. */
	int threads;
	uint64_t spin_ns;       /* the spin window; 0: sleep at once */
	struct worker *workers; /* threads - 1 of them */
	int started;            /* workers actually created */
	void *topology;         /* for binding, read-only */

	/* Written by the caller, read by the workers. */
	_Alignas(64) int generation;
	int quit;
	cutoff_pool_job_fn job;
	void *arg;

	/* Written by the workers, read by the caller. */
	_Alignas(64) int running;

	/* Written under `lock`. */
	_Alignas(64) pthread_mutex_t lock;
	pthread_cond_t wake; /* a new generation, or quit */
	pthread_cond_t done; /* running reached 0; or a worker became ready */
	int sleepers;        /* workers on `wake` */
	int caller_sleeping; /* the caller is on `done` */
	int ready;           /* workers that have tried to bind */
	int bind_failures;   /* of those, how many could not */
};

/* The next generation after g (an int for the atomics; it wraps without overflow). */
static int next_generation(int g) { return g == INT_MAX ? 0 : g + 1; }

/* Whether a thread that waits may spin on (its looks are platform.h's spin-wait): true
 * until the spin window has passed since its first look, the clock being read only every
 * SPIN_CHECK looks; false at once when the pool does not spin. */
static bool spin_more(const cutoff_pool_t *pool, const cutoff_spin_t *spin, uint64_t *until)
{
	if (pool->spin_ns == 0)
		return false;
	if (spin->looks == 0)
		*until = cutoff_now_ns() + pool->spin_ns;
	else if (spin->looks % SPIN_CHECK == 0 && cutoff_now_ns() >= *until)
		return false;
	return true;
}

/* A worker waits for a generation other than `seen`; returns it, or -1 to quit. */
static int worker_wait(cutoff_pool_t *pool, int seen)
{
	uint64_t until = 0;
	for (cutoff_spin_t spin = { 0 }; spin_more(pool, &spin, &until); cutoff_spin_wait(&spin)) {
		int g = cutoff_int_load_acquire(&pool->generation);
		if (g != seen)
			return g;
		if (cutoff_int_load_relaxed(&pool->quit))
			return -1;
	}
	pthread_mutex_lock(&pool->lock);
	cutoff_int_store_seq_cst(&pool->sleepers, cutoff_int_load_relaxed(&pool->sleepers) + 1);
	int g;
	while ((g = cutoff_int_load_seq_cst(&pool->generation)) == seen &&
	       !cutoff_int_load_relaxed(&pool->quit))
		pthread_cond_wait(&pool->wake, &pool->lock);
	cutoff_int_store_relaxed(&pool->sleepers, cutoff_int_load_relaxed(&pool->sleepers) - 1);
	if (g == seen)
		g = -1; /* quit */
	pthread_mutex_unlock(&pool->lock);
	return g;
}

static void *worker_main(void *p)
{
	struct worker *w = p;
	cutoff_pool_t *pool = w->pool;
	int rc = w->pu >= 0 ? cutoff_topology_bind_thread(pool->topology, w->pu) : 0;

	pthread_mutex_lock(&pool->lock);
	/* The pool is new: no job has been published before the workers are ready. */
	int seen = cutoff_int_load_relaxed(&pool->generation);
	pool->bind_failures += rc != 0;
	pool->ready++;
	pthread_cond_signal(&pool->done);
	pthread_mutex_unlock(&pool->lock);
	for (;;) {
		int g = worker_wait(pool, seen);
		if (g < 0)
			break;
		seen = g;
		pool->job(pool->arg, w->index, pool->threads);
		if (cutoff_int_faa(&pool->running, -1) == 1) {
			/* The last one: wake the caller if it sleeps (see the invariants). */
			if (cutoff_int_load_seq_cst(&pool->caller_sleeping)) {
				pthread_mutex_lock(&pool->lock);
				pthread_cond_signal(&pool->done);
				pthread_mutex_unlock(&pool->lock);
			}
		}
	}
	return NULL;
}

int cutoff_pool_new(int threads, int pus, void *topology, const int *pu, int *bind_failures,
                    cutoff_pool_t **out)
{
	*out = NULL;
	cutoff_pool_t *pool = aligned_alloc(_Alignof(cutoff_pool_t), sizeof(*pool));
	if (!pool)
		return CUTOFF_ENOMEM;
	*pool = (cutoff_pool_t){ .threads = threads, .topology = topology };
	pool->spin_ns = pus >= threads ? CUTOFF_POOL_SPIN_NS : 0;
	pthread_mutex_init(&pool->lock, NULL);
	pthread_cond_init(&pool->wake, NULL);
	pthread_cond_init(&pool->done, NULL);
	if (threads > 1 && !(pool->workers = calloc((size_t)threads - 1, sizeof(*pool->workers)))) {
		cutoff_pool_free(pool);
		return CUTOFF_ENOMEM;
	}
	for (int i = 1; i < threads; i++) {
		struct worker *w = &pool->workers[i - 1];
		w->pool = pool;
		w->index = i;
		w->pu = pu && topology ? pu[i] : -1;
		if (pthread_create(&w->thread, NULL, worker_main, w) != 0) {
			cutoff_pool_free(pool);
			return CUTOFF_ETHREAD;
		}
		pool->started++;
	}
	/* Every worker has bound itself (or tried) before the engine is handed out. */
	pthread_mutex_lock(&pool->lock);
	while (pool->ready < pool->started)
		pthread_cond_wait(&pool->done, &pool->lock);
	if (bind_failures)
		*bind_failures = pool->bind_failures;
	pthread_mutex_unlock(&pool->lock);
	*out = pool;
	return CUTOFF_OK;
}

void cutoff_pool_free(cutoff_pool_t *pool)
{
	if (!pool)
		return;
	pthread_mutex_lock(&pool->lock);
	cutoff_int_store_relaxed(&pool->quit, 1);
	pthread_cond_broadcast(&pool->wake);
	pthread_mutex_unlock(&pool->lock);
	for (int i = 0; i < pool->started; i++)
		pthread_join(pool->workers[i].thread, NULL);
	pthread_cond_destroy(&pool->done);
	pthread_cond_destroy(&pool->wake);
	pthread_mutex_destroy(&pool->lock);
	free(pool->workers);
	free(pool);
}

void cutoff_pool_run(cutoff_pool_t *pool, cutoff_pool_job_fn job, void *arg)
{
	if (pool->threads == 1) {
		job(arg, 0, 1);
		return;
	}
	pool->job = job;
	pool->arg = arg;
	cutoff_int_store_relaxed(&pool->running, pool->threads - 1);
	cutoff_int_store_seq_cst(&pool->generation,
	                         next_generation(cutoff_int_load_relaxed(&pool->generation)));
	if (cutoff_int_load_seq_cst(&pool->sleepers) > 0) {
		pthread_mutex_lock(&pool->lock);
		pthread_cond_broadcast(&pool->wake);
		pthread_mutex_unlock(&pool->lock);
	}

	job(arg, 0, pool->threads);

	uint64_t until = 0;
	for (cutoff_spin_t spin = { 0 }; spin_more(pool, &spin, &until); cutoff_spin_wait(&spin))
		if (cutoff_int_load_acquire(&pool->running) == 0)
			return;
	pthread_mutex_lock(&pool->lock);
	cutoff_int_store_seq_cst(&pool->caller_sleeping, 1);
	while (cutoff_int_load_seq_cst(&pool->running) > 0)
		pthread_cond_wait(&pool->done, &pool->lock);
	cutoff_int_store_relaxed(&pool->caller_sleeping, 0);
	pthread_mutex_unlock(&pool->lock);
}

int cutoff_pool_threads(const cutoff_pool_t *pool) { return pool->threads; }

#endif /* CUTOFF_SIM */
