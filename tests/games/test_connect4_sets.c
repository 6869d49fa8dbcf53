/* SPDX-License-Identifier: MIT */
/*
 * test_connect4_sets.c — every position of Pons' easy and medium Connect Four test sets,
 * solved exactly by every driver, against the scores in the files.
 *
 * cutoff-test-labels: slow
 * cutoff-test-timeout: 7200
 *
 * The sets: Test_L3_R1, Test_L2_R1, Test_L1_R1 (easy), Test_L2_R2, Test_L1_R2 (medium),
 * 1000 positions each, read from CUTOFF_DATA_DIR/connect4 at run time ("skipped: data not
 * found" when the folder is missing). Each position is solved on a cleared table (the
 * bisection method, ordering TT and hints) by the serial driver, and by lazy SMP and YBW at
 * 2 threads; every score must equal the file's. Test_L1_R3 (Begin-Hard, about 10 s a
 * position for Pons' solver) is left to the benchmark. It takes about 20 minutes on a
 * 2-core machine, most of it in Test_L1_R2.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "cutoff.h"
#include "cutoff_games.h"

typedef struct position {
	cutoff_connect4_state_t st;
	int score;
} position_t;

enum {
	SET_LINES = 1000
};

/* Reads a whole set; the number of positions, or -1 when the file is missing. */
static int read_set(const char *dir, const char *name, position_t *out)
{
	char path[1024], line[256];
	snprintf(path, sizeof(path), "%s/connect4/%s", dir, name);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	int n = 0;
	for (int no = 1; n < SET_LINES && fgets(line, sizeof(line), f); no++) {
		char moves[128];
		int score;
		if (sscanf(line, "%127s %d", moves, &score) != 2 ||
		    cutoff_connect4_parse(moves, &out[n].st, NULL, 0) != 0) {
			CHECK(false, "%s line %d is not '<moves> <score>'", name, no);
			continue;
		}
		out[n++].score = score;
	}
	fclose(f);
	return n;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(void)
{
	static const char *const sets[] = { "Test_L3_R1", "Test_L2_R1", "Test_L1_R1", "Test_L2_R2",
		                            "Test_L1_R2" };
	static const struct {
		cutoff_driver_t driver;
		int threads;
		const char *name;
	} runs[] = {
		{ CUTOFF_DRIVER_SERIAL, 1, "serial" },
		{ CUTOFF_DRIVER_LAZYSMP, 2, "lazysmp x2" },
		{ CUTOFF_DRIVER_YBW, 2, "ybw x2" },
	};
	const char *dir = getenv("CUTOFF_DATA_DIR");
	static position_t pos[SET_LINES];
	double start = now_s();

	for (size_t k = 0; k < sizeof(sets) / sizeof(sets[0]); k++) {
		int n = dir ? read_set(dir, sets[k], pos) : -1;
		if (n < 0) {
			printf("CUTOFF_DATA_DIR/connect4/%s: not found\n", sets[k]);
			return check_skip("data not found");
		}
		for (size_t r = 0; r < sizeof(runs) / sizeof(runs[0]); r++) {
			cutoff_config_t cfg;
			cutoff_config_default(&cfg);
			cfg.driver = runs[r].driver;
			cfg.threads = runs[r].threads;
			cfg.tt_mb = 8;
			cfg.ordering = CUTOFF_ORDER_TT | CUTOFF_ORDER_HINTS;
			int err;
			cutoff_engine_t *e = cutoff_engine_new(cutoff_connect4_game(), &cfg, &err);
			CHECK(e != NULL, "engine %s: %s", runs[r].name, cutoff_strerror(err));
			if (!e)
				continue;
			int bad = 0;
			uint64_t nodes = 0;
			double t0 = now_s(), solving = 0;
			for (int i = 0; i < n; i++) {
				cutoff_connect4_solution_t s;
				cutoff_engine_clear(e);
				int rc = cutoff_connect4_solve(e, &pos[i].st, false,
				                               CUTOFF_CONNECT4_BISECT, &s);
				nodes += s.nodes;
				solving += s.time_s;
				if (rc != 0 || s.score != pos[i].score) {
					if (bad < 10)
						printf("  %s %s line %d: score %d, the file says "
						       "%d\n",
						       runs[r].name, sets[k], i + 1, s.score,
						       pos[i].score);
					bad++;
				}
			}
			CHECK(bad == 0, "%s, %s: %d of %d scores differ", sets[k], runs[r].name,
			      bad, n);
			printf("%s, %s: %d positions, %d mismatches, mean %.0f nodes, %.4f s "
			       "(%.1f s in all)\n",
			       sets[k], runs[r].name, n, bad, (double)nodes / n, solving / n,
			       now_s() - t0);
			fflush(stdout);
			cutoff_engine_free(e);
		}
	}
	printf("every set, every driver: %.0f s\n", now_s() - start);
	return check_report();
}
