// SPDX-License-Identifier: GPL-2.0
/*
 * Guest /init: mount what the tests need, run the tests of one suite for
 * every guest ABI, stream their output between markers that
 * boot/verdict.awk reads, name (@@@ STRAY) and kill any process a test
 * leaves behind, dump the kernel log, and reboot (QEMU runs with
 * -no-reboot, so that ends the guest).
 *
 * The suite comes from the kernel command line (suite=NAME, passed to init
 * in its environment) and names /etc/suites/NAME, whose lines are
 *
 *	NAME ABIS TIMEOUT COMMAND [ARG...]
 *
 * ABIS is "all", "native" (the first ABI in /etc/abis) or "last" (once,
 * after every ABI's earlier tests: in the last ABI's pass); COMMAND is
 * looked up in /abi/ABI/bin unless it is an absolute path; TIMEOUT is in
 * seconds. The lines are read by suite-line.h, whose rules boot/suite.awk
 * also applies on the host (boot/tests/suite-lines.sh holds the two
 * readers against each other); a bad line is named (@@@ INIT) and not run.
 * With only=NAME,NAME... on the command line (boot/run.sh -o), only the
 * tests so named run, each as its line says.
 *
 * Everything /init and the tests write goes to a channel of its own, the
 * device the kernel command line names (tap=DEVICE: a second serial port or
 * a virtio console, boot/arch/ARCH/arch.conf), not to the kernel's console:
 * no kernel message can split a test's line there. Kernel messages of
 * warning level and worse go to the console as they come, so that a guest
 * that hangs still shows the splat that explains it; boot/run.sh appends
 * the console to the log when QEMU ends.
 *
 * The boot's identity ties the two together: /init's first line on the
 * channel, "@@@ INIT suite=NAME boot_id=UUID", and the kernel-log dump's
 * first, "@@@ KLOG BEGIN boot_id=UUID", carry the kernel's boot id
 * (/proc/sys/kernel/random/boot_id, random at every boot), and /init
 * writes "init: boot_id=UUID" into the kernel's log, at a level the
 * console shows, before any test runs: the console and the dump
 * both hold it, beside the kernel's own "Linux version" banner. The
 * verdict requires all of them to match (boot/verdict.awk).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/klog.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/reboot.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "suite-line.h"

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fflush(stdout);
}

static const char *channel;	/* the tests' device (tap=), or NULL: the console */
static struct termios channel_termios;
static int channel_termios_ok;

/*
 * Make the channel stdout and stderr, and its settings what they were
 * when we first opened it. A virtio console's port appears a moment after
 * /init starts: wait up to 30 s for it. On failure, say why (on the
 * console, the first time) and return 0.
 */
static int open_channel(void)
{
	struct timespec tick = { 0, 10 * 1000 * 1000 };
	static int opened;
	char path[64];
	int fd = -1;

	snprintf(path, sizeof(path), "/dev/%s", channel);
	for (int i = 0; i < 3000 && fd < 0; i++) {
		fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
		if (fd < 0 && errno != ENOENT && errno != ENODEV && errno != ENXIO)
			break;
		if (fd < 0)
			nanosleep(&tick, NULL);
	}
	if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0) {
		say("@@@ INIT no channel for the tests' output, %s: %s\n", path, strerror(errno));
		return 0;
	}
	close(fd);
	if (!opened++)
		channel_termios_ok = !tcgetattr(1, &channel_termios);
	else if (channel_termios_ok)
		tcsetattr(1, TCSANOW, &channel_termios);
	return 1;
}

/*
 * After a test, before we write: a test that made the channel its
 * controlling tty (setsid(), then an open without O_NOCTTY) hung it up when
 * it ended, and our writes fail with EIO: open it again and return 1 (the
 * caller says so, which fails the run). Undo whatever else it changed:
 * stopped output (our next write would block for good), the tty's
 * settings, the console's log level.
 */
static int keep_channel(void)
{
	struct termios t;

	klogctl(8 /* SYSLOG_ACTION_CONSOLE_LEVEL */, NULL, 5);
	if (!channel)
		return 0;
	if (tcgetattr(1, &t) && errno == EIO)
		return open_channel();
	tcflow(1, TCOON);
	if (channel_termios_ok)
		tcsetattr(1, TCSANOW, &channel_termios);
	return 0;
}

