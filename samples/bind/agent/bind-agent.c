// SPDX-License-Identifier: GPL-2.0
/*
 * bind-agent: bind-supervisor's policy as the seccomp agent of OCI runtimes.
 *
 *	bind-agent [-v] [--fetch auto|ioctl|syscall] --socket PATH
 *		[--allow tcp:PORT|udp:PORT ...]
 *
 * A container whose config.json names PATH as linux.seccomp.listenerPath
 * and traps bind() with SCMP_ACT_NOTIFY gets the privileged ports --allow
 * names, decided as bind-supervisor decides them (decide.c). Its runtime
 * (crun, runc) connects when it creates the container and sends, in one
 * message, the seccomp listener (SCM_RIGHTS) and the container process
 * state (JSON). We take that from root only, check it, and serve the
 * listener in a thread of its own until no task uses the filter.
 * listenerMetadata may narrow the policy ("allow=tcp:80,udp:53"), never
 * widen it. Whatever a client gets wrong is a log line and a closed
 * connection; every other container is served on. docs/bind-agent.md says
 * how to deploy it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <json.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "agent-log.h"
#include "../lib/bind-cli.h"
#include "../lib/fetch.h"
#include "../lib/serve.h"
#include "sd-daemon.h"

/*
 * Bytes of JSON: runc puts the config's annotations in the state, and
 * Kubernetes allows a pod 256 KiB of them, which JSON escapes to at most
 * six times that ("<" is "\u003c").
 */
#define MAX_STATE (2 << 20)
#define MAX_FDS 4	/* room for more than one, to tell "two fds" apart */
#define RECV_TIMEOUT 5	/* seconds for a client to send its whole message */
#define WORKERS 4	/* a container's notifications answered at once */
#define MAX_CLIENTS 64	/* clients whose message is being read at once */
#define STOP_TIMEOUT 5	/* seconds to answer what is in flight at SIGTERM */

static unsigned int clients;	/* reading their message now */

static struct policy agent_policy;
static struct seccomp_notif_sizes sizes;

static const char usage[] =
	"usage: bind-agent [-v] [--fetch auto|ioctl|syscall] [--socket PATH]\n"
	"                  [--allow tcp:PORT|udp:PORT ...]\n"
	"                  [--log-format text|json] [--metrics FILE]\n"
	"Serve the bind() calls of OCI containers whose runtime hands their seccomp\n"
	"listener to PATH (linux.seccomp.listenerPath): bind their sockets to the\n"
	"privileged ports --allow names, or to the fewer their listenerMetadata\n"
	"(\"allow=tcp:PORT,...\") names. Started by systemd with the socket passed\n"
	"(LISTEN_FDS), it serves that one, and --socket may be left out.\n"
	COMMON_OPTIONS_HELP
	AGENT_LOG_OPTIONS_HELP;

#define usage_error(...) usage_exit("bind-agent", usage, __VA_ARGS__)

/* One client: its connection, its credentials, and what it sent. */
struct client {
	int conn, fds[MAX_FDS], nfds, too_many;
	int dropped;	/* the kernel did not install fds that had room: ours */
	struct ucred peer;
	char problem[256];
	char id[129];	/* the container's, once check_state() took it */
};

static int __attribute__((format(printf, 2, 3))) problem(struct client *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->problem, sizeof(c->problem), fmt, ap);
	va_end(ap);
	return -1;
}

