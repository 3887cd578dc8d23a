#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# samples/bind/deploy/derive-profile-test.sh DERIVE-PROFILE
#   derive-profile on the host, as TAP: from podman's default profile
#   (/usr/share/containers/seccomp.json, Debian's
#   golang-github-containers-common, which podman brings) and from crafted
#   inputs in both formats (containers' and a whole OCI config.json), the
#   output keeps every rule (each rule of the input, less bind and
#   socketcall, is in the output, in order, member for member, and
#   nothing else is), no ALLOW rule names bind or socketcall(SYS_BIND),
#   the NOTIFY rules and listener fields are there; the same checker
#   rejects the naive merge (the NOTIFY rule added, bind left in the ALLOW
#   rule), so it can fail; and each refusal gives its message and exit
#   status. Needs /usr/bin/python3 (the checker).
set -u
prog=${1:?usage: $0 DERIVE-PROFILE}
n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=1; echo "not ok $n - $1"; }
check() {
	_d=$1
	shift
	if "$@"; then ok "$_d"; else not_ok "$_d"; fi
}
W=$(mktemp -d /tmp/derive-profile-test.XXXXXX)
trap 'rm -rf "$W"' EXIT
echo "TAP version 13"

# kept IN OUT PATH [METADATA]: OUT is IN derived (the checker below)
kept() {
	/usr/bin/python3 - "$@" <<'PY'
import json, sys
src, out, path = sys.argv[1:4]
meta = sys.argv[4] if len(sys.argv) > 4 else None
a, d = json.load(open(src)), json.load(open(out))
def fail(m):
    print("#   " + m)
    sys.exit(1)
oci = "ociVersion" in a
if oci:
    rest_a = {k: v for k, v in a.items() if k != "linux"}
    rest_d = {k: v for k, v in d.items() if k != "linux"}
    if rest_a != rest_d or {k: v for k, v in a["linux"].items() if k != "seccomp"} != \
            {k: v for k, v in d["linux"].items() if k != "seccomp"}:
        fail("the config outside linux.seccomp changed")
    a, d = a["linux"]["seccomp"], d["linux"]["seccomp"]
for k in a:
    if k != "syscalls" and a[k] != d.get(k):
        fail("top-level member %s changed" % k)
if d.get("listenerPath") != path:
    fail("listenerPath is %r" % d.get("listenerPath"))
if d.get("listenerMetadata") != meta:
    fail("listenerMetadata is %r" % d.get("listenerMetadata"))
if set(d) - set(a) - {"listenerPath", "listenerMetadata"}:
    fail("new members %s" % (set(d) - set(a)))
BS = {"bind", "socketcall"}
def names(r):
    return r["names"] if "names" in r else [r["name"]]
# Each input rule less bind and socketcall, in order, then what the
# derivation added for it: the notify rules and socketcall's split allow.
want = []
for i, r in enumerate(a["syscalls"]):
    if not (set(names(r)) & BS) or r["action"] != "SCMP_ACT_ALLOW":
        want.append(r)
        continue
    rest = [x for x in names(r) if x not in BS]
    if rest:
        want.append(dict(r, names=rest))
    cond = {k: r[k] for k in ("includes", "excludes") if k in r and not oci}
    if "bind" in names(r):
        want.append(("notify", "bind", r.get("args") or None, cond))
    if "socketcall" in names(r):
        want.append(("split", "socketcall", None, cond))
got = d["syscalls"]
j = 0
for w in want:
    if j >= len(got):
        fail("rule %r missing at the end" % (w,))
    g = got[j]
    if isinstance(w, dict):
        if g != w:
            fail("output rule %d is %s, want %s" % (j, json.dumps(g)[:200], json.dumps(w)[:200]))
        j += 1
        continue
    kind, name, args, cond = w
    c = {k: g[k] for k in ("includes", "excludes") if k in g}
    if kind == "notify":
        if g.get("names") != ["bind"] or g["action"] != "SCMP_ACT_NOTIFY" or (g.get("args") or None) != args:
            fail("output rule %d is %s, want bind notified" % (j, json.dumps(g)))
        if cond and c != cond:
            fail("output rule %d lost the conditions %s" % (j, cond))
        j += 1
    else:
        for op in ("SCMP_CMP_NE", "SCMP_CMP_EQ"):
            g = got[j] if j < len(got) else {}
            act = "SCMP_ACT_ALLOW" if op == "SCMP_CMP_NE" else "SCMP_ACT_NOTIFY"
            if g.get("names") != ["socketcall"] or g.get("action") != act or \
                    [{k: x[k] for k in ("index", "value", "op")} for x in g.get("args", [])] != \
                    [{"index": 0, "value": 2, "op": op}]:
                fail("output rule %d is %s, want socketcall %s SYS_BIND %s" % (j, json.dumps(g), op, act))
            j += 1
if j != len(got):
    fail("%d rules more than the input's: %s" % (len(got) - j, json.dumps(got[j:])[:300]))
# What the agent needs, said directly.
for r in got:
    if r["action"] == "SCMP_ACT_ALLOW" and "bind" in names(r):
        fail("an ALLOW rule names bind: %s" % json.dumps(r)[:200])
    if r["action"] == "SCMP_ACT_ALLOW" and "socketcall" in names(r) and \
            [{k: x[k] for k in ("index", "value", "op")} for x in r.get("args", [])] != \
            [{"index": 0, "value": 2, "op": "SCMP_CMP_NE"}]:
        fail("an ALLOW rule lets socketcall(SYS_BIND) through: %s" % json.dumps(r)[:200])
if not [r for r in got if r["action"] == "SCMP_ACT_NOTIFY" and names(r) == ["bind"]]:
    fail("no NOTIFY rule for bind")
print("#   %d rules in, %d out" % (len(a["syscalls"]), len(got)))
PY
}

