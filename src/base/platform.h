/* SPDX-License-Identifier: MIT */
/*
 * platform.h — the library's one clock, one yield and one spin-wait (internal).
 *
 * Every place in the library that reads the time, gives up its CPU or waits for another
 * thread by spinning goes through these three, and nothing else does: they are the seam at
 * which a deterministic simulation of many threads on one (virtual time, a scheduler of
 * its own) replaces the operating system. The atomics and locks are the other half of that
 * seam (atomic.h).
 *
 *   cutoff_now_ns     CLOCK_MONOTONIC in nanoseconds: the search's deadlines, the
 *                     profiler's transitions, the pool's spin window.
 *   cutoff_yield      lets another runnable thread have this CPU (sched_yield).
 *   cutoff_spin_wait  one look of a spin-wait: a pause instruction for the first
 *                     CUTOFF_SPIN_PAUSES looks, a yield at every look after that. With
 *                     more threads than cores the thread being waited for may need this
 *                     very CPU, and only a yield gives it; with a core each, a short wait
 *                     ends within the pauses and never enters the kernel.
 *   cutoff_park_*     a thread's place to sleep when a wait has outlasted its spin
 *                     window, and the wake-up another thread gives it (a futex).
 *   cutoff_preemptions  the calling thread's involuntary context switches so far: how a
 *                     waiter learns that its CPU is contended, and sleeps at once.
 *   cutoff_cpus       the CPUs the calling thread may run on (its affinity mask): how a
 *                     driver learns that it has more threads than CPUs.
 *   cutoff_fiber_go   a driver's switch from the running fiber to another (base/fiber.h),
 *                     and cutoff_fiber_home the running thread's own fiber: in the
 *                     simulator's build the virtual thread follows the switch, which is
 *                     charged like any work.
 *   cutoff_charge     the cost of a piece of work (a node, a table probe or store, a
 *                     split point; cutoff_charge_tt_* name the bucket): nothing in a real
 *                     build, where the CPU pays it; the cost model's virtual time in the
 *                     simulator's (CUTOFF_SIM).
 *
 * With CUTOFF_SIM (the objects of `cutoff sim`, never the installed library) every one
 * of these is the simulator's (sim/sched.h): virtual time, waits that give way to
 * another virtual thread, sleeps that the scheduler ends; docs/simulation.md.
 *
 * Why a wait must end in sleep, not in yields. A yield helps only the threads queued on
 * the yielding thread's own CPU. When another program takes a core, three threads share
 * two CPUs: a waiting thread that yields on a CPU of its own keeps that CPU busy, and the
 * thread it waits for shares the other CPU with the program at half speed, for as long as
 * the wait lasts. A thread that sleeps leaves its CPU idle, and an idle CPU takes a runnable
 * thread from a busy one at once (the scheduler's balancing): the awaited thread gets a
 * CPU of its own. Measured in docs/benchmarks.md ("Why a 2-thread figure is what it is").
 *
 * The parking protocol (no wake-up is lost; a store-buffering pair, as in pool.c):
 *   sleeper:  token = cutoff_park_begin(p)    (reads `word`, then sets `sleeping`, seq_cst)
 *             check the condition with seq_cst loads; if it holds, cutoff_park_end(p)
 *             else cutoff_park_sleep(p, token) (sleeps while `word` == token), then end
 *   waker:    make the condition true with a seq_cst store or read-modify-write;
 *             cutoff_unpark(p)                 (if `sleeping`: bump `word`, wake)
 * Either the sleeper's check sees the condition, or the waker sees `sleeping` and bumps
 * `word` — before the sleeper's futex wait compares it (which then returns at once) or
 * after (which wakes it). A stale `sleeping` only costs a needless wake-up; a sleeper
 * woken for any reason rechecks its condition. Where there is no futex (not Linux), a
 * sleep is a yield, and the protocol still holds (the caller loops).
 */
