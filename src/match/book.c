/* SPDX-License-Identifier: MIT */
/*
 * book.c — the openings of `cutoff match --openings builtin`: a small balanced set of
 * well-known mainline openings, each a line of 6 to 10 plies in SAN, so that a match
 * without an openings file of its own still plays varied, sensible games.
 *
 * Owns only these constants. The lines are read by openings.c through the same PGN and
 * SAN path as a PGN file, at every use, so that a line with a typo or an illegal move
 * stops the match (and the tests) rather than playing from a wrong position.
 *
 * Invariants (tests/cli/match.sh checks each through `--openings builtin`): every line is
 * legal, ends after Black's move (White is to move), has 6 to 10 plies, leaves the
 * material level (no line stops in the middle of an exchange or a gambit), and no two
 * lines reach the same position; the count below is the one the usage text and
 * docs/chess.md give.
 */
#include "match/referee.h"

const match_book_line_t match_book[] = {
	/* 1. e4 e5 */
	{ "Ruy Lopez, Morphy Defence", "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7" },
	{ "Ruy Lopez, Berlin Defence, 4. d3", "1. e4 e5 2. Nf3 Nc6 3. Bb5 Nf6 4. d3 Bc5" },
	{ "Italian Game, Giuoco Pianissimo", "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. c3 Nf6 5. d3 d6" },
	{ "Two Knights Defence, 4. d3", "1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. d3 Be7" },
	{ "Scotch Game", "1. e4 e5 2. Nf3 Nc6 3. d4 exd4 4. Nxd4 Nf6 5. Nxc6 bxc6" },
	{ "Four Knights Game, Spanish", "1. e4 e5 2. Nf3 Nc6 3. Nc3 Nf6 4. Bb5 Bb4" },
	{ "Petrov Defence", "1. e4 e5 2. Nf3 Nf6 3. Nxe5 d6 4. Nf3 Nxe4 5. d4 d5" },
	{ "Philidor Defence", "1. e4 e5 2. Nf3 d6 3. d4 Nf6 4. Nc3 Nbd7" },
	{ "Vienna Game", "1. e4 e5 2. Nc3 Nf6 3. Bc4 Nc6 4. d3 Bc5" },
	/* 1. e4 c5 */
	{ "Sicilian, Najdorf", "1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6" },
	{ "Sicilian, Dragon", "1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 g6" },
	{ "Sicilian, Sveshnikov", "1. e4 c5 2. Nf3 Nc6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 e5" },
	{ "Sicilian, Taimanov", "1. e4 c5 2. Nf3 e6 3. d4 cxd4 4. Nxd4 Nc6 5. Nc3 Qc7" },
	{ "Sicilian, Rossolimo", "1. e4 c5 2. Nf3 Nc6 3. Bb5 g6 4. O-O Bg7 5. Re1 Nf6" },
	{ "Sicilian, Alapin", "1. e4 c5 2. c3 d5 3. exd5 Qxd5 4. d4 Nf6 5. Nf3 e6" },
	{ "Sicilian, Closed", "1. e4 c5 2. Nc3 Nc6 3. g3 g6 4. Bg2 Bg7 5. d3 d6" },
	/* 1. e4, other replies */
	{ "French, Winawer", "1. e4 e6 2. d4 d5 3. Nc3 Bb4 4. e5 c5" },
	{ "French, Tarrasch", "1. e4 e6 2. d4 d5 3. Nd2 Nf6 4. e5 Nfd7 5. Bd3 c5" },
	{ "French, Advance", "1. e4 e6 2. d4 d5 3. e5 c5 4. c3 Nc6 5. Nf3 Qb6" },
	{ "Caro-Kann, Classical", "1. e4 c6 2. d4 d5 3. Nc3 dxe4 4. Nxe4 Bf5 5. Ng3 Bg6" },
	{ "Caro-Kann, Advance", "1. e4 c6 2. d4 d5 3. e5 Bf5 4. Nf3 e6 5. Be2 c5" },
	{ "Pirc Defence, Classical", "1. e4 d6 2. d4 Nf6 3. Nc3 g6 4. Nf3 Bg7 5. Be2 O-O" },
	{ "Scandinavian Defence", "1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. d4 Nf6 5. Nf3 c6" },
	{ "Alekhine Defence, Modern", "1. e4 Nf6 2. e5 Nd5 3. d4 d6 4. Nf3 Bg4" },
	/* 1. d4 d5 */
	{ "Queen's Gambit Declined", "1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7 5. e3 O-O" },
	{ "Queen's Gambit Declined, Exchange",
	  "1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. cxd5 exd5 5. Bg5 Be7" },
	{ "Queen's Gambit Accepted", "1. d4 d5 2. c4 dxc4 3. Nf3 Nf6 4. e3 e6 5. Bxc4 c5" },
	{ "Slav Defence", "1. d4 d5 2. c4 c6 3. Nf3 Nf6 4. e3 Bf5 5. Nc3 e6" },
	{ "Semi-Slav Defence", "1. d4 d5 2. c4 c6 3. Nf3 Nf6 4. Nc3 e6 5. e3 Nbd7" },
	{ "London System", "1. d4 d5 2. Bf4 Nf6 3. e3 c5 4. c3 Nc6 5. Nd2 e6" },
	/* 1. d4 Nf6 */
	{ "King's Indian Defence", "1. d4 Nf6 2. c4 g6 3. Nc3 Bg7 4. e4 d6 5. Nf3 O-O" },
	{ "Grunfeld Defence, Exchange", "1. d4 Nf6 2. c4 g6 3. Nc3 d5 4. cxd5 Nxd5" },
	{ "Nimzo-Indian, Rubinstein", "1. d4 Nf6 2. c4 e6 3. Nc3 Bb4 4. e3 O-O 5. Bd3 d5" },
	{ "Queen's Indian Defence", "1. d4 Nf6 2. c4 e6 3. Nf3 b6 4. g3 Bb7 5. Bg2 Be7" },
	{ "Bogo-Indian Defence", "1. d4 Nf6 2. c4 e6 3. Nf3 Bb4+ 4. Bd2 Qe7 5. g3 Nc6" },
	{ "Catalan Opening", "1. d4 Nf6 2. c4 e6 3. g3 d5 4. Bg2 Be7 5. Nf3 O-O" },
	{ "Modern Benoni", "1. d4 Nf6 2. c4 c5 3. d5 e6 4. Nc3 exd5 5. cxd5 d6" },
	{ "Dutch Defence, Leningrad", "1. d4 f5 2. g3 Nf6 3. Bg2 g6 4. Nf3 Bg7 5. O-O O-O" },
	/* flank openings */
	{ "English, Symmetrical", "1. c4 c5 2. Nc3 Nc6 3. g3 g6 4. Bg2 Bg7 5. Nf3 Nf6" },
	{ "English, Reversed Sicilian", "1. c4 e5 2. Nc3 Nf6 3. Nf3 Nc6 4. g3 d5 5. cxd5 Nxd5" },
	{ "Reti Opening", "1. Nf3 d5 2. g3 Nf6 3. Bg2 e6 4. O-O Be7 5. d3 O-O" },
};

const int match_book_count = (int)(sizeof(match_book) / sizeof(match_book[0]));
