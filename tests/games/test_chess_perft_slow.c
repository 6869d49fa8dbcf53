/* SPDX-License-Identifier: MIT */
/*
 * Chess perft, the deep counts: every count of CUTOFF_DATA_DIR/chess/perft.epd above 5
 * million nodes (test_chess_perft runs the others), up to the start position at depth 7
 * and Kiwipete at depth 6 — about 23 billion leaves in all, some 40 s on one core of a
 * 2020s x86 machine. "skipped: data not found" when the file is missing.
 *
 * cutoff-test-labels: chess slow
 * cutoff-test-timeout: 3600
 */
#include <inttypes.h>
#include <time.h>

#include "check.h"
#include "chess_epd.h"
#include "cutoff_games.h"

#define CORE_LIMIT UINT64_C(5000000)

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(void)
{
	int err;
	cutoff_chess_t *chess = cutoff_chess_new(&err);
	CHECK(chess != NULL, "cutoff_chess_new: %s", cutoff_strerror(err));
	if (!chess)
		return check_report();
	static epd_position_t pos[EPD_MAX_POSITIONS];
	int npos = epd_read_perft(chess, pos, EPD_MAX_POSITIONS);
	CHECK(npos != -2, "perft.epd is malformed");
	if (npos < 0) {
		cutoff_chess_free(chess);
		return check_skip("perft.epd: data not found");
	}
	int checked = 0;
	for (int i = 0; i < npos; i++) {
		cutoff_chess_state_t st;
		char msg[200];
		int rc = cutoff_chess_parse_fen(chess, pos[i].fen, &st, msg, sizeof(msg));
		CHECK(rc == 0, "perft.epd line %d: %s", i + 1, msg);
		if (rc != 0)
			continue;
		for (int k = 0; k < pos[i].ndepths; k++) {
			if (pos[i].count[k] <= CORE_LIMIT)
				continue;
			uint64_t n = 0;
			double t0 = now_s();
			rc = cutoff_chess_perft(chess, &st, pos[i].depth[k], &n);
			double dt = now_s() - t0;
			CHECK(rc == 0 && n == pos[i].count[k],
			      "perft.epd line %d (%s): perft %d is %" PRIu64 ", expected %" PRIu64,
			      i + 1, pos[i].fen, pos[i].depth[k], n, pos[i].count[k]);
			printf("line %d depth %d: %" PRIu64 " nodes in %.2f s (%.0f M/s)\n", i + 1,
			       pos[i].depth[k], n, dt, dt > 0 ? (double)n / dt / 1e6 : 0.0);
			fflush(stdout);
			checked++;
		}
	}
	printf("perft.epd: %d deep counts checked\n", checked);
	cutoff_chess_free(chess);
	return check_report();
}
