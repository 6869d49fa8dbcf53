/* SPDX-License-Identifier: MIT */
/*
 * test_mpi_env.c — the MPI environment the cluster driver (issue 16, docs/cluster.md) needs,
 * checked where it will run: under mpirun with 2 or more ranks.
 *
 * Checks: the thread level granted is MPI_THREAD_MULTIPLE (the driver's communication
 * thread beside its search threads); a ring exchange (each rank sends a batch of 16-byte
 * table entries to the next and receives the previous rank's, non-blocking, as the
 * driver's table sharing will); and a non-blocking allreduce polled to completion (its
 * stop and node counts). Each rank checks what it received; rank 0 gathers the failures
 * and prints "N passed, N failed"; every rank exits non-zero on a failure anywhere.
 */
#include <inttypes.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>

enum {
	ENTRIES = 256 /* one batch: 4 KiB */
};

typedef struct entry {
	uint64_t key, data;
} entry_t;

static int failures, checks;

static void check(int rank, int ok, const char *what)
{
	checks++;
	if (!ok) {
		failures++;
		fprintf(stderr, "FAIL rank %d: %s\n", rank, what);
	}
}

static uint64_t key_of(int rank, int i)
{
	return (uint64_t)rank * 0x9e3779b97f4a7c15u + (uint64_t)i;
}

int main(int argc, char **argv)
{
	int provided, rank, size;
	if (MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided) != MPI_SUCCESS) {
		fprintf(stderr, "FAIL: MPI_Init_thread\n");
		return 1;
	}
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	check(rank, provided == MPI_THREAD_MULTIPLE, "MPI_THREAD_MULTIPLE not granted");
	check(rank, size >= 2, "run it with at least 2 ranks");

	/* The ring: rank r sends to r+1 and receives from r-1. */
	static entry_t out[ENTRIES], in[ENTRIES];
	for (int i = 0; i < ENTRIES; i++)
		out[i] = (entry_t){ key_of(rank, i), (uint64_t)i ^ 0xabcdu };
	int next = (rank + 1) % size, prev = (rank + size - 1) % size;
	MPI_Request req[2];
	MPI_Irecv(in, (int)sizeof(in), MPI_BYTE, prev, 7, MPI_COMM_WORLD, &req[0]);
	MPI_Isend(out, (int)sizeof(out), MPI_BYTE, next, 7, MPI_COMM_WORLD, &req[1]);
	MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
	int whole = 1;
	for (int i = 0; i < ENTRIES; i++)
		whole &= in[i].key == key_of(prev, i) && in[i].data == ((uint64_t)i ^ 0xabcdu);
	check(rank, whole, "the ring's batch is not the previous rank's");

	/* The polled allreduce: the sum of the ranks and a node count. */
	uint64_t mine[2] = { (uint64_t)rank, 1000u * (uint64_t)(rank + 1) }, sum[2];
	MPI_Request ar;
	MPI_Iallreduce(mine, sum, 2, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD, &ar);
	for (int done = 0; !done;)
		MPI_Test(&ar, &done, MPI_STATUS_IGNORE);
	uint64_t n = (uint64_t)size;
	check(rank, sum[0] == n * (n - 1) / 2 && sum[1] == 1000u * n * (n + 1) / 2,
	      "the allreduce's sums");

	int total = 0;
	MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	if (rank == 0)
		printf("%d ranks: %d passed, %d failed\n", size, checks * size - total, total);
	MPI_Finalize();
	return total != 0;
}
