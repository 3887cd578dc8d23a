// SPDX-License-Identifier: GPL-2.0
/*
 * Checking the trapped call (call.h): whether the kernel would do the
 * bind, whether a socket holds the port in the socket's network
 * namespace, and the binds made for notifications a signal withdrew.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <linux/capability.h>
#include <linux/nsfs.h>
#include <linux/sockios.h>
#include <unistd.h>

#include "call.h"

/* Linux 5.0's: Debian 12's glibc has it, older ones may not. */
#ifndef SO_BINDTOIFINDEX
#define SO_BINDTOIFINDEX 62
#endif

/* Is this a bind the kernel would do, for the socket's family? */
int valid_for(int domain, const struct call *c)
{
	const struct sockaddr_in *in = (const struct sockaddr_in *)&c->addr;

	if (domain == AF_INET6)
		return c->len >= 24 && in->sin_family == AF_INET6;	/* SIN6_LEN_RFC2133 */
	return domain == AF_INET && c->len >= (int)sizeof(*in) &&
	       (in->sin_family == AF_INET ||
		(in->sin_family == AF_UNSPEC && in->sin_addr.s_addr == htonl(INADDR_ANY)));
}

/*
 * A socket of ours in the network namespace of @fd (a socket), whatever
 * namespace this thread is in: a container may have its own. Ours if
 * @fd's is ours (SO_NETNS_COOKIE, 5.14+, asks no privilege). Another is
 * entered, which takes CAP_SYS_ADMIN there: found through the socket
 * (SIOCGSKNS, CAP_NET_ADMIN there too), or else as the caller's, through
 * @pidfd, which must then be the socket's (the cookies again).
 * NOT_OURS if we may not enter it, NOT_CALLERS if it is not the caller's:
 * a probe in another namespace would answer for the wrong one, and bind
 * there meanwhile (S3).
 */
static int socket_in_netns_of(int fd, int pidfd, int domain, int type, int protocol)
{
	struct stat ns, self;
	__u64 theirs, ours;
	socklen_t len = sizeof(theirs);
	int cookie, nsfd, selffd = -1, probe, saved;
	FILE *f;

	probe = socket(domain, type | SOCK_CLOEXEC, protocol);
	if (probe < 0)
		return -1;
	cookie = !getsockopt(fd, SOL_SOCKET, SO_NETNS_COOKIE, &theirs, &len);
	if (cookie && !getsockopt(probe, SOL_SOCKET, SO_NETNS_COOKIE, &ours, &len) && theirs == ours)
		return probe;
	close(probe);
	nsfd = ioctl(fd, SIOCGSKNS);
	if (nsfd < 0 && (errno != EPERM || !cookie))
		return errno == EPERM ? NOT_OURS : -1;
	f = fopen("/proc/thread-self/ns/net", "re");
	if (f)
		selffd = fileno(f);
	if (selffd < 0 || (nsfd >= 0 && (fstat(nsfd, &ns) || fstat(selffd, &self)))) {
		probe = -1;
	} else if (nsfd >= 0 && ns.st_dev == self.st_dev && ns.st_ino == self.st_ino) {
		probe = socket(domain, type | SOCK_CLOEXEC, protocol);
	} else if (setns(nsfd >= 0 ? nsfd : pidfd, CLONE_NEWNET)) {
		probe = errno == EPERM ? NOT_OURS : -1;
	} else {
		probe = socket(domain, type | SOCK_CLOEXEC, protocol);
		saved = errno;
		/* A thread left in a container's namespace must not go on. */
		if (setns(selffd, CLONE_NEWNET)) {
			perror("setns back to our own network namespace");
			abort();
		}
		/* The caller's namespace must be the socket's. */
		if (probe >= 0 && nsfd < 0 &&
		    (getsockopt(probe, SOL_SOCKET, SO_NETNS_COOKIE, &ours, &len) || ours != theirs)) {
			close(probe);
			probe = NOT_CALLERS;
		}
		errno = saved;
	}
	saved = errno;
	if (nsfd >= 0)
		close(nsfd);
	if (f)
		fclose(f);
	errno = saved;
	return probe;
}

