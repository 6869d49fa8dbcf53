/* SPDX-License-Identifier: MIT */
/*
 * game.c — the context's constructor, the game-interface callbacks and the public chess
 * functions.
 *
 * The callbacks receive the engine's state buffers (aligned like max_align_t, never
 * aliased) and read them as chess_pos_t directly. The public functions take the user's
 * cutoff_chess_state_t and copy it in and out with memcpy, so that no object is read
 * through a type it was not written with.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chess.h"

/* ---- game-interface callbacks ---- */

/* Pawn 1 .. queen 5, king 6: the "value" MVV-LVA orders by. */
static int32_t capture_hint(const chess_pos_t *p, unsigned m)
{
	unsigned to = move_to(m);
	int victim;
	if (move_kind(m) == MOVE_EN_PASSANT)
		victim = CHESS_PAWN;
	else if (p->colour[p->side ^ 1] & BB(to))
		victim = chess_piece_on(p, (int)to);
	else
		return 0;
	int attacker = chess_piece_on(p, (int)move_from(m));
	return 1000 + 10 * (victim + 1) - (attacker + 1);
}

static int32_t move_hint(const chess_pos_t *p, unsigned m)
{
	int32_t h = capture_hint(p, m);
	if (move_kind(m) == MOVE_PROMOTION) {
		if (move_promo_piece(m) == CHESS_QUEEN)
			h += 2000;
		else if (h == 0)
			h = -1;
	}
	return h;
}

static int write_moves(const chess_pos_t *p, const uint16_t *list, int n, cutoff_move_t *moves,
                       int32_t *hints)
{
	/* More than CUTOFF_CHESS_MAX_MOVES cannot happen in a game (218 at most); see
	 * chess.h. */
	if (n > CUTOFF_CHESS_MAX_MOVES)
		n = CUTOFF_CHESS_MAX_MOVES;
	for (int i = 0; i < n; i++) {
		moves[i] = list[i];
		if (hints)
			hints[i] = move_hint(p, list[i]);
	}
	return n;
}

static int game_gen_moves(const void *ctx, const void *state, cutoff_move_t *moves, int32_t *hints)
{
	const chess_pos_t *p = state;
	uint16_t list[CHESS_LIST_CAP];
	int n = chess_gen_legal(ctx, p, list, false);
	return write_moves(p, list, n, moves, hints);
}

static int game_gen_noisy(const void *ctx, const void *state, cutoff_move_t *moves, int32_t *hints)
{
	const chess_pos_t *p = state;
	uint16_t list[CHESS_LIST_CAP];
	int n = chess_gen_legal(ctx, p, list, true);
	return write_moves(p, list, n, moves, hints);
}

static void game_play(const void *ctx, const void *state, cutoff_move_t move, void *child)
{
	chess_make(ctx, state, move, child);
}

static int32_t game_evaluate(const void *ctx, const void *state)
{
	return chess_evaluate(ctx, state);
}

static bool game_terminal(const void *ctx, const void *state, int32_t *value)
{
	const cutoff_chess_t *t = ctx;
	const chess_pos_t *p = state;
	if (chess_insufficient(p)) {
		*value = 0;
		return true;
	}
	if (!chess_has_legal(t, p)) {
		*value = chess_in_check(t, p) ? -CUTOFF_WIN : 0;
		return true;
	}
	/* Checked after mate: a move that mates on the hundredth ply still wins. */
	if (p->halfmove >= 100) {
		*value = 0;
		return true;
	}
	return false;
}

static uint64_t game_key(const void *ctx, const void *state)
{
	(void)ctx;
	return ((const chess_pos_t *)state)->key;
}

static bool game_play_null(const void *ctx, const void *state, void *child)
{
	const cutoff_chess_t *t = ctx;
	const chess_pos_t *p = state;
	if (chess_in_check(t, p))
		return false;
	chess_pos_t *c = child;
	*c = *p;
	c->key ^= t->z_side;
	if (p->ep != CHESS_NO_SQ) {
		c->key ^= t->z_ep[p->ep & 7];
		c->ep = CHESS_NO_SQ;
	}
	c->halfmove++;
	c->fullmove = (uint16_t)(c->fullmove + p->side);
	c->side ^= 1;
	return true;
}

