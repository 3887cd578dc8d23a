// SPDX-License-Identifier: GPL-2.0
/*
 * The policy proper (rules.h): which privileged ports a program may bind,
 * and the allow-list syntax that says so.
 */
#define _GNU_SOURCE
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "bind-cli.h"
#include "rules.h"

const char *policy_add(struct policy *p, const char *spec, char *err, size_t len)
{
	struct rule r = { SOCK_STREAM, IPPROTO_TCP, 0 };
	long port;

	if (!strncmp(spec, "udp:", 4))
		r = (struct rule){ SOCK_DGRAM, IPPROTO_UDP, 0 };
	else if (strncmp(spec, "tcp:", 4))
		return snprintf(err, len, "bad port spec '%s': want tcp:PORT or udp:PORT", spec), err;
	port = parse_number(spec + 4, 1, 65535);
	if (port < 0)
		return snprintf(err, len, "bad port in '%s': want 1-65535", spec), err;
	if ((unsigned long)port >= unpriv_start)
		return snprintf(err, len, "port %ld of '%s' is not privileged here (net.ipv4.ip_unprivileged_port_start is %u): nothing to allow",
				port, spec, unpriv_start), err;
	if (p->n == MAX_ALLOW)
		return snprintf(err, len, "too many rules (at most %d): '%s'", MAX_ALLOW, spec), err;
	r.port = (unsigned short)port;
	p->rules[p->n++] = r;
	return NULL;
}

const char *policy_parse_list(struct policy *p, const char *list, const struct policy *within,
			      const char *source, const char *within_name, char *err, size_t len)
{
	char copy[POLICY_LIST_MAX], spec_err[160], *save = NULL;

	if (strlen(list) >= sizeof(copy))
		return snprintf(err, len, "%s is longer than %d bytes", source, POLICY_LIST_MAX - 1), err;
	snprintf(copy, sizeof(copy), "%s", list);
	p->n = 0;
	for (char *spec = strtok_r(copy, ",", &save); spec; spec = strtok_r(NULL, ",", &save)) {
		const struct rule *r;

		if (policy_add(p, spec, spec_err, sizeof(spec_err)))
			return snprintf(err, len, "%s: %s", source, spec_err), err;
		r = &p->rules[p->n - 1];
		if (!policy_allows(within, r->type, r->protocol, r->port))
			return snprintf(err, len, "%s asks for %s, which %s does not grant", source,
					spec, within_name), err;
	}
	return NULL;
}

int policy_allows(const struct policy *p, int type, int protocol, unsigned short port)
{
	for (int i = 0; i < p->n; i++)
		if (p->rules[i].port == port && (!type || (p->rules[i].type == type &&
							   p->rules[i].protocol == protocol)))
			return 1;
	return 0;
}

void policy_format(const struct policy *p, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int i = 0; i < p->n && used < len; i++)
		used += snprintf(buf + used, len - used, "%s%s:%u", i ? " " : "",
				 p->rules[i].type == SOCK_DGRAM ? "udp" : "tcp", p->rules[i].port);
	if (!p->n)
		snprintf(buf, len, "(no port)");
}
