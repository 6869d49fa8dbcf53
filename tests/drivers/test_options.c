/* SPDX-License-Identifier: MIT */
/*
 * The drivers' options set from text (cutoff_config_set_option_str, issue 25, item 10): a
 * front end hands over what the user typed, a word or a number, and the registry reads it.
 * For every option of every driver: each of its words sets the value it stands for, each
 * number of its range sets itself, and the values just outside the range are refused;
 * then text that is neither a word nor a whole number is refused, and every refusal
 * leaves the configuration as it was.
 */
#include <string.h>

#include "check.h"
#include "cutoff.h"

/* Sets `text` into a copy of *cfg; the code, with *value the option's value afterwards,
 * and *same whether a refusal left the copy as it was. */
static int set(const cutoff_config_t *cfg, const char *name, const char *text, int *value,
               bool *same)
{
	cutoff_config_t c = *cfg;
	int rc = cutoff_config_set_option_str(&c, name, text);
	cutoff_config_get_option(&c, name, value);
	*same = memcmp(&c, cfg, sizeof(c)) == 0;
	return rc;
}

static void one_option(const cutoff_config_t *cfg, const cutoff_driver_option_t *o)
{
	char text[32];
	int value;
	bool same;
	for (int i = 0; o->words && i <= o->max - o->min; i++)
		CHECK(set(cfg, o->name, o->words[i], &value, &same) == 0 && value == o->min + i,
		      "%s %s: value %d (want %d)", o->name, o->words[i], value, o->min + i);
	/* every value of a range up to 4096 wide; of a wider one (dts-min-nodes), the 1024 at
	 * each end and every power of two between */
	const bool wide = o->max - o->min > 4096;
	for (int v = o->min; v <= o->max; v++) {
		if (wide && v > o->min + 1024 && v < o->max - 1024) {
			if ((v & (v - 1)) != 0) { /* on to the next power of two, or the top end */
				int p = 1;
				while (p <= v && p < (1 << 30))
					p <<= 1;
				v = (p > v && p < o->max - 1024 ? p : o->max - 1024) - 1;
				continue;
			}
		}
		snprintf(text, sizeof(text), "%d", v);
		CHECK(set(cfg, o->name, text, &value, &same) == 0 && value == v, "%s %s: value %d",
		      o->name, text, value);
	}
	const int outside[] = { o->min - 1, o->max + 1 };
	for (int k = 0; k < 2; k++) {
		snprintf(text, sizeof(text), "%d", outside[k]);
		CHECK(set(cfg, o->name, text, &value, &same) == CUTOFF_EINVAL && same,
		      "%s %s (outside %d..%d): refused, cfg unchanged", o->name, text, o->min,
		      o->max);
	}
}

int main(void)
{
	cutoff_config_t cfg;
	cutoff_config_default(&cfg);
	int options = 0;
	for (int d = 0; d < cutoff_driver_count(); d++) {
		const cutoff_driver_option_t *o;
		int n = cutoff_driver_options((cutoff_driver_t)d, &o);
		for (int i = 0; i < n; i++, options++)
			one_option(&cfg, &o[i]);
	}
	CHECK(options >= 7, "%d options checked", options);

	/* The example of the issue: a word option by its word. */
	int value;
	bool same;
	CHECK(set(&cfg, "abdada-variant", "classic", &value, &same) == 0 &&
	              value == CUTOFF_ABDADA_CLASSIC,
	      "abdada-variant classic");
	CHECK(set(&cfg, "lazy-skip", "off", &value, &same) == 0 && value == 0, "lazy-skip off");
	CHECK(set(&cfg, "min-split", "+5", &value, &same) == 0 && value == 5, "min-split +5");

	CHECK(set(&cfg, "min-split", "007", &value, &same) == 0 && value == 7, "min-split 007");

	/* Each row lands in its own field: lazy SMP's two booleans, side by side in the struct
	 * (lazysmp_vote false by default: the deepest thread answers, as before the vote). */
	cutoff_config_t lazy = cfg;
	CHECK(lazy.lazysmp_skip && !lazy.lazysmp_vote, "lazy SMP defaults: skip on, vote off");
	CHECK(cutoff_config_set_option_str(&lazy, "lazy-vote", "on") == 0 && lazy.lazysmp_vote &&
	              lazy.lazysmp_skip,
	      "lazy-vote on sets config.lazysmp_vote alone");
	CHECK(cutoff_config_set_option_str(&lazy, "lazy-skip", "off") == 0 && lazy.lazysmp_vote &&
	              !lazy.lazysmp_skip,
	      "lazy-skip off sets config.lazysmp_skip alone");

	/* Neither a word nor a whole number, or no such option. */
	const struct {
		const char *name, *text;
	} bad[] = {
		{ "abdada-variant", "Classic" },
		{ "abdada-variant", "classic " },
		{ "abdada-variant", "" },
		{ "lazy-skip", "yes" },
		{ "lazy-vote", "true" },
		{ "min-split", "" },
		{ "min-split", "+" },
		{ "min-split", "-" },
		{ "min-split", " 4" },
		{ "min-split", "4 " },
		{ "min-split", "4x" },
		{ "min-split", "0x10" },
		{ "min-split", "4.0" },
		{ "min-split", "on" },
		{ "min-split", "99999999999999999999" },
		{ "min-split", "-2147483649" },
		{ "max-helpers", "2147483648" },
		{ "no-such-option", "1" },
		{ "", "1" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(set(&cfg, bad[i].name, bad[i].text, &value, &same) == CUTOFF_EINVAL && same,
		      "%s \"%s\": refused, cfg unchanged", bad[i].name, bad[i].text);
	printf("%d options set from their words and numbers; %zu bad texts refused\n", options,
	       sizeof(bad) / sizeof(bad[0]));
	return check_report();
}