static bool game_in_check(const void *ctx, const void *state) { return chess_in_check(ctx, state); }

/* Plies since the last capture or pawn move: how far back a repetition may lie. */
static int game_reversible(const void *ctx, const void *state)
{
	(void)ctx;
	return ((const chess_pos_t *)state)->halfmove;
}

static bool legal_in(const cutoff_chess_t *t, const chess_pos_t *p, cutoff_move_t move)
{
	if (move > 0xffff || !(p->colour[p->side] & BB(move_from(move))))
		return false;
	uint16_t list[CHESS_LIST_CAP];
	int n = chess_gen_legal(t, p, list, false);
	for (int i = 0; i < n; i++) {
		if (list[i] == move)
			return true;
	}
	return false;
}

/* ---- the context ---- */

cutoff_chess_t *cutoff_chess_new(int *err)
{
	size_t size = (sizeof(cutoff_chess_t) + 63) / 64 * 64;
	cutoff_chess_t *t = aligned_alloc(64, size);
	if (!t) {
		if (err)
			*err = CUTOFF_ENOMEM;
		return NULL;
	}
	memset(t, 0, sizeof(*t));
	chess_tables_init(t);
	chess_eval_init(t);
	chess_dispatch_init(t);
	t->game = (cutoff_game_t){
		.name = "chess",
		.state_size = sizeof(chess_pos_t),
		.max_moves = CUTOFF_CHESS_MAX_MOVES,
		.ctx = t,
		.gen_moves = game_gen_moves,
		.play = game_play,
		.evaluate = game_evaluate,
		.terminal = game_terminal,
		.key = game_key,
		.gen_noisy = game_gen_noisy,
		.play_null = game_play_null,
		.in_check = game_in_check,
		.reversible = game_reversible,
	};
	if (err)
		*err = CUTOFF_OK;
	return t;
}

void cutoff_chess_free(cutoff_chess_t *chess) { free(chess); }

const cutoff_game_t *cutoff_chess_game(const cutoff_chess_t *chess)
{
	return chess ? &chess->game : NULL;
}

/* ---- public functions over cutoff_chess_state_t ---- */

static chess_pos_t load(const cutoff_chess_state_t *state)
{
	chess_pos_t p;
	memcpy(&p, state, sizeof(p));
	return p;
}

static void store(cutoff_chess_state_t *state, const chess_pos_t *p)
{
	memcpy(state, p, sizeof(*p));
}

void cutoff_chess_start(const cutoff_chess_t *chess, cutoff_chess_state_t *state)
{
	if (!chess || !state)
		return;
	chess_pos_t p;
	chess_start_pos(chess, &p);
	store(state, &p);
}

int cutoff_chess_parse_fen(const cutoff_chess_t *chess, const char *fen, cutoff_chess_state_t *out,
                           char *err, size_t errlen)
{
	chess_pos_t p;
	/* A NULL out goes through, for chess_parse_fen's own "a NULL argument". */
	int rc = chess_parse_fen(chess, fen, out ? &p : NULL, err, errlen);
	if (rc == 0)
		store(out, &p);
	return rc;
}

int cutoff_chess_fen(const cutoff_chess_t *chess, const cutoff_chess_state_t *state, char *buf,
                     size_t size)
{
	if (!chess || !state || !buf) {
		if (buf && size > 0)
			buf[0] = '\0';
		return CUTOFF_EINVAL;
	}
	chess_pos_t p = load(state);
	return chess_write_fen(&p, buf, size);
}

int cutoff_chess_move_str(cutoff_move_t move, char *buf, size_t size)
{
	if (!buf)
		return CUTOFF_EINVAL;
	return chess_move_text(move, buf, size);
}

