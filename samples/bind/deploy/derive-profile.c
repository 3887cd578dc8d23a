// SPDX-License-Identifier: GPL-2.0
/*
 * derive-profile [--listener-path PATH] [--metadata allow=...] [INPUT]
 *
 * Derive a seccomp profile that hands bind() to bind-agent from a
 * runtime's default profile, keeping every one of its rules: podman's
 * /usr/share/containers/seccomp.json (the containers format: names,
 * action, args, includes, excludes, archMap), a bare OCI linux.seccomp
 * object, or a whole OCI config.json (its linux.seccomp is rewritten,
 * the rest is copied). The result goes to stdout.
 *
 * What it changes, and nothing else:
 *  - each SCMP_ACT_ALLOW rule that names bind loses it, and a rule
 *    { names: [bind], action: SCMP_ACT_NOTIFY } with the same args,
 *    includes and excludes follows it: the agent sees exactly the binds
 *    the rule let through, under the same conditions (a rule left with no
 *    names is dropped: the new rule is its part);
 *  - listenerPath (and listenerMetadata if given) are added.
 * socketcall (i386's multiplexer, through which 32-bit x86 glibc's bind()
 * goes) is left as the input has it: beside podman's default rules for
 * socket() with args, libseccomp 2.5.4 builds a filter only while
 * socketcall is allowed outright (split on args[0] == SYS_BIND, crun says
 * "seccomp_rule_add_array: File exists"), and an allowed socketcall takes
 * the place of a NOTIFY rule for socketcall(SYS_BIND): an i386 program's
 * bind through socketcall(2) is the kernel's to answer (EACCES for a
 * privileged port without CAP_NET_BIND_SERVICE), its bind(2) syscall the
 * agent's. derive-profile says so on stderr when an ALLOW rule names
 * socketcall.
 *
 * It refuses (exit 1, one line on stderr saying why, nothing on stdout):
 * input that is not one JSON object of those forms; a member twice in one
 * object, or two Go's encoding/json takes for one (go_fold()), or a
 * single-quoted name (readers differ on which counts); a member it does
 * not know, at the top or in a rule (it could change what a rule means); a
 * defaultAction other than SCMP_ACT_ERRNO, SCMP_ACT_KILL*, SCMP_ACT_TRAP
 * (a profile that lets through what no rule names is not a runtime's
 * default); a listenerPath or listenerMetadata already there, or a rule
 * with SCMP_ACT_NOTIFY (a filter has one listener: derive from the
 * runtime's default, not from a derived profile); an action it does not
 * know; bind in an SCMP_ACT_LOG rule (the split would drop the logging);
 * bind in a rule that refuses it (errno, kill, trap, trace) with no
 * includes or excludes (libseccomp would keep that rule or fail, not
 * notify); a rule with both name and names; no ALLOW rule naming bind
 * (nothing to hand to the agent). Rules that refuse bind under includes
 * or excludes are kept as they are: the runtime picks those rules by the
 * container's capabilities and arch.
 * Exit status: 0 written, 1 refused, 2 usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <json.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *input = "-";

static void usage(void)
{
	printf("usage: derive-profile [--listener-path PATH] [--metadata allow=PROTO:PORT,...] [INPUT]\n"
		"  Reads a runtime's default seccomp profile (podman's\n"
		"  /usr/share/containers/seccomp.json, an OCI linux.seccomp object, or a\n"
		"  whole OCI config.json) from INPUT (default stdin) and writes to stdout\n"
		"  the same profile with bind() sent to bind-agent: taken out of every\n"
		"  SCMP_ACT_ALLOW rule and given to SCMP_ACT_NOTIFY rules under the same\n"
		"  conditions, every other rule kept (socketcall too: see the manual).\n"
		"  --listener-path PATH  bind-agent's socket (default /run/bind-agent.sock)\n"
		"  --metadata STRING     listenerMetadata, e.g. allow=tcp:80 (default: none,\n"
		"                        the agent's whole --allow list)\n"
		"  Exit status: 0 written; 1 the input refused (stderr says why); 2 usage.\n"
		"  Manual: docs/man/derive-profile.8\n");
}

static void refuse(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "derive-profile: %s: ", input);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static int in_list(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(s, *list))
			return 1;
	return 0;
}

/* The members a seccomp object may have, in either format; the OCI
 * runtime spec's config.json has no archMap and no defaultErrno. */
