/* SPDX-License-Identifier: MIT */
/*
 * topo.c — what hwloc sees of the machine, and where an engine's threads go.
 *
 * Placement rules (docs/architecture.md says the same in prose):
 *
 *   PUs      only the allowed PUs of the topology count (hwloc_topology_get_allowed_cpuset:
 *            cgroups; a topology from cutoff_topology_load() is also cut to the process's
 *            binding, which is how taskset shows). Each has a core (its core ancestor, or
 *            the PU alone in a topology without cores) and a rank: its place among the
 *            allowed PUs of that core (0 for the first hardware thread, 1 for the second).
 *   slots    a plan is the allowed PUs put in one order, the slots; thread i takes slot
 *            i % nslots. Thread 0, the caller, is never bound but still takes slot 0, so the
 *            first worker gets slot 1 and every worker has a PU of its own while
 *            threads <= nslots + 1.
 *   COMPACT  slots by (rank, core): the first PU of every core, cores in logical order,
 *            which is package by package; then the second PU of every core; and so on.
 *   SCATTER  the cores are grouped into domains: the NUMA nodes when the allowed PUs lie
 *            in two or more, else the packages when in two or more, else one domain (and
 *            SCATTER is COMPACT). A PU's NUMA node is the first, in logical order, whose
 *            cpuset holds it. Domains are visited packages first: the first domain of each
 *            package in package order, then the second of each, and so on (one package:
 *            its NUMA nodes in order). Slots by (rank, place of the core within its
 *            domain, domain): one core from each domain in turn, first PUs only, then the
 *            second PUs the same way.
 *
 * Nothing here is shared between threads but a loaded topology, which is only read:
 * hwloc allows concurrent queries and binding calls on one topology.
 */
#include "base/topo.h"

#include <errno.h>
#include <hwloc.h>
#include <stdlib.h>
#include <unistd.h>

#include "cutoff.h"

/* One allowed PU as the plans see it. */
typedef struct topo_pu {
	int os;      /* operating-system index */
	int core;    /* logical index of its core, or -1 */
	int package; /* logical index of its package, or -1 */
	int numa;    /* logical index of its NUMA node, or -1 */
	int unit;    /* its core among the allowed cores (its own number without cores) */
	int rank;    /* its place among the allowed PUs of its core */
	int domain;  /* SCATTER: the visiting position of its core's domain */
	int place;   /* SCATTER: its core's place among the cores of that domain */
} topo_pu_t;

static int topo_error_from_errno(int e) { return e == ENOMEM ? CUTOFF_ENOMEM : CUTOFF_ENOTSUP; }

/* hwloc counts the CPUs that taskset or sched_setaffinity left out as allowed (only
 * cgroups make them disallowed), so the topology is cut to the process binding here, as
 * HWLOC_TOPOLOGY_FLAG_RESTRICT_TO_CPUBINDING would (that flag also forces "this system",
 * which would bind through a synthetic topology). Without a binding to ask, keep all. */
static int topo_restrict_to_binding(hwloc_topology_t t)
{
	hwloc_bitmap_t bound = hwloc_bitmap_alloc();
	if (!bound)
		return CUTOFF_ENOMEM;
	int rc = 0;
	if ((hwloc_get_cpubind(t, bound, HWLOC_CPUBIND_PROCESS) == 0 ||
	     hwloc_get_cpubind(t, bound, HWLOC_CPUBIND_THREAD) == 0) &&
	    hwloc_bitmap_intersects(bound, hwloc_topology_get_allowed_cpuset(t)) &&
	    !hwloc_bitmap_isincluded(hwloc_topology_get_allowed_cpuset(t), bound)) {
		/* On EINVAL the topology is unchanged; on ENOMEM it is reset and unusable. */
		if (hwloc_topology_restrict(t, bound, 0) < 0 && errno == ENOMEM)
			rc = CUTOFF_ENOMEM;
	}
	hwloc_bitmap_free(bound);
	return rc;
}

