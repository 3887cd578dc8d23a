// SPDX-License-Identifier: GPL-2.0
/*
 * The decisions bind-supervisor and bind-agent share (policy.h): every
 * bind() a listener reports is decided here, on one copy of its arguments.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/audit.h>
#include <linux/kcmp.h>
#include <linux/net.h>
#include <linux/pidfd.h>
#include <linux/sockios.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdarg.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sched.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "../seccomp/user-trap-helper.h"
#include "policy.h"

#ifndef __NR_pidfd_getfd
#define __NR_pidfd_getfd 438
#endif
/* 6.9's pidfd_open() flag: Debian 12's headers are 6.1's. */
#ifndef PIDFD_THREAD
#define PIDFD_THREAD O_EXCL
#endif

int verbose;
unsigned int unpriv_start;
int (*decision_hook)(const struct served *s, const struct decision *d, int shown);
/* Set once pidfd_open() says EINVAL to PIDFD_THREAD: a kernel before 6.9. */
static int no_thread_pidfd;
static enum { FETCH_AUTO, FETCH_IOCTL, FETCH_SYSCALL } fetch_method;

#define ABI_ROW(name_, arch_, bind_, socketcall_, ioctl_, word_, badnr_) \
	{ .name = #name_, .arch = arch_, .bind = bind_, .socketcall = socketcall_, \
	  .ioctl = ioctl_, .word = word_, .badnr = badnr_ },
const struct abi abis[NABIS] = { FOR_EACH_ABI(ABI_ROW) };
#undef ABI_ROW

#define OUTCOME_NAME(e, name, metric, help) [OUTCOME_##e] = name,
const char *const outcome_names[NOUTCOMES] = { FOR_EACH_OUTCOME(OUTCOME_NAME) };
#undef OUTCOME_NAME

const struct abi *abi_of(__u32 arch)
{
	for (size_t i = 0; i < NABIS; i++)
		if (abis[i].arch == arch)
			return &abis[i];
	return NULL;
}

void usage_exit(const char *prog, const char *usage, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n%s", usage);
	exit(2);
}

long parse_number(const char *s, long min, long max)
{
	long n = 0;

	if (!*s || (s[0] == '0' && s[1]))
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || n > max)
			return -1;
		n = n * 10 + (*s - '0');
	}
	return n < min || n > max ? -1 : n;
}

/* The privileged range of our network namespace. */
void read_unpriv_start(const char *prog)
{
	FILE *f = fopen("/proc/sys/net/ipv4/ip_unprivileged_port_start", "re");

	if (!f || fscanf(f, "%u", &unpriv_start) != 1) {
		fprintf(stderr, "%s: net.ipv4.ip_unprivileged_port_start: %s\n", prog,
			strerror(errno));
		exit(1);
	}
	fclose(f);
}

const char *policy_add(struct policy *p, const char *spec, char *err, size_t len)
{
	struct rule r = { SOCK_STREAM, IPPROTO_TCP, 0 };
	long port;

	if (!strncmp(spec, "udp:", 4))
		r = (struct rule){ SOCK_DGRAM, IPPROTO_UDP, 0 };
	else if (strncmp(spec, "tcp:", 4))
		return snprintf(err, len, "bad port spec '%s': want tcp:PORT or udp:PORT", spec), err;
	port = parse_number(spec + 4, 1, 65535);
	if (port < 0)
		return snprintf(err, len, "bad port in '%s': want 1-65535", spec), err;
	if ((unsigned long)port >= unpriv_start)
		return snprintf(err, len, "port %ld of '%s' is not privileged here (net.ipv4.ip_unprivileged_port_start is %u): nothing to allow",
				port, spec, unpriv_start), err;
	if (p->n == MAX_ALLOW)
		return snprintf(err, len, "too many rules (at most %d): '%s'", MAX_ALLOW, spec), err;
	r.port = (unsigned short)port;
	p->rules[p->n++] = r;
	return NULL;
}

const char *policy_parse_list(struct policy *p, const char *list, const struct policy *within,
			      const char *source, const char *within_name, char *err, size_t len)
{
	char copy[POLICY_LIST_MAX], spec_err[160], *save = NULL;

	if (strlen(list) >= sizeof(copy))
		return snprintf(err, len, "%s is longer than %d bytes", source, POLICY_LIST_MAX - 1), err;
	snprintf(copy, sizeof(copy), "%s", list);
	p->n = 0;
	for (char *spec = strtok_r(copy, ",", &save); spec; spec = strtok_r(NULL, ",", &save)) {
		const struct rule *r;

		if (policy_add(p, spec, spec_err, sizeof(spec_err)))
			return snprintf(err, len, "%s: %s", source, spec_err), err;
		r = &p->rules[p->n - 1];
		if (!policy_allows(within, r->type, r->protocol, r->port))
			return snprintf(err, len, "%s asks for %s, which %s does not grant", source,
					spec, within_name), err;
	}
	return NULL;
}

