// SPDX-License-Identifier: GPL-2.0
/*
 * bind-agent's JSON log, Prometheus metrics and listener flags (agent-log.h).
 * Everything here hangs off serve.h's decision_hook and two calls from
 * bind-agent.c; bind-supervisor does without it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "agent-log.h"
#include "../lib/bind-cli.h"
#include "../lib/serve.h"

/* Decision latency buckets, seconds: TCG guests sit in the milliseconds. */
static const double bounds[] = {
	0.00001, 0.000025, 0.00005, 0.0001, 0.00025, 0.0005,
	0.001, 0.0025, 0.005, 0.01, 0.025, 0.1, 1,
};
#define NBOUNDS (sizeof(bounds) / sizeof(bounds[0]))

struct counts {
	unsigned long notifications, outcomes[NOUTCOMES];
	unsigned long bucket[NBOUNDS];	/* not cumulative: one bucket each */
	double seconds;
};

struct container {
	char id[129];	/* bind-agent.c's check_state(): 1-128 of [A-Za-z0-9_+-.] */
	int refs;	/* containers of that id served now */
	struct counts counts;
	struct container *next;
};

static int json_log;
static int per_container;	/* --metrics-per-container */
static const char *metrics_path;
static double start_time;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static struct counts total;
static struct container *containers;
static int dirty = 1;

int agent_log_option(const char *opt, const char *arg)
{
	if (!strcmp(opt, "--metrics-per-container")) {
		per_container = 1;
		return 1;
	}
	if (!arg)
		return 0;
	if (!strcmp(opt, "--log-format")) {
		if (strcmp(arg, "text") && strcmp(arg, "json")) {
			agent_log("error", "usage_error", NULL, "bad --log-format '%s': want text or json", arg);
			exit(2);
		}
		json_log = !strcmp(arg, "json");
		return 1;
	}
	if (!strcmp(opt, "--metrics")) {
		if (metrics_path || !*arg || strlen(arg) > 4000) {
			agent_log("error", "usage_error", NULL, "--metrics given twice, or empty, or too long");
			exit(2);
		}
		metrics_path = arg;
		return 1;
	}
	return 0;
}

static void count(struct counts *c, const struct decision *d)
{
	size_t b = 0;

	c->notifications++;
	c->outcomes[d->outcome]++;
	while (b < NBOUNDS && d->seconds > bounds[b])
		b++;
	if (b < NBOUNDS)
		c->bucket[b]++;
	c->seconds += d->seconds;
}

/* @s with JSON's escapes into @buf, quoted; "null" for NULL. */
size_t json_string(char *buf, size_t len, const char *s)
{
	size_t n = 0;

	if (!s)
		return (size_t)snprintf(buf, len, "null");
	if (n + 1 < len)
		buf[n++] = '"';
	for (; *s && n + 8 < len; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			n += (size_t)snprintf(buf + n, len - n, "\\%c", ch);
		else if (ch < 0x20 || ch == 0x7f)
			n += (size_t)snprintf(buf + n, len - n, "\\u%04x", ch);
		else
			buf[n++] = (char)ch;
	}
	n += (size_t)snprintf(buf + n, len - n, "\"");
	return n;
}

static const char *family_name(int family, char *buf, size_t len)
{
	switch (family) {
	case AF_INET: return "AF_INET";
	case AF_INET6: return "AF_INET6";
	case AF_UNSPEC: return "AF_UNSPEC";
	case AF_UNIX: return "AF_UNIX";
	case AF_NETLINK: return "AF_NETLINK";
	case AF_PACKET: return "AF_PACKET";
	default:
		snprintf(buf, len, "AF_%d", family);	/* a string, whatever the family */
		return buf;
	}
}

/* "time":"...Z", the first member of every line */
static void json_time(char *buf, size_t len)
{
	struct timespec now;
	char when[40];
	struct tm tm;

	clock_gettime(CLOCK_REALTIME, &now);
	gmtime_r(&now.tv_sec, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf, len, "\"time\":\"%s.%06dZ\"", when, (int)(now.tv_nsec / 1000 % 1000000));
}

/* One whole line at once: lines of threads never interleave. */
static void write_line(const char *line, int n, size_t size)
{
	if (n > 0 && (size_t)n < size && write(STDERR_FILENO, line, (size_t)n) < 0)
		return;	/* nowhere to say so */
}

int agent_json_log(void)
{
	return json_log;
}