static const char *const top_containers[] = {
	"defaultAction", "defaultErrnoRet", "defaultErrno", "architectures", "archMap", "flags",
	"listenerPath", "listenerMetadata", "syscalls", NULL
};
static const char *const top_oci[] = {
	"defaultAction", "defaultErrnoRet", "architectures", "flags",
	"listenerPath", "listenerMetadata", "syscalls", NULL
};
static const char *const rule_containers[] = {
	"name", "names", "action", "errnoRet", "errno", "args", "comment", "includes", "excludes", NULL
};
static const char *const rule_oci[] = { "names", "action", "errnoRet", "args", NULL };

static const char *const refusing[] = {
	"SCMP_ACT_ERRNO", "SCMP_ACT_KILL", "SCMP_ACT_KILL_PROCESS", "SCMP_ACT_KILL_THREAD",
	"SCMP_ACT_TRAP", NULL
};
/* Actions a rule may have, besides these and SCMP_ACT_ALLOW. */
static const char *const other_actions[] = { "SCMP_ACT_TRACE", "SCMP_ACT_LOG", NULL };

static const char *str_member(json_object *o, const char *key, const char *where)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v))
		return NULL;
	if (!json_object_is_type(v, json_type_string))
		refuse("%s: %s is not a string", where, key);
	return json_object_get_string(v);
}

/* A new rule { names: [NAME], action: ACTION, args: ..., includes and
 * excludes of @from } */
static json_object *new_rule(const char *name, const char *action, json_object *args,
			     json_object *from, int oci, int from_index)
{
	json_object *r = json_object_new_object(), *names = json_object_new_array(), *v;
	char comment[96];

	json_object_array_add(names, json_object_new_string(name));
	json_object_object_add(r, "names", names);
	json_object_object_add(r, "action", json_object_new_string(action));
	if (args)
		json_object_object_add(r, "args", args);
	if (!oci) {
		snprintf(comment, sizeof(comment), "derive-profile: for bind-agent, from rule %d",
			 from_index);
		json_object_object_add(r, "comment", json_object_new_string(comment));
		for (const char *const *k = (const char *const[]){ "includes", "excludes", NULL }; *k; k++)
			if (json_object_object_get_ex(from, *k, &v))
				json_object_object_add(r, *k, json_object_get(v));
	}
	return r;
}

/* Whether the runtime applies @rule only for some capabilities or arches:
 * includes or excludes with a member (the containers format). */
static int conditional(json_object *rule)
{
	json_object *v;

	for (const char *const *k = (const char *const[]){ "includes", "excludes", NULL }; *k; k++)
		if (json_object_object_get_ex(rule, *k, &v) && json_object_is_type(v, json_type_object) &&
		    json_object_object_length(v))
			return 1;
	return 0;
}

static int args_empty(json_object *rule)
{
	json_object *a;

	return !json_object_object_get_ex(rule, "args", &a) || json_object_is_type(a, json_type_null) ||
	       (json_object_is_type(a, json_type_array) && json_object_array_length(a) == 0);
}

