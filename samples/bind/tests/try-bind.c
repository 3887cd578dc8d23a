// SPDX-License-Identifier: GPL-2.0
/*
 * try-bind [MODE] PROTO PORT: bind one socket and say what happened, for
 * the bind-supervisor tests; some modes are what a hostile program would
 * do. Exits 0 if bind() succeeded, 1 if it failed, 2 on bad arguments,
 * 3 if this ABI or kernel cannot do what was asked (the test skips).
 *
 * PROTO: tcp udp tcp6 udp6 udplite sctp mptcp unix (PORT ignored)
 * MODE:
 *   --thread         bind from a second thread
 *   --leader-exit    bind from a second thread after main() pthread_exit()ed
 *   --exit-pending   bind from a second thread; 2 s later, if that bind has
 *                    not returned, the process exits (exit_group) with it
 *                    pending, status 0
 *   --own-files-closed  the same, with fd N closed in the thread's table
 *   --hold-reuseaddr bind with SO_REUSEADDR, say so, and hold the port until
 *                    killed
 *   --reuseaddr-race N  up to N binds of a UDP socket at fd 100 while a
 *                    second thread flips its SO_REUSEADDR; exits 1 if one
 *                    succeeded (the port another socket holds is shared)
 *   --own-files      bind a UDP socket at fd N from a thread with its own fd
 *                    table (unshare(CLONE_FILES)); the leader's fd N is TCP
 *   --len N          pass N as addrlen
 *   --len24          tcp6 with the 24-byte (RFC 2133) sockaddr_in6
 *   --unspec         AF_UNSPEC with INADDR_ANY, on an AF_INET socket
 *   --reuseaddr      set SO_REUSEADDR first (a UDP socket could then share
 *                    its port with another user's)
 *   --socketcall     bind through socketcall(SYS_BIND) (i386)
 *   --badfd          pass fd 1000, which is not open
 *   --storm N        N binds under a stream of SIGURG; each bind()'s result
 *                    must agree with getsockname(), and some bind() must
 *                    have seen a signal
 *   --reuseport      set SO_REUSEPORT first (a TCP socket could then join
 *                    the reuseport group of a socket of the same creator uid)
 *   --hold-reuseport bind with SO_REUSEPORT (and listen, for TCP), say so,
 *                    and hold the port until killed: a service using it
 *   --hold-any       bind the wildcard address without any option, say so,
 *                    and hold it until killed
 *   --steer          SO_REUSEPORT, bind, listen, and a reuseport CBPF program
 *                    that sends every connection to this socket (index 1 of
 *                    the group, after the service's); then 20 connections:
 *                    says how many came to us
 *   --reuseport-race N  up to N binds of a socket at fd 100 while a second
 *                    thread flips its SO_REUSEPORT (as --reuseaddr-race)
 *   --v6only         tcp6/udp6 on the wildcard address with IPV6_V6ONLY
 *   --v6only-mapped  tcp6/udp6 with IPV6_V6ONLY on ::ffff:127.0.0.1, which
 *                    such a socket cannot bind (the kernel says EINVAL)
 *   --reuseport-after  bind, then set SO_REUSEPORT (and listen, for TCP),
 *                    say so with our pid, and hold the port until killed
 *   --twice          bind the same socket twice; says what the second got
 *   --until-enosys N up to N binds, each of a new socket with SO_REUSEADDR,
 *                    until one fails with ENOSYS (no agent any more); each
 *                    bind()'s result must agree with getsockname()
 *   --repeat N       N binds, each of a new socket with SO_REUSEADDR; each
 *                    must succeed and agree with getsockname()
 *   --withdraw restart|late|eintr
 *                    once the file $TRY_BIND_GO exists, bind from a second
 *                    thread and, once the socket is bound (the supervisor
 *                    has bound it, and not yet answered), SIGUSR1 that
 *                    thread: with SA_RESTART (restart: the kernel restarts
 *                    the bind(); late: the same, after the handler has
 *                    waited for the file $TRY_BIND_GO2) or without (eintr:
 *                    the bind() fails with EINTR; once $TRY_BIND_GO2
 *                    exists the same thread binds the socket again, with
 *                    another address length, and what that second bind()
 *                    got is said). Exits 0 if the answers
 *                    are the kernel's: 0 for the restarted bind(); EINVAL
 *                    for a second bind() of a bound socket. 4 if the
 *                    answer came before the signal (nothing was shown)
 *   --userns         bind the wildcard address from a user and network
 *                    namespace of our own (uid 0 there), where we hold
 *                    CAP_NET_BIND_SERVICE over the socket's namespace
 *   --userns-hostsock  the same, with a socket made before unshare(): of
 *                    the namespace we started in, where we hold nothing
 *   --listen-only    listen() on the socket, never bound (the kernel
 *                    binds it to a port of its own): says what listen() got
 * Before MODE, --device IFNAME binds the socket to IFNAME
 * (SO_BINDTODEVICE) first.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/net.h>
#include <linux/nsfs.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef IPPROTO_MPTCP
#define IPPROTO_MPTCP 262
#endif

static const char *mode = "", *proto, *portarg, *device;
static int addrlen, len_given;

static int make_socket_(const char *p, struct sockaddr_storage *ss, socklen_t *len);

static int make_socket(const char *p, struct sockaddr_storage *ss, socklen_t *len)
{
	int s = make_socket_(p, ss, len);

	if (s >= 0 && device &&
	    setsockopt(s, SOL_SOCKET, SO_BINDTODEVICE, device, strlen(device) + 1)) {
		printf("try-bind: SO_BINDTODEVICE %s: %s\n", device, strerror(errno));
		exit(1);
	}
	return s;
}

static int make_socket_(const char *p, struct sockaddr_storage *ss, socklen_t *len)
{
	struct sockaddr_in *in = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)ss;
	struct sockaddr_un *un = (struct sockaddr_un *)ss;
	int port = atoi(portarg);

	memset(ss, 0, sizeof(*ss));
	in->sin_port = htons(port);	/* sin6_port is at the same offset */
	if (!strcmp(p, "tcp6") || !strcmp(p, "udp6")) {
		int s = socket(AF_INET6, p[0] == 't' ? SOCK_STREAM : SOCK_DGRAM, 0);

		in6->sin6_family = AF_INET6;
		in6->sin6_addr = strcmp(mode, "--v6only") ? in6addr_loopback : in6addr_any;
		if (!strcmp(mode, "--v6only-mapped"))
			inet_pton(AF_INET6, "::ffff:127.0.0.1", &in6->sin6_addr);
		*len = strcmp(mode, "--len24") ? sizeof(*in6) : 24;
		if (s >= 0 && !strncmp(mode, "--v6only", 8) &&
		    setsockopt(s, IPPROTO_IPV6, IPV6_V6ONLY, &(int){ 1 }, sizeof(int))) {
			perror("try-bind: IPV6_V6ONLY");
			exit(1);
		}
		return s;
	}
	if (!strcmp(p, "unix")) {
		un->sun_family = AF_UNIX;
		snprintf(un->sun_path + 1, sizeof(un->sun_path) - 1, "try-bind-%d", getpid());
		*len = sizeof(*un);
		return socket(AF_UNIX, SOCK_STREAM, 0);
	}
	in->sin_family = strcmp(mode, "--unspec") ? AF_INET : AF_UNSPEC;
	in->sin_addr.s_addr = htonl(strcmp(mode, "--unspec") && strcmp(mode, "--hold-any") &&
				    strncmp(mode, "--userns", 8) ? INADDR_LOOPBACK : INADDR_ANY);
	*len = sizeof(*in);
	if (!strcmp(p, "tcp"))
		return socket(AF_INET, SOCK_STREAM, 0);
	if (!strcmp(p, "udp"))
		return socket(AF_INET, SOCK_DGRAM, 0);
	if (!strcmp(p, "udplite"))
		return socket(AF_INET, SOCK_DGRAM, IPPROTO_UDPLITE);
	if (!strcmp(p, "sctp"))
		return socket(AF_INET, SOCK_STREAM, IPPROTO_SCTP);
	if (!strcmp(p, "mptcp"))
		return socket(AF_INET, SOCK_STREAM, IPPROTO_MPTCP);
	fprintf(stderr, "try-bind: unknown protocol '%s'\n", p);
	exit(2);
}

