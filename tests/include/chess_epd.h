/* SPDX-License-Identifier: MIT */
/*
 * chess_epd.h — reads the shared perft file, CUTOFF_DATA_DIR/chess/perft.epd, for the chess
 * tests: one position per line, "FEN ;D1 n1 ;D2 n2 ...", read by cutoff_chess_parse_epd. Not
 * a test itself (the glob takes only test_*.c).
 */
#ifndef CUTOFF_TEST_CHESS_EPD_H
#define CUTOFF_TEST_CHESS_EPD_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cutoff_games.h"

enum {
	EPD_MAX_POSITIONS = 64,
	EPD_MAX_DEPTHS = 16
};

typedef struct epd_position {
	char fen[128];
	int ndepths;
	int depth[EPD_MAX_DEPTHS];
	uint64_t count[EPD_MAX_DEPTHS];
} epd_position_t;

/*
 * Reads the file into pos[], each line split by cutoff_chess_parse_epd (its FEN checked by
 * the chess reader, its operations D<depth> <count>); blank lines and lines without an
 * operation are skipped. Returns the number of positions, -1 when the file (or
 * CUTOFF_DATA_DIR) is missing, -2 when a line is malformed (after printing it).
 */
static int epd_read_perft(const cutoff_chess_t *chess, epd_position_t *pos, int max)
{
	const char *dir = getenv("CUTOFF_DATA_DIR");
	if (!dir)
		return -1;
	char path[1024];
	snprintf(path, sizeof(path), "%s/chess/perft.epd", dir);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	char line[1024], err[200];
	int n = 0, lineno = 0;
	while (n < max && fgets(line, sizeof(line), f)) {
		lineno++;
		if (line[strspn(line, " \t\r\n")] == '\0')
			continue;
		cutoff_chess_epd_t e;
		epd_position_t *p = &pos[n];
		bool ok = cutoff_chess_parse_epd(chess, line, &e, err, sizeof(err)) == 0;
		if (ok && strlen(e.position) >= sizeof(p->fen))
			snprintf(err, sizeof(err), "FEN too long");
		if (!ok || strlen(e.position) >= sizeof(p->fen)) {
			printf("perft.epd line %d: %s\n", lineno, err);
			fclose(f);
			return -2;
		}
		if (e.nops == 0)
			continue;
		snprintf(p->fen, sizeof(p->fen), "%s", e.position);
		p->ndepths = 0;
		for (int i = 0; i < e.nops && p->ndepths < EPD_MAX_DEPTHS; i++) {
			int d;
			uint64_t c;
			char extra;
			if (sscanf(e.op[i].opcode, "D%d%c", &d, &extra) != 1 ||
			    sscanf(e.op[i].operands, "%" SCNu64 "%c", &c, &extra) != 1) {
				printf("perft.epd line %d: cannot read '%s %s'\n", lineno,
				       e.op[i].opcode, e.op[i].operands);
				fclose(f);
				return -2;
			}
			p->depth[p->ndepths] = d;
			p->count[p->ndepths] = c;
			p->ndepths++;
		}
		n++;
	}
	fclose(f);
	return n;
}

#endif
