#!/bin/sh
# boot/checks/agent-host.sh
#   bind-agent where operators run it, on the host, as TAP in
#   $LOGS/agent-host.log: installed by its documented command, its units
#   checked by systemd's own tools (verify, security), started by
#   systemd-socket-activate on a socket it did not create, with READY=1;
#   the capabilities the unit leaves it are needed and enough for a
#   container in the host's network namespace, one in a namespace of its
#   own is refused under them and served with the netns drop-in's
#   (CAP_SYS_ADMIN), which adds nothing else, and every syscall it makes
#   is in the unit's SystemCallFilter (as the drop-in leaves it); its man pages
#   lint; bind-supervisor refusing to run set-uid or with file
#   capabilities; its JSON log and its metrics (promtool); derive-profile
#   (its own test) and its man page; and the kernel's fast
#   paths (SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP, PIDFD_THREAD) where the
#   host kernel has them. Needs root (the agent takes listeners from root
#   only) with CAP_SYS_PTRACE (a container of the default docker profile
#   lacks it: the grants then fail, and say so).
set -eu
. "$(dirname "$0")/../lib.sh"
[ "$(id -u)" = 0 ] || die "run as root: the agent takes listeners from root only"
host_kept "$LOGS/agent-host.log" && exit 0

# The programs run as uid 1000 too: not under the cache, which may be
# under root's home.
W=$(mktemp -d /tmp/agent-host.XXXXXX)
chmod 0755 "$W"
BIND=$TOP/samples/bind
PREFIX=$W/prefix UNITDIR=$W/units CONFDIR=$W/etc
AGENT=$PREFIX/sbin/bind-agent
SOCK=$W/agent.sock
ALOG=$W/agent.log
# Privileged ports on the host (below its ip_unprivileged_port_start, 1024
# by default) that nothing of the host should hold.
P1=981 P2=982 P3=983
agent=

# wait_for CMD...: until CMD succeeds, for at most 10 s
wait_for() {
	_i=0
	until "$@" >/dev/null 2>&1; do
		_i=$((_i + 1))
		[ "$_i" -le 100 ] || { echo "not within 10 s: $*"; return 1; }
		sleep 0.1
	done
}

stop_agent() {
	[ -n "$agent" ] || return 0
	# strace's child, the agent (setpriv and systemd-socket-activate exec it)
	for c in $(pgrep -P "$agent"); do kill "$c" 2>/dev/null || true; done
	kill "$agent" 2>/dev/null || true
	wait "$agent" 2>/dev/null || true
	agent=
}
trap 'stop_agent; rm -rf "$W"' EXIT

# start_agent ARGS...: the agent on $SOCK (created by it), log in $ALOG
start_agent() {
	stop_agent
	rm -f "$SOCK" "$ALOG"
	"$@" 2>"$ALOG" &
	agent=$!
	wait_for grep -q "listening on" "$ALOG" || { cat "$ALOG"; return 1; }
}

# client ID PROGRAM ARGS...: what a runtime does, for container ID (an
# agent that never answers must not hang the check)
client() {
	_id=$1
	shift
	timeout 20 "$W/agent-client" "$SOCK" run --id "$_id" -- "$@"
}

build() {
	PREFIX=$PREFIX UNITDIR=$UNITDIR CONFDIR=$CONFDIR sh "$BIND/deploy/install-agent.sh" &&
		gcc -std=gnu11 -O2 -Wall -Wextra -Werror -static -I"$TOP/uapi" -o "$W/agent-client" \
			"$BIND/agent/agent-client.c" "$TOP/samples/seccomp/user-trap-helper.c" &&
		gcc -std=gnu11 -O2 -Wall -Wextra -Werror -static -I"$TOP/uapi" -pthread \
			-o "$W/try-bind" "$BIND/tests/try-bind.c" &&
		gcc -std=gnu11 -O2 -Wall -Wextra -Werror -static -I/usr/include/json-c -o "$W/json-lines" \
			"$BIND/tests/json-lines.c" "/usr/lib/$(gcc -dumpmachine)/libjson-c.a"
}

installed() {
	for f in "$AGENT" "$PREFIX/share/man/man8/bind-agent.8" \
		"$PREFIX/share/man/man8/bind-supervisor.8" "$UNITDIR/bind-agent.socket" \
		"$UNITDIR/bind-agent.service" "$CONFDIR/bind-agent"; do
		ls -l "$f" || return 1
	done
	grep "^ExecStart=$AGENT " "$UNITDIR/bind-agent.service" &&
		[ "$(grep -cx -e "SocketMode=0600" -e "SocketUser=root" -e "ListenStream=/run/bind-agent.sock" \
			"$UNITDIR/bind-agent.socket")" = 3 ]
}

units_verify() {
	# Documentation=man:bind-agent(8): verify runs man(1) on it
	MANPATH=$PREFIX/share/man systemd-analyze verify "$UNITDIR/bind-agent.socket" \
		"$UNITDIR/bind-agent.service" 2>&1 | tee "$W/verify.out"
	[ ! -s "$W/verify.out" ]
}

# systemd passes the store's fds as 3, 4, ... (shift_fds(), F_DUPFD), under
# the service's RLIMIT_NOFILE soft limit, before the agent can raise it: a
# store fuller than the limit allows fails every start (status 202/FDS,
# "Failed to shift fd and set FD_CLOEXEC"), its containers' binds pending
# for good (make bench's 1000 containers did). The soft limit, LimitNOFILE=
# or systemd's default of 1024 (systemd-system.conf(5)), must hold the
# socket and FileDescriptorStoreMax= fds above fd 2.
fdstore_fits_nofile() {
	max=$(sed -n 's/^FileDescriptorStoreMax=//p' "$UNITDIR/bind-agent.service" | tail -n 1)
	soft=$(sed -n 's/^LimitNOFILE=\([0-9]*\).*/\1/p' "$UNITDIR/bind-agent.service" | tail -n 1)
	echo "FileDescriptorStoreMax=${max:-none}, LimitNOFILE soft ${soft:-1024, the default (none set)}"
	[ -n "$max" ] && [ "${soft:-1024}" -ge "$((3 + 1 + max))" ]
}

# The figure goes in docs/bind-agent.md's measurements, with its commit.
EXPOSURE_MAX=3.0
exposure_at_most() {
	systemd-analyze security --offline=true "$UNITDIR/bind-agent.service" >"$W/security.out" 2>&1 || true
	grep -v '^✓' "$W/security.out"
	e=$(sed -n 's/.*Overall exposure level for bind-agent.service: \([0-9.]*\).*/\1/p' "$W/security.out")
	echo "exposure: ${e:-none} (at most $EXPOSURE_MAX)"
	[ -n "$e" ] && awk -v e="$e" -v m="$EXPOSURE_MAX" 'BEGIN { exit !(e <= m) }'
}

# notify_listener FILE [fill]: a datagram socket at $W/notify whose
# messages, up to the one with READY=1, go to FILE (as systemd's
# NOTIFY_SOCKET; the agent stores its journal first), in the background.
# With fill, it then fills its own queue, so that the agent's next message
# waits in sendmsg() (a service manager that does not read), creates
# $W/full, and once $W/drain exists reads until 5 s pass with none.
notify_listener() {
	rm -f "$W/notify" "$1" "$W/full" "$W/drain"
	/usr/bin/python3 - "$W/notify" "$1" "$W" ${2:+"$2"} <<'PY' &
import os, socket, sys, time
path, out_path, w = sys.argv[1:4]
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(path)
s.settimeout(30)
out = b""
try:
    while b"READY=1" not in out:
        out += s.recv(4096) + b"\n"
except socket.timeout:
    sys.exit(1)
open(out_path, "wb").write(out)
if sys.argv[4:] != ["fill"]:
    sys.exit(0)
f = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
f.setblocking(False)
try:
    while True:
        f.sendto(b"X=1", path)
except BlockingIOError:
    pass
open(w + "/full", "w").close()
while not os.path.exists(w + "/drain"):
    time.sleep(0.1)
s.settimeout(5)
try:
    while True:
        s.recv(4096)
except socket.timeout:
    pass
PY
	notifier=$!
	wait_for test -S "$W/notify"
}

