// SPDX-License-Identifier: GPL-2.0
/*
 * uring-bind PORT: bind a TCP socket to 127.0.0.1:PORT through io_uring
 * (IORING_OP_BIND, 6.11 and later) instead of bind(2), and say what the
 * kernel answered. seccomp filters system calls, not io_uring requests:
 * under bind-supervisor or bind-agent the bind never reaches them, and the
 * kernel answers it alone. Exits 0 if it succeeded, 1 if it failed, 3 if
 * this kernel has no io_uring or no IORING_OP_BIND (the test skips).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <linux/io_uring.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef __NR_io_uring_setup
#define __NR_io_uring_setup 425
#define __NR_io_uring_enter 426
#endif
#define OP_BIND 56	/* IORING_OP_BIND, for headers older than 6.11 */

int main(int argc, char **argv)
{
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct io_uring_params p;
	struct io_uring_sqe *sqes;
	struct io_uring_cqe *cqe;
	unsigned int *sq_tail, *sq_array, *cq_head, *cq_tail;
	char *sq, *cq;
	int ring, s, res;

	if (argc != 2)
		return fprintf(stderr, "usage: uring-bind PORT\n"), 2;
	sin.sin_port = htons(atoi(argv[1]));
	memset(&p, 0, sizeof(p));
	ring = syscall(__NR_io_uring_setup, 4, &p);
	if (ring < 0) {
		printf("uring-bind: io_uring_setup: %s: not supported here\n", strerror(errno));
		return 3;
	}
	sq = mmap(NULL, p.sq_off.array + p.sq_entries * sizeof(unsigned int),
		  PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, ring, IORING_OFF_SQ_RING);
	cq = mmap(NULL, p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe),
		  PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, ring, IORING_OFF_CQ_RING);
	sqes = mmap(NULL, p.sq_entries * sizeof(struct io_uring_sqe), PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_POPULATE, ring, IORING_OFF_SQES);
	s = socket(AF_INET, SOCK_STREAM, 0);
	if (sq == MAP_FAILED || cq == MAP_FAILED || sqes == MAP_FAILED || s < 0) {
		perror("uring-bind: mmap, socket");
		return 1;
	}
	sq_tail = (unsigned int *)(sq + p.sq_off.tail);
	sq_array = (unsigned int *)(sq + p.sq_off.array);
	cq_head = (unsigned int *)(cq + p.cq_off.head);
	cq_tail = (unsigned int *)(cq + p.cq_off.tail);
	memset(&sqes[0], 0, sizeof(sqes[0]));
	sqes[0].opcode = OP_BIND;
	sqes[0].fd = s;
	sqes[0].addr = (unsigned long)&sin;
	sqes[0].off = sizeof(sin);	/* addr2: the address length */
	sq_array[*sq_tail & (p.sq_entries - 1)] = 0;
	__atomic_store_n(sq_tail, *sq_tail + 1, __ATOMIC_RELEASE);
	if (syscall(__NR_io_uring_enter, ring, 1, 1, IORING_ENTER_GETEVENTS, NULL, 0) < 0 ||
	    __atomic_load_n(cq_tail, __ATOMIC_ACQUIRE) == *cq_head) {
		perror("uring-bind: io_uring_enter");
		return 1;
	}
	cqe = (struct io_uring_cqe *)(cq + p.cq_off.cqes) + (*cq_head & (p.cq_entries - 1));
	res = cqe->res;
	if (res == -EINVAL) {
		printf("uring-bind: IORING_OP_BIND: %s: not supported here (before 6.11)\n",
		       strerror(-res));
		return 3;
	}
	printf("io_uring bind tcp:%s as uid %d: %s\n", argv[1], getuid(), res ? strerror(-res) : "ok");
	return res ? 1 : 0;
}
