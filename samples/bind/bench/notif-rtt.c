// SPDX-License-Identifier: GPL-2.0
/*
 * notif-rtt [-r ROUNDS] [-n CALLS]: the floor of a seccomp user
 * notification, without and with SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP, as
 * TAP with the table and CSV rows of make bench.
 *
 * A child traps getppid() to a listener its parent answers at once (0, no
 * CONTINUE, nothing read or fetched: the answer-only round trip), and
 * times CALLS calls. Each round runs the child twice, without the flag and
 * with it, in turn; a row is the median over rounds of the time per call,
 * notif_sync's ratio is to notif_none's. The flag's row is a SKIP where
 * the kernel lacks it (before 6.6). Run as any user.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../seccomp/user-trap-helper.h"
#include "bench-rows.h"
#include "../lib/serve.h"	/* the 6.6 flag's definitions */

#define MAX_ROUNDS 101

/* The child: trap getppid(), hand over the listener, time @n calls. */
static void child(int sk, int n)
{
	double t0, ns;
	int listener;
	char go;

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		_exit(2);
	listener = user_trap_syscall(__NR_getppid, SECCOMP_FILTER_FLAG_NEW_LISTENER);
	if (listener < 0 || send_fd(sk, listener))
		_exit(2);
	close(listener);
	if (read(sk, &go, 1) != 1)
		_exit(2);
	t0 = now_ns();
	for (int i = 0; i < n; i++)
		if (syscall(__NR_getppid) != 0)
			_exit(3);
	ns = (now_ns() - t0) / n;
	if (write(sk, &ns, sizeof(ns)) != sizeof(ns))
		_exit(2);
	_exit(0);
}

/*
 * One run: answer the child's @n notifications, with the flag if @sync.
 * Returns ns per call, 0 if the kernel refused the flag, -1 on failure.
 */
static double run(int n, int sync)
{
	struct seccomp_notif_sizes sizes;
	struct seccomp_notif *req;
	struct seccomp_notif_resp *resp;
	int sk[2], listener, status;
	double ns = -1;
	pid_t pid;

	if (seccomp(SECCOMP_GET_NOTIF_SIZES, 0, &sizes) ||
	    socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sk))
		return -1;
	/* Ours, or the kernel's if larger: what it zero-checks and writes. */
	if (sizes.seccomp_notif < sizeof(*req))
		sizes.seccomp_notif = sizeof(*req);
	if (sizes.seccomp_notif_resp < sizeof(*resp))
		sizes.seccomp_notif_resp = sizeof(*resp);
	req = malloc(sizes.seccomp_notif);
	resp = malloc(sizes.seccomp_notif_resp);
	pid = req && resp ? fork() : -1;
	if (pid == 0)
		child(sk[1], n);
	close(sk[1]);
	listener = pid > 0 ? recv_fd(sk[0]) : -1;
	if (listener < 0)
		goto out;
	if (sync && ioctl(listener, SECCOMP_IOCTL_NOTIF_SET_FLAGS, SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP)) {
		ns = errno == EINVAL ? 0 : -1;
		goto out;
	}
	if (write(sk[0], "g", 1) != 1)
		goto out;
	for (int i = 0; i < n; i++) {
		memset(req, 0, sizes.seccomp_notif);
		if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, req))
			goto out;
		memset(resp, 0, sizes.seccomp_notif_resp);
		resp->id = req->id;
		if (ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, resp))
			goto out;
	}
	if (read(sk[0], &ns, sizeof(ns)) != sizeof(ns))
		ns = -1;
out:
	if (listener >= 0)
		close(listener);
	close(sk[0]);
	if (pid > 0) {
		if (ns <= 0)
			kill(pid, SIGKILL);
		if (waitpid(pid, &status, 0) != pid || (ns > 0 && (!WIFEXITED(status) || WEXITSTATUS(status))))
			ns = -1;
	}
	free(req);
	free(resp);
	return ns;
}

int main(int argc, char **argv)
{
	int rounds = 11, n = 2000, opt, have_sync = 1;
	double t[2][MAX_ROUNDS], floor_ns;

	while ((opt = getopt(argc, argv, "r:n:")) != -1) {
		if (opt == 'r')
			rounds = atoi(optarg);
		else if (opt == 'n')
			n = atoi(optarg);
		else
			rounds = 0;
	}
	if (rounds < 1 || rounds > MAX_ROUNDS || n < 1 || optind != argc) {
		fprintf(stderr, "usage: notif-rtt [-r ROUNDS (1-%d)] [-n CALLS]\n", MAX_ROUNDS);
		return 2;
	}
	printf("TAP version 13\n1..2\n");
	print_table_head(rounds, n, "calls");
	for (int r = 0; r < rounds; r++)
		for (int sync = 0; sync < 2; sync++) {
			if (sync && !have_sync)
				continue;
			t[sync][r] = run(n, sync);
			if (t[sync][r] < 0) {
				printf("not ok %d notif_%s: a run failed (%s)\n", 1 + sync,
				       sync ? "sync" : "none", strerror(errno));
				return 1;
			}
			if (sync && t[sync][r] == 0)
				have_sync = 0;
		}
	floor_ns = print_row("notif_none", "notif_none", "answered at once, no flag",
			     n * rounds, t[0], rounds, 0);
	printf("ok 1 notif_none\n");
	if (!have_sync) {
		printf("ok 2 notif_sync # SKIP the kernel says EINVAL to SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP (before 6.6)\n");
		return 0;
	}
	print_row("notif_sync", "notif_none", "the same, SYNC_WAKE_UP", n * rounds, t[1], rounds,
		  floor_ns);
	printf("ok 2 notif_sync\n");
	return 0;
}