static void mount_fs(const char *type, const char *dir, unsigned long flags)
{
	mkdir(dir, 0755);
	if (mount(type, dir, type, flags, NULL) && errno != EBUSY)
		say("@@@ INIT mount %s on %s: %s\n", type, dir, strerror(errno));
}

static void loopback_up(void)
{
	struct ifreq ifr = { .ifr_name = "lo" };
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (s < 0 || ioctl(s, SIOCGIFFLAGS, &ifr) ||
	    (ifr.ifr_flags |= IFF_UP, ioctl(s, SIOCSIFFLAGS, &ifr)))
		say("@@@ INIT bringing up lo: %s\n", strerror(errno));
	if (s >= 0)
		close(s);
}

static void install_busybox(void)
{
	pid_t pid;

	if (access("/bin/busybox", X_OK))
		return;
	pid = fork();
	if (pid == 0) {
		execl("/bin/busybox", "busybox", "--install", "-s", (char *)NULL);
		_exit(127);
	}
	if (pid > 0)
		waitpid(pid, NULL, 0);
}

/*
 * The suite runner's own cgroup ("/system.slice/NAME.service"), or "" when
 * /init is PID 1: every process is then the tests'.
 */
static char own_cgroup[512];

/* The cgroup v2 path of @pid ("/..."), or "" if it cannot be read. */
static void cgroup_of(int pid, char *buf, size_t len)
{
	char path[64], line[512];
	FILE *f;

	buf[0] = 0;
	snprintf(path, sizeof(path), "/proc/%d/cgroup", pid);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "0::", 3)) {
			line[strcspn(line, "\n")] = 0;
			snprintf(buf, len, "%s", line + 3);
		}
	fclose(f);
}

/*
 * Under a service manager, whether @pid is the tests' to answer for: in the
 * runner's unit's cgroup (or below it), where its tests' processes are, or
 * in none of the manager's: a unit's cgroup lies in a slice ("/X.slice/...")
 * and the manager itself in "/init.scope". A process a test handed to the
 * manager (a unit it started) is the manager's.
 */
static int tests_process(int pid)
{
	size_t n = strlen(own_cgroup);
	const char *slash;
	char cg[512];

	if (!n)
		return 1;
	cgroup_of(pid, cg, sizeof(cg));
	if (!cg[0])	/* gone */
		return 0;
	if (!strncmp(cg, own_cgroup, n) && (cg[n] == 0 || cg[n] == '/'))
		return 1;
	if (!strcmp(cg, "/init.scope"))
		return 0;
	slash = strchr(cg + 1, '/');
	return !(slash && slash - cg > 6 && !strncmp(slash - 6, ".slice", 6));
}

static volatile sig_atomic_t timed_out;

static void on_alarm(int sig)
{
	(void)sig;
	timed_out = 1;
}

/*
 * Processes other than init (or the suite runner) and the kernel's threads
 * (kthreadd, pid 2, and its children) that are the tests' (tests_process()):
 * after a test, none may be left. Reaps orphans first. With @out, appends
 * an "@@@ STRAY" line for each to it; with @kill_them, kills each. Returns
 * how many.
 */
static int count_strays(const char *abi, const char *test, char *out, size_t len, int kill_them)
{
	DIR *proc = opendir("/proc");
	struct dirent *d;
	int n = 0;

	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
	while (proc && (d = readdir(proc))) {
		char path[300], buf[512], *end;
		int pid = atoi(d->d_name), ppid = 0;
		char state = '?';
		FILE *f;

		if (pid <= 2 || pid == getpid())
			continue;
		snprintf(path, sizeof(path), "/proc/%d/stat", pid);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = 0;
		fclose(f);
		/* "PID (COMM) STATE PPID ...": COMM may hold anything. */
		end = strrchr(buf, ')');
		if (!end || sscanf(end + 1, " %c %d", &state, &ppid) != 2 || ppid == 2 ||
		    !tests_process(pid))
			continue;
		*end = 0;
		n++;
		if (kill_them)
			kill(pid, SIGKILL);
		if (out) {
			size_t used = strlen(out);

			snprintf(out + used, len - used, "@@@ STRAY %s %s pid=%d ppid=%d state=%c comm=%s\n",
				 abi, test, pid, ppid, state,
				 strchr(buf, '(') ? strchr(buf, '(') + 1 : "?");
		}
	}
	if (proc)
		closedir(proc);
	return n;
}

