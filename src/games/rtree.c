/* SPDX-License-Identifier: MIT */
/*
 * rtree.c — synthetic uniform random trees, rebuilt from hashes instead of stored.
 *
 * Naming. A node is (hash, ply). The root of the tree drawn with `seed` has hash
 * name_mix(seed ^ RTREE_SEED_SALT); child i (its natural index, 0 .. b-1) of a node with
 * hash h has hash name_mix(h + (i + 1) * RTREE_GOLDEN). name_mix is the splitmix64
 * finaliser, a bijection on 64 bits, so the b children of one node always have distinct
 * hashes; nodes elsewhere in the tree collide only by 64-bit chance.
 *
 * Values. A node's draw is value_min + value_mix(hash) % (value_max - value_min + 1).
 * value_mix uses other constants than name_mix, so a node's value is not a function of
 * the mixing that names its children. IID: leaves (ply >= depth) score their draw; inner
 * nodes evaluate to theirs, which says nothing about their true value. INCREMENTAL: a
 * child's draw is the step its move gains for the mover, so child.sum = -(parent.sum +
 * draw(child)); every node scores its sum. Everything is
 * a pure function of (params, seed, path), so every run, thread and machine sees the same
 * tree, and the true value of any node can be recomputed by negamax over its subtree.
 *
 * Ordering. NATURAL lists 0 .. b-1. BEST computes each child's true value (b^(depth-ply)
 * leaf draws in all: an oracle for experiments, not cheap on deep trees) and lists the
 * children best-first for the side to move, stable on ties (equal children keep natural
 * order). WORST is that list reversed, so equal children come in reverse natural order.
 * Hints: IID, always 0 (the order of the list is the only information the search gets);
 * INCREMENTAL, the step the move gains at once, the kind of cheap static guess a real
 * game's move ordering makes (a search may ignore it: CUTOFF_ORDER_HINTS).
 *
 * No callback allocates or writes shared data; the only context is the read-only
 * cutoff_rtree_t, so any number of threads may walk one tree. The oracle's recursion is
 * at most depth < CUTOFF_MAX_PLY small frames deep; gen_moves itself keeps one array of
 * CUTOFF_MAX_MOVES scores (16 KiB) on the stack. States are read through memcpy, so the
 * engine's buffers need no particular alignment.
 */
#include <stdlib.h>
#include <string.h>

#include "cutoff_games.h"

#define RTREE_GOLDEN UINT64_C(0x9e3779b97f4a7c15)
#define RTREE_SEED_SALT UINT64_C(0x5851f42d4c957f2d)

struct cutoff_rtree {
	cutoff_rtree_params_t params;
	cutoff_game_t game; /* game.ctx points back at this struct */
};