/* Keep the fds of one message's SCM_RIGHTS; beyond MAX_FDS, close them. */
static void take_fds(struct client *c, struct msghdr *msg)
{
	for (struct cmsghdr *cm = CMSG_FIRSTHDR(msg); cm; cm = CMSG_NXTHDR(msg, cm)) {
		int *fd = (int *)CMSG_DATA(cm);
		size_t n;

		if (cm->cmsg_level != SOL_SOCKET || cm->cmsg_type != SCM_RIGHTS)
			continue;
		n = (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (size_t i = 0; i < n; i++) {
			if (c->nfds < MAX_FDS)
				c->fds[c->nfds++] = fd[i];
			else
				close(fd[i]), c->too_many = 1;
		}
	}
	/*
	 * The kernel dropped fds: that did not fit (too many sent), or that
	 * had room but it could not install (scm_detach_fds(): our open-file
	 * limit, EMFILE, or an LSM's refusal), which is ours, not the client's.
	 */
	if ((msg->msg_flags & MSG_CTRUNC) && c->nfds < MAX_FDS)
		c->dropped = 1;
	else if (msg->msg_flags & MSG_CTRUNC)
		c->too_many = 1;
}

/* Why the kernel could not give us the fds sent (c->dropped). */
static int fds_dropped(struct client *c)
{
	struct rlimit nofile = { 0 };
	int fd = fcntl(c->conn, F_DUPFD_CLOEXEC, 0);

	getrlimit(RLIMIT_NOFILE, &nofile);
	if (fd >= 0)
		close(fd);
	else if (errno == EMFILE)
		return problem(c, "this agent is at its open-file limit (RLIMIT_NOFILE %llu): the kernel could not give it the fds sent; raise the limit (LimitNOFILE=)",
			       (unsigned long long)nofile.rlim_cur);
	return problem(c, "the kernel could not give this agent the fds sent (MSG_CTRUNC): an LSM refused them, or it was at its open-file limit (RLIMIT_NOFILE %llu) then",
		       (unsigned long long)nofile.rlim_cur);
}

/*
 * Read the client's message: its fds, and JSON up to the end of the first
 * value (a runtime sends it in one sendmsg() and closes). Returns the
 * parsed state, or NULL with c->problem set.
 */
static struct json_object *read_message(struct client *c)
{
	struct json_tokener *tok = json_tokener_new();
	struct json_object *state = NULL;
	size_t total = 0;
	struct timespec now, deadline;

	if (!tok) {
		problem(c, "out of memory");
		return NULL;
	}
	/* One deadline for the whole message, not one per read. */
	clock_gettime(CLOCK_MONOTONIC, &deadline);
	deadline.tv_sec += RECV_TIMEOUT;
	for (;;) {
		char data[4096];
		union {
			char buf[CMSG_SPACE(MAX_FDS * sizeof(int))];
			struct cmsghdr align;
		} ctl;
		struct iovec iov = { data, sizeof(data) };
		struct msghdr msg = {
			.msg_iov = &iov, .msg_iovlen = 1,
			.msg_control = ctl.buf, .msg_controllen = sizeof(ctl.buf),
		};
		enum json_tokener_error err;
		struct pollfd pfd = { c->conn, POLLIN, 0 };
		ssize_t n = -1;
		size_t end;
		int ms;

		clock_gettime(CLOCK_MONOTONIC, &now);
		ms = (int)((deadline.tv_sec - now.tv_sec) * 1000 +
			   (deadline.tv_nsec - now.tv_nsec) / 1000000);
		errno = EAGAIN;
		if (ms > 0 && poll(&pfd, 1, ms) == 1)
			n = recvmsg(c->conn, &msg, MSG_CMSG_CLOEXEC | MSG_DONTWAIT);
		if (n < 0 && errno == EINTR)
			continue;	/* the deadline still holds */
		if (n < 0 && errno == EAGAIN) {
			problem(c, "no complete message within %d s", RECV_TIMEOUT);
			break;
		} else if (n < 0) {
			problem(c, "recvmsg: %s", strerror(errno));
			break;
		}
		take_fds(c, &msg);
		if (n == 0 && total) {
			problem(c, "the client hung up in the middle of its JSON (%zu bytes)", total);
			break;
		} else if (n == 0) {
			problem(c, "the client hung up without sending anything");
			break;
		}
		total += (size_t)n;
		if (total > MAX_STATE) {
			problem(c, "message larger than %d bytes", MAX_STATE);
			break;
		}
		state = json_tokener_parse_ex(tok, data, (int)n);
		err = json_tokener_get_error(tok);
		if (err == json_tokener_continue)
			continue;
		if (err != json_tokener_success) {
			problem(c, "invalid JSON: %s", json_tokener_error_desc(err));
			break;
		}
		for (end = json_tokener_get_parse_end(tok); end < (size_t)n; end++)
			if (!strchr(" \t\r\n", data[end])) {
				json_object_put(state);
				state = NULL;
				problem(c, "data after the JSON value");
				break;
			}
		break;
	}
	json_tokener_free(tok);
	return state;
}

/* Whether @fd is a seccomp listener (the kernel's name for its inode). */
static int is_listener(int fd)
{
	char path[64], target[64];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0)
		return 0;
	target[n] = '\0';
	return !strcmp(target, "anon_inode:seccomp notify");
}

