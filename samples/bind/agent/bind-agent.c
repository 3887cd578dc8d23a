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
#include <limits.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "agent-log.h"
#include "fdstore.h"
#include "../lib/bind-cli.h"
#include "../lib/call.h"
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
#define ALLOW_FILE_MAX 65536	/* bytes of --allow-file */

static unsigned int clients;	/* reading their message now */

/*
 * The policy: --allow's rules and --allow-file's, which SIGHUP reads
 * again (and counts, policy_gen). New containers narrow a copy of it,
 * taken under policy_lock, and join kept_list under it: one that SIGHUP
 * passed over meanwhile narrows the new one then (run_kept()).
 */
static struct policy cli_policy, agent_policy;
static unsigned long policy_gen;
/* what a container whose new policy we could not allocate gets */
static const struct policy no_port;
static const char *allow_file;
static pthread_mutex_t policy_lock = PTHREAD_MUTEX_INITIALIZER;
static struct seccomp_notif_sizes sizes;

/*
 * systemd's fd store (fdstore.h): in use when systemd gave us a
 * NOTIFY_SOCKET, which is where FDSTORE=1 goes. Serials name what we
 * store; the next agent starts after the highest it was given.
 */
static int fdstore;
static unsigned long long next_serial = 1;
static struct journal journal;
/* The journal slot of the notification this thread is answering. */
static __thread int journal_slot = -1;
/* ... and, in recover(), the tries its slot keeps (journal_entry) */
static __thread unsigned int journal_tries;
/* BIND_AGENT_TEST_DIE: tests only (fdstore_hook()). */
static const char *test_die, *test_poison;
static int testing;	/* either is set */

/* A container served: its listener, its record, its policy. */
struct kept {
	struct served served;		/* first: the hooks get &served */
	struct container_record rec;
	char fdname[FDNAME_MAX + 1];
	char name[200];
	/* served.policy: SIGHUP puts a new one before the ones it replaced */
	struct kept_policy { struct policy p; struct kept_policy *older; } *policy;
	unsigned long policy_gen;	/* of the agent_policy it narrowed */
	/* what the journal had in flight for it, from the agent before us */
	struct journal_entry *recovered;
	int *recovered_slots, nrecovered;
	int mark_slot;			/* its J_MARK slot, -1 until it has one */
	unsigned long long mark_id;	/* the agent before us left it, if has_mark */
	int has_mark;
	struct kept *next;
};
static struct kept *kept_list;
static pthread_mutex_t kept_lock = PTHREAD_MUTEX_INITIALIZER;

/*
 * A line of container @id's (agent_log()): "container ID" and TEXT, with
 * "container":ID and @members (a JSON fragment, or NULL) as JSON.
 */
static void __attribute__((format(printf, 5, 6)))
container_log(const char *id, const char *level, const char *event, const char *members,
	      const char *fmt, ...)
{
	char text[900], quoted[300], all[700];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	json_string(quoted, sizeof(quoted), id);
	snprintf(all, sizeof(all), "\"container\":%s%s%s", quoted, members ? "," : "",
		 members ? members : "");
	agent_log(level, event, all, "container %s%s", id, text);
}

static const char usage[] =
	"usage: bind-agent [-v] [--fetch auto|ioctl|syscall] [--socket PATH]\n"
	"                  [--allow tcp:PORT|udp:PORT ...] [--allow-file FILE]\n"
	"                  [--log-format text|json] [--metrics FILE]\n"
	"Serve the bind() calls of OCI containers whose runtime hands their seccomp\n"
	"listener to PATH (linux.seccomp.listenerPath): bind their sockets to the\n"
	"privileged ports --allow names, or to the fewer their listenerMetadata\n"
	"(\"allow=tcp:PORT,...\") names. Started by systemd with the socket passed\n"
	"(LISTEN_FDS), it serves that one, and --socket may be left out.\n"
	"  --allow-file FILE\n"
	"           more ports, read again at SIGHUP: tcp:PORT and udp:PORT separated\n"
	"           by blanks, commas or lines, '#' to the end of a line a comment;\n"
	"           owned by root, writable by no one else\n"
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
	return fd_link_is(fd, "anon_inode:seccomp notify");
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
	if (!valid_container_id(*id))
		return problem(c, "the container id is not 1-128 of [A-Za-z0-9_+-.]");
	return 0;
}

/* agent_policy now, and its generation */
static unsigned long policy_now(struct policy *p)
{
	unsigned long gen;

	pthread_mutex_lock(&policy_lock);
	*p = agent_policy;
	gen = policy_gen;
	pthread_mutex_unlock(&policy_lock);
	return gen;
}

/*
 * listenerMetadata "allow=SPEC,..." narrows the agent's policy into @p;
 * *@gen: the policy's generation.
 */
