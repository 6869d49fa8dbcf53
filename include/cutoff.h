/* SPDX-License-Identifier: MIT */
/*
 * cutoff — parallel alpha-beta game-tree search.
 *
 * This is the one public header of the library. It has seven parts:
 *
 *   1. values, moves, errors   the numbers every other part speaks in
 *   2. the game interface      what a game adapter fills in (a visible struct)
 *   3. the engine              an opaque object owning threads, stacks and the table
 *   4. limits, results, info   what a search is asked and what it answers
 *   5. the transposition table  public so that it can be tested and reused
 *   6. topology and placement   what hwloc sees, and where threads go
 *   7. sharing with other engines  the hooks a cluster layer needs (export, import)
 *
 * General rules, true of every function below unless its contract says otherwise:
 *
 *   - Functions that can fail return 0 on success or a negative CUTOFF_E* code;
 *     constructors return NULL on failure and, when given a non-NULL `err`, store the
 *     code there. cutoff_strerror() names every code.
 *   - NULL in any pointer argument is never a crash: each contract says what it does
 *     (usually CUTOFF_EINVAL, or nothing for a function that returns nothing), and
 *     tests/api/test_api_null.c calls every public function with NULL in each pointer.
 *   - The library never prints, never exits and never aborts on bad input. Diagnostics go
 *     to the optional log callback of the engine configuration, and the reason of a
 *     failed call, one line naming what was wrong, is kept for callers without one:
 *     cutoff_engine_error (an engine's calls), cutoff_config_check (before an engine).
 *   - There is no global mutable state: any number of engines may live and search in one
 *     process at the same time, each from its own thread.
 *   - Nothing is allocated while a search runs: every stack, move list and table is made
 *     when the engine is created.
 */
#ifndef CUTOFF_H
#define CUTOFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(CUTOFF_BUILDING) && defined(__GNUC__)
#define CUTOFF_API __attribute__((visibility("default")))
#else
#define CUTOFF_API
#endif

/* ---------------------------------------------------------------------------------------
 * 1. Values, moves, errors
 * ------------------------------------------------------------------------------------- */

/*
 * Values are from the point of view of the side to move, as in negamax.
 *
 *   |v| <  CUTOFF_WIN_MIN           an ordinary score (evaluation, game result)
 *   CUTOFF_WIN_MIN <= |v| <= CUTOFF_WIN
 *                                   a win (positive) or loss (negative) at a known
 *                                   distance: CUTOFF_WIN - n means "the side to move wins
 *                                   n plies from the search root"
 *   CUTOFF_INF                      a window bound only; never returned as a value
 *
 * A game reports a won or lost terminal position as +CUTOFF_WIN or -CUTOFF_WIN; the search
 * converts that into a distance from the root (a loss at ply p becomes -(CUTOFF_WIN - p)),
 * so that shorter wins score higher. A game that prefers plain scores (a Connect Four
 * score, +1/0/-1 for tic-tac-toe) returns them unchanged and nothing is converted.
 * All values fit in 16 bits, so that the table can pack them.
 */
#define CUTOFF_INF 32000
#define CUTOFF_WIN 31000
/* The ply limit: an engine searches plies 0 .. max_ply - 1 from the root, where max_ply is
 * config.max_ply, CUTOFF_MAX_PLY by default (128), at most CUTOFF_PLY_LIMIT (254: the
 * table keeps a depth in 8 bits, 255 meaning "to the end"). A line that reaches it is
 * scored by the evaluation there, and a solve says so (result.unsolved). */
#define CUTOFF_MAX_PLY 128
#define CUTOFF_PLY_LIMIT 254
/* Wins and losses at any distance an engine can see lie in CUTOFF_WIN_MIN .. CUTOFF_WIN
 * (30744 .. 31000). */
#define CUTOFF_WIN_MIN (CUTOFF_WIN - CUTOFF_PLY_LIMIT - 2)

/* A move is any 32-bit number the game chooses, except CUTOFF_MOVE_NONE. */
typedef uint32_t cutoff_move_t;
#define CUTOFF_MOVE_NONE UINT32_MAX

/* The most moves a game may declare for one position (its max_moves, which sizes the
 * engine's move lists when it is made): room for games with wide turns (Kalah with a
 * whole turn as one move has up to 455). */
#define CUTOFF_MAX_MOVES 4096

/* The largest game state the engine accepts, in bytes. */
#define CUTOFF_MAX_STATE 4096

/* What a returned value says about the true value V (see docs/contract.md). */
typedef enum cutoff_bound {
	CUTOFF_BOUND_NONE = 0,  /* no information (aborted before any result) */
	CUTOFF_BOUND_UPPER = 1, /* V <= value: the search failed low */
	CUTOFF_BOUND_LOWER = 2, /* V >= value: the search failed high */
	CUTOFF_BOUND_EXACT = 3  /* V == value */
} cutoff_bound_t;

enum {
	CUTOFF_OK = 0,
	CUTOFF_EINVAL = -1,    /* an argument is NULL, out of range or malformed */
	CUTOFF_ENOMEM = -2,    /* memory could not be had */
	CUTOFF_EGAME = -3,     /* the game description is incomplete or inconsistent */
	CUTOFF_EBUSY = -4,     /* the engine is searching; the call needs it idle */
	CUTOFF_ETERMINAL = -5, /* the root position is terminal: there is no move to search */
	CUTOFF_ENOTSUP = -6,   /* the game lacks a hook that the request needs */
	CUTOFF_ETHREAD = -7,   /* a thread could not be created */
	CUTOFF_EPEER = -8      /* another process of a cluster did not answer in time, or
	                         answered nonsense (cutoff_cluster.h) */
};

/* A short English description of a CUTOFF_E* code (or "unknown error"). Never NULL. */
CUTOFF_API const char *cutoff_strerror(int code);

/*
 * The version of this header. CMake reads the project's version from these lines, so the
 * library, its CMake package (find_package(cutoff 0.2)) and pkg-config file say the same.
 * 0.x: a minor release may change the API (CHANGELOG.md lists every change with its
 * migration). Code that must build against several releases tests CUTOFF_VERSION_NUMBER,
 * (MAJOR * 10000 + MINOR * 100 + PATCH).
 */
#define CUTOFF_VERSION_MAJOR 0
#define CUTOFF_VERSION_MINOR 3
#define CUTOFF_VERSION_PATCH 0
#define CUTOFF_VERSION_NUMBER                                                                      \
	(CUTOFF_VERSION_MAJOR * 10000 + CUTOFF_VERSION_MINOR * 100 + CUTOFF_VERSION_PATCH)
#define CUTOFF_VERSION_STRING_(a, b, c) #a "." #b "." #c
#define CUTOFF_VERSION_STRING_X(a, b, c) CUTOFF_VERSION_STRING_(a, b, c)
#define CUTOFF_VERSION_STRING                                                                      \
	CUTOFF_VERSION_STRING_X(CUTOFF_VERSION_MAJOR, CUTOFF_VERSION_MINOR, CUTOFF_VERSION_PATCH)

/* The version of the library linked at run time, "MAJOR.MINOR.PATCH" (static, never NULL):
 * CUTOFF_VERSION_STRING of the header it was built with, which may differ from the one a
 * program was compiled with when the shared library is replaced. */
CUTOFF_API const char *cutoff_version(void);

/* The most bytes a message of the library takes, its NUL included (cutoff_engine_error,
 * cutoff_config_check, the log callback): a buffer this large never cuts one. */
#define CUTOFF_ERROR_SIZE 256

/* ---------------------------------------------------------------------------------------
 * 2. The game interface
 * ------------------------------------------------------------------------------------- */