int cutoff_topology_load(void **topology)
{
	hwloc_topology_t t;

	if (!topology)
		return CUTOFF_EINVAL;
	*topology = NULL;
	if (hwloc_topology_init(&t) < 0)
		return CUTOFF_ENOMEM;
	/* Without sysfs (a chroot, some containers) hwloc's Linux discovery prints a warning
	 * of its own on stderr, and the library never prints: skip it, and let the other
	 * components (CPUID on x86, else a flat machine) describe what they can. */
	if (access("/sys/devices/system/cpu", F_OK) != 0)
		hwloc_topology_set_components(t, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST, "linux");
	if (hwloc_topology_load(t) < 0) {
		int rc = topo_error_from_errno(errno);
		hwloc_topology_destroy(t);
		return rc;
	}
	if (hwloc_topology_is_thissystem(t)) {
		int rc = topo_restrict_to_binding(t);
		if (rc < 0) {
			hwloc_topology_destroy(t);
			return rc;
		}
	}
	*topology = t;
	return 0;
}

void cutoff_topology_free(void *topology)
{
	if (topology)
		hwloc_topology_destroy((hwloc_topology_t)topology);
}

int cutoff_topology_bind_thread(void *topology, int pu)
{
	hwloc_topology_t t = topology;

	if (!t || pu < 0)
		return CUTOFF_EINVAL;
	hwloc_obj_t obj = hwloc_get_pu_obj_by_os_index(t, (unsigned)pu);
	if (!obj || !hwloc_bitmap_isset(hwloc_topology_get_allowed_cpuset(t), (unsigned)pu))
		return CUTOFF_EINVAL;
	/* A synthetic or XML topology has binding hooks that succeed without binding. */
	const struct hwloc_topology_support *support = hwloc_topology_get_support(t);
	if (!hwloc_topology_is_thissystem(t) || !support->cpubind->set_thread_cpubind)
		return CUTOFF_ENOTSUP;

	hwloc_bitmap_t set = hwloc_bitmap_dup(obj->cpuset);
	if (!set)
		return CUTOFF_ENOMEM;
	hwloc_bitmap_singlify(set);
	int rc = 0;
	if (hwloc_set_cpubind(t, set, HWLOC_CPUBIND_THREAD) < 0)
		rc = errno == ENOMEM ? CUTOFF_ENOMEM : CUTOFF_ENOTSUP;
	hwloc_bitmap_free(set);
	return rc;
}

/* The logical index of the first NUMA node holding PU `os`, or -1. */
static int topo_numa_of(hwloc_topology_t t, unsigned os)
{
	hwloc_obj_t node = NULL;
	while ((node = hwloc_get_next_obj_by_type(t, HWLOC_OBJ_NUMANODE, node))) {
		if (node->cpuset && hwloc_bitmap_isset(node->cpuset, os))
			return (int)node->logical_index;
	}
	return -1;
}

static int topo_logical_ancestor(hwloc_topology_t t, hwloc_obj_type_t type, hwloc_obj_t pu)
{
	hwloc_obj_t a = hwloc_get_ancestor_obj_by_type(t, type, pu);
	return a ? (int)a->logical_index : -1;
}

/* The allowed PUs of t in logical order, with os, core, package, numa, unit and rank
 * filled in. Logical order is the tree's depth-first order, so the PUs of a core are
 * consecutive and the cores of a package too. */
