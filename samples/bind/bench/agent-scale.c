// SPDX-License-Identifier: GPL-2.0
/*
 * agent-scale [-L] [-S UNIT] [-s SIZES] [-n BINDS] [-p PORT]: one
 * bind-agent serving SIZES containers (default 10,100,1000), as TAP with
 * the rows of make bench. Run as root from the directory that holds
 * bind-agent and agent-client, in a network namespace where PORT (default
 * 80) is free.
 *
 * For each size, a fresh agent (--allow tcp:PORT) and that many
 * containers, each started by agent-client as a runtime would start it:
 * a process of its own (uid 1000) under its own filter, whose listener
 * agent-client hands to the agent with the container's state. At most
 * WINDOW containers are being started at once (the agent reads at most
 * 64 clients' messages at a time). Then, per size:
 *   served     how many containers the agent serves: their first bind()
 *              of PORT was granted
 *   the agent  its resident memory (Rss of /proc/PID/smaps_rollup, which
 *              the kernel counts by walking the page tables: VmRSS of
 *              /proc/PID/status lags on kernels that count it per thread,
 *              as 6.1's SPLIT_RSS_COUNTING does), open fds and threads,
 *              once every container is served and the thread count is
 *              steady; and the machine's memory in use then (MemTotal -
 *              MemAvailable of /proc/meminfo: the containers too)
 *   load       every container at once does BINDS times socket(),
 *              SO_REUSEADDR, bind() of 127.0.0.1:PORT (granted: the
 *              agent fetches, checks and binds), close(); each bind()
 *              timed in the container; p50, p99 and max over all of them
 *   restart    the agent restarted, and one bind() in every container:
 *              the time from the restart's start to the last container's
 *              bind granted. Without -S, SIGTERM and the same agent
 *              started again: a container's listener dies with the agent,
 *              its bind fails with ENOSYS, and the row says "not
 *              measured" and how many failed.
 * "# scale," lines carry the figures (boot/bench/tables.awk); a size's
 * point is ok if every container was served and every bind of the load
 * granted.
 *
 * -S UNIT: the agent is systemd's service UNIT (bind-agent.service, as
 * samples/bind/deploy/systemd installs it; systemd is PID 1), with a
 * drop-in that sets BIND_AGENT_OPTS to --allow tcp:PORT; the socket is
 * the one its socket unit listens on. A size starts it afresh
 * (systemctl stop, start), and the restart is 'systemctl restart': the
 * listeners wait in systemd's fd store for the next agent
 * (docs/bind-agent.md, "Restart, crash and upgrade").
 *
 * -L raises kernel.threads-max and kernel.pid_max for the largest size,
 * where lower: the whole machine's limits, so for a guest of its own (the
 * bench suites' lines), never a shared machine.
 *
 * agent-scale --container FD BINDS PORT: one container's program.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench-rows.h"

#define MAX_BINDS 1000
#define WINDOW 16		/* containers being started at once */
#define START_TIMEOUT_MS 60000	/* for one container's first answer */
#define LOAD_TIMEOUT_MS 600000	/* for the whole load */
#define CONTAINER_FD 3		/* the container's end of its socketpair */

/* What a container reports: one message per command. */
struct report {
	int32_t err;		/* the last bind()'s errno, 0 if granted */
	int32_t n;		/* how many ns[] follow */
	double ns[MAX_BINDS];
};

static int bind_once(int port, double *ns)
{
	struct sockaddr_in in = {
		.sin_family = AF_INET,
		.sin_port = htons(port),
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), err = 0;
	double t0;

	/* Never listened on: the containers share the port (decide.c's probe too). */
	if (s < 0 || setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &(int){ 1 }, sizeof(int)))
		return errno ? errno : EIO;
	t0 = now_ns();
	if (bind(s, (struct sockaddr *)&in, sizeof(in)))
		err = errno;
	*ns = now_ns() - t0;
	close(s);
	return err;
}

/*
 * The container: one bind() at once (granted once the agent serves us),
 * then commands from the driver: 'g' BINDS timed binds, 'b' one bind,
 * 'x' exit. Each is answered with a report.
 */