int policy_allows(const struct policy *p, int type, int protocol, unsigned short port)
{
	for (int i = 0; i < p->n; i++)
		if (p->rules[i].port == port && (!type || (p->rules[i].type == type &&
							   p->rules[i].protocol == protocol)))
			return 1;
	return 0;
}

void policy_format(const struct policy *p, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int i = 0; i < p->n && used < len; i++)
		used += snprintf(buf + used, len - used, "%s%s:%u", i ? " " : "",
				 p->rules[i].type == SOCK_DGRAM ? "udp" : "tcp", p->rules[i].port);
	if (!p->n)
		snprintf(buf, len, "(no port)");
}

int set_fetch(const char *method)
{
	if (!strcmp(method, "ioctl"))
		fetch_method = FETCH_IOCTL;
	else if (!strcmp(method, "syscall"))
		fetch_method = FETCH_SYSCALL;
	else if (strcmp(method, "auto"))
		return -1;
	return 0;
}

static int fetch(int pidfd, int fd)
{
	struct pidfd_getfd_args args = {
		.size = sizeof(args),
		.fd = (__u32)fd,
		.flags = PIDFD_GETFD_CLOEXEC,
	};

	if (fetch_method == FETCH_IOCTL)
		return ioctl(pidfd, PIDFD_IOCTL_GETFD, &args);
	return syscall(__NR_pidfd_getfd, pidfd, fd, 0);
}

/*
 * Use PIDFD_IOCTL_GETFD where the kernel has it, else pidfd_getfd(2). A
 * kernel without it says ENOTTY (6.1), or EINVAL where pidfs refuses any
 * command with an argument before looking at the command (6.12 as Debian
 * ships it; mainline's 8ce352818820 makes that ENOTTY): the arguments
 * here are valid, so neither can mean anything else.
 */
void probe_fetch(const char *prog)
{
	int pidfd = syscall(__NR_pidfd_open, getpid(), 0), fd = -1;
	int want = fetch_method;

	if (pidfd < 0) {
		fprintf(stderr, "%s: pidfd_open: %s\n", prog, strerror(errno));
		exit(1);
	}
	if (want != FETCH_SYSCALL) {
		fetch_method = FETCH_IOCTL;
		fd = fetch(pidfd, pidfd);
		if (fd < 0 && ((errno != ENOTTY && errno != EINVAL) ||
			       want == FETCH_IOCTL)) {
			fprintf(stderr, "%s: PIDFD_IOCTL_GETFD: %s\n", prog, strerror(errno));
			exit(1);
		}
	}
	if (fd < 0) {
		fetch_method = FETCH_SYSCALL;
		fd = fetch(pidfd, pidfd);
		if (fd < 0) {
			fprintf(stderr, "%s: pidfd_getfd(2): %s\n", prog, strerror(errno));
			exit(1);
		}
	}
	close(fd);
	close(pidfd);
	if (verbose)
		fprintf(stderr, "%s: fetch method: %s\n", prog, fetch_method == FETCH_IOCTL ?
			"PIDFD_IOCTL_GETFD" : "pidfd_getfd(2) (no PIDFD_IOCTL_GETFD here)");
}

/*
 * A notification names the thread that trapped. From 6.9 a pidfd may name
 * that thread (PIDFD_THREAD), and a fetch through it searches the thread's
 * own fd table: *thread is set. Before, pidfd_open() wants a thread-group
 * leader (6.1 says EINVAL for another thread, later kernels ENOENT), so
 * look up its leader.
 */
static int open_process(pid_t tid, int want_thread, int *thread)
{
	char path[64], line[128];
	int pidfd;
	FILE *f;

	*thread = 0;
	if (want_thread && !__atomic_load_n(&no_thread_pidfd, __ATOMIC_RELAXED)) {
		pidfd = syscall(__NR_pidfd_open, tid, PIDFD_THREAD);
		if (pidfd >= 0 || errno != EINVAL)
			return *thread = pidfd >= 0, pidfd;
		__atomic_store_n(&no_thread_pidfd, 1, __ATOMIC_RELAXED);
	}
	pidfd = syscall(__NR_pidfd_open, tid, 0);
	if (pidfd >= 0)
		return pidfd;
	snprintf(path, sizeof(path), "/proc/%d/status", tid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "Tgid:", 5)) {
			pidfd = syscall(__NR_pidfd_open, atoi(line + 5), 0);
			break;
		}
	fclose(f);
	return pidfd;
}

