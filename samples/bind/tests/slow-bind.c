// SPDX-License-Identifier: GPL-2.0
/*
 * slow-bind PORT1 PORT2: a program that blocks its supervisor. Thread 1
 * binds to PORT1 with its address on a userfaultfd page nobody has filled,
 * so the supervisor's read of that address waits; meanwhile thread 2 binds
 * to PORT2, which must be answered within 5 s. Then the page is filled and
 * both binds must have succeeded. Exits 0 if so, 1 if not.
 * Needs vm.unprivileged_userfaultfd=1 when run unprivileged.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

static int done[2];	/* pipe: each thread writes its result */

static void *bind_thread(void *addr)
{
	int s = socket(AF_INET, SOCK_STREAM, 0);
	char r = bind(s, addr, sizeof(struct sockaddr_in)) ? 'E' : 'K';

	if (write(done[1], &r, 1) != 1)
		exit(1);
	return NULL;
}

int main(int argc, char **argv)
{
	struct sockaddr_in fast = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct sockaddr_in slow = fast;
	struct uffdio_api api = { .api = UFFD_API };
	struct uffd_msg msg;
	struct pollfd pfd;
	long page = sysconf(_SC_PAGESIZE);
	int uffd, ok = 1, answered = 0;
	pthread_t t;
	char *area;
	char r;

	if (argc != 3)
		return 2;
	slow.sin_port = htons(atoi(argv[1]));
	fast.sin_port = htons(atoi(argv[2]));
	uffd = syscall(__NR_userfaultfd, O_CLOEXEC);
	area = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (uffd < 0 || area == MAP_FAILED || ioctl(uffd, UFFDIO_API, &api)) {
		perror("slow-bind: userfaultfd");
		return 1;
	}
	struct uffdio_register reg = {
		.range = { (unsigned long)area, page }, .mode = UFFDIO_REGISTER_MODE_MISSING,
	};
	if (ioctl(uffd, UFFDIO_REGISTER, &reg) || pipe(done))
		return 1;
	/* Thread 1: its address is on the missing page. */
	pthread_create(&t, NULL, bind_thread, area);
	if (read(uffd, &msg, sizeof(msg)) != sizeof(msg) || msg.event != UFFD_EVENT_PAGEFAULT)
		return 1;
	printf("slow-bind: the supervisor is stuck reading port %s's address\n", argv[1]);
	/* Thread 2: an ordinary bind. */
	pthread_create(&t, NULL, bind_thread, &fast);
	pfd = (struct pollfd){ .fd = done[0], .events = POLLIN };
	if (poll(&pfd, 1, 5000) != 1 || read(done[0], &r, 1) != 1) {
		printf("slow-bind: the bind to port %s was not answered in 5 s\n", argv[2]);
		ok = 0;
	} else {
		answered = 1;
		ok = r == 'K';
		printf("slow-bind: the bind to port %s was answered meanwhile: %s\n", argv[2],
		       ok ? "ok" : "it failed");
	}
	/* Fill the page: thread 1's bind goes on. */
	char *src = aligned_alloc(page, page);

	memset(src, 0, page);
	memcpy(src, &slow, sizeof(slow));
	struct uffdio_copy copy = {
		.dst = (unsigned long)area, .src = (unsigned long)src, .len = page,
	};
	if (ioctl(uffd, UFFDIO_COPY, &copy))
		return 1;
	free(src);
	for (int i = answered; i < 2; i++)
		if (read(done[0], &r, 1) != 1 || r != 'K') {
			printf("slow-bind: a bind failed\n");
			ok = 0;
		}
	printf("slow-bind: %s\n", ok ? "both binds succeeded" : "FAILED");
	return !ok;
}