static int container(int fd, int binds, int port)
{
	static struct report r;
	char cmd = 's';

	do {
		int n = cmd == 'g' ? binds : 1;

		r.err = 0;
		r.n = 0;
		for (int i = 0; i < n && !r.err; i++, r.n++)
			r.err = bind_once(port, &r.ns[i]);
		if (send(fd, &r, offsetof(struct report, ns) + r.n * sizeof(double), 0) < 0)
			return 1;
	} while (read(fd, &cmd, 1) == 1 && cmd != 'x');
	return 0;
}

struct box {
	pid_t pid;		/* agent-client's */
	int sk;			/* our end of its socketpair */
	int err;		/* its last report's errno; -1: none yet */
};

static char dir[] = "/tmp/agent-scale.XXXXXX";
static char sock[108], self[4096];
static int port = 80;
static const char *unit;	/* -S: the agent is this systemd service */
static char dropin[300], env[300];	/* our drop-in and its environment file */

/*
 * systemctl VERB [UNIT]: its exit status, -1 if it did not exit. Not its
 * warning that the socket unit can start the service it stops.
 */
static int systemctl(const char *verb, const char *of)
{
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY | O_CLOEXEC);

		if (!strcmp(verb, "stop") && null >= 0)
			dup2(null, 2);
		execlp("systemctl", "systemctl", verb, of, (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* systemctl show -P PROPERTY UNIT: its value's first line in @buf, 0 if any */
static int systemctl_show(const char *property, const char *of, char *buf, int len)
{
	char cmd[512];
	FILE *p;
	int ok;

	snprintf(cmd, sizeof(cmd), "systemctl show -P '%s' '%s'", property, of);
	p = popen(cmd, "re");
	ok = p && fgets(buf, len, p);
	if (p && pclose(p))
		ok = 0;
	buf[ok ? strcspn(buf, "\n") : 0] = '\0';
	return ok && buf[0] ? 0 : -1;
}

/*
 * -S: the socket the unit's socket unit listens on ("PATH (Stream)"), and
 * a drop-in that gives the agent --allow tcp:PORT: the unit's ExecStart
 * has $BIND_AGENT_OPTS, and an EnvironmentFile= read after the unit's own
 * (/etc/default/bind-agent) wins.
 */
static int unit_setup(void)
{
	char by[256], listen[256], dir[256];
	FILE *f;

	if (systemctl_show("TriggeredBy", unit, by, sizeof(by)) ||
	    systemctl_show("Listen", strtok(by, " "), listen, sizeof(listen)) ||
	    (size_t)snprintf(sock, sizeof(sock), "%.*s", (int)strcspn(listen, " "), listen) >=
		    sizeof(sock))
		return fprintf(stderr, "agent-scale: %s has no socket unit listening on a path\n",
			       unit), -1;
	snprintf(dir, sizeof(dir), "/run/systemd/system/%s.d", unit);
	if (mkdir(dir, 0755) && errno != EEXIST)
		return perror(dir), -1;
	/* (systemd reads only the *.conf files of a drop-in directory) */
	snprintf(env, sizeof(env), "%s/agent-scale.env", dir);
	snprintf(dropin, sizeof(dropin), "%s/agent-scale.conf", dir);
	f = fopen(env, "we");
	if (!f || fprintf(f, "BIND_AGENT_OPTS=\"--allow tcp:%d\"\n", port) < 0 || fclose(f))
		return perror(env), -1;
	f = fopen(dropin, "we");
	if (!f || fprintf(f, "[Service]\nEnvironmentFile=%s\n", env) < 0 || fclose(f))
		return perror(dropin), -1;
	return systemctl("daemon-reload", NULL) ? -1 : 0;
}

static void unit_teardown(void)
{
	systemctl("stop", unit);
	unlink(dropin);
	unlink(env);
	systemctl("daemon-reload", NULL);
}

/* The unit's last journal lines, as TAP comments: why it failed. */
static void unit_journal(void)
{
	char cmd[300], line[512];
	FILE *p;

	snprintf(cmd, sizeof(cmd), "journalctl -u '%s' --no-pager -o short-monotonic -n 40", unit);
	p = popen(cmd, "re");
	while (p && fgets(line, sizeof(line), p))
		printf("#   %s", line);
	if (p)
		pclose(p);
}

/* The unit (re)started by @verb: its main pid, -1 if it is not running. */
static pid_t unit_start(const char *verb)
{
	char pid[32];

	if (systemctl(verb, unit) || systemctl_show("MainPID", unit, pid, sizeof(pid)) ||
	    atoi(pid) <= 0) {
		fprintf(stderr, "agent-scale: systemctl %s %s failed (journalctl -u %s)\n", verb,
			unit, unit);
		return -1;
	}
	return atoi(pid);
}

static pid_t start_agent(int size, int generation)
{
	char log[96], allow[16];
	pid_t pid;

	/* A fresh agent: the stored listeners go with the old one. */
	if (unit)
		return systemctl("stop", unit) ? -1 : unit_start("start");
	snprintf(log, sizeof(log), "%s/agent-%d-%d.log", dir, size, generation);
	snprintf(allow, sizeof(allow), "tcp:%d", port);
	unlink(sock);
	pid = fork();
	if (pid == 0) {
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

		if (fd < 0 || dup2(fd, 2) < 0)
			_exit(127);
		execl("./bind-agent", "bind-agent", "--socket", sock, "--allow", allow, (char *)NULL);
		_exit(127);
	}
	/* Serving once its socket is there. */
	for (int i = 0; pid > 0 && i < 1000; i++) {
		struct stat st;

		if (!lstat(sock, &st) && S_ISSOCK(st.st_mode))
			return pid;
		if (waitpid(pid, NULL, WNOHANG) == pid) {
			pid = 0;
			break;
		}
		usleep(10000);
	}
	/* No agent left behind for the guest's init to find. */
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
	fprintf(stderr, "agent-scale: bind-agent did not start (its log: %s)\n", log);
	return -1;
}

static int start_container(struct box *b, int size, int i, int binds)
{
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
		return -1;
	b->pid = fork();
	if (b->pid == 0) {
		char id[32], fd[8], n[12], p[8];

		/* a group of its own, agent-client and the program: one kill */
		setpgid(0, 0);
		/* fd 3 without FD_CLOEXEC, through agent-client to the program */
		if (sv[1] == CONTAINER_FD ? fcntl(sv[1], F_SETFD, 0) : dup2(sv[1], CONTAINER_FD) < 0)
			_exit(127);
		snprintf(id, sizeof(id), "scale-%d-%d", size, i);
		snprintf(fd, sizeof(fd), "%d", CONTAINER_FD);
		snprintf(n, sizeof(n), "%d", binds);
		snprintf(p, sizeof(p), "%d", port);
		execl("./agent-client", "agent-client", sock, "run", "--id", id, "--",
		      self, "--container", fd, n, p, (char *)NULL);
		_exit(127);
	}
	close(sv[1]);
	if (b->pid < 0) {
		close(sv[0]);
		return -1;
	}
	b->sk = sv[0];
	b->err = -1;
	return 0;
}

/*
 * Read one report from each of @boxes[0..n) that has one pending (all,
 * or those with err -1 when @pending_only), into their err and @ns, until
 * @want have answered or @ms passed. Returns how many answered; *@last
 * is when the last of them did.
 */
static int collect(struct box *boxes, int n, int want, int ms, double *ns, size_t *nns,
		   double *last)
{
	static struct report r;
	struct pollfd *pfd = calloc(n, sizeof(*pfd));
	double deadline = now_ns() + ms * 1e6;
	int got = 0;

	if (!pfd)
		return 0;
	for (int i = 0; i < n; i++)
		pfd[i] = (struct pollfd){ boxes[i].err == -1 ? boxes[i].sk : -1, POLLIN, 0 };
	while (got < want) {
		int left = (int)((deadline - now_ns()) / 1e6);

		if (left <= 0 || poll(pfd, n, left) <= 0)
			break;
		for (int i = 0; i < n; i++) {
			ssize_t len;

			if (pfd[i].fd < 0 || !pfd[i].revents)
				continue;
			len = recv(pfd[i].fd, &r, sizeof(r), 0);
			pfd[i].fd = -1;
			got++;
			*last = now_ns();
			if (len < (ssize_t)offsetof(struct report, ns)) {
				boxes[i].err = EPIPE;	/* the container died */
				continue;
			}
			boxes[i].err = r.err;
			for (int k = 0; ns && k < r.n && k < MAX_BINDS; k++)
				ns[(*nns)++] = r.ns[k];
		}
	}
	free(pfd);
	return got;
}

static void command(struct box *boxes, int n, char cmd)
{
	for (int i = 0; i < n; i++) {
		boxes[i].err = -1;
		if (send(boxes[i].sk, &cmd, 1, MSG_NOSIGNAL) != 1)
			boxes[i].err = EPIPE;
	}
}

/* The first "@key %ld" line of @path (kB in the /proc files read here), -1 if none. */
static long proc_field(const char *path, const char *key)
{
	char line[256], fmt[64];
	FILE *f = fopen(path, "re");
	long v = -1;

	snprintf(fmt, sizeof(fmt), "%s %%ld", key);
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, fmt, &v) == 1)
			break;
	if (f)
		fclose(f);
	return v;
}

