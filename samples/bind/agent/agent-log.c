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
#include <netinet/in.h>
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
static const char *metrics_path;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static struct counts total;
static struct container *containers;
static int dirty = 1;

int agent_log_option(const char *opt, const char *arg)
{
	if (!strcmp(opt, "--log-format")) {
		if (strcmp(arg, "text") && strcmp(arg, "json")) {
			fprintf(stderr, "bind-agent: bad --log-format '%s': want text or json\n", arg);
			exit(2);
		}
		json_log = !strcmp(arg, "json");
		return 1;
	}
	if (!strcmp(opt, "--metrics")) {
		if (metrics_path || !*arg || strlen(arg) > 4000) {
			fprintf(stderr, "bind-agent: --metrics given twice, or empty, or too long\n");
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
static size_t json_string(char *buf, size_t len, const char *s)
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

static const char *family_name(int family)
{
	switch (family) {
	case AF_INET: return "AF_INET";
	case AF_INET6: return "AF_INET6";
	case AF_UNSPEC: return "AF_UNSPEC";
	default: return NULL;
	}
}

static void log_json(const struct served *s, const struct decision *d)
{
	const struct container *ct = s->hook_data;
	char line[2048], id[300], why[600], fetch[100], abi[40], sc[40], fam[40], proto[40];
	char when[40], errname[40];
	struct timespec now;
	struct tm tm;
	int n;

	clock_gettime(CLOCK_REALTIME, &now);
	gmtime_r(&now.tv_sec, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%S", &tm);
	json_string(id, sizeof(id), ct ? ct->id : NULL);
	json_string(why, sizeof(why), d->why);
	json_string(fetch, sizeof(fetch), d->fetch);
	json_string(abi, sizeof(abi), d->abi);
	json_string(sc, sizeof(sc), d->syscall);
	if (family_name(d->family))
		json_string(fam, sizeof(fam), family_name(d->family));
	else if (d->family >= 0)
		snprintf(fam, sizeof(fam), "%d", d->family);
	else
		snprintf(fam, sizeof(fam), "null");
	if (d->protocol == IPPROTO_TCP || d->protocol == IPPROTO_UDP)
		json_string(proto, sizeof(proto), d->protocol == IPPROTO_TCP ? "tcp" : "udp");
	else
		snprintf(proto, sizeof(proto), d->protocol >= 0 ? "%d" : "null", d->protocol);
	json_string(errname, sizeof(errname), d->err ? strerrorname_np(d->err) : NULL);
	n = snprintf(line, sizeof(line),
		     "{\"time\":\"%s.%06ldZ\",\"container\":%s,\"pid\":%u,\"abi\":%s,"
		     "\"audit_arch\":%u,\"nr\":%d,\"syscall\":%s,\"family\":%s,\"protocol\":%s,"
		     "\"port\":%d,\"decision\":\"%s\",\"errno\":%d,\"error\":%s,\"reason\":%s,"
		     "\"fetch\":%s,\"latency_us\":%.1f}\n",
		     when, now.tv_nsec / 1000, id, d->req->pid, abi, d->req->data.arch,
		     d->req->data.nr, sc, fam, proto, d->port, outcome_names[d->outcome], d->err, errname, why,
		     fetch, d->seconds * 1e6);
	if (n > 0 && (size_t)n < sizeof(line) && write(STDERR_FILENO, line, (size_t)n) < 0)
		return;	/* nowhere to say so */
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

static const struct {
	const char *name, *help;
	size_t offset;
} counters[] = {
	{ "notifications", "Notifications answered.", offsetof(struct counts, notifications) },
#define OUTCOME_COUNTER(e, name, metric, help) \
	{ metric, help, offsetof(struct counts, outcomes) + OUTCOME_##e * sizeof(unsigned long) },
	FOR_EACH_OUTCOME(OUTCOME_COUNTER)
#undef OUTCOME_COUNTER
};

static void write_histogram(FILE *f, const char *name, const struct counts *c, const char *label)
{
	unsigned long sum = 0;
	/* label is "" or {container="ID"}: le joins it */
	char inner[200];

	snprintf(inner, sizeof(inner), "%.*s", label[0] ? (int)strlen(label) - 2 : 0, label + 1);
	for (size_t b = 0; b < NBOUNDS; b++) {
		sum += c->bucket[b];
		fprintf(f, "%s_bucket{%s%sle=\"%g\"} %lu\n", name, inner, inner[0] ? "," : "",
			bounds[b], sum);
	}
	fprintf(f, "%s_bucket{%s%sle=\"+Inf\"} %lu\n", name, inner, inner[0] ? "," : "",
		c->notifications);
	fprintf(f, "%s_sum%s %.9f\n%s_count%s %lu\n", name, label, c->seconds, name, label,
		c->notifications);
}

/* The file's content, from the counts as they are (lock held). */
static void write_metrics(FILE *f)
{
	char label[200];

	for (size_t i = 0; i < sizeof(counters) / sizeof(counters[0]); i++) {
		fprintf(f, "# HELP bind_agent_%s_total %s\n# TYPE bind_agent_%s_total counter\n",
			counters[i].name, counters[i].help, counters[i].name);
		fprintf(f, "bind_agent_%s_total %lu\n", counters[i].name,
			*(const unsigned long *)((const char *)&total + counters[i].offset));
	}
	fprintf(f, "# HELP bind_agent_decision_seconds Time from a notification's receipt to its answer.\n"
		   "# TYPE bind_agent_decision_seconds histogram\n");
	write_histogram(f, "bind_agent_decision_seconds", &total, "");
	for (size_t i = 0; i < sizeof(counters) / sizeof(counters[0]); i++) {
		fprintf(f, "# HELP bind_agent_container_%s_total %s Per container served now.\n"
			   "# TYPE bind_agent_container_%s_total counter\n",
			counters[i].name, counters[i].help, counters[i].name);
		for (const struct container *ct = containers; ct; ct = ct->next) {
			snprintf(label, sizeof(label), "{container=\"%s\"}", ct->id);
			fprintf(f, "bind_agent_container_%s_total%s %lu\n", counters[i].name, label,
				*(const unsigned long *)((const char *)&ct->counts + counters[i].offset));
		}
	}
	fprintf(f, "# HELP bind_agent_container_decision_seconds Time from a notification's receipt to its answer. Per container served now.\n"
		   "# TYPE bind_agent_container_decision_seconds histogram\n");
	for (const struct container *ct = containers; ct; ct = ct->next) {
		snprintf(label, sizeof(label), "{container=\"%s\"}", ct->id);
		write_histogram(f, "bind_agent_container_decision_seconds", &ct->counts, label);
	}
	fprintf(f, "# HELP bind_agent_containers Containers served now.\n"
		   "# TYPE bind_agent_containers gauge\n");
	{
		unsigned long n = 0;

		for (const struct container *ct = containers; ct; ct = ct->next)
			n += (unsigned long)ct->refs;
		fprintf(f, "bind_agent_containers %lu\n", n);
	}
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
		fprintf(stderr, "bind-agent: --metrics %s: %s\n", metrics_path, strerror(errno));
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

	decision_hook = decided;
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
