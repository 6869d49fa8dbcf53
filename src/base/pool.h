/* SPDX-License-Identifier: MIT */
/*
 * pool.h — an engine's persistent threads (internal). Invariants at the top of pool.c.
 *
 * The seam between the two pools: what this header declares has two definitions, one in each
 * library. base/pool.c runs the workers as OS threads (the real library; compiled out
 * in the simulated one); the simulator's scheduler (src/sim/sched.c) runs them as
 * virtual threads (the cutoff-sim program and the simulator's tests). A caller cannot
 * tell which it has.
 */
#ifndef CUTOFF_POOL_H
#define CUTOFF_POOL_H

typedef struct cutoff_pool cutoff_pool_t;

/* A job run by every thread of the pool: `index` is 0 for the calling thread and
 * 1 .. threads-1 for the workers. */
typedef void (*cutoff_pool_job_fn)(void *arg, int index, int threads);

/* How long a waiting thread spins before it sleeps, in nanoseconds: a worker after its
 * share of a job, the caller after its own share. Longer than the gaps between the jobs of
 * back-to-back searches (a few microseconds), short enough that an idle engine's CPU time
 * is nothing (docs/measurements.md, "(g)"). */
#ifndef CUTOFF_POOL_SPIN_NS
#define CUTOFF_POOL_SPIN_NS 200000u
#endif

/* Starts threads-1 workers (threads >= 1), which wait until a job comes. `pus` is the number
 * of processing units the threads may run on (0 when unknown): with at least one per
 * thread, a waiting thread spins for CUTOFF_POOL_SPIN_NS before it sleeps; with fewer it
 * sleeps at once. When `pu` is not NULL, worker i first binds itself to the PU pu[i] of
 * `topology` (-1: unbound); the call returns once every worker has tried, and
 * *bind_failures (when not NULL) says how many could not. Returns 0, CUTOFF_ENOMEM or
 * CUTOFF_ETHREAD (then nothing is left running). */
int cutoff_pool_new(int threads, int pus, void *topology, const int *pu, int *bind_failures,
                    cutoff_pool_t **out);

/* Stops and joins the workers. NULL is ignored. Not while a job runs. */
void cutoff_pool_free(cutoff_pool_t *pool);

/* Runs job(arg, i, threads) on every thread i of the pool, the caller being thread 0, and
 * returns when all have returned. Only one caller at a time (the engine's `searching`
 * flag guarantees it). Everything the caller wrote before the call is visible to the
 * job, and everything the job wrote is visible to the caller after it. */
void cutoff_pool_run(cutoff_pool_t *pool, cutoff_pool_job_fn job, void *arg);

int cutoff_pool_threads(const cutoff_pool_t *pool);

#endif /* CUTOFF_POOL_H */