# SIGHUP while a container is being taken (agent review, finding 1): the
# container's policy was narrowed from the one before, and it joins the
# served ones after SIGHUP gave them the new one. The window is held open
# by a service manager that does not read (its queue full): the agent's
# FDSTORE=1 for the container, between the two, waits in sendmsg().
sighup_while_taken() {
	stop_agent
	rm -f "$W/go.join"
	echo "tcp:$P2" >"$W/allow-join"
	chmod 0644 "$W/allow-join"
	notify_listener "$W/ready" fill
	start_agent env NOTIFY_SOCKET="$W/notify" "$AGENT" -v --socket "$SOCK" --allow tcp:$P1 \
		--allow-file "$W/allow-join" || return 1
	wait_for test -e "$W/full" || return 1
	client join sh -c "while [ ! -e $W/go.join ]; do sleep 0.1; done; $W/try-bind tcp $P2" \
		>"$W/join.out" 2>&1 &
	joined=$!
	wait_for grep -q "container join (pid [0-9]*, from runtime pid [0-9]*): serving its listener; allowed: tcp:$P1 tcp:$P2" "$ALOG" ||
		{ cat "$ALOG"; return 1; }
	: >"$W/allow-join"
	kill -HUP "$agent"
	wait_for grep -q "SIGHUP: allowed: tcp:$P1 (was tcp:$P1 tcp:$P2" "$ALOG" || { cat "$ALOG"; return 1; }
	: >"$W/drain"
	wait_for grep -q "container join: its listener is in systemd's fd store" "$ALOG"
	: >"$W/go.join"
	wait "$joined"
	wait "$notifier"
	stop_agent
	cat "$ALOG"
	cat "$W/join.out"
	[ "$(cat "$W/join.out")" = "bind tcp:$P2 as uid 1000: Permission denied" ] &&
		grep -q "container join: SIGHUP came while it was being taken: allowed now: tcp:$P1$" "$ALOG"
}

socket_activated_grant() {
	stop_agent
	rm -f "$SOCK"
	notify_listener "$W/ready"
	# (it passes on only the environment -E names)
	systemd-socket-activate -E NOTIFY_SOCKET="$W/notify" -l "$SOCK" \
		"$AGENT" -v --socket "$SOCK" --allow tcp:$P1 2>"$ALOG" &
	agent=$!
	wait_for test -S "$SOCK"
	ls -li "$SOCK"
	inode=$(stat -c %i "$SOCK")
	pgrep -f "^$AGENT" && { echo "the agent runs before the first connection"; return 1; }
	# The first client starts the agent (Accept=no), which serves it.
	out=$(client activated "$W/try-bind" tcp $P1) || true
	echo "$out"
	wait "$notifier" || { echo "no notification"; return 1; }
	sed 's/^/notified: /' "$W/ready"
	cat "$ALOG"
	ls -li "$SOCK"
	# the socket systemd-socket-activate made, not one of the agent's
	[ "$(stat -c %i "$SOCK")" = "$inode" ] && [ "$out" = "bind tcp:$P1 as uid 1000: ok" ] &&
		grep -q "listening on $SOCK (from systemd, LISTEN_FDS)" "$ALOG" &&
		grep -q "container activated: pid [0-9]* .*port $P1: allowed, bound" "$ALOG" &&
		grep -qx "READY=1" "$W/ready" && grep -q "^MAINPID=$agent$" "$W/ready"
}

# activation_refused EXPECTED SETUP ARGS...: systemd-socket-activate ARGS
# with the agent; SETUP runs on the socket before the first connection;
# the agent must exit 1 saying EXPECTED
activation_refused() {
	want=$1 setup=$2
	shift 2
	stop_agent
	rm -f "$SOCK" "$SOCK"2
	systemd-socket-activate "$@" 2>"$ALOG" &
	agent=$!
	wait_for test -S "$SOCK"
	$setup
	timeout 20 "$W/agent-client" "$SOCK" silent >/dev/null 2>&1 || true
	wait_for sh -c "! kill -0 $agent" || { stop_agent; cat "$ALOG"; return 1; }
	rc=0
	wait "$agent" || rc=$?
	agent=
	cat "$ALOG"
	echo "exit status $rc"
	[ "$rc" = 1 ] && grep -q "$want" "$ALOG"
}
world_writable() { chmod 0666 "$SOCK"; }
nothing() { :; }

foreign_listen_pid_ignored() {
	out=$(LISTEN_PID=1 LISTEN_FDS=1 timeout 10 "$AGENT" --allow tcp:$P1 2>&1) && return 1
	echo "$out"
	echo "$out" | grep -q "^bind-agent: --socket is required"
}

# caps_grant CAPS EXPECTED...: the agent with bounding set CAPS (root's
# permitted set after execve), a container's bind to tcp:$P1 says EXPECTED
caps_grant() {
	caps=$1 want=$2 logged=${3:-}
	start_agent setpriv --inh-caps=-all --bounding-set=-all"$caps" "$AGENT" -v --socket "$SOCK" --allow tcp:$P1 ||
		return 1
	grep Cap "/proc/$agent/status" | grep -v Amb
	out=$(client caps "$W/try-bind" tcp $P1) || true
	echo "$out"
	wait_for grep -q "container caps: no task" "$ALOG"
	cat "$ALOG"
	stop_agent
	[ "$out" = "$want" ] && { [ -z "$logged" ] || grep -q "$logged" "$ALOG"; }
}

# agent_fds: how many fds the agent has open (no fd leaks on a path)
agent_fds() { find "/proc/$agent/fd" -mindepth 1 -maxdepth 1 | wc -l; }
agent_fds_are() { [ "$(agent_fds)" = "$1" ]; }
# agent_fds_back_to N: how many after waiting (10 s at most) for N again:
# a container's listener is closed soon after it is done
agent_fds_back_to() {
	wait_for agent_fds_are "$1" >/dev/null || true
	agent_fds
}

