/* SPDX-License-Identifier: MIT */
/*
 * match.h — the referee's entry: a match from settings already read and checked, for the
 * command line (cli/cmd_match.c, which reads them from its options). The folder's own
 * files share match/referee.h.
 */
#ifndef CUTOFF_MATCH_MATCH_H
#define CUTOFF_MATCH_MATCH_H

#include <stdbool.h>
#include <stdint.h>

#include "match/stats.h"

/* The command's name in the referee's one-line errors ("cutoff match: ..."). */
#define MATCH_CMD "match"

#define NS_PER_MS INT64_C(1000000)
#define NS_PER_S INT64_C(1000000000)

enum {
	MATCH_MAX_CONCURRENCY = 256, /* games at once */
	MATCH_TC_MAX_S = 1000000,    /* the longest BASE and INC of a clock, in seconds */
	MATCH_PGN_PLIES = 8          /* the default of --plies: the plies of each PGN game
	                                that make its opening */
};

/* The built-in openings of --openings builtin (book.c), for --help. */
extern const int match_book_count;

typedef enum tc_mode {
	TC_CLOCK,
	TC_MOVETIME,
	TC_DEPTH,
	TC_NODES
} tc_mode_t;

/* One engine's time control. Both engines of a match have the same mode, margin and
 * timeout; their limits may differ (time or node odds: --tc1, --nodes2, ...). */
typedef struct tc {
	tc_mode_t mode;
	const char *text;  /* --tc (or --tc1, --tc2) as given, or the default */
	int64_t base, inc; /* ns, for TC_CLOCK */
	int64_t movetime;  /* ns, for TC_MOVETIME */
	int64_t depth;     /* for TC_DEPTH */
	uint64_t nodes;    /* for TC_NODES */
	int64_t margin;    /* ns a move may overrun the clock or movetime */
	int64_t timeout;   /* ns: the longest wait for a bestmove where no clock runs, and for
	                      uciok and readyok */
} tc_t;

/* (clock.c) "BASE" or "BASE+INC" in seconds into ns; false when malformed, when BASE is
 * 0, or when either is above MATCH_TC_MAX_S seconds or has more than 9 decimals. */
bool match_tc_parse(const char *text, int64_t *base, int64_t *inc);

/*
 * A match's settings, each as the referee takes it: checked, but for what only running
 * can tell (an engine's command split into words, the openings file, the output files).
 * The strings are borrowed and must outlive match_run.
 */
typedef struct match_settings {
	const char *engines[2]; /* each engine's command: a program and its arguments */
	/* NAME=VALUE (or NAME, a button) for setoption: [0] both engines', then engine 1's
	 * and engine 2's own, sent after the shared ones; noptions[k] of each. */
	const char **options[3];
	int noptions[3];
	bool ignore_option_errors; /* a rejected option is a warning, not the match's end */
	tc_t tc[2];                /* engine i's time control; one mode for both */
	int64_t games;             /* games to play, at least 1 (the most, with an SPRT) */
	int64_t concurrency;       /* games at once, 1..MATCH_MAX_CONCURRENCY */
	int64_t max_moves;         /* a draw once each side made this many moves; 0: none */
	const char *openings;      /* a FEN/EPD or PGN file, or "builtin"; NULL: the start */
	int plies;                 /* of each PGN game that make its opening; 0: the default */
	const char *pgn, *log;     /* the files to write, or NULL */
	bool json;                 /* one JSON object at the end instead of the text report */
	bool sprt_on;              /* stop once the SPRT decides */
	match_sprt_t sprt;         /* its hypotheses, accepted by match_sprt_check */
} match_settings_t;

/*
 * Plays the match `s` describes and reports it on stdout (text or JSON), the games to
 * the PGN file, the exchanges to the log; SIGPIPE ignored while it plays, SIGTERM, SIGINT
 * and SIGHUP stopping every engine before the process ends by them (reaper.c). Every
 * engine is stopped and reaped on return. Returns CLI_EXIT_OK when every game ended by
 * the rules, else kit/args.h's exit status after the one-line error on stderr:
 * CLI_EXIT_FAIL for a fault of an engine in a game, a failed handshake or the system;
 * CLI_EXIT_USAGE for a setting that running refused (an engine that cannot be run, an
 * option it does not declare or rejects, an openings file that cannot be read).
 */
int match_run(const match_settings_t *s);

#endif /* CUTOFF_MATCH_MATCH_H */
