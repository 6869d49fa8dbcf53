/* SPDX-License-Identifier: MIT */
/*
 * atomic.h — the only place in cutoff that names ck_pr, ck_spinlock or __atomic.
 *
 * Every access to memory that more than one thread touches during a search goes through
 * these functions, and each name carries its memory order:
 *
 *   ..._load_relaxed / ..._store_relaxed   atomic (never torn), no ordering
 *   ..._load_acquire                       later accesses are not moved before it
 *   ..._store_release                      earlier accesses are not moved after it
 *   ..._load_seq_cst / ..._store_seq_cst   sequentially consistent (a store-buffering pair
 *                                          without stand-alone fences, which
 *                                          ThreadSanitizer does not model)
 *   ..._cas                                compare-and-swap, sequentially consistent
 *   cutoff_u64_{load,store}_table          a word of the transposition table: relaxed,
 *                                          as above; the simulator charges the table by
 *                                          bucket (platform.h), not by line
 *   ..._faa                                fetch-and-add, sequentially consistent
 *   cutoff_fence_*                         stand-alone fences
 *   cutoff_spinlock_*                      a test-and-test-and-set lock (acquire / release)
 *
 * Backends. Normally Concurrency Kit: ck_pr gives exactly these orders on every target it
 * supports. With CUTOFF_TSAN defined (the ThreadSanitizer build, CUTOFF_SANITIZE=thread) the
 * same names use the compiler's __atomic builtins and a lock made from them, because
 * ThreadSanitizer cannot see ck_pr's inline assembly: it would report false races on every
 * relaxed access and through ck's locks. The two backends give the same guarantees. With
 * CUTOFF_SIM (the simulator's objects, never the installed library) the names are the
 * simulator's points (sim/sched.h): virtual threads on one OS thread, switched only at
 * these operations.
 */
#ifndef CUTOFF_ATOMIC_H
#define CUTOFF_ATOMIC_H

#include <stdbool.h>
#include <stdint.h>

#if defined(CUTOFF_SIM)
#include "sim/sched.h"
#elif !defined(CUTOFF_TSAN)
#include <ck_pr.h>
#include <ck_spinlock.h>
#endif

#if defined(CUTOFF_SIM)

/* The simulator's backend (sim/sched.h): every operation is a point where the scheduler
 * may switch virtual threads; one OS thread runs them all, so the builtins need no order
 * beyond the compiler's, and the orders are kept by the points being where they are.
 * Ordered stores and read-modify-writes drain the writer's delayed table stores first;
 * acquire and release operations carry the work/span estimate's dependencies. */

/* Every operation on a word other than the table's is also an access to its cache line
 * (sim/sched.c, "lines"): a read (R), a write (W) or a read-modify-write (X). */
#define CUTOFF_SIM_READ(p) (cutoff_sim_point(), cutoff_sim_line((p), CUTOFF_SIM_R))
#define CUTOFF_SIM_WRITE(p) (cutoff_sim_point(), cutoff_sim_line((p), CUTOFF_SIM_W))
#define CUTOFF_SIM_RMW(p) (cutoff_sim_point(), cutoff_sim_line((p), CUTOFF_SIM_X))
#define CUTOFF_SIM_LOAD(p) (CUTOFF_SIM_READ(p), __atomic_load_n((p), __ATOMIC_SEQ_CST))

