/* SPDX-License-Identifier: MIT */
/*
 * test_placement.c — topology description and thread placement plans (cutoff.h, section 6;
 * the rules open src/base/topo.c), on synthetic topologies made here, so that the figures do not
 * depend on the machine. Synthetic PUs have operating-system index = logical index, and
 * so do their cores, so the expected plans are written out as arithmetic:
 *
 *   COMPACT  slot s: rank k = s / cores, core s % cores, PU 2 * core + k (with 2 PUs/core)
 *   SCATTER  slot s: rank k = s / cores; the next (s % cores) goes round the domains in
 *            visiting order, one core of each in turn
 *   thread i takes slot i % nslots; thread 0 is never bound
 *
 * Then binding on this machine: cutoff_topology_bind_thread(first allowed PU) from a thread of
 * its own either binds it exactly there (checked with hwloc_get_cpubind) or says
 * CUTOFF_ENOTSUP; both are fine, and the test says which.
 */
#include <hwloc.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "base/topo.h"
#include "check.h"
#include "cutoff.h"

enum {
	MAXT = 200
};

typedef struct plan {
	int pu[MAXT], core[MAXT], package[MAXT], numa[MAXT];
} plan_t;

static hwloc_topology_t synthetic(const char *desc, unsigned long flags)
{
	hwloc_topology_t t;
	if (hwloc_topology_init(&t) < 0)
		return NULL;
	if (hwloc_topology_set_synthetic(t, desc) < 0 || hwloc_topology_set_flags(t, flags) < 0 ||
	    hwloc_topology_load(t) < 0) {
		hwloc_topology_destroy(t);
		return NULL;
	}
	return t;
}

static int plan(hwloc_topology_t t, int threads, cutoff_placement_t policy, plan_t *p)
{
	/* Poison first, so that an entry left unwritten shows. */
	memset(p, 0x5a, sizeof(*p));
	return cutoff_topology_plan(t, threads, policy, p->pu, p->core, p->package, p->numa);
}

static void check_describe(hwloc_topology_t t, const char *desc, int packages, int numa, int cores,
                           int pus)
{
	cutoff_topology_info_t info;
	memset(&info, 0x5a, sizeof(info));
	int rc = cutoff_topology_describe(t, &info);
	CHECK(rc == 0 && info.packages == packages && info.numa_nodes == numa &&
	              info.cores == cores && info.pus == pus,
	      "%s: describe gave rc %d, %d packages, %d NUMA, %d cores, %d PUs; expected %d, %d, "
	      "%d, %d",
	      desc, rc, info.packages, info.numa_nodes, info.cores, info.pus, packages, numa, cores,
	      pus);
	printf("describe '%s': %d packages, %d NUMA nodes, %d cores, %d PUs\n", desc, info.packages,
	       info.numa_nodes, info.cores, info.pus);
}

/* Thread 0 is unbound under every policy. */
static void check_thread0(const plan_t *p, const char *what)
{
	CHECK(p->pu[0] == -1 && p->core[0] == -1 && p->package[0] == -1 && p->numa[0] == -1,
	      "%s: thread 0 is bound (PU %d, core %d, package %d, NUMA %d)", what, p->pu[0],
	      p->core[0], p->package[0], p->numa[0]);
}

/* Every entry of p[0 .. threads) says: thread i -> the expected slot i % nslots, for the
 * expected slots given as PU, core, package, NUMA arrays. */
static void check_slots(const plan_t *p, int threads, int nslots, const int *pu, const int *core,
                        const int *package, const int *numa, const char *what)
{
	int bad = 0;
	check_thread0(p, what);
	for (int i = 1; i < threads; i++) {
		int s = i % nslots;
		if (p->pu[i] != pu[s] || p->core[i] != core[s] || p->package[i] != package[s] ||
		    p->numa[i] != numa[s]) {
			if (bad++ < 3)
				printf("  %s: thread %d -> PU %d core %d package %d NUMA %d; "
				       "expected "
				       "PU %d core %d package %d NUMA %d\n",
				       what, i, p->pu[i], p->core[i], p->package[i], p->numa[i],
				       pu[s], core[s], package[s], numa[s]);
		}
	}
	CHECK(bad == 0, "%s: %d threads placed otherwise than the rule says", what, bad);
}

