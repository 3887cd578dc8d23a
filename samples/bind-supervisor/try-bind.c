// SPDX-License-Identifier: GPL-2.0
/*
 * try-bind [--thread] FAMILY PORT: bind one socket and say what happened,
 * for the bind-supervisor tests. FAMILY is tcp, udp, tcp6 or unix (PORT
 * ignored); --thread binds from a second thread. Exits 0 if bind()
 * succeeded, 1 if it failed, 2 on bad arguments.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static int try_bind(const char *family, const char *portarg)
{
	struct sockaddr_storage ss = { 0 };
	struct sockaddr_in *in = (struct sockaddr_in *)&ss;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;
	struct sockaddr_un *un = (struct sockaddr_un *)&ss;
	int s, port = atoi(portarg);
	socklen_t len;

	if (!strcmp(family, "tcp") || !strcmp(family, "udp")) {
		in->sin_family = AF_INET;
		in->sin_port = htons(port);
		in->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		len = sizeof(*in);
		s = socket(AF_INET, family[0] == 't' ? SOCK_STREAM : SOCK_DGRAM, 0);
	} else if (!strcmp(family, "tcp6")) {
		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons(port);
		in6->sin6_addr = in6addr_loopback;
		len = sizeof(*in6);
		s = socket(AF_INET6, SOCK_STREAM, 0);
	} else if (!strcmp(family, "unix")) {
		un->sun_family = AF_UNIX;
		snprintf(un->sun_path + 1, sizeof(un->sun_path) - 1, "try-bind-%d", getpid());
		len = sizeof(*un);
		s = socket(AF_UNIX, SOCK_STREAM, 0);
	} else {
		fprintf(stderr, "try-bind: unknown family '%s'\n", family);
		return 2;
	}
	if (s < 0) {
		perror("try-bind: socket");
		return 1;
	}
	if (bind(s, (struct sockaddr *)&ss, len)) {
		printf("bind %s:%s as uid %d: %s\n", family, portarg, getuid(), strerror(errno));
		return 1;
	}
	printf("bind %s:%s as uid %d: ok\n", family, portarg, getuid());
	return 0;
}

static char **thread_args;
static int thread_ret;

static void *bind_thread(void *arg)
{
	(void)arg;
	thread_ret = try_bind(thread_args[0], thread_args[1]);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;

	if (argc == 4 && !strcmp(argv[1], "--thread")) {
		thread_args = &argv[2];
		if (pthread_create(&t, NULL, bind_thread, NULL) || pthread_join(t, NULL)) {
			fprintf(stderr, "try-bind: pthread failed\n");
			return 1;
		}
		return thread_ret;
	}
	if (argc != 3) {
		fprintf(stderr, "usage: try-bind [--thread] tcp|udp|tcp6|unix PORT\n");
		return 2;
	}
	return try_bind(argv[1], argv[2]);
}
