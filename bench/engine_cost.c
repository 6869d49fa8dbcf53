/* SPDX-License-Identifier: MIT */
/*
 * engine_cost.c — what the engine costs per node over a game's own callbacks: the same
 * alpha-beta searched by the engine (serial, no table, the game's move order, no
 * extensions) and by a plain recursive alpha-beta written here over the same callbacks,
 * with nothing else (no ordering, no table, no counters but the node count, no polls).
 * Both must visit the same nodes and find the same values (checked: a benchmark that
 * disagrees prints MISMATCH and exits 1); the ratio of their rates is the engine's own
 * cost. Issue 14, item 6.
 *
 *   engine_cost tree [TREES]   TREES random trees b=8 d=9 (incremental), default 10
 *   engine_cost connect4 [D]   the position 3246313 searched to depth D (default 16)
 *                              with the window (-1, 1)
 *   engine_cost solve FILE [K] the first K (default 5) lines '<moves> <score>' of a
 *                              Connect Four test set, solved exactly (strong) by
 *                              cutoff_connect4_solve (bisection, MTD(f), a 16 MiB table,
 *                              no enhanced transposition cut-offs) and by the plain
 *                              solver below; both scores are checked against the file
 *
 * The solve workload asks a different question: not the same tree at two costs, but what
 * a node of an exact solver costs at least over the game's callbacks. The plain solver is
 * the smallest one that uses them as the engine does: null-window fail-soft alpha-beta,
 * the bounds hook, the hints' order, and a one-entry-per-slot table of both bounds (16
 * bytes, single-threaded, always replaced), no table move, no PV, no counters but nodes,
 * bisection at the root (Pons' solver's shape). Its trees differ from the engine's (other
 * table, no table move), so the two sides' nodes differ and only their cost per node
 * compares.
 *
 * Prints, per side: nodes, CPU seconds of the searching thread (CLOCK_THREAD_CPUTIME_ID,
 * so other jobs on the machine do not count), nodes per CPU second; then the ratio.
 * Built against a build's static library:
 *
 *   cc -O2 bench/engine_cost.c -Iinclude build/libcutoff.a \
 *      $(pkg-config --libs ck hwloc) -lpthread -o /tmp/engine_cost
 *
 * bench/engine_cost.sh BUILD counts instructions a node of each side instead (callgrind:
 * exact and repeatable where CPU times are not), on `tree 3` and `connect4 14`.
 */
#include <cutoff.h>
#include <cutoff_connect4.h>
#include <cutoff_games.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { MAX_PLY = 64 };