static int do_bind(int s, struct sockaddr_storage *ss, socklen_t len)
{
	if (!strcmp(mode, "--socketcall")) {
#if defined(__i386__)
		unsigned long args[3] = { s, (unsigned long)ss, len };

		return syscall(__NR_socketcall, SYS_BIND, args);
#else
		printf("try-bind: no socketcall(2) on this ABI\n");
		exit(3);
#endif
	}
	if (!strcmp(mode, "--badfd"))
		s = 1000;
	return bind(s, (struct sockaddr *)ss, len_given ? (socklen_t)addrlen : len);
}

static int report(int err)
{
	printf("bind %s:%s as uid %d: %s\n", proto, portarg, getuid(),
	       err ? strerror(err) : "ok");
	return err ? 1 : 0;
}

static int steer(int s, struct sockaddr_storage *ss, socklen_t len);

static int try_bind(void)
{
	struct sockaddr_storage ss;
	socklen_t len;
	int s = make_socket(proto, &ss, &len);

	if (s < 0) {
		printf("try-bind: socket(%s): %s\n", proto, strerror(errno));
		return errno == EPROTONOSUPPORT || errno == EAFNOSUPPORT ? 3 : 1;
	}
	if (!strncmp(mode, "--reuseaddr", 11) && strcmp(mode, "--reuseaddr-race") &&
	    setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &(int){ 1 }, sizeof(int))) {
		perror("try-bind: SO_REUSEADDR");
		return 1;
	}
	if ((!strcmp(mode, "--reuseport") || !strcmp(mode, "--hold-reuseport") ||
	     !strcmp(mode, "--steer")) &&
	    setsockopt(s, SOL_SOCKET, SO_REUSEPORT, &(int){ 1 }, sizeof(int))) {
		perror("try-bind: SO_REUSEPORT");
		return 1;
	}
	if (!strcmp(mode, "--hold-reuseport") || !strcmp(mode, "--hold-any")) {
		if (do_bind(s, &ss, len) || (!strncmp(proto, "tcp", 3) && listen(s, 64)))
			return report(errno);
		printf("try-bind: holding %s:%s (%s)\n", proto, portarg, mode + 7);
		fflush(stdout);
		for (;;)
			pause();
	}
	if (!strcmp(mode, "--steer"))
		return steer(s, &ss, len);
	if (!strcmp(mode, "--reuseport-after")) {
		if (do_bind(s, &ss, len))
			return report(errno);
		if (setsockopt(s, SOL_SOCKET, SO_REUSEPORT, &(int){ 1 }, sizeof(int)) ||
		    (!strncmp(proto, "tcp", 3) && listen(s, 64))) {
			perror("try-bind: SO_REUSEPORT after the bind, listen");
			return 1;
		}
		printf("try-bind: holding %s:%s (pid %d), SO_REUSEPORT set after the bind\n", proto,
		       portarg, getpid());
		fflush(stdout);
		for (;;)
			pause();
	}
	if (!strcmp(mode, "--twice")) {
		if (do_bind(s, &ss, len))
			return report(errno);
		printf("try-bind: the first bind succeeded; again:\n");
	}
	if (!strcmp(mode, "--hold-reuseaddr")) {
		if (setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &(int){ 1 }, sizeof(int)) ||
		    do_bind(s, &ss, len))
			return report(errno);
		printf("try-bind: holding %s:%s with SO_REUSEADDR\n", proto, portarg);
		fflush(stdout);
		for (;;)
			pause();
	}
	return report(do_bind(s, &ss, len) ? errno : 0);
}

