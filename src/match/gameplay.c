/* SPDX-License-Identifier: MIT */
/*
 * gameplay.c — one game of `cutoff match`: both engines told of the new game, then, until the
 * rules or a fault end it, the side to move is sent the position and a go command, its
 * bestmove is awaited within the time it has, charged to its clock, checked by the chess
 * adapter and played.
 *
 * Owns nothing but the game's list of position keys (game_t.keys, reused from one game to
 * the next by the same game_t). Everything else the game reads is the match's settings
 * (read only), and everything it writes is its own record, its own game_t and its own two
 * engines, so that games given their own game_t and engines could be played side by side.
 *
 * One engine of the game thinks at a time, and the referee waits for it with poll()
 * (player.c). With --concurrency each slot plays its games on its own thread (slots.c):
 * a game's clocks are its game_t's, charged from its own engine's answer, so that games
 * side by side share no clock; the match's settings are only read.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "match/referee.h"

/* The first word after "bestmove" (cut in place), or false for any other line. */
static bool parse_bestmove(char *line, char **mv)
{
	const char *p = line;
	while (*p == ' ' || *p == '\t')
		p++;
	if (!match_word_is(&p, "bestmove"))
		return false;
	char *s = (char *)p;
	size_t n = strcspn(s, " \t");
	s[n] = '\0';
	*mv = s;
	return true;
}

/* ucinewgame and isready for a new game. FAULT_NONE, or the game forfeited. */
static fault_t new_game(game_t *gm, int colour)
{
	engine_t *e = game_engine(gm, colour);
	char why[REASON_SIZE], msg[REASON_SIZE];
	fault_t f;
	if (match_engine_send(e, "ucinewgame") != 0 || match_engine_send(e, "isready") != 0) {
		match_engine_describe_end(e, why, sizeof(why));
		f = FAULT_CRASH;
	} else {
		f = match_engine_expect(e, "readyok", why, sizeof(why));
	}
	if (f != FAULT_NONE) {
		snprintf(msg, sizeof(msg), "failed at the start of the game: %.200s", why);
		match_forfeit(gm, colour, f, msg);
	}
	return f;
}

/* Sends the side to move (engine e) the position and `go`, with *t0 the moment just
 * before go. FAULT_NONE, or the game forfeited. */
static fault_t send_go(game_t *gm, engine_t *e, const char *go, int64_t *t0)
{
	const game_rec_t *g = gm->g;
	match_sb_t cmd = { 0 };
	if (g->opening < 0)
		match_sb_str(&cmd, "position startpos");
	else
		match_sb_printf(&cmd, "position fen %s", g->fen);
	if (g->plies > 0) {
		match_sb_str(&cmd, " moves ");
		match_sb_str(&cmd, match_sb_text(&g->moves));
	}
	if (cmd.oom) {
		free(cmd.p);
		match_forfeit(gm, gm->colour, FAULT_CRASH,
		              "could not be sent the position: out of memory");
		return FAULT_CRASH;
	}
	match_engine_drain(e);
	int rc = match_engine_send(e, match_sb_text(&cmd));
	free(cmd.p);
	*t0 = (int64_t)cli_now_ns();
	if (rc == 0)
		rc = match_engine_send(e, go);
	if (rc != 0) {
		char why[REASON_SIZE], msg[REASON_SIZE];
		match_engine_describe_end(e, why, sizeof(why));
		snprintf(msg, sizeof(msg), "could not be sent its move: it %.200s", why);
		match_forfeit(gm, gm->colour, FAULT_CRASH, msg);
		return FAULT_CRASH;
	}
	return FAULT_NONE;
}

/* The engine's report of an error ("info string error: ...", as cutoff uci says that it
 * refused a command: src/uci/say.c), its text after the words; NULL for any other
 * line. */
