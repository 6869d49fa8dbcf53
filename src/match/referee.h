/* SPDX-License-Identifier: MIT */
/*
 * referee.h — what the files of `cutoff match` (src/match/) share: the engines, the
 * time control, one game in play, the record of a game, the match, and the functions each
 * file gives to the files above it. Private to the folder; the entry is match_run() in
 * match.h, with the settings and the time control it is given.
 *
 * The files, from the top down:
 *
 *     match.c     match_run: the settings into a match, the set-up, the report
 *     slots.c     the games played --concurrency at a time, each slot with its own two
 *                 engines, handed out and recorded in game order
 *     gameplay.c  one game: ucinewgame, then each move asked for, timed, checked, played
 *     results.c   the report of each game and of the match: text, JSON and PGN
 *     openings.c  the start positions of --openings: FEN/EPD lines, PGN games
 *     book.c      the built-in openings (--openings builtin)
 *     player.c    an engine's process and pipes: spawning it, lines in and out, the UCI
 *                 handshake, stopping it
 *     reaper.c    the engines' process groups, and SIGTERM, SIGINT and SIGHUP: the
 *                 engines stopped and reaped, then the referee ended by the signal
 *     clock.c     the time control: parsing --tc, the go command, charging a move's time
 *     rules.c     the end of a game: checkmate, stalemate, the fifty-move rule,
 *                 insufficient material, repetition, the move limit, forfeits; FEN fields
 *     logfile.c   the --log file and the growing strings the other files build lines in
 *
 * Calls run downward only: match.c calls the files below it; slots.c calls gameplay.c,
 * player.c, reaper.c, results.c and logfile.c; gameplay.c calls player.c, clock.c,
 * rules.c and logfile.c; results.c calls clock.c, rules.c and logfile.c; player.c calls
 * reaper.c and logfile.c; reaper.c and rules.c call logfile.c; openings.c reads book.c's
 * constants; clock.c, book.c and logfile.c call none of the others.
 *
 * Ownership. The match owns its two engines (m->eng: the commands, the names and the
 * totals of the report; never started), the records of its games, the openings and the
 * output files; slots.c owns the slots, each with two engine processes of its own and its
 * game_t; a game (game_t) owns only its list of position keys and borrows the rest.
 * Nothing here is global but the pipe a signal handler writes to (reaper.c says why):
 * everything one game needs is in its game_t and in the match it reads, so that several
 * games are played at a time (--concurrency), each with its own engines; what the slots
 * share in the match_t is under its lock (see struct match).
 */
#ifndef CUTOFF_MATCH_REFEREE_H
#define CUTOFF_MATCH_REFEREE_H

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "cutoff.h"
#include "cutoff_games.h"
#include "kit/args.h"
#include "match/match.h"
#include "match/stats.h"
#include "uci/client.h"

enum {
	REASON_SIZE = 256,
	MAX_DECLARED = 512, /* the engine options remembered for checking --option */
	MAX_REJECTED = 16,  /* an engine's lines rejecting its options, kept for the report */
	MAX_CONCURRENCY = MATCH_MAX_CONCURRENCY /* --concurrency: games at once */
};

static inline double secs(int64_t ns) { return (double)ns / (double)NS_PER_S; }

/* ---- logfile.c: growing strings and the log ----------------------------------------------- */

/* A growing string; `oom` sticks once an allocation failed (the text is then cut). */
typedef struct match_sb {
	char *p;
	size_t len, cap;
	bool oom;
} match_sb_t;