#ifndef CUTOFF_PLATFORM_H
#define CUTOFF_PLATFORM_H

#include <limits.h>
#include <sched.h>
#include <stdint.h>
#include <time.h>

#include "base/fiber.h"

#ifdef __linux__
#include <linux/futex.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
/* Linux's RUSAGE_THREAD, which glibc names only under _GNU_SOURCE. */
#define CUTOFF_RUSAGE_THREAD 1
#endif

/* What a charge is for (cutoff_charge). */
typedef enum cutoff_charge_kind {
	CUTOFF_CHARGE_NODE,     /* one node: search.c's enter_node */
	CUTOFF_CHARGE_TT_PROBE, /* one table probe: tt.c */
	CUTOFF_CHARGE_SPLIT,    /* a split point made and its helpers booked: ybw.c */
	CUTOFF_CHARGE_JOIN,     /* a helper takes a split point's state: ybw.c, dts.c */
	CUTOFF_CHARGE_FIBER,    /* a driver's fiber switch: cutoff_fiber_go (dts.c) */
	CUTOFF_CHARGE_KINDS
} cutoff_charge_kind_t;

#include "base/atomic.h"

enum {
	CUTOFF_SPIN_PAUSES = 64
};

/* A spin-wait's count of looks: start it at zero for each wait. */
typedef struct cutoff_spin {
	unsigned looks;
} cutoff_spin_t;

#ifdef CUTOFF_SIM

_Static_assert((int)CUTOFF_CHARGE_KINDS == (int)CUTOFF_SIM_CHARGE_KINDS, "sim/sched.h's charges");

static inline uint64_t cutoff_now_ns(void) { return cutoff_sim_now_ns(); }
static inline void cutoff_yield(void) { cutoff_sim_spin_look(NULL, 0); }
static inline void cutoff_charge(cutoff_charge_kind_t kind) { cutoff_sim_charge((int)kind); }
/* A table store into bucket `bucket` of `buckets`: its cost, and the coherence cost when
 * another virtual thread wrote that bucket last. */
static inline void cutoff_charge_tt_store(uint64_t bucket, uint64_t buckets)
{
	if (cutoff_sim_self && cutoff_sim_self->clock)
		cutoff_sim_tt_store(bucket, buckets);
}
/* A table probe of that bucket: its cost, and its wait behind a transfer of the bucket's
 * line under way (sim/sched.c, "lines"). */
static inline void cutoff_charge_tt_probe(uint64_t bucket, uint64_t buckets)
{
	cutoff_sim_charge(CUTOFF_CHARGE_TT_PROBE);
	if (cutoff_sim_self && cutoff_sim_self->clock && cutoff_sim_self->lines)
		cutoff_sim_tt_probe(bucket, buckets);
}

static inline unsigned cutoff_spin_wait(cutoff_spin_t *spin)
{
	cutoff_sim_spin_look(&spin->looks, CUTOFF_SPIN_PAUSES);
	return ++spin->looks;
}
/* No operating system takes a virtual thread's CPU. */
static inline long cutoff_preemptions(void) { return 0; }
/* Every virtual thread has a CPU of its own. */
static inline int cutoff_cpus(void) { return INT_MAX; }
static inline cutoff_fiber_t *cutoff_fiber_home(cutoff_fiber_t *scratch)
{
	return cutoff_sim_fiber_home(scratch);
}
static inline void cutoff_fiber_go(cutoff_fiber_t *from, cutoff_fiber_t *to, bool exiting)
{
	cutoff_sim_fiber_go(from, to, exiting);
}

#else /* a real build */

