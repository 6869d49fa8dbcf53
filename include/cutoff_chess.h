/*
 * cutoff_chess.h — the Chess adapter (included by cutoff_games.h). Being written.
 */
#ifndef CUTOFF_CHESS_H
#define CUTOFF_CHESS_H

#include "cutoff.h"

#endif /* CUTOFF_CHESS_H */