/* The machine's memory in use (kB): MemTotal - MemAvailable. */
static long mem_used(void)
{
	long total = proc_field("/proc/meminfo", "MemTotal:");
	long avail = proc_field("/proc/meminfo", "MemAvailable:");

	return total < 0 || avail < 0 ? -1 : total - avail;
}

/* Rss (kB, from the page tables) and Threads of @pid, and its open fds. */
static void agent_usage(pid_t pid, long *rss, long *threads, long *fds)
{
	char path[64];
	struct dirent *d;
	DIR *dd;

	snprintf(path, sizeof(path), "/proc/%d/smaps_rollup", pid);
	*rss = proc_field(path, "Rss:");
	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	*threads = proc_field(path, "Threads:");
	snprintf(path, sizeof(path), "/proc/%d/fd", pid);
	dd = opendir(path);
	for (*fds = 0; dd && (d = readdir(dd));)
		if (d->d_name[0] != '.')
			++*fds;
	if (dd)
		closedir(dd);
}

static int count_err(const struct box *boxes, int n, int err)
{
	int k = 0;

	for (int i = 0; i < n; i++)
		k += boxes[i].err == err;
	return k;
}

/*
 * Tasks per container, measured between the last two sizes: the agent's
 * threads, and agent-client with the program. 0 before two sizes ran.
 */
