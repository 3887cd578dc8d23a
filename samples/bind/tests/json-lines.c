// SPDX-License-Identifier: GPL-2.0
/*
 * json-lines: check a log that must be JSON lines (bind-agent's
 * --log-format json), for the tests; jq is not in the guests.
 *
 *	json-lines FILE EVENT KEY...
 *
 * Every line of FILE must be one JSON object and nothing else (json-c's
 * strict parser), with a string member "event"; every object whose
 * "event" is EVENT must have each KEY. Prints how many lines and how many
 * EVENTs; exits 0 if all is well and there is at least one EVENT, 1 with
 * the first bad line otherwise, 2 on bad arguments.
 */
#include <json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	static char line[1 << 16];
	unsigned long lines = 0, events = 0;
	FILE *f;

	if (argc < 3) {
		fprintf(stderr, "usage: json-lines FILE EVENT KEY...\n");
		return 2;
	}
	f = fopen(argv[1], "r");
	if (!f) {
		perror(argv[1]);
		return 2;
	}
	while (fgets(line, sizeof(line), f)) {
		struct json_tokener *tok = json_tokener_new();
		struct json_object *o, *ev;
		size_t len = strlen(line);
		const char *bad = NULL;

		lines++;
		if (!tok)
			return 2;
		json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
		if (!len || line[len - 1] != '\n') {
			printf("line %lu: not a whole line (longer than %zu bytes?)\n", lines, sizeof(line));
			return 1;
		}
		line[--len] = '\0';
		o = json_tokener_parse_ex(tok, line, (int)len);
		if (!o || json_tokener_get_error(tok) != json_tokener_success)
			bad = "not one JSON value";
		else if (json_tokener_get_parse_end(tok) != len)
			bad = "more than one JSON value";
		else if (!json_object_is_type(o, json_type_object))
			bad = "not a JSON object";
		else if (!json_object_object_get_ex(o, "event", &ev) || !json_object_is_type(ev, json_type_string))
			bad = "no \"event\" string";
		else if (!strcmp(json_object_get_string(ev), argv[2])) {
			events++;
			for (int i = 3; i < argc; i++)
				if (!json_object_object_get_ex(o, argv[i], NULL)) {
					printf("line %lu: an \"%s\" without \"%s\": %s\n", lines, argv[2],
					       argv[i], line);
					return 1;
				}
		}
		if (bad) {
			printf("line %lu: %s: %s\n", lines, bad, line);
			return 1;
		}
		json_object_put(o);
		json_tokener_free(tok);
	}
	fclose(f);
	printf("%lu lines, each a JSON object with an \"event\"; %lu \"%s\" events, each with all of %d members\n",
	       lines, events, argv[2], argc - 3);
	return events ? 0 : 1;
}