# netns_grant CAPS EXPECTED LOGGED [hold|free [WRAPPER...]]: a container in
# a network namespace of its own binds tcp:$P1 (with hold: which a socket
# of the host holds) under the agent with bounding set CAPS, run by
# WRAPPER if any: the port must be probed in the container's namespace, or
# not at all (S3, docs/bind-agent.md), and the agent's fds come back to
# their count
netns_grant() {
	caps=$1 want=$2 logged=$3 hold=${4:-free} out='' fds_before='' fds_after=''
	shift $(($# < 4 ? $# : 4))
	if [ "$hold" = hold ]; then
		"$W/try-bind" --hold-any tcp $P1 >"$W/hold.out" 2>&1 &
	else
		echo holding nothing >"$W/hold.out"
		sleep 600 &
	fi
	holder=$!
	if wait_for grep -q holding "$W/hold.out" &&
		start_agent setpriv --inh-caps=-all --bounding-set=-all"$caps" "$@" "$AGENT" -v \
			--socket "$SOCK" --allow tcp:$P1; then
		fds_before=$(agent_fds)
		out=$(timeout 20 "$W/agent-client" "$SOCK" run --id netns --netns -- "$W/try-bind" tcp $P1) || true
		echo "$out"
		wait_for grep -q "container netns: no task" "$ALOG"
		fds_after=$(agent_fds_back_to "$fds_before")
		echo "the agent's open fds: $fds_before before, $fds_after after"
		cat "$ALOG"
	fi
	stop_agent
	kill "$holder"
	wait "$holder" || true
	[ "$out" = "$want" ] && grep -q "$logged" "$ALOG" && [ "$fds_after" = "$fds_before" ]
}

# A container in a network namespace of its own binds a socket of a third
# one, sent to it over a unix socket: with CAP_SYS_ADMIN alone the agent
# enters the caller's namespace, which is not the socket's, and must
# refuse (a probe there answers for the wrong namespace)
foreign_socket_refused() {
	start_agent setpriv --inh-caps=-all --bounding-set=-all,+net_bind_service,+sys_ptrace,+chown,+sys_admin \
		"$AGENT" -v --socket "$SOCK" --allow tcp:$P1 || return 1
	rm -f "$W/fd.sock"
	unshare -n /usr/bin/python3 - "$W/fd.sock" <<'PY' &
import os, socket, sys
srv = socket.socket(socket.AF_UNIX)
srv.bind(sys.argv[1])
os.chmod(sys.argv[1], 0o777)
srv.listen(1)
srv.settimeout(30)
c, _ = srv.accept()
s = socket.socket()
socket.send_fds(c, [b"x"], [s.fileno()])
c.settimeout(30)
c.recv(1)
PY
	sender=$!
	out='' fds_before=$(agent_fds) fds_after=''
	if wait_for test -S "$W/fd.sock"; then
		out=$(timeout 20 "$W/agent-client" "$SOCK" run --id foreign --netns -- /usr/bin/python3 -c "
import socket, sys
c = socket.socket(socket.AF_UNIX)
c.connect(sys.argv[1])
_, fds, _, _ = socket.recv_fds(c, 1, 1)
s = socket.socket(fileno=fds[0])
try:
    s.bind(('0.0.0.0', $P1))
    print('ok')
except OSError as e:
    print(e.strerror)
" "$W/fd.sock") || true
		echo "$out"
		wait_for grep -q "container foreign: no task" "$ALOG"
		fds_after=$(agent_fds_back_to "$fds_before")
		echo "the agent's open fds: $fds_before before, $fds_after after"
	fi
	cat "$ALOG"
	stop_agent
	kill "$sender" 2>/dev/null || true
	wait "$sender" || true
	[ "$out" = "Permission denied" ] && grep -q "neither ours nor the caller's" "$ALOG" &&
		[ "$fds_after" = "$fds_before" ]
}

# expand NAME...: syscall names, with @groups expanded (they nest)
expand() {
	for g in "$@"; do
		# shellcheck disable=SC2046 # one name a word
		case $g in
		@*) expand $(systemd-analyze syscall-filter "$g" | sed -n 's/^ \{1,\}\([@a-z0-9_-]*\)$/\1/p') ;;
		*) echo "$g" ;;
		esac
	done
}
# The syscalls of the SystemCallFilter= lines of the unit [and FILE...,
# its drop-ins]: the allow lists add up, a ~ line takes its syscalls out.
filter_syscalls() {
	# shellcheck disable=SC2046 # one name a word
	expand $(sed -n 's/^SystemCallFilter=\([^~]\)/\1/p' "$UNITDIR/bind-agent.service" "$@") | sort -u >"$W/allowed.list"
	# shellcheck disable=SC2046
	expand $(sed -n 's/^SystemCallFilter=~//p' "$UNITDIR/bind-agent.service" "$@") | sort -u >"$W/denied.list"
	comm -23 "$W/allowed.list" "$W/denied.list"
}

# syscalls_in FILTER-LIST STRACE-OUT USED-LIST: the syscalls of
# STRACE-OUT, one a line in USED-LIST, are some, and each in FILTER-LIST
syscalls_in() {
	sed -n 's/^[0-9]\{1,\} \{1,\}\([a-z0-9_]*\)(.*/\1/p' "$2" | sort -u >"$3"
	echo "syscalls made: $(tr '\n' ' ' <"$3")"
	missing=$(comm -23 "$3" "$1")
	[ -z "$missing" ] || { echo "not in the SystemCallFilter ($1): $missing"; return 1; }
	[ -s "$3" ]
}

# Every syscall of the agent, from start to serving a TCP grant, a UDP
# grant (the held-port probe), a refusal and a syscall other than bind,
# with the JSON log and the metrics, is in the unit's filter; every
# socket it creates is of a family RestrictAddressFamilies= leaves it.
syscalls_in_unit_filter() {
	start_agent strace -f -qq -o "$W/strace.out" "$AGENT" -v --socket "$SOCK" --allow tcp:$P1 \
		--allow udp:$P3 --log-format json --metrics "$W/strace.prom" || return 1
	client s1 "$W/try-bind" tcp $P1
	client s2 "$W/try-bind" udp $P3
	client s3 "$W/try-bind" tcp $P2 || true
	timeout 20 "$W/agent-client" "$SOCK" run --id s4 --listen -- /usr/bin/python3 -c "import socket; socket.socket().listen()" >/dev/null 2>&1 || true
	wait_for grep -q "container s4: no task" "$ALOG"
	sleep 1.5	# a metrics rewrite
	stop_agent
	cp "$ALOG" "$W/strace-agent.log"
	filter_syscalls >"$W/filter.list"
	echo "socket families: $(sed -n 's/.* socket(\(AF_[A-Z0-9]*\),.*/\1/p' "$W/strace.out" | sort -u | tr '\n' ' ')"
	syscalls_in "$W/filter.list" "$W/strace.out" "$W/used.list" || return 1
	# restart_syscall is the kernel's, never filtered
	! sed -n 's/.* socket(\(AF_[A-Z0-9]*\),.*/\1/p' "$W/strace.out" | grep -vx -e AF_UNIX -e AF_INET -e AF_INET6
}

# The drop-in for containers with a network namespace of their own
# (systemd/netns.conf), as systemd merges it into the unit: what
# systemd-analyze security finds exposed with it and not without is
# CAP_SYS_ADMIN and net namespaces, nothing else; and the syscalls of a
# grant to such a container, under the capabilities the unit and the
# drop-in leave (it enters the caller's namespace), are in the unit's
# filter as the drop-in leaves it.
DROPIN=$BIND/deploy/systemd/netns.conf
exposed() { # ROOT: the service's exposed settings, by name
	systemd-analyze security --offline=true --root="$1" bind-agent.service 2>&1 |
		sed -n 's/^✗ \([^ ]*\) .*/\1/p' | sort
}
netns_dropin_merges() {
	for d in plain netns; do
		mkdir -p "$W/root-$d/etc/systemd/system"
		cp "$UNITDIR/bind-agent.service" "$W/root-$d/etc/systemd/system/"
	done
	mkdir -p "$W/root-netns/etc/systemd/system/bind-agent.service.d"
	cp "$DROPIN" "$W/root-netns/etc/systemd/system/bind-agent.service.d/netns.conf"
	exposed "$W/root-plain" >"$W/exposed-plain"
	exposed "$W/root-netns" >"$W/exposed-netns"
	added=$(comm -13 "$W/exposed-plain" "$W/exposed-netns" | tr '\n' ' ')
	gone=$(comm -23 "$W/exposed-plain" "$W/exposed-netns" | tr '\n' ' ')
	echo "exposed without the drop-in: $(wc -l <"$W/exposed-plain"); with it, added: $added; gone: ${gone:-none}"
	[ -s "$W/exposed-plain" ] && [ -z "$gone" ] &&
		[ "$added" = "CapabilityBoundingSet=~CAP_SYS_ADMIN RestrictNamespaces=~net " ]
}
netns_syscalls_in_dropin_filter() {
	netns_grant ",+net_bind_service,+sys_ptrace,+chown,+sys_admin" "bind tcp:$P1 as uid 1000: ok" \
		"container netns: pid [0-9]* .*port $P1: allowed, bound" hold strace -f -qq -o "$W/strace-netns.out" ||
		return 1
	filter_syscalls "$DROPIN" >"$W/filter-netns.list"
	syscalls_in "$W/filter-netns.list" "$W/strace-netns.out" "$W/used-netns.list" &&
		grep -qx setns "$W/used-netns.list" && ! grep -qx unshare "$W/filter-netns.list"
}

# What bind-agent keeps in systemd's fd store, alone (fdstore-test.c)
fdstore_unit() {
	gcc -std=gnu11 -O2 -Wall -Wextra -Werror -I"$TOP/uapi" -pthread -o "$W/fdstore-test" \
		"$BIND/agent/fdstore-test.c" "$BIND/agent/fdstore.c" "$BIND/lib/rules.c" "$BIND/lib/bind-cli.c" &&
		"$W/fdstore-test" >"$W/fdstore-test.out" 2>&1
	_rc=$?
	cat "$W/fdstore-test.out"
	[ "$_rc" = 0 ] && grep -q '^1\.\.[1-9]' "$W/fdstore-test.out" && ! grep -q '^not ok' "$W/fdstore-test.out"
}

# The man page's OPTIONS are the usage text's options.
man_options_match() {
	"$AGENT" --help | grep -oE -- '--[a-z-]+' | grep -vx -- --help | sort -u >"$W/usage.opts"
	sed -n '/^\.SH OPTIONS/,/^\.SH /p' "$TOP/docs/man/bind-agent.8" | sed -n 's/^\.[BI]*R* *\\-\\-\([a-z\\-]*\).*/--\1/p' |
		sed 's/\\//g' | sort -u >"$W/man.opts"
	echo "usage: $(tr '\n' ' ' <"$W/usage.opts")"
	echo "man page: $(tr '\n' ' ' <"$W/man.opts")"
	cmp "$W/usage.opts" "$W/man.opts"
}

# json_decisions: the agent with --log-format json; a grant, a refusal and
# an unprivileged port; each decision line parses, with every member.
json_agent() {
	start_agent "$AGENT" -v --socket "$SOCK" --allow tcp:$P1 --log-format json \
		--metrics "$W/metrics.prom" --metrics-per-container || return 1
	client web "$W/try-bind" tcp $P1 >/dev/null
	client web "$W/try-bind" tcp $P2 >/dev/null || true
	client web "$W/try-bind" tcp 8080 >/dev/null
	wait_for logged 3 'container web: no task' && cp "$ALOG" "$W/json.log"
}
# logged N PATTERN: the agent's log has N lines with PATTERN
logged() { [ "$(grep -c "$2" "$ALOG")" = "$1" ]; }
json_decisions() {
	json_agent || return 1
	cat "$W/json.log"
	/usr/bin/python3 - "$W/json.log" "$P1" "$P2" <<'PY'
import json, sys
keys = {"time", "program", "level", "event", "request_id", "container", "pid", "abi",
        "audit_arch", "nr", "syscall", "family", "addr", "protocol", "port", "outcome", "errno",
        "error", "reason", "fetch", "latency_us"}
got = []
for line in open(sys.argv[1]):
    d = json.loads(line)
    if d["event"] == "decision":
        assert set(d) == keys, "members: %s" % sorted(set(d) ^ keys)
        got.append((d["outcome"], d["port"], d["errno"], d["error"], d["container"],
                    d["syscall"], d["family"]))
        assert d["latency_us"] >= 0 and d["time"].endswith("Z")
p1, p2 = int(sys.argv[2]), int(sys.argv[3])
want = [("granted", p1, 0, None, "web", "bind", "AF_INET"),
        ("refused", p2, 13, "EACCES", "web", "bind", "AF_INET"),
        ("continued", 8080, 0, None, "web", "bind", "AF_INET")]
print("decisions:", got)
assert got == want, "want %s" % want
PY
}

text_without_json() {
	start_agent "$AGENT" -v --socket "$SOCK" --allow tcp:$P1 || return 1
	client web "$W/try-bind" tcp $P1
	wait_for grep -q "container web: no task" "$ALOG"
	cat "$ALOG"
	! grep -q '^{' "$ALOG" && grep -q "container web: pid [0-9]* .*port $P1: allowed, bound" "$ALOG"
}

metrics_valid() {
	[ -s "$W/metrics.prom" ] || { echo "no $W/metrics.prom"; return 1; }
	promtool check metrics <"$W/metrics.prom"
}

# metric NAME: its value in the file
metric() { awk -v n="$1" '$1 == n { print $2 }' "$W/metrics.prom"; }
metric_is() { [ "$(metric "$1")" = "$2" ]; }
metrics_count() {
	wait_for metric_is bind_agent_decision_seconds_count 3 || { cat "$W/metrics.prom"; return 1; }
	grep -v '^#' "$W/metrics.prom" | grep -v _bucket
	[ "$(metric 'bind_agent_decisions_total{outcome="granted"}')" = 1 ] &&
		[ "$(metric 'bind_agent_decisions_total{outcome="refused"}')" = 1 ] &&
		[ "$(metric 'bind_agent_decisions_total{outcome="continued"}')" = 1 ] &&
		[ "$(metric 'bind_agent_decisions_total{outcome="failed"}')" = 0 ] &&
		[ "$(metric 'bind_agent_decision_seconds_bucket{le="+Inf"}')" = 3 ] &&
		[ "$(metric bind_agent_decision_seconds_count)" = 3 ] &&
		[ "$(metric bind_agent_containers)" = 0 ] &&
		! grep -q 'container="web"' "$W/metrics.prom"
}

# A container served now has its own series, valid for promtool.
metrics_per_container() {
	client box sh -c "'$W/try-bind' tcp $P1 && '$W/try-bind' tcp $P2; sleep 4" >"$W/box.out" 2>&1 &
	boxpid=$!
	wait_for grep -q 'bind_agent_container_decisions_total{container="box",outcome="refused"} 1' "$W/metrics.prom" ||
		{ cat "$W/metrics.prom"; kill "$boxpid"; return 1; }
	grep 'container="box"' "$W/metrics.prom" | grep -v _bucket
	promtool check metrics <"$W/metrics.prom" || { kill "$boxpid"; return 1; }
	r=0
	[ "$(metric 'bind_agent_container_decisions_total{container="box",outcome="granted"}')" = 1 ] &&
		[ "$(metric bind_agent_containers)" = 1 ] &&
		[ "$(metric 'bind_agent_decisions_total{outcome="granted"}')" = 2 ] || r=1
	wait "$boxpid"
	wait_for sh -c "! grep -q 'container=\"box\"' '$W/metrics.prom'" || r=1
	return $r
}

metrics_unwritable() {
	out=$(timeout 10 "$AGENT" --socket "$SOCK" --allow tcp:$P1 --metrics /proc/bind-agent.prom 2>&1) && return 1
	rc=$?
	echo "$out (exit status $rc)"
	[ $rc = 1 ] && echo "$out" | grep -q "^bind-agent: --metrics /proc/bind-agent.prom: "
}

# The kernel's fast paths are expected by the running kernel's version
# (this host's 6.18 has both; a CI runner's may not).
KV=$(uname -r | awk -F. '{ print $1 * 1000 + $2 }')
sync_wake_up_set() {
	grep "SYNC_WAKE_UP" "$ALOG"
	if [ "$KV" -ge 6006 ]; then
		grep -q "container web: SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP set on its listener" "$ALOG"
	else
		grep -q "container web: SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP not set: Invalid argument" "$ALOG"
	fi
}
# A bind through io_uring (IORING_OP_BIND, 6.11) is no system call: seccomp
# never sees it, so bind-supervisor neither binds nor logs it, and the
# kernel refuses the privileged port to the program (docs/bind-supervisor.md,
# "io_uring"). The guests' kernels have no io_uring: this is where it runs.
uring_bind_unseen() {
	_rc=0
	"$BS" -v --user 1000 --allow tcp:$P2 -- "$W/uring-bind" $P2 >"$W/uring.out" 2>&1 || _rc=$?
	cat "$W/uring.out"
	echo "exit status $_rc; io_uring_disabled: $(cat /proc/sys/kernel/io_uring_disabled 2>&1)"
	if [ "$KV" -ge 6011 ] && [ "$(cat /proc/sys/kernel/io_uring_disabled 2>/dev/null || echo 0)" = 0 ]; then
		[ "$_rc" = 1 ] && grep -q "io_uring bind tcp:$P2 as uid 1000: Permission denied" "$W/uring.out" &&
			! grep -q "port $P2" "$W/uring.out"
	else
		grep -q "not supported" "$W/uring.out"
	fi
}
thread_pidfd_fetch() {
	grep '"outcome":"granted"' "$W/json.log" | grep -o '"fetch":"[^"]*"'
	grep 'pidfd_open(\|kcmp(' "$W/strace.out"
	if [ "$KV" -ge 6009 ]; then
		grep '"outcome":"granted"' "$W/json.log" | grep -q '"fetch":"pidfd_getfd, thread pidfd"' &&
			grep -q 'pidfd_open([0-9]*, \(O_EXCL\|PIDFD_THREAD\|0x80\)\>' "$W/strace.out" &&
			! grep -q 'kcmp(' "$W/strace.out"
	else
		grep '"outcome":"granted"' "$W/json.log" | grep -q '"fetch":"pidfd_getfd, process pidfd + kcmp"' &&
			grep -q 'kcmp(' "$W/strace.out"
	fi
}
# A thread with its own fd table binds its own UDP socket at fd N (the
# leader's fd N is TCP): through its thread pidfd that socket is the one
# fetched and granted; the Tgid path refuses it (kcmp: not the process's).
own_table_grant() {
	start_agent "$AGENT" -v --socket "$SOCK" --allow udp:$P3 --allow tcp:$P1 --log-format json ||
		return 1
	out=$(client own "$W/try-bind" --own-files udp $P3) || true
	echo "$out"
	wait_for grep -q "container own: no task" "$ALOG"
	grep '"event":"decision"' "$ALOG"
	if [ "$KV" -lt 6009 ]; then
		[ "$out" = "bind udp:$P3 as uid 1000: Permission denied" ] &&
			grep -q '"reason":"the calling thread has an fd table of its own' "$ALOG"
		return
	fi
	[ "$out" = "bind udp:$P3 as uid 1000: ok" ] &&
		grep -q '"port":'$P3',"protocol":"udp","outcome":"granted"' "$ALOG"
}

# bind-supervisor set-uid root or with file capabilities would let any
# user pick --user and --allow: under AT_SECURE it refuses to run (issue
# 26, S2). The guests' file systems keep no file capabilities, so both
# copies are run here, on the host's (BS: a build of bind-supervisor).
BS=$W/bind-supervisor
build_supervisor() {
	gcc -std=gnu11 -O2 -Wall -Wextra -Werror -I"$TOP/uapi" -pthread -o "$BS" \
		"$BIND/supervisor/bind-supervisor.c" "$BIND/supervisor/supervise.c" "$BIND"/lib/*.c \
		"$TOP/samples/seccomp/user-trap-helper.c" &&
		for _p in file-caps run-as uring-bind; do
			gcc -std=gnu11 -O2 -Wall -Wextra -Werror -I"$TOP/uapi" -o "$W/$_p" "$BIND/tests/$_p.c" || return 1
		done
}

# refuses_as_user COPY: COPY, run by uid 1000, exits 2 and says why
refuses_as_user() {
	_rc=0
	"$W/run-as" -u 1000 -- "$1" --user 1001 --allow tcp:$P1 -- "$W/try-bind" tcp $P1 >"$W/set-id.out" 2>&1 ||
		_rc=$?
	cat "$W/set-id.out"
	echo "exit status $_rc, wanted 2"
	[ "$_rc" = 2 ] && grep -q "refusing to run set-uid or set-gid or with file capabilities" "$W/set-id.out"
}

setcap_copy_refuses() {
	cp "$BS" "$W/bs-setcap" && "$W/file-caps" "$W/bs-setcap" && echo "file capabilities set" &&
		refuses_as_user "$W/bs-setcap"
}

setuid_copy_refuses() {
	cp "$BS" "$W/bs-setuid" && chmod 4755 "$W/bs-setuid" && ls -l "$W/bs-setuid" &&
		refuses_as_user "$W/bs-setuid"
}

# issue 41 (the operator's review, S1-S10)
# --version: the version of samples/bind/VERSION, the one home of it
VERSION=$(tr -d '"' <"$BIND/VERSION" 2>/dev/null || echo none)
version_is() { # PROGRAM NAME
	out=$("$1" --version 2>&1) || { echo "$out"; return 1; }
	echo "$out (samples/bind/VERSION: $VERSION)"
	[ "$out" = "$2 $VERSION" ]
}

# The JSON log: every line the agent writes is one JSON object, from its
# start to its exit: decisions (a grant, a refusal, an unprivileged port,
# an AF_UNIX bind, a port another socket holds), a container refused (its
# runtime's pid, why, and what its binds get), SIGTERM.
JSON_DECISION_KEYS="time event level request_id container pid abi audit_arch nr syscall family addr port protocol outcome errno error reason fetch latency_us"
json_every_line() {
	"$W/try-bind" --hold-any tcp $P3 >"$W/hold3.out" 2>&1 &
	holder=$!
	wait_for grep -q holding "$W/hold3.out" || return 1
	start_agent "$AGENT" -v --socket "$SOCK" --allow tcp:$P1 --allow tcp:$P3 --log-format json || return 1
	client web "$W/try-bind" tcp $P1
	client web "$W/try-bind" tcp $P2
	client web "$W/try-bind" tcp 8080
	client held "$W/try-bind" tcp $P3
	client unix /usr/bin/python3 -c "import socket; socket.socket(socket.AF_UNIX).bind('\0bind-agent-test')"
	wide=$(timeout 20 "$W/agent-client" "$SOCK" run --id wide --metadata allow=tcp:$P2 -- "$W/try-bind" tcp $P1)
	echo "the refused container: $wide"
	wait_for logged 5 '"event":"container_done"'
	wait_for grep -q client_refused "$ALOG"
	kill "$holder"
	wait "$holder"
	kill "$agent"
	wait "$agent"
	agent=
	cat "$ALOG"
	# what the refused container's effect says, as its bind() saw it
	[ "$wide" = "bind tcp:$P1 as uid 1000: Function not implemented" ] || return 1
	# shellcheck disable=SC2086 # one member a word
	"$W/json-lines" "$ALOG" decision $JSON_DECISION_KEYS || return 1
	"$W/json-lines" "$ALOG" client_refused time level runtime_pid runtime_uid container reason effect || return 1
	/usr/bin/python3 - "$ALOG" "$P1" "$P2" "$P3" <<'PY'
import json, sys
p1, p2, p3 = (int(a) for a in sys.argv[2:5])
lines = [json.loads(l) for l in open(sys.argv[1])]
dec = [(d["container"], d["outcome"], d["family"], d["addr"], d["port"], d["error"])
       for d in lines if d["event"] == "decision"]
print("decisions:", dec)
assert dec == [("web", "granted", "AF_INET", "127.0.0.1", p1, None),
               ("web", "refused", "AF_INET", "127.0.0.1", p2, "EACCES"),
               ("web", "continued", "AF_INET", "127.0.0.1", 8080, None),
               ("held", "bind-failed", "AF_INET", "127.0.0.1", p3, "EADDRINUSE"),
               ("unix", "continued", "AF_UNIX", None, None, None)], "decisions"
ids = [d["request_id"] for d in lines if d["event"] == "decision"]
assert len(set(ids)) == len(ids) and all(i.startswith(c + ":") for i, c in
       zip(ids, [d[0] for d in dec])), "request ids %s" % ids
r = [d for d in lines if d["event"] == "client_refused"]
print("refused:", r)
assert len(r) == 1 and r[0]["container"] == "wide" and r[0]["runtime_pid"] > 0
assert "tcp:%d" % p2 in r[0]["reason"] and "ENOSYS" in r[0]["effect"]
assert any(d["event"] == "signal" and d["signal"] == "SIGTERM" for d in lines), "no SIGTERM line"
PY
}
# ... and a usage error, said before any option is taken
json_usage_error() {
	rc=0
	"$AGENT" --log-format json --socket "$SOCK" --allow tcp:0 >"$W/usage.out" 2>&1 || rc=$?
	cat "$W/usage.out"
	[ "$rc" = 2 ] && "$W/json-lines" "$W/usage.out" usage_error time level message &&
		[ "$(wc -l <"$W/usage.out")" = 1 ]
}

# The metrics' series: a fixed number whatever the number of containers,
# unless --metrics-per-container (then a few per container served now);
# promtool accepts both. series_with N [OPTION]: the metrics file's
# series while N containers are served (in $W/series-N.prom)
series_with() {
	_n=$1
	shift
	start_agent "$AGENT" --socket "$SOCK" --allow tcp:$P1 --metrics "$W/m.prom" "$@" || return 1
	i=0 kids=
	while [ "$i" -lt "$_n" ]; do
		timeout 60 "$W/agent-client" "$SOCK" run --id "c$i" -- sleep 30 >/dev/null 2>&1 &
		kids="$kids $!"
		i=$((i + 1))
	done
	wait_for metric_in "$W/m.prom" bind_agent_containers "$_n"
	r=$?
	cp "$W/m.prom" "$W/series-$_n.prom"
	# shellcheck disable=SC2086
	kill $kids 2>/dev/null
	# shellcheck disable=SC2086
	wait $kids 2>/dev/null
	stop_agent
	promtool check metrics <"$W/series-$_n.prom" || r=1
	return $r
}
metric_in() { [ "$(awk -v n="$2" '$1 == n { print $2 }' "$1")" = "$3" ]; }
series() { grep -vc '^#' "$1"; }
series_bounded() {
	series_with 2 || return 1
	series_with 6 || return 1
	echo "series: $(series "$W/series-2.prom") with 2 containers, $(series "$W/series-6.prom") with 6"
	grep -v '^#' "$W/series-6.prom" | grep -v _bucket
	[ "$(series "$W/series-2.prom")" = "$(series "$W/series-6.prom")" ] &&
		! grep -q 'container=' "$W/series-6.prom"
}
series_per_container() {
	series_with 2 --metrics-per-container || return 1
	series_with 6 --metrics-per-container || return 1
	a=$(series "$W/series-2.prom") b=$(series "$W/series-6.prom")
	per=$(grep -v '^#' "$W/series-6.prom" | grep -c 'container="c0"')
	echo "series: $a with 2 containers, $b with 6; $per for container c0"
	grep 'container="c0"' "$W/series-6.prom"
	[ "$per" -ge 1 ] && [ "$per" -le 5 ] && [ "$((b - a))" = "$((4 * per))" ]
}
# Prometheus's conventions: a counter's name ends in _total, the latency
# is a histogram in seconds; the build's version is there
metrics_named() {
	grep '^# TYPE' "$W/series-6.prom"
	awk '$1 == "#" && $2 == "TYPE" && $4 == "counter" && $3 !~ /_total$/ { bad = 1; print "counter " $3 }
		$1 == "#" && $2 == "TYPE" && $4 == "histogram" { h[$3] = 1 }
		END { exit bad || !h["bind_agent_decision_seconds"] }' "$W/series-6.prom" &&
		grep -q "^bind_agent_build_info{version=\"$VERSION\"} 1$" "$W/series-6.prom"
}

# The socket's directory, and each one above it, must be root's and
# writable by no one else (a parent may be sticky, as /tmp is): anyone
# who can write there can put a socket of theirs in the agent's place.
socket_dir_refused() { # DIR WHY: the agent on DIR/a.sock exits 1 saying WHY
	rc=0
	timeout 10 "$AGENT" --socket "$1/a.sock" --allow tcp:$P1 >"$W/dir.out" 2>&1 || rc=$?
	cat "$W/dir.out"
	echo "exit status $rc"
	[ "$rc" = 1 ] && grep -q "$2" "$W/dir.out" && [ ! -e "$1/a.sock" ]
}
# ... and the one systemd passes: its path's directory too
activated_dir_refused() {
	mkdir -p "$W/ww2" && chmod 0777 "$W/ww2"
	_s=$SOCK
	SOCK=$W/ww2/a.sock
	_r=0
	activation_refused "socket directory $W/ww2 is mode 0777 owned by uid 0" nothing \
		-l "$SOCK" "$AGENT" --allow tcp:$P1 || _r=1
	SOCK=$_s
	return $_r
}
socket_dir_checked() {
	mkdir -p "$W/ww" "$W/gw" "$W/user" "$W/pw/sub"
	chmod 0777 "$W/ww" "$W/pw"
	chmod 0775 "$W/gw"
	chown 1000 "$W/user"
	socket_dir_refused "$W/ww" "socket directory $W/ww is mode 0777 owned by uid 0: want it owned by root and writable by no one else" &&
		socket_dir_refused "$W/gw" "socket directory $W/gw is mode 0775" &&
		socket_dir_refused "$W/user" "socket directory $W/user is mode 0755 owned by uid 1000" &&
		socket_dir_refused "$W/pw/sub" "socket directory $W/pw is mode 0777" &&
		socket_dir_symlinks
}
# A symbolic link on the way is followed as the runtimes' connect() will
# follow it: one that another user owns, in a directory they may write to
# (sticky, as /tmp is), they can point elsewhere later, to a directory of
# theirs with a socket of theirs in it. A root's link (/var/run) is fine.
socket_dir_symlinks() {
	mkdir -p "$W/st" "$W/ok" "$W/rl"
	chmod 1777 "$W/st"
	chmod 0755 "$W/ok" "$W/rl"
	ln -sfn "$W/ok" "$W/st/user-link"
	chown -h 1000 "$W/st/user-link"
	ln -sfn ../ok "$W/rl/root-link"
	ln -sfn "$W/st" "$W/rl/to-sticky"
	socket_dir_refused "$W/st/user-link" "$W/st/user-link is a symbolic link owned by uid 1000: want it root's" &&
		socket_dir_refused "$W/rl/to-sticky" "socket directory $W/st is mode 1777 owned by uid 0: want it owned by root and writable by no one else" &&
		socket_dir_accepted "$W/rl/root-link" &&
		(cd "$W/ok" && socket_dir_accepted ../rl/root-link)
}
socket_dir_accepted() { # DIR: the agent on DIR/a.sock listens there
	rc=0
	timeout 3 "$AGENT" --socket "$1/a.sock" --allow tcp:$P1 >"$W/dir.out" 2>&1 || rc=$?
	cat "$W/dir.out"
	echo "exit status $rc (timeout's 124: it was still serving)"
	[ "$rc" = 124 ] && grep -q "listening on $1/a.sock" "$W/dir.out"
}

# bind-supervisor(8)'s capabilities (SECURITY), and only those, are
# enough: a uid-1000 supervisor with them is granted its port
supervisor_documented_caps() {
	caps=$(sed -n '/^\.SH SECURITY/,/^\.SH /p' "$TOP/docs/man/bind-supervisor.8" |
		sed -n '/needs root, or/,$s/^\.BR* \(CAP_[A-Z_]*\).*/\1/p' | tr '[:upper:]' '[:lower:]' | sed 's/^cap_//' |
		paste -sd, -)
	echo "bind-supervisor(8): $caps"
	# its EXAMPLES' ambient capabilities are the same list
	ambient=$(sed -n 's/^AmbientCapabilities=//p' "$TOP/docs/man/bind-supervisor.8" | tr ' ' '\n' | tr '[:upper:]' '[:lower:]' |
		sed 's/^cap_//' | sort | paste -sd, -)
	echo "its EXAMPLES: $ambient"
	[ -n "$caps" ] && [ "$ambient" = "$(echo "$caps" | tr , '\n' | sort | paste -sd, -)" ] || return 1
	out=$("$W/run-as" -u 1000 -c "$caps" -- "$BS" --user 1001 --allow tcp:$P1 -- "$W/try-bind" tcp $P1 2>&1)
	echo "$out"
	[ "$out" = "bind tcp:$P1 as uid 1001: ok" ]
}
# docs/bind-supervisor.md's build command, run as the page shows it
supervisor_documented_build() {
	cmd=$(sed -n 's/^    \(sh samples\/bind\/deploy\/build.sh .*\)$/\1/p' "$TOP/docs/bind-supervisor.md")
	echo "docs/bind-supervisor.md: $cmd"
	[ -n "$cmd" ] || return 1
	rm -rf "$W/built" && mkdir "$W/built"
	(cd "$TOP" && DESTDIR=$W/built sh -c "$cmd") || return 1
	find "$W/built" -type f | sed "s|$W/built||"
	b=$(find "$W/built" -type f -name bind-supervisor)
	[ -n "$b" ] && file "$b" | grep -q 'statically linked' && version_is "$b" bind-supervisor
}