static int narrow(struct client *c, const char *metadata, struct policy *p, unsigned long *gen)
{
	char err[POLICY_LIST_MAX + 160];
	struct policy now;

	*gen = policy_now(&now);
	if (!*metadata) {
		*p = now;
		return 0;
	}
	/* It may go into our log: nothing that could break a line. */
	if (strspn(metadata, "abcdefghijklmnopqrstuvwxyz0123456789:=,") != strlen(metadata))
		return problem(c, "listenerMetadata has a character outside [a-z0-9:=,]");
	if (strncmp(metadata, "allow=", 6) || strlen(metadata + 6) >= POLICY_LIST_MAX)
		return problem(c, "listenerMetadata is not \"allow=tcp:PORT,udp:PORT,...\" (at most %d bytes)",
			       POLICY_LIST_MAX - 1);
	if (policy_parse_list(p, metadata + 6, &now, "listenerMetadata",
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

/*
 * --allow's rules and --allow-file's into @p: the file, owned by root and
 * writable by no one else, holds tcp:PORT and udp:PORT separated by
 * blanks, commas or lines; '#' starts a comment. 0, or -1 with @err.
 */
static int read_policy(struct policy *p, char *err, size_t len)
{
	char buf[ALLOW_FILE_MAX + 1], spec_err[160], *save = NULL;
	struct stat st;
	ssize_t n;
	int fd;

	*p = cli_policy;
	if (!allow_file)
		return 0;
	fd = open(allow_file, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0 || fstat(fd, &st)) {
		snprintf(err, len, "--allow-file %s: %s", allow_file, strerror(errno));
		goto fail;
	}
	if (!S_ISREG(st.st_mode) || st.st_uid != 0 || (st.st_mode & 022)) {
		snprintf(err, len, "--allow-file %s: want a regular file owned by root, writable by no one else (it is mode %04o, uid %u)",
			 allow_file, st.st_mode & 07777, st.st_uid);
		goto fail;
	}
	n = read(fd, buf, sizeof(buf));
	if (n < 0 || n > ALLOW_FILE_MAX) {
		snprintf(err, len, "--allow-file %s: %s", allow_file,
			 n < 0 ? strerror(errno) : "larger than 64 KiB");
		goto fail;
	}
	close(fd);
	buf[n] = '\0';
	for (char *c = buf; (c = strchr(c, '#'));)
		while (*c && *c != '\n')
			*c++ = ' ';
	for (char *spec = strtok_r(buf, " \t\r\n,", &save); spec;
	     spec = strtok_r(NULL, " \t\r\n,", &save)) {
		struct policy one = { .n = 0 };
		const struct rule *r = &one.rules[0];

		if (policy_add(&one, spec, spec_err, sizeof(spec_err))) {
			snprintf(err, len, "--allow-file %s: %s", allow_file, spec_err);
			return -1;
		}
		/* --allow's and the file's may say the same port */
		if (!policy_allows(p, r->type, r->protocol, r->port) &&
		    policy_add(p, spec, spec_err, sizeof(spec_err))) {
			snprintf(err, len, "--allow-file %s: %s", allow_file, spec_err);
			return -1;
		}
	}
	return 0;
fail:
	if (fd >= 0)
		close(fd);
	return -1;
}

/* The policy of @k under @within: its listenerMetadata's, narrowed. */
static struct kept_policy *kept_policy(struct kept *k, const struct policy *within,
				       char *dropped, size_t len)
{
	struct kept_policy *p = calloc(1, sizeof(*p));

	if (p && narrow_within(k->rec.metadata, within, &p->p, dropped, len)) {
		p->p.n = 0;
		snprintf(dropped, len, "every port (its listenerMetadata is not allow=... of at most %d rules)",
			 MAX_ALLOW);
	}
	return p;
}

/*
 * SIGHUP: --allow-file again, one line for what changed; every container
 * served gets the new policy, narrowed by its listenerMetadata. The
 * policy a thread may be deciding by is freed with its container.
 */
static void reload(void)
{
	char err[400], was[512], now[512], added[512] = "", removed[512] = "", dropped[POLICY_LIST_MAX];
	char members[100];
	struct policy p, old;
	size_t a = 0, r = 0;
	int served = 0, lose = 0;

	if (!allow_file) {
		agent_log("warning", "reload", "\"signal\":\"SIGHUP\"",
			  "SIGHUP: no --allow-file to read again: the policy stays --allow's");
		return;
	}
	if (read_policy(&p, err, sizeof(err))) {
		agent_log("error", "reload", "\"signal\":\"SIGHUP\"",
			  "SIGHUP: %s; the policy stays as it was", err);
		return;
	}
	pthread_mutex_lock(&policy_lock);
	old = agent_policy;
	agent_policy = p;
	policy_gen++;
	pthread_mutex_unlock(&policy_lock);
	for (int i = 0; i < p.n; i++)
		if (!policy_allows(&old, p.rules[i].type, p.rules[i].protocol, p.rules[i].port) && a < sizeof(added))
			a += (size_t)snprintf(added + a, sizeof(added) - a, " %s:%u",
					      p.rules[i].type == SOCK_DGRAM ? "udp" : "tcp", p.rules[i].port);
	for (int i = 0; i < old.n; i++)
		if (!policy_allows(&p, old.rules[i].type, old.rules[i].protocol, old.rules[i].port) && r < sizeof(removed))
			r += (size_t)snprintf(removed + r, sizeof(removed) - r, " %s:%u",
					      old.rules[i].type == SOCK_DGRAM ? "udp" : "tcp", old.rules[i].port);
	pthread_mutex_lock(&kept_lock);
	for (struct kept *k = kept_list; k; k = k->next) {
		struct kept_policy *np = kept_policy(k, &p, dropped, sizeof(dropped));

		if (!np) {
			/* fail closed: not the old policy, which may grant what was removed */
			__atomic_store_n(&k->served.policy, &no_port, __ATOMIC_RELEASE);
			container_log(k->rec.id, "error", "reload", NULL,
				      ": out of memory: served with no privileged port until the next SIGHUP");
			continue;
		}
		np->older = k->policy;
		k->policy = np;
		__atomic_store_n(&k->served.policy, &np->p, __ATOMIC_RELEASE);
		served++;
		lose += !!dropped[0];
	}
	pthread_mutex_unlock(&kept_lock);
	policy_format(&old, was, sizeof(was));
	policy_format(&p, now, sizeof(now));
	snprintf(members, sizeof(members), "\"signal\":\"SIGHUP\",\"containers\":%d,\"narrowed\":%d",
		 served, lose);
	agent_log("info", "reload", members,
		  "SIGHUP: allowed: %s (was %s; added:%s; removed:%s); %d containers served now have it, narrowed by their listenerMetadata (%d lose a port it asks for)",
		  now, was, a ? added : " none", r ? removed : " none", served, lose);
}

/*
 * BIND_AGENT_TEST_DIE=FILE, for the restart tests only: when FILE exists
 * and says "STEP ID", the agent removes it and kills itself with SIGKILL
 * at that step of a notification of container ID: "unjournaled" (received,
 * not yet in the journal), "received" (in the journal, nothing done) or
 * "sending" (bound, not answered).
 * BIND_AGENT_TEST_POISON=FILE: when FILE exists and says "deciding ID",
 * every agent that decides a notification of container ID kills itself
 * first, the one that received it and each that decides it again from the
 * journal: FILE stays (outside RuntimeDirectory=, which systemd empties at
 * each restart). Without the variables (the unit sets neither) nothing
 * here runs.
 */
static void maybe_die(const struct kept *k, const char *step)
{
	int poison = !strcmp(step, "deciding");
	const char *path = poison ? test_poison : test_die;
	char buf[200], want[200];
	ssize_t n;
	int fd = path ? open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW) : -1;

	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	snprintf(want, sizeof(want), "%s %s", step, k->rec.id);
	if (strcmp(buf, want) || (!poison && unlink(path)))
		return;
	agent_log("warning", "test_die", NULL, "%s: killing ourselves at '%s'",
		  poison ? "BIND_AGENT_TEST_POISON" : "BIND_AGENT_TEST_DIE", want);
	kill(getpid(), SIGKILL);
}

/*
 * The journal (notif_hook): a slot from receipt to answer, what we bind
 * in it before we bind. No slot, no bind: an agent that dies after it
 * could not tell the next one what it did.
 */
static int journal_hook(const struct served *s, const struct seccomp_notif *req,
			const struct call *c, enum notif_step step)
{
	struct kept *k = (struct kept *)s;	/* served is its first member */
	struct journal_entry e = { .state = J_RECEIVED, .serial = k->rec.serial, .fd = -1 };

	memcpy(&e.notif, req, sizeof(e.notif));
	switch (step) {
	case NOTIF_RECEIVED:
		if (testing)
			maybe_die(k, "unjournaled");
		journal_slot = journal_alloc(&journal);
		if (journal_slot >= 0 && journal_write(&journal, journal_slot, &e)) {
			journal_free(&journal, journal_slot);
			journal_slot = -1;
		}
		if (journal_slot < 0)
			container_log(k->rec.id, "error", "journal", NULL,
				      ": pid %d: the journal has no room for notification %llu: an agent started after us could not answer it",
				      req->pid, (unsigned long long)req->id);
		/* the last id received (threads race: the next agent looks around it) */
		if (k->mark_slot < 0) {
			int slot = journal_alloc(&journal);

			if (slot >= 0 && __atomic_compare_exchange_n(&k->mark_slot, &(int){ -1 }, slot, 0,
								     __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
				slot = -1;
			if (slot >= 0)
				journal_free(&journal, slot);
		}
		if (k->mark_slot >= 0) {
			struct journal_entry m = { .state = J_MARK, .serial = k->rec.serial };

			m.notif.id = req->id;
			journal_write(&journal, k->mark_slot, &m);
		}
		if (testing) {
			maybe_die(k, "received");
			maybe_die(k, "deciding");
		}
		return 0;
	case NOTIF_BINDING:
		if (journal_slot < 0)
			return -1;
		e.state = J_BINDING;
		e.tries = journal_tries;
		e.fd = c->fd;
		e.addrlen = (unsigned int)c->len;
		e.dev = c->dev;
		e.ino = c->ino;
		memcpy(e.addr, &c->addr, sizeof(e.addr));
		return journal_write(&journal, journal_slot, &e);
	case NOTIF_SENDING:
		if (testing)
			maybe_die(k, "sending");
		return 0;
	case NOTIF_ANSWERED:
		if (journal_slot >= 0)
			journal_free(&journal, journal_slot);
		journal_slot = -1;
		return 0;
	}
	return 0;
}

/* Whether @ss is the address journal entry @e asked for. */
static int same_address(const struct sockaddr_storage *ss, const struct journal_entry *e)
{
	struct sockaddr_in in, have4;
	struct sockaddr_in6 in6, have6;

	memcpy(&in, e->addr, sizeof(in));
	memcpy(&in6, e->addr, sizeof(in6));
	memcpy(&have4, ss, sizeof(have4));
	memcpy(&have6, ss, sizeof(have6));
	switch (in.sin_family) {
	case AF_INET:
		return have4.sin_family == AF_INET && have4.sin_port == in.sin_port &&
		       have4.sin_addr.s_addr == in.sin_addr.s_addr;
	case AF_UNSPEC:	/* INADDR_ANY on an AF_INET socket (valid_for()) */
		return have4.sin_family == AF_INET && have4.sin_port == in.sin_port &&
		       have4.sin_addr.s_addr == htonl(INADDR_ANY);
	case AF_INET6:
		return have6.sin6_family == AF_INET6 && have6.sin6_port == in6.sin6_port &&
		       !memcmp(&have6.sin6_addr, &in6.sin6_addr, sizeof(in6.sin6_addr));
	}
	return 0;
}

/*
 * Journal entry @e was J_BINDING: is the socket it names still the
 * program's fd, bound to the address it asked for? Then the agent before
 * us bound it (the program cannot bind a privileged port itself).
 */
static int bound_before(struct kept *k, const struct journal_entry *e)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	struct stat st;
	int thread, pidfd, fd, ok = 0;

	pidfd = open_process(e->notif.pid, k->served.thread_pidfd, &thread);
	if (pidfd < 0)
		return 0;
	fd = id_valid(k->served.listener, e->notif.id) ? fetch(pidfd, e->fd) : -1;
	if (fd >= 0) {
		ok = !fstat(fd, &st) && st.st_dev == (dev_t)e->dev && st.st_ino == (ino_t)e->ino &&
		     !getsockname(fd, (struct sockaddr *)&ss, &len) && same_address(&ss, e);
		close(fd);
	}
	close(pidfd);
	return ok;
}

/*
 * A notification the agent before us received and did not answer: the
 * kernel keeps it pending, and it cannot be received again. Still
 * pending (SECCOMP_IOCTL_NOTIF_ID_VALID): bound before (J_BINDING, and
 * bound_before()) is answered 0, what the bind did; anything else is
 * decided again, from the start, as if it were new, once: a decision that
 * kills the agent would otherwise be made by every agent systemd starts,
 * none serving any container. Its slot says so (tries) before we decide,
 * and an agent after us that finds it so refuses it (EPERM), as it does
 * every notification that was being decided again when an agent died:
 * which one killed it, nothing says. A SIGTERM waits for a decision here
 * as for serve()'s (serve_hold(), at most STOP_TIMEOUT). Returns 1 if
 * the agent is stopping: the notification is left as it is, slot and
 * all, for the next agent. No longer pending
 * (answered, or the caller gone, or a signal withdrew it): nothing to
 * answer; a bind already made is remembered, for the bind() the program
 * restarts after the signal (claim_bind()).
 */
#define RECOVER_TRIES 1	/* tries after which it is refused */
/* Refuse (EPERM) a notification recover() does not decide, saying @why. */
static void refuse_recovered(const struct kept *k, const struct journal_entry *e,
			     struct seccomp_notif_resp *resp, const char *why)
{
	int sent;

	memset(resp, 0, sizes.seccomp_notif_resp);
	resp->id = e->notif.id;
	resp->error = -EPERM;
	sent = !ioctl(k->served.listener, SECCOMP_IOCTL_NOTIF_SEND, resp);
	container_log(k->rec.id, "error", "recovered", NULL,
		      ": pid %d: notification %llu: %s: refused (EPERM), not decided once more%s",
		      e->notif.pid, (unsigned long long)e->notif.id, why,
		      sent ? "" : " (not delivered: the call was withdrawn)");
}

static int recover(struct kept *k, const struct journal_entry *e, int slot)
{
	struct seccomp_notif *req = calloc(1, sizes.seccomp_notif);
	struct seccomp_notif_resp *resp = calloc(1, sizes.seccomp_notif_resp);
	unsigned long long id = e->notif.id;
	struct call c = { .fd = -1 };
	struct journal_entry taken;
	struct timespec t0;
	int sent, held = 0;

	if (!req || !resp) {
		container_log(k->rec.id, "error", "recovered", NULL,
			      ": out of memory: notification %llu stays pending", id);
		goto out;
	}
	memcpy(req, &e->notif, sizeof(e->notif));
	if (!id_valid(k->served.listener, id)) {
		if (e->state == J_BINDING) {
			c.fd = e->fd;
			c.len = (int)e->addrlen;
			c.dev = (dev_t)e->dev;
			c.ino = (ino_t)e->ino;
			memcpy(&c.addr, e->addr, sizeof(e->addr));
			/* this listener's table: withdrawn, for its restart */
			if (!remember_bind(&k->served, &c, req))
				end_bind(&k->served, &c, id, 0);
		}
		container_log(k->rec.id, "info", "recovered", NULL,
			      ": pid %d: notification %llu, in flight when the agent before us stopped, is no longer pending: nothing to answer",
			      e->notif.pid, id);
		goto out;
	}
	/* (before anything that reads the container: that may kill us too) */
	if (e->tries >= RECOVER_TRIES) {
		refuse_recovered(k, e, resp, "an agent before us already decided it again from the journal and stopped before answering");
		goto out;
	}
	if (serve_hold()) {
		/* stopping: its slot stays, as it is, for the next agent */
		free(req);
		free(resp);
		return 1;
	}
	held = 1;
	taken = *e;
	taken.tries++;
	if (journal_write(&journal, slot, &taken)) {
		refuse_recovered(k, e, resp, "its slot in the journal could not say that we decide it again");
		goto out;
	}
	if (e->state == J_BINDING && bound_before(k, e)) {
		memset(resp, 0, sizeof(*resp));
		resp->id = id;
		sent = !ioctl(k->served.listener, SECCOMP_IOCTL_NOTIF_SEND, resp);
		container_log(k->rec.id, "info", "recovered", NULL,
			      ": pid %d: notification %llu: the agent before us bound its socket (fd %d) and stopped before answering: answered 0, the bind's result%s",
			      e->notif.pid, id, e->fd, sent ? "" : " (not delivered: the call was withdrawn)");
		goto out;
	}
	journal_slot = slot;
	journal_tries = taken.tries;
	if (testing)
		maybe_die(k, "deciding");
	clock_gettime(CLOCK_MONOTONIC, &t0);
	answer(&k->served, req, resp, &c, &t0);
	sent = !ioctl(k->served.listener, SECCOMP_IOCTL_NOTIF_SEND, resp);
	if (c.bound)
		end_bind(&k->served, &c, id, sent);
	journal_slot = -1;
	journal_tries = 0;
	container_log(k->rec.id, "info", "recovered", NULL,
		      ": pid %d: notification %llu, in flight when the agent before us stopped, decided again: answered %s%s",
		      e->notif.pid, id, resp->flags ? "by the kernel (continue)" :
		      resp->error ? strerror((int)-resp->error) : "0",
		      sent ? "" : " (not delivered: the call was withdrawn)");
out:
	journal_free(&journal, slot);
	if (held)
		serve_release();
	free(req);
	free(resp);
	return 0;
}

/*
 * Notifications the agent before us received and was killed before it
 * journaled: the kernel still holds them (SECCOMP_IOCTL_NOTIF_ID_VALID)
 * once every journaled one is answered, and their ids are near the last
 * one it marked (a listener's ids are one counter, next_id++ in
 * kernel/seccomp.c). Nothing says what they ask, and a filter may send us
 * any syscall, of which we grant bind() alone: they are refused (EPERM, as
 * decide_call() refuses what it does not decide). Letting the kernel do
 * them (SECCOMP_USER_NOTIF_FLAG_CONTINUE) would do what we refuse.
 */
#define LOST_WINDOW 64
static void answer_lost(struct kept *k)
{
	struct seccomp_notif_resp *resp = calloc(1, sizes.seccomp_notif_resp);

	if (!resp)
		return;
	for (long d = -LOST_WINDOW; d <= LOST_WINDOW; d++) {
		unsigned long long id = k->mark_id + (unsigned long long)d;
		int sent;

		if (!id_valid(k->served.listener, id))
			continue;
		memset(resp, 0, sizes.seccomp_notif_resp);
		resp->id = id;
		resp->error = -EPERM;
		sent = !ioctl(k->served.listener, SECCOMP_IOCTL_NOTIF_SEND, resp);
		container_log(k->rec.id, "info", "recovered", NULL,
			      ": notification %llu, received by the agent before us and not yet in its journal: nothing says what it asked: refused (EPERM)%s",
			      id, sent ? "" : " (not delivered: the call was withdrawn)");
	}
	free(resp);
}

/* FDSTORE=1 for @k: its listener and its record, one name. */
static void store(struct kept *k)
{
	char msg[300];
	int fds[2] = { k->served.listener, record_memfd(&k->rec) };

	if (fds[1] < 0) {
		container_log(k->rec.id, "warning", "fdstore", NULL,
			      ": its record: %s: not in systemd's fd store (a restart of the agent costs it its binds)",
			      strerror(errno));
		return;
	}
	snprintf(msg, sizeof(msg), "FDSTORE=1\nFDNAME=%s", k->fdname);
	if (!sd_notify_fds("bind-agent", msg, fds, 2))
		container_log(k->rec.id, "info", "fdstore", NULL,
			      ": its listener is in systemd's fd store, as %s", k->fdname);
	close(fds[1]);
}

/* FDSTOREREMOVE=1 for @k, whose listener is done. */
static void unstore(struct kept *k, const char *why)
{
	char msg[300];

	if (!fdstore)
		return;
	snprintf(msg, sizeof(msg), "FDSTOREREMOVE=1\nFDNAME=%s", k->fdname);
	if (!sd_notify_fds("bind-agent", msg, NULL, 0))
		container_log(k->rec.id, "info", "fdstore", NULL,
			      ": %s: removed from systemd's fd store (%s)", why, k->fdname);
}

/*
 * Serve @k until no task uses its filter: first what the agent before us
 * left in flight, then its notifications. Frees @k.
 */
static void *run_kept(void *arg)
{
	struct kept *k = arg;
	char dropped[POLICY_LIST_MAX], rules[512];
	struct kept_policy *np = NULL;
	int ret, passed_over, stopping = 0;

	k->served.hook_data = agent_container_begin(&k->served, k->rec.id);
	/*
	 * A SIGHUP since its policy was narrowed passed it over (reload()
	 * walks kept_list): the new policy, before it joins. Under
	 * policy_lock, so that no SIGHUP comes between.
	 */
	pthread_mutex_lock(&policy_lock);
	passed_over = k->policy_gen != policy_gen;
	if (passed_over) {
		np = kept_policy(k, &agent_policy, dropped, sizeof(dropped));
		if (np) {
			np->older = k->policy;
			k->policy = np;
		}
		/* as reload() does without memory: no privileged port */
		k->served.policy = np ? &np->p : &no_port;
		/* (a SIGHUP once it has joined replaces it) */
		policy_format(k->served.policy, rules, sizeof(rules));
	}
	pthread_mutex_lock(&kept_lock);
	k->next = kept_list;
	kept_list = k;
	pthread_mutex_unlock(&kept_lock);
	pthread_mutex_unlock(&policy_lock);
	if (passed_over)
		container_log(k->rec.id, np ? "info" : "error", "reload", NULL,
			      ": SIGHUP came while it was being taken: allowed now: %s%s%s", rules,
			      !np ? " (out of memory: no privileged port)" :
			      dropped[0] ? "; not granted now, though its listenerMetadata asks: " : "",
			      np ? dropped : "");
	for (int i = 0; i < k->nrecovered && !stopping; i++)
		stopping = recover(k, &k->recovered[i], k->recovered_slots[i]);
	/* (stopping: what it left pending is the next agent's, not lost) */
	if (k->has_mark && !stopping)
		answer_lost(k);
	free(k->recovered);
	free(k->recovered_slots);
	ret = serve_container(&k->served);
	if (ret)
		container_log(k->rec.id, "error", "container_done", NULL,
			      ": listener closed: its binds now fail with ENOSYS");
	else
		container_log(k->rec.id, "info", "container_done", NULL,
			      ": no task uses its filter any more: done");
	unstore(k, ret ? "its listener failed" : "done");
	pthread_mutex_lock(&kept_lock);
	for (struct kept **p = &kept_list; *p; p = &(*p)->next)
		if (*p == k) {
			*p = k->next;
			break;
		}
	pthread_mutex_unlock(&kept_lock);
	agent_container_end(k->served.hook_data);
	if (k->mark_slot >= 0)
		journal_free(&journal, k->mark_slot);
	close(k->served.listener);
	while (k->policy) {
		struct kept_policy *p = k->policy;

		k->policy = p->older;
		free(p);
	}
	free(k);
	return NULL;
}

static struct kept *new_kept(int listener)
{
	struct kept *k = calloc(1, sizeof(*k));

	if (!k)
		return NULL;
	k->served.listener = listener;
	k->served.only_bind = 1;
	k->mark_slot = -1;
	pthread_mutex_init(&k->served.recv_lock, NULL);
	return k;
}

static void *client_thread(void *arg)
{
	struct client *c = arg;
	struct json_object *state = NULL;
	struct policy policy;
	struct kept *k = NULL;
	socklen_t len = sizeof(c->peer);
	const char *id = "", *metadata = "";
	char rules[512], members[300];
	unsigned long gen;
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
	if (narrow(c, metadata, &policy, &gen))
		goto out;
	k = new_kept(c->fds[0]);
	if (!k || !(k->policy = calloc(1, sizeof(*k->policy)))) {
		problem(c, "out of memory");
		goto out;
	}
	k->policy->p = policy;
	k->policy_gen = gen;
	k->served.policy = &k->policy->p;
	k->rec.serial = __atomic_fetch_add(&next_serial, 1, __ATOMIC_RELAXED);
	snprintf(k->rec.id, sizeof(k->rec.id), "%s", id);
	snprintf(k->rec.metadata, sizeof(k->rec.metadata), "%s", metadata);
	k->rec.pid = pid;
	k->rec.runtime_pid = c->peer.pid;
	fdname_for(id, k->rec.serial, k->fdname, sizeof(k->fdname));
	snprintf(k->name, sizeof(k->name), "bind-agent: container %s", id);
	k->served.name = k->name;
	/* All we need is taken: one fd per container from now on. */
	c->nfds = 0;
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
	if (fdstore)
		store(k);
	run_kept(k);
	k = NULL;
out:
	if (k) {
		free(k->policy);
		free(k);
	}
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
 * must be root's and writable by no one else, and so must each one on the
 * way to it, which may instead be sticky (as /tmp is: no one else can
 * rename or remove what root made there). The way is walked as the
 * runtimes' connect() walks it: a symbolic link is followed, and must be
 * root's (another user's link in a sticky directory is theirs to point
 * elsewhere later); the directories it leads through are held to the same
 * rule. Exits 1 with a message if not.
 */
static void __attribute__((noreturn, format(printf, 1, 2))) socket_refused(const char *fmt, ...)
{
	char text[3 * PATH_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	agent_log("error", "socket_refused", NULL, "%s", text);
	exit(1);
}

/*
 * @dir may hold the entry lstat() gave @est for, on the way to @path's
 * socket; @est NULL: @dir is the socket's own directory, never sticky
 * (see check_socket_dir())
 */
static void check_holder(const char *dir, const struct stat *est, const char *path)
{
	struct stat st;

	if (stat(dir, &st))
		socket_refused("socket directory %s: %s", dir, strerror(errno));
	if (st.st_uid != 0 ||
	    ((st.st_mode & 022) && (!est || !(st.st_mode & S_ISVTX) || est->st_uid != 0)))
		socket_refused("socket directory %s is mode %04o owned by uid %u: want it owned by root and writable by no one else (a directory above the socket's may be sticky instead, as /tmp is, if what it holds on the way is root's), for %s",
			       dir, st.st_mode & 07777, st.st_uid, path);
}

static void check_socket_dir(const char *path)
{
	/* real: the way so far, without links; todo: what is left of it */
	char real[PATH_MAX] = "/", todo[2 * PATH_MAX], next[2 * PATH_MAX], entry[PATH_MAX];
	char target[PATH_MAX], *slash;
	struct stat st;
	int links = 0;

	if (path[0] == '/') {
		snprintf(todo, sizeof(todo), "%s", path);
	} else {
		if (!getcwd(real, sizeof(real)))
			socket_refused("the directory of socket %s: getcwd: %s", path, strerror(errno));
		snprintf(todo, sizeof(todo), "%s/%s", real, path);
		snprintf(real, sizeof(real), "/");
	}
	/* the socket's own name is not on the way */
	slash = strrchr(todo, '/');
	slash[1] = '\0';
	for (;;) {
		char *name = todo, *rest;
		ssize_t n;

		while (*name == '/')
			name++;
		if (!*name)
			break;
		rest = strchr(name, '/');
		if (rest)
			*rest++ = '\0';
		else
			rest = name + strlen(name);
		if (!strcmp(name, ".")) {
			memmove(todo, rest, strlen(rest) + 1);
			continue;
		}
		if (!strcmp(name, "..")) {
			/* real has no links: its parent is lexical */
			slash = strrchr(real, '/');
			slash[slash == real] = '\0';
			memmove(todo, rest, strlen(rest) + 1);
			continue;
		}
		if ((size_t)snprintf(entry, sizeof(entry), "%s%s%s", real, strcmp(real, "/") ? "/" : "",
				     name) >= sizeof(entry))
			socket_refused("socket path %s: too long", path);
		if (lstat(entry, &st))
			socket_refused("socket directory %s: %s", entry, strerror(errno));
		if (S_ISLNK(st.st_mode) && st.st_uid != 0)
			socket_refused("%s is a symbolic link owned by uid %u: want it root's, for %s",
				       entry, st.st_uid, path);
		check_holder(real, &st, path);
		if (S_ISLNK(st.st_mode)) {
			if (++links > 40)
				socket_refused("socket path %s: %s", path, strerror(ELOOP));
			n = readlink(entry, target, sizeof(target) - 1);
			if (n < 0)
				socket_refused("socket directory %s: %s", entry, strerror(errno));
			target[n] = '\0';
			if ((size_t)snprintf(next, sizeof(next), "%s/%s", target, rest) >= sizeof(todo))
				socket_refused("socket path %s: too long", path);
			memcpy(todo, next, strlen(next) + 1);
			if (target[0] == '/')
				snprintf(real, sizeof(real), "/");
			continue;
		}
		if (!S_ISDIR(st.st_mode))
			socket_refused("socket directory %s: not a directory", entry);
		memcpy(real, entry, strlen(entry) + 1);
		memmove(todo, rest, strlen(rest) + 1);
	}
	check_holder(real, NULL, path);
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
	int stopping;	/* STOPPING=1 to systemd first */
	char members[40];
	char text[128];
};

static void *say_line(void *arg)
{
	const struct signal_line *l = arg;

	if (l->stopping)
		sd_notify_fds("bind-agent", "STOPPING=1\nSTATUS=answering the notifications in flight", NULL, 0);
	agent_log(l->level, "signal", l->members, "%s", l->text);
	return NULL;
}

/*
 * SIGHUP: the policy again (reload()). SIGTERM and SIGINT: STOPPING=1,
 * answer the notifications in flight, then exit. The listeners stay in
 * systemd's fd store for the next agent (a restart); systemd closes them
 * if the service stops for good, and without systemd they close with us:
 * a container's later binds then fail with ENOSYS until it is created
 * again (docs/bind-agent.md). The STOP_TIMEOUT deadline starts at the
 * signal, before STOPPING=1 and any log write, and holds whatever the
 * log or the service manager's socket does (R3.3).
 */
static void *on_signals(void *set)
{
	static struct signal_line start, end;
	struct timespec now, deadline;
	int sig = 0, drained, said;
	pthread_t t;
	const char *name;

	while (!sigwait(set, &sig) && sig == SIGHUP)
		reload();
	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += STOP_TIMEOUT;
	name = sig == SIGTERM ? "SIGTERM" : "SIGINT";
	snprintf(start.members, sizeof(start.members), "\"signal\":\"%s\"", name);
	snprintf(end.members, sizeof(end.members), "\"signal\":\"%s\"", name);
	start.level = "info";
	start.stopping = 1;
	snprintf(start.text, sizeof(start.text), "%s: answering the notifications in flight", name);
	/*
	 * STOPPING=1 and the log lines are sent by threads of their own
	 * (sendmsg() to a full NOTIFY_SOCKET blocks, and a worker blocked
	 * in a write to a stalled stderr may hold its lock); the exit
	 * waits for them until the deadline, plus a second, at most.
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
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	/* No terminal to lose: a hang-up reads the policy again. */
	sigaddset(&set, SIGHUP);
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

/* What systemd's fd store gave back to us. */
static void forget(const char *name, const char *why, int fd1, int fd2)
{
	char msg[300], quoted[300], members[320];

	json_string(quoted, sizeof(quoted), name);
	snprintf(members, sizeof(members), "\"fdname\":%s", quoted);
	agent_log("warning", "fdstore", members, "fd store: %s: %s; removed from it", name, why);
	snprintf(msg, sizeof(msg), "FDSTOREREMOVE=1\nFDNAME=%s", name);
	sd_notify_fds("bind-agent", msg, NULL, 0);
	if (fd1 >= 0)
		close(fd1);
	if (fd2 >= 0)
		close(fd2);
}

/*
 * Take back what the fd store passed us (LISTEN_FDNAMES): the journal,
 * and each container's listener with its record, checked; start serving
 * them once the journal's entries are theirs. A listener without its
 * record, or a record that does not check, is not served with the
 * agent's whole policy: it gets none (no privileged port; its other binds
 * go on to the kernel).
 */
static void take_back(struct sd_fd *fds, int n)
{
	struct journal_entry *entries = NULL;
	struct kept **ks = calloc((size_t)n + 1, sizeof(*ks));
	int *slots = NULL, nentries = 0, corrupt = 0, nk = 0, jfd = -1;
	char err[300], dropped[POLICY_LIST_MAX], quoted[300], members[320];
	struct policy now;
	unsigned long gen;

	if (!ks) {
		agent_log("error", "out_of_memory", NULL, "out of memory");
		exit(1);
	}
	for (int i = 0; i < n; i++)
		if (!strcmp(fds[i].name, JOURNAL_FDNAME) && jfd < 0) {
			jfd = fds[i].fd;
			fds[i].fd = -1;
		}
	if (journal_open(&journal, jfd, err, sizeof(err))) {
		if (jfd < 0) {
			agent_log("error", "journal", NULL, "the journal: %s", err);
			exit(1);
		}
		forget(JOURNAL_FDNAME, err, jfd, -1);
		if (journal_open(&journal, -1, err, sizeof(err))) {
			agent_log("error", "journal", NULL, "the journal: %s", err);
			exit(1);
		}
		jfd = -1;
	}
	if (jfd < 0 && fdstore) {
		char msg[] = "FDSTORE=1\nFDNAME=" JOURNAL_FDNAME;

		sd_notify_fds("bind-agent", msg, &journal.fd, 1);
	}
	if (journal_load(&journal, &entries, &slots, &nentries, &corrupt)) {
		agent_log("error", "journal", NULL, "reading the journal: %s", strerror(errno));
		exit(1);
	}
	if (corrupt)
		agent_log("warning", "journal", NULL, "the journal had %d slots neither free nor whole: cleared", corrupt);
	gen = policy_now(&now);
	for (int i = 0; i < n; i++) {
		unsigned long long serial = fdname_serial(fds[i].name);
		int listener = -1, record = -1;
		struct kept *k;

		if (fds[i].fd < 0)
			continue;
		if (!serial) {
			forget(fds[i].name, "not a name of ours", fds[i].fd, -1);
			continue;
		}
		/* its pair: the same name, once */
		for (int j = i; j < n; j++) {
			if (fds[j].fd < 0 || strcmp(fds[j].name, fds[i].name))
				continue;
			if (is_listener(fds[j].fd) && listener < 0)
				listener = fds[j].fd;
			else if (!is_listener(fds[j].fd) && record < 0)
				record = fds[j].fd;
			else
				close(fds[j].fd);
			if (j > i)
				fds[j].fd = -1;
		}
		fds[i].fd = -1;
		if (serial >= next_serial)
			next_serial = serial + 1;
		if (listener < 0) {
			forget(fds[i].name, "no seccomp listener (its container is gone)", record, -1);
			continue;
		}
		k = new_kept(listener);
		if (!k) {
			agent_log("error", "out_of_memory", NULL, "out of memory");
			exit(1);
		}
		err[0] = '\0';
		if (record < 0 || record_read(record, &k->rec, err, sizeof(err)) ||
		    k->rec.serial != serial) {
			if (record >= 0 && !err[0])
				snprintf(err, sizeof(err), "its serial is not its name's");
			json_string(quoted, sizeof(quoted), fds[i].name);
			snprintf(members, sizeof(members), "\"fdname\":%s", quoted);
			agent_log("warning", "fdstore", members,
				  "fd store: %s: its record: %s: serving it with no privileged port",
				  fds[i].name, record < 0 ? "missing" : err);
			memset(&k->rec, 0, sizeof(k->rec));
			k->rec.serial = serial;
			snprintf(k->rec.id, sizeof(k->rec.id), "unknown-%llu", serial);
			snprintf(k->rec.metadata, sizeof(k->rec.metadata), "allow=");
		}
		if (record >= 0)
			close(record);
		snprintf(k->fdname, sizeof(k->fdname), "%s", fds[i].name);
		snprintf(k->name, sizeof(k->name), "bind-agent: container %s", k->rec.id);
		k->served.name = k->name;
		k->policy = kept_policy(k, &now, dropped, sizeof(dropped));
		if (!k->policy) {
			agent_log("error", "out_of_memory", NULL, "out of memory");
			exit(1);
		}
		k->policy_gen = gen;
		k->served.policy = &k->policy->p;
		policy_format(&k->policy->p, err, sizeof(err));
		snprintf(members, sizeof(members), "\"pid\":%d,\"runtime_pid\":%d,\"fdstore\":true",
			 k->rec.pid, k->rec.runtime_pid);
		container_log(k->rec.id, "info", "container_serving", members,
			      " (pid %d, from runtime pid %d): serving its listener again, from systemd's fd store; allowed: %s%s%s",
			      k->rec.pid, k->rec.runtime_pid, err,
			      dropped[0] ? "; not granted now, though its listenerMetadata asks: " : "", dropped);
		ks[nk++] = k;
	}
	/* the journal's entries go to their containers; the rest are done */
	for (int e = 0; e < nentries; e++) {
		struct kept *k = NULL;

		for (int i = 0; i < nk && !k; i++)
			if (ks[i]->rec.serial == entries[e].serial)
				k = ks[i];
		if (!k || (entries[e].state == J_MARK && k->mark_slot >= 0)) {
			journal_free(&journal, slots[e]);
			continue;
		}
		if (entries[e].state == J_MARK) {
			k->mark_slot = slots[e];
			k->mark_id = entries[e].notif.id;
			k->has_mark = 1;
			continue;
		}
		if (!k->recovered) {
			k->recovered = calloc((size_t)nentries, sizeof(*k->recovered));
			k->recovered_slots = calloc((size_t)nentries, sizeof(int));
			if (!k->recovered || !k->recovered_slots) {
				agent_log("error", "out_of_memory", NULL, "out of memory");
				exit(1);
			}
		}
		k->recovered[k->nrecovered] = entries[e];
		k->recovered_slots[k->nrecovered++] = slots[e];
	}
	if (n || nentries)
	{
		snprintf(members, sizeof(members), "\"containers\":%d,\"notifications\":%d", nk, nentries);
		agent_log("info", "fdstore", members,
			  "from systemd's fd store: %d containers, %d notifications in flight", nk, nentries);
	}
	for (int i = 0; i < nk; i++) {
		pthread_t t;

		if (pthread_create(&t, NULL, run_kept, ks[i]) || pthread_detach(t)) {
			container_log(ks[i]->rec.id, "error", "fdstore", NULL,
				      ": cannot serve it again: %s", strerror(errno));
			exit(1);
		}
	}
	free(entries);
	free(slots);
	free(ks);
}

/*
 * WATCHDOG_USEC (and WATCHDOG_PID, ours if set): the interval systemd
 * wants WATCHDOG=1 in, in microseconds; 0 if it wants none.
 */
static long long watchdog_usec(void)
{
	const char *usec = getenv("WATCHDOG_USEC"), *pid = getenv("WATCHDOG_PID");
	long long v;

	if (!usec || (pid && parse_number(pid, 1, 0x7fffffff) != getpid()))
		return 0;
	v = strtoll(usec, NULL, 10);
	unsetenv("WATCHDOG_USEC");
	unsetenv("WATCHDOG_PID");
	return v > 0 ? v : 0;
}

static long long now_usec(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000000 + t.tv_nsec / 1000;
}

int main(int argc, char **argv)
{
	const char *path = NULL;
	unsigned long refused = 0;
	pthread_attr_t attr;
	struct sd_fd *stored;
	char err[400];
	int sk, activated, nstored;
	long long watchdog, last_ping = 0;

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
			if (policy_add(&cli_policy, argv[++i], err, sizeof(err)))
				usage_error("%s", err);
		} else if (!strcmp(argv[i], "--allow-file")) {
			if (allow_file)
				usage_error("--allow-file given twice");
			allow_file = argv[++i];
		} else if (agent_log_option(argv[i], argv[i + 1])) {
			i++;
		} else if (!strcmp(argv[i], "--fetch")) {
			if (set_fetch(argv[++i]))
				usage_error("bad --fetch '%s': want auto, ioctl or syscall", argv[i]);
		} else {
			usage_error("unknown or incomplete option '%s'", argv[i]);
		}
	}
	if (read_policy(&agent_policy, err, sizeof(err))) {
		agent_log("error", "policy_error", NULL, "%s", err);
		return 1;
	}
	sk = sd_listen_socket("bind-agent", path, &stored, &nstored);
	activated = sk >= 0;
	if (sk < 0 && !path)
		usage_error("--socket is required (or the socket from systemd, LISTEN_FDS)");
	fdstore = sd_notify_init("bind-agent") > 0;
	watchdog = watchdog_usec();
	test_die = getenv("BIND_AGENT_TEST_DIE");
	test_poison = getenv("BIND_AGENT_TEST_POISON");
	testing = test_die || test_poison;
	unsetenv("BIND_AGENT_TEST_DIE");
	unsetenv("BIND_AGENT_TEST_POISON");
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
	notif_hook = journal_hook;
	take_back(stored, nstored);
	free(stored);
	sd_ready("bind-agent", "listening");
	for (;;) {
		struct timeval tv = { RECV_TIMEOUT, 0 };
		struct pollfd pfd = { sk, POLLIN, 0 };
		struct client *c;
		pthread_t t;
		int conn;

		/*
		 * WATCHDOG=1 from here, at half the interval: this loop takes
		 * containers, and the lock every notification's journal slot
		 * takes must be free. A container whose own binds hang does
		 * not stop it: that must not restart the agent of every other.
		 */
		if (watchdog && now_usec() - last_ping >= watchdog / 2 && journal_responsive(&journal)) {
			sd_notify_fds("bind-agent", "WATCHDOG=1", NULL, 0);
			last_ping = now_usec();
		}
		if (poll(&pfd, 1, watchdog ? (int)(watchdog / 4000) + 1 : -1) != 1)
			continue;
		conn = accept4(sk, NULL, NULL, SOCK_CLOEXEC);
		if (conn < 0) {
			if (errno != EINTR && errno != ECONNABORTED && errno != EAGAIN) {
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