/* Workers 1 .. threads-1 on distinct PUs, and with threads == npus + 1 every PU used. */
static void check_distinct(const plan_t *p, int threads, int npus, const char *what)
{
	bool used[256] = { false };
	int dup = 0, count = 0;
	for (int i = 1; i < threads; i++) {
		if (p->pu[i] < 0 || p->pu[i] >= 256 || used[p->pu[i]]) {
			dup++;
		} else {
			used[p->pu[i]] = true;
			count++;
		}
	}
	CHECK(dup == 0, "%s: %d workers share a PU or are unbound", what, dup);
	if (threads == npus + 1)
		CHECK(count == npus, "%s: %d threads use %d PUs of %d", what, threads, count, npus);
}

/* package:1 numa:2 core:8 pu:2 — 16 cores, 32 PUs; cores 0..7 on node 0, 8..15 on node 1. */
static void test_numa2(void)
{
	const char *desc = "package:1 numa:2 core:8 pu:2";
	hwloc_topology_t t = synthetic(desc, 0);
	CHECK(t != NULL, "cannot load '%s'", desc);
	if (!t)
		return;
	check_describe(t, desc, 1, 2, 16, 32);

	int pu[32], core[32], package[32], numa[32];
	plan_t p;

	/* COMPACT: first PUs of cores 0..15 in order, then their second PUs. */
	for (int s = 0; s < 32; s++) {
		core[s] = s % 16;
		pu[s] = 2 * core[s] + s / 16;
		package[s] = 0;
		numa[s] = core[s] / 8;
	}
	CHECK(plan(t, 64, CUTOFF_PLACE_COMPACT, &p) == 0, "compact plan failed");
	check_slots(&p, 64, 32, pu, core, package, numa, "numa2 compact x64");
	check_distinct(&p, 33, 32, "numa2 compact x33");
	/* The property the rule is for: threads 1..7 on distinct cores of node 0, first PUs. */
	bool ok = true;
	for (int i = 1; i < 8; i++)
		ok = ok && p.core[i] == i && p.numa[i] == 0 && p.pu[i] % 2 == 0;
	CHECK(ok, "numa2 compact: threads 1..7 are not on cores 1..7 of node 0, first PUs");
	printf("numa2 compact: threads 1..15 on cores 1..15 (first PUs), 16..31 on second PUs, "
	       "thread 32 on slot 0 (PU 0), 33 wraps to thread 1's PU: %s\n",
	       p.pu[32] == 0 && p.pu[33] == p.pu[1] ? "yes" : "no");
	CHECK(p.pu[32] == 0 && p.pu[33] == p.pu[1], "numa2 compact: wrap-around");

	/* SCATTER: slot s on node s % 2, the (s % 16) / 2-th core of that node. */
	for (int s = 0; s < 32; s++) {
		numa[s] = s % 2;
		core[s] = 8 * numa[s] + (s % 16) / 2;
		pu[s] = 2 * core[s] + s / 16;
		package[s] = 0;
	}
	CHECK(plan(t, 70, CUTOFF_PLACE_SCATTER, &p) == 0, "scatter plan failed");
	check_slots(&p, 70, 32, pu, core, package, numa, "numa2 scatter x70");
	check_distinct(&p, 33, 32, "numa2 scatter x33");
	ok = true;
	for (int i = 1; i < 32; i++)
		ok = ok && p.numa[i] == i % 2;
	CHECK(ok, "numa2 scatter: thread i is not on NUMA node i %% 2");
	printf("numa2 scatter: thread i on NUMA node i %% 2 (thread 1 -> node 1, PU %d; thread 2 "
	       "-> node 0, PU %d), first PUs of all 16 cores before any second\n",
	       p.pu[1], p.pu[2]);

	/* NONE: nothing bound, with or without a topology. */
	CHECK(plan(t, 5, CUTOFF_PLACE_NONE, &p) == 0, "none plan failed");
	ok = true;
	for (int i = 0; i < 5; i++)
		ok = ok && p.pu[i] == -1 && p.core[i] == -1 && p.package[i] == -1 &&
		     p.numa[i] == -1;
	CHECK(ok, "none: some thread is bound");
	/* The optional arrays may be NULL. */
	int only[4];
	CHECK(cutoff_topology_plan(t, 4, CUTOFF_PLACE_SCATTER, only, NULL, NULL, NULL) == 0 &&
	              only[0] == -1 && only[1] == 16 && only[2] == 2 && only[3] == 18,
	      "scatter with only pu[]: %d %d %d %d", only[0], only[1], only[2], only[3]);
	printf("none: every entry -1; core/package/numa arrays may be NULL\n");
	hwloc_topology_destroy(t);
}