static const char *reported_error(const char *line)
{
	const char *p = line;
	while (*p == ' ' || *p == '\t')
		p++;
	if (!match_word_is(&p, "info") || !match_word_is(&p, "string"))
		return NULL;
	return match_word_is(&p, "error:") || match_word_is(&p, "error") ? p : NULL;
}

/* Waits for the bestmove of the side to move (engine e), asked at t0 and due within
 * `limit`; *text is its move. FAULT_NONE, or the game forfeited. An error reported
 * meanwhile forfeits the game at once: the engine refused the position or the go (a
 * limit out of its range, say), and its bestmove, if one comes, was not searched under
 * the match's control; the engine is started again before its next game. */
static fault_t await_bestmove(game_t *gm, engine_t *e, int64_t t0, int64_t limit, char **text)
{
	const tc_t *tc = game_tc(gm, gm->colour);
	char why[REASON_SIZE];
	for (;;) {
		char *line = NULL;
		uci_read_t rs = match_engine_read(e, t0 + limit, &line);
		if (rs == UCI_LINE_EOF) {
			char how[100];
			match_engine_describe_end(e, how, sizeof(how));
			snprintf(why, sizeof(why), "%s while thinking", how);
			match_forfeit(gm, gm->colour, FAULT_CRASH, why);
			return FAULT_CRASH;
		}
		if (rs == UCI_LINE_TIMEOUT) {
			int64_t waited = (int64_t)cli_now_ns() - t0;
			(void)match_tc_charge(gm, e, gm->colour, waited, limit);
			if (match_tc_timed(tc)) {
				snprintf(why, sizeof(why),
				         "lost on time: no bestmove within the %.3f s it had%s",
				         secs(limit), tc->margin ? " (margin included)" : "");
				match_forfeit(gm, gm->colour, FAULT_TIME, why);
				return FAULT_TIME;
			}
			snprintf(why, sizeof(why), "sent no bestmove within %" PRId64 " s",
			         tc->timeout / NS_PER_S);
			match_forfeit(gm, gm->colour, FAULT_HANG, why);
			return FAULT_HANG;
		}
		const char *error = reported_error(line);
		if (error) {
			/* The engine's words, cut to fit, control bytes made '?' for the text
			 * report (JSON and PGN make the rest of them safe). */
			char words[180];
			snprintf(words, sizeof(words), "%s", error);
			for (char *c = words; *c; c++)
				if ((unsigned char)*c < ' ' || *c == 0x7f)
					*c = '?';
			snprintf(why, sizeof(why), "reported an error instead of searching (%s)",
			         words);
			match_forfeit(gm, gm->colour, FAULT_ERROR, why);
			return FAULT_ERROR;
		}
		if (parse_bestmove(line, text))
			return FAULT_NONE;
	}
}

/* Checks the move `text` of the side to move and plays it. FAULT_NONE, or the game
 * forfeited for an illegal move. */
static fault_t play_answer(game_t *gm, const char *text)
{
	const match_t *m = gm->m;
	game_rec_t *g = gm->g;
	cutoff_move_t mv;
	char err[160], why[REASON_SIZE], q[CLI_QUOTE_SIZE];
	if (*text == '\0') {
		match_forfeit(gm, gm->colour, FAULT_ILLEGAL, "sent a bestmove without a move");
		return FAULT_ILLEGAL;
	}
	if (cutoff_chess_parse_move(m->chess, &gm->pos, text, &mv, err, sizeof(err)) != 0) {
		snprintf(why, sizeof(why), "played an illegal move %s: %s",
		         cli_quote(q, sizeof(q), text), err);
		match_forfeit(gm, gm->colour, FAULT_ILLEGAL, why);
		return FAULT_ILLEGAL;
	}
	char canon[CUTOFF_CHESS_MOVE_SIZE];
	cutoff_chess_move_str(mv, canon, sizeof(canon));
	if (g->plies > 0)
		match_sb_str(&g->moves, " ");
	match_sb_str(&g->moves, canon);
	g->plies++;
	(void)cutoff_chess_play(m->chess, &gm->pos, mv, &gm->pos);
	return FAULT_NONE;
}

