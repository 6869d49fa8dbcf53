/* SPDX-License-Identifier: MIT */
/*
 * transport_sim.h — the cluster transport over a simulated network, cutoff_net_t (internal;
 * built only into the `cutoff sim` program and the simulator's tests): R ranks, each an OS
 * thread with a simulator of its own installed (sim/sim.h), exchanging the cluster
 * protocol's messages and collectives (src/cluster/transport.h) in virtual time, with a
 * modelled latency. docs/simulation.md, "Ranks".
 *
 * Time. The ranks' virtual clocks advance independently, each in its own simulator; they
 * meet at barriers every `epoch` ns of virtual time (a rank's transport call, or its nap,
 * that finds its clock past its next barrier waits there, in real time, for every rank
 * still on the network). Nothing crosses from one rank to another except at a barrier:
 * what a rank sent, and the collective calls it made, during an epoch are handed over at
 * the barrier that ends it, in rank order. A message sent at virtual time t is then
 * deliverable from max(t + latency, that barrier's time); a collective completes on each
 * rank at max(the latest start among the ranks + latency, the barrier that saw its last
 * contribution). So every rank sees the same things at the same virtual times whatever
 * the OS does with the threads: a run is as deterministic as each rank's simulator.
 * (The exchange is conservative simulation with a lookahead of one epoch; the cost is
 * that a message's latency is rounded up to the next barrier when the epoch is longer.
 * An epoch shorter than the latency is the latency's: the barriers between would change
 * no time above, only cost the real time of the ranks' meetings.)
 *
 * Ownership. The network's shared state (inboxes, the collectives' table) is written only
 * at a barrier, by the last rank to arrive, under the network's mutex; a rank's outbox
 * and its posted receives are its own thread's. A rank that is done leaves
 * (cutoff_net_leave): the barriers stop waiting for it, and a rank that waits for a
 * collective call the leaver never made learns it from the transport's `deserted`
 * (transport.h), in place of a time-out (no rank here is silent but a departed one).
 */
#ifndef CUTOFF_CLUSTER_TRANSPORT_SIM_H
#define CUTOFF_CLUSTER_TRANSPORT_SIM_H

#include <stdint.h>

#include "cluster/transport.h"

typedef struct cutoff_net cutoff_net_t;

/* A network of `ranks` (1 .. 64), with a message latency and a barrier every `epoch_ns`
 * (> 0; the latency when that is longer) of virtual time from `start_ns` (every rank's
 * virtual time when it joins). NULL when out of memory or for bad arguments. */
cutoff_net_t *cutoff_net_new(int ranks, uint64_t latency_ns, uint64_t epoch_ns, uint64_t start_ns);

/* The virtual time between two barriers of a network made with these: the epoch, or
 * the latency when that is longer. */
static inline uint64_t cutoff_net_epoch(uint64_t latency_ns, uint64_t epoch_ns)
{
	return epoch_ns > latency_ns ? epoch_ns : latency_ns;
}

/* Frees the network, once every rank has left. */
void cutoff_net_free(cutoff_net_t *net);

/* Rank r's transport (to be used on the OS thread that has rank r's simulator installed).
 * Its destroy does not free the network. */
void cutoff_net_transport(cutoff_net_t *net, int rank, cutoff_transport_t *tp);

/* Rank r is done: the barriers no longer wait for it. */
void cutoff_net_leave(cutoff_net_t *net, int rank);

#endif /* CUTOFF_CLUSTER_TRANSPORT_SIM_H */