/* package:2 core:4 pu:2 — one NUMA node, so SCATTER alternates the packages. */
static void test_two_packages(void)
{
	const char *desc = "package:2 core:4 pu:2";
	hwloc_topology_t t = synthetic(desc, 0);
	CHECK(t != NULL, "cannot load '%s'", desc);
	if (!t)
		return;
	check_describe(t, desc, 2, 1, 8, 16);

	int pu[16], core[16], package[16], numa[16];
	plan_t p;
	for (int s = 0; s < 16; s++) {
		core[s] = s % 8;
		pu[s] = 2 * core[s] + s / 8;
		package[s] = core[s] / 4;
		numa[s] = 0;
	}
	CHECK(plan(t, 40, CUTOFF_PLACE_COMPACT, &p) == 0, "compact plan failed");
	check_slots(&p, 40, 16, pu, core, package, numa, "2pkg compact x40");
	check_distinct(&p, 17, 16, "2pkg compact x17");
	printf("2pkg compact: package 0's cores first (threads 1..3), then package 1's (4..7), "
	       "then second PUs\n");

	for (int s = 0; s < 16; s++) {
		package[s] = s % 2;
		core[s] = 4 * package[s] + (s % 8) / 2;
		pu[s] = 2 * core[s] + s / 8;
		numa[s] = 0;
	}
	CHECK(plan(t, 40, CUTOFF_PLACE_SCATTER, &p) == 0, "scatter plan failed");
	check_slots(&p, 40, 16, pu, core, package, numa, "2pkg scatter x40");
	check_distinct(&p, 17, 16, "2pkg scatter x17");
	printf("2pkg scatter: thread i on package i %% 2, first PUs of all 8 cores first\n");
	hwloc_topology_destroy(t);
}

/* package:2 numa:2 core:2 pu:2 — NUMA nodes 0,1 in package 0 and 2,3 in package 1: SCATTER
 * visits them packages first, 0, 2, 1, 3. */
static void test_two_packages_two_nodes(void)
{
	const char *desc = "package:2 numa:2 core:2 pu:2";
	static const int visit[4] = { 0, 2, 1, 3 };
	hwloc_topology_t t = synthetic(desc, 0);
	CHECK(t != NULL, "cannot load '%s'", desc);
	if (!t)
		return;
	check_describe(t, desc, 2, 4, 8, 16);

	int pu[16], core[16], package[16], numa[16];
	plan_t p;
	for (int s = 0; s < 16; s++) {
		numa[s] = visit[s % 4];
		core[s] = 2 * numa[s] + (s % 8) / 4;
		pu[s] = 2 * core[s] + s / 8;
		package[s] = numa[s] / 2;
	}
	CHECK(plan(t, 16, CUTOFF_PLACE_SCATTER, &p) == 0, "scatter plan failed");
	check_slots(&p, 16, 16, pu, core, package, numa, "2pkg2numa scatter x16");
	check_distinct(&p, 16, 16, "2pkg2numa scatter x16");
	printf("2pkg2numa scatter: nodes visited 0, 2, 1, 3 (packages alternate first)\n");
	hwloc_topology_destroy(t);
}

