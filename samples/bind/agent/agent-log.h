/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _BIND_SUPERVISOR_AGENT_LOG_H
#define _BIND_SUPERVISOR_AGENT_LOG_H

/*
 * What an operator sees of bind-agent besides its text log: one JSON
 * object per decision (--log-format json), and Prometheus counters per
 * container and in total, in a file node_exporter's textfile collector
 * reads (--metrics FILE). And the listener's fastest wake-up.
 */
struct served;

#define AGENT_LOG_OPTIONS_HELP \
	"  --log-format text|json\n" \
	"           json: each decision line is one JSON object (default text)\n" \
	"  --metrics FILE\n" \
	"           Prometheus text-format counters, rewritten (atomically, by\n" \
	"           rename) each second while they change\n"

/* 1 if @opt is ours (and @arg its value, checked: exits if bad), else 0. */
int agent_log_option(const char *opt, const char *arg);
/* Once the options are read: the decision hook, the metrics writer. */
void agent_log_start(void);
/*
 * A container's listener is about to be served: its counters (returned,
 * for served->hook_data), SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP on it, and
 * fetches through thread pidfds (served->thread_pidfd).
 */
void *agent_container_begin(struct served *s, const char *id);
/* Its listener is done: its counters go (the totals keep them). */
void agent_container_end(void *data);

#endif
