/* SPDX-License-Identifier: MIT */
/*
 * transport.h — what the cluster layer's protocol (cluster.c) needs of a message-passing
 * library (internal): non-blocking point-to-point messages and five non-blocking
 * collectives over one group of ranks, each completed by `test`. Two implement it: MPI
 * (transport_mpi.c) and the simulator's network of ranks in virtual time
 * (transport_sim.c); the protocol names neither, so that both carry it unchanged.
 *
 * Contract, as MPI's: every call is made by one thread of the rank at a time; the
 * collectives are called in the same order by every rank of the group; a request is
 * started once and then tested until `test` says done (or, a receive, cancelled), and
 * its buffers stay untouched until then. Messages carry a tag and are received from any
 * source; `test` of a receive gives its size in bytes.
 */
#ifndef CUTOFF_CLUSTER_TRANSPORT_H
#define CUTOFF_CLUSTER_TRANSPORT_H

#include <stdbool.h>
#include <stdint.h>

/* A request in flight, opaque: big enough for an MPI_Request of any implementation. */
typedef struct cutoff_req {
	uint64_t word[2];
} cutoff_req_t;

typedef enum cutoff_dtype {
	CUTOFF_DT_I64,
	CUTOFF_DT_U64,
	CUTOFF_DT_F64
} cutoff_dtype_t;

typedef enum cutoff_op {
	CUTOFF_OP_SUM,
	CUTOFF_OP_MIN,
	CUTOFF_OP_MAX
} cutoff_op_t;

typedef struct cutoff_transport {
	void *ctx;      /* the implementation's, passed to every call */
	int rank, size; /* this rank in the group, and the group's size */
	void (*isend)(void *ctx, const void *buf, int bytes, int dest, int tag, cutoff_req_t *req);
	void (*irecv)(void *ctx, void *buf, int bytes, int tag, cutoff_req_t *req);
	/* True once the request is complete; for a receive, *bytes (when not NULL) is then
	 * the size of the message taken. */
	bool (*test)(void *ctx, cutoff_req_t *req, int *bytes);
	/* Cancels a receive that no message will match, and completes it. */
	void (*cancel)(void *ctx, cutoff_req_t *req);
	void (*iallreduce)(void *ctx, const void *in, void *out, int n, cutoff_dtype_t type,
	                   cutoff_op_t op, cutoff_req_t *req);
	/* Each rank's in[0 .. size) summed over the ranks; rank r gets element r in *out. */
	void (*ireduce_scatter_u64)(void *ctx, const uint64_t *in, uint64_t *out,
	                            cutoff_req_t *req);
	/* Each rank's `bytes` of in, every rank's into out in rank order. */
	void (*iallgather)(void *ctx, const void *in, int bytes, void *out, cutoff_req_t *req);
	void (*ibcast)(void *ctx, void *buf, int bytes, int root, cutoff_req_t *req);
	/* The clock the protocol's timers and time-outs read (ns), and a pause of about `ns`
	 * while it waits for the others: real for MPI, virtual in a simulation. */
	uint64_t (*now_ns)(void *ctx);
	void (*nap)(void *ctx, uint64_t ns);
	/* True when a rank has left the group before making every collective call this rank
	 * has made: what this rank waits for will never come. NULL where a rank can fall
	 * silent (MPI: a time-out on the clock finds it). The simulated network sets it and
	 * has no time-out: its barriers wait for every rank in real time, so a rank is never
	 * silent there, only gone, and its clock is virtual, so that how long a rank takes
	 * between two polls depends on the cost model without limit. */
	bool (*deserted)(void *ctx);
	void (*destroy)(void *ctx);
} cutoff_transport_t;

#endif /* CUTOFF_CLUSTER_TRANSPORT_H */
