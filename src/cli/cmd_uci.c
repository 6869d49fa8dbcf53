/* SPDX-License-Identifier: MIT */
/*
 * cmd_uci.c — `cutoff uci`: a chess engine speaking UCI on stdin and stdout. This file
 * holds the command's usage; the session is the UCI toolkit's (uci_run, uci/session.h).
 */
#include <stdio.h>

#include "cli/commands.h"
#include "kit/args.h"
#include "uci/session.h"

/* clang-format off */
static const char uci_usage[] =
	"usage: cutoff uci\n"
	"\n"
	"A chess engine speaking the Universal Chess Interface (UCI) on stdin and stdout,\n"
	"for a chess GUI or a referee (cutoff match). Commands: uci, isready, ucinewgame,\n"
	"setoption, position, go, stop, ponderhit, debug, quit, and d (prints the current\n"
	"position as 'info string fen ...'). Options (see 'uci' for them all):\n";
static const char uci_usage_end[] =
	",\nand each driver's options ('cutoff drivers'); they take effect when the engine\n"
	"is idle, at the next isready, go or ucinewgame. A bad line is answered with\n"
	"'info string error: ...' and changes nothing; a bad go is also answered at once\n"
	"with the first legal move. A go during a search ends that search first: every\n"
	"go gets one bestmove, in order. End of input acts as quit.\n"
	"docs/chess.md (\"UCI\") has the details.\n";
/* clang-format on */

int cli_uci(int argc, char **argv)
{
	char names[256], usage[sizeof(uci_usage) + sizeof(names) + sizeof(uci_usage_end)];
	/* The engine's options from the rows that `uci` lists (uci/options.c). */
	snprintf(usage, sizeof(usage), "%s%s%s", uci_usage, uci_option_names(names, sizeof(names)),
	         uci_usage_end);
	cli_status_t st = cli_parse("uci", usage, NULL, 0, argc, argv);
	if (st != CLI_PARSED)
		return cli_parse_exit(st);
	return uci_run(stdin, stdout);
}