/* A 64-bit word's load and store, the table's delayed stores among them (sched.h). */
static inline uint64_t cutoff_sim_u64_load(const uint64_t *p)
{
	return cutoff_sim_self && cutoff_sim_self->buffered ? cutoff_sim_load64(p)
	                                                    : __atomic_load_n(p, __ATOMIC_SEQ_CST);
}
static inline void cutoff_sim_u64_store(uint64_t *p, uint64_t v)
{
	if (cutoff_sim_self && cutoff_sim_self->buffered)
		cutoff_sim_store64(p, v);
	else
		__atomic_store_n(p, v, __ATOMIC_SEQ_CST);
}
static inline uint64_t cutoff_u64_load_table(const uint64_t *p)
{
	cutoff_sim_point();
	return cutoff_sim_u64_load(p);
}
static inline void cutoff_u64_store_table(uint64_t *p, uint64_t v)
{
	cutoff_sim_point();
	cutoff_sim_u64_store(p, v);
}
static inline uint64_t cutoff_u64_load_relaxed(const uint64_t *p)
{
	CUTOFF_SIM_READ(p);
	return cutoff_sim_u64_load(p);
}
static inline void cutoff_u64_store_relaxed(uint64_t *p, uint64_t v)
{
	CUTOFF_SIM_WRITE(p);
	cutoff_sim_u64_store(p, v);
}
static inline uint64_t cutoff_u64_faa(uint64_t *p, uint64_t v)
{
	CUTOFF_SIM_RMW(p);
	cutoff_sim_ordered();
	return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST);
}
static inline bool cutoff_u64_cas(uint64_t *p, uint64_t expected, uint64_t desired)
{
	CUTOFF_SIM_RMW(p);
	cutoff_sim_ordered();
	return __atomic_compare_exchange_n(p, &expected, desired, false, __ATOMIC_SEQ_CST,
	                                   __ATOMIC_SEQ_CST);
}
/* 16-bit words are the table's writers (tt.c): charged with the table, not by line. */
static inline uint16_t cutoff_u16_load_relaxed(const uint16_t *p)
{
	cutoff_sim_point();
	return __atomic_load_n(p, __ATOMIC_SEQ_CST);
}
static inline void cutoff_u16_store_relaxed(uint16_t *p, uint16_t v)
{
	cutoff_sim_point();
	__atomic_store_n(p, v, __ATOMIC_SEQ_CST);
}
static inline int cutoff_int_load_relaxed(const int *p) { return CUTOFF_SIM_LOAD(p); }
static inline int cutoff_int_faa(int *p, int v)
{
	CUTOFF_SIM_RMW(p);
	cutoff_sim_ordered();
	cutoff_sim_sync_acquire(p);
	int old = __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST);
	cutoff_sim_sync_release(p);
	return old;
}
static inline void *cutoff_ptr_load_relaxed(void *const *p) { return CUTOFF_SIM_LOAD(p); }
static inline void *cutoff_ptr_load_acquire(void *const *p)
{
	void *v = CUTOFF_SIM_LOAD(p);
	cutoff_sim_sync_acquire(p);
	return v;
}
static inline void cutoff_ptr_store_release(void **p, void *v)
{
	CUTOFF_SIM_WRITE(p);
	cutoff_sim_ordered();
	__atomic_store_n(p, v, __ATOMIC_SEQ_CST);
	cutoff_sim_sync_release(p);
}
static inline void cutoff_int_store_relaxed(int *p, int v)
{
	CUTOFF_SIM_WRITE(p);
	__atomic_store_n(p, v, __ATOMIC_SEQ_CST);
}
static inline void cutoff_ptr_store_seq_cst(void **p, void *v) { cutoff_ptr_store_release(p, v); }
static inline void *cutoff_ptr_load_seq_cst(void *const *p) { return cutoff_ptr_load_acquire(p); }
static inline int cutoff_int_load_acquire(const int *p)
{
	int v = CUTOFF_SIM_LOAD(p);
	cutoff_sim_sync_acquire(p);
	return v;
}
static inline void cutoff_int_store_release(int *p, int v)
{
	CUTOFF_SIM_WRITE(p);
	cutoff_sim_ordered();
	__atomic_store_n(p, v, __ATOMIC_SEQ_CST);
	cutoff_sim_sync_release(p);
}
static inline void cutoff_int_store_seq_cst(int *p, int v) { cutoff_int_store_release(p, v); }
static inline int cutoff_int_load_seq_cst(const int *p) { return cutoff_int_load_acquire(p); }
static inline bool cutoff_int_cas(int *p, int expected, int desired)
{
	CUTOFF_SIM_RMW(p);
	cutoff_sim_ordered();
	cutoff_sim_sync_acquire(p);
	bool done = __atomic_compare_exchange_n(p, &expected, desired, false, __ATOMIC_SEQ_CST,
	                                        __ATOMIC_SEQ_CST);
	if (done)
		cutoff_sim_sync_release(p);
	return done;
}

static inline void cutoff_fence_acquire(void) { __atomic_signal_fence(__ATOMIC_SEQ_CST); }
static inline void cutoff_fence_release(void) { cutoff_sim_ordered(); }
static inline void cutoff_cpu_relax(void) { __atomic_signal_fence(__ATOMIC_SEQ_CST); }

/* A lock is a point of its own: its acquire and hand-off are charged by the cost model,
 * and a thread that finds it taken spins (sim/sched.c). */