/* Small and odd shapes: one PU per core, no cores at all, more threads than PUs. */
static void test_small(void)
{
	const char *desc = "package:1 core:2 pu:1";
	hwloc_topology_t t = synthetic(desc, 0);
	CHECK(t != NULL, "cannot load '%s'", desc);
	if (!t)
		return;
	check_describe(t, desc, 1, 1, 2, 2);
	plan_t p;
	int rc = plan(t, 6, CUTOFF_PLACE_COMPACT, &p);
	/* Slots PU 0, PU 1: threads 0..5 -> (caller), 1, 0, 1, 0, 1. */
	CHECK(rc == 0 && p.pu[0] == -1 && p.pu[1] == 1 && p.pu[2] == 0 && p.pu[3] == 1 &&
	              p.pu[4] == 0 && p.pu[5] == 1,
	      "%s compact x6: %d %d %d %d %d %d", desc, p.pu[0], p.pu[1], p.pu[2], p.pu[3], p.pu[4],
	      p.pu[5]);
	rc = plan(t, 6, CUTOFF_PLACE_SCATTER, &p);
	CHECK(rc == 0 && p.pu[1] == 1 && p.pu[2] == 0 && p.core[1] == 1 && p.core[2] == 0,
	      "%s scatter x6 (one domain: as compact): %d %d", desc, p.pu[1], p.pu[2]);
	rc = plan(t, 1, CUTOFF_PLACE_SCATTER, &p);
	CHECK(rc == 0 && p.pu[0] == -1, "%s: one thread is bound", desc);
	printf("'%s': 6 threads wrap as caller, 1, 0, 1, 0, 1; scatter is compact with one "
	       "domain\n",
	       desc);
	hwloc_topology_destroy(t);

	desc = "package:1 pu:4";
	t = synthetic(desc, 0);
	CHECK(t != NULL, "cannot load '%s'", desc);
	if (!t)
		return;
	check_describe(t, desc, 1, 1, 0, 4);
	rc = plan(t, 4, CUTOFF_PLACE_COMPACT, &p);
	CHECK(rc == 0 && p.pu[1] == 1 && p.pu[2] == 2 && p.pu[3] == 3 && p.core[1] == -1 &&
	              p.package[1] == 0 && p.numa[1] == 0,
	      "%s compact: PUs %d %d %d, core %d package %d NUMA %d", desc, p.pu[1], p.pu[2],
	      p.pu[3], p.core[1], p.package[1], p.numa[1]);
	printf("'%s' (no cores): each PU its own slot, core -1\n", desc);
	hwloc_topology_destroy(t);
}

/* Only allowed PUs count: a topology that keeps disallowed ones, allowing PUs 0-5 and 9
 * (cores 0, 1, 2 whole and one PU of core 4). */
static void test_allowed(void)
{
	const char *desc = "package:2 core:4 pu:2";
	hwloc_topology_t t = synthetic(desc, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED);
	CHECK(t != NULL, "cannot load '%s' with disallowed PUs", desc);
	if (!t)
		return;
	hwloc_bitmap_t set = hwloc_bitmap_alloc();
	hwloc_bitmap_set_range(set, 0, 5);
	hwloc_bitmap_set(set, 9);
	int rc = hwloc_topology_allow(t, set, NULL, HWLOC_ALLOW_FLAG_CUSTOM);
	CHECK(rc == 0, "hwloc_topology_allow failed");
	check_describe(t, "package:2 core:4 pu:2, PUs 0-5,9 allowed", 2, 1, 4, 7);

	/* COMPACT slots: first PUs of cores 0, 1, 2, 4 (PUs 0, 2, 4, 9), then 1, 3, 5. */
	static const int pu[7] = { 0, 2, 4, 9, 1, 3, 5 };
	static const int core[7] = { 0, 1, 2, 4, 0, 1, 2 };
	static const int package[7] = { 0, 0, 0, 1, 0, 0, 0 };
	static const int numa[7] = { 0, 0, 0, 0, 0, 0, 0 };
	plan_t p;
	CHECK(plan(t, 20, CUTOFF_PLACE_COMPACT, &p) == 0, "compact plan failed");
	check_slots(&p, 20, 7, pu, core, package, numa, "allowed compact x20");
	/* SCATTER over the two packages: 0 (p0), 9 (p1), 2 (p0), then p0 alone: 4, 1, 3, 5. */
	static const int spu[7] = { 0, 9, 2, 4, 1, 3, 5 };
	static const int score[7] = { 0, 4, 1, 2, 0, 1, 2 };
	static const int spackage[7] = { 0, 1, 0, 0, 0, 0, 0 };
	CHECK(plan(t, 20, CUTOFF_PLACE_SCATTER, &p) == 0, "scatter plan failed");
	check_slots(&p, 20, 7, spu, score, spackage, numa, "allowed scatter x20");
	bool inside = true;
	for (int i = 1; i < 20; i++)
		inside = inside && hwloc_bitmap_isset(set, (unsigned)p.pu[i]);
	CHECK(inside, "a plan uses a disallowed PU");
	printf("allowed PUs 0-5,9 of 16: plans use only those (compact 0 2 4 9 1 3 5, scatter "
	       "0 9 2 4 1 3 5)\n");
	hwloc_bitmap_free(set);
	hwloc_topology_destroy(t);
}

