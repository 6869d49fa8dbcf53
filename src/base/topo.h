/* SPDX-License-Identifier: MIT */
/*
 * topo.h — hwloc topologies and thread binding for the engine (internal). The public half,
 * cutoff_topology_describe() and cutoff_topology_plan(), is in cutoff.h (section 6); the
 * placement rules open topo.c.
 *
 * A topology is passed as `void *` (a hwloc_topology_t) so that this header, like
 * cutoff.h, does not drag hwloc.h into every file that includes it.
 */
#ifndef CUTOFF_TOPO_H
#define CUTOFF_TOPO_H

#include "cutoff.h"

/*
 * Initialises and loads this machine's topology into *topology, restricted to what this
 * process may use: hwloc already leaves out the CPUs and NUMA nodes that cgroups forbid,
 * and this also leaves out the CPUs outside the process's binding (taskset,
 * sched_setaffinity), which hwloc counts as allowed. HWLOC_SYNTHETIC, HWLOC_XMLFILE and
 * the other hwloc environment variables are honoured by hwloc itself; such a topology is
 * not this system's, is taken whole, and cannot bind (cutoff_topology_bind_thread says
 * CUTOFF_ENOTSUP). Takes some milliseconds.
 *
 * Returns 0 with *topology set; CUTOFF_EINVAL when topology is NULL; CUTOFF_ENOMEM; or
 * CUTOFF_ENOTSUP when hwloc cannot load a topology at all. On failure *topology is NULL.
 * The caller frees it with cutoff_topology_free().
 */
int cutoff_topology_load(void **topology);

/* Destroys a topology from cutoff_topology_load(). NULL is ignored. */
void cutoff_topology_free(void *topology);

/*
 * Binds the calling thread to the processing unit whose operating-system index is `pu`
 * (as cutoff_topology_plan() gives it). Thread-safe: any number of threads may bind
 * themselves at once through one loaded topology, which is only read.
 *
 * Returns 0 once bound; CUTOFF_EINVAL when topology is NULL or `pu` is not an allowed PU
 * of it; CUTOFF_ENOTSUP when binding is unsupported (a synthetic or XML topology, a system
 * without thread binding) or the system refuses it; CUTOFF_ENOMEM. On failure the
 * thread's binding is unchanged.
 */
int cutoff_topology_bind_thread(void *topology, int pu);

#endif /* CUTOFF_TOPO_H */
