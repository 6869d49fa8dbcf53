/*
 * pool.c — persistent worker threads: created once with the engine, reused by every job.
 *
 * Invariants. All fields below `lock` are read and written only with `lock` held. A job is
 * published by bumping `generation` (with job and arg set) and broadcasting `wake`; each
 * worker runs every generation exactly once, then decrements `running` and the last one
 * signals `done`. The caller runs its own share (index 0) before it waits, so a pool of
 * one thread has no workers and no synchronisation at all. The mutex gives the
 * happens-before edges in both directions (caller's writes -> job; job's writes ->
 * caller), so jobs need no fences of their own for data handed over this way.
 *
 * Workers sleep on a condition variable between jobs: an idle engine costs nothing. The
 * search drivers do their own fine-grained waiting inside a job.
 *
 * Placement: a worker binds itself (topo.c) before anything else, and cutoff_pool_new
 * returns only when all have tried (`ready`, under `lock`, signalled on `done`).
 */
#include "pool.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

#include "cutoff.h"
#include "topo.h"

struct worker {
	cutoff_pool_t *pool;
	int index;
	int pu; /* bind to this PU first, or -1 */
	pthread_t thread;
};

struct cutoff_pool {
	int threads;
	struct worker *workers; /* threads - 1 of them */
	int started;            /* workers actually created */

	pthread_mutex_t lock;
	pthread_cond_t wake; /* a new generation, or quit */
	pthread_cond_t done; /* running reached 0 */
	unsigned generation;
	int running;
	bool quit;
	cutoff_pool_job_fn job;
	void *arg;
	void *topology;    /* for binding, read-only */
	int ready;         /* workers that have tried to bind */
	int bind_failures; /* of those, how many could not */
};

static void *worker_main(void *p)
{
	struct worker *w = p;
	cutoff_pool_t *pool = w->pool;
	unsigned seen = 0;
	int rc = w->pu >= 0 ? cutoff_topo_bind_thread(pool->topology, w->pu) : 0;

	pthread_mutex_lock(&pool->lock);
	pool->bind_failures += rc != 0;
	pool->ready++;
	pthread_cond_signal(&pool->done);
	for (;;) {
		while (!pool->quit && pool->generation == seen)
			pthread_cond_wait(&pool->wake, &pool->lock);
		if (pool->quit)
			break;
		seen = pool->generation;
		cutoff_pool_job_fn job = pool->job;
		void *arg = pool->arg;
		pthread_mutex_unlock(&pool->lock);
		job(arg, w->index, pool->threads);
		pthread_mutex_lock(&pool->lock);
		if (--pool->running == 0)
			pthread_cond_signal(&pool->done);
	}
	pthread_mutex_unlock(&pool->lock);
	return NULL;
}

int cutoff_pool_new(int threads, void *topology, const int *pu, int *bind_failures,
                    cutoff_pool_t **out)
{
	*out = NULL;
	cutoff_pool_t *pool = calloc(1, sizeof(*pool));
	if (!pool)
		return CUTOFF_ENOMEM;
	pool->threads = threads;
	pool->topology = topology;
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
	pool->quit = true;
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
	pthread_mutex_lock(&pool->lock);
	pool->job = job;
	pool->arg = arg;
	pool->running = pool->threads - 1;
	pool->generation++;
	pthread_cond_broadcast(&pool->wake);
	pthread_mutex_unlock(&pool->lock);

	job(arg, 0, pool->threads);

	pthread_mutex_lock(&pool->lock);
	while (pool->running > 0)
		pthread_cond_wait(&pool->done, &pool->lock);
	pthread_mutex_unlock(&pool->lock);
}

int cutoff_pool_threads(const cutoff_pool_t *pool) { return pool->threads; }