static inline void cutoff_charge(cutoff_charge_kind_t kind) { (void)kind; }
/* The calling thread's own stack as a fiber (made in *scratch). */
static inline cutoff_fiber_t *cutoff_fiber_home(cutoff_fiber_t *scratch)
{
	cutoff_fiber_main(scratch);
	return scratch;
}
static inline void cutoff_fiber_go(cutoff_fiber_t *from, cutoff_fiber_t *to, bool exiting)
{
	cutoff_fiber_switch(from, to, exiting);
}
static inline void cutoff_charge_tt_store(uint64_t bucket, uint64_t buckets)
{
	(void)bucket;
	(void)buckets;
}
static inline void cutoff_charge_tt_probe(uint64_t bucket, uint64_t buckets)
{
	(void)bucket;
	(void)buckets;
}

static inline uint64_t cutoff_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline void cutoff_yield(void) { sched_yield(); }

/* One look of a spin-wait (above). Returns the number of looks made so far, for a caller
 * that bounds its spinning in time and reads the clock only every so many looks. */
static inline unsigned cutoff_spin_wait(cutoff_spin_t *spin)
{
	if (spin->looks < CUTOFF_SPIN_PAUSES)
		cutoff_cpu_relax();
	else
		cutoff_yield();
	return ++spin->looks;
}

/* The calling thread's count of involuntary context switches (the scheduler took its CPU
 * while it could run): a change between two looks says another thread or program is
 * competing for this CPU. A system call (getrusage); 0 where not available. */
static inline long cutoff_preemptions(void)
{
#ifdef __linux__
	struct rusage r;
	if (getrusage(CUTOFF_RUSAGE_THREAD, &r) == 0)
		return r.ru_nivcsw;
#endif
	return 0;
}

/* The CPUs the calling thread may run on: its affinity mask (taskset, sched_setaffinity,
 * a container's cpuset), at least 1; INT_MAX where it cannot be read (not Linux, or more
 * than 4096 CPUs). Not a CPU quota, nor other programs' load. A system call. */
static inline int cutoff_cpus(void)
{
#ifdef __linux__
	uint64_t mask[64] = { 0 };
	long bytes = syscall(SYS_sched_getaffinity, 0, sizeof(mask), mask);
	int n = 0;
	for (long i = 0; i < bytes / 8; i++)
		n += __builtin_popcountll(mask[i]);
	if (n > 0)
		return n;
#endif
	return INT_MAX;
}

#endif /* CUTOFF_SIM */

/* A thread's parking place (the protocol above); zero-initialised is ready. Only its owner
 * sleeps on it; any thread may wake it. */
typedef struct cutoff_park {
	int word;     /* bumped by every wake-up that found the owner sleeping */
	int sleeping; /* 1 from cutoff_park_begin to cutoff_park_end */
} cutoff_park_t;

static inline int cutoff_park_begin(cutoff_park_t *p)
{
	int token = cutoff_int_load_seq_cst(&p->word);
	cutoff_int_store_seq_cst(&p->sleeping, 1);
	return token;
}

/* Sleeps while p->word is still `token` (returns at once if it is not, and may return
 * early for no reason: the caller rechecks its condition). */
static inline void cutoff_park_sleep(cutoff_park_t *p, int token)
{
#if defined(CUTOFF_SIM)
	cutoff_sim_park_sleep(&p->word, token);
#elif defined(__linux__)
	syscall(SYS_futex, &p->word, FUTEX_WAIT_PRIVATE, token, NULL, NULL, 0);
#else
	(void)p;
	(void)token;
	cutoff_yield();
#endif
}

static inline void cutoff_park_end(cutoff_park_t *p) { cutoff_int_store_relaxed(&p->sleeping, 0); }

/* Wakes p's owner if it is (or is about to be) asleep; called after the waker made the
 * owner's condition true. */
static inline void cutoff_unpark(cutoff_park_t *p)
{
	if (!cutoff_int_load_seq_cst(&p->sleeping))
		return;
	cutoff_int_faa(&p->word, 1);
#if defined(CUTOFF_SIM)
	cutoff_sim_unpark(&p->word);
#elif defined(__linux__)
	syscall(SYS_futex, &p->word, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
#endif
}

#endif /* CUTOFF_PLATFORM_H */