# fails CMD...: CMD fails
fails() { ! "$@"; }

# refused NAME MESSAGE [ARGS...]: status 1, MESSAGE on stderr,
# nothing on stdout
refused() {
	_name=$1 _msg=$2
	shift 2
	"$prog" "$@" >"$W/out" 2>"$W/err"
	_rc=$?
	sed 's/^/#   /' "$W/err"
	[ "$_rc" = 1 ] && [ ! -s "$W/out" ] && grep -q -- "$_msg" "$W/err" ||
		{ echo "#   $_name: exit status $_rc, stdout $(wc -c <"$W/out") bytes"; return 1; }
}

# -- podman's default profile
def=/usr/share/containers/seccomp.json
if [ -f "$def" ]; then
	check "derive-profile: from $def, exit status 0" \
		sh -c "'$prog' --metadata allow=tcp:80 '$def' >'$W/podman.json' 2>'$W/podman.err'"
	sed 's/^/#   /' "$W/podman.err"
	check "derive-profile: $def: every rule kept less bind and socketcall; bind and socketcall(SYS_BIND) notified; listener fields" \
		kept "$def" "$W/podman.json" /run/bind-agent.sock allow=tcp:80
	# The naive merge (the NOTIFY rule added, bind left in the ALLOW rule):
	# the same checker must reject it.
	/usr/bin/python3 - "$def" "$W/naive.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["syscalls"].append({"names": ["bind"], "action": "SCMP_ACT_NOTIFY"})
d["listenerPath"] = "/run/bind-agent.sock"
json.dump(d, open(sys.argv[2], "w"))
PY
	check "the same checker rejects the naive merge (bind left in the ALLOW rule)" \
		fails kept "$def" "$W/naive.json" /run/bind-agent.sock
else
	not_ok "derive-profile: $def exists (Debian's golang-github-containers-common, which podman brings)"
fi