# bind-agent(8)'s first example, as the page shows it, but with the
# check's socket and ports: a container is granted, and the log is JSON
man_example_runs() {
	# (its lines joined where they end in \e, a backslash)
	line=$(awk '/^\.SH EXAMPLES/ { ex = 1 } ex && /^# bind\\-agent / { on = 1; sub(/^# bind\\-agent /, "") }
		on { more = sub(/ *\\e$/, ""); printf "%s ", $0; if (!more) exit }' "$TOP/docs/man/bind-agent.8" |
		sed 's/\\-/-/g; s/  */ /g; s/ $//')
	echo "bind-agent(8): bind-agent $line"
	[ -n "$line" ] || return 1
	# shellcheck disable=SC2046 # the example's words
	set -- $(echo "$line" | sed "s|/run/bind-agent.sock|$SOCK|; s|tcp:80 |tcp:$P1 |; s|tcp:443 |tcp:$P2 |")
	start_agent "$AGENT" "$@" || return 1
	out=$(client example "$W/try-bind" tcp $P2)
	echo "$out"
	wait_for grep -q '"event":"container_done"' "$ALOG"
	stop_agent
	cat "$ALOG"
	[ "$out" = "bind tcp:$P2 as uid 1000: ok" ] && "$W/json-lines" "$ALOG" container_done container
}