/* Derive in place: @sec is the seccomp object. */
static void derive(json_object *sec, int oci, const char *path, const char *metadata)
{
	const char *const *top = oci ? top_oci : top_containers;
	const char *const *rule_keys = oci ? rule_oci : rule_containers;
	json_object *syscalls, *out, *v;
	const char *def;
	int binds = 0, socketcalls = 0;
	size_t n;

	json_object_object_foreach(sec, key, val) {
		(void)val;
		if (!in_list(key, top))
			refuse("unknown member \"%s\"%s: what it means is not known here, so the derived "
			       "profile could not keep it", key, oci ? " in linux.seccomp" : "");
	}
	if (json_object_object_get_ex(sec, "listenerPath", NULL) ||
	    json_object_object_get_ex(sec, "listenerMetadata", NULL))
		refuse("it has a listenerPath or listenerMetadata already: derive from the runtime's "
		       "default profile, not from a derived one");
	def = str_member(sec, "defaultAction", "the profile");
	if (!def)
		refuse("no defaultAction");
	if (!in_list(def, refusing))
		refuse("defaultAction %s lets through what no rule names: this is not a runtime's "
		       "default allow-list profile (one that refuses with SCMP_ACT_ERRNO, "
		       "SCMP_ACT_KILL* or SCMP_ACT_TRAP); add the NOTIFY rule by hand "
		       "(docs/bind-agent.md)", def);
	if (!json_object_object_get_ex(sec, "syscalls", &syscalls) ||
	    !json_object_is_type(syscalls, json_type_array))
		refuse("no syscalls array");

	out = json_object_new_array();
	n = json_object_array_length(syscalls);
	for (size_t i = 0; i < n; i++) {
		json_object *r = json_object_array_get_idx(syscalls, i), *names, *kept, *args;
		const char *action;
		char where[32];
		int has_bind = 0, has_sc = 0, has_name;

		snprintf(where, sizeof(where), "rule %zu", i);
		if (!json_object_is_type(r, json_type_object))
			refuse("%s is not an object", where);
		json_object_object_foreach(r, key, val) {
			(void)val;
			if (!in_list(key, rule_keys))
				refuse("%s: unknown member \"%s\": what it means is not known here, so the "
				       "derived profile could not keep it", where, key);
		}
		action = str_member(r, "action", where);
		if (!action)
			refuse("%s has no action", where);
		if (!strcmp(action, "SCMP_ACT_NOTIFY"))
			refuse("%s is SCMP_ACT_NOTIFY already: a filter has one listener; derive from the "
			       "runtime's default profile, not from one that notifies", where);
		if (strcmp(action, "SCMP_ACT_ALLOW") && !in_list(action, refusing) &&
		    !in_list(action, other_actions))
			refuse("%s: unknown action %s", where, action);

		has_name = json_object_object_get_ex(r, "name", &v);
		if (has_name) {
			if (!json_object_is_type(v, json_type_string))
				refuse("%s: name is not a string", where);
			if (json_object_object_get_ex(r, "names", NULL))
				refuse("%s has both name and names", where);
			has_bind = !strcmp(json_object_get_string(v), "bind");
			has_sc = !strcmp(json_object_get_string(v), "socketcall");
		} else {
			if (!json_object_object_get_ex(r, "names", &names) ||
			    !json_object_is_type(names, json_type_array))
				refuse("%s has no names array", where);
			for (size_t j = 0; j < json_object_array_length(names); j++) {
				json_object *s = json_object_array_get_idx(names, j);

				if (!json_object_is_type(s, json_type_string))
					refuse("%s: a name that is not a string", where);
				has_bind |= !strcmp(json_object_get_string(s), "bind");
				has_sc |= !strcmp(json_object_get_string(s), "socketcall");
			}
		}
		if (has_sc && !strcmp(action, "SCMP_ACT_ALLOW"))
			socketcalls++;
		if (!has_bind) {
			json_object_array_add(out, json_object_get(r));
			continue;
		}
		if (!strcmp(action, "SCMP_ACT_LOG"))
			refuse("%s names bind with SCMP_ACT_LOG: handing it to the agent would drop the "
			       "logging; not handled", where);
		if (strcmp(action, "SCMP_ACT_ALLOW")) {
			/* A refusal (or a tracer's) of bind: kept if the runtime picks
			 * it by capability or arch, refused if it always applies. */
			if (!conditional(r))
				refuse("%s gives bind %s under no includes or excludes: libseccomp would keep "
				       "it, or fail the container, rather than notify the agent; not handled",
				       where, action);
			json_object_array_add(out, json_object_get(r));
			continue;
		}

		/* The rule without bind, if anything is left. */
		if (!has_name) {
			json_object *rest = json_object_new_array();

			json_object_object_get_ex(r, "names", &names);
			for (size_t j = 0; j < json_object_array_length(names); j++) {
				const char *s = json_object_get_string(json_object_array_get_idx(names, j));

				if (strcmp(s, "bind"))
					json_object_array_add(rest, json_object_new_string(s));
			}
			if (json_object_array_length(rest)) {
				kept = json_object_new_object();
				json_object_object_foreach(r, key, val) {
					json_object_object_add(kept, key, !strcmp(key, "names") ? rest :
							       json_object_get(val));
				}
				json_object_array_add(out, kept);
			} else {
				json_object_put(rest);
			}
		}
		args = NULL;
		if (json_object_object_get_ex(r, "args", &v) && !args_empty(r))
			json_object_deep_copy(v, &args, NULL);
		json_object_array_add(out, new_rule("bind", "SCMP_ACT_NOTIFY", args, r, oci, (int)i));
		binds++;
	}
	if (!binds)
		refuse("no SCMP_ACT_ALLOW rule names bind: the profile refuses bind() (defaultAction "
		       "%s), there is nothing to hand to bind-agent", def);
	if (socketcalls)
		fprintf(stderr, "derive-profile: %s: socketcall stays allowed: an i386 program's bind() "
			"through socketcall(2) is the kernel's to answer, not the agent's "
			"(derive-profile(8), NOTES)\n", input);
	json_object_object_add(sec, "syscalls", out);
	json_object_object_add(sec, "listenerPath", json_object_new_string(path));
	if (metadata)
		json_object_object_add(sec, "listenerMetadata", json_object_new_string(metadata));
}