# -- crafted: the containers format, with conditions to keep: bind in a
# conditional ALLOW rule (includes) and in an args rule, a refusal of bind
# kept, the singular "name", a value above 2^31
cat >"$W/cond.json" <<'EOF'
{
	"defaultAction": "SCMP_ACT_ERRNO", "defaultErrnoRet": 1,
	"archMap": [ { "architecture": "SCMP_ARCH_X86_64", "subArchitectures": [ "SCMP_ARCH_X86" ] } ],
	"syscalls": [
		{ "names": [ "read", "bind", "write" ], "action": "SCMP_ACT_ALLOW",
		  "includes": { "caps": [ "CAP_NET_BIND_SERVICE" ] }, "excludes": {}, "comment": "c" },
		{ "names": [ "bind" ], "action": "SCMP_ACT_ERRNO", "errnoRet": 13,
		  "excludes": { "caps": [ "CAP_NET_BIND_SERVICE" ] } },
		{ "names": [ "bind", "personality" ], "action": "SCMP_ACT_ALLOW",
		  "args": [ { "index": 2, "value": 16, "valueTwo": 0, "op": "SCMP_CMP_EQ" } ] },
		{ "name": "socketcall", "action": "SCMP_ACT_ALLOW" },
		{ "names": [ "personality" ], "action": "SCMP_ACT_ALLOW",
		  "args": [ { "index": 0, "value": 4294967295, "op": "SCMP_CMP_EQ" } ] },
		{ "names": [ "kexec_load" ], "action": "SCMP_ACT_KILL_PROCESS" }
	]
}
EOF
check "derive-profile: crafted containers profile (conditions, args, name), exit status 0" \
	sh -c "'$prog' --listener-path /run/x.sock '$W/cond.json' >'$W/cond.out' 2>'$W/cond.err'"
sed 's/^/#   /' "$W/cond.err"
check "derive-profile: crafted containers profile: every rule kept, the conditions and args on the NOTIFY rules" \
	kept "$W/cond.json" "$W/cond.out" /run/x.sock

# -- crafted: a whole OCI config.json (runc, crun), docker's style
cat >"$W/config.json" <<'EOF'
{
	"ociVersion": "1.0.2",
	"process": { "args": [ "/bin/sh" ], "cwd": "/", "user": { "uid": 0, "gid": 0 } },
	"root": { "path": "rootfs" },
	"linux": {
		"namespaces": [ { "type": "pid" } ],
		"seccomp": {
			"defaultAction": "SCMP_ACT_ERRNO", "defaultErrnoRet": 38,
			"architectures": [ "SCMP_ARCH_X86_64", "SCMP_ARCH_X86", "SCMP_ARCH_X32" ],
			"flags": [ "SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV" ],
			"syscalls": [
				{ "names": [ "accept", "bind", "socketcall", "read" ], "action": "SCMP_ACT_ALLOW" },
				{ "names": [ "ptrace" ], "action": "SCMP_ACT_ERRNO", "errnoRet": 1 }
			]
		}
	}
}
EOF
check "derive-profile: crafted OCI config.json, exit status 0" \
	sh -c "'$prog' --metadata allow=tcp:443 '$W/config.json' >'$W/config.out' 2>'$W/config.err'"
sed 's/^/#   /' "$W/config.err"
check "derive-profile: crafted OCI config.json: the config kept, every rule of linux.seccomp kept" \
	kept "$W/config.json" "$W/config.out" /run/bind-agent.sock allow=tcp:443
check "derive-profile: crafted OCI config.json: no comment, includes or excludes added (not the runtime spec's)" \
	fails grep -q '"comment"\|"includes"\|"excludes"' "$W/config.out"