# Each man page has EXAMPLES and ENVIRONMENT; ENVIRONMENT names exactly
# the variables the program's sources read (getenv)
man_environment() { # PAGE SOURCES...
	page=$1
	shift
	grep -x '\.SH EXAMPLES' "$page" || return 1
	sed -n '/^\.SH ENVIRONMENT/,/^\.SH /p' "$page" | sed -n 's/^\.B \([A-Z_]*\)$/\1/p' | sort -u >"$W/env.man"
	# execvp(3) reads PATH
	{ grep -oh 'getenv("[A-Z_]*")' "$@" | sed 's/getenv("\(.*\)")/\1/'
	  grep -q 'execvp(' "$@" && echo PATH; } | sort -u >"$W/env.src"
	echo "man page: $(tr '\n' ' ' <"$W/env.man"); sources: $(tr '\n' ' ' <"$W/env.src")"
	grep -qx '\.SH ENVIRONMENT' "$page" && cmp "$W/env.man" "$W/env.src"
}

# derive-profile (samples/bind/deploy), built as the guest builds it, and
# its test: podman's default profile and crafted ones, the refusals
profile_derived() {
	gcc -std=gnu11 -O2 -Wall -Wextra -Werror -static -I/usr/include/json-c -o "$W/derive-profile" \
		"$BIND/deploy/derive-profile.c" "/usr/lib/$(gcc -dumpmachine)/libjson-c.a" &&
		sh "$BIND/deploy/derive-profile-test.sh" "$W/derive-profile"
}

