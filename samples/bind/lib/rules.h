/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _BIND_RULES_H
#define _BIND_RULES_H

/*
 * The policy (rules.c): which privileged ports a program may bind, set
 * by --allow and narrowed by the allow-list syntax.
 */
#include <stddef.h>

#define MAX_ALLOW 64

struct rule {
	int type, protocol;	/* SOCK_STREAM/IPPROTO_TCP or SOCK_DGRAM/IPPROTO_UDP */
	unsigned short port;
};

struct policy {
	struct rule rules[MAX_ALLOW];
	int n;
};

/*
 * Add "tcp:PORT" or "udp:PORT", a privileged port, to @p. Returns NULL, or
 * what is wrong with @spec, in @err.
 */
const char *policy_add(struct policy *p, const char *spec, char *err, size_t len);
/*
 * The allow-list syntax, "SPEC,SPEC,..." (each SPEC as policy_add() takes
 * it, empty ones skipped), shorter than POLICY_LIST_MAX: @p becomes its
 * rules, each of which @within must allow. Returns NULL, or in @err what
 * is wrong, as "@source: ..." or "@source asks for SPEC, which
 * @within_name does not grant".
 */
#define POLICY_LIST_MAX 1024
const char *policy_parse_list(struct policy *p, const char *list, const struct policy *within,
			      const char *source, const char *within_name, char *err, size_t len);
/* Whether @p allows @port for @type/@protocol (any type if @type is 0). */
int policy_allows(const struct policy *p, int type, int protocol, unsigned short port);
/* "tcp:80 udp:53" into @buf, for the log. */
void policy_format(const struct policy *p, char *buf, size_t len);

#endif /* _BIND_RULES_H */