static struct json_object *member(struct json_object *o, const char *key, json_type type)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, type))
		return NULL;
	return v;
}

/*
 * The container process state of the OCI runtime spec ("Listener"): we
 * need fds to name our one fd "seccompFd"; pid, metadata and the
 * container's id are for the log and the policy. The pid is not trusted
 * for anything: each notification names its own caller.
 */
static int check_state(struct client *c, struct json_object *st, const char **id,
		       int *pid, const char **metadata)
{
	struct json_object *fds, *state, *v;
	size_t idlen;

	if (!json_object_is_type(st, json_type_object))
		return problem(c, "the state is not a JSON object");
	if (!member(st, "ociVersion", json_type_string))
		return problem(c, "the state has no \"ociVersion\" string");
	fds = member(st, "fds", json_type_array);
	if (!fds)
		return problem(c, "the state has no \"fds\" array");
	if (json_object_array_length(fds) != 1 ||
	    !json_object_is_type(json_object_array_get_idx(fds, 0), json_type_string) ||
	    strcmp(json_object_get_string(json_object_array_get_idx(fds, 0)), "seccompFd"))
		return problem(c, "\"fds\" is not [\"seccompFd\"], for the one fd sent");
	v = member(st, "pid", json_type_int);
	if (!v || json_object_get_int64(v) < 1 || json_object_get_int64(v) > 0x7fffffff)
		return problem(c, "the state has no \"pid\" number in 1..2^31-1");
	*pid = (int)json_object_get_int64(v);
	v = member(st, "metadata", json_type_string);
	if (!v && json_object_object_get_ex(st, "metadata", NULL))
		return problem(c, "\"metadata\" is not a string");
	*metadata = v ? json_object_get_string(v) : "";
	state = member(st, "state", json_type_object);
	v = state ? member(state, "id", json_type_string) : NULL;
	if (!v)
		return problem(c, "the state has no \"state\" object with an \"id\" string");
	*id = json_object_get_string(v);
	/* It goes into our log: no line breaks, no escapes. */
	idlen = strlen(*id);
	if (!idlen || idlen > 128 || strspn(*id, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_+-.") != idlen)
		return problem(c, "the container id is not 1-128 of [A-Za-z0-9_+-.]");
	return 0;
}

/* listenerMetadata "allow=SPEC,..." narrows the agent's policy into @p. */
static int narrow(struct client *c, const char *metadata, struct policy *p)
{
	char err[POLICY_LIST_MAX + 160];

	if (!*metadata) {
		*p = agent_policy;
		return 0;
	}
	/* It may go into our log: nothing that could break a line. */
	if (strspn(metadata, "abcdefghijklmnopqrstuvwxyz0123456789:=,") != strlen(metadata))
		return problem(c, "listenerMetadata has a character outside [a-z0-9:=,]");
	if (strncmp(metadata, "allow=", 6) || strlen(metadata + 6) >= POLICY_LIST_MAX)
		return problem(c, "listenerMetadata is not \"allow=tcp:PORT,udp:PORT,...\" (at most %d bytes)",
			       POLICY_LIST_MAX - 1);
	if (policy_parse_list(p, metadata + 6, &agent_policy, "listenerMetadata",
			      "this agent's --allow", err, sizeof(err)))
		return problem(c, "%s", err);
	return 0;
}

static void *worker(void *served)
{
	return serve(served, &sizes) ? served : NULL;
}

/*
 * Serve one listener as bind-supervisor does, with WORKERS threads (one
 * bind that blocks our read of its memory must not hold up the others).
 * Returns once no task uses the filter, or once receiving fails (-1).
 */
static int serve_container(struct served *served)
{
	pthread_t t[WORKERS - 1];
	int n = 0, ret;
	void *r;

	while (n < WORKERS - 1 && !pthread_create(&t[n], NULL, worker, served))
		n++;
	ret = serve(served, &sizes);
	while (n--)
		if (pthread_join(t[n], &r) || r)
			ret = -1;
	return ret;
}

/*
 * A client refused: who it was and why, and what becomes of its
 * container. The runtime does not wait for an answer (crun and runc send
 * and close): the container runs, and with its listener closed unserved
 * every bind() it traps gets ENOSYS from the kernel (seccomp's answer
 * once the listener is released: seccomp_do_user_notification() in
 * kernel/seccomp.c, when match->notif is gone; agent-test.sh shows it).
 */
static void refused(struct client *c)
{
	char members[1200], why[600], id[300];
	const char *effect = c->nfds ?
		"its container runs, and every bind() it makes fails with ENOSYS (the listener is closed unserved)" :
		"no listener taken: if the runtime sent one, its container's binds fail with ENOSYS";

	json_string(why, sizeof(why), c->problem);
	json_string(id, sizeof(id), c->id[0] ? c->id : NULL);
	snprintf(members, sizeof(members),
		 "\"runtime_pid\":%d,\"runtime_uid\":%d,\"container\":%s,\"reason\":%s,\"effect\":\"%s\"",
		 c->peer.pid, (int)c->peer.uid, id, why, effect);
	if (c->id[0])
		agent_log("warning", "client_refused", members,
			  "client pid %d uid %d (container %s): %s; connection dropped: %s",
			  c->peer.pid, (int)c->peer.uid, c->id, c->problem, effect);
	else
		agent_log("warning", "client_refused", members,
			  "client pid %d uid %d: %s; connection dropped: %s",
			  c->peer.pid, (int)c->peer.uid, c->problem, effect);
}

static void *client_thread(void *arg)
{
	struct client *c = arg;
	struct json_object *state = NULL;
	struct served served = {
		.listener = -1, .only_bind = 1, .recv_lock = PTHREAD_MUTEX_INITIALIZER,
	};
	struct policy policy;
	socklen_t len = sizeof(c->peer);
	const char *id = "", *metadata = "";
	char name[200], rules[512], members[300];
	int pid = 0;

	/* Anyone who could hand us a listener would get privileged ports. */
	if (getsockopt(c->conn, SOL_SOCKET, SO_PEERCRED, &c->peer, &len)) {
		problem(c, "SO_PEERCRED: %s", strerror(errno));
		goto out;
	}
	if (c->peer.uid != 0) {
		problem(c, "the client is not root: only root may hand over a listener");
		goto out;
	}
	state = read_message(c);
	if (!state)
		goto out;
	if (c->dropped) {
		fds_dropped(c);
		goto out;
	}
	if (c->too_many || c->nfds > 1) {
		problem(c, "%s%d fds sent: want exactly one, the seccomp listener",
			c->too_many ? "more than " : "", c->nfds);
		goto out;
	}
	if (c->nfds == 0) {
		problem(c, "no fd sent: want the seccomp listener (SCM_RIGHTS)");
		goto out;
	}
	if (!is_listener(c->fds[0])) {
		problem(c, "the fd sent is not a seccomp listener");
		goto out;
	}
	if (check_state(c, state, &id, &pid, &metadata))
		goto out;
	snprintf(c->id, sizeof(c->id), "%s", id);
	if (narrow(c, metadata, &policy))
		goto out;
	snprintf(name, sizeof(name), "bind-agent: container %s", id);
	/* All we need is taken: one fd per container from now on. */
	json_object_put(state);
	state = NULL;
	close(c->conn);
	c->conn = -1;
	__atomic_sub_fetch(&clients, 1, __ATOMIC_RELAXED);
	policy_format(&policy, rules, sizeof(rules));
	snprintf(members, sizeof(members), "\"container\":\"%s\",\"pid\":%d,\"runtime_pid\":%d",
		 id, pid, c->peer.pid);
	agent_log("info", "container_serving", members,
		  "container %s (pid %d, from runtime pid %d): serving its listener; allowed: %s",
		  id, pid, c->peer.pid, rules);
	served.listener = c->fds[0];
	served.policy = &policy;
	served.name = name;
	served.hook_data = agent_container_begin(&served, id);
	snprintf(members, sizeof(members), "\"container\":\"%s\"", c->id);
	if (serve_container(&served))
		agent_log("error", "container_done", members,
			  "container %s: listener closed: its binds now fail with ENOSYS", c->id);
	else
		agent_log("info", "container_done", members,
			  "container %s: no task uses its filter any more: done", c->id);
	agent_container_end(served.hook_data);
out:
	if (c->problem[0])
		refused(c);
	json_object_put(state);
	for (int i = 0; i < c->nfds; i++)
		close(c->fds[i]);
	if (c->conn >= 0) {
		close(c->conn);
		__atomic_sub_fetch(&clients, 1, __ATOMIC_RELAXED);
	}
	free(c);
	return NULL;
}

/*
 * Whoever can write to the socket's directory can put a socket of theirs
 * in the agent's place, and get the containers' listeners: the directory
 * must be root's and writable by no one else, and so must each one above
 * it, which may instead be sticky (as /tmp is: no one else can rename or
 * remove what root made there). Exits 1 with a message if not.
 */
static void check_socket_dir(const char *path)
{
	char *copy = strdup(path), *dir, *real;
	struct stat st;

	if (!copy) {
		fprintf(stderr, "bind-agent: out of memory\n");
		exit(1);
	}
	dir = strrchr(copy, '/');
	if (dir == copy)
		dir[1] = '\0';
	else if (dir)
		*dir = '\0';
	real = realpath(dir ? copy : ".", NULL);
	free(copy);
	if (!real) {
		agent_log("error", "socket_refused", NULL, "the directory of socket %s: %s", path,
			  strerror(errno));
		exit(1);
	}
	for (int first = 1;; first = 0) {
		char *slash;

		errno = 0;
		if (stat(real, &st) || !S_ISDIR(st.st_mode)) {
			agent_log("error", "socket_refused", NULL, "socket directory %s: %s", real,
				  errno ? strerror(errno) : "not a directory");
			exit(1);
		}
		if (st.st_uid != 0 || ((st.st_mode & 022) && (first || !(st.st_mode & S_ISVTX)))) {
			agent_log("error", "socket_refused", NULL,
				  "socket directory %s is mode %04o owned by uid %u: want it owned by root and writable by no one else (a directory above the socket's may be sticky instead, as /tmp is), for %s",
				  real, st.st_mode & 07777, st.st_uid, path);
			exit(1);
		}
		if (!strcmp(real, "/"))
			break;
		slash = strrchr(real, '/');
		if (slash == real)
			slash[1] = '\0';
		else
			*slash = '\0';
	}
	free(real);
}

/* The socket, created 0600 whatever our umask: only root may connect. */
static int listen_on(const char *path)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	struct stat st;
	mode_t old;
	int sk, ret;

	if (strlen(path) >= sizeof(addr.sun_path))
		usage_error("socket path '%s' is longer than %zu bytes", path,
			    sizeof(addr.sun_path) - 1);
	snprintf(addr.sun_path, sizeof(addr.sun_path), "%s", path);
	/* A socket left by an earlier agent goes; anything else stays. */
	if (!lstat(path, &st)) {
		if (!S_ISSOCK(st.st_mode))
			usage_error("'%s' exists and is not a socket", path);
		unlink(path);
	}
	sk = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (sk < 0)
		return -1;
	old = umask(0177);
	ret = bind(sk, (struct sockaddr *)&addr, sizeof(addr));
	umask(old);
	if (ret || lstat(path, &st) || (st.st_mode & 07777) != 0600 || listen(sk, 64)) {
		if (!ret)
			errno = errno ? errno : EPERM;
		close(sk);
		return -1;
	}
	return sk;
}

/* One of on_signals()'s lines, logged from a thread of its own. */
struct signal_line {
	const char *level;
	char members[40];
	char text[128];
};

static void *say_line(void *arg)
{
	const struct signal_line *l = arg;

	agent_log(l->level, "signal", l->members, "%s", l->text);
	return NULL;
}

/*
 * SIGTERM and SIGINT: answer the notifications in flight, then exit. The
 * listeners close with us: a container's later binds fail with ENOSYS
 * until it is created again (docs/bind-agent.md). The STOP_TIMEOUT
 * deadline starts at the signal, before any log write, and holds whatever
 * the log does (R3.3).
 */
static void *on_signals(void *set)
{
	static struct signal_line start, end;
	struct timespec now, deadline;
	int sig = 0, drained, said;
	pthread_t t;
	const char *name;

	sigwait(set, &sig);
	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += STOP_TIMEOUT;
	name = sig == SIGTERM ? "SIGTERM" : "SIGINT";
	snprintf(start.members, sizeof(start.members), "\"signal\":\"%s\"", name);
	snprintf(end.members, sizeof(end.members), "\"signal\":\"%s\"", name);
	start.level = "info";
	snprintf(start.text, sizeof(start.text), "%s: answering the notifications in flight", name);
	/*
	 * The log lines are written by threads of their own (a worker
	 * blocked in a write to a stalled stderr may hold its lock); the
	 * exit waits for them until the deadline, plus a second, at most.
	 */
	said = !pthread_create(&t, NULL, say_line, &start);
	drained = !serve_stop(STOP_TIMEOUT);
	end.level = drained ? "info" : "error";
	if (drained)
		snprintf(end.text, sizeof(end.text),
			 "%s: answered the notifications in flight; exiting", name);
	else
		snprintf(end.text, sizeof(end.text),
			 "%s: some notification is still being answered after %d s; exiting",
			 name, STOP_TIMEOUT);
	clock_gettime(CLOCK_REALTIME, &now);
	if (now.tv_sec >= deadline.tv_sec)
		deadline = now;
	deadline.tv_sec++;
	/* In order; a line not written by then is lost with the process. */
	if ((!said || !pthread_timedjoin_np(t, NULL, &deadline)) &&
	    !pthread_create(&t, NULL, say_line, &end))
		pthread_timedjoin_np(t, NULL, &deadline);
	_exit(drained ? 0 : 1);
}

/* Signals, before any thread; the fds for a container each (two at first). */
static void set_up_process(void)
{
	static sigset_t set;
	struct rlimit nofile;
	pthread_t t;

	signal(SIGPIPE, SIG_IGN);
	/* No terminal to lose: a hang-up must not end every container's service. */
	signal(SIGHUP, SIG_IGN);
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	if (pthread_sigmask(SIG_BLOCK, &set, NULL) ||
	    pthread_create(&t, NULL, on_signals, &set) || pthread_detach(t)) {
		fprintf(stderr, "bind-agent: cannot set up the signals\n");
		exit(1);
	}
	if (getrlimit(RLIMIT_NOFILE, &nofile) == 0 && nofile.rlim_cur < nofile.rlim_max) {
		nofile.rlim_cur = nofile.rlim_max;
		if (setrlimit(RLIMIT_NOFILE, &nofile))
			perror("bind-agent: raising RLIMIT_NOFILE to its hard limit");
	}
}

int main(int argc, char **argv)
{
	const char *path = NULL;
	unsigned long refused = 0;
	pthread_attr_t attr;
	char err[160];
	int sk, activated;

	agent_log_early(argc, argv);
	set_up_process();
	read_unpriv_start("bind-agent");
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			printf("%s", usage);
			return 0;
		} else if (version_option("bind-agent", argv[i])) {
			;
		} else if (!strcmp(argv[i], "-v")) {
			verbose = 1;
		} else if (agent_log_option(argv[i], NULL)) {
			;
		} else if (i + 1 == argc) {
			usage_error("unknown or incomplete option '%s'", argv[i]);
		} else if (!strcmp(argv[i], "--socket")) {
			if (path)
				usage_error("--socket given twice");
			path = argv[++i];
		} else if (!strcmp(argv[i], "--allow")) {
			if (policy_add(&agent_policy, argv[++i], err, sizeof(err)))
				usage_error("%s", err);
		} else if (agent_log_option(argv[i], argv[i + 1])) {
			i++;
		} else if (!strcmp(argv[i], "--fetch")) {
			if (set_fetch(argv[++i]))
				usage_error("bad --fetch '%s': want auto, ioctl or syscall", argv[i]);
		} else {
			usage_error("unknown or incomplete option '%s'", argv[i]);
		}
	}
	sk = sd_listen_socket("bind-agent", path);
	activated = sk >= 0;
	if (sk < 0 && !path)
		usage_error("--socket is required (or the socket from systemd, LISTEN_FDS)");
	probe_fetch("bind-agent");
	if (notif_sizes(&sizes)) {
		perror("bind-agent: seccomp(SECCOMP_GET_NOTIF_SIZES)");
		return 1;
	}
	if (sk >= 0) {
		struct sockaddr_un addr = { 0 };
		socklen_t alen = sizeof(addr) - 1;

		/* sd_listen_socket() took only a socket bound to a path */
		if (!getsockname(sk, (struct sockaddr *)&addr, &alen))
			check_socket_dir(addr.sun_path);
	} else if (path) {
		check_socket_dir(path);
		sk = listen_on(path);
	}
	if (sk < 0) {
		agent_log("error", "socket_refused", NULL, "listening on %s: %s", path, strerror(errno));
		return 1;
	}
	policy_format(&agent_policy, err, sizeof(err));
	{
		char members[4400], where[4200];

		json_string(where, sizeof(where), path);
		snprintf(members, sizeof(members), "\"socket\":%s,\"activated\":%s,\"version\":\"%s\"",
			 where, activated ? "true" : "false", bind_version);
		agent_log("info", "listening", members, "listening on %s%s; allowed: %s",
			  path ? path : "the socket", activated ? " (from systemd, LISTEN_FDS)" : "", err);
	}
	agent_log_start();
	if (pthread_attr_init(&attr) ||
	    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED)) {
		perror("bind-agent: pthread_attr");
		return 1;
	}
	sd_ready("bind-agent", "listening");
	for (;;) {
		struct timeval tv = { RECV_TIMEOUT, 0 };
		struct client *c;
		pthread_t t;
		int conn = accept4(sk, NULL, NULL, SOCK_CLOEXEC);

		if (conn < 0) {
			if (errno != EINTR && errno != ECONNABORTED) {
				perror("bind-agent: accept");
				sleep(1);	/* EMFILE and the like: let threads finish */
			}
			continue;
		}
		/* Slow or stuck clients must not take a thread each. */
		if (__atomic_add_fetch(&clients, 1, __ATOMIC_RELAXED) > MAX_CLIENTS) {
			__atomic_sub_fetch(&clients, 1, __ATOMIC_RELAXED);
			if (refused++ % 100 == 0)
				agent_log("warning", "client_limit", NULL,
					  "more than %d clients at once: connection refused (%lu so far)",
					  MAX_CLIENTS, refused);
			close(conn);
			continue;
		}
		c = calloc(1, sizeof(*c));
		if (!c || setsockopt(conn, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) ||
		    (c->conn = conn, pthread_create(&t, &attr, client_thread, c))) {
			agent_log("error", "client_failed", NULL, "cannot serve a client: %s; connection dropped",
				  strerror(errno));
			__atomic_sub_fetch(&clients, 1, __ATOMIC_RELAXED);
			free(c);
			close(conn);
		}
	}
}