/*
 * --steer: once bound, listen with a reuseport program that sends every
 * connection to index 1 of the group (ours, after the service's), and
 * count the connections of 20 that come to us.
 */
static int steer(int s, struct sockaddr_storage *ss, socklen_t len)
{
	struct sock_filter code[] = { BPF_STMT(BPF_RET | BPF_K, 1) };
	struct sock_fprog prog = { .len = 1, .filter = code };
	int got = 0, c;

	if (do_bind(s, ss, len))
		return report(errno);
	report(0);
	if (listen(s, 64) || fcntl(s, F_SETFL, O_NONBLOCK) ||
	    setsockopt(s, SOL_SOCKET, SO_ATTACH_REUSEPORT_CBPF, &prog, sizeof(prog))) {
		perror("try-bind: listen, SO_ATTACH_REUSEPORT_CBPF");
		return 1;
	}
	for (int i = 0; i < 20; i++) {
		c = socket(ss->ss_family, SOCK_STREAM, 0);
		if (c < 0 || connect(c, (struct sockaddr *)ss, len))
			perror("try-bind: connect");
		if (c >= 0)
			close(c);
	}
	usleep(200000);
	while ((c = accept4(s, NULL, NULL, 0)) >= 0 || errno == EINTR)
		if (c >= 0)
			got++, close(c);
	printf("steer: %d of 20 connections came to the program's socket\n", got);
	return 0;
}