step "bind-agent on the host: units, socket activation, logs, metrics"
host_begin "$LOGS/agent-host.log" agent-host
mkdir -p "$LOGS"
{ build && build_supervisor; } >"$LOGS/agent-host-build.log" 2>&1 ||
	{ cat "$LOGS/agent-host-build.log"; die "cannot build bind-agent (log: $LOGS/agent-host-build.log)"; }
host_case units "install-agent.sh-installs-the-agent-man-pages-units-and-options" installed
host_case units "systemd-analyze-verify-passes-the-socket-and-the-service" units_verify
host_case units "systemd-analyze-security-exposure-of-the-service-is-at-most-$EXPOSURE_MAX" exposure_at_most
host_case units "the-fd-store-fits-under-the-services-open-file-soft-limit" fdstore_fits_nofile
host_case activation "systemd-socket-activate-starts-the-agent-on-its-socket-and-a-container-is-granted" \
	socket_activated_grant
host_case activation "a-passed-socket-others-may-connect-to-is-refused" \
	activation_refused "is mode 0666 owned by uid 0: want it owned by root, writable by no one else" \
	world_writable -l "$SOCK" "$AGENT" --allow tcp:$P1
host_case activation "two-passed-sockets-are-refused" \
	activation_refused "LISTEN_FDS is '2': want 1" nothing -l "$SOCK" -l "$SOCK"2 "$AGENT" --allow tcp:$P1