/*
 * A test's children may still be dying (of PR_SET_PDEATHSIG, say) when it
 * ends: give them two seconds, then describe the ones left in @out and kill
 * them. The caller says @out once they are gone: one of them could hold the
 * channel stopped.
 */
static void check_strays(const char *abi, const char *test, char *out, size_t len)
{
	struct timespec tick = { 0, 10 * 1000 * 1000 };

	out[0] = 0;
	for (int i = 0; i < 200 && count_strays(abi, test, NULL, 0, 0); i++)
		nanosleep(&tick, NULL);
	if (!count_strays(abi, test, out, len, 0))
		return;
	if (own_cgroup[0]) {
		/* not every process is ours to kill: the tests', one by one */
		for (int i = 0; i < 200 && count_strays(abi, test, NULL, 0, 1); i++)
			nanosleep(&tick, NULL);
		return;
	}
	kill(-1, SIGKILL);
	while (waitpid(-1, NULL, 0) > 0 || errno == EINTR)
		;
}

/* Run one test; return a word for its END marker. */
static void run_test(const char *abi, char **argv, unsigned int timeout,
		     char *status, size_t len)
{
	char path[256], bindir[128];
	int wstatus;
	pid_t pid;

	snprintf(bindir, sizeof(bindir), "/abi/%s/bin", abi);
	if (argv[0][0] == '/')
		snprintf(path, sizeof(path), "%s", argv[0]);
	else
		snprintf(path, sizeof(path), "%s/%s", bindir, argv[0]);
	if (access(path, X_OK)) {
		snprintf(status, len, "missing:%s", path);
		return;
	}

	pid = fork();
	if (pid < 0) {
		snprintf(status, len, "fork:%s", strerror(errno));
		return;
	}
	if (pid == 0) {
		char envpath[300];

		setpgid(0, 0);
		if (chdir(bindir))
			_exit(127);
		snprintf(envpath, sizeof(envpath), "PATH=%s:/bin", bindir);
		putenv(envpath);
		signal(SIGPIPE, SIG_DFL);
		execv(path, argv);
		fprintf(stderr, "exec %s: %s\n", path, strerror(errno));
		_exit(127);
	}
	setpgid(pid, pid);

	/*
	 * Reap every orphan while waiting, as an init must: tests leave some,
	 * and kselftest's runner (under busybox timeout) hung on the pristine
	 * kernel while their zombies piled up.
	 */
	timed_out = 0;
	alarm(timeout);
	for (;;) {
		pid_t w = waitpid(-1, &wstatus, 0);

		if (w == pid)
			break;
		if (w < 0 && errno == ECHILD) {
			snprintf(status, len, "waitpid:%s", strerror(errno));
			return;
		}
		if (w > 0 || errno != EINTR)
			continue;
		if (timed_out) {
			kill(-pid, SIGKILL);
			waitpid(pid, &wstatus, 0);
			snprintf(status, len, "timeout:%us", timeout);
			goto reap;
		}
	}
	alarm(0);
	if (WIFEXITED(wstatus))
		snprintf(status, len, "%d", WEXITSTATUS(wstatus));
	else
		snprintf(status, len, "signal:%d", WTERMSIG(wstatus));
reap:
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
}

static int split(char *line, char **words, int max)
{
	int n = 0;

	for (char *w = strtok(line, " \t\n"); w && n < max - 1;
	     w = strtok(NULL, " \t\n"))
		words[n++] = w;
	words[n] = NULL;
	return n;
}

/* Is @name one of the comma-separated names of @only (NULL: every name)? */
static int is_one_of(const char *name, const char *only)
{
	size_t n = strlen(name);

	if (!only)
		return 1;
	for (const char *p = only; *p;) {
		size_t len = strcspn(p, ",");

		if (len == n && !strncmp(p, name, n))
			return 1;
		p += len;
		if (*p == ',')
			p++;
	}
	return 0;
}