void agent_log(const char *level, const char *event, const char *members, const char *fmt, ...)
{
	char text[1024], msg[2100], line[4096], when[64];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (!json_log) {
		fprintf(stderr, "bind-agent: %s\n", text);
		return;
	}
	json_time(when, sizeof(when));
	json_string(msg, sizeof(msg), text);
	write_line(line, snprintf(line, sizeof(line),
				  "{%s,\"program\":\"bind-agent\",\"level\":\"%s\",\"event\":\"%s\",%s%s\"message\":%s}\n",
				  when, level, event, members ? members : "", members ? "," : "", msg),
		   sizeof(line));
}

/*
 * --log-format json: whatever else the agent writes on stderr (the
 * library's lines, perror()) goes through this stream, which makes each
 * line an object of its own: {"time":...,"event":"message",...}. stdio
 * calls it under the stream's lock, with whole lines (line buffered).
 */
static char pending[4096];
static size_t npending;

static void flush_pending(void)
{
	char msg[2 * sizeof(pending)], line[sizeof(msg) + 200], when[64];
	const char *text = pending;

	pending[npending] = '\0';
	npending = 0;
	if (text[0] == '{') {	/* one of ours, already JSON */
		write_line(text, (int)strlen(text), sizeof(pending));
		return;
	}
	if (!strncmp(text, "bind-agent: ", 12))
		text += 12;
	json_time(when, sizeof(when));
	json_string(msg, sizeof(msg), text);
	write_line(line, snprintf(line, sizeof(line),
				  "{%s,\"program\":\"bind-agent\",\"event\":\"message\",\"message\":%s}\n",
				  when, msg), sizeof(line));
}

static ssize_t json_stream_write(void *cookie, const char *buf, size_t size)
{
	(void)cookie;
	for (size_t i = 0; i < size; i++) {
		if (buf[i] == '\n') {
			flush_pending();
			continue;
		}
		if (npending == sizeof(pending) - 1)
			flush_pending();	/* a line that long: in pieces */
		pending[npending++] = buf[i];
	}
	return (ssize_t)size;
}

static void usage_json(const char *prog, const char *msg)
{
	(void)prog;
	agent_log("error", "usage_error", NULL, "%s", msg);
}

void agent_log_early(int argc, char **argv)
{
	cookie_io_functions_t io = { .write = json_stream_write };
	FILE *f;

	for (int i = 1; i + 1 < argc; i++)
		if (!strcmp(argv[i], "--log-format") && !strcmp(argv[i + 1], "json"))
			json_log = 1;
	if (!json_log)
		return;
	f = fopencookie(NULL, "w", io);
	if (!f || setvbuf(f, NULL, _IOLBF, BUFSIZ)) {
		fprintf(stderr, "{\"event\":\"message\",\"message\":\"bind-agent: cannot set up the JSON log\"}\n");
		exit(1);
	}
	stderr = f;
	usage_hook = usage_json;
}

static const char *decision_level(enum outcome o)
{
	switch (o) {
	case OUTCOME_GRANTED:
	case OUTCOME_CONTINUED:
		return "info";
	case OUTCOME_FAILED:
		return "error";
	default:
		return "warning";
	}
}

