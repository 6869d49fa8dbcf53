/* SPDX-License-Identifier: MIT */
/*
 * rules.c — how a game of `cutoff match` ends: by the rules of chess, by the move limit, or
 * by a fault of one engine, and the FEN fields the other files read.
 *
 * The rules come from the library: checkmate, stalemate, the fifty-move rule and
 * insufficient material from the game's terminal callback; threefold repetition from the
 * Zobrist keys of the game's positions, which the referee keeps in the game (a state does
 * not hold the game that led to it). The fifty-move rule and repetition are applied at
 * once, as referees do, not left to a claim.
 *
 * Faults. An illegal or malformed bestmove, a loss on time, an engine that exits or closes
 * its output, and an engine that gives no answer where no clock runs (readyok; a bestmove
 * under --depth or --nodes) within --timeout each lose the game for that engine. The
 * engine is marked broken; the command kills it and starts it again before the next game,
 * so that nothing it was still doing leaks into the next game.
 *
 * Owns nothing; writes the game's record (result, reason, fault) and its list of keys.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "match/referee.h"

const char *const match_fault_names[NFAULTS] = { "none",  "illegal_move", "time",
	                                         "crash", "no_answer",    "engine_error" };

int64_t match_fen_field_int(const char *fen, int field)
{
	const char *p = fen;
	for (int i = 0; i < field && p; i++) {
		p = strchr(p, ' ');
		if (p)
			p++;
	}
	return p ? strtoll(p, NULL, 10) : 0;
}

int match_fen_side(const char *fen)
{
	const char *p = strchr(fen, ' ');
	return p && p[1] == 'b' ? 1 : 0;
}

void match_end_game(game_rec_t *g, int winner_colour, const char *termination, const char *fmt, ...)
{
	g->winner = winner_colour < 0 ? -1 : winner_colour == 0 ? g->white : 1 - g->white;
	g->result = winner_colour < 0 ? "1/2-1/2" : winner_colour == 0 ? "1-0" : "0-1";
	g->termination = termination;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(g->reason, sizeof(g->reason), fmt, ap);
	va_end(ap);
}

void match_forfeit(game_t *gm, int colour, fault_t f, const char *why)
{
	game_rec_t *g = gm->g;
	int ei = colour == 0 ? g->white : 1 - g->white;
	engine_t *e = &gm->eng[ei];
	e->faults[f]++;
	e->broken = true;
	g->fault = f;
	g->fault_engine = ei;
	static const char *const term[NFAULTS] = { "normal",    "rules infraction", "time forfeit",
		                                   "abandoned", "abandoned",        "abandoned" };
	match_end_game(g, 1 - colour, term[f], "engine %d (%s) %s", e->id,
	               colour == 0 ? "white" : "black", why);
	match_log_note(&gm->m->log, "game %d: %s", gm->index + 1, g->reason);
}

static bool push_key(game_t *gm, uint64_t key)
{
	if (gm->nkeys == gm->capkeys) {
		size_t cap = gm->capkeys ? 2 * gm->capkeys : 256;
		uint64_t *k = realloc(gm->keys, cap * sizeof(*k));
		if (!k)
			return false;
		gm->keys = k;
		gm->capkeys = cap;
	}
	gm->keys[gm->nkeys++] = key;
	return true;
}

/* The position after the last move stands for the third time (its key, which covers the
 * side to move, castling rights and a capturable en-passant square, seen twice before). */
static bool threefold(const game_t *gm)
{
	uint64_t k = gm->keys[gm->nkeys - 1];
	int seen = 0;
	for (size_t i = 0; i + 1 < gm->nkeys; i++)
		seen += gm->keys[i] == k;
	return seen >= 2;
}

/* The position is terminal by the game's callback: ends the game with the reason. */
static bool terminal(const match_t *m, game_t *gm)
{
	int32_t value;
	if (!m->game->terminal(m->game->ctx, &gm->pos, &value))
		return false;
	char fen[CUTOFF_CHESS_FEN_SIZE];
	cutoff_move_t list[CUTOFF_MAX_MOVES];
	cutoff_chess_fen(m->chess, &gm->pos, fen, sizeof(fen));
	if (value < 0)
		match_end_game(gm->g, 1 - gm->colour, "normal", "checkmate");
	else if (cutoff_chess_moves(m->chess, &gm->pos, list) == 0)
		match_end_game(gm->g, -1, "normal", "stalemate");
	else if (match_fen_field_int(fen, 4) >= 100)
		match_end_game(gm->g, -1, "normal", "fifty-move rule");
	else
		match_end_game(gm->g, -1, "normal", "insufficient material");
	return true;
}

int match_rules_over(game_t *gm)
{
	const match_t *m = gm->m;
	if (!push_key(gm, m->game->key(m->game->ctx, &gm->pos)))
		return -1;
	if (terminal(m, gm))
		return 1;
	if (threefold(gm)) {
		match_end_game(gm->g, -1, "normal", "threefold repetition");
		return 1;
	}
	if (m->max_moves > 0 && gm->g->plies >= 2 * m->max_moves) {
		match_end_game(gm->g, -1, "adjudication", "move limit (%" PRId64 " moves each)",
		               m->max_moves);
		return 1;
	}
	return 0;
}