/* The port @s is bound to, 0 if none. */
static int local_port_of(int s)
{
	struct sockaddr_storage got;
	socklen_t glen = sizeof(got);

	if (getsockname(s, (struct sockaddr *)&got, &glen))
		return 0;
	return ntohs(((struct sockaddr_in *)&got)->sin_port);
}

/*
 * Bind a new socket with SO_REUSEADDR (bind number @i) and say so if the
 * answer disagrees with getsockname() (counted in *bad). Returns the
 * errno, 0 if it was bound.
 */
static int checked_bind(int i, int *bad)
{
	struct sockaddr_storage ss, got;
	socklen_t len, glen = sizeof(got);
	int s = make_socket(proto, &ss, &len), r, bound;

	setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &(int){ 1 }, sizeof(int));
	r = do_bind(s, &ss, len) ? errno : 0;
	getsockname(s, (struct sockaddr *)&got, &glen);
	bound = ((struct sockaddr_in *)&got)->sin_port != 0;
	if (bound != !r) {
		printf("bind %d returned %s but the socket is %sbound\n", i,
		       r ? strerror(r) : "0", bound ? "" : "not ");
		(*bad)++;
	}
	close(s);
	return r;
}

/*
 * --until-enosys N: a program whose agent goes away while it binds. Each
 * answer must be what happened to the socket.
 */
static int until_enosys(int n)
{
	int bad = 0, okays = 0, i, r = 0;

	for (i = 0; i < n && r != ENOSYS; i++) {
		r = checked_bind(i, &bad);
		okays += !r;
	}
	printf("until-enosys: %d binds to %s:%s, %d succeeded, %d disagree with getsockname(), last: %s\n",
	       i, proto, portarg, okays, bad, r ? strerror(r) : "ok");
	return bad || r != ENOSYS;
}

/* The leader's fd N is a TCP socket; this thread's own fd N is UDP. */
static int own_files_bind(void)
{
	struct sockaddr_storage ss;
	socklen_t len;
	int s;

	if (unshare(CLONE_FILES)) {
		perror("try-bind: unshare(CLONE_FILES)");
		return 1;
	}
	s = make_socket("udp", &ss, &len);
	if (s < 0 || dup2(s, 100) != 100)
		return 1;
	if (!strcmp(mode, "--own-files-closed"))
		close(100);
	return report(do_bind(100, &ss, len) ? errno : 0);
}

static volatile int stop_flipping;

static void *flip_reuseaddr(void *arg)
{
	int opt = strcmp(mode, "--reuseport-race") ? SO_REUSEADDR : SO_REUSEPORT;

	for (int v = 0; !stop_flipping; v ^= 1)
		setsockopt(100, SOL_SOCKET, opt, &v, sizeof(v));
	return arg;
}

/* --reuseaddr-race N (a UDP socket), --reuseport-race N (PROTO's) */
static int reuseaddr_race(int n)
{
	const char *p = strcmp(mode, "--reuseport-race") ? "udp" : proto;
	struct sockaddr_storage ss;
	socklen_t len;
	int i, won = 0, s;
	pthread_t t;

	s = make_socket(p, &ss, &len);
	if (n < 1 || s < 0 || dup2(s, 100) != 100 ||
	    pthread_create(&t, NULL, flip_reuseaddr, NULL))
		return 2;
	close(s);
	for (i = 1; i <= n && !won; i++) {
		won = !do_bind(100, &ss, len);
		s = make_socket(p, &ss, &len);
		if (!won && (s < 0 || dup2(s, 100) != 100))
			break;
		close(s);
	}
	stop_flipping = 1;
	pthread_join(t, NULL);
	if (won)
		printf("%s: bind %d of %d succeeded: %s:%s is shared\n", mode + 2, i - 1, n, p,
		       portarg);
	else
		printf("%s: no bind of %d succeeded\n", mode + 2, n);
	return won;
}

