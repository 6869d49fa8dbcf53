/* SPDX-License-Identifier: MIT */
/*
 * chess_epd.h — reads the shared perft file, CUTOFF_DATA_DIR/chess/perft.epd, for the chess
 * tests: one position per line, "FEN ;D1 n1 ;D2 n2 ...". Not a test itself (the glob takes
 * only test_*.c).
 */
#ifndef CUTOFF_TEST_CHESS_EPD_H
#define CUTOFF_TEST_CHESS_EPD_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
 * Reads the file into pos[]; returns the number of positions, -1 when the file (or
 * CUTOFF_DATA_DIR) is missing, -2 when a line is malformed (after printing it).
 */
static int epd_read_perft(epd_position_t *pos, int max)
{
	const char *dir = getenv("CUTOFF_DATA_DIR");
	if (!dir)
		return -1;
	char path[1024];
	snprintf(path, sizeof(path), "%s/chess/perft.epd", dir);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	char line[1024];
	int n = 0;
	while (n < max && fgets(line, sizeof(line), f)) {
		char *semi = strchr(line, ';');
		if (!semi)
			continue;
		epd_position_t *p = &pos[n];
		size_t len = (size_t)(semi - line);
		while (len > 0 && line[len - 1] == ' ')
			len--;
		if (len >= sizeof(p->fen)) {
			printf("perft.epd: FEN too long: %s", line);
			fclose(f);
			return -2;
		}
		memcpy(p->fen, line, len);
		p->fen[len] = '\0';
		p->ndepths = 0;
		for (char *s = semi; s && p->ndepths < EPD_MAX_DEPTHS; s = strchr(s + 1, ';')) {
			int d;
			uint64_t c;
			if (sscanf(s, ";D%d %" SCNu64, &d, &c) != 2) {
				printf("perft.epd: cannot read '%s'", s);
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
