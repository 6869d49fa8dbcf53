/* SPDX-License-Identifier: MIT */
/*
 * mpi_probe.c — what Open MPI gives the cluster driver here (issue 16): the thread level
 * granted, a message's latency between two ranks (ping-pong of small and table-entry-batch
 * sizes), and the cost of a non-blocking allreduce polled to completion (the driver's stop
 * and node-count exchange).
 *
 * Standalone, not built by CMake (the cluster layer will be):
 *
 *   apt-get install libopenmpi-dev openmpi-bin
 *   mpicc -O2 bench/mpi_probe.c -o /tmp/mpi_probe
 *   OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
 *       mpirun --oversubscribe -np 2 /tmp/mpi_probe
 *
 * Rank 0 prints the medians of ROUNDS repeats of TRIPS round trips each.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	ROUNDS = 7,
	TRIPS = 20000
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return v[n / 2];
}

/* One-way latency (us) of `bytes`-byte messages between ranks 0 and 1. */
static double pingpong(int rank, int bytes, char *buf)
{
	double v[ROUNDS];
	for (int r = 0; r < ROUNDS; r++) {
		MPI_Barrier(MPI_COMM_WORLD);
		double t0 = MPI_Wtime();
		for (int i = 0; i < TRIPS; i++) {
			if (rank == 0) {
				MPI_Send(buf, bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
				MPI_Recv(buf, bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			} else if (rank == 1) {
				MPI_Recv(buf, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
				MPI_Send(buf, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
			}
		}
		v[r] = (MPI_Wtime() - t0) / TRIPS / 2 * 1e6;
	}
	return median(v, ROUNDS);
}

/* The time (us) of an MPI_Iallreduce of two 64-bit sums, polled with MPI_Test. */
static double iallreduce(void)
{
	double v[ROUNDS];
	for (int r = 0; r < ROUNDS; r++) {
		MPI_Barrier(MPI_COMM_WORLD);
		double t0 = MPI_Wtime();
		for (int i = 0; i < TRIPS / 10; i++) {
			unsigned long long in[2] = { 1, (unsigned long long)i }, out[2];
			MPI_Request req;
			MPI_Iallreduce(in, out, 2, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD, &req);
			for (int done = 0; !done;)
				MPI_Test(&req, &done, MPI_STATUS_IGNORE);
		}
		v[r] = (MPI_Wtime() - t0) / (TRIPS / 10) * 1e6;
	}
	return median(v, ROUNDS);
}

int main(int argc, char **argv)
{
	int provided, rank, size;
	MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	const char *level = provided == MPI_THREAD_MULTIPLE     ? "MPI_THREAD_MULTIPLE"
	                    : provided == MPI_THREAD_SERIALIZED ? "MPI_THREAD_SERIALIZED"
	                    : provided == MPI_THREAD_FUNNELED   ? "MPI_THREAD_FUNNELED"
	                                                        : "MPI_THREAD_SINGLE";
	if (rank == 0) {
		char version[MPI_MAX_LIBRARY_VERSION_STRING];
		int len;
		MPI_Get_library_version(version, &len);
		printf("ranks %d; thread level asked MPI_THREAD_MULTIPLE, granted %s\n", size, level);
		printf("library: %.*s\n", (int)strcspn(version, "\n"), version);
	}
	if (size >= 2) {
		static char buf[1 << 16];
		int sizes[] = { 8, 512, 4096, 32768 }; /* a word; batches of 32..2048 16-byte entries */
		for (int k = 0; k < 4; k++) {
			double us = pingpong(rank, sizes[k], buf);
			if (rank == 0)
				printf("one-way latency, %5d bytes: %.2f us (median of %d x %d round trips)\n",
				       sizes[k], us, ROUNDS, TRIPS);
		}
		double us = iallreduce();
		if (rank == 0)
			printf("Iallreduce of 2 sums, polled: %.2f us (median of %d x %d)\n", us, ROUNDS,
			       TRIPS / 10);
	}
	MPI_Finalize();
	return 0;
}
