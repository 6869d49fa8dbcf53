/* SPDX-License-Identifier: MIT */
/*
 * cmd_perft.c — `cutoff perft`: counts the leaves of the legal-move tree of a chess position,
 * the standard exactness test (and speed test) of a move generator.
 *
 * With --threads N the root moves are shared out among N threads: each takes the next
 * root move not yet taken (under a mutex, once per root move) and counts its subtree with
 * cutoff_chess_perft(); the counts go into a per-move slot that only that thread writes,
 * and are read after every thread has been joined. The chess context is read-only and
 * shared.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/commands.h"
#include "cutoff.h"
#include "cutoff_games.h"
#include "kit/args.h"
#include "kit/json.h"
#include "kit/report.h"

/* clang-format off */
static const char perft_usage[] =
	"usage: cutoff perft [--fen FEN] --depth D [--divide] [--threads N] [--json]\n"
	"\n"
	"Counts the leaf nodes of the tree of legal moves D plies deep (perft), the last\n"
	"ply counted without being played.\n";
/* clang-format on */

typedef struct perft_job {
	const cutoff_chess_t *chess;
	const cutoff_chess_state_t *children; /* [nmoves] the positions after each root move */
	uint64_t *counts;                     /* [nmoves] written by the thread that took it */
	int nmoves;
	int depth; /* below each child */
	pthread_mutex_t lock;
	int next; /* the next root move to take; under lock */
} perft_job_t;

static void *perft_worker(void *arg)
{
	perft_job_t *job = arg;
	for (;;) {
		pthread_mutex_lock(&job->lock);
		int i = job->next < job->nmoves ? job->next++ : -1;
		pthread_mutex_unlock(&job->lock);
		if (i < 0)
			return NULL;
		uint64_t n = 0;
		/* Cannot fail: the depth was checked and the child is a real position. */
		(void)cutoff_chess_perft(job->chess, &job->children[i], job->depth, &n);
		job->counts[i] = n;
	}
}

typedef struct root_move {
	char text[CUTOFF_CHESS_MOVE_SIZE];
	uint64_t nodes;
} root_move_t;

static int by_text(const void *a, const void *b)
{
	return strcmp(((const root_move_t *)a)->text, ((const root_move_t *)b)->text);
}

