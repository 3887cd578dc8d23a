#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The oci suite, in the oci flavour's guest (boot/flavour/oci), as TAP: for
# each of Debian 12's crun and runc, unmodified (the image's second layer,
# boot/image/oci-layer.sh), the runtime's version; a container running an
# unmodified busybox httpd as uid 1000 with no capabilities, noNewPrivileges
# and a seccomp filter, in the host's network namespace, fetched with wget
# from outside and then killed and deleted; the same container with its
# bind() trapped (SCMP_ACT_NOTIFY) toward linux.seccomp.listenerPath, where
# oci-listener prints what the runtime sends and lets each call continue;
# then, with bind-agent (--allow tcp:80) as the listenerPath: httpd on the
# privileged port 80 as uid 1000, the agent's log line granting it and the
# page fetched; httpd on port 81 failing with EACCES and the agent's line
# refusing it; a crun container whose linux.seccomp.flags asks for
# SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV binding 2000 times under a signal
# storm, every result right, and runc refusing that config; podman (with
# crun) starting httpd on :80 from a profile with listenerPath, the agent
# granting it, and :81 refused; the same with the profile derive-profile
# derives from podman's default one: :80 granted, the default's refusals
# kept, and the naive merge of the two refused by the kernel unseen by the
# agent; at the end the agent's fd count as it was before the containers.
# Run from the ABI's bin directory, as root.

. ./tap.sh
# quote FILE: a file's lines as TAP comments
quote() { sed 's/^/#   /' "$1"; }
# (tap.sh's retry: once a second here, as a runtime's state and a page
# fetched through a container are slow under TCG)
# shellcheck disable=SC2034 # tap.sh's retry reads it
RETRY_TENTHS=10

# The runtimes are in /usr/bin (the image's second layer); /init gives a
# test only /abi/ABI/bin and /bin.
PATH=$PATH:/usr/bin:/usr/sbin
echo "TAP version 13"
work=/run/oci-test
rm -rf "$work"
mkdir -p "$work"
port=8080
page='hello from an OCI container'

# bundle DIR ID SECCOMP [ARGS]: a bundle whose config.json runs busybox
# httpd on $port (or ARGS, the JSON array's items) as uid 1000/gid 1000, no
# capabilities, noNewPrivileges, a read-only root, new pid, ipc, uts and
# mount namespaces and no network one (the host's), with SECCOMP as
# linux.seccomp. The root is the image's /oci/rootfs.
bundle() {
	mkdir -p "$1"
	if [ $# -ge 4 ]; then
		_args=$4
	else
		_args="\"/bin/busybox\", \"httpd\", \"-f\", \"-p\", \"$port\", \"-h\", \"/www\""
	fi
	cat >"$1/config.json" <<EOF
{
	"ociVersion": "1.0.2",
	"process": {
		"terminal": false,
		"user": { "uid": 1000, "gid": 1000 },
		"args": [ $_args ],
		"env": [ "PATH=/bin" ],
		"cwd": "/",
		"capabilities": {
			"bounding": [], "effective": [], "inheritable": [], "permitted": [], "ambient": []
		},
		"noNewPrivileges": true
	},
	"root": { "path": "/oci/rootfs", "readonly": true },
	"hostname": "$2",
	"mounts": [
		{ "destination": "/proc", "type": "proc", "source": "proc" },
		{ "destination": "/dev", "type": "tmpfs", "source": "tmpfs",
		  "options": [ "nosuid", "strictatime", "mode=755", "size=65536k" ] },
		{ "destination": "/tmp", "type": "tmpfs", "source": "tmpfs",
		  "options": [ "nosuid", "nodev", "mode=1777" ] }
	],
	"linux": {
		"namespaces": [
			{ "type": "pid" }, { "type": "ipc" }, { "type": "uts" }, { "type": "mount" }
		],
		"seccomp": $3
	}
}
EOF
}

# The seccomp sections: one that traps nothing the server does, and one
# that sends its bind() calls to a listener.
seccomp_plain='{
			"defaultAction": "SCMP_ACT_ALLOW",
			"architectures": [ "SCMP_ARCH_X86_64", "SCMP_ARCH_X86", "SCMP_ARCH_X32" ],
			"syscalls": [ { "names": [ "kexec_load" ], "action": "SCMP_ACT_ERRNO" } ]
		}'