static double cpu(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The plain search's stacks: one state and one move list a ply. */
typedef struct plain {
	const cutoff_game_t *g;
	unsigned char *states; /* MAX_PLY + 1 states of `stride` bytes */
	size_t stride;
	cutoff_move_t *moves; /* MAX_PLY lists of max_moves */
	uint64_t nodes;
} plain_t;

static void *state_at(const plain_t *p, int ply) { return p->states + (size_t)ply * p->stride; }

/* Fail-soft alpha-beta as the engine's search_node does it without table, ordering or
 * extensions: a node is counted on entry; a terminal position is a leaf, wins scored by
 * distance; at depth 0 the evaluation. */
static int32_t alphabeta(plain_t *p, int ply, int depth, int32_t alpha, int32_t beta)
{
	const cutoff_game_t *g = p->g;
	const void *st = state_at(p, ply);
	int32_t v;
	p->nodes++;
	if (g->terminal(g->ctx, st, &v)) {
		if (v >= CUTOFF_WIN_MIN)
			return v - ply;
		if (v <= -CUTOFF_WIN_MIN)
			return v + ply;
		return v;
	}
	if (depth <= 0)
		return g->evaluate(g->ctx, st);
	cutoff_move_t *m = p->moves + (size_t)ply * (size_t)g->max_moves;
	int n = g->gen_moves(g->ctx, st, m, NULL);
	int32_t best = -CUTOFF_INF, a = alpha;
	for (int i = 0; i < n; i++) {
		g->play(g->ctx, st, m[i], state_at(p, ply + 1));
		v = -alphabeta(p, ply + 1, depth - 1, -beta, -a);
		if (v > best) {
			best = v;
			if (v >= beta)
				break;
			if (v > a)
				a = v;
		}
	}
	return best;
}

/* The plain solver's table: 2^PLAIN_TT_BITS slots (16 MiB), the slot of a key its top
 * bits (the low bits of the game's multiplied key carry less of it). */
enum { PLAIN_TT_BITS = 20 };

typedef struct plain_entry {
	uint64_t key; /* 0: empty (only the empty board has key 0, and it is never stored) */
	int32_t lower, upper;
} plain_entry_t;

typedef struct plain_solver {
	plain_t p;
	int32_t *hints; /* MAX_PLY lists of max_moves */
	plain_entry_t *table;
} plain_solver_t;

/* Null-window (or any window) fail-soft alpha-beta to the end of the game, as the engine's
 * solve mode searches: Connect Four's values are scores, so no distance to mate. */
static int32_t solve_node(plain_solver_t *ps, int ply, int32_t alpha, int32_t beta)
{
	plain_t *p = &ps->p;
	const cutoff_game_t *g = p->g;
	const void *st = state_at(p, ply);
	int32_t v, lower, upper;
	p->nodes++;
	if (g->terminal(g->ctx, st, &v))
		return v;
	g->bounds(g->ctx, st, &lower, &upper);
	if (upper <= alpha)
		return upper;
	if (lower >= beta)
		return lower;
	const uint64_t key = g->key(g->ctx, st);
	plain_entry_t *e = &ps->table[key >> (64 - PLAIN_TT_BITS)];
	if (e->key == key) {
		if (e->upper <= alpha)
			return e->upper;
		if (e->lower >= beta)
			return e->lower;
	}
	cutoff_move_t *m = p->moves + (size_t)ply * (size_t)g->max_moves;
	int32_t *h = ps->hints + (size_t)ply * (size_t)g->max_moves;
	int n = g->gen_moves(g->ctx, st, m, h);
	for (int i = 1; i < n; i++) { /* stable, best hint first */
		cutoff_move_t mv = m[i];
		int32_t hv = h[i];
		int j = i;
		for (; j > 0 && h[j - 1] < hv; j--) {
			m[j] = m[j - 1];
			h[j] = h[j - 1];
		}
		m[j] = mv;
		h[j] = hv;
	}
	int32_t best = -CUTOFF_INF, a = alpha;
	for (int i = 0; i < n; i++) {
		g->play(g->ctx, st, m[i], state_at(p, ply + 1));
		v = -solve_node(ps, ply + 1, -beta, -a);
		if (v > best) {
			best = v;
			if (v >= beta)
				break;
			if (v > a)
				a = v;
		}
	}
	if (e->key != key) {
		e->key = key;
		e->lower = -CUTOFF_INF;
		e->upper = CUTOFF_INF;
	}
	if (best >= beta && best > e->lower)
		e->lower = best;
	else if (best <= alpha && best < e->upper)
		e->upper = best;
	else if (best > alpha && best < beta)
		e->lower = e->upper = best;
	return best;
}

/* Pons' bisection of the score's range, each test a null window. */
static __attribute__((noinline)) int32_t plain_solve(plain_solver_t *ps)
{
	const cutoff_game_t *g = ps->p.g;
	const void *root = state_at(&ps->p, 0);
	int32_t v, min, max;
	if (g->terminal(g->ctx, root, &v))
		return v;
	g->bounds(g->ctx, root, &min, &max);
	while (min < max) {
		int32_t med = min + (max - min) / 2;
		if (med <= 0 && min / 2 < med)
			med = min / 2;
		else if (med >= 0 && max / 2 > med)
			med = max / 2;
		int32_t r = solve_node(ps, 0, med, med + 1);
		if (r <= med)
			max = r;
		else
			min = r;
	}
	return min;
}

typedef struct side {
	uint64_t nodes;
	double cpu_s;
	int32_t value;
} side_t;

static side_t by_engine(cutoff_engine_t *e, const void *root, int depth, int32_t alpha,
                        int32_t beta)
{
	cutoff_limits_t lim;
	cutoff_limits_default(&lim);
	lim.depth = depth;
	lim.alpha = alpha;
	lim.beta = beta;
	cutoff_result_t *r = malloc(sizeof(*r)); /* 32 KB: not on the stack */
	double t0 = cpu();
	int rc = cutoff_engine_search(e, root, &lim, r, NULL, NULL);
	side_t s = { r->counters.nodes, cpu() - t0, r->value };
	if (rc != 0)
		s.nodes = 0;
	free(r);
	return s;
}

/* The plain search's stacks for game g; false when out of memory (plain_free frees what
 * was allocated). */
static bool plain_init(plain_t *p, const cutoff_game_t *g)
{
	*p = (plain_t){ .g = g, .stride = (g->state_size + 15) & ~(size_t)15 };
	p->states = malloc((size_t)(MAX_PLY + 1) * p->stride);
	p->moves = malloc((size_t)MAX_PLY * (size_t)g->max_moves * sizeof(cutoff_move_t));
	return p->states && p->moves;
}

static void plain_free(plain_t *p)
{
	free(p->states);
	free(p->moves);
}

static side_t by_plain(const cutoff_game_t *g, const void *root, int depth, int32_t alpha,
                       int32_t beta)
{
	plain_t p;
	plain_init(&p, g);
	memcpy(p.states, root, g->state_size);
	double t0 = cpu();
	int32_t v = alphabeta(&p, 0, depth, alpha, beta);
	side_t s = { p.nodes, cpu() - t0, v };
	plain_free(&p);
	return s;
}

/* The solve workload: the first `limit` lines of `path`, each solved by both sides. */
static int solve_file(const char *path, int limit, side_t *e_sum, side_t *p_sum)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "engine_cost: cannot open '%s'\n", path);
		return -1;
	}
	const cutoff_game_t *g = cutoff_connect4_game();
	cutoff_config_t cfg;
	cutoff_config_default(&cfg);
	cfg.algo = CUTOFF_ALGO_MTDF;
	cfg.tt_mb = 16;
	cfg.ordering = CUTOFF_ORDER_TT | CUTOFF_ORDER_HINTS;
	cfg.etc_min_depth = 0;
	cutoff_engine_t *e = cutoff_engine_new(g, &cfg, NULL);
	plain_solver_t ps;
	bool ready = plain_init(&ps.p, g);
	ps.hints = malloc((size_t)MAX_PLY * (size_t)g->max_moves * sizeof(int32_t));
	ps.table = calloc((size_t)1 << PLAIN_TT_BITS, sizeof(plain_entry_t));
	ready = ready && ps.hints && ps.table;
	int mismatches = 0, lines = 0;
	char text[256], err[128];
	if (!e || !ready) {
		fprintf(stderr, "engine_cost: %s\n",
		        !e ? "cannot make the engine (16 MiB table)" : "out of memory");
		mismatches = -1;
	}
	while (mismatches >= 0 && lines < limit && fgets(text, sizeof text, f)) {
		char moves[128];
		int score;
		cutoff_connect4_state_t st;
		if (sscanf(text, "%127s %d", moves, &score) != 2 ||
		    cutoff_connect4_parse(moves, &st, err, sizeof err) != 0) {
			fprintf(stderr, "engine_cost: '%s' line %d: not '<moves> <score>'\n", path,
			        lines + 1);
			mismatches = -1;
			break;
		}
		lines++;
		cutoff_connect4_solution_t sol;
		cutoff_engine_clear(e);
		double t0 = cpu();
		int rc = cutoff_connect4_solve(e, &st, false, CUTOFF_CONNECT4_BISECT, &sol);
		e_sum->cpu_s += cpu() - t0;
		e_sum->nodes += sol.nodes;
		mismatches += rc != 0 || sol.score != score;
		memset(ps.table, 0, ((size_t)1 << PLAIN_TT_BITS) * sizeof(plain_entry_t));
		memcpy(ps.p.states, &st, sizeof st);
		uint64_t before = ps.p.nodes;
		t0 = cpu();
		mismatches += plain_solve(&ps) != score;
		p_sum->cpu_s += cpu() - t0;
		p_sum->nodes += ps.p.nodes - before;
	}
	fclose(f);
	cutoff_engine_free(e);
	plain_free(&ps.p);
	free(ps.hints);
	free(ps.table);
	return mismatches;
}