host_case activation "a-passed-socket-that-is-not-the-one-socket-names-is-refused" \
	activation_refused "the socket passed is $SOCK, --socket says $W/elsewhere.sock" nothing \
	-l "$SOCK" "$AGENT" --socket "$W/elsewhere.sock" --allow tcp:$P1
host_case activation "listen-fds-for-another-pid-are-ignored" foreign_listen_pid_ignored
host_case capabilities "with-only-cap-net-bind-service-cap-sys-ptrace-and-cap-chown-a-container-is-granted" \
	caps_grant ",+net_bind_service,+sys_ptrace,+chown" "bind tcp:$P1 as uid 1000: ok"
host_case capabilities "without-cap-sys-ptrace-it-cannot-read-the-callers-address-eacces" \
	caps_grant ",+net_bind_service,+chown" "bind tcp:$P1 as uid 1000: Permission denied" \
	"port 0: not a bind we can read: the kernel answers"
host_case capabilities "without-cap-net-bind-service-even-the-agents-probe-bind-fails-eacces" \
	caps_grant ",+sys_ptrace,+chown" "bind tcp:$P1 as uid 1000: Permission denied" \
	"probing the port in the socket's network namespace: Permission denied; answered EACCES"
host_case capabilities "without-cap-chown-it-cannot-re-own-the-socket-eacces" \
	caps_grant ",+net_bind_service,+sys_ptrace" "bind tcp:$P1 as uid 1000: Permission denied" \
	"fchown: Operation not permitted"
