#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# samples/bind/deploy/derive-profile-test.sh DERIVE-PROFILE
#   derive-profile on the host, as TAP: from podman's default profile
#   (/usr/share/containers/seccomp.json, Debian's
#   golang-github-containers-common, which podman brings) and from crafted
#   inputs in both formats (containers' and a whole OCI config.json), the
#   output keeps every rule (each rule of the input, less bind and
#   socketcall, is in the output, in order, member for member, and
#   nothing else is), no ALLOW rule names bind, the NOTIFY rules and
#   listener fields are there; the same checker rejects the naive merge
#   (the NOTIFY rule added, bind left in the ALLOW rule), so it can fail;
#   libseccomp, given the rules as crun gives them, builds the derived
#   profile with bind notified on x86_64, and the naive merge with bind
#   allowed; each refusal gives its message and exit status. Needs
#   /usr/bin/python3 (the checker) and libseccomp (crun's).
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
def names(r):
    return r["names"] if "names" in r else [r["name"]]
# Each input rule less bind, in order, then the NOTIFY rule made of it;
# every other rule (socketcall's too) as it was.
want = []
for i, r in enumerate(a["syscalls"]):
    if "bind" not in names(r) or r["action"] != "SCMP_ACT_ALLOW":
        want.append(r)
        continue
    rest = [x for x in names(r) if x != "bind"]
    if rest:
        want.append(dict(r, names=rest))
    cond = {k: r[k] for k in ("includes", "excludes") if k in r and not oci}
    want.append(("notify", r.get("args") or None, cond))
got = d["syscalls"]
j = 0
for w in want:
    if j >= len(got):
        fail("rule %r missing at the end" % (w,))
    g = got[j]
    if isinstance(w, dict):
        if g != w:
            fail("output rule %d is %s, want %s" % (j, json.dumps(g)[:200], json.dumps(w)[:200]))
    else:
        _, args, cond = w
        c = {k: g[k] for k in ("includes", "excludes") if k in g}
        if g.get("names") != ["bind"] or g["action"] != "SCMP_ACT_NOTIFY" or (g.get("args") or None) != args:
            fail("output rule %d is %s, want bind notified" % (j, json.dumps(g)))
        if c != cond:
            fail("output rule %d has the conditions %s, want %s" % (j, c, cond))
    j += 1
if j != len(got):
    fail("%d rules more than the input's: %s" % (len(got) - j, json.dumps(got[j:])[:300]))
# What the agent needs, said directly.
for r in got:
    if r["action"] == "SCMP_ACT_ALLOW" and "bind" in names(r):
        fail("an ALLOW rule names bind: %s" % json.dumps(r)[:200])
if not [r for r in got if r["action"] == "SCMP_ACT_NOTIFY" and names(r) == ["bind"]]:
    fail("no NOTIFY rule for bind")
print("#   %d rules in, %d out" % (len(a["syscalls"]), len(got)))
PY
}

# filter_action PROFILE ACTION: the rules of the containers-format
# PROFILE that podman gives crun for a container with no capabilities on
# amd64, added to a libseccomp filter the way crun 1.8.1 adds them
# (src/libcrun/seccomp.c, libcrun_generate_seccomp(): seccomp_rule_add for
# a rule without args, seccomp_rule_add_array with them), with the host's
# libseccomp (crun's; Debian's libseccomp2): no rule refused, and the
# x86_64 filter's action for bind (libseccomp's seccomp_export_pfc) is ACTION
filter_action() {
	/usr/bin/python3 - "$1" "$2" "$W/pfc" <<'PY'
import ctypes, ctypes.util, json, os, sys
L = ctypes.CDLL(ctypes.util.find_library("seccomp") or "libseccomp.so.2")
class Cmp(ctypes.Structure):
    _fields_ = [("arg", ctypes.c_uint), ("op", ctypes.c_int), ("a", ctypes.c_uint64), ("b", ctypes.c_uint64)]
L.seccomp_init.restype = ctypes.c_void_p
L.seccomp_arch_add.argtypes = [ctypes.c_void_p, ctypes.c_uint32]
L.seccomp_arch_resolve_name.argtypes = [ctypes.c_char_p]
L.seccomp_arch_resolve_name.restype = ctypes.c_uint32
L.seccomp_syscall_resolve_name.argtypes = [ctypes.c_char_p]
L.seccomp_rule_add_array.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_int, ctypes.c_uint, ctypes.POINTER(Cmp)]
L.seccomp_export_pfc.argtypes = [ctypes.c_void_p, ctypes.c_int]
OPS = {"SCMP_CMP_NE": 1, "SCMP_CMP_LT": 2, "SCMP_CMP_LE": 3, "SCMP_CMP_EQ": 4, "SCMP_CMP_GE": 5,
       "SCMP_CMP_GT": 6, "SCMP_CMP_MASKED_EQ": 7}
def action(name, errno):
    return {"SCMP_ACT_ALLOW": 0x7fff0000, "SCMP_ACT_NOTIFY": 0x7fc00000,
            "SCMP_ACT_ERRNO": 0x00050000 | errno}[name]
d = json.load(open(sys.argv[1]))
default = action(d["defaultAction"], d.get("defaultErrnoRet", 1))
c = L.seccomp_init(default)
for m in d["archMap"]:
    if m["architecture"] == "SCMP_ARCH_X86_64":
        for a in m["subArchitectures"]:
            L.seccomp_arch_add(c, L.seccomp_arch_resolve_name(a[10:].lower().encode()))
