/* sim_calibrate.c — placeholder while the calibration is written (issue 15, in progress). */
#include "args.h"
#include "commands.h"

int sim_calibrate(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cli_error("sim", "--calibrate: not built yet");
	return CLI_EXIT_FAIL;
}
