// SPDX-License-Identifier: GPL-2.0
/*
 * decide() (call.h): every bind() a listener reports is decided here, on
 * one copy of its arguments.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/kcmp.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bind-cli.h"
#include "call.h"
#include "fetch.h"
#include "rules.h"

#define BOUND_UID ((uid_t)-2)	/* the owner of every socket we bind: 4294967294 */

/* decide_call()'s answers besides 0 and -1 */
#define CONTINUE 1	/* let the kernel do the call */
#define REFUSED 2	/* not bind(), from a served listener: EPERM, always logged */

/* *why = "WHAT: strerror(errno)", for a failure on our side. */
#define FAILED(what) (snprintf(failure, sizeof(failure), "%s: %s", what, strerror(errno)), \
		      *why = failure)

/*
 * Decide one bind() the program trapped on, on a copy of its arguments.
 * Returns CONTINUE, 0 or REFUSED with *err set, or -1 (EACCES) after a
 * failure on our side; *why says why, for the log.
 */
static int decide_call(struct served *s, const struct seccomp_notif *req, struct call *c,
		       int *err, const char **why)
{
	static __thread char failure[160];
	int pidfd, fd, domain, type, protocol, reuse, thread, maybe, ret = -1;
	struct caller cr;
	struct stat st;
	socklen_t optlen = sizeof(int);

	/* one policy for the whole decision: bind-agent's SIGHUP replaces it */
	const struct policy *policy = __atomic_load_n(&s->policy, __ATOMIC_ACQUIRE);

	*err = EACCES;
	/*
	 * What we cannot read, or the kernel would refuse anyway, goes on to
	 * the kernel: the program may change its memory meanwhile, but only to
	 * a bind it could do itself, and it has no capabilities.
	 */
	*why = "not a bind we can read: the kernel answers";
	switch (read_call(req, c)) {
	case 0:
		break;
	case NOT_BIND:
		if (!s->only_bind)
			return CONTINUE;
		/*
		 * A container's config may send us any syscall: we decide
		 * bind() only, and what we do not know is refused.
		 */
		*err = EPERM;
		*why = "not bind(): only bind() is decided here";
		return REFUSED;
	default:
		return CONTINUE;
	}
	/*
	 * What we read must be the caller's: its pid might have been reused
	 * meanwhile (the answer is then lost anyway, and nothing is logged).
	 */
	*why = "the caller is gone";
	if (!id_valid(s->listener, req->id))
		return CONTINUE;
	*why = "not AF_INET/AF_INET6, or not a privileged port: the kernel answers";
	if ((c->addr.ss_family != AF_INET && c->addr.ss_family != AF_INET6 &&
	     c->addr.ss_family != AF_UNSPEC) || !c->port || c->port >= unpriv_start)
		return CONTINUE;
	/*
	 * A caller that may hold CAP_NET_BIND_SERVICE over its socket's
	 * network namespace (R3.5): its socket is fetched, whatever the
	 * policy, to ask (below). What is read must be the caller's: the
	 * notification is still pending after it.
	 */
	maybe = !read_caller(req->pid, &cr) && id_valid(s->listener, req->id) &&
		may_be_capable(&cr);
	*why = "port not allowed";
	if (!maybe && !policy_allows(policy, 0, 0, c->port))
		return 0;
	pidfd = open_process(req->pid, s->thread_pidfd, &thread);
	if (pidfd < 0)
		return FAILED("pidfd_open"), -1;
	/* The pid in the notification might have been reused: check now. */
	if (!id_valid(s->listener, req->id)) {
		FAILED("the caller is gone");
		close(pidfd);
		return -1;
	}
	fd = fetch(pidfd, c->fd);
	c->fetch = fetch_method == FETCH_IOCTL ? (thread ? "PIDFD_IOCTL_GETFD, thread pidfd" :
						  "PIDFD_IOCTL_GETFD, process pidfd + kcmp") :
						 (thread ? "pidfd_getfd, thread pidfd" :
						  "pidfd_getfd, process pidfd + kcmp");
	if (fd < 0) {
		FAILED(fetch_method == FETCH_IOCTL ? "PIDFD_IOCTL_GETFD" : "pidfd_getfd(2)");
		/* Not open: the program's mistake, which the kernel will name. */
		if (errno == EBADF) {
			*why = "fd not open: the kernel answers";
			ret = CONTINUE;
		}
		close(pidfd);
		return ret;
	}
	/* pidfd stays open: port_held() may enter the caller's namespace. */
	/*
	 * A thread with its own fd table: the leader's fd is another file, or
	 * the thread has no such fd (EBADF: the kernel answers that, and no
	 * privilege comes of it, whatever the thread opens there meanwhile).
	 * Through a thread pidfd the fd is the thread's own: nothing to compare.
	 */
	switch (thread ? 0 : syscall(SYS_kcmp, getpid(), req->pid, KCMP_FILE, fd, c->fd)) {
	case 0:
		break;
	case -1:
		if (errno == EBADF) {
			*why = "the calling thread has no such fd in its own table: the kernel answers";
			ret = CONTINUE;
		} else {
			FAILED("kcmp");
		}
		goto out;
	default:
		*why = "the calling thread has an fd table of its own: its fd is not the process's";
		goto out;
	}
	*why = "not a socket, or not AF_INET/AF_INET6, or a bind the kernel refuses: the kernel answers";
	if (getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &optlen) ||
	    getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &optlen) ||
	    getsockopt(fd, SOL_SOCKET, SO_PROTOCOL, &protocol, &optlen) ||
	    !valid_for(domain, c)) {
		ret = CONTINUE;
		goto out;
	}
	c->type = type;
	c->protocol = protocol;
	/*
	 * The kernel's inet_bind() grants a privileged port to a caller with
	 * CAP_NET_BIND_SERVICE over the socket's network namespace
	 * (ns_capable(net->user_ns, ...)): let it, on the creds we copied;
	 * the kernel checks its own.
	 */
	*why = "the caller holds CAP_NET_BIND_SERVICE over the socket's network namespace: the kernel answers";
	if (maybe && caller_capable(fd, &cr) == 1) {
		ret = CONTINUE;
		goto out;
	}
	ret = 0;
	*why = "port not allowed";
	if (!policy_allows(policy, 0, 0, c->port))
		goto out;
	*why = "protocol not allowed";
	if (!policy_allows(policy, type, protocol, c->port))
		goto out;
	if (fstat(fd, &st)) {
		ret = -1;
		FAILED("fstat");
		goto out;
	}
	c->dev = st.st_dev;
	c->ino = st.st_ino;
	/* The restart of a bind we made, whose answer a signal withdrew. */
	*why = "allowed, bound for the same bind(), whose answer a signal withdrew";
	if (bound_to(fd, c) && claim_bind(s, c, req)) {
		*err = 0;
		c->bound = 1;
		goto out;
	}
	/*
	 * Bound already (or connected): the kernel checks the privilege
	 * first, so it would tell the program EACCES; it tells us EINVAL.
	 */
	switch (local_port(fd)) {
	case 0:
		break;
	case -1:
		ret = -1;
		FAILED("getsockname");
		goto out;
	default:
		*err = EINVAL;
		*why = "the socket is bound already";
		goto out;
	}
	/* No uid check shares a UDP port between SO_REUSEADDR sockets. */
	*why = "a UDP socket with SO_REUSEADDR could share the port with another user's";
	if (type == SOCK_DGRAM &&
	    (getsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &reuse, &optlen) || reuse))
		goto out;
	/*
	 * Sockets of the same creator uid that both set SO_REUSEPORT share a
	 * port (TCP and UDP): the program's would join the group of a service
	 * of its uid on the port and take its connections (a reuseport CBPF
	 * program steers them all), or hold the port for one that starts later.
	 */
	*why = "a socket with SO_REUSEPORT could share the port with a service of its creator's uid";
	if (getsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &reuse, &optlen) || reuse)
		goto out;
	/*
	 * The program holds the same socket and may set SO_REUSEADDR or
	 * SO_REUSEPORT between those checks and our bind(): bind only if no
	 * socket holds the port, which a socket of ours without them can tell.
	 */
	*why = "a port another socket holds";
	switch (port_held(fd, pidfd, domain, type, protocol, c)) {
	case 0:
		break;
	case 1:
		/*
		 * What bind(2) says for an address in use, and what the
		 * program's bind() would get if it were privileged: the probe
		 * was a bind of ours, the same address, without SO_REUSEPORT.
		 */
		*err = EADDRINUSE;
		c->tried = 1;
		goto out;
	case NOT_OURS:
		*why = "the socket's network namespace is not ours, and entering it to probe the port was refused (it takes CAP_SYS_ADMIN there, CAP_NET_ADMIN too unless it is the caller's, and setns() into a network namespace allowed)";
		ret = -1;
		goto out;
	case NOT_CALLERS:
		*why = "the socket's network namespace is neither ours nor the caller's: without CAP_NET_ADMIN there we cannot find it to probe the port";
		ret = -1;
		goto out;
	default:
		FAILED("probing the port in the socket's network namespace");
		ret = -1;
		goto out;
	}
	if (!id_valid(s->listener, req->id)) {
		FAILED("the caller is gone");
		ret = -1;
		goto out;
	}
	/*
	 * The program may set SO_REUSEPORT after our bind(): the kernel then
	 * lets a later socket of the same creator uid (sk_uid, which fchown()
	 * sets) join its reuseport group. Give the socket a uid no service's
	 * sockets have. Not undone if the bind fails: another thread's bind()
	 * of the same socket may be ours too, and have succeeded.
	 */
	if (fchown(fd, BOUND_UID, -1)) {
		FAILED("fchown");
		ret = -1;
		goto out;
	}
	/* bind-agent's journal: a bind made, should we die before answering */
	if (notif_hook && notif_hook(s, req, c, NOTIF_BINDING)) {
		FAILED("the journal of notifications in flight");
		ret = -1;
		goto out;
	}
	/* Until the answer is delivered (see remember_bind()). */
	if (remember_bind(s, c, req)) {
		errno = EBUSY;
		FAILED("every entry for a bind a signal may withdraw waits for its answer");
		ret = -1;
		goto out;
	}
	c->tried = 1;
	*err = bind(fd, (struct sockaddr *)&c->addr, c->len) ? errno : 0;
	*why = *err ? "allowed, bind failed" : "allowed, bound";
	c->bound = !*err;
	if (*err)
		end_bind(s, c, req->id, 1);
	/* Bound meanwhile for the same bind(), restarted after a signal. */
	if (*err == EINVAL && bound_to(fd, c) && claim_bind(s, c, req)) {
		*err = 0;
		c->bound = 1;
		*why = "allowed, bound for the same bind(), whose answer a signal withdrew";
	}
out:
	close(fd);
	close(pidfd);
	return ret;
}

/*
 * Decide one notification: its outcome, with the errno to answer in *err
 * (0 if granted or continued) and *why, for the log; c->not_bind set for
 * a syscall other than bind() refused.
 */
enum outcome decide(struct served *s, const struct seccomp_notif *req,
		    struct call *c, int *err, const char **why)
{
	switch (decide_call(s, req, c, err, why)) {
	case CONTINUE:
		*err = 0;
		return OUTCOME_CONTINUED;
	case REFUSED:
		c->not_bind = 1;
		return OUTCOME_REFUSED;
	case 0:
		if (!*err)	/* bound now, or for the same bind() before a signal */
			return OUTCOME_GRANTED;
		return c->tried ? OUTCOME_BIND_FAILED : OUTCOME_REFUSED;
	default:
		return OUTCOME_FAILED;	/* *err is EACCES */
	}
}
