/* SPDX-License-Identifier: MIT */
/*
 * fiber.h — coroutines on guarded stacks (internal): the simulator's virtual threads, and
 * the DTS driver's searches, which move from one OS thread to another (drivers/dts.c).
 *
 * A fiber is a stack of its own (mmap'd, with an inaccessible guard page below it, so that
 * an overflow faults instead of writing over another fiber) and a saved context. The
 * switch is Boost.Context's `jump_fcontext` (libboost-context, Debian): a few
 * nanoseconds and no system call, where ucontext's `swapcontext` makes one per switch
 * (docs/simulation.md has the measurements, bench/ctxswitch.c the program). Its three entry
 * points have C linkage; they are declared in fiber.c.
 *
 * Every switch tells AddressSanitizer and ThreadSanitizer (their fiber annotations: a
 * switch orders what the fiber did before it with what it does after, on whichever OS
 * thread it resumes) and every stack is registered with valgrind, so that all three follow
 * the switches.
 *
 * The OS thread's own stack is a fiber too (`main`, made by cutoff_fiber_main on that
 * thread, with no stack of its own). A fiber runs on one OS thread at a time; one that is
 * switched out may be resumed by another thread, once its `ctx` has been stored (the
 * caller orders the two: dts.c says how).
 *
 * Without Boost.Context (CUTOFF_HAVE_FIBERS undefined: CMake did not find it) only the
 * declarations remain, and cutoff_fiber_alloc fails: nothing may switch.
 */
#ifndef CUTOFF_FIBER_H
#define CUTOFF_FIBER_H

#include <stdbool.h>
#include <stddef.h>

typedef struct cutoff_fiber {
	void *ctx; /* the saved context while the fiber is not running */
	char *map; /* the mapping: guard page, then the stack; NULL for `main` */
	size_t map_bytes;
	char *stack_lo; /* the usable stack: [stack_lo, stack_lo + stack_bytes) */
	size_t stack_bytes;
	void *asan_fake; /* AddressSanitizer's fake stack while switched out */
	void *tsan;      /* ThreadSanitizer's fiber (its thread's own, for `main`) */
	unsigned vg_id;  /* valgrind's stack id */
	void (*fn)(void *);
	void *arg;
} cutoff_fiber_t;

/* The calling OS thread's own stack, as a fiber to switch back to. */
void cutoff_fiber_main(cutoff_fiber_t *f);

/* A stack of `bytes` (rounded up to pages) below a guard page; false when out of memory
 * (or in a build without fibers). */
bool cutoff_fiber_alloc(cutoff_fiber_t *f, size_t bytes);
void cutoff_fiber_free(cutoff_fiber_t *f);

/* Prepares f to run fn(arg) from the top of its stack at the next switch to it. fn must
 * never return: it ends by switching away for good (cutoff_fiber_switch with `exiting`). */
void cutoff_fiber_make(cutoff_fiber_t *f, void (*fn)(void *), void *arg);

/* Saves the running fiber `from` and runs `to`; returns when something switches back to
 * `from`. `exiting`: `from` will never run again (its stack may be reused). */
void cutoff_fiber_switch(cutoff_fiber_t *from, cutoff_fiber_t *to, bool exiting);

#endif /* CUTOFF_FIBER_H */
