/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One reading of a suite file's lines (boot/suites/NAME), for the guest's
 * /init (boot/image/init.c) and for the host's test of it
 * (boot/tests/suite-lines.sh, which holds it against boot/suite.awk: the
 * two must accept and refuse the same lines). A line is blank, a comment
 * (its first non-blank character is '#'), or
 *
 *	NAME ABIS TIMEOUT COMMAND [ARG...]
 *
 * with ABIS all, native or last, TIMEOUT whole seconds from 1 to
 * SUITE_MAX_TIMEOUT, at most SUITE_MAX_WORDS words and SUITE_MAX_LINE
 * characters, and NAME not used by an earlier line. Anything else is a bad
 * line, which is refused with the reason.
 */
#ifndef SUITE_LINE_H
#define SUITE_LINE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SUITE_MAX_WORDS 34
#define SUITE_MAX_LINE 500
#define SUITE_MAX_TIMEOUT 86400
#define SUITE_MAX_TESTS 64
#define SUITE_MAX_NAME 64

struct suite_reader {
	FILE *f;
	int lineno;
	int ntests;
	char names[SUITE_MAX_TESTS][SUITE_MAX_NAME];
	char line[SUITE_MAX_LINE + 2];
	/* the test of the last line read */
	char *words[SUITE_MAX_WORDS + 1];
	const char *name, *abis;
	unsigned int timeout;
	char **argv;
	char why[160];
};

static inline void suite_rewind(struct suite_reader *r)
{
	rewind(r->f);
	r->lineno = 0;
	r->ntests = 0;
}

/* The rules for the words of a line; 1 if they make a test. */
static int suite_words(struct suite_reader *r, int n)
{
	char *end;
	unsigned long t;

	if (n < 4) {
		snprintf(r->why, sizeof(r->why),
			 "want NAME ABIS TIMEOUT COMMAND [ARG...], got %d words", n);
		return 0;
	}
	if (n > SUITE_MAX_WORDS) {
		snprintf(r->why, sizeof(r->why),
			 "more than %d words", SUITE_MAX_WORDS);
		return 0;
	}
	if (strlen(r->words[0]) >= SUITE_MAX_NAME) {
		snprintf(r->why, sizeof(r->why), "the test name is longer than %d characters",
			 SUITE_MAX_NAME - 1);
		return 0;
	}
	for (int i = 0; i < r->ntests; i++)
		if (!strcmp(r->names[i], r->words[0])) {
			snprintf(r->why, sizeof(r->why),
				 "the test name '%s' is also on an earlier line", r->words[0]);
			return 0;
		}
	if (strcmp(r->words[1], "all") && strcmp(r->words[1], "native") &&
	    strcmp(r->words[1], "last")) {
		snprintf(r->why, sizeof(r->why),
			 "ABIS is '%s': want all, native or last", r->words[1]);
		return 0;
	}
	t = strtoul(r->words[2], &end, 10);
	if (r->words[2][0] < '1' || r->words[2][0] > '9' || *end ||
	    strlen(r->words[2]) > 5 || t > SUITE_MAX_TIMEOUT) {
		snprintf(r->why, sizeof(r->why),
			 "TIMEOUT is '%s': want whole seconds from 1 to %d",
			 r->words[2], SUITE_MAX_TIMEOUT);
		return 0;
	}
	if (r->ntests == SUITE_MAX_TESTS) {
		snprintf(r->why, sizeof(r->why), "more than %d tests", SUITE_MAX_TESTS);
		return 0;
	}
	strcpy(r->names[r->ntests++], r->words[0]);
	r->name = r->words[0];
	r->abis = r->words[1];
	r->timeout = (unsigned int)t;
	r->argv = &r->words[3];
	return 1;
}

/*
 * The next line that is not blank or a comment: 1 if it is a test (name,
 * abis, timeout, argv set), -1 if it is a bad line (why set), 0 at the end.
 */
static int suite_next(struct suite_reader *r)
{
	while (fgets(r->line, sizeof(r->line), r->f)) {
		size_t len = strlen(r->line);
		char *p;
		int n = 0;

		r->lineno++;
		if (len && r->line[len - 1] == '\n')
			r->line[--len] = '\0';
		else if (!feof(r->f)) {
			int c;

			while ((c = fgetc(r->f)) != EOF && c != '\n')
				;
			snprintf(r->why, sizeof(r->why), "longer than %d characters",
				 SUITE_MAX_LINE);
			return -1;
		}
		p = r->line + strspn(r->line, " \t");
		if (*p == '#' || *p == '\0')
			continue;
		if (len > SUITE_MAX_LINE) {
			snprintf(r->why, sizeof(r->why), "longer than %d characters",
				 SUITE_MAX_LINE);
			return -1;
		}
		for (char *w = strtok(r->line, " \t"); w; w = strtok(NULL, " \t")) {
			if (n < SUITE_MAX_WORDS)
				r->words[n] = w;
			n++;
		}
		r->words[n < SUITE_MAX_WORDS ? n : SUITE_MAX_WORDS] = NULL;
		return suite_words(r, n) ? 1 : -1;
	}
	return 0;
}

#endif
