/* SPDX-License-Identifier: MIT */
/*
 * main.c — the `cutoff` command: finds the subcommand and hands it the rest of the line.
 *
 * Every subcommand follows the conventions of args.h (one-line errors on stderr, exit 2
 * for usage errors, an input file that cannot be read among them, and 1 for failures).
 * Output goes through stdio; a failure to write it (a full disk, a closed pipe) is reported
 * here, once, after the subcommand returns, so that `cutoff ... > file` never succeeds with
 * a truncated file.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "cutoff.h"
#include "kit/args.h"
#include "kit/json.h"

static int run_version(int argc, char **argv);
static int run_help(int argc, char **argv);

typedef struct cli_command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
} cli_command_t;

static const cli_command_t commands[] = {
	{ "search", cli_search,
	  "search one position (ttt, chess, connect4, rtree) and report every counter" },
	{ "tree", cli_tree, "search synthetic random trees and compare with the minimal tree" },
	{ "ttbench", cli_ttbench, "measure the transposition table, lock-free against locked" },
	{ "topo", cli_topo, "show the CPUs hwloc sees and where an engine's threads would run" },
	{ "solve", cli_solve, "solve Connect Four positions exactly, or check a test-set file" },
	{ "perft", cli_perft, "count the legal-move tree of a chess position (perft)" },
	{ "uci", cli_uci, "play chess as a UCI engine on stdin and stdout" },
	{ "match", cli_match, "play games between two UCI engines and referee them" },
	{ "epd", cli_epd, "run a chess test suite in EPD (Win at Chess, Bratko-Kopec)" },
	{ "bench", cli_bench, "measure how parallel search scales: drivers, threads, workloads" },
	{ "drivers", cli_drivers, "list the parallel drivers and their options" },
	{ "sim", cli_sim, "run the drivers on many virtual threads: scaling past this machine" },
	{ "version", run_version, "print the library version" },
	{ "help", run_help, "list the commands, or print one command's usage" },
};

enum {
	NCOMMANDS = sizeof(commands) / sizeof(commands[0])
};

static const cli_command_t *find_command(const char *name)
{
	for (int i = 0; i < NCOMMANDS; i++) {
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	}
	return NULL;
}

static void print_overview(FILE *out)
{
	fputs("usage: cutoff <command> [options]\n"
	      "\n"
	      "Parallel alpha-beta game-tree search.\n"
	      "\n"
	      "commands:\n",
	      out);
	for (int i = 0; i < NCOMMANDS; i++)
		fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fputs("\n"
	      "'cutoff <command> --help' (or 'cutoff help <command>') describes a command.\n"
	      "Exit status: 0 success, 1 failure, 2 bad command line (an input file that\n"
	      "cannot be read included).\n",
	      out);
}

static const char version_usage[] =
	"usage: cutoff version [--json]\n"
	"\n"
	"Prints the version of the cutoff library the command is built with.\n";

static int run_version(int argc, char **argv)
{
	bool json = false;
	cli_opt_t opts[] = {
		CLI_FLAG_OPT("json", &json, "print {\"version\": \"...\"} instead"),
	};
	cli_status_t st = cli_parse("version", version_usage, opts,
	                            (int)(sizeof(opts) / sizeof(opts[0])), argc, argv);
	if (st != CLI_PARSED)
		return cli_parse_exit(st);
	if (!json) {
		printf("cutoff %s\n", cutoff_version());
		return CLI_EXIT_OK;
	}
	json_writer_t w;
	jw_init(&w, stdout);
	jw_begin_object(&w, NULL);
	jw_string(&w, "version", cutoff_version());
	jw_end(&w);
	if (jw_finish(&w) < 0) {
		cli_error("version", "internal error: the JSON output is malformed");
		return CLI_EXIT_FAIL;
	}
	return CLI_EXIT_OK;
}

static const char help_usage[] = "usage: cutoff help [<command>]\n"
				 "\n"
				 "Lists the commands, or prints the usage of one.\n";

static int run_help(int argc, char **argv)
{
	char q[CLI_QUOTE_SIZE];
	if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		fputs(help_usage, stdout);
		return CLI_EXIT_OK;
	}
	if (argc > 2) {
		cli_error("help", "unexpected argument %s", cli_quote(q, sizeof(q), argv[2]));
		return CLI_EXIT_USAGE;
	}
	if (argc == 1) {
		print_overview(stdout);
		return CLI_EXIT_OK;
	}
	const cli_command_t *c = find_command(argv[1]);
	if (!c) {
		cli_error("help", "unknown command %s (try 'cutoff --help')",
		          cli_quote(q, sizeof(q), argv[1]));
		return CLI_EXIT_USAGE;
	}
	char help_flag[] = "--help";
	char *sub_argv[] = { argv[1], help_flag, NULL };
	return c->run(2, sub_argv);
}

int main(int argc, char **argv)
{
	char q[CLI_QUOTE_SIZE];
	int status;

	if (argc < 2) {
		cli_error(NULL, "missing command (try 'cutoff --help')");
		return CLI_EXIT_USAGE;
	}
	const char *name = argv[1];
	if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) {
		print_overview(stdout);
		status = CLI_EXIT_OK;
	} else if (strcmp(name, "--version") == 0) {
		printf("cutoff %s\n", cutoff_version());
		status = CLI_EXIT_OK;
	} else {
		const cli_command_t *c = find_command(name);
		if (!c) {
			cli_error(NULL, "unknown command %s (try 'cutoff --help')",
			          cli_quote(q, sizeof(q), name));
			return CLI_EXIT_USAGE;
		}
		status = c->run(argc - 1, argv + 1);
	}
	errno = 0;
	if ((fflush(stdout) != 0 || ferror(stdout)) && status == CLI_EXIT_OK) {
		/* (A command that failed has said why already, in its one line.) errno
		 * belongs to the failed write only when fflush was the one to fail. */
		if (errno)
			cli_error(NULL, "cannot write the output: %s", strerror(errno));
		else
			cli_error(NULL, "cannot write the output");
		return CLI_EXIT_FAIL;
	}
	return status;
}