static int topo_gather(hwloc_topology_t t, topo_pu_t **out, int *count)
{
	hwloc_const_cpuset_t allowed = hwloc_topology_get_allowed_cpuset(t);
	int total = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PU);
	topo_pu_t *p = NULL;
	int n = 0, units = 0;

	if (total > 0 && !(p = calloc((size_t)total, sizeof(*p))))
		return CUTOFF_ENOMEM;
	for (hwloc_obj_t obj = NULL;
	     n < total && (obj = hwloc_get_next_obj_by_type(t, HWLOC_OBJ_PU, obj));) {
		if (!hwloc_bitmap_isset(allowed, obj->os_index))
			continue;
		topo_pu_t *s = &p[n];
		s->os = (int)obj->os_index;
		s->core = topo_logical_ancestor(t, HWLOC_OBJ_CORE, obj);
		s->package = topo_logical_ancestor(t, HWLOC_OBJ_PACKAGE, obj);
		s->numa = topo_numa_of(t, obj->os_index);
		if (n > 0 && s->core >= 0 && s->core == p[n - 1].core) {
			s->unit = p[n - 1].unit;
			s->rank = p[n - 1].rank + 1;
		} else {
			s->unit = units++;
			s->rank = 0;
		}
		n++;
	}
	*out = p;
	*count = n;
	return 0;
}

/* How many distinct values field `key` (a logical index or -1) takes among p[0 .. n). */
static int topo_distinct(const topo_pu_t *p, int n, int max, int (*key)(const topo_pu_t *),
                         bool *seen)
{
	int distinct = 0;
	for (int i = 0; i <= max + 1; i++)
		seen[i] = false;
	for (int i = 0; i < n; i++) {
		int k = key(&p[i]) + 1;
		if (!seen[k]) {
			seen[k] = true;
			distinct++;
		}
	}
	return distinct;
}

static int topo_key_numa(const topo_pu_t *s) { return s->numa; }
static int topo_key_package(const topo_pu_t *s) { return s->package; }
static int topo_key_none(const topo_pu_t *s)
{
	(void)s;
	return -1;
}

/* Fills `domain` and `place` of every PU for SCATTER (the rules at the top). */
static int topo_scatter_domains(hwloc_topology_t t, topo_pu_t *p, int n)
{
	int nnuma = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_NUMANODE);
	int npkg = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PACKAGE);
	int max = nnuma > npkg ? nnuma : npkg;
	if (max < 1)
		max = 1;
	/* Indexed by key + 1 (so -1, "unknown", is 0): seen flags, then per domain (in order
	 * of first appearance) its package, its rank among its package's domains, its
	 * visiting position, and the cores given a place so far. */
	bool *seen = calloc((size_t)max + 2, sizeof(*seen));
	int *ids = malloc(((size_t)max + 2) * 5 * sizeof(*ids));
	if (!seen || !ids) {
		free(seen);
		free(ids);
		return CUTOFF_ENOMEM;
	}
	int *id_of_key = ids, *pkg = ids + (max + 2), *rank = pkg + (max + 2);
	int *visit = rank + (max + 2), *cores = visit + (max + 2);

	int (*key)(const topo_pu_t *) = topo_key_none;
	if (topo_distinct(p, n, max, topo_key_numa, seen) >= 2)
		key = topo_key_numa;
	else if (topo_distinct(p, n, max, topo_key_package, seen) >= 2)
		key = topo_key_package;

	int ndomains = 0;
	for (int i = 0; i <= max + 1; i++)
		id_of_key[i] = -1;
	for (int i = 0; i < n; i++) {
		int *id = &id_of_key[key(&p[i]) + 1];
		if (*id < 0) {
			*id = ndomains++;
			pkg[*id] = p[i].package;
			rank[*id] = 0;
			for (int d = 0; d < *id; d++)
				rank[*id] += pkg[d] == pkg[*id];
			cores[*id] = 0;
		}
		p[i].domain = *id; /* the order of appearance for now */
	}
	/* Visiting position: by (rank within the package, package, appearance). */
	for (int d = 0; d < ndomains; d++) {
		visit[d] = 0;
		for (int e = 0; e < d; e++) {
			if (rank[e] < rank[d] || (rank[e] == rank[d] && pkg[e] <= pkg[d]))
				visit[d]++;
			else
				visit[e]++;
		}
	}
	for (int i = 0; i < n; i++) {
		/* A core's PUs follow one another and go where its first PU goes. */
		if (p[i].rank == 0) {
			p[i].place = cores[p[i].domain]++;
			p[i].domain = visit[p[i].domain];
		} else {
			p[i].place = p[i - 1].place;
			p[i].domain = p[i - 1].domain;
		}
	}
	free(seen);
	free(ids);
	return 0;
}