/*
 * Whether a socket holds the address @c names, in @fd's namespace (the
 * caller's is entered through @pidfd if need be): a
 * socket of ours without SO_REUSEADDR (UDP) or SO_REUSEPORT cannot bind
 * it then. For TCP ours has SO_REUSEADDR, so that connections in TIME_WAIT
 * do not count, but a listener or a socket bound without it does. IPv6
 * with @fd's own IPV6_V6ONLY: an IPv6-only socket does not collide with an
 * IPv4 one. With @fd's own device (SO_BINDTODEVICE): the kernel lets
 * sockets bound to two different devices share a port, and a socket bound
 * to none collide with any (inet_bind_conflict(), udp_lib_lport_inuse()).
 * The program cannot change its socket's device once set without
 * CAP_NET_RAW (sock_bindtoindex_locked()); one it sets after our look only
 * makes the kernel's check narrower than ours. -1 if we cannot tell,
 * NOT_OURS or NOT_CALLERS if we may not look.
 */
int port_held(int fd, int pidfd, int domain, int type, int protocol, const struct call *c)
{
	int probe = socket_in_netns_of(fd, pidfd, domain, type, protocol), held, v6only, dev = 0;
	socklen_t optlen = sizeof(v6only), devlen = sizeof(dev);

	if (probe < 0)
		return probe;
	/* An ifindex is the namespace's: the probe is in the socket's. */
	if (getsockopt(fd, SOL_SOCKET, SO_BINDTOIFINDEX, &dev, &devlen) ||
	    (dev && setsockopt(probe, SOL_SOCKET, SO_BINDTOIFINDEX, &dev, sizeof(dev))) ||
	    (domain == AF_INET6 &&
	     (getsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &v6only, &optlen) ||
	      setsockopt(probe, IPPROTO_IPV6, IPV6_V6ONLY, &v6only, sizeof(v6only)))) ||
	    (type == SOCK_STREAM &&
	     setsockopt(probe, SOL_SOCKET, SO_REUSEADDR, &(int){ 1 }, sizeof(int)))) {
		close(probe);
		return -1;
	}
	/*
	 * Only a bind that succeeds says "free": the program may change the
	 * options we copied (IPV6_V6ONLY, SO_REUSEADDR) meanwhile, and a probe
	 * that failed otherwise (EINVAL for ::ffff:a.b.c.d with IPV6_V6ONLY)
	 * tells nothing about the port.
	 */
	held = bind(probe, (const struct sockaddr *)&c->addr, c->len) ?
		(errno == EADDRINUSE ? 1 : -1) : 0;
	close(probe);
	return held;
}

/*
 * What ns_capable(net->user_ns, CAP_NET_BIND_SERVICE) in the kernel's
 * inet_bind() reads of the calling thread @tid (cap_capable()): its user
 * namespace, effective uid (as our user namespace sees it, like
 * NS_GET_OWNER_UID) and effective set, copied once. 0, or -1 if they
 * cannot be read; the caller checks SECCOMP_IOCTL_NOTIF_ID_VALID after it,
 * so that they were the caller's.
 */
int read_caller(pid_t tid, struct caller *cr)
{
	char path[64], line[256];
	unsigned long long eff;
	unsigned int uid;
	struct stat st;
	int found = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/ns/user", tid);
	if (stat(path, &st))
		return -1;
	cr->userns_dev = st.st_dev;
	cr->userns_ino = st.st_ino;
	snprintf(path, sizeof(path), "/proc/%d/status", tid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Uid: %*u %u", &uid) == 1) {
			cr->euid = uid;
			found |= 1;
		} else if (sscanf(line, "CapEff: %llx", &eff) == 1) {
			cr->cap = (eff >> CAP_NET_BIND_SERVICE) & 1;
			found |= 2;
		}
	}
	fclose(f);
	return found == 3 ? 0 : -1;
}

static int is_callers_userns(int ns, const struct caller *cr)
{
	struct stat st;

	if (fstat(ns, &st))
		return -1;
	return st.st_dev == cr->userns_dev && st.st_ino == cr->userns_ino;
}