# seccomp_notify PATH METADATA [FLAG]: FLAG in linux.seccomp.flags
seccomp_notify() {
	_flags=
	[ -z "${3:-}" ] || _flags="
			\"flags\": [ \"$3\" ],"
	printf '%s\n' "{
			\"defaultAction\": \"SCMP_ACT_ALLOW\",$_flags
			\"listenerPath\": \"$1\",
			\"listenerMetadata\": \"$2\",
			\"architectures\": [ \"SCMP_ARCH_X86_64\", \"SCMP_ARCH_X86\", \"SCMP_ARCH_X32\" ],
			\"syscalls\": [ { \"names\": [ \"bind\" ], \"action\": \"SCMP_ACT_NOTIFY\" } ]
		}"
}

# (Debian 12's static busybox wget dies of SIGSEGV with -T: timeout(1) instead.)
fetch() { timeout 10 wget -q -O - "http://127.0.0.1:$port/" 2>/dev/null; }
fetch_page() {
	out=$(fetch) && [ "$out" = "$page" ] && say "fetched: $out"
}
# fetch_wait: the page within 20 tries; if not, what wget and netstat say
fetch_wait() {
	retry 20 fetch_page && return 0
	timeout 10 wget -O - "http://127.0.0.1:$port/" 2>&1 | sed 's/^/#   wget: /'
	netstat -tln 2>&1 | sed 's/^/#   netstat: /'
	return 1
}

state_pid() { "$1" state "$2" 2>/dev/null | sed -n 's/^ *"pid": *\([0-9]*\).*/\1/p'; }

# start RT ID BUNDLE: 'RT run -d' with the root file system not pivoted
# (pivot_root(2) fails on the initramfs root), its output in BUNDLE/out
start() {
	"$1" run -d --no-pivot -b "$3" "$2" </dev/null >"$3/out" 2>&1
	_rc=$?
	[ ! -s "$3/out" ] || quote "$3/out"
	[ "$_rc" = 0 ] || say "$1 run exited $_rc"
	[ "$_rc" = 0 ] && retry 10 sh -c "[ \"\$($1 state $2 2>/dev/null | grep -c '\"running\"')\" = 1 ]"
}

# payload_ok FILE ID: oci-listener's FILE shows the state JSON of container
# ID: fds ["seccompFd"], a pid, the bundle's listenerMetadata
payload_ok() {
	_j=$(sed -n '/^payload: /,/^message: /p' "$1" | sed -e '/^message: /d' -e 's/^payload: //' |
		tr -d ' \t\n')
	for _want in '"fds":["seccompFd"]' '"pid":' "\"metadata\":\"allow=tcp:$port\"" "\"id\":\"$2\""; do
		case $_j in
		*"$_want"*) ;;
		*) say "no $_want in the payload"; return 1 ;;
		esac
	done
}

# wait_log PATTERN: until bind-agent's log has a line with PATTERN, 30 s at most
wait_log() {
	retry 30 grep -q -- "$1" "$agent_log" && return 0
	say "no '$1' in bind-agent's log after 30 s"
	return 1
}

# expect_run RT ID BUNDLE PATTERN: 'RT run' in the foreground fails and
# prints PATTERN
expect_run() {
	timeout 60 "$1" run --no-pivot -b "$3" "$2" </dev/null >"$3/out" 2>&1
	_rc=$?
	quote "$3/out"
	say "$1 run exited $_rc"
	[ "$_rc" != 0 ] && grep -q -- "$4" "$3/out"
}