static double per_container;
static int last_size, first_size;
static long last_threads;
/* ... and the memory in use per container (kB), measured so too */
static double mem_per_container;
static long last_mem;

static long read_long(const char *path)
{
	FILE *f = fopen(path, "re");
	long t = -1;

	if (!f || fscanf(f, "%ld", &t) != 1)
		t = -1;
	if (f)
		fclose(f);
	return t;
}

/* How many tasks the kernel lets exist: threads-max, and pid_max's pids. */
static long threads_max(void)
{
	return read_long("/proc/sys/kernel/threads-max");
}

static long pid_max(void)
{
	return read_long("/proc/sys/kernel/pid_max");
}

/*
 * -L (the bench guest's suite line only: these are the whole machine's
 * limits): kernel.threads-max and kernel.pid_max raised to @tasks where
 * they are lower. pid_max cannot pass PID_MAX_LIMIT (32768 on a
 * CONFIG_BASE_SMALL kernel, as the guests' are): the kernel refuses more,
 * and the size check above then says which size does not fit.
 */
static void raise_task_limits(long tasks)
{
	static const char *const files[] = { "/proc/sys/kernel/threads-max",
					      "/proc/sys/kernel/pid_max" };

	for (int i = 0; i < 2; i++) {
		long want = tasks;
		FILE *f;

		if (read_long(files[i]) >= want)
			continue;
		for (; want >= 1024; want = i ? (want > 32768 ? 32768 : want / 2) : want / 2) {
			f = fopen(files[i], "w");
			if (!f)
				break;
			fprintf(f, "%ld\n", want);
			if (!fclose(f))
				break;
		}
		printf("# %s: %ld (wanted %ld)\n", files[i], read_long(files[i]), tasks);
	}
}