/*
 * Whether @cr can hold CAP_NET_BIND_SERVICE over any network namespace
 * at all, before we fetch anything: in a user namespace other than ours,
 * or with it in its effective set. (A caller of our user namespace without
 * it holds it over a namespace of a user namespace its euid owns too: such
 * a socket's bind is decided by the policy; see docs/bind-supervisor.md.)
 */
int may_be_capable(const struct caller *cr)
{
	struct stat self;

	if (cr->cap)
		return 1;
	if (stat("/proc/self/ns/user", &self))
		return 0;
	return self.st_dev != cr->userns_dev || self.st_ino != cr->userns_ino;
}

/* The user namespace that owns the network namespace of socket @fd, or -1. */
static int socket_userns(int fd)
{
	__u64 theirs, ours;
	socklen_t len = sizeof(theirs);
	int probe = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), netns, userns, same;

	if (probe < 0)
		return -1;
	same = !getsockopt(fd, SOL_SOCKET, SO_NETNS_COOKIE, &theirs, &len) &&
	       !getsockopt(probe, SOL_SOCKET, SO_NETNS_COOKIE, &ours, &len) && theirs == ours;
	close(probe);
	/* Ours needs no privilege; another one CAP_NET_ADMIN over it. */
	netns = same ? open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC) : ioctl(fd, SIOCGSKNS);
	if (netns < 0)
		return -1;
	userns = ioctl(netns, NS_GET_USERNS);
	close(netns);
	return userns;
}

/*
 * Whether the caller @cr holds CAP_NET_BIND_SERVICE over the network
 * namespace of its socket @fd (our copy), as cap_capable() decides: from
 * the user namespace that owns it up, the caller's own with the capability
 * in its effective set, or a child of the caller's that its euid owns. 1
 * or 0; -1 if we cannot tell (the policy decides then).
 */
int caller_capable(int fd, const struct caller *cr)
{
	int ns = socket_userns(fd), parent, mine, ret;
	uid_t owner;

	while (ns >= 0) {
		mine = is_callers_userns(ns, cr);
		if (mine) {
			close(ns);
			return mine < 0 ? -1 : cr->cap;
		}
		parent = ioctl(ns, NS_GET_PARENT);
		if (parent < 0) {
			/* EPERM: no parent that we can see, and no caller's on the way */
			ret = errno == EPERM ? 0 : -1;
			close(ns);
			return ret;
		}
		mine = is_callers_userns(parent, cr);
		if (mine && !ioctl(ns, NS_GET_OWNER_UID, &owner) && owner == cr->euid) {
			close(parent);
			close(ns);
			return 1;
		}
		close(ns);
		ns = parent;
		if (mine < 0)
			break;
	}
	if (ns >= 0)
		close(ns);
	return -1;
}

/*
 * Binds we make, until their answer is delivered. Without
 * SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV (OCI runtimes install the filter
 * without it) a signal withdraws a notification we may already have
 * answered by binding; the program restarts the same bind(), a new
 * notification, which another thread may be deciding while we bind. A
 * bind() of the same socket to the same address by another notification
 * while such an entry is there is answered with success: the socket is
 * bound to what it asked for. A program's own second bind() of a socket
 * comes after the answer to its first was delivered, which ends the
 * entry, and gets the kernel's EINVAL. So does one after a signal made the
 * first fail with EINTR (a handler without SA_RESTART), as far as we can
 * tell it apart: the kernel's restart is the same thread's same call
 * again, the registers restored from the signal frame (all of struct
 * seccomp_data: the instruction pointer, all six arguments, of which
 * bind() uses three and the rest are what the program left there),
 * while the program's own call after EINTR comes after code of its own.
 * Another thread, another place or other registers: not a restart. The
 * same, from a retry that left every register as it was: taken for one,
 * success (seccomp_do_user_notification() returns -ERESTARTSYS either
 * way; the handler's SA_RESTART, which decides, is nowhere to read).
 * The entry is made before our
 * bind(), so that the other notification, failing with EINVAL, finds it.
 * The program can make its second bind() as soon as
 * SECCOMP_IOCTL_NOTIF_SEND returns, before the thread that sent it has
 * ended the entry: an entry is only taken over once that thread has said
 * its answer was not delivered (end_bind()).
 *
 * The entries are the listener's own (s->withdrawn): another program's
 * binds never evict them. When all WITHDRAWN are taken, the one withdrawn
 * longest ago goes (its restart, if it ever comes, gets the kernel's
 * EINVAL); one whose answer is not yet sent never goes: with none to
 * evict, remember_bind() fails and the bind is not made.
 */
