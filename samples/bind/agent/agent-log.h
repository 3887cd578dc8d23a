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
	"           json: each line on stderr is one JSON object (default text)\n" \
	"  --metrics FILE\n" \
	"           Prometheus text-format counters, rewritten (atomically, by\n" \
	"           rename) each second while they change\n" \
	"  --metrics-per-container\n" \
	"           also a counter per outcome for each container served now\n"

/*
 * Before anything is logged: with --log-format json among @argv, every
 * line written on stderr from now on is one JSON object.
 */
void agent_log_early(int argc, char **argv);
/* Whether the log is JSON. */
int agent_json_log(void);
/*
 * One line of the agent's own: "bind-agent: TEXT" as text; as JSON, an
 * object with @level, @event, @members (a JSON fragment of members, or
 * NULL) and TEXT as "message".
 */
void __attribute__((format(printf, 4, 5)))
agent_log(const char *level, const char *event, const char *members, const char *fmt, ...);
/* @s as a quoted JSON string into @buf ("null" for NULL); its length. */
size_t json_string(char *buf, size_t len, const char *s);

/*
 * 1 if @opt is ours (and @arg its value, checked: exits if bad), else 0;
 * @arg NULL: 1 only for an option without a value.
 */
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
