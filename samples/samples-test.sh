#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The samples, in the guest, as TAP: user-trap-pidfd, then bind-supervisor
# serving busybox httpd on port 80 as uid 1000, its policy paths and its
# bad-option handling. Run from the ABI's bin directory, as root.

n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n $*"; }
not_ok() { n=$((n + 1)); failed=1; echo "not ok $n $*"; }
# check NAME CMD...: the case passes if CMD does
check() {
	name=$1
	shift
	if "$@"; then ok "$name"; else not_ok "$name"; fi
}
say() { echo "# $*"; }

echo "TAP version 13"

# expect_out STATUS PATTERN CMD...: CMD exits STATUS and prints PATTERN
expect_out() {
	want=$1 pattern=$2
	shift 2
	out=$("$@" 2>&1)
	rc=$?
	printf '%s\n' "$out" | sed 's/^/#   /'
	[ "$rc" -eq "$want" ] || { say "exit status $rc, wanted $want"; return 1; }
	printf '%s\n' "$out" | grep -q -- "$pattern" || { say "no '$pattern' in the output"; return 1; }
}

say "user-trap-pidfd: the supervisor binds the child's port-80 socket to 4998"
check "user-trap-pidfd: the child's getsockname() reports the port the supervisor bound" \
	expect_out 0 "getsockname() says 127.0.0.1:4998" ./user-trap-pidfd
check "user-trap-pidfd: a bind() on an AF_UNIX socket goes on to the kernel" \
	expect_out 0 "bind() of an AF_UNIX socket returned 0" ./user-trap-pidfd

say "bind-supervisor: busybox httpd -f -p 80 as uid 1000, tcp:80 allowed"
mkdir -p /tmp/www
echo "hello from an unprivileged httpd" >/tmp/www/index.html
./bind-supervisor --user 1000 --allow tcp:80 -- busybox httpd -f -p 80 -h /tmp/www &
sup=$!
page=
for _ in 1 2 3 4 5 6 7 8 9 10; do
	page=$(wget -q -O - http://127.0.0.1/index.html 2>/dev/null) && break
	sleep 1
done
say "wget http://127.0.0.1/ -> $page"
check "bind-supervisor: an unprivileged httpd serves a page on port 80" \
	[ "$page" = "hello from an unprivileged httpd" ]

server=
for p in /proc/[0-9]*; do
	[ "$(sed -n 's/^PPid:[[:space:]]*//p' "$p/status" 2>/dev/null)" = "$sup" ] && server=${p#/proc/}
done
status=$(cat "/proc/$server/status" 2>/dev/null)
uid=$(printf '%s\n' "$status" | sed -n 's/^Uid:[[:space:]]*\([0-9]*\).*/\1/p')
capeff=$(printf '%s\n' "$status" | sed -n 's/^CapEff:[[:space:]]*//p')
nnp=$(printf '%s\n' "$status" | sed -n 's/^NoNewPrivs:[[:space:]]*//p')
say "server pid $server: uid $uid, CapEff $capeff, NoNewPrivs $nnp"
check "bind-supervisor: the server runs as uid 1000" [ "$uid" = 1000 ]
check "bind-supervisor: the server has no capabilities (no CAP_NET_BIND_SERVICE)" \
	[ "$capeff" = 0000000000000000 ]
check "bind-supervisor: the server runs with no_new_privs" [ "$nnp" = 1 ]
kill "$server" 2>/dev/null
wait "$sup"

say "bind-supervisor: the policy"
check "bind-supervisor: a bind to tcp:81, not allowed, fails with EACCES" \
	expect_out 1 "bind tcp:81 as uid 1000: Permission denied" \
	./bind-supervisor --user 1000 --allow tcp:80 -- ./try-bind tcp 81
check "bind-supervisor: udp:80 is not allowed by tcp:80" \
	expect_out 1 "bind udp:80 as uid 1000: Permission denied" \
	./bind-supervisor --user 1000 --allow tcp:80 -- ./try-bind udp 80
check "bind-supervisor: an allowed AF_INET6 bind to tcp:443 succeeds" \
	expect_out 0 "bind tcp6:443 as uid 1000: ok" \
	./bind-supervisor --user user --allow tcp:443 -- ./try-bind tcp6 443
check "bind-supervisor: an unprivileged port goes on to the kernel" \
	expect_out 0 "bind tcp:8080 as uid 1000: ok" \
	./bind-supervisor --user 1000 --allow tcp:80 -- ./try-bind tcp 8080
check "bind-supervisor: an AF_UNIX bind goes on to the kernel" \
	expect_out 0 "bind unix:0 as uid 1000: ok" \
	./bind-supervisor --user 1000 --allow tcp:80 -- ./try-bind unix 0
check "bind-supervisor: a grandchild's bind is supervised too" \
	expect_out 0 "bind tcp:444 as uid 1000: ok" \
	./bind-supervisor --user 1000 --allow tcp:444 -- sh -c './try-bind tcp 444; exit $?'
check "bind-supervisor: a bind from a second thread is supervised too" \
	expect_out 0 "bind tcp:445 as uid 1000: ok" \
	./bind-supervisor --user 1000 --allow tcp:445 -- ./try-bind --thread tcp 445
check "bind-supervisor: concurrent binds from several processes are all answered" \
	expect_out 0 "bind tcp:448 as uid 1000: ok" \
	./bind-supervisor --user 1000 --allow tcp:446 --allow tcp:447 --allow tcp:448 -- \
	sh -c './try-bind tcp 446 & a=$!; ./try-bind tcp 447 & b=$!; ./try-bind tcp 448 & c=$!;
		wait $a && wait $b && wait $c'
check "bind-supervisor: exits with the program's exit status" \
	expect_out 7 "" ./bind-supervisor --user 1000 -- sh -c 'exit 7'

say "bind-supervisor: bad input is exit status 2 with a message"
check "bind-supervisor: an unknown option" \
	expect_out 2 "unknown or incomplete option '--frobnicate'" \
	./bind-supervisor --frobnicate --user 1000 -- true
check "bind-supervisor: a bad port spec" \
	expect_out 2 "bad port spec 'sctp:80'" ./bind-supervisor --user 1000 --allow sctp:80 -- true
check "bind-supervisor: a port out of range" \
	expect_out 2 "bad port in 'tcp:65536'" ./bind-supervisor --user 1000 --allow tcp:65536 -- true
check "bind-supervisor: no program" \
	expect_out 2 "no program given" ./bind-supervisor --user 1000 --allow tcp:80 --
check "bind-supervisor: an unknown user name" \
	expect_out 2 "unknown user 'nosuchuser'" ./bind-supervisor --user nosuchuser -- true

echo "1..$n"
exit $failed