/*
 * A two-player, zero-sum game of perfect information, described by callbacks.
 *
 * State. A position is an opaque block of `state_size` bytes that the engine copies with
 * memcpy and keeps on its own per-ply stacks, each state aligned like max_align_t (so a
 * callback may cast the pointer to its own struct type); it must not hold pointers to
 * memory that changes during a search. Callbacks receive `ctx`, the game's own read-only
 * data (rules, tables, parameters), shared by every search thread: it must not be written
 * while a search runs.
 *
 * Thread safety. Every callback may be called from several threads at once, for
 * different states. Callbacks must not block, allocate, or call back into the engine.
 *
 * Required callbacks:
 *
 *   gen_moves   writes the moves of `state` into moves[0..n) and returns n (1 <= n <=
 *               max_moves); when `hints` is not NULL it also writes one ordering hint per
 *               move (higher means "try earlier"; 0 when the game has no opinion). Called
 *               only on non-terminal states, and every non-terminal state has a move: a
 *               state without one is over, and `terminal` must say so. A pass (Othello, Go)
 *               is a move like any other: the game generates it (as the only move, when
 *               the player must pass), plays it, and it uses up a ply of depth as every
 *               move does. The reverse, a move after which the same player moves again
 *               (an extra turn), is said by the `side` hook below, not by a pass. A count
 *               outside 1 .. max_moves, at the root or anywhere in the tree, ends the
 *               search with CUTOFF_EGAME and a log line naming the callback and the count
 *               (writes beyond max_moves, up to CUTOFF_MAX_MOVES of them, land in the
 *               engine's own slack until then).
 *   play        copy-make: writes into `child` the state after `move` is played in
 *               `state`. `move` is one that gen_moves (or gen_noisy) produced for `state`
 *               (a move from the table is played only when gen_moves lists it). `child`
 *               never aliases `state`.
 *   evaluate    the static value of a non-terminal state for the side to move, with
 *               |value| < CUTOFF_WIN_MIN (a value outside it ends the search with
 *               CUTOFF_EGAME and a log line naming the callback, value and ply; so does
 *               a terminal value that is neither in it nor +-CUTOFF_WIN).
 *   terminal    returns true when the game is over in `state` and writes its value for the
 *               side to move into *value: +CUTOFF_WIN / -CUTOFF_WIN for a win / loss that
 *               the engine should score by distance, or any value with |value| <
 *               CUTOFF_WIN_MIN (0 for a draw). Returns false otherwise.
 *   key         a 64-bit key of the position; equal positions must have equal keys and
 *               distinct ones should differ. Used by the transposition table.
 *
 * Optional hooks (NULL when the game does not have them):
 *
 *   gen_noisy   like gen_moves, restricted to the moves that quiescence search should
 *               follow (captures, promotions); returns 0 .. max_moves (0: a quiet state).
 *   play_null   null-move pruning's hook, not a pass of the game's rules: writes into
 *               `child` the state after the side to move lets the opponent move twice;
 *               returns false when that makes no sense here (in check, zugzwang-prone
 *               endings). Only used with config.pruning's CUTOFF_PRUNE_NULL_MOVE.
 *   in_check    true when the side to move is in check: the search then extends the move
 *               that gave check by one ply (config.extensions), and never tries a null
 *               move or a reduction there.
 *   reversible  the number of plies since the last irreversible move (in chess the
 *               halfmove clock): a repetition can only be found that far back. With it, a
 *               position that repeats one on the search path or among the positions played
 *               before the root (limits.played) scores as a draw, 0.
 *   bounds      the range of values a non-terminal `state` can have: writes *lower <=
 *               *upper such that its negamax value at every depth (the terminal values
 *               below it and the evaluation at the horizon included) lies in [*lower,
 *               *upper]. A Connect Four position cannot be won or lost sooner than the
 *               stones left allow; a game scored by material cannot gain more than is on
 *               the board. The search then settles a node whose window lies outside the
 *               range at once, before the table is probed: upper <= alpha returns upper,
 *               lower >= beta returns lower (Pons' score-range pruning; mate-distance
 *               pruning in chess). Never at the root, so a search always names a move.
 *               The bounds are in the values the game gives, so a game that scores wins
 *               as +-CUTOFF_WIN (which the engine turns into distances) must leave them
 *               out of its range: *lower <= -CUTOFF_WIN and *upper >= CUTOFF_WIN when
 *               either may still come.
 *   key_after   the key that `key` gives for the state `play` would write for `move` (one
 *               that gen_moves produced for the non-terminal `state`), without playing it:
 *               an incremental key update (Stockfish's key_after). Only enhanced
 *               transposition cut-offs use it (config.etc_min_depth), to look a node's
 *               children up in the table: with it, only the eldest child is played (and
 *               asked `terminal`: a win at once cuts without a probe), the others are
 *               looked up by key; without it every child is played and asked `key` and
 *               `terminal`, a play per child. Not used when checks are extended (a
 *               child's depth then needs in_check of the child).
 *   side        the player to move in `state`, 0 or 1: for a game where a move may keep
 *               the turn (Kalah's sowing into one's own store, a capture that must be
 *               continued, a bonus move). Without it every move passes the turn, as in
 *               negamax. With it, every value is still that of its own state's side to
 *               move, and the engine negates a child's value and window only when
 *               side(child) differs from side(state); a move that keeps the turn uses up
 *               a ply of depth like any other. Asked of both states after each `play`
 *               (and play_null). A pass is a move that gives the turn away; an extra turn
 *               is a move after which side(child) == side(state). With the hook, the key
 *               must tell the players to move apart (equal keys, equal player to move),
 *               repetitions are looked for at every ply back instead of every other, and
 *               enhanced transposition cut-offs are not used (config.etc_min_depth: a
 *               child's entry, looked up by key, does not say whose turn it is). Every
 *               algorithm, quiescence, null moves, the table, the principal variation,
 *               every driver, the simulator and the cluster honour it. Example, a game
 *               where taking a cell of even value gives the taker another move
 *               (tests/include/extra_turns.h, docs/architecture.md "Extra turns"):
 *
 *                   static int bank_side(const void *ctx, const void *state)
 *                   {
 *                           (void)ctx;
 *                           return ((const bank_state_t *)state)->side;
 *                   }
 *                   // in play: child->side = v % 2 == 0 ? st->side : 1 - st->side;
 *                   // in the game: .side = bank_side,
 *
 * The order of callbacks at a node. A state is written by `play` (or is the root the
 * caller gave) and only read afterwards. `terminal` is asked of it before gen_moves,
 * gen_noisy, evaluate, key, key_after, reversible, bounds and play_null are called on it,
 * at every node of every driver; only in_check may come earlier (the check extension asks
 * it of a child right after `play`). So what `terminal` and gen_moves both need
 * (Othello's legal squares, say) is best computed once by `play` into the child state.
 * evaluate may be called on a state that is not at the horizon (null-move pruning's
 * static value, quiescence's stand pat); gen_moves may be called more than once on one
 * state.
 *
 * Which hooks the search uses: gen_noisy for quiescence search at the horizon
 * (config.extensions & CUTOFF_EXTEND_QUIESCENCE), in_check for check extensions, play_null
 * for null-move pruning (config.pruning), reversible for repetitions, bounds at every node
 * but the root. Without them the search is the plain fixed-depth search that the classic
 * figures assume.
 *
 * Fill it with designated initialisers (`.gen_moves = my_gen_moves`), as every example
 * does, never by position: a field may come or go between releases (is_legal left the
 * middle of the struct: CHANGELOG.md, 0.1.0), and a positional initialiser would then put
 * callbacks into the wrong fields without a word from the compiler. Fields left out are
 * NULL, which is what an optional hook should be when the game lacks it.
 */
typedef struct cutoff_game {
	const char *name;  /* for messages; may be NULL */
	size_t state_size; /* 1 .. CUTOFF_MAX_STATE */
	int max_moves;     /* 1 .. CUTOFF_MAX_MOVES: most moves any state can have */
	const void *ctx;   /* passed to every callback; read-only during a search */

	int (*gen_moves)(const void *ctx, const void *state, cutoff_move_t *moves, int32_t *hints);
	void (*play)(const void *ctx, const void *state, cutoff_move_t move, void *child);
	int32_t (*evaluate)(const void *ctx, const void *state);
	bool (*terminal)(const void *ctx, const void *state, int32_t *value);
	uint64_t (*key)(const void *ctx, const void *state);

	int (*gen_noisy)(const void *ctx, const void *state, cutoff_move_t *moves, int32_t *hints);
	bool (*play_null)(const void *ctx, const void *state, void *child);
	bool (*in_check)(const void *ctx, const void *state);
	int (*reversible)(const void *ctx, const void *state);
	void (*bounds)(const void *ctx, const void *state, int32_t *lower, int32_t *upper);
	uint64_t (*key_after)(const void *ctx, const void *state, cutoff_move_t move);
	int (*side)(const void *ctx, const void *state);
} cutoff_game_t;

/* ---------------------------------------------------------------------------------------
 * 3. The engine
 * ------------------------------------------------------------------------------------- */

/* The search algorithm run at every node. */
typedef enum cutoff_algo {
	CUTOFF_ALGO_MINIMAX = 0,   /* plain negamax, no pruning: the reference */
	CUTOFF_ALGO_ALPHABETA = 1, /* fail-soft alpha-beta */
	CUTOFF_ALGO_PVS = 2,       /* principal variation search (null-window probes) */
	CUTOFF_ALGO_MTDF = 3       /* MTD(f): null-window alpha-beta passes over the table */
} cutoff_algo_t;