# creds PID: the process's ids, capabilities, no_new_privs and seccomp mode
creds_ok() {
	_s=/proc/$1/status
	[ -r "$_s" ] || { say "no $_s"; return 1; }
	grep -E '^(Uid|Gid|CapPrm|CapEff|CapBnd|CapAmb|NoNewPrivs|Seccomp):' "$_s" | sed 's/^/#   /'
	grep -qE '^Uid:[[:space:]]+1000[[:space:]]+1000[[:space:]]+1000[[:space:]]+1000$' "$_s" &&
		grep -qE '^Gid:[[:space:]]+1000[[:space:]]+1000[[:space:]]+1000[[:space:]]+1000$' "$_s" &&
		grep -qE '^CapEff:[[:space:]]+0+$' "$_s" && grep -qE '^CapPrm:[[:space:]]+0+$' "$_s" &&
		grep -qE '^CapBnd:[[:space:]]+0+$' "$_s" &&
		grep -qE '^NoNewPrivs:[[:space:]]+1$' "$_s" && grep -qE '^Seccomp:[[:space:]]+2$' "$_s"
}

# stop RT ID: SIGKILL, until the runtime says stopped, then delete
stop() {
	"$1" kill "$2" KILL 2>&1 | sed 's/^/#   /'
	retry 15 sh -c "[ \"\$($1 state $2 2>/dev/null | grep -c '\"stopped\"')\" = 1 ]" ||
		{ say "$1 state $2 after kill:"; "$1" state "$2" 2>&1 | sed 's/^/#   /'; return 1; }
	"$1" delete "$2" 2>&1 | sed 's/^/#   /'
	! "$1" state "$2" >/dev/null 2>&1 && ! fetch >/dev/null
}

# cleanup RT ID: whatever a failed case left
cleanup() { "$1" delete -f "$2" >/dev/null 2>&1; }

say "kernel: $(uname -r); cgroup2 at /sys/fs/cgroup: $(grep -c ' /sys/fs/cgroup cgroup2 ' /proc/mounts)"

# bind-agent (samples/bind/agent): one for both runtimes, allowing
# tcp:80, tcp:443 and tcp:84 (the storm's); the containers' metadata
# narrows that to one port.
agent= agent_sock=$work/bind-agent.sock agent_log=$work/bind-agent.log
if [ ! -x ./bind-agent ]; then
	not_ok "bind-agent: in the image (samples/guest.mk, the native ABI)"
else
	./bind-agent -v --socket "$agent_sock" --allow tcp:80 --allow tcp:443 --allow tcp:84 2>"$agent_log" &
	agent=$!
	check "bind-agent: it listens on $agent_sock" wait_log "listening on $agent_sock"
	check "bind-agent: its socket is mode 0600" [ "$(stat -c %a "$agent_sock" 2>&1)" = 600 ]
	fds0=$(ls "/proc/$agent/fd" | wc -l)
	say "$(grep -m 1 'fetch method' "$agent_log")"
fi

