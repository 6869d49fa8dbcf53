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
 */
#ifndef CUTOFF_PLATFORM_H
#define CUTOFF_PLATFORM_H

#include <sched.h>
#include <stdint.h>
#include <time.h>

#include "atomic.h"

static inline uint64_t cutoff_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline void cutoff_yield(void) { sched_yield(); }

enum { CUTOFF_SPIN_PAUSES = 64 };

/* A spin-wait's count of looks: start it at zero for each wait. */
typedef struct cutoff_spin {
	unsigned looks;
} cutoff_spin_t;

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

#endif /* CUTOFF_PLATFORM_H */