typedef cutoff_sim_lock_t cutoff_spinlock_t;
static inline void cutoff_spinlock_init(cutoff_spinlock_t *l)
{
	*l = (cutoff_spinlock_t){ .locked = 0, .last = -1, .waiters = -1, .span = 0 };
}
static inline bool cutoff_spinlock_trylock(cutoff_spinlock_t *l) { return cutoff_sim_trylock(l); }
static inline void cutoff_spinlock_lock(cutoff_spinlock_t *l)
{
	for (unsigned looks = 0; !cutoff_sim_trylock(l); looks++)
		cutoff_sim_spin_look(&looks, UINT32_MAX); /* ck_spinlock only pauses */
}
static inline void cutoff_spinlock_unlock(cutoff_spinlock_t *l) { cutoff_sim_unlock(l); }

#elif !defined(CUTOFF_TSAN)

static inline uint64_t cutoff_u64_load_relaxed(const uint64_t *p) { return ck_pr_load_64(p); }
static inline void cutoff_u64_store_relaxed(uint64_t *p, uint64_t v) { ck_pr_store_64(p, v); }
static inline uint64_t cutoff_u64_load_table(const uint64_t *p) { return ck_pr_load_64(p); }
static inline void cutoff_u64_store_table(uint64_t *p, uint64_t v) { ck_pr_store_64(p, v); }
static inline uint64_t cutoff_u64_faa(uint64_t *p, uint64_t v) { return ck_pr_faa_64(p, v); }
static inline bool cutoff_u64_cas(uint64_t *p, uint64_t expected, uint64_t desired)
{
	return ck_pr_cas_64(p, expected, desired);
}

static inline uint16_t cutoff_u16_load_relaxed(const uint16_t *p) { return ck_pr_load_16(p); }
static inline void cutoff_u16_store_relaxed(uint16_t *p, uint16_t v) { ck_pr_store_16(p, v); }

static inline int cutoff_int_load_relaxed(const int *p) { return ck_pr_load_int(p); }
static inline int cutoff_int_faa(int *p, int v) { return ck_pr_faa_int(p, v); }

static inline void *cutoff_ptr_load_relaxed(void *const *p) { return ck_pr_load_ptr(p); }
static inline void *cutoff_ptr_load_acquire(void *const *p)
{
	void *v = ck_pr_load_ptr(p);
	ck_pr_fence_acquire();
	return v;
}
static inline void cutoff_ptr_store_release(void **p, void *v)
{
	ck_pr_fence_release();
	ck_pr_store_ptr(p, v);
}
static inline void cutoff_int_store_relaxed(int *p, int v) { ck_pr_store_int(p, v); }
static inline void cutoff_ptr_store_seq_cst(void **p, void *v)
{
	ck_pr_fence_memory();
	ck_pr_store_ptr(p, v);
	ck_pr_fence_memory();
}
static inline void *cutoff_ptr_load_seq_cst(void *const *p)
{
	ck_pr_fence_memory();
	void *v = ck_pr_load_ptr(p);
	ck_pr_fence_acquire();
	return v;
}

/* Sequentially consistent store (a release too) and load (an acquire too): together they
 * make a store-buffering pair (each thread stores its flag, then loads the other's: at
 * least one sees the other). */
static inline void cutoff_int_store_seq_cst(int *p, int v)
{
	ck_pr_fence_memory();
	ck_pr_store_int(p, v);
	ck_pr_fence_memory();
}
static inline int cutoff_int_load_seq_cst(const int *p)
{
	ck_pr_fence_memory();
	int v = ck_pr_load_int(p);
	ck_pr_fence_acquire();
	return v;
}

static inline int cutoff_int_load_acquire(const int *p)
{
	int v = ck_pr_load_int(p);
	ck_pr_fence_acquire();
	return v;
}

static inline void cutoff_int_store_release(int *p, int v)
{
	ck_pr_fence_release();
	ck_pr_store_int(p, v);
}

static inline bool cutoff_int_cas(int *p, int expected, int desired)
{
	return ck_pr_cas_int(p, expected, desired);
}

static inline void cutoff_fence_acquire(void) { ck_pr_fence_acquire(); }
static inline void cutoff_fence_release(void) { ck_pr_fence_release(); }
static inline void cutoff_cpu_relax(void) { ck_pr_stall(); }