/*
 * @name as Go's encoding/json (runc, containerd) matches a member name to
 * a field: ASCII case ignored, and U+017F (long s) and U+212A (Kelvin
 * sign), which fold to s and k; a new string.
 */
static char *go_fold(const char *name)
{
	char *f = malloc(strlen(name) + 1), *o = f;

	if (!f)
		refuse("out of memory");
	while (*name) {
		if (!strncmp(name, "\xc5\xbf", 2)) {
			*o++ = 's';
			name += 2;
		} else if (!strncmp(name, "\xe2\x84\xaa", 3)) {
			*o++ = 'k';
			name += 3;
		} else {
			*o++ = *name >= 'A' && *name <= 'Z' ? (char)(*name - 'A' + 'a') : *name;
			name++;
		}
	}
	*o = '\0';
	return f;
}

/*
 * A member twice in one object: json-c keeps the last, as Go's
 * encoding/json does, while other readers keep the first or refuse, so
 * such a profile means what its reader says: refused; so are two names
 * Go takes for one (go_fold(): a config.json's "linux" and "Linux"), and
 * a single-quoted name, which json-c's strict tokener takes and no other
 * reader does. @buf is JSON that json-c's strict tokener took whole; each
 * key is decoded by json-c (an escape spells the same name as its
 * character does).
 */
#define MAX_DEPTH 64
static void refuse_duplicates(const char *buf, size_t len)
{
	/* per level: the keys of the object open there (NULL: an array) */
	struct json_object *keys[MAX_DEPTH] = { NULL };
	int depth = -1;

	for (size_t i = 0; i < len; i++) {
		struct json_object *key;
		const char *name;
		size_t end, next;
		char *tok, *folded;

		switch (buf[i]) {
		case '{':
		case '[':
			if (++depth == MAX_DEPTH)
				refuse("nested deeper than %d", MAX_DEPTH);
			keys[depth] = buf[i] == '{' ? json_object_new_object() : NULL;
			if (buf[i] == '{' && !keys[depth])
				refuse("out of memory");
			continue;
		case '}':
		case ']':
			if (depth >= 0)
				json_object_put(keys[depth--]);
			continue;
		case '"':
			break;
		case '\'':
			refuse("not JSON: a single-quoted member name");
		default:
			continue;
		}
		for (end = i + 1; end < len && buf[end] != '"'; end++)
			end += buf[end] == '\\';
		if (end >= len)
			break;
		next = end + 1 + strspn(buf + end + 1, " \t\r\n");
		if (depth < 0 || !keys[depth] || next >= len || buf[next] != ':') {
			i = end;
			continue;
		}
		tok = strndup(buf + i, end + 1 - i);
		key = tok ? json_tokener_parse(tok) : NULL;
		free(tok);
		name = key ? json_object_get_string(key) : NULL;
		if (!name)
			refuse("out of memory");
		folded = go_fold(name);
		if (json_object_object_get_ex(keys[depth], folded, NULL))
			refuse("member \"%s\" twice in one object (as Go's encoding/json matches names, case aside): readers differ on which counts",
			       name);
		if (json_object_object_add(keys[depth], folded, NULL))
			refuse("out of memory");
		free(folded);
		json_object_put(key);
		i = end;
	}
	while (depth >= 0)
		json_object_put(keys[depth--]);
}