void match_sb_add(match_sb_t *b, const char *s, size_t n);
void match_sb_str(match_sb_t *b, const char *s);
void match_sb_printf(match_sb_t *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
const char *match_sb_text(const match_sb_t *b); /* "" before the first addition */

/* --log: every line exchanged, timed from t0, and notes. `f` is NULL without --log; `fd`
 * (-1 without) is the same file for the engines' stderr. */
typedef struct match_log {
	FILE *f;
	int fd;
	int64_t t0;
} match_log_t;

/* One line to (dir ">") or from ("<") engine `id` of slot `slot` (0 when the match has
 * one slot: "1>"; else "2:1>" is engine 1 of slot 2). Safe from several threads. */
void match_log_line(const match_log_t *log, int slot, int id, const char *dir, const char *text,
                    size_t n);
void match_log_note(const match_log_t *log, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* ---- reaper.c: the engines' process groups, and the signals that end the match -------- */

enum {
	REAPER_NSIGNALS = 3,                    /* SIGTERM, SIGINT, SIGHUP */
	REAPER_GRACE_MS = 500,                  /* from SIGTERM to SIGKILL */
	REAPER_MAX_GROUPS = 2 * MAX_CONCURRENCY /* two engines a slot at a time */
};

typedef struct match_reaper {
	pthread_mutex_t lock;            /* over groups, ngroups and dying */
	pthread_cond_t end;              /* never signalled: what waits on it waits for the end */
	pid_t groups[REAPER_MAX_GROUPS]; /* the engines running: each leads its group */
	int ngroups;
	bool dying;            /* a signal came: the engines are being stopped, the process ends */
	pthread_mutex_t *hold; /* the match's lock, kept from the signal to the end */
	const match_log_t *log;
	int pipe[2]; /* the handler writes the signal's number; the watcher reads it */
	pthread_t thread;
	bool made, watching;
	bool caught[REAPER_NSIGNALS]; /* a handler installed (the signal was not ignored) */
	struct sigaction old[REAPER_NSIGNALS];
} match_reaper_t;

/* Starts watching for the signals, `hold` being the lock to keep when one comes.
 * CLI_EXIT_OK, or CLI_EXIT_FAIL after the one-line error (match_reaper_end then cleans
 * up). */
int match_reaper_start(match_reaper_t *r, pthread_mutex_t *hold, const match_log_t *log);
/* The old handlers back, the watcher stopped; after every engine was stopped and reaped.
 * When a signal came meanwhile, never returns: the process ends by it. */
void match_reaper_end(match_reaper_t *r);
/* In an engine's child between fork and exec: the signals as they were before the match
 * (async-signal-safe). */
void match_reaper_child(const match_reaper_t *r);
/* Around the fork of an engine: enter (waits for the end, never returning, once a signal
 * came), then leave with the new engine's pid (0 when none was made). */
void match_reaper_enter(match_reaper_t *r);
void match_reaper_leave(match_reaper_t *r, pid_t pid);
/* Waits for the end (never returning) once a signal came; else returns at once. Before
 * reporting an engine's failure, which may be the reaper's doing. */
void match_reaper_check(match_reaper_t *r);
/* After the engine `pid` was reaped. */
void match_reaper_forget(match_reaper_t *r, pid_t pid);

/* ---- player.c: an engine's process ---------------------------------------------------- */

typedef enum fault {
	FAULT_NONE,
	FAULT_ILLEGAL, /* an illegal, null or malformed bestmove */
	FAULT_TIME,    /* the clock (or --movetime) ran out */
	FAULT_CRASH,   /* the engine exited or closed its output, or its input broke */
	FAULT_HANG,    /* no readyok, or no bestmove without a clock, within --timeout */
	FAULT_ERROR,   /* an error reported on its position or go ("info string error") */
	NFAULTS
} fault_t;

typedef struct engine {
	int id;   /* 1 or 2 */
	int slot; /* its slot (1-based) in the log, or 0 when the match has one slot */
	const char *command;
	char **argv;            /* the command split into words, NULL-terminated */
	char *words;            /* their storage */
	char q[CLI_QUOTE_SIZE]; /* the command, quoted, for messages */
	const char **setopts;   /* NAME=VALUE (or NAME), in the order sent */
	int nsetopts;
	int nshared;   /* the first nshared of them came from --option, the rest from --optionN */
	char name[80]; /* from "id name", else the program's name */
	const match_log_t *log;
	match_reaper_t *reaper; /* where its process group is registered; NULL: nowhere */
	int64_t timeout; /* ns: the longest wait for readyok and uciok, and to write a line */

	uci_client_t proc; /* the process, its pipes and its lines (uci_client.h) */
	bool broken;       /* faulted: started again before the next game */

	char *declared[MAX_DECLARED]; /* option names from "option name ... type" */
	int ndeclared;
	/* Its lines rejecting an option, between the setoptions and readyok (player.c says
	 * which), the first MAX_REJECTED of them kept; nrejected counts them all. */
	char *rejected[MAX_REJECTED];
	int nrejected;
	bool ignore_option_errors; /* --ignore-option-errors: a rejection is a warning */
	bool warned;               /* the warning was printed (once per engine of the match) */

	/* Totals: over the match in m->eng (summed from the recorded games); a slot's engines
	 * count too, but nothing reads theirs. */
	int faults[NFAULTS];
	int64_t used;      /* thinking time, ns */
	int64_t min_clock; /* the least clock left after a move (ns); INT64_MAX when none */
	int moves;
} engine_t;

/* Engine `id` (1 or 2), not running and holding nothing, which match_engine_free()
 * accepts; it logs to `log`. */
void match_engine_clear(engine_t *e, int id, const match_log_t *log);
/* Sets up a cleared engine to run `command`, waiting `timeout` ns at most for an answer,
 * with the --option values `shared` then `own` (not copied: they must outlive the
 * engine). CLI_EXIT_OK, or an exit status after the one-line error. */
int match_engine_init(engine_t *e, const char *command, int64_t timeout, const char **shared,
                      int nshared, const char **own, int nown);
/* Stops the engine (asking it to quit) and frees what it holds. */
void match_engine_free(engine_t *e);
/* Starts the engine and has it ready: uci, uciok, the options, isready, readyok.
 * CLI_EXIT_OK, or an exit status after printing the one-line error: CLI_EXIT_USAGE when
 * the engine rejected an option (unless e->ignore_option_errors: then a warning, printed
 * by the engine of slot 1 or of a match of one slot, on its first start only). */
int match_engine_start(engine_t *e);
/* Ends the engine: quit when `ask`, a short wait, then SIGKILL. */
void match_engine_stop(engine_t *e, bool ask);
/* Writes `text` and a newline, within e->timeout. 0, or -1 when the pipe is broken or the
 * engine does not read. */
int match_engine_send(engine_t *e, const char *text);
/* The next line, waiting until `deadline` at most; a line that arrived after the deadline
 * counts as none. *line points into the engine's buffer until the next call; e->rtime is
 * when the read that completed it returned. */
uci_read_t match_engine_read(engine_t *e, int64_t deadline, char **line);
/* Drops whatever the engine has said and not been asked for. */
void match_engine_drain(engine_t *e);
/* Waits for a line that is exactly `want`, ignoring others. FAULT_NONE, or a fault with
 * `why` written. */
fault_t match_engine_expect(engine_t *e, const char *want, char *why, size_t size);
/* After the engine's output or input broke: how it ended ("exited with status 1"). */
void match_engine_describe_end(engine_t *e, char *buf, size_t size);
/* Skips `word` and the blanks after it at *p when *p starts with the whole word. */
bool match_word_is(const char **p, const char *word);

/* ---- clock.c: the time control -------------------------------------------------------- */

/* (tc_t, its modes and match_tc_parse are in match.h: the command line fills them.) */

/* A clock or --movetime: a move's time is charged against a limit. */
bool match_tc_timed(const tc_t *tc);
/* Writes the go command for the side `colour` (0 white), the time controls of white's and
 * black's engines being by_colour[0] and [1], with `clock` left, and returns how long (ns)
 * the move may take before it loses on time or counts as no answer. */
int64_t match_tc_go(const tc_t *const by_colour[2], const int64_t clock[2], int colour, char *go,
                    size_t size);
/* Whether the two engines' limits are the same (one line in the report). */
bool match_tc_same(const tc_t *a, const tc_t *b);

/* ---- the record of a game, and one game in play --------------------------------------- */

typedef struct opening {
	cutoff_chess_state_t pos;
	char fen[CUTOFF_CHESS_FEN_SIZE];
} opening_t;

typedef struct game_rec {
	int white;   /* engine index (0 or 1) with white */
	int opening; /* index into openings, or -1 for the start position */
	char fen[CUTOFF_CHESS_FEN_SIZE];
	match_sb_t moves; /* UCI moves separated by blanks */
	int plies;
	int winner; /* engine index, or -1 for a draw */
	const char *result;
	const char *termination; /* for PGN */
	char reason[REASON_SIZE];
	fault_t fault;
	int fault_engine;
	int64_t used[2];      /* by colour, ns */
	int64_t min_clock[2]; /* by colour, ns; INT64_MAX when no move was timed */
	int nmoves[2];        /* by colour: the bestmoves that came in time to be charged */
	bool finished;        /* over, and waiting (slots.c) until the games before it are */
} game_rec_t;

/* One game in play: what it needs beyond the match's settings. */
typedef struct game {
	const struct match *m; /* its settings */
	int index;             /* 0-based, in the match */
	game_rec_t *g;         /* its record, filled as it goes */
	engine_t *eng;         /* the two engines: eng[0] is engine 1 */
	cutoff_chess_state_t pos;
	int colour;       /* to move, 0 white */
	int64_t clock[2]; /* by colour, ns, under --tc */
	uint64_t *keys;   /* the positions so far, for repetition (owned) */
	size_t nkeys, capkeys;
} game_t;

/* The engine playing `colour` in the game. */
static inline engine_t *game_engine(const game_t *gm, int colour)
{
	return &gm->eng[colour == 0 ? gm->g->white : 1 - gm->g->white];
}

/* (clock.c) Charges a move of `took` ns to the side `colour` (engine e): the game's and the
 * engine's thinking time and, when timed, the time left (the least left, the clock). False
 * when the move lost on time (it took longer than `limit`, from match_tc_go); else a clock
 * gains its increment. */
bool match_tc_charge(game_t *gm, engine_t *e, int colour, int64_t took, int64_t limit);

/* ---- the match ------------------------------------------------------------------------ */

/*
 * The match. Its settings (everything down to `games`) are written before the slots start
 * and only read while they run. Each slot writes only the records of the games it plays
 * (m->games[i], until it marks one finished). Everything below `lock` is under it: the
 * next game to hand out, the first game not to play (stop_at, which only falls), the
 * status, and the recording of finished games in game order, which adds to the totals
 * (played, wins, draws, losses, m->eng's counts) and writes the game lines and the PGN.
 */
typedef struct match {
	cutoff_chess_t *chess; /* the adapter's tables; chess's game interface is `game` */
	const cutoff_game_t *game;
	engine_t eng[2]; /* the commands, the names, and the totals of the recorded games */
	tc_t tc[2];      /* engine i's time control */
	int64_t max_moves;
	int64_t ngames;
	opening_t *openings;
	int nopenings;
	FILE *pgn;
	const char *pgn_path;
	match_log_t log;
	bool json;         /* --json: no game lines */
	int concurrency;   /* slots: games played at once, 1..ngames */
	int cpus;          /* the CPUs this process may run on */
	int64_t threads;   /* the most Threads (--option...) one engine is given; 1 by default */
	bool unfair_clock; /* concurrency x threads exceeds cpus */
	game_rec_t *games;
	match_reaper_t reaper; /* its engines' groups while the slots play (reaper.c) */

	pthread_mutex_t lock;
	int next;                /* the next game to hand out */
	int stop_at;             /* games from this index on are not played or not recorded */
	int status;              /* CLI_EXIT_FAIL after a fault or a stop */
	int played;              /* games recorded: games[0..played) */
	int wins, draws, losses; /* engine 1's */
	const char *stopped;     /* why the match stopped early, or NULL */

	/* The statistics (stats.c), of the recorded games, under the lock as the totals. */
	match_stats_counts_t counts; /* games, and pairs: games 2k and 2k+1, one opening */
	bool sprt_on;                /* --sprt given */
	match_sprt_t sprt;           /* its hypotheses, over the pairs' counts */
	double llr;                  /* the LLR after the last recorded pair; NAN before */
	match_sprt_decision_t decision;
	char sprt_why[96]; /* m->stopped when the SPRT decides */
} match_t;

/* The time control of the engine playing `colour` in the game. */
static inline const tc_t *game_tc(const game_t *gm, int colour)
{
	return &gm->m->tc[colour == 0 ? gm->g->white : 1 - gm->g->white];
}

/* ---- rules.c: the end of a game ------------------------------------------------------- */

extern const char *const match_fault_names[NFAULTS];

/* Field `field` (0-based) of a FEN as a number, 0 when missing. */
int64_t match_fen_field_int(const char *fen, int field);
/* The side to move of a FEN: 0 white, 1 black. */
int match_fen_side(const char *fen);
/* Ends the game: `winner_colour` 0 white, 1 black, -1 a draw; the reason from fmt. */
void match_end_game(game_rec_t *g, int winner_colour, const char *termination, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* The engine playing `colour` lost by fault `f`; `why` follows its name in the reason. */
void match_forfeit(game_t *gm, int colour, fault_t f, const char *why);
/* Records the position to move and ends the game when the rules (or --max-moves) do.
 * 1 when the game is over, 0 when it goes on, -1 when memory ran out. */
int match_rules_over(game_t *gm);

/* ---- openings.c ----------------------------------------------------------------------- */

/* Reads --openings into m->openings: `source` is a file of FEN/EPD lines or of PGN games
 * (told apart by the extension .pgn or by the first line that is not blank or a #
 * comment), or the word "builtin" for book.c's lines. `plies` is --plies (0 when not
 * given: MATCH_PGN_PLIES, match.h), which applies to a PGN file only. CLI_EXIT_OK, or an exit
 * status after the one-line error naming the file and line. */
int match_openings_read(match_t *m, const char *source, int plies);

/* ---- book.c --------------------------------------------------------------------------- */

/* One built-in opening: its name (for messages) and its moves, PGN movetext in SAN. */
typedef struct match_book_line {
	const char *name;
	const char *moves;
} match_book_line_t;

extern const match_book_line_t match_book[]; /* match_book_count of them (match.h) */

/* ---- gameplay.c --------------------------------------------------------------------------- */

/* Plays game number `index` (0-based) into m->games[index] with the engines `eng`.
 * CLI_EXIT_OK, or CLI_EXIT_FAIL (printed) when the referee itself fails. */
int match_game_play(const match_t *m, engine_t *eng, int index, game_t *gm);
/* Frees what a game_t holds; one game_t may play several games before. */
void match_game_free(game_t *gm);

/* ---- slots.c ------------------------------------------------------------------------- */

/* Starts m->concurrency slots' engines, plays the games and stops the engines.
 * CLI_EXIT_OK when the games were played, their status in m->status (CLI_EXIT_FAIL after
 * a fault in a recorded game or a stop, m->stopped saying why); or an exit status after
 * the one-line error when an engine could not be started (no game was played). */
int match_slots_play(match_t *m);

/* ---- results.c ------------------------------------------------------------------------- */

/* The text report's line for game `index` (0-based), with the header before the first. */
void match_print_game_line(const match_t *m, int index, const game_rec_t *g);
/* --sprt's progress line on stderr, after the pair that ends with game `index`. */
void match_print_sprt_progress(const match_t *m, int index);
/* The text report's totals. */
void match_print_totals(const match_t *m);
/* The match as one JSON object on stdout. */
void match_write_json(const match_t *m);
/* Game `round` (1-based) as PGN to m->pgn. */
void match_write_pgn(const match_t *m, const game_rec_t *g, int round);

#endif