static void test_bad_arguments(void)
{
	hwloc_topology_t t = synthetic("package:1 core:2 pu:1", 0);
	int pu[4];
	CHECK(t != NULL, "cannot load a topology");
	if (!t)
		return;
	CHECK(cutoff_topology_plan(t, 0, CUTOFF_PLACE_COMPACT, pu, NULL, NULL, NULL) ==
	              CUTOFF_EINVAL,
	      "threads 0 accepted");
	CHECK(cutoff_topology_plan(t, -3, CUTOFF_PLACE_COMPACT, pu, NULL, NULL, NULL) ==
	              CUTOFF_EINVAL,
	      "threads -3 accepted");
	CHECK(cutoff_topology_plan(t, CUTOFF_MAX_THREADS + 1, CUTOFF_PLACE_COMPACT, pu, NULL, NULL,
	                           NULL) == CUTOFF_EINVAL,
	      "threads CUTOFF_MAX_THREADS + 1 accepted");
	CHECK(cutoff_topology_plan(t, 2, CUTOFF_PLACE_COMPACT, NULL, pu, NULL, NULL) ==
	              CUTOFF_EINVAL,
	      "pu NULL accepted");
	CHECK(cutoff_topology_plan(t, 2, (cutoff_placement_t)3, pu, NULL, NULL, NULL) ==
	              CUTOFF_EINVAL,
	      "policy 3 accepted");
	CHECK(cutoff_topology_plan(t, 2, (cutoff_placement_t)-1, pu, NULL, NULL, NULL) ==
	              CUTOFF_EINVAL,
	      "policy -1 accepted");
	CHECK(cutoff_topology_describe(t, NULL) == CUTOFF_EINVAL, "describe with info NULL");
	CHECK(cutoff_topology_describe(NULL, NULL) == CUTOFF_EINVAL,
	      "describe(NULL, NULL) accepted");
	CHECK(cutoff_topology_load(NULL) == CUTOFF_EINVAL, "cutoff_topology_load(NULL) accepted");
	CHECK(cutoff_topology_bind_thread(NULL, 0) == CUTOFF_EINVAL, "bind without a topology");
	CHECK(cutoff_topology_bind_thread(t, -1) == CUTOFF_EINVAL, "bind to PU -1");
	CHECK(cutoff_topology_bind_thread(t, 2) == CUTOFF_EINVAL, "bind to PU 2 of 2");
	/* A synthetic topology has binding hooks that succeed without binding. */
	CHECK(cutoff_topology_bind_thread(t, 1) == CUTOFF_ENOTSUP,
	      "bind through a synthetic topology");

	int *big = malloc(CUTOFF_MAX_THREADS * sizeof(*big));
	CHECK(big &&
	              cutoff_topology_plan(t, CUTOFF_MAX_THREADS, CUTOFF_PLACE_SCATTER, big, NULL,
	                                   NULL, NULL) == 0 &&
	              big[CUTOFF_MAX_THREADS - 1] == (CUTOFF_MAX_THREADS - 1) % 2,
	      "CUTOFF_MAX_THREADS threads refused or misplaced");
	free(big);
	printf("bad arguments: threads 0, -3, MAX+1, pu NULL, policy 3 and -1, info NULL, PU -1 "
	       "and 2 of 2 give CUTOFF_EINVAL; binding through a synthetic topology gives "
	       "CUTOFF_ENOTSUP\n");
	hwloc_topology_destroy(t);
}

