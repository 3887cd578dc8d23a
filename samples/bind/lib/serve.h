/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _BIND_SERVE_H
#define _BIND_SERVE_H

/*
 * What bind-supervisor and bind-agent share: the answer to each bind()
 * notification of a seccomp listener (serve.c, serve-answer.c), decided
 * by the policy (rules.h), with a socket taken out of the program
 * (fetch.h).
 */
#include <pthread.h>
#include <stddef.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <linux/seccomp.h>
#include <linux/types.h>

#include "abis.h"
#include "rules.h"

/* 6.6's listener flag: Debian 12's headers are 6.1's. */
#ifndef SECCOMP_IOCTL_NOTIF_SET_FLAGS
#define SECCOMP_IOCTL_NOTIF_SET_FLAGS SECCOMP_IOW(4, __u64)
#endif
#ifndef SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP
#define SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP (1UL << 0)
#endif

/*
 * A bind made for one of a listener's notifications, until its answer is
 * delivered or, withdrawn by a signal, its restart takes it over
 * (call-checks.c, remember_bind()).
 */
struct withdrawn_bind {
	__u64 id;	/* the notification we bind for */
	__u32 pid;	/* its thread, and what it trapped with: a restart is */
	struct seccomp_data data;	/* the same thread's same call */
	dev_t dev;
	ino_t ino;	/* 0: a free slot */
	int len;
	int settled;	/* its answer was not delivered: withdrawn */
	unsigned long seq;	/* when it was made or taken over: the oldest goes */
	struct sockaddr_storage addr;
};

/*
 * Each listener's own: its program's binds never evict another's. A
 * thread holds at most one entry whose answer it has not yet sent, and at
 * most a few threads serve a listener (4 in both programs): room for that
 * many is always there, and the rest keep the withdrawn ones.
 */
#define WITHDRAWN 16

/*
 * A listener, the policy its binds are decided by, and the log's prefix.
 * Its threads take turns to receive: a second thread waiting in
 * SECCOMP_IOCTL_NOTIF_RECV would never see the hang-up.
 */
struct served {
	int listener;
	const struct policy *policy;
	const char *name;
	int only_bind;	/* refuse (EPERM) any other syscall sent to us */
	pthread_mutex_t recv_lock;
	unsigned long unasked;	/* lines logged without -v (see answer()) */
	void *hook_data;	/* decision_hook's, per listener */
	/*
	 * Fetch through a pidfd of the trapping thread where the kernel has
	 * PIDFD_THREAD (6.9+), from its own fd table: no Tgid lookup, no kcmp.
	 */
	int thread_pidfd;
	struct withdrawn_bind withdrawn[WITHDRAWN];	/* zeroed: empty */
	unsigned long withdrawn_seq;
};

/*
 * What became of a notification, one row each: the text log, the JSON
 * log ("outcome") and the metrics (bind_agent_decisions_total's label
 * "outcome") name it from here, in this order.
 *
 *   OUTCOME(ENUM, name, WHAT)
 */
#define FOR_EACH_OUTCOME(OUTCOME) \
	OUTCOME(GRANTED, "granted", \
		"Binds the agent did for a container, successfully.") \
	OUTCOME(REFUSED, "refused", \
		"Notifications refused by the policy (EACCES) or as not bind() (EPERM).") \
	OUTCOME(FAILED, "failed", \
		"Supervisor-side failures, answered EACCES.") \
	OUTCOME(CONTINUED, "continued", \
		"Notifications the kernel answered (not privileged, not readable, caller gone).") \
	OUTCOME(BIND_FAILED, "bind-failed", \
		"Allowed binds whose bind(), or the probe of the port, failed (EADDRINUSE, ...).")

#define OUTCOME_ENUM(e, name, what) OUTCOME_##e,
enum outcome { FOR_EACH_OUTCOME(OUTCOME_ENUM) NOUTCOMES };
#undef OUTCOME_ENUM
extern const char *const outcome_names[NOUTCOMES];

/* One answered notification, for decision_hook. */
struct decision {
	const struct seccomp_notif *req;
	const char *abi, *syscall;	/* "x86_64", "bind"; NULL if not known */
	int family, type, protocol;	/* -1 if not read */
	int port;			/* -1 if not read */
	const struct sockaddr_storage *addr;	/* as read, NULL if not read */
	enum outcome outcome;
	int err;		/* the errno answered, 0 if none */
	const char *why;	/* the text log's reason */
	const char *fetch;	/* how the socket was taken, NULL if it was not */
	double seconds;		/* from receipt to answer */
};

/*
 * Called for every answered notification (bind-agent's JSON log and
 * metrics, agent-log.c), with @shown set if the text log would show it.
 * Returns 1 if it logged it, and the text line is left out.
 */
extern int (*decision_hook)(const struct served *s, const struct decision *d, int shown);

/*
 * The steps of a notification, for bind-agent's journal of notifications
 * in flight (agent/fdstore.h): received (before it is decided), binding
 * (before our bind() of its socket: struct call says which socket and
 * address), sending (its answer made, before SECCOMP_IOCTL_NOTIF_SEND),
 * answered (after it). A hook that fails at NOTIF_BINDING (-1) stops the
 * bind: the notification is answered EACCES, a failure on our side.
 */
enum notif_step { NOTIF_RECEIVED, NOTIF_BINDING, NOTIF_SENDING, NOTIF_ANSWERED };
struct call;
extern int (*notif_hook)(const struct served *s, const struct seccomp_notif *req,
			 const struct call *c, enum notif_step step);

/*
 * SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP on @listener (6.6+): a notification
 * wakes us on the caller's CPU, our answer the caller on ours. 0, or -1
 * with errno (EINVAL before 6.6).
 */
int notif_sync_wake_up(int listener);

/* The kernel's notification sizes, at least ours; -1 on failure. */
int notif_sizes(struct seccomp_notif_sizes *sizes);
/*
 * Answer @s's notifications until no task uses its filter (0), or until
 * receiving fails (-1, with a message). Any number of threads may serve
 * the same @s.
 */
int serve(struct served *s, const struct seccomp_notif_sizes *sizes);
/*
 * Stop answering: wait, for at most @seconds, until every notification a
 * thread has received is answered; no thread receives another after it
 * returns 0. -1 if some are still being answered (errno ETIMEDOUT).
 */
int serve_stop(int seconds);
/*
 * A decision made outside serve() (bind-agent's recover()), which
 * serve_stop() must wait for too: 0 with that hold taken, -1 once
 * stopping (decide nothing). serve_release() ends it.
 */
int serve_hold(void);
void serve_release(void);

#endif /* _BIND_SERVE_H */
