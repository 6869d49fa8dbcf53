/*
 * report.c — counters and profiles as JSON, their sums, and moves as words (contract in
 * report.h).
 */
#include "report.h"

#include <inttypes.h>
#include <stdio.h>

#include "cutoff_games.h"

/* Every field is named below: a new counter must be added here too. */
_Static_assert(sizeof(cutoff_counters_t) == 28 * sizeof(uint64_t), "a counter is missing below");

void cli_counters_add(cutoff_counters_t *sum, const cutoff_counters_t *c)
{
	uint64_t seldepth = sum->seldepth > c->seldepth ? sum->seldepth : c->seldepth;
#define ADD(field) sum->field += c->field
	ADD(nodes);
	ADD(leaves);
	ADD(cutoffs);
	ADD(first_move_cutoffs);
	ADD(researches);
	ADD(mtdf_passes);
	ADD(tt_probes);
	ADD(tt_hits);
	ADD(tt_cutoffs);
	ADD(aspiration_researches);
	ADD(splits);
	ADD(null_cutoffs);
	ADD(reductions);
	ADD(reduction_researches);
	ADD(repetitions);
	ADD(qnodes);
	ADD(nodes_pv);
	ADD(nodes_cut);
	ADD(nodes_all);
	ADD(cut_nodes_wrong);
	ADD(all_nodes_wrong);
	ADD(cut_node_cutoffs);
	ADD(cut_node_first_cutoffs);
	ADD(tt_hits_other);
	ADD(split_helpers);
	ADD(split_cutoffs);
	ADD(split_nodes_lost);
#undef ADD
	sum->seldepth = seldepth;
}

void cli_profile_add(cutoff_profile_t *sum, const cutoff_profile_t *p)
{
	sum->time_s += p->time_s;
	sum->search_s += p->search_s;
	sum->idle_s += p->idle_s;
	sum->split_wait_s += p->split_wait_s;
	sum->lock_s += p->lock_s;
	if (p->depth_reached > sum->depth_reached)
		sum->depth_reached = p->depth_reached;
	if (p->depth_completed > sum->depth_completed)
		sum->depth_completed = p->depth_completed;
}

void cli_json_counters(json_writer_t *w, const char *key, const cutoff_counters_t *c)
{
	json_begin_object(w, key);
#define PUT(field) json_uint(w, #field, c->field)
	PUT(nodes);
	PUT(leaves);
	PUT(cutoffs);
	PUT(first_move_cutoffs);
	PUT(researches);
	PUT(mtdf_passes);
	PUT(tt_probes);
	PUT(tt_hits);
	PUT(tt_cutoffs);
	PUT(aspiration_researches);
	PUT(splits);
	PUT(null_cutoffs);
	PUT(reductions);
	PUT(reduction_researches);
	PUT(repetitions);
	PUT(qnodes);
	PUT(seldepth);
	PUT(nodes_pv);
	PUT(nodes_cut);
	PUT(nodes_all);
	PUT(cut_nodes_wrong);
	PUT(all_nodes_wrong);
	PUT(cut_node_cutoffs);
	PUT(cut_node_first_cutoffs);
	PUT(tt_hits_other);
	PUT(split_helpers);
	PUT(split_cutoffs);
	PUT(split_nodes_lost);
#undef PUT
	json_end(w);
}

void cli_json_profile(json_writer_t *w, const char *key, const cutoff_profile_t *p)
{
	json_begin_object(w, key);
	json_double(w, "time_s", p->time_s);
	json_double(w, "search_s", p->search_s);
	json_double(w, "idle_s", p->idle_s);
	json_double(w, "split_wait_s", p->split_wait_s);
	json_double(w, "lock_s", p->lock_s);
	json_int(w, "depth_reached", p->depth_reached);
	json_int(w, "depth_completed", p->depth_completed);
	json_end(w);
}

void cli_move_text(cli_game_t game, cutoff_move_t m, char out[16])
{
	if (m == CUTOFF_MOVE_NONE)
		snprintf(out, 16, "-");
	else if (game == CLI_GAME_CHESS)
		cutoff_chess_move_str(m, out, 16);
	else if (game == CLI_GAME_CONNECT4)
		snprintf(out, 16, "%d", (int)m + 1);
	else
		snprintf(out, 16, "%" PRIu32, m);
}