static void run_suite(const char *suite, const char *only)
{
	char file[128], abis_line[256], *abis[8];
	struct suite_reader r = { 0 };
	FILE *f;
	int nabis;

	f = fopen("/etc/abis", "r");
	if (!f || !fgets(abis_line, sizeof(abis_line), f)) {
		say("@@@ INIT no /etc/abis\n");
		return;
	}
	fclose(f);
	nabis = split(abis_line, abis, 8);

	snprintf(file, sizeof(file), "/etc/suites/%s", suite);
	r.f = fopen(file, "r");
	if (!r.f) {
		say("@@@ INIT no suite %s: %s\n", file, strerror(errno));
		return;
	}
	for (int a = 0; a < nabis; a++) {
		int got;

		suite_rewind(&r);
		while ((got = suite_next(&r))) {
			char status[300], strays[4096];
			size_t n;

			/* A bad line is named, once, and not run. */
			if (got < 0) {
				if (a == 0)
					say("@@@ INIT %s:%d: %s\n", file, r.lineno, r.why);
				continue;
			}
			if ((!strcmp(r.abis, "native") && a > 0) ||
			    (!strcmp(r.abis, "last") && a < nabis - 1) ||
			    !is_one_of(r.name, only))
				continue;
			say("@@@ BEGIN %s %s\n", abis[a], r.name);
			run_test(abis[a], r.argv, r.timeout, status, sizeof(status));
			/*
			 * Whatever the test left behind fails it, and goes;
			 * then the channel is mended, and our lines start on a
			 * line of their own, whatever the test's last one was.
			 */
			check_strays(abis[a], r.name, strays, sizeof(strays));
			n = strlen(strays);
			if (keep_channel())
				say("\n@@@ INIT %s %s hung up the tests' channel\n", abis[a], r.name);
			say("\n%s%s@@@ END %s %s status=%s\n", strays,
			    n && strays[n - 1] != '\n' ? "\n" : "", abis[a], r.name, status);
		}
	}
	fclose(r.f);
}

/*
 * The kernel's boot id, "UUID", in @id; "(none: WHY)" if it could not be
 * read, which fails the verdict.
 */
static void read_boot_id(char *id, size_t len)
{
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
	size_t n;

	if (!f || !fgets(id, len, f)) {
		snprintf(id, len, "(none: %s)", strerror(errno));
	} else {
		n = strcspn(id, "\n");
		id[n] = 0;
	}
	if (f)
		fclose(f);
}

/*
 * Into the kernel's log, as a record of its own: "init: boot_id=UUID", at
 * KERN_WARNING ("<4>"), a level the console shows after /init lowers its
 * level too: the console may print the record later than we write it.
 */
static void log_boot_id(const char *id)
{
	char line[128];
	int fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	int n = snprintf(line, sizeof(line), "<4>init: boot_id=%s\n", id);

	if (fd < 0 || write(fd, line, n) != n)
		say("@@@ INIT writing the boot id to /dev/kmsg: %s\n", strerror(errno));
	if (fd >= 0)
		close(fd);
}

/*
 * The kernel's log, every record of the boot, from /dev/kmsg (which a
 * test's 'dmesg -C' does not empty), as "<LEVEL>[SECONDS] TEXT" lines.
 * The verdict requires it in every guest's log, whole: a log it could not
 * read (open or read failed, or not one record came), or not all of it,
 * says so in a line of its own, "@@@ KLOG ERROR ...", which fails the
 * verdict. Not all of it: the kernel numbers its records from 0 at boot
 * (SEQ, kernel/printk/printk_ringbuffer.c: the first record's is 0), and
 * a record overwritten in the ring before it is read leaves a gap there
 * (and EPIPE, if it was the next one to read). Before reading, /init
 * writes its own record, "init: dumping the kernel log, boot_id=UUID":
 * the dump must hold it (the verdict), so it was read to after the
 * last test, not cut short before.
 */
