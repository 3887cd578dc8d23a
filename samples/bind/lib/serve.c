// SPDX-License-Identifier: GPL-2.0
/*
 * The listener loop (serve.h): any number of threads receive a listener's
 * notifications, one at a time, and answer them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "../../seccomp/user-trap-helper.h"
#include "call.h"

int (*notif_hook)(const struct served *s, const struct seccomp_notif *req,
		  const struct call *c, enum notif_step step);

int notif_sync_wake_up(int listener)
{
	return ioctl(listener, SECCOMP_IOCTL_NOTIF_SET_FLAGS, SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP) ? -1 : 0;
}

int notif_sizes(struct seccomp_notif_sizes *sizes)
{
	if (seccomp(SECCOMP_GET_NOTIF_SIZES, 0, sizes) < 0)
		return -1;
	/* Our structs must be at least as large as the kernel's. */
	if (sizes->seccomp_notif < sizeof(struct seccomp_notif))
		sizes->seccomp_notif = sizeof(struct seccomp_notif);
	if (sizes->seccomp_notif_resp < sizeof(struct seccomp_notif_resp))
		sizes->seccomp_notif_resp = sizeof(struct seccomp_notif_resp);
	return 0;
}

/*
 * Notifications received and not yet answered hold this for reading;
 * serve_stop() takes it for writing (writers first: no new reader gets in
 * once it waits), and then no thread receives another.
 */
static pthread_rwlock_t in_flight = PTHREAD_RWLOCK_WRITER_NONRECURSIVE_INITIALIZER_NP;
static int stopping;

int serve_stop(int seconds)
{
	struct timespec deadline;

	__atomic_store_n(&stopping, 1, __ATOMIC_SEQ_CST);
	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += seconds;
	return pthread_rwlock_timedwrlock(&in_flight, &deadline) ? -1 : 0;
}

int serve_hold(void)
{
	pthread_rwlock_rdlock(&in_flight);
	if (!__atomic_load_n(&stopping, __ATOMIC_SEQ_CST))
		return 0;
	pthread_rwlock_unlock(&in_flight);
	return -1;
}

void serve_release(void)
{
	pthread_rwlock_unlock(&in_flight);
}

/*
 * Wait for a notification and receive it. Only one thread at a time: after
 * POLLIN the one receiver cannot block (a notification withdrawn meanwhile
 * is ENOENT), and a hang-up reaches every thread through poll().
 * Returns 1 for a notification, with in_flight held, 0 for the hang-up,
 * -1 on error.
 */
static int receive(struct served *s, struct seccomp_notif *req, size_t size)
{
	struct pollfd pfd = { .fd = s->listener, .events = POLLIN };
	int ret;

	pthread_mutex_lock(&s->recv_lock);
	do {
		/* Once no task uses the filter, there is nothing to wait for. */
		if (poll(&pfd, 1, -1) == 1 && !(pfd.revents & POLLIN)) {
			ret = 0;
			break;
		}
		pthread_rwlock_rdlock(&in_flight);
		/* Stopping: leave the notification to the kernel; we exit. */
		while (__atomic_load_n(&stopping, __ATOMIC_SEQ_CST)) {
			pthread_rwlock_unlock(&in_flight);
			pause();
		}
		memset(req, 0, size);
		ret = ioctl(s->listener, SECCOMP_IOCTL_NOTIF_RECV, req) ? -1 : 1;
		if (ret < 0)
			pthread_rwlock_unlock(&in_flight);
	} while (ret < 0 && (errno == EINTR || errno == ENOENT));
	pthread_mutex_unlock(&s->recv_lock);
	return ret;
}

int serve(struct served *s, const struct seccomp_notif_sizes *sizes)
{
	struct seccomp_notif *req = malloc(sizes->seccomp_notif);
	struct seccomp_notif_resp *resp = malloc(sizes->seccomp_notif_resp);
	struct call c;
	int ret = -1, sent;

	if (!req || !resp) {
		fprintf(stderr, "%s: out of memory\n", s->name);
		goto out;
	}
	for (;;) {
		struct timespec t0;

		ret = receive(s, req, sizes->seccomp_notif);
		clock_gettime(CLOCK_MONOTONIC, &t0);
		if (ret < 0)
			fprintf(stderr, "%s: SECCOMP_IOCTL_NOTIF_RECV: %s\n", s->name,
				strerror(errno));
		if (ret <= 0)
			break;
		if (notif_hook)
			notif_hook(s, req, NULL, NOTIF_RECEIVED);
		answer(s, req, resp, &c, &t0);
		if (notif_hook)
			notif_hook(s, req, &c, NOTIF_SENDING);
		sent = !ioctl(s->listener, SECCOMP_IOCTL_NOTIF_SEND, resp);
		if (notif_hook)
			notif_hook(s, req, &c, NOTIF_ANSWERED);
		pthread_rwlock_unlock(&in_flight);
		/*
		 * ENOENT: the caller died, or a signal withdrew the call (it is
		 * restarted: remember_bind()).
		 */
		if (!sent && errno != ENOENT)
			fprintf(stderr, "%s: pid %d: SECCOMP_IOCTL_NOTIF_SEND: %s\n",
				s->name, req->pid, strerror(errno));
		if (c.bound)
			end_bind(s, &c, req->id, sent);
	}
out:
	free(req);
	free(resp);
	return ret;
}
