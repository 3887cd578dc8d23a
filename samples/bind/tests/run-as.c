// SPDX-License-Identifier: GPL-2.0
/*
 * run-as [-u UID] [-c CAP,...] [-s SECBITS] -- PROGRAM [ARG...]: start
 * PROGRAM the way a careless service manager might start bind-supervisor,
 * for its tests: as UID (default: unchanged) with CAPs in the permitted,
 * inheritable, effective and ambient sets, and/or with SECBITS set.
 * CAP is setuid, setgid, setpcap, net_bind_service or sys_ptrace.
 */
#define _GNU_SOURCE
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static const struct { const char *name; int cap; } names[] = {
	{ "setgid", CAP_SETGID }, { "setuid", CAP_SETUID }, { "setpcap", CAP_SETPCAP },
	{ "net_bind_service", CAP_NET_BIND_SERVICE }, { "sys_ptrace", CAP_SYS_PTRACE },
	{ "chown", CAP_CHOWN },
};

static unsigned long long parse_caps(char *list)
{
	unsigned long long caps = 0;
	char *name;
	size_t i;

	for (name = strtok(list, ","); name; name = strtok(NULL, ",")) {
		for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (!strcmp(name, names[i].name))
				break;
		if (i == sizeof(names) / sizeof(names[0])) {
			fprintf(stderr, "run-as: unknown capability '%s'\n", name);
			exit(2);
		}
		caps |= 1ULL << names[i].cap;
	}
	return caps;
}

int main(int argc, char **argv)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2] = { { 0 } };
	unsigned long long caps = 0;
	long uid = -1, secbits = -1;
	int opt;

	while ((opt = getopt(argc, argv, "u:c:s:")) != -1) {
		if (opt == 'u')
			uid = strtol(optarg, NULL, 0);
		else if (opt == 'c')
			caps = parse_caps(optarg);
		else if (opt == 's')
			secbits = strtol(optarg, NULL, 0);
		else
			return 2;
	}
	if (optind >= argc)
		return 2;
	if (uid >= 0 && (prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) ||
			 setresgid(uid, uid, uid) || setresuid(uid, uid, uid))) {
		perror("run-as: uid");
		return 1;
	}
	if (secbits >= 0 && prctl(PR_SET_SECUREBITS, secbits, 0, 0, 0)) {
		perror("run-as: PR_SET_SECUREBITS");
		return 1;
	}
	if (caps) {
		data[0].permitted = data[0].inheritable = data[0].effective = (__u32)caps;
		if (syscall(SYS_capset, &hdr, data)) {
			perror("run-as: capset");
			return 1;
		}
		for (int cap = 0; cap < 32; cap++)
			if (caps & (1ULL << cap) &&
			    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, cap, 0, 0)) {
				perror("run-as: PR_CAP_AMBIENT_RAISE");
				return 1;
			}
	}
	execvp(argv[optind], &argv[optind]);
	perror("run-as: exec");
	return 127;
}
