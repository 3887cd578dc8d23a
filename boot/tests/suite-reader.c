// SPDX-License-Identifier: GPL-2.0
/*
 * boot/tests/suite-reader SUITE: the guest's reading of a suite file
 * (boot/image/suite-line.h, as /init reads it), on the host. Prints one
 * line per line that is not blank or a comment:
 *	LINE ok NAME ABIS TIMEOUT COMMAND
 *	LINE bad REASON
 * boot/tests/suite-lines.sh compares this with boot/suite.awk's reading.
 */
#include "../image/suite-line.h"

int main(int argc, char **argv)
{
	struct suite_reader r = { 0 };
	int got;

	if (argc != 2 || !(r.f = fopen(argv[1], "r"))) {
		fprintf(stderr, "usage: %s SUITE (a readable file)\n", argv[0]);
		return 2;
	}
	while ((got = suite_next(&r)))
		if (got > 0)
			printf("%d ok %s %s %u %s\n", r.lineno, r.name, r.abis,
			       r.timeout, r.argv[0]);
		else
			printf("%d bad %s\n", r.lineno, r.why);
	return 0;
}