static int topo_compare_compact(const void *a, const void *b)
{
	const topo_pu_t *x = a, *y = b;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return (x->unit > y->unit) - (x->unit < y->unit);
}

static int topo_compare_scatter(const void *a, const void *b)
{
	const topo_pu_t *x = a, *y = b;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	if (x->place != y->place)
		return x->place < y->place ? -1 : 1;
	return (x->domain > y->domain) - (x->domain < y->domain);
}

static bool topo_intersects_allowed(hwloc_topology_t t, hwloc_obj_t obj)
{
	return obj->cpuset &&
	       hwloc_bitmap_intersects(obj->cpuset, hwloc_topology_get_allowed_cpuset(t));
}

static int topo_count_allowed(hwloc_topology_t t, hwloc_obj_type_t type)
{
	int count = 0;
	for (hwloc_obj_t obj = NULL; (obj = hwloc_get_next_obj_by_type(t, type, obj));)
		count += topo_intersects_allowed(t, obj);
	return count;
}

int cutoff_topology_describe(void *topology, cutoff_topology_info_t *info)
{
	hwloc_topology_t t = topology;

	if (!info)
		return CUTOFF_EINVAL;
	if (!t) {
		void *own;
		int rc = cutoff_topology_load(&own);
		if (rc < 0)
			return rc;
		rc = cutoff_topology_describe(own, info);
		cutoff_topology_free(own);
		return rc;
	}
	info->packages = topo_count_allowed(t, HWLOC_OBJ_PACKAGE);
	info->numa_nodes = topo_count_allowed(t, HWLOC_OBJ_NUMANODE);
	info->cores = topo_count_allowed(t, HWLOC_OBJ_CORE);
	info->pus = topo_count_allowed(t, HWLOC_OBJ_PU);
	return 0;
}

int cutoff_topology_plan(void *topology, int threads, cutoff_placement_t policy, int *pu, int *core,
                         int *package, int *numa)
{
	hwloc_topology_t t = topology;

	if (threads < 1 || threads > CUTOFF_MAX_THREADS || !pu ||
	    !(policy == CUTOFF_PLACE_NONE || policy == CUTOFF_PLACE_COMPACT ||
	      policy == CUTOFF_PLACE_SCATTER))
		return CUTOFF_EINVAL;
	if (!t && policy != CUTOFF_PLACE_NONE) {
		void *own;
		int rc = cutoff_topology_load(&own);
		if (rc < 0)
			return rc;
		rc = cutoff_topology_plan(own, threads, policy, pu, core, package, numa);
		cutoff_topology_free(own);
		return rc;
	}

	topo_pu_t *slots = NULL;
	int nslots = 0;
	if (policy != CUTOFF_PLACE_NONE) {
		int rc = topo_gather(t, &slots, &nslots);
		if (rc == 0 && policy == CUTOFF_PLACE_SCATTER)
			rc = topo_scatter_domains(t, slots, nslots);
		if (rc < 0) {
			free(slots);
			return rc;
		}
		qsort(slots, (size_t)nslots, sizeof(*slots),
		      policy == CUTOFF_PLACE_SCATTER ? topo_compare_scatter : topo_compare_compact);
	}
	for (int i = 0; i < threads; i++) {
		const topo_pu_t *s = i > 0 && nslots > 0 ? &slots[i % nslots] : NULL;
		pu[i] = s ? s->os : -1;
		if (core)
			core[i] = s ? s->core : -1;
		if (package)
			package[i] = s ? s->package : -1;
		if (numa)
			numa[i] = s ? s->numa : -1;
	}
	free(slots);
	return 0;
}