static void dump_kernel_log(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	int wfd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	unsigned long records = 0;
	unsigned long long next = 0;	/* the SEQ due */
	char id[64], line[128];
	int len;

	read_boot_id(id, sizeof(id));
	say("@@@ KLOG BEGIN boot_id=%s\n", id);
	len = snprintf(line, sizeof(line), "<6>init: dumping the kernel log, boot_id=%s\n", id);
	if (wfd < 0 || write(wfd, line, len) != len)
		say("@@@ KLOG ERROR writing its end record to /dev/kmsg: %s\n", strerror(errno));
	if (wfd >= 0)
		close(wfd);
	if (fd < 0)
		say("@@@ KLOG ERROR open /dev/kmsg: %s\n", strerror(errno));
	while (fd >= 0) {
		char rec[8192], *text, *nl;
		unsigned long long usec, seq;
		ssize_t n = read(fd, rec, sizeof(rec) - 1);
		int prio;

		if (n < 0 && errno == EPIPE) {	/* the next record was overwritten */
			say("@@@ KLOG ERROR read /dev/kmsg: records lost to the ring (EPIPE) after SEQ %llu\n", next);
			continue;
		}
		if (n < 0 && errno == EAGAIN)	/* the end of the ring */
			break;
		if (n <= 0) {
			say("@@@ KLOG ERROR read /dev/kmsg: %s\n", n ? strerror(errno) : "end of file");
			break;
		}
		rec[n] = 0;
		/* "PRIO,SEQ,USEC,FLAGS;TEXT\n" and continuation lines */
		text = strchr(rec, ';');
		if (!text || sscanf(rec, "%d,%llu,%llu", &prio, &seq, &usec) != 3) {
			say("@@@ KLOG ERROR read /dev/kmsg: a record not in its format\n");
			continue;
		}
		if (seq != next)
			say("@@@ KLOG ERROR read /dev/kmsg: SEQ %llu, %llu due: %s\n", seq, next,
			    seq > next ? "records lost to the ring" : "a record again");
		next = seq + 1;
		nl = strchr(++text, '\n');
		if (nl)
			*nl = 0;
		say("<%d>[%5llu.%06llu] %s\n", prio & 7, usec / 1000000, usec % 1000000, text);
		records++;
	}
	if (fd >= 0 && !records)
		say("@@@ KLOG ERROR read /dev/kmsg: no record\n");
	if (fd >= 0)
		close(fd);
	say("@@@ KLOG END\n");
}

/*
 * The value of NAME=VALUE on the kernel command line (the words of
 * /proc/cmdline), in @buf; NULL if it has none.
 */
static const char *cmdline_value(const char *name, char *buf, size_t len)
{
	char line[4096], *words[256];
	size_t n = strlen(name);
	FILE *f = fopen("/proc/cmdline", "r");
	const char *found = NULL;

	if (!f)
		return NULL;
	if (fgets(line, sizeof(line), f))
		for (int i = 0, nw = split(line, words, 256); i < nw; i++)
			if (!strncmp(words[i], name, n) && words[i][n] == '=') {
				snprintf(buf, len, "%s", words[i] + n + 1);
				found = buf;
			}
	fclose(f);
	return found;
}

/*
 * /init --suite-runner, from a unit of the image, under the service
 * manager that /init exec'd as PID 1 (pid1=): the suite, as PID 1 runs it
 * otherwise (@@@ INIT suite= was said by PID 1 before the exec).
 */
static int suite_runner(void)
{
	struct sigaction alarm_action = { .sa_handler = on_alarm };
	char suite[128], tap[64], only[512];

	sigaction(SIGALRM, &alarm_action, NULL);
	setvbuf(stdout, NULL, _IOLBF, 0);
	/* The orphans of the tests come to us, as they would to PID 1. */
	if (prctl(PR_SET_CHILD_SUBREAPER, 1))
		say("@@@ INIT PR_SET_CHILD_SUBREAPER: %s\n", strerror(errno));
	channel = cmdline_value("tap", tap, sizeof(tap));
	if (channel && !open_channel())
		goto end;
	cgroup_of(getpid(), own_cgroup, sizeof(own_cgroup));
	if (!own_cgroup[0] || !strcmp(own_cgroup, "/"))
		say("@@@ INIT the suite runner has no cgroup of its own: %s\n",
		    own_cgroup[0] ? own_cgroup : "none");
	setenv("HOME", "/tmp", 1);
	setenv("TERM", "dumb", 0);
	klogctl(8 /* SYSLOG_ACTION_CONSOLE_LEVEL */, NULL, 5);
	if (cmdline_value("suite", suite, sizeof(suite)))
		run_suite(suite, cmdline_value("only", only, sizeof(only)));
	else
		say("@@@ INIT no suite= on the kernel command line\n");
	dump_kernel_log();
	say("@@@ DONE\n");
end:
	tcdrain(1);
	sync();
	reboot(RB_AUTOBOOT);
	return 1;
}