/* One size: the TAP point's status, 0 if ok. */
static int one_size(int point, int size, int binds)
{
	struct box *boxes = calloc(size, sizeof(*boxes));
	double *ns = calloc((size_t)size * binds, sizeof(double)), last = 0, t0, load_s;
	long rss, threads, fds, prev = -1, used;
	size_t nns = 0;
	int started = 0, served, granted, bad = 0, enosys, restarted;
	long avail;
	pid_t agent;

	if (!boxes || !ns)
		return printf("not ok %d containers_%d: out of memory\n", point, size), 1;
	/* Not into the kernel's task limits: that would take the guest with it. */
	if (per_container > 0 && (per_container * size > threads_max() ||
				  per_container * size > pid_max()))
		return printf("not ok %d containers_%d: they would take about %.0f tasks (%.1f each, as measured from %d to %d containers), over kernel.threads-max %ld (set_max_threads(): RAM / (8 * THREAD_SIZE)) or kernel.pid_max %ld\n",
			      point, size, per_container * size, per_container, first_size, last_size,
			      threads_max(), pid_max()), 1;
	/* Nor into the guest's memory: the OOM killer would end the agent. */
	avail = proc_field("/proc/meminfo", "MemAvailable:");
	if (mem_per_container > 0 && avail >= 0 && mem_per_container * size > 0.9 * avail)
		return printf("not ok %d containers_%d: they would take about %.0f MiB (%.0f kB each, as measured from %d to %d containers), over 90%% of MemAvailable, %ld kB\n",
			      point, size, mem_per_container * size / 1024, mem_per_container,
			      first_size, last_size, avail), 1;
	agent = start_agent(size, 1);
	if (agent < 0)
		return printf("not ok %d containers_%d: bind-agent did not start\n", point, size), 1;
	/*
	 * Start them WINDOW at a time; each first bind() says it is served.
	 * One that cannot be started (fork() or socketpair() failed: a task
	 * or memory limit) ends the starting, and the size fails.
	 */
	for (int done = 0, start_err = 0; done < size;) {
		while (!start_err && started < size && started - done < WINDOW) {
			if (start_container(&boxes[started], size, started, binds)) {
				start_err = errno;
				printf("# containers_%d: container %d could not be started: %s; no more are\n",
				       size, started + 1, strerror(start_err));
				break;
			}
			started++;
		}
		if (done == started ||
		    collect(boxes + done, 1, 1, START_TIMEOUT_MS, NULL, NULL, &last) != 1)
			break;
		done++;
	}
	served = count_err(boxes, started, 0);
	/* Every container's workers started: the thread count holds still. */
	for (int i = 0; i < 100; i++) {
		usleep(100000);
		agent_usage(agent, &rss, &threads, &fds);
		if (threads == prev)
			break;
		prev = threads;
	}
	used = mem_used();
	printf("# scale,%d,served,%d,rss_kb,%ld,fds,%ld,threads,%ld,mem_used_kb,%ld\n", size,
	       served, rss, fds, threads, used);
	if (last_size && size > last_size && threads > last_threads) {
		per_container = (double)(threads - last_threads) / (size - last_size) + 2;
		first_size = last_size;
		if (used > last_mem && last_mem > 0)
			mem_per_container = (double)(used - last_mem) / (size - last_size);
	}
	last_size = size;
	last_threads = threads;
	last_mem = used;
	/* The load: every container at once. */
	t0 = now_ns();
	command(boxes, started, 'g');
	granted = collect(boxes, started, started, LOAD_TIMEOUT_MS, ns, &nns, &last);
	load_s = (last - t0) / 1e9;
	bad = started - count_err(boxes, started, 0);
	if (nns) {
		qsort(ns, nns, sizeof(double), cmp_ns);
		printf("# scale,%d,binds,%zu,p50_us,%.1f,p99_us,%.1f,max_us,%.1f,seconds,%.2f\n", size,
		       nns, ns[nns / 2] / 1e3, ns[(nns * 99) / 100] / 1e3, ns[nns - 1] / 1e3, load_s);
	}
	/* The restart, and one bind() each. */
	t0 = now_ns();
	if (unit) {
		agent = unit_start("restart");
	} else {
		kill(agent, SIGTERM);
		waitpid(agent, NULL, 0);
		agent = start_agent(size, 2);
	}
	command(boxes, started, 'b');
	collect(boxes, started, started, START_TIMEOUT_MS, NULL, NULL, &last);
	enosys = count_err(boxes, started, ENOSYS);
	restarted = count_err(boxes, started, 0);
	if (agent > 0 && restarted == started)
		printf("# scale,%d,restart_ms,%.1f\n", size, (last - t0) / 1e6);
	else if (!unit)
		printf("# scale,%d,restart,not measured: after the restart %d of %d containers' bind() failed with ENOSYS (their listeners died with the agent: a restart keeps them only through systemd's fd store)\n",
		       size, enosys, started);
	else {
		/* systemd keeps them: anything short of every one is a failure */
		printf("# scale,%d,restart,failed: after the restart %d of %d containers' bind() was granted, %d failed with ENOSYS\n",
		       size, restarted, started, enosys);
		bad += started - restarted;
	}
	if (unit && restarted < started)
		unit_journal();
	/*
	 * A container that did not report (its bind still pending) cannot
	 * read 'x': it is killed, agent-client's process group with it (and
	 * fails the size: its status is not 0).
	 */
	for (int i = 0; i < started; i++)
		if (boxes[i].err == -1)
			kill(-boxes[i].pid, SIGKILL);
	command(boxes, started, 'x');
	for (int i = 0; i < started; i++) {
		int status;

		close(boxes[i].sk);
		if (waitpid(boxes[i].pid, &status, 0) != boxes[i].pid || status)
			bad++;
	}
	if (agent > 0 && !unit) {
		kill(agent, SIGTERM);
		waitpid(agent, NULL, 0);
	}
	if (started < size || served < size || granted < started || bad)
		printf("not ok %d containers_%d: %d started, %d served, %d of their loads answered, %d failed (agent logs: %s%s)\n",
		       point, size, started, served, granted, bad, unit ? "journalctl -u " : dir,
		       unit ? unit : "");
	else
		printf("ok %d containers_%d\n", point, size);
	free(boxes);
	free(ns);
	return started < size || served < size || granted < started || bad;
}