static int id_valid(int listener, __u64 id)
{
	return ioctl(listener, SECCOMP_IOCTL_NOTIF_ID_VALID, &id) == 0;
}

/* Copy @len bytes at @addr out of the target, once. */
static int read_target(pid_t pid, void *buf, size_t len, __u64 addr)
{
	struct iovec local = { buf, len };
	struct iovec remote = { (void *)(uintptr_t)addr, len };
	char path[64];
	ssize_t n;
	FILE *f;

	if (addr <= UINTPTR_MAX - len)
		return process_vm_readv(pid, &local, 1, &remote, 1, 0) == (ssize_t)len ? 0 : -1;
	/* A 64-bit program under a 32-bit supervisor: beyond our pointers. */
	snprintf(path, sizeof(path), "/proc/%d/mem", pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	n = pread64(fileno(f), buf, len, (off64_t)addr);
	fclose(f);
	return n == (ssize_t)len ? 0 : -1;
}

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

/*
 * Read bind()'s or socketcall(SYS_BIND)'s arguments once. Returns 0,
 * NOT_BIND, or -1 if we cannot read them.
 */
static int read_call(const struct seccomp_notif *req, struct call *c)
{
	const struct abi *a = abi_of(req->data.arch);
	__u64 args[3] = { req->data.args[0], req->data.args[1], req->data.args[2] };

	if (!a)
		return NOT_BIND;
	c->syscall = "bind";
	if (req->data.nr == (int)a->socketcall && a->socketcall != a->bind) {
		__u32 words[3];

		c->syscall = "socketcall";
		if ((int)args[0] != SYS_BIND)
			return NOT_BIND;
		if (a->word != 4 || read_target(req->pid, words, sizeof(words), args[1]))
			return -1;
		for (int i = 0; i < 3; i++)
			args[i] = words[i];
	} else if (req->data.nr != (int)a->bind) {
		c->syscall = NULL;
		return NOT_BIND;
	}
	/* The kernel takes fd and addrlen as ints: so do we. */
	c->fd = (int)(__u32)args[0];
	c->len = (int)(__u32)args[2];
	if (c->len < 4 || c->len > (int)sizeof(c->addr) ||
	    read_target(req->pid, &c->addr, c->len, args[1]))
		return -1;
	/* sin_port and sin6_port are at the same place. */
	c->port = ntohs(((struct sockaddr_in *)&c->addr)->sin_port);
	c->read = 1;
	return 0;
}

/* Is this a bind the kernel would do, for the socket's family? */
static int valid_for(int domain, const struct call *c)
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
#define NOT_OURS (-2)
#define NOT_CALLERS (-3)
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
 * IPv4 one. -1 if we cannot tell, NOT_OURS or NOT_CALLERS if we may not
 * look.
 */
static int port_held(int fd, int pidfd, int domain, int type, int protocol, const struct call *c)
{
	int probe = socket_in_netns_of(fd, pidfd, domain, type, protocol), held, v6only;
	socklen_t optlen = sizeof(v6only);

	if (probe < 0)
		return probe;
	if ((domain == AF_INET6 &&
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
 * Binds we make, until their answer is delivered. Without
 * SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV (OCI runtimes install the filter
 * without it) a signal withdraws a notification we may already have
 * answered by binding; the program restarts the same bind(), a new
 * notification, which another thread may be deciding while we bind. A
 * bind() of the same socket to the same address by another notification
 * while such an entry is there is answered with success: the socket is
 * bound to what it asked for. A program's own second bind() of a socket
 * comes after the answer to its first was delivered, which ends the
 * entry, and gets the kernel's EINVAL. The entry is made before our
 * bind(), so that the other notification, failing with EINVAL, finds it;
 * when all are taken, the oldest goes. The program can make its second
 * bind() as soon as SECCOMP_IOCTL_NOTIF_SEND returns, before the thread
 * that sent it has ended the entry: an entry is only taken over once that
 * thread has said its answer was not delivered (end_bind()).
 */
#define WITHDRAWN 64
static struct {
	__u64 id;	/* the notification we bind for */
	dev_t dev;
	ino_t ino;
	int len;
	int settled;	/* its answer was not delivered: withdrawn */
	struct sockaddr_storage addr;
} withdrawn[WITHDRAWN];
static unsigned int withdrawn_next;
static pthread_mutex_t withdrawn_lock = PTHREAD_MUTEX_INITIALIZER;

static void remember_bind(const struct call *c, __u64 id)
{
	unsigned int i;

	pthread_mutex_lock(&withdrawn_lock);
	i = withdrawn_next++ % WITHDRAWN;
	withdrawn[i].id = id;
	withdrawn[i].dev = c->dev;
	withdrawn[i].ino = c->ino;
	withdrawn[i].len = c->len;
	withdrawn[i].settled = 0;
	memcpy(&withdrawn[i].addr, &c->addr, sizeof(c->addr));
	pthread_mutex_unlock(&withdrawn_lock);
}

/*
 * The end of notification @id's own part in its entry: @gone when its
 * answer was delivered or its bind() failed (the entry goes); otherwise
 * its answer was not delivered, and the entry may be taken over.
 */
static void end_bind(const struct call *c, __u64 id, int gone)
{
	pthread_mutex_lock(&withdrawn_lock);
	for (int i = 0; i < WITHDRAWN; i++) {
		if (!withdrawn[i].ino || withdrawn[i].id != id || withdrawn[i].ino != c->ino ||
		    withdrawn[i].dev != c->dev)
			continue;
		if (gone)
			withdrawn[i].ino = 0;
		else
			withdrawn[i].settled = 1;
	}
	pthread_mutex_unlock(&withdrawn_lock);
}

/*
 * Take over another notification's entry for the same socket and address:
 * 1 if there was one whose answer was not delivered. It is then ours until
 * our answer is delivered (a signal may withdraw the restarted bind() too).
 * An entry whose thread has not yet sent its answer is waited for, up to
 * CLAIM_WAIT_MS: delivered, it ends (the program's own second bind(),
 * EINVAL); withdrawn, it is ours. Past that, no entry (EINVAL).
 */
#define CLAIM_WAIT_MS 200
static int claim_bind(const struct call *c, __u64 id)
{
	const struct timespec ms = { .tv_nsec = 1000 * 1000 };
	int found = 0, pending;

	for (int waited = 0;; waited++) {
		pending = 0;
		pthread_mutex_lock(&withdrawn_lock);
		for (int i = 0; i < WITHDRAWN && !found; i++) {
			if (!withdrawn[i].ino || withdrawn[i].ino != c->ino ||
			    withdrawn[i].dev != c->dev || withdrawn[i].id == id ||
			    withdrawn[i].len != c->len ||
			    memcmp(&withdrawn[i].addr, &c->addr, c->len))
				continue;
			if (!withdrawn[i].settled) {
				pending = 1;
				continue;
			}
			withdrawn[i].id = id;
			withdrawn[i].settled = 0;
			found = 1;
		}
		pthread_mutex_unlock(&withdrawn_lock);
		if (found || !pending || waited >= CLAIM_WAIT_MS)
			return found;
		nanosleep(&ms, NULL);
	}
}

/* The port @fd is bound to (0: none), or -1. */
static int local_port(int fd)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);

	if (getsockname(fd, (struct sockaddr *)&ss, &len))
		return -1;
	return ntohs(((struct sockaddr_in *)&ss)->sin_port);
}

/* Whether @fd is bound to @c's port: what a restarted bind() asked for. */
static int bound_to(int fd, const struct call *c)
{
	return local_port(fd) == c->port;
}

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
static int decide_call(const struct served *s, const struct seccomp_notif *req, struct call *c,
		       int *err, const char **why)
{
	static __thread char failure[160];
	int pidfd, fd, domain, type, protocol, reuse, thread, ret = -1;
	struct stat st;
	socklen_t optlen = sizeof(int);

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
	*why = "port not allowed";
	if (!policy_allows(s->policy, 0, 0, c->port))
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
	ret = 0;
	*why = "protocol not allowed";
	if (!policy_allows(s->policy, type, protocol, c->port))
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
	if (bound_to(fd, c) && claim_bind(c, req->id)) {
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
	/* Until the answer is delivered (see remember_bind()). */
	remember_bind(c, req->id);
	c->tried = 1;
	*err = bind(fd, (struct sockaddr *)&c->addr, c->len) ? errno : 0;
	*why = *err ? "allowed, bind failed" : "allowed, bound";
	c->bound = !*err;
	if (*err)
		end_bind(c, req->id, 1);
	/* Bound meanwhile for the same bind(), restarted after a signal. */
	if (*err == EINVAL && bound_to(fd, c) && claim_bind(c, req->id)) {
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
static enum outcome decide(const struct served *s, const struct seccomp_notif *req,
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

/* "fd 3 tcp 127.0.0.1:80" for the log; what we read, if we did. */
static void format_call(const struct call *c, char *buf, size_t len)
{
	const struct sockaddr_in *in = (const struct sockaddr_in *)&c->addr;
	const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)&c->addr;
	char ip[INET6_ADDRSTRLEN] = "?";

	if (in->sin_family == AF_INET || in->sin_family == AF_UNSPEC)
		inet_ntop(AF_INET, &in->sin_addr, ip, sizeof(ip));
	else if (in->sin_family == AF_INET6)
		inet_ntop(AF_INET6, &in6->sin6_addr, ip, sizeof(ip));
	snprintf(buf, len, "fd %d family %u addrlen %d %s port %u", c->fd, in->sin_family,
		 c->len, ip, c->port);
}

/*
 * Lines nobody asked for (-v asks for every decision): the first
 * LOG_FIRST of a listener, then one in LOG_EVERY, so that a program
 * cannot flood the log that every other one shares.
 */
#define LOG_FIRST 20
#define LOG_EVERY 1000

static int may_log(struct served *s)
{
	unsigned long n = __atomic_add_fetch(&s->unasked, 1, __ATOMIC_RELAXED);

	if (n == LOG_FIRST + 1)
		fprintf(stderr, "%s: more than %d lines unasked for: from now on one in %d is logged\n",
			s->name, LOG_FIRST, LOG_EVERY);
	return n <= LOG_FIRST || n % LOG_EVERY == 0;
}

static double seconds_since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (double)(t1.tv_sec - t0->tv_sec) + (double)(t1.tv_nsec - t0->tv_nsec) / 1e9;
}

/* What decision_hook gets: @c as decide() left it, and the answer. */
static void report(struct served *s, const struct seccomp_notif *req, const struct call *c,
		   enum outcome outcome, int err, const char *why, const struct timespec *t0,
		   int shown, int *logged)
{
	const struct abi *a = abi_of(req->data.arch);
	struct decision d = {
		.req = req, .abi = a ? a->name : NULL, .syscall = c->syscall,
		.family = c->read ? c->addr.ss_family : -1, .type = c->type ? c->type : -1,
		.protocol = c->type ? c->protocol : -1, .port = c->read ? c->port : -1,
		.outcome = outcome, .err = err, .why = why, .fetch = c->fetch,
		.seconds = seconds_since(t0),
	};

	*logged = decision_hook(s, &d, shown);
}

static void answer(struct served *s, const struct seccomp_notif *req,
		   struct seccomp_notif_resp *resp, struct call *call, const struct timespec *t0)
{
	struct call c = { .fd = -1 };
	enum outcome outcome;
	const char *why;
	char addr[128];
	int err, shown, logged = 0;

	outcome = decide(s, req, &c, &err, &why);
	*call = c;
	memset(resp, 0, sizeof(*resp));
	resp->id = req->id;
	if (outcome == OUTCOME_CONTINUED)
		resp->flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
	else
		resp->error = -err;
	if (c.not_bind)
		snprintf(addr, sizeof(addr), "syscall %d (audit arch %#x)", req->data.nr,
			 req->data.arch);
	else
		format_call(&c, addr, sizeof(addr));
	/* Ours (failed) and what is not bind() are said unasked. */
	shown = verbose || ((outcome == OUTCOME_FAILED || c.not_bind) && may_log(s));
	if (decision_hook)
		report(s, req, &c, outcome, err, why, t0, shown, &logged);
	if (logged || !shown)
		;
	else if (outcome == OUTCOME_FAILED)
		fprintf(stderr, "%s: pid %d %s: supervisor-side failure: %s; answered EACCES\n",
			s->name, req->pid, addr, why);
	else
		fprintf(stderr, "%s: pid %d %s: %s%s%s\n", s->name, req->pid, addr, why,
			err ? ": " : "", err ? strerror(err) : "");
}

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
		answer(s, req, resp, &c, &t0);
		sent = !ioctl(s->listener, SECCOMP_IOCTL_NOTIF_SEND, resp);
		pthread_rwlock_unlock(&in_flight);
		/*
		 * ENOENT: the caller died, or a signal withdrew the call (it is
		 * restarted: remember_bind()).
		 */
		if (!sent && errno != ENOENT)
			fprintf(stderr, "%s: pid %d: SECCOMP_IOCTL_NOTIF_SEND: %s\n",
				s->name, req->pid, strerror(errno));
		if (c.bound)
			end_bind(&c, req->id, sent);
	}
out:
	free(req);
	free(resp);
	return ret;
}