/*
 * How threads share the work.
 *   SERIAL   one thread searches (the others, if any, only help clear the table).
 *   LAZYSMP  every thread runs its own iterative deepening from the root; they share only
 *            the table. The reported answer is the deepest completed iteration of any
 *            thread, or with config.lazysmp_vote in a stopped search the thread that the
 *            threads' vote chose (docs/architecture.md gives the whole rule). Its
 *            speed-up comes from threads searching different depths: in a single-depth
 *            search (limits.iterate false, as a solver asks) the helpers would only repeat
 *            the main thread's search in its order, so they do not search, and the main
 *            thread searches alone (counter lazysmp_idle).
 *   YBW      Young Brothers Wait: a node's eldest child is searched first; once it has not
 *            cut off, the remaining children are offered to idle threads at a split point.
 *            Exact wherever the serial search is exact.
 *   ABDADA   every thread iterates from the root, as under lazy SMP, but a thread that
 *            finds a younger move being searched by another thread defers it and comes
 *            back to it after the node's other moves, when its value is usually in the
 *            table (Weill 1996; the simplified variant of Kerrigan 2017 by option). Exact
 *            wherever the serial search is exact.
 *   DTS      of Dynamic Tree Splitting's family (Hyatt 1997): every node with enough plies
 *            left offers its younger moves once its eldest is done; an idle thread picks
 *            the shallowest such node among every thread's open ones, and no thread waits
 *            at a join: an owner whose helpers are still busy parks its search (a fiber)
 *            and takes other work, and whoever finishes the node's last move carries the
 *            owner's search on. Exact wherever the serial search is exact. Only in a
 *            library built with Boost.Context (the registry lists it then); the info and
 *            poll callbacks may then be called on any of the engine's threads (one at a
 *            time, never two at once).
 * The registry below lists them by name, with their options, for front ends.
 */
typedef enum cutoff_driver {
	CUTOFF_DRIVER_SERIAL = 0,
	CUTOFF_DRIVER_LAZYSMP = 1,
	CUTOFF_DRIVER_YBW = 2,
	CUTOFF_DRIVER_ABDADA = 3,
	CUTOFF_DRIVER_DTS = 4
} cutoff_driver_t;

/* Where YBW and DTS may split (config.ybw_split_nodes, dts_split_nodes), by the node's
 * expected type (the type the search gave it before its eldest move; a split comes only
 * after that move failed to cut):
 *   ANY      every node (the rule's own)
 *   NOT_CUT  PV and expected ALL nodes, never at an expected CUT node
 *   ALL      expected ALL nodes only */
typedef enum cutoff_ybw_split_nodes {
	CUTOFF_YBW_SPLIT_ANY = 0,
	CUTOFF_YBW_SPLIT_NOT_CUT = 1,
	CUTOFF_YBW_SPLIT_ALL = 2
} cutoff_ybw_split_nodes_t;

/* ABDADA's two variants (config.abdada_variant).
 *   CLASSIC     Weill's: the busy mark is on the position a move leads to (so a
 *               transposition is seen busy too), a count of the threads in it.
 *   SIMPLIFIED  Kerrigan's: the busy mark is on the move, a hash of the position's key and
 *               the move in a slot that the last thread to mark it owns. */
typedef enum cutoff_abdada_variant {
	CUTOFF_ABDADA_CLASSIC = 0,
	CUTOFF_ABDADA_SIMPLIFIED = 1
} cutoff_abdada_variant_t;

/*
 * Where the engine's worker threads run (through hwloc, on the CPUs the process may use).
 *   NONE     unbound: the operating system decides.
 *   COMPACT  fill the cores of one package first, one thread per core before the second
 *            hardware thread of any core.
 *   SCATTER  spread over packages and NUMA nodes, round robin, one thread per core first.
 * The calling thread (index 0) is the user's and is never bound; it is given slot 0 of
 * the plan, the workers slots 1 .. threads-1. When binding is refused the engine says so
 * once through the log callback and runs unbound.
 */
typedef enum cutoff_placement {
	CUTOFF_PLACE_NONE = 0,
	CUTOFF_PLACE_COMPACT = 1,
	CUTOFF_PLACE_SCATTER = 2
} cutoff_placement_t;

/*
 * Move ordering: which heuristics may reorder the game's moves (bits of config.ordering).
 * With none of them the moves are searched exactly in the order gen_moves gives, which is
 * what classic node counts (and oracle-ordered trees) assume. Order of precedence: the
 * table's move first (once it is found among the generated moves, so an illegal move from
 * a colliding position is never played), then by the game's hint, then the two killer
 * moves of the ply, then by the history score; ties keep the game's order.
 */
enum {
	CUTOFF_ORDER_NONE = 0,
	CUTOFF_ORDER_TT = 1,      /* the table's best move first */
	CUTOFF_ORDER_HINTS = 2,   /* the game's per-move hints (higher first) */
	CUTOFF_ORDER_KILLERS = 4, /* moves that caused a cut-off at the same ply */
	CUTOFF_ORDER_HISTORY = 8, /* moves that caused cut-offs anywhere, weighted by depth^2 */
	CUTOFF_ORDER_ALL = 15
};

/*
 * Speculative pruning (bits of config.pruning): faster, but no longer exact — the value is
 * that of a search that skipped some moves. Off by default; the exactness tests run
 * without it, and a game engine turns it on for play.
 *   NULL_MOVE  at a null-window node with at least 3 plies left, not in check, whose
 *              static value is at least beta: let the opponent move twice (play_null); if
 *              a search reduced by 2-3 plies still fails high, cut off.
 *   LMR        late move reductions: from the fourth move on, quiet moves (hint <= 0) at
 *              nodes with at least 3 plies left, not in check, are searched one ply (from
 *              the ninth move at 6 plies, two) shallower with a null window first, and
 *              again at full depth only if they beat alpha.
 */
enum {
	CUTOFF_PRUNE_NONE = 0,
	CUTOFF_PRUNE_NULL_MOVE = 1,
	CUTOFF_PRUNE_LMR = 2,
	CUTOFF_PRUNE_ALL = 3
};

/*
 * Exact extensions of the search (bits of config.extensions), used only when the game has
 * the hook they need; both on by default.
 *   QUIESCENCE  at the horizon, search the noisy moves (gen_noisy) with stand-pat
 *               instead of trusting the static evaluation of an unquiet position.
 *   CHECKS      a move that gives check (in_check on the child) does not use up a ply.
 */
enum {
	CUTOFF_EXTEND_NONE = 0,
	CUTOFF_EXTEND_QUIESCENCE = 1,
	CUTOFF_EXTEND_CHECKS = 2,
	CUTOFF_EXTEND_ALL = 3
};

/* Log levels for the log callback. */
typedef enum cutoff_log_level {
	CUTOFF_LOG_DEBUG = 0,
	CUTOFF_LOG_INFO = 1,
	CUTOFF_LOG_WARN = 2
} cutoff_log_level_t;

typedef void (*cutoff_log_fn)(void *user, cutoff_log_level_t level, const char *message);

/*
 * Engine configuration. Start from cutoff_config_default() and change what you need;
 * cutoff_engine_new() validates every field.
 */
