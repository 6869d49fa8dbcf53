/* SPDX-License-Identifier: MIT */
/*
 * test_cluster_fault.c — a rank that dies or hangs in the middle of a cluster search
 * (tests/cluster/cluster_fault.sh runs it under mpirun and judges the outcome).
 *
 * Every rank starts a long search (a random tree of depth 14, lazy SMP, iterative);
 * 300 ms in, the last rank kills itself (`kill`: SIGKILL, mpirun sees a process die) or
 * stops itself (`hang`: SIGSTOP, alive but silent). The others must end, not hang: after
 * a death, mpirun ends the job; after a hang, the cluster's bounded waits (timeout_ms 2000
 * here) return CUTOFF_EPEER, and this program says so ("cluster error: ...") and calls
 * MPI_Abort, as a front end should. Exits 0 only if the search completed, which is a
 * failure for the script.
 *
 * Usage: test_cluster_fault kill|hang
 */
#include <mpi.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cutoff_cluster.h"
#include "cutoff_games.h"

static int sig;

static void *fault_later(void *arg)
{
	(void)arg;
	struct timespec ts = { 0, 300 * 1000 * 1000 };
	nanosleep(&ts, NULL);
	fprintf(stderr, "test_cluster_fault: the last rank raises %s\n", strsignal(sig));
	raise(sig);
	return NULL;
}

int main(int argc, char **argv)
{
	int provided, rank, size;
	MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	sig = argc > 1 && strcmp(argv[1], "hang") == 0 ? SIGSTOP : SIGKILL;

	cutoff_cluster_config_t cc;
	cutoff_cluster_config_default(&cc);
	cc.timeout_ms = 2000;
	int err;
	cutoff_cluster_t *cl = cutoff_cluster_new(MPI_COMM_WORLD, &cc, &err);
	if (!cl) {
		fprintf(stderr, "cluster: %s\n", cutoff_strerror(err));
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	cutoff_rtree_params_t p;
	cutoff_rtree_params_default(&p);
	p.branching = 8;
	p.depth = 14;
	cutoff_rtree_t *tree = cutoff_rtree_new(&p, NULL);
	cutoff_rtree_state_t root;
	cutoff_rtree_root(tree, 1, &root);
	cutoff_config_t cfg;
	cutoff_config_default(&cfg);
	cfg.driver = CUTOFF_DRIVER_LAZYSMP;
	cutoff_cluster_configure(cl, &cfg);
	cutoff_engine_t *e = cutoff_engine_new(cutoff_rtree_game(tree), &cfg, NULL);
	static cutoff_result_t r;
	cutoff_limits_t lim;
	cutoff_limits_default(&lim);
	lim.depth = 14;
	lim.iterate = true;
	pthread_t th;
	if (rank == size - 1)
		pthread_create(&th, NULL, fault_later, NULL);
	int rc = cutoff_cluster_search(cl, e, &root, &lim, &r, NULL, NULL);
	if (rc == CUTOFF_EPEER) {
		fprintf(stderr, "cluster error: %s\n", cutoff_cluster_error(cl));
		MPI_Abort(MPI_COMM_WORLD, 3);
	}
	printf("rank %d: the search completed (%s): the fault was not seen\n", rank,
	       cutoff_strerror(rc));
	MPI_Finalize();
	return 0;
}
