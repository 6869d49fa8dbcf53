/*
 * cutoff_connect4.h — the Connect Four adapter (included by cutoff_games.h). Being written.
 */
#ifndef CUTOFF_CONNECT4_H
#define CUTOFF_CONNECT4_H

#include "cutoff.h"

#endif /* CUTOFF_CONNECT4_H */