# -- refusals: exit status 1, the reason on stderr, nothing on stdout
r() { printf '%s\n' "$1" >"$W/in.json"; }
B='{ "names": [ "bind" ], "action": "SCMP_ACT_ALLOW" }'
r "{ \"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": [ $B ] }"
check "refused: defaultAction SCMP_ACT_ALLOW" refused allow "defaultAction SCMP_ACT_ALLOW lets through what no rule names" "$W/in.json"
r "{ \"defaultAction\": \"SCMP_ACT_LOG\", \"syscalls\": [ $B ] }"
check "refused: defaultAction SCMP_ACT_LOG" refused log "defaultAction SCMP_ACT_LOG lets through" "$W/in.json"
r "{ \"defaultAction\": \"SCMP_ACT_ERRNO\", \"syscalls\": [ $B, { \"names\": [ \"connect\" ], \"action\": \"SCMP_ACT_NOTIFY\" } ] }"
check "refused: a NOTIFY rule already" refused notify "rule 1 is SCMP_ACT_NOTIFY already" "$W/in.json"
r "{ \"defaultAction\": \"SCMP_ACT_ERRNO\", \"listenerPath\": \"/run/a.sock\", \"syscalls\": [ $B ] }"
check "refused: a listenerPath already" refused listener "has a listenerPath or listenerMetadata already" "$W/in.json"
r "{ \"defaultAction\": \"SCMP_ACT_ERRNO\", \"seccompProfilePath\": \"x\", \"syscalls\": [ $B ] }"
check "refused: an unknown top-level member" refused top 'unknown member "seccompProfilePath"' "$W/in.json"
r '{ "defaultAction": "SCMP_ACT_ERRNO", "syscalls": [ { "names": [ "bind" ], "action": "SCMP_ACT_ALLOW", "minKernel": "5.8" } ] }'
check "refused: an unknown member in a rule" refused rulekey 'rule 0: unknown member "minKernel"' "$W/in.json"
r "{ \"defaultAction\": \"SCMP_ACT_ERRNO\", \"syscalls\": [ $B, { \"names\": [ \"socketcall\" ], \"action\": \"SCMP_ACT_ALLOW\", \"args\": [ { \"index\": 0, \"value\": 1, \"op\": \"SCMP_CMP_EQ\" } ] } ] }"
check "refused: socketcall allowed under args" refused scargs "rule 1 allows socketcall only for some arguments" "$W/in.json"
r '{ "defaultAction": "SCMP_ACT_ERRNO", "syscalls": [ { "names": [ "read" ], "action": "SCMP_ACT_ALLOW" } ] }'
check "refused: no ALLOW rule names bind" refused nobind "no SCMP_ACT_ALLOW rule names bind" "$W/in.json"
r '{ "defaultAction": "SCMP_ACT_ERRNO", "syscalls": [ { "names": [ "bind" ], "action": "SCMP_ACT_LOG" } ] }'
check "refused: bind under SCMP_ACT_LOG" refused logrule "rule 0 names bind with SCMP_ACT_LOG" "$W/in.json"
r "{ \"defaultAction\": \"SCMP_ACT_ERRNO\", \"syscalls\": [ $B, { \"names\": [ \"x\" ], \"action\": \"SCMP_ACT_TEAPOT\" } ] }"
check "refused: an unknown action" refused action "rule 1: unknown action SCMP_ACT_TEAPOT" "$W/in.json"
r '{ "defaultAction": "SCMP_ACT_ERRNO", "syscalls": [ { "name": "bind", "names": [ "bind" ], "action": "SCMP_ACT_ALLOW" } ] }'
check "refused: name and names" refused both "rule 0 has both name and names" "$W/in.json"
r "{ \"ociVersion\": \"1.0.2\", \"linux\": { \"seccomp\": { \"defaultAction\": \"SCMP_ACT_ERRNO\", \"archMap\": [], \"syscalls\": [ $B ] } } }"
check "refused: archMap in a config.json's linux.seccomp (not the runtime spec's)" refused ociarch 'unknown member "archMap" in linux.seccomp' "$W/in.json"
r '{ "ociVersion": "1.0.2", "linux": { "seccomp": { "defaultAction": "SCMP_ACT_ERRNO", "syscalls": [ { "names": [ "bind" ], "action": "SCMP_ACT_ALLOW", "includes": {} } ] } } }'
check "refused: includes in a config.json's rule (not the runtime spec's)" refused ociinc 'rule 0: unknown member "includes"' "$W/in.json"
r '{ "ociVersion": "1.0.2", "linux": {} }'
check "refused: a config.json without linux.seccomp" refused nosec "a config.json without linux.seccomp" "$W/in.json"
r '{ "defaultAction": "SCMP_ACT_ERRNO", "syscalls": [ ] } }'
check "refused: text after the JSON value" refused trailing "not one JSON value" "$W/in.json"
r '{ "defaultAction": "SCMP_ACT_ERRNO", '
check "refused: JSON cut short" refused short "not one JSON value: empty or cut short" "$W/in.json"
check "refused: a missing file" refused missing "No such file or directory" "$W/none.json"

# -- usage: exit status 2
usage2() {
	"$prog" "$@" </dev/null >/dev/null 2>"$W/err"
	_rc=$?
	sed 's/^/#   /' "$W/err"
	[ "$_rc" = 2 ]
}
check "usage: an unknown option is exit status 2" usage2 --teapot
check "usage: --metadata that is not allow=... is exit status 2" usage2 --metadata port=80
check "usage: a relative --listener-path is exit status 2" usage2 --listener-path x.sock
check "usage: --help is exit status 0 and names the man page" \
	sh -c "'$prog' --help | grep -q 'docs/man/derive-profile.8'"
echo "1..$n"
exit $failed