host_case capabilities "every-syscall-of-the-agent-is-in-the-units-systemcallfilter" syscalls_in_unit_filter
host_case capabilities "the-netns-drop-in-adds-cap-sys-admin-and-net-namespaces-only" netns_dropin_merges
host_case capabilities "a-grant-to-a-container-in-its-own-netns-makes-only-syscalls-the-unit-and-drop-in-allow" \
	netns_syscalls_in_dropin_filter
host_case capabilities "with-the-units-capabilities-a-container-in-its-own-netns-is-refused-not-probed-in-the-hosts" \
	netns_grant ",+net_bind_service,+sys_ptrace,+chown" "bind tcp:$P1 as uid 1000: Permission denied" \
	"not ours, and entering it to probe the port was refused"
host_case capabilities "with-cap-net-admin-and-cap-sys-admin-too-it-gets-a-port-only-the-host-holds" \
	netns_grant ",+net_bind_service,+sys_ptrace,+chown,+net_admin,+sys_admin" "bind tcp:$P1 as uid 1000: ok" \
	"container netns: pid [0-9]* .*port $P1: allowed, bound" hold
host_case capabilities "with-cap-sys-admin-and-not-cap-net-admin-it-enters-the-callers-netns-and-gets-a-port-only-the-host-holds" \
	netns_grant ",+net_bind_service,+sys_ptrace,+chown,+sys_admin" "bind tcp:$P1 as uid 1000: ok" \
	"container netns: pid [0-9]* .*port $P1: allowed, bound" hold
host_case capabilities "with-cap-sys-admin-alone-a-socket-of-another-netns-than-the-callers-is-refused" \
	foreign_socket_refused
host_case fdstore "fdstore-test-names-records-and-the-journal-of-the-fd-store" fdstore_unit
host_case fdstore "sighup-while-a-container-is-taken-gives-it-the-new-policy" sighup_while_taken
host_case man "bind-agent.8-lints-clean-and-renders" man_lints "$TOP/docs/man/bind-agent.8" "$W"
host_case man "bind-supervisor.8-lints-clean-and-renders" man_lints "$TOP/docs/man/bind-supervisor.8" "$W"
host_case man "bind-agent.8-options-are-the-usage-texts" man_options_match
host_case set-id "a-copy-of-bind-supervisor-with-file-capabilities-run-by-uid-1000-refuses-to-run" \
	setcap_copy_refuses
host_case set-id "a-set-uid-root-copy-of-bind-supervisor-run-by-uid-1000-refuses-to-run" \
	setuid_copy_refuses
host_case json-log "log-format-json-each-decision-is-one-object-with-every-member" json_decisions
host_case metrics "promtool-check-metrics-passes-the-metrics-file" metrics_valid
host_case metrics "the-totals-count-one-grant-one-refusal-one-continued" metrics_count
host_case metrics "with-metrics-per-container-a-container-served-now-has-its-own-series-gone-once-done" metrics_per_container
host_case metrics "a-metrics-file-it-cannot-write-stops-it-at-start" metrics_unwritable
host_case text-log "without-log-format-json-the-text-log-is-unchanged" text_without_json
host_case profile "derive-profile-keeps-every-rule-of-a-default-profile-notifies-bind-and-refuses-what-it-cannot-keep" \
	profile_derived
host_case profile "derive-profile.8-lints-clean-and-renders" man_lints "$TOP/docs/man/derive-profile.8" "$W"
step "the host kernel is $(uname -r): expecting SYNC_WAKE_UP $([ "$KV" -ge 6006 ] && echo set || echo "not set"), $([ "$KV" -ge 6009 ] && echo 'thread pidfds' || echo 'process pidfds + kcmp')"
host_case kernel "sync-wake-up-is-set-on-6.6-and-later-said-not-set-before" sync_wake_up_set
host_case kernel "a-grant-fetches-through-a-thread-pidfd-on-6.9-and-later-process-pidfd-and-kcmp-before" \
	thread_pidfd_fetch
host_case kernel "a-thread-with-its-own-fd-table-is-granted-its-own-socket-on-6.9-and-later-refused-before" \
	own_table_grant
host_case kernel "a-bind-through-io_uring-never-reaches-bind-supervisor-and-is-eacces-on-6.11-and-later" \
	uring_bind_unseen
host_case operator "bind-agent-version-is-samples-bind-version" version_is "$AGENT" bind-agent
host_case operator "bind-supervisor-version-is-samples-bind-version" version_is "$BS" bind-supervisor
host_case operator "log-format-json-every-line-is-json-decisions-carry-request-id-address-outcome-errno" json_every_line
host_case operator "log-format-json-a-usage-error-is-one-json-line" json_usage_error
host_case operator "metrics-series-are-as-many-with-6-containers-as-with-2-promtool-accepts-them" series_bounded
host_case operator "metrics-per-container-adds-at-most-5-series-a-container" series_per_container
host_case operator "metrics-counters-end-in-total-the-latency-is-a-histogram-build-info-has-the-version" metrics_named
host_case operator "a-socket-directory-others-can-write-or-not-roots-is-refused-at-start" socket_dir_checked
host_case operator "a-passed-socket-in-a-directory-others-can-write-is-refused-at-start" activated_dir_refused
host_case operator "bind-supervisor-with-the-capabilities-bind-supervisor.8-lists-is-granted" supervisor_documented_caps
host_case operator "bind-supervisor.md-build-command-builds-a-static-bind-supervisor" supervisor_documented_build
host_case operator "bind-agent.8s-first-example-runs-and-grants" man_example_runs
host_case operator "bind-agent.8-has-examples-and-its-environment-is-what-the-agent-reads" \
	man_environment "$TOP/docs/man/bind-agent.8" "$BIND"/agent/bind-agent.c "$BIND"/agent/agent-log.c \
	"$BIND"/agent/sd-daemon.c "$BIND"/agent/fdstore.c "$BIND"/lib/*.c
host_case operator "bind-supervisor.8-has-examples-and-its-environment-is-what-the-supervisor-reads" \
	man_environment "$TOP/docs/man/bind-supervisor.8" "$BIND"/supervisor/*.c "$BIND"/lib/*.c
stop_agent
# The DaemonSet parses and agrees with the unit and the profile (on paper: no cluster)
host_case kubernetes "the-daemonset-parses-and-agrees-with-the-unit-and-the-profile" \
	/usr/bin/python3 "$TOP/samples/bind/deploy/kubernetes/check-manifests.py"
host_end