static cutoff_engine_t *engine_for(const cutoff_game_t *g)
{
	cutoff_config_t cfg;
	cutoff_config_default(&cfg);
	cfg.algo = CUTOFF_ALGO_ALPHABETA;
	cfg.tt_mb = 0;
	cfg.ordering = CUTOFF_ORDER_NONE;
	cfg.extensions = 0;
	return cutoff_engine_new(g, &cfg, NULL);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "tree";
	side_t e_sum = { 0, 0, 0 }, p_sum = { 0, 0, 0 };
	int mismatches = 0;
	if (strcmp(mode, "tree") == 0) {
		int trees = argc > 2 ? atoi(argv[2]) : 10;
		cutoff_rtree_params_t prm;
		cutoff_rtree_params_default(&prm);
		prm.branching = 8;
		prm.depth = 9;
		prm.model = CUTOFF_RTREE_INCREMENTAL;
		cutoff_rtree_t *tree = cutoff_rtree_new(&prm, NULL);
		const cutoff_game_t *g = cutoff_rtree_game(tree);
		cutoff_engine_t *e = engine_for(g);
		for (int k = 1; e && k <= trees; k++) {
			cutoff_rtree_state_t root;
			cutoff_rtree_root(tree, (uint64_t)k, &root);
			side_t a = by_engine(e, &root, prm.depth, -CUTOFF_INF, CUTOFF_INF);
			side_t b = by_plain(g, &root, prm.depth, -CUTOFF_INF, CUTOFF_INF);
			mismatches += a.nodes != b.nodes || a.value != b.value;
			e_sum.nodes += a.nodes;
			e_sum.cpu_s += a.cpu_s;
			p_sum.nodes += b.nodes;
			p_sum.cpu_s += b.cpu_s;
		}
		cutoff_engine_free(e);
		cutoff_rtree_free(tree);
	} else if (strcmp(mode, "connect4") == 0) {
		int depth = argc > 2 ? atoi(argv[2]) : 16;
		cutoff_connect4_state_t st;
		char err[128];
		if (cutoff_connect4_parse("3246313", &st, err, sizeof err) != 0) {
			fprintf(stderr, "engine_cost: %s\n", err);
			return 2;
		}
		const cutoff_game_t *g = cutoff_connect4_game();
		cutoff_engine_t *e = engine_for(g);
		if (e) {
			e_sum = by_engine(e, &st, depth, -1, 1);
			p_sum = by_plain(g, &st, depth, -1, 1);
			mismatches += e_sum.nodes != p_sum.nodes || e_sum.value != p_sum.value;
			cutoff_engine_free(e);
		}
	} else if (strcmp(mode, "solve") == 0 && argc > 2 && (argc < 4 || atoi(argv[3]) > 0)) {
		mismatches = solve_file(argv[2], argc > 3 ? atoi(argv[3]) : 5, &e_sum, &p_sum);
		if (mismatches < 0)
			return 2;
	} else {
		fprintf(stderr,
		        "usage: engine_cost tree [TREES] | connect4 [DEPTH] | solve FILE [LINES]\n");
		return 2;
	}
	printf("engine  %12llu nodes  %8.3f s  %7.2f M nodes/s\n", (unsigned long long)e_sum.nodes,
	       e_sum.cpu_s, (double)e_sum.nodes / e_sum.cpu_s / 1e6);
	printf("plain   %12llu nodes  %8.3f s  %7.2f M nodes/s\n", (unsigned long long)p_sum.nodes,
	       p_sum.cpu_s, (double)p_sum.nodes / p_sum.cpu_s / 1e6);
	printf("engine time / plain time %.3f%s\n", e_sum.cpu_s / p_sum.cpu_s,
	       mismatches ? "  MISMATCH: a value (tree, connect4: or the nodes) differs" : "");
	return mismatches ? 1 : 0;
}
