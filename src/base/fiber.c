/* SPDX-License-Identifier: MIT */
/*
 * fiber.c — coroutines on guarded stacks over Boost.Context's fcontext (fiber.h).
 *
 * The switch protocol. `jump_fcontext(to, data)` suspends the running context, resumes
 * `to`, and hands the resumed side a transfer: the suspended context and `data`. We pass
 * the suspended fiber as `data`, so the side that resumes stores the context into it
 * (`land`): a fiber's `ctx` is valid exactly while it is switched out. A fiber's first
 * run enters at `entry`, which lands the same way and calls its function.
 *
 * AddressSanitizer: before each switch, __sanitizer_start_switch_fiber with the stack
 * being entered (and a place for the leaving fiber's fake stack, NULL when it exits for
 * good); after each arrival, __sanitizer_finish_switch_fiber. The OS thread's own stack
 * bounds are learnt at the first arrival in a fiber from it. A fiber made again on a stack
 * it ran on before (every job of a pool) has its whole stack unpoisoned first: the frames
 * of its last run never returned (it switched away for good from inside them), so their
 * redzones would still be marked, and the new run's frames, laid over them, would be
 * reported as overflows. For the same reason a stack is unpoisoned before it is unmapped:
 * ASan keeps the marks of unmapped memory, and the next mapping at that address (a
 * table, another stack) would inherit them.
 *
 * ThreadSanitizer: each fiber with a stack has a TSan fiber (__tsan_create_fiber), the
 * `main` one its thread's (__tsan_get_current_fiber); a switch announces the fiber entered
 * (__tsan_switch_to_fiber, flags 0: the switch synchronises, as it does) just before the
 * jump. cutoff_fiber_make gives the stack a new TSan fiber (the old one's shadow stack
 * holds the frames of a run that never returned).
 */
#include "base/fiber.h"

#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define FIBER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FIBER_ASAN 1
#endif
#endif

#ifdef FIBER_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

#if defined(__SANITIZE_THREAD__)
#define FIBER_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define FIBER_TSAN 1
#endif
#endif

#ifdef FIBER_TSAN
void *__tsan_get_current_fiber(void);
void *__tsan_create_fiber(unsigned flags);
void __tsan_destroy_fiber(void *fiber);
void __tsan_switch_to_fiber(void *fiber, unsigned flags);
#endif

#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#define FIBER_VALGRIND 1
#endif
#endif

#ifdef CUTOFF_HAVE_FIBERS

/* Boost.Context's C-linkage entry points (boost/context/detail/fcontext.hpp). */
typedef void *fcontext_t;
typedef struct {
	fcontext_t fctx;
	void *data;
} transfer_t;
transfer_t jump_fcontext(fcontext_t const to, void *vp);
fcontext_t make_fcontext(void *sp, size_t size, void (*fn)(transfer_t));

/* Arrival in a fiber: `t.data` is the switch's pair {from, to}; the suspended side's
 * context goes into `from`. Returns `to`, the fiber now running. */
static cutoff_fiber_t *land(transfer_t t)
{
	cutoff_fiber_t **pair = t.data;
	cutoff_fiber_t *from = pair[0], *self = pair[1];
	from->ctx = t.fctx;
#ifdef FIBER_ASAN
	const void *lo;
	size_t bytes;
	__sanitizer_finish_switch_fiber(self->asan_fake, &lo, &bytes);
	if (!from->map) { /* the OS thread's stack: learn its bounds */
		from->stack_lo = (char *)lo;
		from->stack_bytes = bytes;
	}
#endif
	return self;
}

static void entry(transfer_t t)
{
	cutoff_fiber_t *self = land(t);
	self->fn(self->arg);
	__builtin_trap(); /* fn must switch away for good (fiber.h) */
}

void cutoff_fiber_main(cutoff_fiber_t *f)
{
	*f = (cutoff_fiber_t){ 0 };
#ifdef FIBER_TSAN
	f->tsan = __tsan_get_current_fiber();
#endif
}

bool cutoff_fiber_alloc(cutoff_fiber_t *f, size_t bytes)
{
	*f = (cutoff_fiber_t){ 0 };
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	bytes = (bytes + page - 1) / page * page;
	void *m = mmap(NULL, bytes + page, PROT_READ | PROT_WRITE,
	               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
	if (m == MAP_FAILED)
		return false;
	if (mprotect(m, page, PROT_NONE) != 0) {
		munmap(m, bytes + page);
		return false;
	}
	f->map = m;
	f->map_bytes = bytes + page;
#ifdef FIBER_TSAN
	f->tsan = __tsan_create_fiber(0);
#endif
	f->stack_lo = (char *)m + page;
	f->stack_bytes = bytes;
#ifdef FIBER_VALGRIND
	f->vg_id = VALGRIND_STACK_REGISTER(f->stack_lo, f->stack_lo + f->stack_bytes);
#endif
	return true;
}

void cutoff_fiber_free(cutoff_fiber_t *f)
{
	if (!f->map)
		return;
#ifdef FIBER_VALGRIND
	VALGRIND_STACK_DEREGISTER(f->vg_id);
#endif
#ifdef FIBER_ASAN
	__asan_unpoison_memory_region(f->stack_lo, f->stack_bytes);
#endif
	munmap(f->map, f->map_bytes);
	f->map = NULL;
#ifdef FIBER_TSAN
	__tsan_destroy_fiber(f->tsan);
	f->tsan = NULL;
#endif
}

void cutoff_fiber_make(cutoff_fiber_t *f, void (*fn)(void *), void *arg)
{
	f->fn = fn;
	f->arg = arg;
	f->asan_fake = NULL;
#ifdef FIBER_ASAN
	__asan_unpoison_memory_region(f->stack_lo, f->stack_bytes);
#endif
#ifdef FIBER_TSAN
	/* TSan keeps a shadow call stack per fiber: the frames of a run that never returned
	 * would stay on it, and a stack made again and again (a pool's) would overflow it. */
	__tsan_destroy_fiber(f->tsan);
	f->tsan = __tsan_create_fiber(0);
#endif
	f->ctx = make_fcontext(f->stack_lo + f->stack_bytes, f->stack_bytes, entry);
}

void cutoff_fiber_switch(cutoff_fiber_t *from, cutoff_fiber_t *to, bool exiting)
{
	cutoff_fiber_t *pair[2] = { from, to };
#ifdef FIBER_ASAN
	__sanitizer_start_switch_fiber(exiting ? NULL : &from->asan_fake, to->stack_lo,
	                               to->stack_bytes);
#else
	(void)exiting;
#endif
#ifdef FIBER_TSAN
	__tsan_switch_to_fiber(to->tsan, 0);
#endif
	land(jump_fcontext(to->ctx, pair));
}

#else /* no Boost.Context: nothing can switch (fiber.h) */

void cutoff_fiber_main(cutoff_fiber_t *f) { *f = (cutoff_fiber_t){ 0 }; }

bool cutoff_fiber_alloc(cutoff_fiber_t *f, size_t bytes)
{
	(void)bytes;
	*f = (cutoff_fiber_t){ 0 };
	return false;
}

void cutoff_fiber_free(cutoff_fiber_t *f) { (void)f; }

void cutoff_fiber_make(cutoff_fiber_t *f, void (*fn)(void *), void *arg)
{
	f->fn = fn;
	f->arg = arg;
}

void cutoff_fiber_switch(cutoff_fiber_t *from, cutoff_fiber_t *to, bool exiting)
{
	(void)from;
	(void)to;
	(void)exiting;
	__builtin_trap(); /* no fiber was ever made */
}

#endif /* CUTOFF_HAVE_FIBERS */