for rt in crun runc; do
	say "== $rt =="
	# A runtime missing from the oci image fails: the image is broken.
	if ! command -v "$rt" >/dev/null; then
		not_ok "$rt: in the image (boot/image/oci-layer.sh)"
		continue
	fi
	check "$rt: --version" sh -c "$rt --version >$work/$rt.version 2>&1; rc=\$?; sed 's/^/#   /' $work/$rt.version; [ \$rc = 0 ] && grep -q '^$rt version ' $work/$rt.version"
	say "$(grep -m 1 "^$rt version " "$work/$rt.version")"

	# A plain container: httpd as uid 1000, fetched from outside.
	id=oci-$rt-httpd
	b=$work/$rt-httpd
	bundle "$b" "$id" "$seccomp_plain"
	if check "$rt: run -d starts httpd as uid 1000 in the host's network namespace" start "$rt" "$id" "$b"; then
		pid=$(state_pid "$rt" "$id")
		check "$rt: the server is uid/gid 1000, no capabilities, no_new_privs, seccomp filter" creds_ok "$pid"
		check "$rt: the server shares the host's network namespace" \
			[ "$(readlink "/proc/$pid/ns/net")" = "$(readlink /proc/self/ns/net)" ]
		check "$rt: wget from outside fetches the page" fetch_wait
		check "$rt: kill and delete leave nothing" stop "$rt" "$id"
	else
		for c in creds netns wget delete; do skip "$rt: $c" "the container did not start"; done
	fi
	cleanup "$rt" "$id"

	# The same server with bind() trapped toward a listener socket.
	id=oci-$rt-listener
	b=$work/$rt-listener
	sock=$work/$rt-listener.sock
	bundle "$b" "$id" "$(seccomp_notify "$sock" "allow=tcp:$port")"
	./oci-listener "$sock" >"$work/$rt-listener.out" 2>"$work/$rt-listener.err" &
	lpid=$!
	retry 10 grep -q 'listening on' "$work/$rt-listener.err"
	if check "$rt: a listenerPath container starts" start "$rt" "$id" "$b"; then
		check "$rt: wget fetches the page (bind() trapped, answered CONTINUE)" fetch_wait
		check "$rt: kill and delete leave nothing" stop "$rt" "$id"
	else
		for c in wget delete; do skip "$rt: listener $c" "the container did not start"; done
	fi
	cleanup "$rt" "$id"
	# The listener ends once every task of the filter is gone.
	if retry 10 sh -c "! kill -0 $lpid 2>/dev/null"; then wait $lpid; lrc=$?; else
		kill $lpid; wait $lpid; lrc=killed; fi
	say "what $rt sent to its listenerPath (oci-listener's output, exit status $lrc):"
	quote "$work/$rt-listener.out"
	quote "$work/$rt-listener.err"
	out=$work/$rt-listener.out
	check "$rt: one message with one fd, a seccomp listener" \
		sh -c "[ \$(grep -c '^message: [1-9]' $out) = 1 ] && [ \$(grep -c '^fd: ' $out) = 1 ] &&
			grep -q '^fd: anon_inode:seccomp notify' $out"
	check "$rt: the message is the container's state: seccompFd, pid, metadata, id" \
		payload_ok "$out" "$id"
	check "$rt: the listener saw the server's bind() (x86_64 syscall 49)" \
		grep -q '^notification: pid [0-9]* syscall 49 ' "$out"
	check "$rt: the listener ended when the container did" [ "$lrc" = 0 ]

	if [ -z "$agent" ]; then
		skip "$rt: bind-agent cases" "no bind-agent in this image"
		continue
	fi
	# The real agent: httpd on the privileged port 80 as uid 1000 with no
	# capabilities, its bind() done by bind-agent; a bind to 81 refused.
	port=80
	id=oci-$rt-agent
	b=$work/$rt-agent
	bundle "$b" "$id" "$(seccomp_notify "$agent_sock" "allow=tcp:80")"
	if check "$rt: agent: a container's httpd -p 80 starts (uid 1000, no capabilities)" start "$rt" "$id" "$b"; then
		check "$rt: agent: bind-agent logs the grant of :80" \
			wait_log "container $id: pid [0-9]* fd [0-9]* family [0-9]* addrlen [0-9]* .* port 80: allowed, bound"
		say "$(grep -m 1 "container $id: .* port 80: allowed, bound" "$agent_log")"
		check "$rt: agent: wget from outside fetches the page on :80" fetch_wait
		check "$rt: agent: kill and delete leave nothing" stop "$rt" "$id"
		check "$rt: agent: bind-agent is done with the container" \
			wait_log "container $id: no task uses its filter any more: done"
	else
		for c in grant wget delete done; do skip "$rt: agent: $c" "the container did not start"; done
	fi
	cleanup "$rt" "$id"
	port=81
	id=oci-$rt-agent-81
	b=$work/$rt-agent-81
	bundle "$b" "$id" "$(seccomp_notify "$agent_sock" "allow=tcp:80")"
	check "$rt: agent: httpd -p 81 in a container fails: bind: Permission denied" \
		expect_run "$rt" "$id" "$b" "bind: Permission denied"
	check "$rt: agent: bind-agent logs the refusal of :81" \
		wait_log "container $id: pid [0-9]* fd [0-9]* .* port 81: port not allowed: Permission denied"
	cleanup "$rt" "$id"
	port=8080
done

