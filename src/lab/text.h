/* SPDX-License-Identifier: MIT */
/*
 * text.h — the report of `cutoff bench` for a reader (text.c): report.txt, also printed.
 */
#ifndef CUTOFF_LAB_TEXT_H
#define CUTOFF_LAB_TEXT_H

#include "lab/types.h"

/* The whole report, after the rows are derived (rows.h) and the plots drawn. */
void bench_print_text(const bench_t *b, FILE *out);

#endif /* CUTOFF_LAB_TEXT_H */
