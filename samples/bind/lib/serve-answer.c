// SPDX-License-Identifier: GPL-2.0
/*
 * Answering a notification (call.h) and logging it: the text log, and
 * decision_hook for bind-agent's JSON log and metrics (serve.h).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "bind-cli.h"
#include "call.h"

int (*decision_hook)(const struct served *s, const struct decision *d, int shown);

#define OUTCOME_NAME(e, name, what) [OUTCOME_##e] = name,
const char *const outcome_names[NOUTCOMES] = { FOR_EACH_OUTCOME(OUTCOME_NAME) };
#undef OUTCOME_NAME

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
		.addr = c->read ? &c->addr : NULL,
		.outcome = outcome, .err = err, .why = why, .fetch = c->fetch,
		.seconds = seconds_since(t0),
	};

	*logged = decision_hook(s, &d, shown);
}

void answer(struct served *s, const struct seccomp_notif *req,
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