static volatile sig_atomic_t signals;

static void on_sigurg(int sig)
{
	(void)sig;
	signals++;
}

/*
 * Binds under a stream of SIGURG, one every 500 us, as Go's runtime sends
 * them to preempt: many arrive while the supervisor holds a bind(). A
 * signaller with no pause at all would make the program restart its
 * bind() more often than the supervisor can answer it.
 */
static int storm(int n)
{
	struct sigaction sa = { .sa_handler = on_sigurg, .sa_flags = SA_RESTART };
	struct timespec pause = { .tv_nsec = 500 * 1000 };
	int bad = 0, okays = 0, hit = 0;
	pid_t parent = getpid(), pid;

	sigaction(SIGURG, &sa, NULL);
	pid = fork();
	if (pid == 0)
		for (;;) {
			if (kill(parent, SIGURG))
				_exit(0);
			nanosleep(&pause, NULL);
		}
	for (int i = 0; i < n; i++) {
		sig_atomic_t before = signals;

		okays += !checked_bind(i, &bad);
		hit += signals != before;
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	printf("storm: %d binds to %s:%s, %d succeeded, %d disagree with getsockname(); a signal came during %d of them\n",
	       n, proto, portarg, okays, bad, hit);
	/* no signal during a bind: the run proved nothing */
	return bad || okays != n || !hit;
}

/* --repeat N */
static int repeat(int n)
{
	int bad = 0, okays = 0;

	for (int i = 0; i < n; i++)
		okays += !checked_bind(i, &bad);
	printf("repeat: %d binds to %s:%s, %d succeeded, %d disagree with getsockname()\n", n, proto,
	       portarg, okays, bad);
	return bad || okays != n;
}

/* Until @path exists (up to 120 s); async-signal-safe. */
static int wait_for_file(const char *path)
{
	struct timespec ms10 = { .tv_nsec = 10 * 1000 * 1000 };

	for (int i = 0; i < 12000; i++) {
		if (!access(path, F_OK))
			return 0;
		nanosleep(&ms10, NULL);
	}
	return -1;
}

static const char *go2;
static volatile sig_atomic_t late;
static int withdraw_sock, withdraw_err = -1;
static volatile pid_t withdraw_tid;
static struct sockaddr_storage withdraw_addr;
static socklen_t withdraw_len;

static void on_withdraw(int sig)
{
	(void)sig;
	if (late)
		wait_for_file(go2);
}

static volatile int withdraw_second = -1;

/* The bind(), and for eintr the same thread's second bind() of the socket */
static void *withdraw_bind(void *arg)
{
	int err;

	withdraw_tid = gettid();
	err = do_bind(withdraw_sock, &withdraw_addr, withdraw_len) ? errno : 0;
	__atomic_store_n(&withdraw_tid, 0, __ATOMIC_SEQ_CST);
	__atomic_store_n(&withdraw_err, err, __ATOMIC_SEQ_CST);
	/*
	 * Another call than the first: its address length is the whole
	 * sockaddr_storage, which inet_bind() takes as well. One that left
	 * every register as it was could not be told from a restart
	 * (docs/bind-supervisor.md); whether it does depends on the ABI's
	 * unused argument registers (the same on arm64, here).
	 */
	if (arg && err == EINTR && !wait_for_file(go2))
		withdraw_second = do_bind(withdraw_sock, &withdraw_addr, sizeof(withdraw_addr)) ?
				  errno : 0;
	return arg;
}

/* --withdraw restart|late|eintr (see the top) */
static int withdraw(const char *how)
{
	struct sigaction sa = { .sa_handler = on_withdraw };
	const char *go = getenv("TRY_BIND_GO");
	struct timespec ms1 = { .tv_nsec = 1000 * 1000 };
	int eintr = !strcmp(how, "eintr"), err, i;
	pid_t tid;
	pthread_t t;

	go2 = getenv("TRY_BIND_GO2");
	late = !strcmp(how, "late");
	if (!go || ((late || eintr) && !go2) || (!late && !eintr && strcmp(how, "restart")))
		return 2;
	if (!eintr)
		sa.sa_flags = SA_RESTART;
	if (sigaction(SIGUSR1, &sa, NULL) || wait_for_file(go))
		return 2;
	withdraw_sock = make_socket(proto, &withdraw_addr, &withdraw_len);
	if (withdraw_sock < 0 || pthread_create(&t, NULL, withdraw_bind, eintr ? &t : NULL))
		return 2;
	/* bound, and the bind() not yet answered */
	for (i = 0; i < 60000 && local_port_of(withdraw_sock) == 0; i++)
		nanosleep(&ms1, NULL);
	tid = __atomic_load_n(&withdraw_tid, __ATOMIC_SEQ_CST);
	if (!tid) {
		pthread_join(t, NULL);
		printf("withdraw: the bind() was answered (%s) before the signal: nothing shown\n",
		       withdraw_err ? strerror(withdraw_err) : "ok");
		return 4;
	}
	syscall(SYS_tgkill, getpid(), tid, SIGUSR1);
	printf("withdraw: the socket is bound; the binding thread signalled (%s)\n", how);
	fflush(stdout);
	while ((err = __atomic_load_n(&withdraw_err, __ATOMIC_SEQ_CST)) < 0)
		nanosleep(&ms1, NULL);
	printf("withdraw: the bind() got %s; the socket is %sbound\n",
	       err ? strerror(err) : "ok", local_port_of(withdraw_sock) ? "" : "not ");
	fflush(stdout);
	pthread_join(t, NULL);
	if (!eintr)
		return err != 0;
	if (err != EINTR || withdraw_second < 0)
		return 4;
	/* made by the same thread, when $TRY_BIND_GO2 existed */
	printf("withdraw: a second bind() of the socket after EINTR got %s\n",
	       withdraw_second ? strerror(withdraw_second) : "ok");
	return withdraw_second != EINVAL;
}

/*
 * --userns, --userns-hostsock: uid 0 in a user namespace of our own, with
 * a network namespace it owns; exits 3 if this kernel or system has none.
 */
static int userns(void)
{
	uid_t uid = getuid();
	gid_t gid = getgid();
	char map[64];
	int f;

	if (unshare(CLONE_NEWUSER | CLONE_NEWNET)) {
		printf("try-bind: user namespaces not supported here: unshare: %s\n", strerror(errno));
		exit(3);
	}
	f = open("/proc/self/setgroups", O_WRONLY);
	if (f >= 0) {
		if (write(f, "deny", 4) != 4)
			return 1;
		close(f);
	}
	snprintf(map, sizeof(map), "0 %u 1", uid);
	f = open("/proc/self/uid_map", O_WRONLY);
	if (f < 0 || write(f, map, strlen(map)) != (ssize_t)strlen(map))
		return 1;
	close(f);
	snprintf(map, sizeof(map), "0 %u 1", gid);
	f = open("/proc/self/gid_map", O_WRONLY);
	if (f < 0 || write(f, map, strlen(map)) != (ssize_t)strlen(map))
		return 1;
	close(f);
	return 0;
}

/*
 * Whether a program of this ABI can ask a network namespace for its user
 * namespace (NS_GET_USERNS), as the daemons of the same ABI do to tell
 * whether a caller holds CAP_NET_BIND_SERVICE over its socket's (R3.5):
 * 6.1's fs/nsfs.c has no compat_ioctl, so a 32-bit program gets ENOTTY
 * there (6.12's has compat_ptr_ioctl). Exits 3, saying so, if not.
 */
static void nsfs_or_exit(void)
{
	int ns = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC), user;

	if (ns < 0)
		return;
	user = ioctl(ns, NS_GET_USERNS);
	if (user < 0 && errno == ENOTTY) {
		printf("try-bind: NS_GET_USERNS not supported here (nsfs has no compat ioctl for this ABI): its daemons cannot tell, their policy decides\n");
		exit(3);
	}
	if (user >= 0)
		close(user);
	close(ns);
}