static void log_json(const struct served *s, const struct decision *d)
{
	const struct container *ct = s->hook_data;
	char line[2048], id[300], why[600], fetch[100], abi[40], sc[40], fam[40], proto[40];
	char when[80], errname[40], addr[INET6_ADDRSTRLEN + 2] = "null", port[16] = "null", fnum[16];
	char request[200];
	const struct sockaddr_in *in = (const struct sockaddr_in *)d->addr;
	const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)d->addr;

	json_time(when, sizeof(when));
	json_string(id, sizeof(id), ct ? ct->id : NULL);
	/* the notification's id, unique per listener; with the container's */
	snprintf(request, sizeof(request), "\"%s:%016llx\"", ct ? ct->id : "",
		 (unsigned long long)d->req->id);
	json_string(why, sizeof(why), d->why);
	json_string(fetch, sizeof(fetch), d->fetch);
	json_string(abi, sizeof(abi), d->abi);
	json_string(sc, sizeof(sc), d->syscall);
	if (d->family >= 0)
		json_string(fam, sizeof(fam), family_name(d->family, fnum, sizeof(fnum)));
	else
		snprintf(fam, sizeof(fam), "null");
	/* The address and port of an inet family only (AF_UNSPEC is AF_INET's). */
	if (d->addr && (d->family == AF_INET || d->family == AF_UNSPEC)) {
		addr[0] = '"';
		inet_ntop(AF_INET, &in->sin_addr, addr + 1, INET6_ADDRSTRLEN);
		strcat(addr, "\"");
		snprintf(port, sizeof(port), "%d", d->port);
	} else if (d->addr && d->family == AF_INET6) {
		addr[0] = '"';
		inet_ntop(AF_INET6, &in6->sin6_addr, addr + 1, INET6_ADDRSTRLEN);
		strcat(addr, "\"");
		snprintf(port, sizeof(port), "%d", d->port);
	}
	if (d->protocol == IPPROTO_TCP || d->protocol == IPPROTO_UDP)
		json_string(proto, sizeof(proto), d->protocol == IPPROTO_TCP ? "tcp" : "udp");
	else
		snprintf(proto, sizeof(proto), d->protocol >= 0 ? "%d" : "null", d->protocol);
	json_string(errname, sizeof(errname), d->err ? strerrorname_np(d->err) : NULL);
	write_line(line, snprintf(line, sizeof(line),
		     "{%s,\"program\":\"bind-agent\",\"level\":\"%s\",\"event\":\"decision\","
		     "\"request_id\":%s,\"container\":%s,\"pid\":%u,\"abi\":%s,"
		     "\"audit_arch\":%u,\"nr\":%d,\"syscall\":%s,\"family\":%s,\"addr\":%s,\"port\":%s,"
		     "\"protocol\":%s,\"outcome\":\"%s\",\"errno\":%d,\"error\":%s,\"reason\":%s,"
		     "\"fetch\":%s,\"latency_us\":%.1f}\n",
		     when, decision_level(d->outcome), request, id, d->req->pid, abi, d->req->data.arch,
		     d->req->data.nr, sc, fam, addr, port, proto, outcome_names[d->outcome], d->err,
		     errname, why, fetch, d->seconds * 1e6), sizeof(line));
}

static int decided(const struct served *s, const struct decision *d, int shown)
{
	struct container *ct = s->hook_data;

	if (metrics_path) {
		pthread_mutex_lock(&lock);
		count(&total, d);
		if (ct)
			count(&ct->counts, d);
		dirty = 1;
		pthread_cond_signal(&changed);
		pthread_mutex_unlock(&lock);
	}
	if (!json_log || !shown)
		return 0;
	log_json(s, d);
	return 1;
}

static void write_histogram(FILE *f, const char *name, const struct counts *c)
{
	unsigned long sum = 0;

	for (size_t b = 0; b < NBOUNDS; b++) {
		sum += c->bucket[b];
		fprintf(f, "%s_bucket{le=\"%g\"} %lu\n", name, bounds[b], sum);
	}
	fprintf(f, "%s_bucket{le=\"+Inf\"} %lu\n", name, c->notifications);
	fprintf(f, "%s_sum %.9f\n%s_count %lu\n", name, c->seconds, name, c->notifications);
}

/*
 * The file's content, from the counts as they are (lock held). A fixed
 * set of series, whatever the number of containers; with
 * --metrics-per-container, NOUTCOMES more for each container served now.
 */
static void write_metrics(FILE *f)
{
	unsigned long n = 0;

	fprintf(f, "# HELP bind_agent_build_info The agent's version (samples/bind/VERSION).\n"
		   "# TYPE bind_agent_build_info gauge\n"
		   "bind_agent_build_info{version=\"%s\"} 1\n", bind_version);
	fprintf(f, "# HELP bind_agent_start_time_seconds When the agent started, in seconds since the epoch.\n"
		   "# TYPE bind_agent_start_time_seconds gauge\n"
		   "bind_agent_start_time_seconds %.3f\n", start_time);
	fprintf(f, "# HELP bind_agent_decisions_total Notifications answered, by outcome (bind-agent(8), LOG).\n"
		   "# TYPE bind_agent_decisions_total counter\n");
	for (int o = 0; o < NOUTCOMES; o++)
		fprintf(f, "bind_agent_decisions_total{outcome=\"%s\"} %lu\n", outcome_names[o],
			total.outcomes[o]);
	fprintf(f, "# HELP bind_agent_decision_seconds Time from a notification's receipt to its answer.\n"
		   "# TYPE bind_agent_decision_seconds histogram\n");
	write_histogram(f, "bind_agent_decision_seconds", &total);
	for (const struct container *ct = containers; ct; ct = ct->next)
		n += (unsigned long)ct->refs;
	fprintf(f, "# HELP bind_agent_containers Containers served now.\n"
		   "# TYPE bind_agent_containers gauge\n"
		   "bind_agent_containers %lu\n", n);
	if (!per_container)
		return;
	fprintf(f, "# HELP bind_agent_container_decisions_total Notifications answered, by container served now and outcome.\n"
		   "# TYPE bind_agent_container_decisions_total counter\n");
	for (const struct container *ct = containers; ct; ct = ct->next)
		for (int o = 0; o < NOUTCOMES; o++)
			fprintf(f, "bind_agent_container_decisions_total{container=\"%s\",outcome=\"%s\"} %lu\n",
				ct->id, outcome_names[o], ct->counts.outcomes[o]);
}