# Two containers at once, one per runtime: crun's httpd on :80, runc's on
# :443, both served by the one agent, both answering while both run.
if [ -n "$agent" ]; then
	say "== crun and runc at once =="
	both_ok=1
	for c in crun:80 runc:443; do
		rt=${c%%:*} port=${c#*:}
		bundle "$work/both-$rt" "both-$rt" "$(seccomp_notify "$agent_sock" "allow=tcp:$port")"
		start "$rt" "both-$rt" "$work/both-$rt" || both_ok=0
	done
	check "crun and runc: two containers at once, on :80 and :443" [ "$both_ok" = 1 ]
	port=80
	check "crun and runc: wget fetches crun's page on :80 while both run" fetch_wait
	port=443
	check "crun and runc: wget fetches runc's page on :443 while both run" fetch_wait
	check "crun and runc: bind-agent served each with its own metadata" \
		sh -c "grep -q 'container both-crun (pid [0-9]*, from runtime pid [0-9]*): serving its listener; allowed: tcp:80\$' $agent_log &&
			grep -q 'container both-runc (pid [0-9]*, from runtime pid [0-9]*): serving its listener; allowed: tcp:443\$' $agent_log"
	for c in crun:80 runc:443; do
		rt=${c%%:*} port=${c#*:}
		check "$rt: kill and delete leave nothing (of the two at once)" stop "$rt" "both-$rt"
		cleanup "$rt" "both-$rt"
	done
	port=8080
fi

# podman, the front end users type, in front of crun: the profile given
# with --security-opt seccomp= carries listenerPath and listenerMetadata, the
# root file system is given with --rootfs (no image, no registry), the
# network is the host's. podman's state lives under $work; cgroupfs (no
# systemd here) and an events file. The rootfs is a copy: podman adds
# mount points to it.
if [ -n "$agent" ] && command -v podman >/dev/null; then
	say "== podman (with crun) =="
	# chroot instead of pivot_root(2), which fails on the initramfs root
	# (the runtimes' --no-pivot above)
	printf '[engine]\nno_pivot_root = true\n' >"$work/podman.conf"
	pm() {
		CONTAINERS_CONF=$work/podman.conf podman --root "$work/podman/root" \
			--runroot "$work/podman/run" --tmpdir "$work/podman/tmp" --storage-driver vfs \
			--cgroup-manager cgroupfs --events-backend file --runtime crun "$@"
	}
	mkdir -p "$work/podman/tmp"
	cp -a /oci/rootfs "$work/podman/rootfs"
	# podman keeps its locks in shared memory, which /init does not mount
	grep -q ' /dev/shm ' /proc/mounts ||
		{ mkdir -p /dev/shm && mount -t tmpfs -o mode=1777,nosuid,nodev shm /dev/shm; }
	# pm_run NAME PORT [-d]: httpd -p PORT as uid 1000, no capabilities (and
	# no pids limit: the guest's kernel has no pids controller)
	# (the profile: $work/podman/NAME.json if there is one)
	pm_run() {
		[ -f "$work/podman/$1.json" ] ||
			printf '%s\n' "$(seccomp_notify "$agent_sock" "allow=tcp:80")" >"$work/podman/$1.json"
		pm run ${3:-} --name "$1" --network host --user 1000:1000 --cap-drop all --pids-limit -1 \
			--security-opt no-new-privileges --security-opt seccomp="$work/podman/$1.json" \
			--rootfs "$work/podman/rootfs" /bin/busybox httpd -f -p "$2" -h /www </dev/null \
			>"$work/podman/$1.out" 2>&1
		_rc=$?
		quote "$work/podman/$1.out"
		say "podman run exited $_rc"
		return $_rc
	}
	# pm_rm_gone NAME: rm -f, then nothing answers on $port
	pm_rm_gone() {
		_rc=0
		pm rm -f "$1" >"$work/podman/rm.out" 2>&1 || _rc=$?
		quote "$work/podman/rm.out"
		[ "$_rc" = 0 ] && ! fetch >/dev/null
	}
	# pm_refused NAME PORT: the run fails, and httpd says why
	pm_refused() {
		! pm_run "$1" "$2" && grep -q 'bind: Permission denied' "$work/podman/$1.out"
	}
	port=80
	if check "podman: run -d --rootfs, the profile's listenerPath bind-agent: httpd -p 80 as uid 1000 starts" \
		pm_run pm-80 80 -d; then
		pm_id=$(tail -n 1 "$work/podman/pm-80.out")
		check "podman: bind-agent logs the grant of :80 to the container podman named" \
			wait_log "container $pm_id: pid [0-9]* fd [0-9]* .* port 80: allowed, bound"
		check "podman: wget from outside fetches the page on :80" fetch_wait
		check "podman: rm -f leaves nothing" pm_rm_gone pm-80
	else
		for c in grant wget rm; do skip "podman: $c" "the container did not start"; done
	fi
	port=81
	check "podman: httpd -p 81 fails: bind: Permission denied" pm_refused pm-81 81
	check "podman: bind-agent logs the refusal of :81" \
		wait_log "container [0-9a-f]\{64\}: pid [0-9]* fd [0-9]* .* port 81: port not allowed: Permission denied"
	pm rm -f pm-80 pm-81 >/dev/null 2>&1

	# The profile derived from podman's default one (docs/bind-agent.md,
	# "With podman"), made here by derive-profile from the image's copy of
	# it: :80 through the agent, and the default's refusals kept.
	def=/usr/share/containers/seccomp.json
	derived=$work/podman/derived.json
	derive() {
		./derive-profile --listener-path "$agent_sock" --metadata allow=tcp:80 "$def" \
			>"$derived" 2>"$work/podman/derive.err"
		_rc=$?
		quote "$work/podman/derive.err"
		[ "$_rc" = 0 ] && grep -q SCMP_ACT_NOTIFY "$derived"
	}
	# pm_refused_calls NAME PROFILE: oci-refused in a container (uid 1000,
	# no capabilities) under PROFILE; its output in $work/podman/NAME.out
	pm_refused_calls() {
		pm run --name "$1" --network host --user 1000:1000 --cap-drop all --pids-limit -1 \
			--security-opt no-new-privileges --security-opt seccomp="$2" \
			--rootfs "$work/podman/rootfs" /bin/oci-refused </dev/null >"$work/podman/$1.out" 2>&1
		_rc=$?
		quote "$work/podman/$1.out"
		pm rm -f "$1" >/dev/null 2>&1
		return $_rc
	}
	# refusals NAME A B: NAME's output says personality() got A and vmsplice() B
	refusals() {
		grep -q "^personality(0x40000): $2\$" "$work/podman/$1.out" &&
			grep -q "^vmsplice(-1): $3\$" "$work/podman/$1.out"
	}
	# (check's status is not its case's: 'if CMD; then ok ...' below)
	if derive; then
		ok "podman: derive-profile derives bind-agent's profile from $def"
		cp "$derived" "$work/podman/pm-derived.json"
		port=80
		if pm_run pm-derived 80 -d; then
			ok "podman: derived profile: run -d, httpd -p 80 as uid 1000 starts"
			pm_id=$(tail -n 1 "$work/podman/pm-derived.out")
			check "podman: derived profile: bind-agent logs the grant of :80" \
				wait_log "container $pm_id: pid [0-9]* fd [0-9]* .* port 80: allowed, bound"
			check "podman: derived profile: wget from outside fetches the page on :80" fetch_wait
			check "podman: derived profile: rm -f leaves nothing" pm_rm_gone pm-derived
		else
			not_ok "podman: derived profile: run -d, httpd -p 80 as uid 1000 starts"
			for c in grant wget rm; do skip "podman: derived profile: $c" "the container did not start"; done
		fi
		pm rm -f pm-derived >/dev/null 2>&1
		# The default's refusals, whatever the capabilities: personality()
		# outside its five arguments (defaultAction: ENOSYS), vmsplice()
		# (its first rule: EPERM); the kernel answers 0 and EBADF.
		pm_refused_calls pm-refused-derived "$derived"
		check "podman: derived profile: the default's refusals hold (personality ENOSYS, vmsplice EPERM)" \
			refusals pm-refused-derived ENOSYS EPERM
		printf '%s\n' "$(seccomp_notify "$agent_sock" "allow=tcp:80")" >"$work/podman/notify-only.json"
		pm_refused_calls pm-refused-notify-only "$work/podman/notify-only.json"
		check "podman: the profile that only notifies bind (defaultAction ALLOW) lets both through: the check above can fail" \
			refusals pm-refused-notify-only ok EBADF
		# The naive merge: the default profile plus the NOTIFY rule (at the
		# end) and the listener fields, bind left in its ALLOW rule.
		awk -v sock="$agent_sock" '$0 == "\t]" && !done {
				print "\t\t, { \"names\": [ \"bind\" ], \"action\": \"SCMP_ACT_NOTIFY\" }"
				print "\t],"
				print "\t\"listenerPath\": \"" sock "\","
				print "\t\"listenerMetadata\": \"allow=tcp:80\""
				done = 1
				next
			}
			{ print }' "$def" >"$work/podman/pm-naive.json"
		# derive-profile parses it, and refuses it for its listener fields
		check "podman: the naive merge is one JSON object (derive-profile parses it)" \
			sh -c "./derive-profile '$work/podman/pm-naive.json' 2>&1 >/dev/null |
				grep -q 'has a listenerPath or listenerMetadata already'"
		check "podman: the naive merge: httpd -p 80 fails: bind: Permission denied (the kernel's, not the agent's)" \
			pm_refused pm-naive 80
		naive_id=$(pm inspect --format '{{.Id}}' pm-naive 2>/dev/null)
		pm rm -f pm-naive >/dev/null 2>&1
		check "podman: the naive merge: bind-agent served the container and decided nothing for it" \
			sh -c "[ -n '$naive_id' ] && grep -q 'container $naive_id (pid [0-9]*, from runtime pid [0-9]*): serving its listener' '$agent_log' &&
				! grep -q 'container $naive_id: pid [0-9]* fd' '$agent_log'"
	else
		not_ok "podman: derive-profile derives bind-agent's profile from $def"
		for c in start grant wget rm refusals notify-only naive-json naive naive-agent; do
			skip "podman: derived profile: $c" "derive-profile failed"
		done
	fi
	port=8080
elif [ -n "$agent" ]; then
	not_ok "podman: in the image (boot/image/oci-layer.sh)"
fi

# linux.seccomp.flags: SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV keeps a
# signal from withdrawing a bind() the agent has received (docs/bind-agent.md).
# try-bind --storm binds 2000 times under a stream of SIGURG and checks each
# result against getsockname(). crun honours the flag; runc 1.1.5 refuses
# any flags. Without the flag the count is a measurement: the agent makes it
# nearly exact, not exact (docs/bind-agent.md says why).
if [ -n "$agent" ]; then
	say "== linux.seccomp.flags: SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV =="
	storm='"/bin/try-bind", "--storm", "2000", "tcp", "84"'
	# crun_storm ID [FLAG]: the storm in crun container ID, FLAG in its
	# linux.seccomp.flags; its output in $work/ID/out
	crun_storm() {
		bundle "$work/$1" "$1" "$(seccomp_notify "$agent_sock" "allow=tcp:84" "${2:-}")" "$storm"
		timeout 300 crun run --no-pivot -b "$work/$1" "$1" </dev/null >"$work/$1/out" 2>&1
		_rc=$?
		cleanup crun "$1"
		return $_rc
	}
	storm_exact() {
		crun_storm crun-storm SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV
		_rc=$?
		quote "$work/crun-storm/out"
		[ "$_rc" = 0 ] &&
			grep -q '^storm: 2000 binds to tcp:84, 2000 succeeded, 0 disagree' "$work/crun-storm/out"
	}
	check "crun: agent: with the flag, every one of 2000 binds under a SIGURG storm agrees with getsockname()" \
		storm_exact
	crun_storm crun-storm-noflag
	say "crun: agent: without the flag: $(grep '^storm:' "$work/crun-storm-noflag/out")"
	b=$work/runc-flags
	bundle "$b" runc-flags "$(seccomp_notify "$agent_sock" "allow=tcp:84" SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV)" "$storm"
	check "runc: a config with linux.seccomp.flags does not run: 'seccomp flags are not yet supported by runc'" \
		expect_run runc runc-flags "$b" "seccomp flags are not yet supported by runc"
	cleanup runc runc-flags
fi

if [ -n "$agent" ]; then
	sleep 1
	check "bind-agent: its fd count is what it was before the containers ($fds0)" \
		sh -c "n=\$(ls /proc/$agent/fd | wc -l); echo \"# now \$n\"; [ \$n = $fds0 ]"
	kill "$agent"
	wait "$agent"
	say "bind-agent's log:"
	quote "$agent_log"
fi

echo "1..$n"
exit $failed
