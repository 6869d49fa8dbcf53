/* SPDX-License-Identifier: MIT */
/*
 * ctxswitch.c — what a switch between two coroutines costs here, by three means a
 * simulation of many virtual threads on one OS thread could use (issue 15, item 1):
 *
 *   ucontext   glibc's swapcontext: saves and restores the signal mask, one system call
 *              (rt_sigprocmask) per switch;
 *   fcontext   Boost.Context's jump_fcontext (libboost-context, Debian), a few dozen
 *              instructions of assembly with C linkage, no system call;
 *   pcl        the Portable Coroutine Library (libpcl1, Debian), co_call / co_resume.
 *
 * Each runs SWITCHES round trips between the main context and one coroutine (two switches
 * a round trip) on its own stack of 64 KiB below a guard page, and prints nanoseconds per
 * switch (the best of 5 runs: the least disturbed by the machine's other work). Build:
 *
 *   apt-get install libboost-context-dev libpcl1-dev   # not among cutoff's dependencies
 *   cc -O2 bench/ctxswitch.c -o /tmp/ctxswitch -lboost_context -lpcl
 *   /tmp/ctxswitch [ROUND_TRIPS]        # default 2,000,000
 *   strace -c -f /tmp/ctxswitch 100000  # the system calls each one makes
 */
#include <pcl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

enum { STACK = 64 * 1024 };

static long trips = 2000000;

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A stack of STACK bytes above a guard page; returns its lowest usable byte. */
static char *guarded_stack(void)
{
	long page = sysconf(_SC_PAGESIZE);
	char *m = mmap(NULL, STACK + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
	               -1, 0);
	if (m == MAP_FAILED || mprotect(m, page, PROT_NONE) != 0) {
		perror("stack");
		exit(1);
	}
	return m + page;
}

/* ucontext */
static ucontext_t u_main, u_co;
static volatile long u_count;

static void u_body(void)
{
	for (;;) {
		u_count++;
		swapcontext(&u_co, &u_main);
	}
}

static double run_ucontext(char *stack)
{
	getcontext(&u_co);
	u_co.uc_stack.ss_sp = stack;
	u_co.uc_stack.ss_size = STACK;
	u_co.uc_link = NULL;
	makecontext(&u_co, u_body, 0);
	double t0 = now();
	for (long i = 0; i < trips; i++)
		swapcontext(&u_main, &u_co);
	return now() - t0;
}

/* fcontext: Boost.Context's C-linkage entry points (boost/context/detail/fcontext.hpp) */
typedef void *fcontext_t;
typedef struct {
	fcontext_t fctx;
	void *data;
} transfer_t;
transfer_t jump_fcontext(fcontext_t const to, void *vp);
fcontext_t make_fcontext(void *sp, size_t size, void (*fn)(transfer_t));

static volatile long f_count;

static void f_body(transfer_t t)
{
	for (;;) {
		f_count++;
		t = jump_fcontext(t.fctx, NULL);
	}
}

static double run_fcontext(char *stack)
{
	fcontext_t co = make_fcontext(stack + STACK, STACK, f_body);
	double t0 = now();
	for (long i = 0; i < trips; i++)
		co = jump_fcontext(co, NULL).fctx;
	return now() - t0;
}

/* PCL */
static volatile long p_count;

static void p_body(void *arg)
{
	(void)arg;
	for (;;) {
		p_count++;
		co_resume();
	}
}

static double run_pcl(char *stack)
{
	coroutine_t co = co_create(p_body, NULL, stack, STACK);
	if (!co) {
		fprintf(stderr, "pcl: co_create failed\n");
		exit(1);
	}
	double t0 = now();
	for (long i = 0; i < trips; i++)
		co_call(co);
	return now() - t0;
}

int main(int argc, char **argv)
{
	if (argc > 1)
		trips = atol(argv[1]);
	if (trips < 1) {
		fprintf(stderr, "usage: ctxswitch [ROUND_TRIPS >= 1]\n");
		return 2;
	}
	struct {
		const char *name;
		double (*run)(char *);
		volatile long *count;
	} ways[] = { { "ucontext", run_ucontext, &u_count },
		     { "fcontext", run_fcontext, &f_count },
		     { "pcl", run_pcl, &p_count } };
	for (size_t w = 0; w < sizeof ways / sizeof ways[0]; w++) {
		double best = 1e30;
		for (int r = 0; r < 5; r++) {
			*ways[w].count = 0;
			double t = ways[w].run(guarded_stack());
			if (*ways[w].count != trips) {
				fprintf(stderr, "%s: %ld round trips, expected %ld\n", ways[w].name,
				        *ways[w].count, trips);
				return 1;
			}
			best = t < best ? t : best;
		}
		printf("%-9s %7.1f ns a switch (best of 5, %ld round trips)\n", ways[w].name,
		       best * 1e9 / (2.0 * (double)trips), trips);
	}
	return 0;
}