static int move_error(char *err, size_t errlen, const char *what, const char *text)
{
	if (err && errlen > 0) {
		char shown[16];
		size_t o = 0;
		for (size_t i = 0; text[i] && o + 4 < sizeof(shown); i++) {
			unsigned char ch = (unsigned char)text[i];
			shown[o++] = ch >= 0x20 && ch < 0x7f ? (char)ch : '?';
		}
		if (text[o])
			memcpy(shown + o, "...", 4);
		else
			shown[o] = '\0';
		snprintf(err, errlen, "move '%s': %s", shown, what);
	}
	return CUTOFF_EINVAL;
}

int cutoff_chess_parse_move(const cutoff_chess_t *chess, const cutoff_chess_state_t *state,
                            const char *text, cutoff_move_t *move, char *err, size_t errlen)
{
	if (err && errlen > 0)
		err[0] = '\0';
	if (!chess || !state || !text || !move)
		return move_error(err, errlen, "a NULL argument", "");
	size_t len = strnlen(text, 8);
	if (len != 4 && len != 5)
		return move_error(err, errlen,
		                  "expected 4 or 5 characters: from, to, and a promotion piece "
		                  "(e2e4, e7e8q)",
		                  text);
	for (int i = 0; i < 4; i += 2) {
		if (text[i] < 'a' || text[i] > 'h' || text[i + 1] < '1' || text[i + 1] > '8')
			return move_error(err, errlen, "a square is not in a1..h8", text);
	}
	if (len == 5 && !strchr("qrbn", text[4]))
		return move_error(err, errlen, "the promotion piece must be q, r, b or n", text);

	chess_pos_t p = load(state);
	unsigned from = (unsigned)((text[0] - 'a') + 8 * (text[1] - '1'));
	unsigned to = (unsigned)((text[2] - 'a') + 8 * (text[3] - '1'));
	uint16_t list[CHESS_LIST_CAP];
	int n = chess_gen_legal(chess, &p, list, false);
	bool promotes = false;
	for (int i = 0; i < n; i++) {
		if (move_from(list[i]) != from || move_to(list[i]) != to)
			continue;
		if (move_kind(list[i]) != MOVE_PROMOTION) {
			if (len == 5)
				return move_error(err, errlen, "this move is not a promotion",
				                  text);
			*move = list[i];
			return 0;
		}
		promotes = true;
		if (len == 5 && "nbrq"[(list[i] >> 12) & 3] == text[4]) {
			*move = list[i];
			return 0;
		}
	}
	if (promotes)
		return move_error(err, errlen, "a promotion needs its piece (q, r, b or n)", text);
	return move_error(err, errlen, "not a legal move in this position", text);
}

int cutoff_chess_play(const cutoff_chess_t *chess, const cutoff_chess_state_t *state,
                      cutoff_move_t move, cutoff_chess_state_t *child)
{
	if (!chess || !state || !child)
		return CUTOFF_EINVAL;
	chess_pos_t p = load(state), c;
	if (!legal_in(chess, &p, move))
		return CUTOFF_EINVAL;
	chess_make(chess, &p, move, &c);
	store(child, &c);
	return 0;
}

int cutoff_chess_moves(const cutoff_chess_t *chess, const cutoff_chess_state_t *state,
                       cutoff_move_t moves[CUTOFF_CHESS_MAX_MOVES])
{
	if (!chess || !state || !moves)
		return CUTOFF_EINVAL;
	chess_pos_t p = load(state);
	uint16_t list[CHESS_LIST_CAP];
	int n = chess_gen_legal(chess, &p, list, false);
	return write_moves(&p, list, n, moves, NULL);
}

bool cutoff_chess_in_check(const cutoff_chess_t *chess, const cutoff_chess_state_t *state)
{
	if (!chess || !state)
		return false;
	chess_pos_t p = load(state);
	return chess_in_check(chess, &p);
}

int cutoff_chess_perft(const cutoff_chess_t *chess, const cutoff_chess_state_t *state, int depth,
                       uint64_t *nodes)
{
	if (!chess || !state || !nodes || depth < 0 || depth > CUTOFF_CHESS_MAX_PERFT)
		return CUTOFF_EINVAL;
	chess_pos_t p = load(state);
	*nodes = chess->perft(chess, &p, depth);
	return 0;
}
