/* SPDX-License-Identifier: MIT */
/*
 * nim.c — how to write a cutoff game adapter, on the smallest game worth searching.
 *
 * Single-pile Nim: a pile of stones; each player in turn takes 1, 2 or 3; whoever takes the
 * last stone wins. The side to move loses exactly when the pile is a multiple of 4 (whatever
 * it takes, the opponent takes the rest of 4 and restores a multiple), as this program checks.
 *
 * An adapter is a cutoff_game_t: the size of a state plus five callbacks. The engine copies
 * states with memcpy and may call the callbacks from several threads at once, so they read
 * only their arguments and write only their outputs.
 *
 * Build: see CMakeLists.txt, or cc nim.c $(pkg-config --cflags --libs cutoff)
 */
#include <cutoff.h>
#include <stdio.h>

/* A state is plain data: no pointers, fixed size. */
typedef struct nim_state {
	uint32_t pile; /* stones left */
} nim_state_t;

/* A move is the number taken. Only called on non-terminal states (here: pile > 0). `ctx` is
 * the game's shared read-only data; Nim has none. */
static int nim_gen_moves(const void *ctx, const void *state, cutoff_move_t *moves, int32_t *hints)
{
	const nim_state_t *s = state;
	int n = 0;

	(void)ctx;
	for (uint32_t take = 1; take <= 3 && take <= s->pile; take++) {
		moves[n] = take;
		if (hints != NULL)
			hints[n] = (int32_t)take; /* higher is tried first: a guess, not a rule */
		n++;
	}
	return n;
}

/* Copy-make: never modify `state`, write the position after the move into `child`. */
static void nim_play(const void *ctx, const void *state, cutoff_move_t move, void *child)
{
	const nim_state_t *s = state;
	nim_state_t *c = child;

	(void)ctx;
	c->pile = s->pile - move;
}

/* The static value for the side to move. Nim has no useful heuristic, so: even. */
static int32_t nim_evaluate(const void *ctx, const void *state)
{
	(void)ctx;
	(void)state;
	return 0;
}

/* No stones left: the opponent took the last one, so the side to move has lost. Returning
 * -CUTOFF_WIN lets the engine score it by distance (quicker wins score higher). */
static bool nim_terminal(const void *ctx, const void *state, int32_t *value)
{
	const nim_state_t *s = state;

	(void)ctx;
	if (s->pile != 0)
		return false;
	*value = -CUTOFF_WIN;
	return true;
}

/* Equal positions, equal keys: the pile count names a Nim position completely. */
static uint64_t nim_key(const void *ctx, const void *state)
{
	(void)ctx;
	return ((const nim_state_t *)state)->pile;
}

int main(void)
{
	/* Designated initialisers, never positional ones: a field may come or go between
	 * releases (cutoff.h). Optional hooks (gen_noisy, play_null, in_check, reversible)
	 * are left out, so NULL. */
	const cutoff_game_t game = {
		.name = "nim",
		.state_size = sizeof(nim_state_t),
		.max_moves = 3,
		.gen_moves = nim_gen_moves,
		.play = nim_play,
		.evaluate = nim_evaluate,
		.terminal = nim_terminal,
		.key = nim_key,
	};
	cutoff_config_t cfg;
	int err = 0;

	cutoff_config_default(&cfg);
	cfg.algo = CUTOFF_ALGO_PVS;
	/* One engine serves any number of searches of its game. */
	cutoff_engine_t *engine = cutoff_engine_new(&game, &cfg, &err);
	if (engine == NULL) {
		/* Which field was wrong: there is no engine to ask, so ask the checker. */
		char why[CUTOFF_ERROR_SIZE];
		cutoff_config_check(&cfg, &game, why, sizeof(why));
		fprintf(stderr, "nim: cutoff_engine_new: %s: %s\n", cutoff_strerror(err), why);
		return 1;
	}

	int status = 0;
	for (uint32_t pile = 1; pile <= 12; pile++) {
		nim_state_t root = { .pile = pile };
		cutoff_limits_t lim;
		cutoff_result_t res;

		cutoff_limits_default(&lim);
		/* To the end of the game: the solve mode, one search with no depth to guess. */
		lim.solve = true;
		lim.depth = 0;
		lim.iterate = false;
		err = cutoff_engine_search(engine, &root, &lim, &res, NULL, NULL);
		if (err != 0) {
			/* cutoff_strerror names the code; cutoff_engine_error says what was wrong. */
			fprintf(stderr, "nim %u: cutoff_engine_search: %s: %s\n", pile,
			        cutoff_strerror(err), cutoff_engine_error(engine));
			status = 1;
			break;
		}
		bool win = res.value > 0; /* values are for the side to move, as in negamax */
		printf("nim %u: %s, take %u\n", pile, win ? "win" : "loss",
		       (unsigned)res.best_move);
		/* Solved: the value is the game's. The one winning move leaves a multiple of 4. */
		if (!res.solved || win != (pile % 4 != 0) || (win && res.best_move != pile % 4)) {
			fprintf(stderr, "nim %u: wrong answer (value %d)\n", pile, (int)res.value);
			status = 1;
		}
	}
	cutoff_engine_free(engine);
	return status;
}