int main(int argc, char **argv)
{
	int sizes[16], nsizes = 0, binds = 20, opt, ret = 0, raise = 0, largest = 0;
	struct rlimit nofile;
	char *s, *list = "10,100,1000";
	long tmax;
	ssize_t n;

	if (argc == 5 && !strcmp(argv[1], "--container"))
		return container(atoi(argv[2]), atoi(argv[3]), atoi(argv[4]));
	while ((opt = getopt(argc, argv, "s:n:p:LS:")) != -1) {
		if (opt == 'S')
			unit = optarg;
		else if (opt == 's')
			list = optarg;
		else if (opt == 'L')
			raise = 1;
		else if (opt == 'n')
			binds = atoi(optarg);
		else if (opt == 'p')
			port = atoi(optarg);
		else
			return 2;
	}
	for (s = strtok(list, ","); s && nsizes < 16; s = strtok(NULL, ","))
		sizes[nsizes++] = atoi(s);
	if (!nsizes || binds < 1 || binds > MAX_BINDS || port < 1 || port > 65535) {
		fprintf(stderr, "usage: agent-scale [-L] [-S UNIT] [-s N,N,...] [-n 1-%d] [-p PORT]\n",
			MAX_BINDS);
		return 2;
	}
	for (int i = 0; i < nsizes; i++) {
		if (sizes[i] < 1)
			return fprintf(stderr, "agent-scale: bad size %d\n", sizes[i]), 2;
		largest = sizes[i] > largest ? sizes[i] : largest;
	}
	/* One fd per container here. */
	if (!getrlimit(RLIMIT_NOFILE, &nofile)) {
		nofile.rlim_cur = nofile.rlim_max;
		setrlimit(RLIMIT_NOFILE, &nofile);
	}
	signal(SIGPIPE, SIG_IGN);
	/* The containers run this program again, by its path. */
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return perror("agent-scale: /proc/self/exe"), 1;
	self[n] = '\0';
	if (!mkdtemp(dir))
		return perror("agent-scale: mkdtemp"), 1;
	snprintf(sock, sizeof(sock), "%s/agent.sock", dir);
	if (unit && unit_setup())
		return 1;
	printf("TAP version 13\n1..%d\n", nsizes);
	/* 8 tasks a container: more than the 6 measured (docs/benchmarks.md) */
	if (raise)
		raise_task_limits(8L * largest + 1024);
	tmax = threads_max();
	printf("# %d binds per container under load, tcp:%d; kernel.threads-max %ld, kernel.pid_max %ld, RLIMIT_NOFILE %ld, MemTotal %ld kB\n",
	       binds, port, tmax, pid_max(), (long)nofile.rlim_cur,
	       proc_field("/proc/meminfo", "MemTotal:"));
	printf("# manager: %s\n", unit ? "systemd" : "agent-scale");
	fflush(stdout);
	for (int i = 0; i < nsizes; i++) {
		ret |= one_size(i + 1, sizes[i], binds);
		fflush(stdout);
	}
	if (unit)
		unit_teardown();
	return ret;
}