for i, r in enumerate(d["syscalls"]):
    inc, exc = r.get("includes") or {}, r.get("excludes") or {}
    if inc.get("caps") or inc.get("minKernel") or (inc.get("arches") and "amd64" not in inc["arches"]):
        continue
    if exc.get("arches") and "amd64" in exc["arches"]:
        continue
    act = action(r["action"], r.get("errnoRet", 1))
    if act == default:
        continue
    for n in r["names"]:
        nr = L.seccomp_syscall_resolve_name(n.encode())
        if nr == -1:
            continue
        args = r.get("args") or []
        cmp = (Cmp * max(1, len(args)))(*[Cmp(x["index"], OPS[x["op"]], x["value"], x.get("valueTwo", 0)) for x in args])
        rc = L.seccomp_rule_add_array(c, act, nr, len(args), cmp)
        if rc:
            print("#   rule %d, %s: seccomp_rule_add_array: %s" % (i, n, os.strerror(-rc)))
            sys.exit(1)
fd = os.open(sys.argv[3], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
if L.seccomp_export_pfc(c, fd):
    sys.exit(1)
os.close(fd)
lines = open(sys.argv[3]).read().split("\n")
x86_64 = lines[:[k for k, l in enumerate(lines) if l.startswith("# filter for arch x86 ")][0]]
k = [k for k, l in enumerate(x86_64) if l.strip().startswith('# filter for syscall "bind" ')][0]
print("#   x86_64: " + " ".join(l.strip() for l in x86_64[k:k + 3]))
sys.exit(x86_64[k + 2].strip() != "action %s;" % sys.argv[2])
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
	check "derive-profile: $def: every rule kept less bind; bind notified; listener fields" \
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
	check "libseccomp builds the derived profile as crun does, and its x86_64 filter notifies bind" \
		filter_action "$W/podman.json" 0x7fc00000
	check "libseccomp builds the naive merge as crun does, and its x86_64 filter allows bind (the ALLOW rule wins)" \
		filter_action "$W/naive.json" ALLOW
	# socketcall split on SYS_BIND (an earlier derive-profile did that):
	# libseccomp refuses a rule of the default's, so crun fails the container
	/usr/bin/python3 - "$W/podman.json" "$W/split.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["syscalls"]:
    if r["action"] == "SCMP_ACT_ALLOW" and "socketcall" in r.get("names", []):
        r["names"].remove("socketcall")
for op, act in (("SCMP_CMP_NE", "SCMP_ACT_ALLOW"), ("SCMP_CMP_EQ", "SCMP_ACT_NOTIFY")):
    d["syscalls"].append({"names": ["socketcall"], "action": act,
                          "args": [{"index": 0, "value": 2, "op": op}]})
json.dump(d, open(sys.argv[2], "w"))
PY
	split_refused() {
		filter_action "$W/split.json" ALLOW >"$W/split.out"
		_rc=$?
		cat "$W/split.out"
		[ "$_rc" != 0 ] && grep -q 'seccomp_rule_add_array: File exists' "$W/split.out"
	}
	check "libseccomp refuses the default's rules once socketcall is split on SYS_BIND: derive-profile leaves it allowed" \
		split_refused
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
r "{ \"defaultAction\": \"SCMP_ACT_ERRNO\", \"syscalls\": [ $B, { \"names\": [ \"bind\" ], \"action\": \"SCMP_ACT_ERRNO\", \"includes\": {} } ] }"
check "refused: bind refused under no includes or excludes" refused uncond "rule 1 gives bind SCMP_ACT_ERRNO under no includes or excludes" "$W/in.json"
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
# one member twice: readers differ on which counts (json-c, Go's
# encoding/json: the last; others the first), so no reading is derived
r "{ \"defaultAction\": \"SCMP_ACT_ALLOW\", \"defaultAction\": \"SCMP_ACT_ERRNO\", \"syscalls\": [ $B ] }"
check "refused: a member twice at the top" refused duptop 'member "defaultAction" twice' "$W/in.json"
r '{ "defaultAction": "SCMP_ACT_ERRNO", "syscalls": [ { "names": [ "bind" ], "action": "SCMP_ACT_ERRNO", "act\u0069on": "SCMP_ACT_ALLOW" } ] }'
check "refused: a member twice in a rule, once spelled with an escape" refused duprule 'member "action" twice' "$W/in.json"
# ... as Go's encoding/json (runc, containerd) reads a config.json: a
# member name matches case-insensitively, U+017F long s as s too
C='"seccomp": { "defaultAction": "SCMP_ACT_ERRNO", "syscalls": [ '"$B"' ] }'
r "{ \"ociVersion\": \"1.0.2\", \"linux\": { $C }, \"Linux\": { \"Seccomp\": { \"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": [] } } }"
check "refused: linux and Linux in a config.json (one member to runc)" refused dupcase 'member "Linux" twice' "$W/in.json"
r "{ \"ociVersion\": \"1.0.2\", \"linux\": { $C, \"\\u017Feccomp\": { \"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": [] } } }"
check "refused: seccomp and U+017F eccomp in linux (one member to runc)" refused duplongs 'member "\(ſ\|\\u017F\)eccomp" twice' "$W/in.json"
# json-c's strict tokener takes a single-quoted member name; a '"' in it
# would hide what follows from the check above
r "{ \"ociVersion\": \"1.0.2\", 'annotations\"': {}, \"linux\": { \"seccomp\": { \"defaultAction\": \"SCMP_ACT_ERRNO\", \"syscalls\": [ { \"names\": [ \"bind\" ], \"action\": \"SCMP_ACT_ERRNO\", \"action\": \"SCMP_ACT_ALLOW\" } ] } } }"
check "refused: a single-quoted member name (one with a '\"' hid a rule's action twice)" refused squote "a single-quoted member name" "$W/in.json"

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
