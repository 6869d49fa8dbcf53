/* SPDX-License-Identifier: MIT */
/*
 * transport_mpi.c — the cluster's transport (transport.h) over MPI, and the public
 * constructor that checks MPI's state and makes a cluster over a communicator
 * (cutoff_cluster_new, include/cutoff_cluster.h). The context is a duplicate of the
 * caller's communicator, owned here and freed by `destroy`.
 */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/platform.h"
#include "cluster/cluster.h"

_Static_assert(sizeof(MPI_Request) <= sizeof(cutoff_req_t), "an MPI_Request fits a request");

typedef struct mpi_ctx {
	MPI_Comm comm;
} mpi_ctx_t;

static MPI_Request *req_of(cutoff_req_t *r) { return (MPI_Request *)(void *)r->word; }

static MPI_Datatype dtype(cutoff_dtype_t t)
{
	return t == CUTOFF_DT_I64 ? MPI_INT64_T : t == CUTOFF_DT_U64 ? MPI_UINT64_T : MPI_DOUBLE;
}

static MPI_Op mpi_op(cutoff_op_t op)
{
	return op == CUTOFF_OP_MIN ? MPI_MIN : op == CUTOFF_OP_MAX ? MPI_MAX : MPI_SUM;
}

static void t_isend(void *ctx, const void *buf, int bytes, int dest, int tag, cutoff_req_t *req)
{
	mpi_ctx_t *m = ctx;
	MPI_Isend(buf, bytes, MPI_BYTE, dest, tag, m->comm, req_of(req));
}

static void t_irecv(void *ctx, void *buf, int bytes, int tag, cutoff_req_t *req)
{
	mpi_ctx_t *m = ctx;
	MPI_Irecv(buf, bytes, MPI_BYTE, MPI_ANY_SOURCE, tag, m->comm, req_of(req));
}

static bool t_test(void *ctx, cutoff_req_t *req, int *bytes)
{
	(void)ctx;
	int done = 0;
	MPI_Status st;
	MPI_Test(req_of(req), &done, &st);
	if (done && bytes)
		MPI_Get_count(&st, MPI_BYTE, bytes);
	return done;
}

static void t_cancel(void *ctx, cutoff_req_t *req)
{
	(void)ctx;
	MPI_Cancel(req_of(req));
	MPI_Wait(req_of(req), MPI_STATUS_IGNORE);
}

static void t_iallreduce(void *ctx, const void *in, void *out, int n, cutoff_dtype_t type,
                         cutoff_op_t op, cutoff_req_t *req)
{
	mpi_ctx_t *m = ctx;
	MPI_Iallreduce(in, out, n, dtype(type), mpi_op(op), m->comm, req_of(req));
}

static void t_ireduce_scatter_u64(void *ctx, const uint64_t *in, uint64_t *out, cutoff_req_t *req)
{
	mpi_ctx_t *m = ctx;
	MPI_Ireduce_scatter_block(in, out, 1, MPI_UINT64_T, MPI_SUM, m->comm, req_of(req));
}

static void t_iallgather(void *ctx, const void *in, int bytes, void *out, cutoff_req_t *req)
{
	mpi_ctx_t *m = ctx;
	MPI_Iallgather(in, bytes, MPI_BYTE, out, bytes, MPI_BYTE, m->comm, req_of(req));
}

static void t_ibcast(void *ctx, void *buf, int bytes, int root, cutoff_req_t *req)
{
	mpi_ctx_t *m = ctx;
	MPI_Ibcast(buf, bytes, MPI_BYTE, root, m->comm, req_of(req));
}

static uint64_t t_now_ns(void *ctx)
{
	(void)ctx;
	return cutoff_now_ns();
}

static void t_nap(void *ctx, uint64_t ns)
{
	(void)ctx;
	struct timespec ts = { (time_t)(ns / 1000000000u), (long)(ns % 1000000000u) };
	nanosleep(&ts, NULL);
}

static void t_destroy(void *ctx)
{
	mpi_ctx_t *m = ctx;
	if (m && m->comm != MPI_COMM_NULL)
		MPI_Comm_free(&m->comm);
	free(m);
}

cutoff_cluster_t *cutoff_cluster_new(MPI_Comm comm, const cutoff_cluster_config_t *cfg, int *err)
{
	int dummy, initialized = 0, finalized = 0, level = MPI_THREAD_SINGLE;
	if (!err)
		err = &dummy;
	if (cfg && !cutoff_cluster_config_ok(cfg)) {
		*err = CUTOFF_EINVAL; /* before any collective call */
		return NULL;
	}
	MPI_Initialized(&initialized);
	MPI_Finalized(&finalized);
	if (!initialized || finalized || MPI_Query_thread(&level) != MPI_SUCCESS ||
	    level < MPI_THREAD_MULTIPLE) {
		*err = CUTOFF_ENOTSUP;
		return NULL;
	}
	mpi_ctx_t *m = calloc(1, sizeof(*m));
	if (!m) {
		*err = CUTOFF_ENOMEM;
		return NULL;
	}
	if (MPI_Comm_dup(comm, &m->comm) != MPI_SUCCESS) {
		free(m);
		*err = CUTOFF_EINVAL;
		return NULL;
	}
	cutoff_transport_t tp = {
		.ctx = m,
		.isend = t_isend,
		.irecv = t_irecv,
		.test = t_test,
		.cancel = t_cancel,
		.iallreduce = t_iallreduce,
		.ireduce_scatter_u64 = t_ireduce_scatter_u64,
		.iallgather = t_iallgather,
		.ibcast = t_ibcast,
		.now_ns = t_now_ns,
		.nap = t_nap,
		.destroy = t_destroy,
	};
	MPI_Comm_rank(m->comm, &tp.rank);
	MPI_Comm_size(m->comm, &tp.size);
	/* The cluster owns the transport from here, even when it fails. */
	return cutoff_cluster_make(&tp, cfg, err);
}