typedef struct cutoff_config {
	int threads;            /* 1 .. CUTOFF_MAX_THREADS; default 1 */
	size_t tt_mb;           /* transposition table in MiB, 0 .. CUTOFF_MAX_TT_MB; 0 = none;
	                           default 16 */
	cutoff_algo_t algo;     /* default CUTOFF_ALGO_PVS */
	cutoff_driver_t driver; /* default CUTOFF_DRIVER_SERIAL */
	unsigned ordering;      /* CUTOFF_ORDER_* bits; default CUTOFF_ORDER_ALL */
	int32_t aspiration;     /* iterative deepening: half-width of the first window around
	                           the previous iteration's value, in the game's units, widened
	                           on failure; 0 (the default) searches every iteration with the
	                           caller's window. Used by alpha-beta and PVS. */
	cutoff_log_fn log;      /* optional diagnostics; may be NULL (the default) */
	void *log_user;         /* passed to `log` */
	void *topology;         /* optional: a loaded hwloc_topology_t to share among engines
	                           (it must outlive them, and is only read); NULL (the default):
	                           the engine loads its own, which takes some milliseconds */
	cutoff_placement_t placement; /* default CUTOFF_PLACE_NONE */
	int ybw_min_split_depth;      /* YBW: split only where at least this many plies remain,
	                             1 .. CUTOFF_MAX_PLY; default 3 */
	int ybw_max_helpers;          /* YBW: most threads helping at one split point besides its
	                             owner, 1 .. CUTOFF_MAX_THREADS; default 8 */
	int ybw_split_after;          /* YBW: moves a node searches alone before it may split (1:
	                             the eldest brother, the rule's own), 1 .. 8; default 1 */
	bool ybw_late_join;           /* YBW: no effect since every join is an idle thread's own
	                             (no thread books another); kept so that configurations that
	                             set it still build and load; default true */
	int ybw_max_splits;           /* YBW: split points one thread may have open at once (nested
	                             on its path), 1 .. CUTOFF_MAX_PLY; default CUTOFF_MAX_PLY (no
	                             limit) */
	/* YBW: which nodes may split, by their expected type; default CUTOFF_YBW_SPLIT_ANY */
	cutoff_ybw_split_nodes_t ybw_split_nodes;
	unsigned pruning;    /* CUTOFF_PRUNE_* bits; default CUTOFF_PRUNE_NONE (exact) */
	unsigned extensions; /* CUTOFF_EXTEND_* bits; default CUTOFF_EXTEND_ALL */
	bool tt_cutoffs;     /* the table may answer a node by itself (true, the default);
	                             false: it only orders moves (its best move first). Where
	                             values depend on the path (repetitions) or deeper entries
	                             answer shallower searches, a table that cuts makes the
	                             value depend on timing; ordering only keeps every driver
	                             exactly equal to the serial search. */
	bool lazysmp_skip;   /* lazy SMP: helpers skip iterations in blocks, so that about
	                             half of them search one ply ahead (true, the default); false:
	                             every thread searches every depth */
	bool lazysmp_vote;   /* lazy SMP: a search that a limit or cutoff_engine_stop() ended
	                             before any thread completed its last iteration (not a
	                             solve) answers with the thread whose move won Stockfish's
	                             vote (value above the lowest, times depth; a proven win
	                             first, a proven loss never by votes), which may be shallower
	                             than the deepest; any other search as without it. Default
	                             false (the deepest thread), until a measurement decides */
	int tt_min_depth;    /* nodes with fewer plies left than this neither probe nor store
	                             the table, 0 .. max_ply; default 0 (every node). Fewer
	                             stores into a shared table where nodes are cheap (Connect
	                             Four: docs/connect4.md, "Fewer table stores") */
	int etc_min_depth;   /* enhanced transposition cut-offs (Plaat et al. 1996): a node
	                             with at least this many plies left asks the table about
	                             each of its children before searching any, and fails high
	                             at once when a child's entry proves it; 2 .. max_ply,
	                             or 0, the default: never. Not in a game with repetitions
	                             (its values depend on the path). Where the table holds
	                             much (exact solvers), it saves more nodes than its probes
	                             cost (Connect Four: docs/connect4.md, "Enhanced
	                             transposition cut-offs") */
	cutoff_abdada_variant_t abdada_variant; /* ABDADA: default CUTOFF_ABDADA_SIMPLIFIED (the
	                                           less total time of the two on hard Connect
	                                           Four lines; each wins some: docs/connect4.md) */
	int abdada_min_depth;    /* ABDADA: moves are deferred and marked only where at least
	                             this many plies remain, 1 .. CUTOFF_MAX_PLY; or 0, the
	                             default: by the thread count, 6 under 16 threads and 4
	                             from 16 on (more threads need more nodes to spread over;
	                             fewer marks cost less) */
	int abdada_table_bits;   /* ABDADA: the busy marks' side table has 2^bits slots of 8
	                             bytes, 8 .. 24; default 12 (32 KiB: a few marks a thread
	                             are alive at once, and a small table stays in cache) */
	bool profile_tt_writers; /* the profiler: remember which thread last wrote each table
	                             entry, for counters.tt_hits_other (else 0). Costs an array
	                             of 2 bytes per entry beside the table (1/8 of its size) and
	                             one more cache line per store and per hit (its cost in
	                             nodes per second: docs/measurements.md, "(f)"), so false
	                             by default */
	int share_ring;          /* sharing with other engines (section 7): each thread's ring
	                             of deep table stores for cutoff_engine_export, in entries:
	                             0 (the default: no ring, nothing exported) or a power of
	                             two 16 .. 1048576 */
	int thread_base;         /* the index of this engine's thread 0 among every thread
	                             searching the same position together (a cluster's rank x
	                             threads), 0 .. 1048576; default 0. Lazy SMP's iteration
	                             skipping goes by base + index, so that the engines of a
	                             cluster skip differently; with a base above 0 the engine's
	                             thread 0 skips like any helper */
	int max_ply;             /* the ply limit (section 1): 0, the default, for
	                             CUTOFF_MAX_PLY, or 16 .. CUTOFF_PLY_LIMIT, for a game whose
	                             lines are longer (Kalah with a pass for each extra turn, a
	                             long forced line). Each thread's stacks, the drivers' pools
	                             and the principal variation are sized to it when the
	                             engine is made (memory per thread grows with its square:
	                             the triangular PV); limits.depth may be 1 .. max_ply - 1,
	                             and a solve with depth 0 searches to max_ply - 1 */
	int dts_min_split_depth; /* DTS: a node offers its younger moves to idle threads only
	                             where at least this many plies remain, 1 .. CUTOFF_MAX_PLY;
	                             default 2 (chess under the simulator: docs/simulation.md,
	                             "DTS") */
	int dts_fibers;          /* DTS: searches (fibers, each with its own stacks) per thread,
	                             2 .. 64; default 4. An owner parked at a node whose helpers
	                             are busy holds one; with none free an idle thread waits */
	int dts_min_split_nodes; /* DTS: a node offers its younger moves only where its eldest
	                             move's search took at least this many nodes (a split
	                             point costs a few hundred instructions: few threads
	                             gain more from fewer of them, many threads from more open
	                             nodes), 1 .. 2^30, or 0 (the default): 32 under 16
	                             threads, 1 from 16 (docs/simulation.md, "DTS") */
	/* DTS: which nodes may offer their younger moves, by their expected type (as YBW's);
	 * default CUTOFF_YBW_SPLIT_ANY */
	cutoff_ybw_split_nodes_t dts_split_nodes;
} cutoff_config_t;

#define CUTOFF_MAX_THREADS 1024
#define CUTOFF_MAX_TT_MB ((size_t)1 << 20) /* 1 TiB */

/* Fills *cfg with the defaults above. Does nothing when cfg is NULL. */
CUTOFF_API void cutoff_config_default(cutoff_config_t *cfg);

/*
 * The drivers' registry, for front ends that list and choose them by name.
 * cutoff_driver_count() is the number of drivers; drivers are 0 .. count-1.
 * cutoff_driver_name and cutoff_driver_description: the driver's word ("ybw") and one
 * line, or NULL when `driver` is not a driver. cutoff_driver_find: the driver called
 * `name` into *driver; CUTOFF_EINVAL when there is none (or an argument is NULL).
 */
CUTOFF_API int cutoff_driver_count(void);
CUTOFF_API const char *cutoff_driver_name(cutoff_driver_t driver);
CUTOFF_API const char *cutoff_driver_description(cutoff_driver_t driver);
CUTOFF_API int cutoff_driver_find(const char *name, cutoff_driver_t *driver);

/*
 * A driver's option: a field of cutoff_config_t that only that driver reads, with the
 * word a front end offers it by ("min-split") and its range. An option whose `words` is
 * not NULL takes one of the words words[0 .. max - min] ("off", "on"), standing for
 * min .. max.
 */
typedef struct cutoff_driver_option {
	const char *name;
	const char *help; /* one line */
	int min, max;
	const char *const *words; /* NULL: a number */
} cutoff_driver_option_t;

/* The options of `driver`: their count, with *options pointing at them (static, never
 * freed); CUTOFF_EINVAL when `driver` is not a driver or options is NULL. */
CUTOFF_API int cutoff_driver_options(cutoff_driver_t driver,
                                     const cutoff_driver_option_t **options);

/* cutoff_config_get_option reads and cutoff_config_set_option sets the driver option
 * called `name` (of any driver) in *cfg. Setting checks the range. CUTOFF_EINVAL for an
 * unknown name, a value out of range or a NULL argument, and then *cfg is unchanged. */
CUTOFF_API int cutoff_config_get_option(const cutoff_config_t *cfg, const char *name, int *value);
CUTOFF_API int cutoff_config_set_option(cutoff_config_t *cfg, const char *name, int value);

/* Sets the driver option called `name` from text, as a front end gets it: one of the
 * option's words ("classic" for abdada-variant, "off" for lazy-skip; exactly as in its
 * `words`, case included) or a whole decimal number ("12", "-3": an optional sign and
 * digits, nothing around them), checked against the range as cutoff_config_set_option
 * does. CUTOFF_EINVAL, *cfg unchanged, for an unknown name, text that is neither, a value
 * out of range, or a NULL argument. Reads only its arguments: any thread, any number at
 * once on different configurations. */
CUTOFF_API int cutoff_config_set_option_str(cutoff_config_t *cfg, const char *name,
                                            const char *text);

typedef struct cutoff_engine cutoff_engine_t;

/*
 * Makes an engine for `game` (the struct is copied; game->ctx must outlive the engine).
 * Validates the game (required callbacks present, sizes in range) and the configuration
 * (cfg may be NULL for the defaults), allocates every stack and the table, and returns the
 * engine, or NULL with *err set (when err is not NULL): CUTOFF_EINVAL for a NULL game or
 * a bad config field, CUTOFF_EGAME for a bad game, CUTOFF_ENOMEM when memory runs out,
 * CUTOFF_ETHREAD when a thread cannot be started. On failure the log callback, when set,
 * is told which field was wrong; without one, cutoff_config_check says it (there is no
 * engine to ask cutoff_engine_error).
 */
CUTOFF_API cutoff_engine_t *cutoff_engine_new(const cutoff_game_t *game, const cutoff_config_t *cfg,
                                              int *err);