typedef ck_spinlock_t cutoff_spinlock_t;
static inline void cutoff_spinlock_init(cutoff_spinlock_t *l) { ck_spinlock_init(l); }
static inline void cutoff_spinlock_lock(cutoff_spinlock_t *l) { ck_spinlock_lock(l); }
static inline void cutoff_spinlock_unlock(cutoff_spinlock_t *l) { ck_spinlock_unlock(l); }
static inline bool cutoff_spinlock_trylock(cutoff_spinlock_t *l) { return ck_spinlock_trylock(l); }

#else /* CUTOFF_TSAN: compiler builtins that ThreadSanitizer understands */

static inline uint64_t cutoff_u64_load_relaxed(const uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}
static inline void cutoff_u64_store_relaxed(uint64_t *p, uint64_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELAXED);
}
static inline uint64_t cutoff_u64_load_table(const uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}
static inline void cutoff_u64_store_table(uint64_t *p, uint64_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELAXED);
}
static inline uint64_t cutoff_u64_faa(uint64_t *p, uint64_t v)
{
	return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST);
}
static inline bool cutoff_u64_cas(uint64_t *p, uint64_t expected, uint64_t desired)
{
	return __atomic_compare_exchange_n(p, &expected, desired, false, __ATOMIC_SEQ_CST,
	                                   __ATOMIC_SEQ_CST);
}

static inline uint16_t cutoff_u16_load_relaxed(const uint16_t *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}
static inline void cutoff_u16_store_relaxed(uint16_t *p, uint16_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELAXED);
}

static inline int cutoff_int_load_relaxed(const int *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}
static inline int cutoff_int_faa(int *p, int v)
{
	return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST);
}

static inline void *cutoff_ptr_load_relaxed(void *const *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}
static inline void *cutoff_ptr_load_acquire(void *const *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}
static inline void cutoff_ptr_store_release(void **p, void *v)
{
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
}
static inline void cutoff_int_store_relaxed(int *p, int v)
{
	__atomic_store_n(p, v, __ATOMIC_RELAXED);
}
static inline void cutoff_ptr_store_seq_cst(void **p, void *v)
{
	__atomic_store_n(p, v, __ATOMIC_SEQ_CST);
}
static inline void *cutoff_ptr_load_seq_cst(void *const *p)
{
	return __atomic_load_n(p, __ATOMIC_SEQ_CST);
}
static inline void cutoff_int_store_seq_cst(int *p, int v)
{
	__atomic_store_n(p, v, __ATOMIC_SEQ_CST);
}
static inline int cutoff_int_load_seq_cst(const int *p)
{
	return __atomic_load_n(p, __ATOMIC_SEQ_CST);
}
static inline int cutoff_int_load_acquire(const int *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}
static inline void cutoff_int_store_release(int *p, int v)
{
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
}

static inline bool cutoff_int_cas(int *p, int expected, int desired)
{
	return __atomic_compare_exchange_n(p, &expected, desired, false, __ATOMIC_SEQ_CST,
	                                   __ATOMIC_SEQ_CST);
}

static inline void cutoff_fence_acquire(void) { __atomic_thread_fence(__ATOMIC_ACQUIRE); }
static inline void cutoff_fence_release(void) { __atomic_thread_fence(__ATOMIC_RELEASE); }
static inline void cutoff_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

typedef struct {
	int locked;
} cutoff_spinlock_t;

static inline void cutoff_spinlock_init(cutoff_spinlock_t *l)
{
	__atomic_store_n(&l->locked, 0, __ATOMIC_RELAXED);
}

static inline bool cutoff_spinlock_trylock(cutoff_spinlock_t *l)
{
	return !__atomic_exchange_n(&l->locked, 1, __ATOMIC_ACQUIRE);
}

static inline void cutoff_spinlock_lock(cutoff_spinlock_t *l)
{
	for (;;) {
		if (!__atomic_exchange_n(&l->locked, 1, __ATOMIC_ACQUIRE))
			return;
		while (__atomic_load_n(&l->locked, __ATOMIC_RELAXED))
			cutoff_cpu_relax();
	}
}

static inline void cutoff_spinlock_unlock(cutoff_spinlock_t *l)
{
	__atomic_store_n(&l->locked, 0, __ATOMIC_RELEASE);
}

#endif /* CUTOFF_SIM, CUTOFF_TSAN */

#endif /* CUTOFF_ATOMIC_H */