/* NULL topology: the library loads one itself, honouring HWLOC_SYNTHETIC. */
static void test_null_topology(void)
{
	const char *old = getenv("HWLOC_SYNTHETIC");
	char *saved = old ? strdup(old) : NULL;
	setenv("HWLOC_SYNTHETIC", "package:2 numa:2 core:2 pu:2", 1);
	check_describe(NULL, "NULL with HWLOC_SYNTHETIC='package:2 numa:2 core:2 pu:2'", 2, 4, 8,
	               16);
	plan_t p;
	int rc = plan(NULL, 3, CUTOFF_PLACE_SCATTER, &p);
	CHECK(rc == 0 && p.pu[1] == 8 && p.numa[1] == 2 && p.pu[2] == 4 && p.numa[2] == 1,
	      "NULL topology scatter: thread 1 PU %d NUMA %d, thread 2 PU %d NUMA %d", p.pu[1],
	      p.numa[1], p.pu[2], p.numa[2]);
	if (saved) {
		setenv("HWLOC_SYNTHETIC", saved, 1);
		free(saved);
	} else {
		unsetenv("HWLOC_SYNTHETIC");
	}
	rc = plan(NULL, 3, CUTOFF_PLACE_NONE, &p);
	CHECK(rc == 0 && p.pu[0] == -1 && p.pu[2] == -1, "NULL topology, none");
	cutoff_topology_info_t info;
	rc = cutoff_topology_describe(NULL, &info);
	CHECK(rc == 0 && info.pus >= 1 && info.cores <= info.pus,
	      "this machine: rc %d, %d cores, %d PUs", rc, info.cores, info.pus);
	printf("NULL topology: HWLOC_SYNTHETIC honoured; this machine: %d packages, %d NUMA "
	       "nodes, %d cores, %d PUs\n",
	       info.packages, info.numa_nodes, info.cores, info.pus);
}

typedef struct bind_job {
	void *topology;
	int pu;
	int rc;
	bool exact; /* the thread's binding afterwards is exactly {pu} */
} bind_job_t;

static void *bind_thread(void *arg)
{
	bind_job_t *job = arg;
	job->rc = cutoff_topology_bind_thread(job->topology, job->pu);
	hwloc_bitmap_t now = hwloc_bitmap_alloc();
	if (now && hwloc_get_cpubind(job->topology, now, HWLOC_CPUBIND_THREAD) == 0)
		job->exact =
			hwloc_bitmap_weight(now) == 1 && hwloc_bitmap_isset(now, (unsigned)job->pu);
	hwloc_bitmap_free(now);
	return NULL;
}

/* This machine: bind a fresh thread (not the test's own) to the first allowed PU, PU 0
 * unless taskset or cgroups leave it out. */
static void test_bind_here(void)
{
	void *t;
	int rc = cutoff_topology_load(&t);
	CHECK(rc == 0, "cutoff_topology_load: %s", cutoff_strerror(rc));
	if (rc != 0)
		return;
	hwloc_const_cpuset_t allowed = hwloc_topology_get_allowed_cpuset(t);
	bind_job_t job = { .topology = t, .pu = hwloc_bitmap_first(allowed), .rc = 1 };
	pthread_t th;
	CHECK(job.pu >= 0, "no allowed PU on this machine");
	if (job.pu >= 0 && pthread_create(&th, NULL, bind_thread, &job) == 0) {
		pthread_join(th, NULL);
		CHECK(job.rc == 0 || job.rc == CUTOFF_ENOTSUP, "bind to PU %d: rc %d", job.pu,
		      job.rc);
		if (job.rc == 0) {
			CHECK(job.exact, "bind to PU %d returned 0, but the thread is elsewhere",
			      job.pu);
			printf("this machine: a thread bound to PU %d, and hwloc_get_cpubind says "
			       "so\n",
			       job.pu);
		} else {
			printf("this machine: binding to PU %d is not supported here "
			       "(CUTOFF_ENOTSUP)\n",
			       job.pu);
		}
	}
	CHECK(cutoff_topology_bind_thread(t, 1 << 20) == CUTOFF_EINVAL, "bind to PU 2^20");
	cutoff_topology_free(t);
	cutoff_topology_free(NULL);
}

int main(void)
{
	test_numa2();
	test_two_packages();
	test_two_packages_two_nodes();
	test_small();
	test_allowed();
	test_bad_arguments();
	test_null_topology();
	test_bind_here();
	return check_report();
}