/*
 * Checks `cfg` (NULL: the defaults) and `game` exactly as cutoff_engine_new does before it
 * allocates anything, and writes why they are refused into msg, one line naming the field
 * and what it must be ("config: threads 0 is not in 1..1024", "game: the required callback
 * key is NULL"), or "" when they pass. The line is cut to size - 1 bytes and always
 * NUL-terminated when size > 0; CUTOFF_ERROR_SIZE bytes never cut it; msg may be NULL
 * (then nothing is written, whatever size says). Returns what cutoff_engine_new would say
 * of them: 0, CUTOFF_EINVAL (a NULL game or a bad config field) or CUTOFF_EGAME (a bad
 * game); what depends on the machine (CUTOFF_ENOMEM, CUTOFF_ETHREAD) is not tried. Tells
 * no log callback. Reads only its arguments and writes only msg: any thread, any time.
 */
CUTOFF_API int cutoff_config_check(const cutoff_config_t *cfg, const cutoff_game_t *game, char *msg,
                                   size_t size);

/* Frees the engine and everything it owns. NULL is ignored. Must not be called while a
 * search of this engine runs. */
CUTOFF_API void cutoff_engine_free(cutoff_engine_t *engine);

/*
 * Why the latest call of cutoff_engine_search, cutoff_engine_set_algo or
 * cutoff_engine_set_tt_mb on this engine failed: one line in English that names what was
 * wrong ("limits: depth 0 is not in 1..127 ...", "game: gen_moves returned no move at ply
 * 3 ..."), or "" when that call succeeded (or none was made). It is the line the log
 * callback (config.log) is told, kept for callers without one; cutoff_strerror names only
 * the code. A cutoff_engine_search that returns CUTOFF_ETERMINAL says so here too, and so
 * does one asked to solve that returns 0 unsolved: why (result.unsolved), in words.
 *
 * Who writes it: only those three calls, each of which empties it once it holds the
 * engine and writes it when it fails. A call refused with CUTOFF_EBUSY (the engine is held
 * by a search or another of them) or made with a NULL engine leaves it untouched; no other
 * function touches it, so a failed search's line survives cutoff_engine_stop,
 * cutoff_engine_thread_counters and the like.
 *
 * Lifetime and threads: the string is a fixed buffer inside the engine (CUTOFF_ERROR_SIZE
 * bytes, nothing allocated, no global state), valid until cutoff_engine_free; its text
 * changes at the next call that writes it. It is not guarded: read it from the thread
 * that made the failed call, or from a thread that knows that call has returned and that
 * none of the three runs on the engine meanwhile. "" (a static string) for a NULL
 * engine; never NULL.
 */
CUTOFF_API const char *cutoff_engine_error(const cutoff_engine_t *engine);

/* Forgets everything learnt: empties the table and the move-ordering history, so that the
 * next search runs as on a new engine. Returns CUTOFF_EBUSY while searching, CUTOFF_EINVAL
 * for NULL. */
CUTOFF_API int cutoff_engine_clear(cutoff_engine_t *engine);

/* The engine's configuration as validated (a copy into *cfg). CUTOFF_EINVAL, *cfg
 * untouched, when either is NULL. */
CUTOFF_API int cutoff_engine_config(const cutoff_engine_t *engine, cutoff_config_t *cfg);

/* Changes the algorithm used by later searches. CUTOFF_EBUSY while searching (checked
 * first); CUTOFF_EINVAL for NULL or a value that is not a cutoff_algo_t (and then
 * cutoff_engine_error says so). */
CUTOFF_API int cutoff_engine_set_algo(cutoff_engine_t *engine, cutoff_algo_t algo);

/* Replaces the table with an empty one of `mb` MiB (0: no table). CUTOFF_EBUSY while
 * searching (checked first); CUTOFF_EINVAL for NULL or a size out of range; CUTOFF_ENOMEM
 * (the old table is then kept) when the memory cannot be had. A failure but CUTOFF_EBUSY
 * leaves its reason in cutoff_engine_error. */
CUTOFF_API int cutoff_engine_set_tt_mb(cutoff_engine_t *engine, size_t mb);

/* The table's fill, per mille of sampled entries written by the latest search (0 without a
 * table, and for NULL). Safe to call during a search (the value is then approximate). */
CUTOFF_API int cutoff_engine_hashfull(const cutoff_engine_t *engine);

/*
 * Asks the running search of `engine` (if any) to stop as soon as it can. Safe to call
 * from any thread at any moment, including before the search starts (then the next search
 * stops at once) — see cutoff_limits_t. Does nothing for NULL.
 */
CUTOFF_API void cutoff_engine_stop(cutoff_engine_t *engine);

/*
 * Withdraws a stop that no search has consumed: one sent after the last search ended (a
 * late `stop` racing the end of a search), which would otherwise stop the next search at
 * once. Only while no search runs: CUTOFF_EBUSY during a search (whose stop stands),
 * CUTOFF_EINVAL for NULL. A front end such as UCI calls it before starting each search
 * that it has not been asked to stop, from the thread that decides when to search (so a
 * stop meant for the new search cannot come before it).
 */
CUTOFF_API int cutoff_engine_cancel_stop(cutoff_engine_t *engine);

/* ---------------------------------------------------------------------------------------
 * 4. Limits, results, info
 * ------------------------------------------------------------------------------------- */

/*
 * Counters of one search, summed over its threads (seldepth: the maximum).
 *
 * Each counter is described once, in the list below (the search's and the profiler's)
 * or in its driver's own file (a driver's), and the library lists them all:
 * cutoff_counter_count() and cutoff_counter_info(i) give each one's name (the JSON key
 * of the command's reports), unit, meaning and who counts it, and
 * cutoff_counter_value(c, i) reads it from any cutoff_counters_t. The search's and the
 * profiler's counters are also fields of the struct, by their names; the drivers' live in
 * driver[], each driver's at the slots the registry gives it, and are read through the
 * list (cutoff_counter_find("splits")).
 *
 * The profiler's counters (CUTOFF_COUNTED_BY_PROFILER, and a driver's marked so) are 0
 * when the library is built without it (cutoff_profile_available); the others are
 * counted in every build.
 *
 * Expected node types (Knuth and Moore), for nodes_pv .. cut_node_first_cutoffs: the root
 * is PV; a PV node's first child is PV and its other children CUT (a PVS re-search after
 * a probe landed inside the window is PV again); every child of a CUT node is ALL, every
 * child of an ALL node CUT. Null move searches count as a later child. Typed are the
 * nodes of alpha-beta, PVS and MTD(f), leaves and table answers included, so that
 * nodes_pv + nodes_cut + nodes_all == nodes - qnodes for those algorithms (minimax types
 * nothing). "Interior" means a node that searched at least one move.
 *
 * CUTOFF_COUNTERS(X) calls X(name, unit, who, meaning) for each counter of the struct; who
 * is SEARCH, SEARCH_MAX (the search's, a maximum) or PROFILER.
 */
#define CUTOFF_COUNTERS(X)                                                                         \
	X(nodes, "nodes", SEARCH, "positions visited, the root included")                          \
	X(leaves, "nodes", SEARCH, "static evaluations and terminal scores")                       \
	X(cutoffs, "nodes", SEARCH, "nodes left early because a move reached beta")                \
	X(first_move_cutoffs, "nodes", SEARCH, "of the cut-offs, those by the first move tried")   \
	X(researches, "searches", SEARCH,                                                          \
	  "PVS re-searches after a null-window probe landed inside the window")                    \
	X(mtdf_passes, "searches", SEARCH, "null-window passes made by MTD(f)")                    \
	X(tt_probes, "probes", SEARCH, "table look-ups")                                           \
	X(tt_hits, "probes", SEARCH, "look-ups that found the position")                           \
	X(tt_cutoffs, "nodes", SEARCH, "nodes answered by the table alone")                        \
	X(aspiration_researches, "searches", SEARCH,                                               \
	  "root searches repeated after an aspiration window failed")                              \
	X(null_cutoffs, "nodes", SEARCH, "null-move searches that cut off")                        \
	X(reductions, "moves", SEARCH, "late moves searched reduced")                              \
	X(reduction_researches, "moves", SEARCH, "of those, searched again at full depth")         \
	X(repetitions, "nodes", SEARCH, "nodes scored as a draw by repetition")                    \
	X(qnodes, "nodes", SEARCH, "nodes of quiescence search (also counted in nodes)")           \
	X(seldepth, "plies", SEARCH_MAX,                                                           \
	  "the deepest ply reached, quiescence included (UCI's seldepth): a maximum over "         \
	  "threads and iterations so far, not a sum")                                              \
	X(nodes_pv, "nodes", PROFILER, "nodes of expected type PV")                                \
	X(nodes_cut, "nodes", PROFILER, "nodes of expected type CUT")                              \
	X(nodes_all, "nodes", PROFILER, "nodes of expected type ALL")                              \
	X(cut_nodes_wrong, "nodes", PROFILER,                                                      \
	  "interior expected-CUT nodes that searched every move without a cut-off")                \
	X(all_nodes_wrong, "nodes", PROFILER,                                                      \
	  "expected-ALL nodes that cut off (a move reached beta; null-move and table cut-offs "    \
	  "are not cut-offs anywhere)")                                                            \
	X(cut_node_cutoffs, "nodes", PROFILER, "cut-offs at expected-CUT nodes (part of cutoffs)") \
	X(cut_node_first_cutoffs, "nodes", PROFILER, "of those, by the first move tried")          \
	X(tt_hits_other, "probes", PROFILER,                                                       \
	  "of tt_hits, those whose deepest entry of the position was last written by another "     \
	  "thread of the engine; only with config.profile_tt_writers, else 0")                     \
	X(tt_stores, "nodes", SEARCH, "nodes that stored their result into the table")             \
	X(tt_stores_same, "nodes", SEARCH,                                                         \
	  "of those, stores that found the entry holding exactly what they would write, and "      \
	  "wrote nothing")                                                                         \
	X(tt_hits_shared, "probes", PROFILER,                                                      \
	  "of tt_hits_other, those whose deepest entry came from another engine through "          \
	  "cutoff_engine_import; only with config.profile_tt_writers, else 0")                     \
	X(bound_cutoffs, "nodes", SEARCH,                                                          \
	  "nodes settled by the range of values the game gives (its bounds hook) alone")           \
	X(etc_probes, "probes", SEARCH,                                                            \
	  "children played and looked up in the table, not visited, by enhanced transposition "    \
	  "cut-offs (config.etc_min_depth; also in tt_probes)")                                    \
	X(etc_cutoffs, "nodes", SEARCH,                                                            \
	  "nodes that failed high on a child's table entry, or on a terminal child, before "       \
	  "searching a move (config.etc_min_depth)")