int main(int argc, char **argv)
{
	const char *path = "/run/bind-agent.sock", *metadata = NULL;
	json_object *root, *sec, *linux_;
	json_tokener *tok;
	char *buf = NULL;
	size_t len = 0, cap = 0;
	FILE *f;
	int oci = 0;

	for (argc--, argv++; argc && argv[0][0] == '-' && argv[0][1]; argc--, argv++) {
		if (!strcmp(argv[0], "--help") || !strcmp(argv[0], "-h")) {
			usage();
			return 0;
		} else if (!strcmp(argv[0], "--listener-path") && argc > 1) {
			path = *++argv, argc--;
		} else if (!strcmp(argv[0], "--metadata") && argc > 1) {
			metadata = *++argv, argc--;
		} else if (!strcmp(argv[0], "--")) {
			argc--, argv++;
			break;
		} else {
			fprintf(stderr, "derive-profile: unknown or incomplete option '%s' (--help: usage)\n",
				argv[0]);
			return 2;
		}
	}
	if (argc > 1) {
		fprintf(stderr, "derive-profile: one INPUT at most (--help: usage)\n");
		return 2;
	}
	if (path[0] != '/') {
		fprintf(stderr, "derive-profile: --listener-path must be absolute: %s\n", path);
		return 2;
	}
	/* The agent's own check of listenerMetadata (bind-agent.c, narrow());
	 * it checks the ports against its --allow when a container starts. */
	if (metadata && (strncmp(metadata, "allow=", 6) ||
			 strspn(metadata, "abcdefghijklmnopqrstuvwxyz0123456789:=,") != strlen(metadata))) {
		fprintf(stderr, "derive-profile: --metadata is not \"allow=tcp:PORT,udp:PORT,...\": %s\n",
			metadata);
		return 2;
	}
	if (argc == 1)
		input = argv[0];
	f = strcmp(input, "-") ? fopen(input, "r") : stdin;
	if (!f)
		refuse("%s", strerror(errno));
	for (;;) {
		size_t got;

		if (cap - len < 4096) {
			cap = cap ? cap * 2 : 65536;
			buf = realloc(buf, cap);
			if (!buf)
				refuse("out of memory");
		}
		got = fread(buf + len, 1, cap - len, f);
		len += got;
		if (!got)
			break;
	}
	if (ferror(f))
		refuse("%s", strerror(errno));
	tok = json_tokener_new();
	if (!tok)
		refuse("out of memory");
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	root = json_tokener_parse_ex(tok, buf, (int)len);
	if (!root || json_tokener_get_error(tok) != json_tokener_success ||
	    strspn(buf + json_tokener_get_parse_end(tok), " \t\r\n") != len - json_tokener_get_parse_end(tok))
		refuse("not one JSON value: %s", root ? "text after it" :
		       json_tokener_get_error(tok) == json_tokener_continue ? "empty or cut short" :
		       json_tokener_error_desc(json_tokener_get_error(tok)));
	json_tokener_free(tok);
	refuse_duplicates(buf, len);
	free(buf);
	if (!json_object_is_type(root, json_type_object))
		refuse("not a JSON object");

	/* A whole config.json: its linux.seccomp, in the runtime spec's terms. */
	if (json_object_object_get_ex(root, "ociVersion", NULL)) {
		oci = 1;
		if (!json_object_object_get_ex(root, "linux", &linux_) ||
		    !json_object_object_get_ex(linux_, "seccomp", &sec) ||
		    !json_object_is_type(sec, json_type_object))
			refuse("a config.json without linux.seccomp: the runtime applies no filter, there "
			       "is no default profile to derive from");
	} else {
		sec = root;
	}
	derive(sec, oci, path, metadata);
	if (printf("%s\n", json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
							  JSON_C_TO_STRING_SPACED |
							  JSON_C_TO_STRING_NOSLASHESCAPE)) < 0 ||
	    fflush(stdout))
		refuse("writing stdout: %s", strerror(errno));
	json_object_put(root);
	return 0;
}