/* Runs the threads over the root moves; CLI_EXIT_OK with counts[] filled. */
static int run_threads(perft_job_t *job, int threads)
{
	pthread_t tid[256];
	int started = 0, status = CLI_EXIT_OK;
	if (threads > job->nmoves)
		threads = job->nmoves > 0 ? job->nmoves : 1;
	for (; started < threads - 1; started++) {
		if (pthread_create(&tid[started], NULL, perft_worker, job) != 0) {
			cli_error("perft", "cannot create thread %d", started + 2);
			status = CLI_EXIT_FAIL;
			break;
		}
	}
	/* The calling thread works too; with a failed start it finishes the job alone. */
	perft_worker(job);
	for (int i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
	return status;
}

/* Counts below each root move, `threads` threads sharing the root moves, into moves[]
 * (sorted by the move's text), *nmoves and *total. */
static int count_divided(const cutoff_chess_t *chess, const cutoff_chess_state_t *root, int depth,
                         int threads, root_move_t *moves, int *nmoves, uint64_t *total)
{
	static cutoff_chess_state_t children[CUTOFF_MAX_MOVES];
	static uint64_t counts[CUTOFF_MAX_MOVES];
	cutoff_move_t list[CUTOFF_MAX_MOVES];
	int n = cutoff_chess_moves(chess, root, list);
	for (int i = 0; i < n; i++) {
		(void)cutoff_chess_play(chess, root, list[i], &children[i]);
		counts[i] = 0;
	}
	perft_job_t job = { .chess = chess,
		            .children = children,
		            .counts = counts,
		            .nmoves = n,
		            .depth = depth - 1,
		            .next = 0 };
	pthread_mutex_init(&job.lock, NULL);
	int status = run_threads(&job, threads);
	pthread_mutex_destroy(&job.lock);
	for (int i = 0; i < n; i++) {
		*total += counts[i];
		cutoff_chess_move_str(list[i], moves[i].text, sizeof(moves[i].text));
		moves[i].nodes = counts[i];
	}
	qsort(moves, (size_t)n, sizeof(moves[0]), by_text);
	*nmoves = n;
	return status;
}

/* What the report shows. */
typedef struct perft_report {
	char fen[CUTOFF_CHESS_FEN_SIZE];
	int64_t depth, threads;
	bool divide;
	uint64_t total;
	double elapsed;
	const root_move_t *moves; /* with --divide: nmoves of them */
	int nmoves;
} perft_report_t;

static int print_json(const perft_report_t *rep)
{
	json_writer_t w;
	jw_init(&w, stdout);
	jw_begin_object(&w, NULL);
	jw_string(&w, "fen", rep->fen);
	jw_int(&w, "depth", rep->depth);
	jw_int(&w, "threads", rep->threads);
	jw_uint(&w, "nodes", rep->total);
	jw_double(&w, "time_s", rep->elapsed);
	jw_double(&w, "nps", cli_per_second(rep->total, rep->elapsed));
	if (rep->divide) {
		jw_begin_array(&w, "divide");
		for (int i = 0; i < rep->nmoves; i++) {
			jw_begin_object(&w, NULL);
			jw_string(&w, "move", rep->moves[i].text);
			jw_uint(&w, "nodes", rep->moves[i].nodes);
			jw_end(&w);
		}
		jw_end(&w);
	}
	jw_end(&w);
	return cli_json_finish(&w, "perft");
}

static void print_text(const perft_report_t *rep)
{
	if (rep->divide) {
		for (int i = 0; i < rep->nmoves; i++)
			printf("%s: %" PRIu64 "\n", rep->moves[i].text, rep->moves[i].nodes);
		printf("\n");
	}
	cli_field(stdout, "position", "%s", rep->fen);
	cli_field(stdout, "depth", "%" PRId64, rep->depth);
	cli_field(stdout, "threads", "%" PRId64, rep->threads);
	cli_field(stdout, "nodes", "%" PRIu64, rep->total);
	cli_field(stdout, "time", "%.3f s", rep->elapsed);
	cli_field(stdout, "nodes per second", "%.0f", cli_per_second(rep->total, rep->elapsed));
}

/* Counts the position's tree into *rep; CLI_EXIT_OK, or an exit status after one line. */
static int count(const char *fen, perft_report_t *rep)
{
	int err;
	cutoff_chess_t *chess = cutoff_chess_new(&err);
	if (!chess) {
		cli_fail("perft", "cannot make the chess tables", err, NULL);
		return CLI_EXIT_FAIL;
	}
	cutoff_chess_state_t root;
	char msg[200];
	if (cutoff_chess_parse_fen(chess, fen, &root, msg, sizeof(msg)) != 0) {
		cli_error("perft", "--fen: %s", msg);
		cutoff_chess_free(chess);
		return CLI_EXIT_USAGE;
	}
	static root_move_t moves[CUTOFF_MAX_MOVES];
	int status = CLI_EXIT_OK;
	double t0 = cli_now_s();
	if (!rep->divide && rep->threads == 1)
		(void)cutoff_chess_perft(chess, &root, (int)rep->depth, &rep->total);
	else
		status = count_divided(chess, &root, (int)rep->depth, (int)rep->threads, moves,
		                       &rep->nmoves, &rep->total);
	rep->elapsed = cli_now_s() - t0;
	rep->moves = moves;
	cutoff_chess_fen(chess, &root, rep->fen, sizeof(rep->fen));
	cutoff_chess_free(chess);
	return status;
}

int cli_perft(int argc, char **argv)
{
	const char *fen = CUTOFF_CHESS_START_FEN;
	perft_report_t rep = { .depth = 0, .threads = 1 };
	bool json = false;
	cli_opt_t opts[] = {
		CLI_STRING_OPT(
			"fen", &fen, "FEN",
			"the position (6 fields, or the first 4); default the start position"),
		CLI_INT_OPT("depth", &rep.depth, 1, CUTOFF_CHESS_MAX_PERFT, "D",
		            "plies, %r (required)"),
		CLI_FLAG_OPT("divide", &rep.divide,
		             "also print the count below each root move, in UCI notation"),
		CLI_INT_OPT("threads", &rep.threads, 1, 256, "N",
		            "share the root moves among N threads, %r; default %d"),
		CLI_FLAG_OPT("json", &json, "print one JSON object instead of the text report"),
	};
	const int nopts = (int)(sizeof(opts) / sizeof(opts[0]));
	cli_status_t st = cli_parse("perft", perft_usage, opts, nopts, argc, argv);
	if (st != CLI_PARSED)
		return cli_parse_exit(st);
	if (!cli_given(opts, nopts, "depth")) {
		cli_error("perft", "--depth is required (1..%d)", CUTOFF_CHESS_MAX_PERFT);
		return CLI_EXIT_USAGE;
	}
	int status = count(fen, &rep);
	if (status != CLI_EXIT_OK)
		return status;
	if (json)
		return print_json(&rep);
	print_text(&rep);
	return CLI_EXIT_OK;
}