/* Slots for the drivers' own counters: every driver's, side by side (the registry's
 * order), so that a result's counters mean the same whatever driver made them. */
#define CUTOFF_DRIVER_COUNTERS 32

typedef struct cutoff_counters {
#define CUTOFF_COUNTER_FIELD_(name, unit, who, meaning) uint64_t name;
	CUTOFF_COUNTERS(CUTOFF_COUNTER_FIELD_)
#undef CUTOFF_COUNTER_FIELD_
	uint64_t driver[CUTOFF_DRIVER_COUNTERS]; /* the drivers' counters, read through the list */
} cutoff_counters_t;

/* Who counts a counter. */
typedef enum cutoff_counted_by {
	CUTOFF_COUNTED_BY_SEARCH,   /* the search, in every build */
	CUTOFF_COUNTED_BY_PROFILER, /* the search's profiler: 0 without it */
	CUTOFF_COUNTED_BY_DRIVER    /* a driver (`driver` names it), in every build unless
	                               `profiler` */
} cutoff_counted_by_t;

/* One counter, as the library describes it. */
typedef struct cutoff_counter_info {
	const char *name;    /* the JSON key of the command's reports: "nodes", "splits" */
	const char *unit;    /* what it counts: "nodes", "moves", "probes", "searches", ... */
	const char *meaning; /* one line */
	cutoff_counted_by_t counted_by;
	bool profiler;          /* 0 when the library is built without the profiler */
	bool maximum;           /* a maximum over threads and searches (seldepth), not a sum */
	cutoff_driver_t driver; /* with CUTOFF_COUNTED_BY_DRIVER: whose; else SERIAL */
} cutoff_counter_info_t;

/* How many counters there are: the search's and the profiler's (in the order of the
 * struct), then each driver's (in the registry's order). */
CUTOFF_API int cutoff_counter_count(void);

/* Counter i (0 .. cutoff_counter_count()-1), or NULL for another i. Static: never freed. */
CUTOFF_API const cutoff_counter_info_t *cutoff_counter_info(int i);

/* The value of counter i in *c; 0 for a bad i or a NULL c. */
CUTOFF_API uint64_t cutoff_counter_value(const cutoff_counters_t *c, int i);

/* The index of the counter called `name`, or -1. */
CUTOFF_API int cutoff_counter_find(const char *name);

/*
 * Where one thread's time in a search went, from clock reads at the transitions only
 * (never per node). time_s is the same for every thread: the search's span, from the
 * first searching thread's start to the last one's end (about the wall time less the
 * engine's set-up). It splits into four parts:
 *
 *   idle_s        no work: a YBW helper waiting to be booked for a split point; any thread
 *                 before it started on the search or after it returned (woken late,
 *                 halted early, a lazy SMP thread done before the others); the whole span
 *                 for the other threads of a serial search
 *   split_wait_s  YBW: an owner out of moves at its split point, waiting for its helpers
 *                 and not booked meanwhile (time it spends helping below its own split
 *                 point, as a helpful master, is search_s)
 *   lock_s        spinning or yielding for a YBW lock another thread held (the slow path
 *                 of every lock; an uncontended lock costs no clock read and counts as
 *                 search_s); lock waits inside idle or split-wait time count there
 *   search_s      the rest: searching, and the driver's bookkeeping around it
 *                 (time_s - idle_s - split_wait_s - lock_s, never negative)
 *
 * So a serial search's thread 0 and a lazy SMP thread spend their own time in search_s;
 * search_s / time_s is the thread's share of the span spent searching.
 * depth_reached is the deepest iteration the thread started, depth_completed the deepest
 * it completed (0: none); under YBW only thread 0 iterates. In cutoff_result_t the profiles
 * of every thread are summed: times added (thread-seconds), depths the maximum. All 0
 * when the profiler is compiled out.
 */
typedef struct cutoff_profile {
	double time_s;
	double search_s;
	double idle_s;
	double split_wait_s;
	double lock_s;
	int depth_reached;
	int depth_completed;
} cutoff_profile_t;

/* One completed iteration of iterative deepening. */
typedef struct cutoff_iteration {
	int depth;
	int32_t value;
	cutoff_bound_t bound;
	cutoff_move_t best_move;
	bool solved;                /* limits.solve: this iteration's value never met the
	                               horizon (then it is the last one) */
	cutoff_counters_t counters; /* of this iteration alone, as counted by the thread that
	                               ran it (under YBW, thread 0 without its helpers) */
	double time_s;              /* since the search started, when the iteration completed */
} cutoff_iteration_t;

/* The poll hook (limits.poll): `nodes` is the search's node count so far, every thread's
 * to its latest poll. */
typedef void (*cutoff_poll_fn)(void *user, cutoff_engine_t *engine, uint64_t nodes);

/*
 * What a search may do. Start from cutoff_limits_default().
 *
 * Two ways to ask, and a newcomer's first question is which:
 *   - to the end of the game (a solver, a small game, an endgame): set `solve` and leave
 *     `depth` 0, with `iterate` false — one search, as deep as the game goes, no depth to
 *     guess; result.solved then says the value is the game's, and result.depth how long
 *     the longest line it met was. (With `iterate` true it deepens until solved, which
 *     pays only under a time limit.)
 *   - to a depth (a playing engine, a game too large to solve): set `depth`, usually with
 *     `iterate` and `time_ms`, and take the deepest iteration done in time.
 * A depth of 0 without `solve` is refused (CUTOFF_EINVAL); cutoff_engine_error says why.
 *
 * depth     plies to search, 1 .. CUTOFF_MAX_PLY - 1 (required, except with `solve`, where 0
 *           means CUTOFF_MAX_PLY - 1: as deep as the game goes).
 * iterate   true: iterative deepening 1, 2, ..., depth (the info callback is called after
 *           each completed iteration but the last, and a stopped search answers with the
 *           deepest completed one); false: one search at `depth`. Iterating ends early
 *           once a mate is proven: an exact win or loss at distance p plies with p <= the
 *           depth just completed (p <= half of it with speculative pruning on), which no
 *           deeper iteration can change; result.depth is then that depth.
 * nodes     stop after about this many nodes (0 = no limit).
 * time_ms   stop after about this many milliseconds (0 = no limit).
 * alpha, beta  the root window, -CUTOFF_INF <= alpha < beta <= CUTOFF_INF; the returned
 *           value keeps the fail-soft contract for it (docs/contract.md).
 * guess     MTD(f)'s first guess (ignored by the other algorithms).
 * played    keys of the positions played before the root, oldest first, and their
 *           number (0..CUTOFF_MAX_PLAYED; the oldest beyond that are not looked at): for
 *           repetitions (the game's `reversible` hook). NULL when there are none.
 * solve     search to the end of the game (default false). The search keeps track of
 *           whether a node's value met the horizon anywhere below it: a leaf scored at the
 *           depth limit, a repetition (a draw by the path, not by the position), a
 *           null-move cut-off, or a table answer that is not itself exact to the end. A
 *           value that met none holds at every depth: it goes into the table as such, and
 *           every later search of any depth may use it. Iterating (`iterate`) stops after
 *           the first iteration whose root value met none (result.solved); a single
 *           search reports solved likewise. The value of a solved search is the value of
 *           the game under perfect play (for the window, as always: an exact value, or a
 *           bound when it fails low or high). For games scored by plain values (a disc
 *           difference, a solver's score) whose lines have no fixed length — passes make
 *           them longer than the empty squares — this replaces guessing a depth. Costs
 *           nothing when false; with it, a table cut-off reads the bucket a second time.
 *           Unsolved, result.unsolved says why (a game longer than the ply limit wants
 *           config.max_ply); solved, result.pv is a proof line (result.pv_proof). A
 *           solver wants a large table (config.tt_mb): its entries exact to the end are
 *           its memory, and the default 16 MiB is for play (docs/contract.md, "The solve
 *           mode").
 */