int main(int argc, char **argv)
{
	struct sigaction alarm_action = { .sa_handler = on_alarm };
	const char *suite = getenv("suite"), *tap = getenv("tap"), *pid1 = getenv("pid1");
	const char *only = getenv("only");
	char boot_id[64];

	if (argc == 2 && !strcmp(argv[1], "--suite-runner"))
		return suite_runner();

	/* No SA_RESTART: the alarm must interrupt waitpid(). */
	sigaction(SIGALRM, &alarm_action, NULL);

	setvbuf(stdout, NULL, _IOLBF, 0);
	/* The channel first, so that what follows is said there. */
	mount_fs("devtmpfs", "/dev", 0);
	channel = tap;
	if (channel) {
		int null = open("/dev/null", O_RDONLY);

		if (!open_channel())
			goto end;
		/* The console is the kernel's: no test reads or writes it. */
		if (null >= 0 && dup2(null, 0) == 0 && null != 0)
			close(null);
	}
	mount_fs("proc", "/proc", 0);
	mount_fs("sysfs", "/sys", 0);
	/* What udev would add, and kselftest's runner writes to. */
	symlink("/proc/self/fd", "/dev/fd");
	symlink("/proc/self/fd/0", "/dev/stdin");
	symlink("/proc/self/fd/1", "/dev/stdout");
	symlink("/proc/self/fd/2", "/dev/stderr");
	/* Only debug kernels have it: kmemleak and fault injection live there. */
	if (access("/sys/kernel/debug", F_OK) == 0)
		mount_fs("debugfs", "/sys/kernel/debug", 0);
	/* cgroup v2, where a runtime (crun, runc) looks for it. */
	if (access("/sys/fs/cgroup", F_OK) == 0)
		mount_fs("cgroup2", "/sys/fs/cgroup", MS_NOSUID | MS_NODEV | MS_NOEXEC);
	mount_fs("tmpfs", "/tmp", 0);
	mount_fs("tmpfs", "/run", 0);
	/*
	 * /run as a distribution has it (systemd mounts it mode 755, and
	 * keeps ours): root's, writable by no one else. bind-agent refuses a
	 * socket directory others can write to, and its unit's socket is
	 * /run/bind-agent.sock; a tmpfs root is 1777.
	 */
	chmod("/run", 0755);
	loopback_up();
	install_busybox();
	setenv("HOME", "/tmp", 1);
	setenv("TERM", "dumb", 0);

	/* Who we are, in the kernel's log and on its console too. */
	read_boot_id(boot_id, sizeof(boot_id));
	log_boot_id(boot_id);

	/* Warnings and worse on the console; all of the log is dumped at the end. */
	klogctl(8 /* SYSLOG_ACTION_CONSOLE_LEVEL */, NULL, 5);

	say("@@@ INIT suite=%s boot_id=%s\n", suite ? suite : "(none)", boot_id);
	if (pid1) {
		/* The service manager closes the channel; its unit runs the suite. */
		tcdrain(1);
		execl(pid1, pid1, (char *)NULL);
		say("@@@ INIT exec %s: %s\n", pid1, strerror(errno));
	} else if (suite)
		run_suite(suite, only);
	dump_kernel_log();
	say("@@@ DONE\n");
end:
	tcdrain(1);	/* the UART's buffer, before the reboot ends QEMU */
	sync();
	reboot(RB_AUTOBOOT);
	return 1;
}
