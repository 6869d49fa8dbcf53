/* SPDX-License-Identifier: MIT */
/*
 * cluster.h — the cluster layer's inside (internal): the protocol (cluster.c) made over a
 * transport (transport.h). The public API is include/cutoff_cluster.h; its constructor
 * over MPI lives with the MPI transport (transport_mpi.c).
 */
#ifndef CUTOFF_CLUSTER_INTERNAL_H
#define CUTOFF_CLUSTER_INTERNAL_H

#include "cluster/transport.h"
#include "cutoff_cluster.h"

/* True when every field of cfg is in range (cutoff_cluster_config_t). */
bool cutoff_cluster_config_ok(const cutoff_cluster_config_t *cfg);

/* A cluster over `tp` (copied; the cluster owns tp->ctx from here, and destroys it when it
 * is freed or when this fails), with cfg (NULL: the defaults). NULL with *err
 * CUTOFF_EINVAL (a bad cfg) or CUTOFF_ENOMEM. Not collective. */
cutoff_cluster_t *cutoff_cluster_make(const cutoff_transport_t *tp,
                                      const cutoff_cluster_config_t *cfg, int *err);

#endif /* CUTOFF_CLUSTER_INTERNAL_H */