typedef struct cutoff_limits {
	int depth;
	bool iterate;
	uint64_t nodes;
	uint64_t time_ms;
	int32_t alpha, beta;
	int32_t guess;
	const uint64_t *played;
	int played_length;
	bool solve;
	cutoff_poll_fn poll; /* optional: called by thread 0 about every 1024 of its nodes
	                             while it searches, with poll_user, the engine and the
	                             node count (NULL, the default: none). It runs inside the
	                             search: it must not block for long, and may only call
	                             cutoff_engine_stop and the functions of section 7 on this
	                             engine. A cluster layer's door (cutoff_cluster.h) */
	void *poll_user;
} cutoff_limits_t;

#define CUTOFF_MAX_PLAYED 1024

/* Defaults: depth 0 (must be set, unless solve), iterate false, no node or time limit, the
 * full window (-CUTOFF_INF, CUTOFF_INF), guess 0, nothing played, solve false, no poll.
 * Does nothing when lim is NULL. */
CUTOFF_API void cutoff_limits_default(cutoff_limits_t *lim);

/* Why a search asked to solve (limits.solve) did not (result.unsolved), first that holds:
 *   STOPPED    a limit (nodes, time) or cutoff_engine_stop ended it first
 *   PLY_LIMIT  lines reached the ply limit (config.max_ply): the game goes on deeper
 *   DEPTH      limits.depth: the game goes on past the depth asked
 *   PATH       values that hold only for their path or search: repetitions (a draw by the
 *              path), null-move cut-offs (speculative pruning)
 *   TABLE      the table answered with entries that hold only to a depth (left by earlier
 *              searches that were not solves: cutoff_engine_clear first) */
enum {
	CUTOFF_UNSOLVED_STOPPED = 1,
	CUTOFF_UNSOLVED_PLY_LIMIT = 2,
	CUTOFF_UNSOLVED_DEPTH = 3,
	CUTOFF_UNSOLVED_PATH = 4,
	CUTOFF_UNSOLVED_TABLE = 5
};

/* The answer of a search. It is large — tens of kilobytes (sizeof(cutoff_result_t)), most
 * of it iteration[] (CUTOFF_MAX_PLY entries) — so keep it in static or heap memory, or on
 * a thread whose stack has room for it, not on a small worker stack. */
typedef struct cutoff_result {
	int32_t value;           /* fail-soft value for the root window */
	cutoff_bound_t bound;    /* what value says about the true value */
	cutoff_move_t best_move; /* CUTOFF_MOVE_NONE only when no move was searched */
	int depth;               /* the depth the value belongs to (deepest completed). A
	                             single search with limits.solve and depth 0 searches
	                             to CUTOFF_MAX_PLY - 1; once solved it reports the
	                             longest line it met (counters.seldepth) instead — on a
	                             table warm from earlier solves, lines end at its exact
	                             entries, so this may be far less than the game's
	                             length — and CUTOFF_MAX_PLY - 1 when not solved */
	bool stopped;            /* a limit or cutoff_engine_stop() ended the search early */
	bool solved;             /* limits.solve: the value never met the horizon, so it is
	                             the game's value to the end (for the window), whatever
	                             the depth; false without limits.solve */
	int unsolved;            /* limits.solve and not solved: why, a CUTOFF_UNSOLVED_* (the
	                             value is then the horizon's, not the game's, and
	                             cutoff_engine_error says it in words); 0 when solved or
	                             not asked to solve */
	int pv_length;           /* moves in pv[] */
	cutoff_move_t pv[CUTOFF_PLY_LIMIT]; /* principal variation from the root: the search's
	                             own, continued from the table where a table answer cut
	                             it short and the entries prove it (an exact root value
	                             only; it may still end before the horizon). After a
	                             solved search with an exact value, a proof line instead
	                             (pv_proof) */
	bool pv_proof;     /* pv is a proof line: the search is solved, its value exact,
	                             and every move of pv keeps that value (each was proved by a
	                             null-window search after the solve, mostly answered by the
	                             table: a line that a null-window search wrote, MTD(f)'s,
	                             may hold a move that does not, and is mended). The line
	                             goes on to the end of the game, or ends where a move could
	                             not be proved (a limit or a stop, a cycle, the ply limit);
	                             its first move is the search's best move. False otherwise:
	                             then only pv[0] is sure to reach the value */
	uint64_t pv_nodes; /* the nodes that proof searched (not in counters) */
	cutoff_counters_t counters;
	double time_s;            /* wall time of the search */
	cutoff_profile_t profile; /* every thread's profile, summed (cutoff_profile_t); all 0 in
	                             the partial results given to the info callback */
	int iterations;           /* entries in iteration[]: every completed iteration (at most
	                             CUTOFF_MAX_PLY: under a ply limit above it, the last entry
	                             is the latest iteration) */
	cutoff_iteration_t iteration[CUTOFF_MAX_PLY]; /* the entries past `iterations` are not
	                             written by the search (nor cleared) */
} cutoff_result_t;

/* The counters of thread `thread` (0 .. threads-1) in the latest search: per-thread node
 * rates and load balance. CUTOFF_EINVAL for NULL or a bad index; CUTOFF_EBUSY while a
 * search of this engine runs (from its info callback, or from another thread), *counters
 * untouched. A search must not start while the call runs. */
CUTOFF_API int cutoff_engine_thread_counters(const cutoff_engine_t *engine, int thread,
                                             cutoff_counters_t *counters);

/* The profile of thread `thread` in the latest search (see cutoff_profile_t). CUTOFF_EINVAL
 * for a bad index or NULL; CUTOFF_EBUSY, *profile untouched, while a search of this engine
 * runs, as for cutoff_engine_thread_counters. */
CUTOFF_API int cutoff_engine_thread_profile(const cutoff_engine_t *engine, int thread,
                                            cutoff_profile_t *profile);

/* Adds c into *sum as the engine sums its threads into a result: every counter added,
 * seldepth the maximum. For callers summing per-thread counters or several searches.
 * Does nothing when either is NULL. */
CUTOFF_API void cutoff_counters_add(cutoff_counters_t *sum, const cutoff_counters_t *c);

/* Adds p into *sum as the engine sums its threads' profiles: times added, depths the
 * maximum. Does nothing when either is NULL. */
CUTOFF_API void cutoff_profile_add(cutoff_profile_t *sum, const cutoff_profile_t *p);

/* True when the library was built with the profiler (CMake option CUTOFF_PROFILE, on by
 * default); without it every profiler counter and time reads 0. */
CUTOFF_API bool cutoff_profile_available(void);

/* Called after each completed iteration of an iterative search, from the searching
 * thread, with a result as it stands. It must not call into the engine (except
 * cutoff_engine_stop). */
typedef void (*cutoff_info_fn)(void *user, const cutoff_result_t *partial);

/*
 * Searches `root` (a state of engine's game) within `limits` and writes the answer into
 * *result. `info` may be NULL, and so may `info_user`, which is only passed on to it; a
 * NULL engine, root, limits or result is CUTOFF_EINVAL, with nothing written. Runs in the
 * calling thread (and the engine's own threads); returns when done.
 *
 * Returns 0 on success. A search stopped by a limit or by cutoff_engine_stop() also
 * returns 0, with result->stopped set and the answer of the deepest completed iteration
 * (under lazy SMP with config.lazysmp_vote, of the thread that the vote chose: a completed
 * iteration, perhaps not the deepest);
 * when not even that exists, value and bound are 0 and CUTOFF_BOUND_NONE and best_move
 * is still a legal move (the first one generated). CUTOFF_ETERMINAL when the root is
 * terminal (the result then holds its value, bound exact, no move); CUTOFF_EINVAL for bad
 * arguments or limits; CUTOFF_EBUSY when this engine is already searching (checked first:
 * a busy engine's refusal says nothing of the arguments); CUTOFF_EGAME when the game broke
 * its contract at the root or anywhere in the tree (a move count outside 1 .. max_moves
 * from gen_moves or 0 .. max_moves from gen_noisy, which includes a non-terminal state
 * without a move; a value from evaluate or terminal outside the range of section 1, the
 * root's included): every thread stops, and the result holds no answer (value 0, bound
 * NONE, best_move NONE, no iterations; its counters and times say what was searched). The
 * engine stays usable. Every failure but CUTOFF_EBUSY (and a NULL engine) leaves its
 * reason, naming the limit, or the callback, count and ply, in cutoff_engine_error and
 * tells it to the log callback.
 */
