/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _BIND_CLI_H
#define _BIND_CLI_H

/* The command line both bind-supervisor and bind-agent have (bind-cli.c). */

extern int verbose;
/* net.ipv4.ip_unprivileged_port_start of our network namespace */
extern unsigned int unpriv_start;

/* The version of both programs (samples/bind/VERSION). */
extern const char bind_version[];

/* The options both programs take, for their usage texts. */
#define COMMON_OPTIONS_HELP \
	"  -v       log every decision on stderr\n" \
	"  --help   this text\n" \
	"  --version\n" \
	"           print the program's name and version, and exit\n" \
	"  --fetch  how to take a socket from the program (default auto: the\n" \
	"           PIDFD_IOCTL_GETFD ioctl, else pidfd_getfd(2))\n"

/*
 * "PROG: MESSAGE" and @usage on stderr, then exit status 2; or, if set,
 * usage_hook(PROG, MESSAGE) instead (bind-agent's JSON log: one line).
 */
extern void (*usage_hook)(const char *prog, const char *msg);
void __attribute__((noreturn, format(printf, 3, 4)))
usage_exit(const char *prog, const char *usage, const char *fmt, ...);

/* --version: print "PROG VERSION" and exit 0; 0 if @opt is another option. */
int version_option(const char *prog, const char *opt);
/* A decimal number, digits only, in [min, max]; -1 if it is not one. */
long parse_number(const char *s, long min, long max);
/* Exits with a message if the sysctl cannot be read. */
void read_unpriv_start(const char *prog);

#endif /* _BIND_CLI_H */