/* PATH.XXXXXX in PATH's directory, then rename(): readers see whole files. */
static int publish(void)
{
	size_t len = strlen(metrics_path) + 8;
	char *tmp = malloc(len);
	FILE *f = NULL;
	int fd = -1, ret = -1, made = 0;

	if (!tmp)
		return -1;
	snprintf(tmp, len, "%s.XXXXXX", metrics_path);
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		goto out;
	made = 1;
	/* node_exporter runs as another user: the counters are no secret. */
	if (fchmod(fd, 0644))
		goto out;
	f = fdopen(fd, "w");
	if (!f)
		goto out;
	fd = -1;
	pthread_mutex_lock(&lock);
	write_metrics(f);
	dirty = 0;
	pthread_mutex_unlock(&lock);
	if (fflush(f) || fsync(fileno(f)))
		goto out;
	ret = rename(tmp, metrics_path);
out:
	if (ret)
		agent_log("error", "metrics_failed", NULL, "--metrics %s: %s", metrics_path, strerror(errno));
	if (f)
		fclose(f);
	if (fd >= 0)
		close(fd);
	if (ret && made)
		unlink(tmp);
	free(tmp);
	return ret;
}

static void *writer(void *unused)
{
	(void)unused;
	for (;;) {
		struct timespec t = { 0 };

		pthread_mutex_lock(&lock);
		while (!dirty)
			pthread_cond_wait(&changed, &lock);
		pthread_mutex_unlock(&lock);
		publish();
		t.tv_sec = 1;	/* at most one file a second, whatever the rate */
		nanosleep(&t, NULL);
	}
	return NULL;
}

void agent_log_start(void)
{
	pthread_t t;

	struct timespec now;

	decision_hook = decided;
	clock_gettime(CLOCK_REALTIME, &now);
	start_time = (double)now.tv_sec + (double)now.tv_nsec / 1e9;
	if (!metrics_path)
		return;
	/* A path we cannot write is an error now, not a line each second. */
	if (publish())
		exit(1);
	dirty = 0;
	if (pthread_create(&t, NULL, writer, NULL) || pthread_detach(t)) {
		fprintf(stderr, "bind-agent: the metrics thread: %s\n", strerror(errno));
		exit(1);
	}
}

void *agent_container_begin(struct served *s, const char *id)
{
	static int said;
	struct container *ct;

	if (notif_sync_wake_up(s->listener)) {
		if (!__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED) || verbose)
			fprintf(stderr, "%s: SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP not set: %s (a kernel before 6.6)\n",
				s->name, strerror(errno));
	} else if (!__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED) || verbose) {
		fprintf(stderr, "%s: SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP set on its listener\n", s->name);
	}
	s->thread_pidfd = 1;
	pthread_mutex_lock(&lock);
	for (ct = containers; ct; ct = ct->next)
		if (!strcmp(ct->id, id))
			break;
	if (!ct) {
		ct = calloc(1, sizeof(*ct));
		if (ct) {
			snprintf(ct->id, sizeof(ct->id), "%s", id);
			ct->next = containers;
			containers = ct;
		}
	}
	if (ct)
		ct->refs++;
	dirty = 1;
	pthread_cond_signal(&changed);
	pthread_mutex_unlock(&lock);
	return ct;
}

void agent_container_end(void *data)
{
	struct container *ct = data, **p;

	if (!ct)
		return;
	pthread_mutex_lock(&lock);
	if (!--ct->refs) {
		for (p = &containers; *p != ct; p = &(*p)->next)
			;
		*p = ct->next;
		free(ct);
	}
	dirty = 1;
	pthread_cond_signal(&changed);
	pthread_mutex_unlock(&lock);
}