CUTOFF_API int cutoff_engine_search(cutoff_engine_t *engine, const void *root,
                                    const cutoff_limits_t *limits, cutoff_result_t *result,
                                    cutoff_info_fn info, void *info_user);

/* ---------------------------------------------------------------------------------------
 * 5. The transposition table
 *
 * Every engine owns one (config.tt_mb); it is public so that it can be tested, measured
 * (`cutoff ttbench`) and reused on its own. Any number of threads may probe and store at
 * once with no lock: an entry torn by concurrent writers is never returned as a hit. The
 * layout, replacement rule and memory-ordering argument open src/core/tt.c.
 * ------------------------------------------------------------------------------------- */

typedef struct cutoff_tt cutoff_tt_t;

/* Table flags. */
enum {
	CUTOFF_TT_LOCKED = 1 /* guard every bucket with a spinlock: a baseline to measure the
	                        lock-free table against, never faster */
};

/* What a probe learnt about one position, for a search of a given depth. */
typedef struct cutoff_tt_hit {
	int32_t lower;      /* best lower bound from entries at least that deep, or -CUTOFF_INF */
	int32_t upper;      /* best upper bound likewise, or +CUTOFF_INF */
	cutoff_move_t move; /* the move of the deepest entry of the position (any depth), or
	                       CUTOFF_MOVE_NONE; not checked for legality */
	int depth;          /* the depth of the deepest entry found, or -1 */
} cutoff_tt_hit_t;

/* A table of at most `mb` MiB (1 .. CUTOFF_MAX_TT_MB), in whole 64-byte buckets, its memory
 * interleaved over the NUMA nodes where the system supports it. `flags`: 0 or
 * CUTOFF_TT_LOCKED. NULL with *err (when not NULL) CUTOFF_EINVAL for a bad size or flag,
 * CUTOFF_ENOMEM when the memory cannot be had. */
CUTOFF_API cutoff_tt_t *cutoff_tt_new(size_t mb, unsigned flags, int *err);

/* Frees the table. NULL is ignored. */
CUTOFF_API void cutoff_tt_free(cutoff_tt_t *tt);

/* Empties part `part` of `parts` equal slices of the table (0 <= part < parts), so that
 * several threads can clear it together; cutoff_tt_clear does it all. Only while nobody
 * probes or stores. Does nothing for a NULL table or a part outside 0 .. parts-1. */
CUTOFF_API void cutoff_tt_clear_part(cutoff_tt_t *tt, int part, int parts);
CUTOFF_API void cutoff_tt_clear(cutoff_tt_t *tt);

/* Starts a new search generation: entries of older ones are replaced first. Only while
 * nobody probes or stores. Does nothing for NULL. */
CUTOFF_API void cutoff_tt_new_search(cutoff_tt_t *tt);

/* Looks up `key` for a search of `depth` plies at distance `ply` from the root (win
 * scores are stored as distance from the node and converted back). Writes *hit in every
 * case; returns true when the position was found. Thread-safe, lock-free. A NULL table
 * holds nothing: *hit says "nothing found" (lower -CUTOFF_INF, upper CUTOFF_INF, move
 * CUTOFF_MOVE_NONE, depth -1) and the answer is false. A NULL hit: false, nothing looked
 * up. */
CUTOFF_API bool cutoff_tt_probe(const cutoff_tt_t *tt, uint64_t key, int depth, int ply,
                                cutoff_tt_hit_t *hit);

/* Records that a search of `depth` plies (0..255) of `key` at distance `ply` from the
 * root returned `value` with `bound` (UPPER, LOWER or EXACT; NONE is ignored) and `move`
 * (may be CUTOFF_MOVE_NONE). Thread-safe, lock-free. Does nothing for a NULL table. */
CUTOFF_API void cutoff_tt_store(cutoff_tt_t *tt, uint64_t key, int depth, int ply,
                                cutoff_bound_t bound, int32_t value, cutoff_move_t move);

/* Per mille of sampled entries written in the current generation (UCI's hashfull); 0 for
 * NULL. */
CUTOFF_API int cutoff_tt_hashfull(const cutoff_tt_t *tt);

/* The number of entries (four per 64-byte bucket); 0 for NULL. */
CUTOFF_API uint64_t cutoff_tt_entries(const cutoff_tt_t *tt);

/* ---------------------------------------------------------------------------------------
 * 6. Topology and placement
 * ------------------------------------------------------------------------------------- */

/* What hwloc sees of the CPUs this process may use. */
typedef struct cutoff_topology_info {
	int packages, numa_nodes, cores, pus;
} cutoff_topology_info_t;

/* Describes `topology` (a loaded hwloc_topology_t; NULL: load this machine's, honouring
 * HWLOC_SYNTHETIC and the like). Returns 0, CUTOFF_EINVAL (info is NULL), or
 * CUTOFF_ENOMEM. */
CUTOFF_API int cutoff_topology_describe(void *topology, cutoff_topology_info_t *info);

/*
 * The placement plan for `threads` threads under `policy`: pu[i] is the operating-system
 * index of the processing unit (hardware thread) that thread i is bound to, or -1 when
 * it is not bound (CUTOFF_PLACE_NONE, and always thread 0, the caller); core[i], when
 * `core` is not NULL, the logical index of its core, package[i] and numa[i] likewise (-1
 * when unbound or unknown). More threads than PUs wrap around the plan. The engine binds
 * its workers exactly so. `topology` NULL: this machine's, loaded for the call (as in
 * cutoff_topology_describe); core, package and numa may each be NULL (not written).
 * Returns 0, CUTOFF_EINVAL (pu NULL, or a bad thread count or policy) or CUTOFF_ENOMEM.
 */
CUTOFF_API int cutoff_topology_plan(void *topology, int threads, cutoff_placement_t policy, int *pu,
                                    int *core, int *package, int *numa);

/* ---------------------------------------------------------------------------------------
 * 7. Sharing with other engines
 *
 * What a layer that makes several engines (in several processes, on several machines)
 * search one position together needs from each: the deep entries its threads store, and
 * a way to put other engines' entries into its table. The cluster layer
 * (cutoff_cluster.h) is built on these, and they are all it uses besides the rest of
 * this header. Every call here may be made while the engine searches (from its poll hook,
 * or from any other thread), and none allocates.
 * ------------------------------------------------------------------------------------- */

/* One table entry as it travels: the full 64-bit key; the value as the table keeps it (a
 * win or loss counted from this position, not from a root: store it with ply 0); the
 * depth it holds for (255: to the end of the game, limits.solve); its bound (UPPER, LOWER
 * or EXACT) and move (CUTOFF_MOVE_NONE for an upper bound). 16 bytes, no padding. */
typedef struct cutoff_tt_entry {
	uint64_t key;
	cutoff_move_t move;
	int16_t value;
	uint8_t depth;
	uint8_t bound;
} cutoff_tt_entry_t;

/*
 * Takes up to `max` of the oldest entries that thread `thread` of the engine stored at a
 * depth of at least the export depth (cutoff_engine_export_depth) into out[], and
 * returns how many (0 .. max). Each thread keeps config.share_ring of them in a ring; an
 * entry stored while its ring is full is dropped, and *dropped (when not NULL) receives
 * the number dropped by that thread since the search began. The rings are emptied when a
 * search starts. At most one caller at a time per thread (any number of threads may each
 * take from a different one). CUTOFF_EINVAL for a NULL engine or out, a bad thread index
 * or max < 0; CUTOFF_ENOTSUP when config.share_ring is 0.
 */
CUTOFF_API int cutoff_engine_export(cutoff_engine_t *engine, int thread, cutoff_tt_entry_t *out,
                                    int max, uint64_t *dropped);

/* Sets the export depth: stores of fewer plies are not exported (0 .. 255; 255 exports
 * only values exact to the end of the game). It starts at 0 and keeps its value across
 * searches; a layer raises it when its rings or messages overflow. CUTOFF_EINVAL for NULL
 * or a depth out of range. */
CUTOFF_API int cutoff_engine_export_depth(cutoff_engine_t *engine, int depth);

/*
 * Stores n entries (from another engine's export, over a network: every field is
 * checked) into the engine's table through its normal store path, as any thread of the
 * engine would (with the profiler's writers, they count as tt_hits_shared when found).
 * An entry with a bound that is not UPPER, LOWER or EXACT or a value beyond +-CUTOFF_WIN
 * is skipped. Returns the number written (the table may keep an entry that says more
 * instead); CUTOFF_EINVAL for a NULL engine, in NULL with n > 0, or n < 0; CUTOFF_ENOTSUP
 * when the engine has no table.
 */
CUTOFF_API int cutoff_engine_import(cutoff_engine_t *engine, const cutoff_tt_entry_t *in, int n);

#ifdef __cplusplus
}
#endif

#endif /* CUTOFF_H */