static pthread_mutex_t withdrawn_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t withdrawn_ended = PTHREAD_COND_INITIALIZER;

int remember_bind(struct served *s, const struct call *c, const struct seccomp_notif *req)
{
	struct withdrawn_bind *w = NULL;

	pthread_mutex_lock(&withdrawn_lock);
	for (int i = 0; i < WITHDRAWN; i++) {
		struct withdrawn_bind *e = &s->withdrawn[i];

		if (!e->ino) {
			w = e;
			break;
		}
		if (e->settled && (!w || e->seq < w->seq))
			w = e;
	}
	if (w) {
		w->id = req->id;
		w->pid = req->pid;
		w->data = req->data;
		w->dev = c->dev;
		w->ino = c->ino;
		w->len = c->len;
		w->settled = 0;
		w->seq = ++s->withdrawn_seq;
		memcpy(&w->addr, &c->addr, sizeof(c->addr));
	}
	pthread_mutex_unlock(&withdrawn_lock);
	return w ? 0 : -1;
}

/*
 * The end of notification @id's own part in its entry: @gone when its
 * answer was delivered or its bind() failed (the entry goes); otherwise
 * its answer was not delivered, and the entry may be taken over.
 */
void end_bind(struct served *s, const struct call *c, __u64 id, int gone)
{
	pthread_mutex_lock(&withdrawn_lock);
	for (int i = 0; i < WITHDRAWN; i++) {
		struct withdrawn_bind *e = &s->withdrawn[i];

		if (!e->ino || e->id != id || e->ino != c->ino || e->dev != c->dev)
			continue;
		if (gone)
			e->ino = 0;
		else
			e->settled = 1;
	}
	pthread_cond_broadcast(&withdrawn_ended);
	pthread_mutex_unlock(&withdrawn_lock);
}

/*
 * Take over another notification's entry for the same socket and address:
 * 1 if there was one whose answer was not delivered. It is then ours until
 * our answer is delivered (a signal may withdraw the restarted bind() too).
 * An entry whose thread has not yet sent its answer is waited for, however
 * long that thread takes (its log may be slow): delivered, it ends (the
 * program's own second bind(), EINVAL); withdrawn, it is ours. No thread
 * that waits here holds an entry of its own not yet sent, so the wait
 * ends when that thread's SECCOMP_IOCTL_NOTIF_SEND does.
 */
int claim_bind(struct served *s, const struct call *c, const struct seccomp_notif *req)
{
	int found = 0, pending;

	pthread_mutex_lock(&withdrawn_lock);
	for (;;) {
		pending = 0;
		for (int i = 0; i < WITHDRAWN && !found; i++) {
			struct withdrawn_bind *e = &s->withdrawn[i];

			if (!e->ino || e->ino != c->ino || e->dev != c->dev || e->id == req->id ||
			    e->len != c->len || memcmp(&e->addr, &c->addr, c->len) ||
			    e->pid != req->pid || memcmp(&e->data, &req->data, sizeof(e->data)))
				continue;
			if (!e->settled) {
				pending = 1;
				continue;
			}
			e->id = req->id;
			e->settled = 0;
			e->seq = ++s->withdrawn_seq;
			found = 1;
		}
		if (found || !pending)
			break;
		pthread_cond_wait(&withdrawn_ended, &withdrawn_lock);
	}
	pthread_mutex_unlock(&withdrawn_lock);
	return found;
}

/* The port @fd is bound to (0: none), or -1. */
int local_port(int fd)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);

	if (getsockname(fd, (struct sockaddr *)&ss, &len))
		return -1;
	return ntohs(((struct sockaddr_in *)&ss)->sin_port);
}

/* Whether @fd is bound to @c's port: what a restarted bind() asked for. */
int bound_to(int fd, const struct call *c)
{
	return local_port(fd) == c->port;
}