/* Asks the side to move for its move. FAULT_NONE with the move played, or a fault with
 * the game ended. */
static fault_t ask_move(game_t *gm)
{
	int colour = gm->colour;
	engine_t *e = game_engine(gm, colour);
	char go[160];
	const tc_t *by_colour[2] = { game_tc(gm, 0), game_tc(gm, 1) };
	int64_t limit = match_tc_go(by_colour, gm->clock, colour, go, sizeof(go));
	int64_t t0;
	char *text = NULL;
	fault_t f = send_go(gm, e, go, &t0);
	if (f == FAULT_NONE)
		f = await_bestmove(gm, e, t0, limit, &text);
	if (f != FAULT_NONE)
		return f;
	int64_t took = e->proc.rtime - t0;
	e->moves++;
	gm->g->nmoves[colour]++;
	if (!match_tc_charge(gm, e, colour, took, limit)) {
		char why[REASON_SIZE];
		snprintf(why, sizeof(why),
		         "lost on time: its move took %.3f s with %.3f s to spend%s", secs(took),
		         secs(limit), game_tc(gm, colour)->margin ? " (margin included)" : "");
		match_forfeit(gm, colour, FAULT_TIME, why);
		return FAULT_TIME;
	}
	return play_answer(gm, text);
}

/* Sets up the game and its record: colours, start position, clocks. */
static void begin(const match_t *m, engine_t *eng, int index, game_t *gm)
{
	game_rec_t *g = &m->games[index];
	gm->m = m;
	gm->index = index;
	gm->g = g;
	gm->eng = eng;
	gm->nkeys = 0;
	g->white = index % 2;
	g->winner = -1;
	g->fault = FAULT_NONE;
	g->fault_engine = -1;
	if (m->nopenings > 0) {
		g->opening = (index / 2) % m->nopenings;
		gm->pos = m->openings[g->opening].pos;
		snprintf(g->fen, sizeof(g->fen), "%s", m->openings[g->opening].fen);
	} else {
		g->opening = -1;
		cutoff_chess_start(m->chess, &gm->pos);
		snprintf(g->fen, sizeof(g->fen), "%s", CUTOFF_CHESS_START_FEN);
	}
	for (int c = 0; c < 2; c++) {
		gm->clock[c] = game_tc(gm, c)->base;
		g->min_clock[c] = INT64_MAX;
		g->used[c] = 0;
		g->nmoves[c] = 0;
	}
	gm->colour = match_fen_side(g->fen);
}

int match_game_play(const match_t *m, engine_t *eng, int index, game_t *gm)
{
	begin(m, eng, index, gm);
	game_rec_t *g = gm->g;
	if (eng[0].slot > 0)
		match_log_note(&m->log,
		               "game %d: slot %d, engine %d white, engine %d black, from %s",
		               index + 1, eng[0].slot, g->white + 1, 2 - g->white, g->fen);
	else
		match_log_note(&m->log, "game %d: engine %d white, engine %d black, from %s",
		               index + 1, g->white + 1, 2 - g->white, g->fen);
	for (int c = 0; c < 2; c++) {
		if (new_game(gm, c) != FAULT_NONE)
			return CLI_EXIT_OK;
	}
	for (;;) {
		int over = match_rules_over(gm);
		if (over < 0) {
			cli_error(MATCH_CMD, "out of memory");
			return CLI_EXIT_FAIL;
		}
		if (over > 0 || ask_move(gm) != FAULT_NONE)
			return CLI_EXIT_OK;
		if (g->moves.oom) {
			cli_error(MATCH_CMD, "out of memory");
			return CLI_EXIT_FAIL;
		}
		gm->colour = 1 - gm->colour;
	}
}

void match_game_free(game_t *gm)
{
	free(gm->keys);
	gm->keys = NULL;
	gm->nkeys = gm->capkeys = 0;
}