/* splitmix64's finaliser. */
static inline uint64_t rtree_name_mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* A different finaliser (Pelle Evensen's moremur constants), salted, for values. */
static inline uint64_t rtree_value_mix(uint64_t z)
{
	z ^= UINT64_C(0xd1b54a32d192ed03);
	z = (z ^ (z >> 27)) * UINT64_C(0x3c79ac492ba7b653);
	z = (z ^ (z >> 33)) * UINT64_C(0x1c69b3f74ac4ae35);
	return z ^ (z >> 27);
}

static inline uint64_t rtree_child_hash(uint64_t hash, uint32_t index)
{
	return rtree_name_mix(hash + ((uint64_t)index + 1) * RTREE_GOLDEN);
}

static inline int32_t rtree_draw(const cutoff_rtree_params_t *p, uint64_t hash)
{
	uint64_t range = (uint64_t)((int64_t)p->value_max - (int64_t)p->value_min + 1);
	return (int32_t)((int64_t)p->value_min + (int64_t)(rtree_value_mix(hash) % range));
}

static inline cutoff_rtree_state_t rtree_load(const void *state)
{
	cutoff_rtree_state_t s;
	memcpy(&s, state, sizeof s);
	return s;
}

/* The child of (hash, ply, sum) by natural index i. */
static inline cutoff_rtree_state_t rtree_child(const cutoff_rtree_params_t *p,
                                               const cutoff_rtree_state_t *s, uint32_t i)
{
	cutoff_rtree_state_t c = { .hash = rtree_child_hash(s->hash, i),
		                   .ply = s->ply + 1,
		                   .sum = 0 };
	if (p->model == CUTOFF_RTREE_INCREMENTAL)
		c.sum = -(s->sum + rtree_draw(p, c.hash));
	return c;
}

/* A node's static value: its leaf value, or its evaluation as an inner node. */
static inline int32_t rtree_static(const cutoff_rtree_params_t *p, const cutoff_rtree_state_t *s)
{
	return p->model == CUTOFF_RTREE_INCREMENTAL ? s->sum : rtree_draw(p, s->hash);
}

/* Negamax to the leaves; values stay inside (-CUTOFF_WIN_MIN, CUTOFF_WIN_MIN), so negating
 * them cannot overflow. */
static int32_t rtree_negamax(const cutoff_rtree_params_t *p, const cutoff_rtree_state_t *s)
{
	if (s->ply >= (uint32_t)p->depth)
		return rtree_static(p, s);

	int32_t best = -CUTOFF_INF;
	for (uint32_t i = 0; i < (uint32_t)p->branching; i++) {
		cutoff_rtree_state_t c = rtree_child(p, s, i);
		int32_t v = -rtree_negamax(p, &c);
		if (v > best)
			best = v;
	}
	return best;
}

static int rtree_gen_moves(const void *ctx, const void *state, cutoff_move_t *moves, int32_t *hints)
{
	const cutoff_rtree_t *tree = ctx;
	const cutoff_rtree_params_t *p = &tree->params;
	int n = p->branching;

	cutoff_rtree_state_t s = rtree_load(state);
	for (int i = 0; i < n; i++) {
		moves[i] = (cutoff_move_t)i;
		if (hints != NULL) /* INCREMENTAL: what the move gains at once, like a capture */
			hints[i] = p->model == CUTOFF_RTREE_INCREMENTAL
			                   ? rtree_draw(p, rtree_child_hash(s.hash, (uint32_t)i))
			                   : 0;
	}
	if (p->order == CUTOFF_RTREE_NATURAL)
		return n;

	int32_t score[CUTOFF_MAX_MOVES]; /* each child's value for the side to move here */
	for (int i = 0; i < n; i++) {
		cutoff_rtree_state_t c = rtree_child(p, &s, (uint32_t)i);
		score[i] = -rtree_negamax(p, &c);
	}

	/* Insertion sort, best first; strict comparison keeps it stable on ties. */
	for (int i = 1; i < n; i++) {
		int32_t sc = score[i];
		cutoff_move_t mv = moves[i];
		int j = i;
		for (; j > 0 && score[j - 1] < sc; j--) {
			score[j] = score[j - 1];
			moves[j] = moves[j - 1];
		}
		score[j] = sc;
		moves[j] = mv;
	}

	if (p->order == CUTOFF_RTREE_WORST) {
		for (int i = 0, j = n - 1; i < j; i++, j--) {
			cutoff_move_t t = moves[i];
			moves[i] = moves[j];
			moves[j] = t;
		}
	}
	return n;
}

/* INCREMENTAL trees with noisy_step: the moves that gain at least that much, in natural
 * order, hints as in gen_moves. */
static int rtree_gen_noisy(const void *ctx, const void *state, cutoff_move_t *moves, int32_t *hints)
{
	const cutoff_rtree_t *tree = ctx;
	const cutoff_rtree_params_t *p = &tree->params;
	cutoff_rtree_state_t s = rtree_load(state);
	int n = 0;
	for (int i = 0; i < p->branching; i++) {
		int32_t step = rtree_draw(p, rtree_child_hash(s.hash, (uint32_t)i));
		if (step < p->noisy_step)
			continue;
		if (hints)
			hints[n] = step;
		moves[n++] = (cutoff_move_t)i;
	}
	return n;
}

/* A pass: a child named by a marker instead of an index, gaining nothing. */
static bool rtree_play_null(const void *ctx, const void *state, void *child)
{
	(void)ctx;
	cutoff_rtree_state_t s = rtree_load(state);
	cutoff_rtree_state_t c = { .hash = rtree_name_mix(s.hash ^ UINT64_C(0x6e756c6c6d6f7665)),
		                   .ply = s.ply + 1,
		                   .sum = -s.sum };
	memcpy(child, &c, sizeof c);
	return true;
}

static void rtree_play(const void *ctx, const void *state, cutoff_move_t move, void *child)
{
	const cutoff_rtree_t *tree = ctx;
	cutoff_rtree_state_t s = rtree_load(state);
	cutoff_rtree_state_t c = rtree_child(&tree->params, &s, move);
	memcpy(child, &c, sizeof c);
}

static int32_t rtree_evaluate(const void *ctx, const void *state)
{
	const cutoff_rtree_t *tree = ctx;
	cutoff_rtree_state_t s = rtree_load(state);
	return rtree_static(&tree->params, &s);
}

static bool rtree_terminal(const void *ctx, const void *state, int32_t *value)
{
	const cutoff_rtree_t *tree = ctx;
	cutoff_rtree_state_t s = rtree_load(state);

	if (s.ply < (uint32_t)tree->params.depth)
		return false;
	*value = rtree_static(&tree->params, &s);
	return true;
}

static uint64_t rtree_key(const void *ctx, const void *state)
{
	(void)ctx;
	return rtree_load(state).hash;
}

void cutoff_rtree_params_default(cutoff_rtree_params_t *params)
{
	if (params == NULL)
		return;
	params->branching = 6;
	params->depth = 6;
	params->value_min = -100;
	params->value_max = 100;
	params->order = CUTOFF_RTREE_NATURAL;
	params->model = CUTOFF_RTREE_IID;
	params->noisy_step = 0;
	params->null_moves = false;
}

static bool rtree_params_valid(const cutoff_rtree_params_t *p)
{
	if (p->branching < 1 || p->branching > CUTOFF_MAX_MOVES)
		return false;
	if (p->depth < 0 || p->depth > CUTOFF_MAX_PLY - 1)
		return false;
	if (p->value_min > p->value_max)
		return false;
	if (p->value_min <= -CUTOFF_WIN_MIN || p->value_max >= CUTOFF_WIN_MIN)
		return false;
	if (p->noisy_step < 0 ||
	    ((p->noisy_step > 0 || p->null_moves) && p->model != CUTOFF_RTREE_INCREMENTAL))
		return false;
	if (p->model == CUTOFF_RTREE_INCREMENTAL) {
		int64_t step = p->value_max > -(int64_t)p->value_min ? p->value_max
		                                                     : -(int64_t)p->value_min;
		if (step * p->depth >= CUTOFF_WIN_MIN)
			return false;
	} else if (p->model != CUTOFF_RTREE_IID) {
		return false;
	}
	switch (p->order) {
	case CUTOFF_RTREE_NATURAL:
	case CUTOFF_RTREE_BEST:
	case CUTOFF_RTREE_WORST:
		return true;
	}
	return false;
}

cutoff_rtree_t *cutoff_rtree_new(const cutoff_rtree_params_t *params, int *err)
{
	if (params == NULL || !rtree_params_valid(params)) {
		if (err != NULL)
			*err = CUTOFF_EINVAL;
		return NULL;
	}

	cutoff_rtree_t *tree = malloc(sizeof *tree);
	if (tree == NULL) {
		if (err != NULL)
			*err = CUTOFF_ENOMEM;
		return NULL;
	}

	tree->params = *params;
	tree->game = (cutoff_game_t){
		.name = "rtree",
		.state_size = sizeof(cutoff_rtree_state_t),
		.max_moves = params->branching,
		.ctx = tree,
		.gen_moves = rtree_gen_moves,
		.play = rtree_play,
		.evaluate = rtree_evaluate,
		.terminal = rtree_terminal,
		.key = rtree_key,
		.gen_noisy = params->noisy_step > 0 ? rtree_gen_noisy : NULL,
		.play_null = params->null_moves ? rtree_play_null : NULL,
	};
	if (err != NULL)
		*err = CUTOFF_OK;
	return tree;
}

void cutoff_rtree_free(cutoff_rtree_t *tree) { free(tree); }

const cutoff_game_t *cutoff_rtree_game(const cutoff_rtree_t *tree)
{
	return tree != NULL ? &tree->game : NULL;
}

void cutoff_rtree_root(const cutoff_rtree_t *tree, uint64_t seed, cutoff_rtree_state_t *root)
{
	if (tree == NULL || root == NULL)
		return;
	root->hash = rtree_name_mix(seed ^ RTREE_SEED_SALT);
	root->ply = 0;
	root->sum = 0;
}

int32_t cutoff_rtree_value(const cutoff_rtree_t *tree, const cutoff_rtree_state_t *state)
{
	if (tree == NULL || state == NULL)
		return 0;
	return rtree_negamax(&tree->params, state);
}

/* b^e for b >= 1, or UINT64_MAX when it does not fit (b >= 2 overflows within 64 steps). */
static uint64_t rtree_pow(uint64_t b, int e)
{
	uint64_t r = 1;
	if (b == 1)
		return 1;
	for (int i = 0; i < e; i++) {
		if (r > UINT64_MAX / b)
			return UINT64_MAX;
		r *= b;
	}
	return r;
}

uint64_t cutoff_minimal_tree(int branching, int depth)
{
	if (branching < 1 || depth < 0)
		return 0;
	uint64_t hi = rtree_pow((uint64_t)branching, (depth + 1) / 2);
	uint64_t lo = rtree_pow((uint64_t)branching, depth / 2);
	if (hi == UINT64_MAX || lo == UINT64_MAX)
		return UINT64_MAX;
	/* lo >= 1, so hi + (lo - 1) is the sum without an intermediate overflow. */
	if (hi > UINT64_MAX - (lo - 1))
		return UINT64_MAX;
	return hi + (lo - 1);
}
