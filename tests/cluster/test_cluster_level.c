/* SPDX-License-Identifier: MIT */
/*
 * test_cluster_level.c — cutoff_cluster_new refuses what it cannot run on: MPI not yet
 * initialized, and MPI initialized with a thread level below MPI_THREAD_MULTIPLE (here
 * MPI_THREAD_FUNNELED asked for: Open MPI grants what is asked), both CUTOFF_ENOTSUP with
 * no collective call made; a bad configuration is CUTOFF_EINVAL. Run under mpirun with 2
 * ranks; prints "N passed, N failed" on rank 0.
 */
#include <mpi.h>
#include <stdio.h>

#include "cutoff_cluster.h"

int main(int argc, char **argv)
{
	int err = 0, passed = 0, failed = 0, provided, rank;
#define CHECK(c, what)                                                                             \
	do {                                                                                       \
		if (c)                                                                             \
			passed++;                                                                  \
		else {                                                                             \
			failed++;                                                                  \
			fprintf(stderr, "FAIL: %s\n", what);                                       \
		}                                                                                  \
	} while (0)
	CHECK(!cutoff_cluster_new(MPI_COMM_WORLD, NULL, &err) && err == CUTOFF_ENOTSUP,
	      "before MPI_Init: CUTOFF_ENOTSUP");
	MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	err = 0;
	cutoff_cluster_t *cl = cutoff_cluster_new(MPI_COMM_WORLD, NULL, &err);
	if (provided < MPI_THREAD_MULTIPLE)
		CHECK(!cl && err == CUTOFF_ENOTSUP, "thread level below MULTIPLE: CUTOFF_ENOTSUP");
	else
		fprintf(stderr, "note: MPI granted MPI_THREAD_MULTIPLE for FUNNELED\n");
	cutoff_cluster_free(cl);
	cutoff_cluster_config_t c;
	cutoff_cluster_config_default(&c);
	c.timeout_ms = 5;
	CHECK(!cutoff_cluster_new(MPI_COMM_WORLD, &c, &err) && err == CUTOFF_EINVAL,
	      "timeout 5 ms: CUTOFF_EINVAL");
	MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	if (rank == 0)
		printf("%d passed, %d failed\n", passed, failed);
	MPI_Finalize();
	return failed ? 1 : 0;
}