static int userns_bind(void)
{
	struct sockaddr_storage ss;
	socklen_t len;
	int s = -1;

	if (!strcmp(mode, "--userns-hostsock"))
		s = make_socket(proto, &ss, &len);
	else
		nsfs_or_exit();
	if (userns())
		return 1;
	if (s < 0)
		s = make_socket(proto, &ss, &len);
	if (s < 0)
		return 1;
	return report(do_bind(s, &ss, len) ? errno : 0);
}

/* --leader-exit: wait until the leader is a zombie, then bind. */
static void wait_for_leader_exit(void)
{
	char path[64], state = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", getpid());
	for (int i = 0; i < 500 && state != 'Z'; i++) {
		usleep(10000);
		f = fopen(path, "re");
		if (f && fscanf(f, "%*d %*s %c", &state) != 1)
			state = 0;
		if (f)
			fclose(f);
	}
}

static void *thread_main(void *arg)
{
	if (!strcmp(mode, "--leader-exit"))
		wait_for_leader_exit();
	exit(arg ? own_files_bind() : try_bind());
}

int main(int argc, char **argv)
{
	pthread_t t;
	int s, n = 0;

	const char *how = NULL;

	if (argc > 2 && !strcmp(argv[1], "--device")) {
		device = argv[2];
		argc -= 2, argv += 2;
	}
	if (argc > 1 && argv[1][0] == '-') {
		mode = argv[1];
		argc--, argv++;
		if (!strcmp(mode, "--len") || !strcmp(mode, "--storm") ||
		    !strcmp(mode, "--reuseaddr-race") || !strcmp(mode, "--reuseport-race") ||
		    !strcmp(mode, "--until-enosys") || !strcmp(mode, "--repeat")) {
			if (argc < 2)
				return 2;
			n = atoi(argv[1]);
			addrlen = n;
			len_given = !strcmp(mode, "--len");
			argc--, argv++;
		} else if (!strcmp(mode, "--withdraw")) {
			if (argc < 2)
				return 2;
			how = argv[1];
			argc--, argv++;
		}
	}
	if (argc != 3) {
		fprintf(stderr, "usage: try-bind [MODE] tcp|udp|tcp6|udp6|udplite|sctp|mptcp|unix PORT\n");
		return 2;
	}
	proto = argv[1];
	portarg = argv[2];
	if (!strcmp(mode, "--storm"))
		return storm(n);
	if (!strcmp(mode, "--reuseaddr-race") || !strcmp(mode, "--reuseport-race"))
		return reuseaddr_race(n);
	if (!strcmp(mode, "--until-enosys"))
		return until_enosys(n);
	if (!strcmp(mode, "--repeat"))
		return repeat(n);
	if (how)
		return withdraw(how);
	if (!strncmp(mode, "--userns", 8))
		return userns_bind();
	if (!strcmp(mode, "--listen-only")) {
		struct sockaddr_storage ss;
		socklen_t len;

		s = make_socket(proto, &ss, &len);
		n = s >= 0 ? listen(s, 8) : -1;
		printf("listen %s as uid %u: %s\n", proto, getuid(), n ? strerror(errno) : "ok");
		return !!n;
	}
	if (!strncmp(mode, "--own-files", 11)) {
		/* the leader's fd 100: a TCP socket */
		s = socket(AF_INET, SOCK_STREAM, 0);
		if (s < 0 || dup2(s, 100) != 100)
			return 1;
	}
	if (strcmp(mode, "--thread") && strcmp(mode, "--leader-exit") &&
	    strncmp(mode, "--own-files", 11) && strcmp(mode, "--exit-pending"))
		return try_bind();
	if (pthread_create(&t, NULL, thread_main, strncmp(mode, "--own-files", 11) ? NULL : &t)) {
		fprintf(stderr, "try-bind: pthread_create failed\n");
		return 1;
	}
	if (!strcmp(mode, "--leader-exit"))
		pthread_exit(NULL);
	if (!strcmp(mode, "--exit-pending")) {
		sleep(2);
		printf("try-bind: the process exits with the bind to %s:%s pending\n", proto, portarg);
		exit(0);
	}
	pthread_join(t, NULL);
	return 1;
}
