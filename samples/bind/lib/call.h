/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _BIND_CALL_H
#define _BIND_CALL_H

/*
 * Inside the supervisors' library: one trapped call, read (call.c),
 * checked (call-checks.c), decided (decide.c) and answered
 * (serve-answer.c) for the listener loop (serve.c).
 */
#include <sys/socket.h>
#include <sys/types.h>
#include <linux/seccomp.h>
#include <linux/types.h>

#include "serve.h"

/* What one bind() is: the copy of its arguments every decision is made on. */
struct call {
	int fd, len;
	struct sockaddr_storage addr;
	unsigned short port;
	int bound;		/* bound for this notification: dev, ino are its */
	dev_t dev;
	ino_t ino;
	int read, type, protocol, tried;	/* what decide() learnt, for decision_hook */
	int not_bind;		/* refused as not bind() (EPERM) */
	const char *syscall, *fetch;
};

#define NOT_BIND 1	/* a syscall (or socketcall) other than bind() */

/* Whether notification @id is still pending on @listener. */
int id_valid(int listener, __u64 id);
/*
 * Read bind()'s or socketcall(SYS_BIND)'s arguments once. Returns 0,
 * NOT_BIND, or -1 if we cannot read them.
 */
int read_call(const struct seccomp_notif *req, struct call *c);

/* Is this a bind the kernel would do, for the socket's family? */
int valid_for(int domain, const struct call *c);
/* What port_held() says when it may not look (call-checks.c). */
#define NOT_OURS (-2)
#define NOT_CALLERS (-3)
/*
 * Whether a socket holds the address @c names, in @fd's namespace: 1 or
 * 0; -1 if we cannot tell, NOT_OURS or NOT_CALLERS if we may not look.
 */
int port_held(int fd, int pidfd, int domain, int type, int protocol, const struct call *c);
/*
 * The binds made for notifications a signal may withdraw, @s's own
 * (call-checks.c). remember_bind() is -1 if all its entries wait for
 * their answers.
 */
int remember_bind(struct served *s, const struct call *c, const struct seccomp_notif *req);
void end_bind(struct served *s, const struct call *c, __u64 id, int gone);
int claim_bind(struct served *s, const struct call *c, const struct seccomp_notif *req);
/*
 * What the kernel's ns_capable(net->user_ns, CAP_NET_BIND_SERVICE) reads
 * of the calling thread, copied once (call-checks.c): a caller that holds
 * the capability over its socket's network namespace is bound by the
 * kernel itself.
 */
struct caller {
	dev_t userns_dev;
	ino_t userns_ino;
	uid_t euid;
	int cap;	/* CAP_NET_BIND_SERVICE in its effective set */
};
int read_caller(pid_t tid, struct caller *cr);
int may_be_capable(const struct caller *cr);
int caller_capable(int fd, const struct caller *cr);
/* The port @fd is bound to (0: none), or -1. */
int local_port(int fd);
/* Whether @fd is bound to @c's port: what a restarted bind() asked for. */
int bound_to(int fd, const struct call *c);

/* Decide one notification (decide.c). */
enum outcome decide(struct served *s, const struct seccomp_notif *req,
		    struct call *c, int *err, const char **why);
/* Decide, answer into @resp and log one notification; @call as decided. */
void answer(struct served *s, const struct seccomp_notif *req,
	    struct seccomp_notif_resp *resp, struct call *call, const struct timespec *t0);

#endif /* _BIND_CALL_H */
