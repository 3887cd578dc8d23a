// SPDX-License-Identifier: GPL-2.0
/*
 * The command line both bind-supervisor and bind-agent have (bind-cli.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bind-cli.h"

int verbose;
unsigned int unpriv_start;

/* The one home of the version: samples/bind/VERSION, a C string. */
const char bind_version[] =
#include "../VERSION"
	;

int version_option(const char *prog, const char *opt)
{
	if (strcmp(opt, "--version"))
		return 0;
	printf("%s %s\n", prog, bind_version);
	exit(fflush(stdout) ? 1 : 0);
}

void (*usage_hook)(const char *prog, const char *msg);

void usage_exit(const char *prog, const char *usage, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (usage_hook)
		usage_hook(prog, msg);
	else
		fprintf(stderr, "%s: %s\n%s", prog, msg, usage);
	exit(2);
}

long parse_number(const char *s, long min, long max)
{
	long n = 0;

	if (!*s || (s[0] == '0' && s[1]))
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || n > max)
			return -1;
		n = n * 10 + (*s - '0');
	}
	return n < min || n > max ? -1 : n;
}

/* The privileged range of our network namespace. */
void read_unpriv_start(const char *prog)
{
	FILE *f = fopen("/proc/sys/net/ipv4/ip_unprivileged_port_start", "re");

	if (!f || fscanf(f, "%u", &unpriv_start) != 1) {
		fprintf(stderr, "%s: net.ipv4.ip_unprivileged_port_start: %s\n", prog,
			strerror(errno));
		exit(1);
	}
	fclose(f);
}
