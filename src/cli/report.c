/*
 * report.c — counters and profiles as JSON, and moves as words (contract in report.h).
 */
#include "report.h"

#include <inttypes.h>
#include <stdio.h>

#include "cutoff_games.h"

/* Every field is named below: a new counter must be added here too. */
_Static_assert(sizeof(cutoff_counters_t) == 33 * sizeof(uint64_t), "a counter is missing below");

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
	PUT(deferred);
	PUT(deferred_tt);
	PUT(deferred_busy);
	PUT(second_passes);
	PUT(busy_collisions);
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
	else if (game == CLI_GAME_PGAME && m == CUTOFF_PGAME_PASS)
		snprintf(out, 16, "pass");
	else
		snprintf(out, 16, "%" PRIu32, m);
}
