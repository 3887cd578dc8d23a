# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# bind-supervisor in the guest, as TAP: serving busybox httpd on port 80
# as uid 1000, its policy paths, its bad-option handling, and the
# adversarial tests of issue 15 (named "#N:", the finding they are for).
# Sourced by samples-test.sh (after tap.sh, with $method, the fetch
# method bind-supervisor reports), from the ABI's bin directory, as root.

say "bind-supervisor: busybox httpd -f -p 80 as uid 1000, tcp:80 allowed; fetch method: $method"
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
check "bind-supervisor: the server runs in a session of its own" \
	[ "$(cut -d' ' -f6 "/proc/$server/stat")" = "$server" ]
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
check "bind-supervisor: started with SIGCHLD ignored, it still reports the exit status" \
	expect_out 7 "" timeout 60 sh -c "trap '' CHLD; exec ./bind-supervisor --user 1000 -- sh -c 'exit 7'"
check "bind-supervisor: a UDP socket with SO_REUSEADDR, which could share the port with another user's, is EACCES" \
	expect_out 1 "bind udp:93 as uid 1000: Permission denied" \
	./bind-supervisor --user 1000 --allow udp:93 -- ./try-bind --reuseaddr udp 93

say "bind-supervisor: adversarial programs (issue 15; the number is the finding's)"
# (on port 90 and 91: port 80 has the httpd's connections in TIME_WAIT)
bs="./bind-supervisor --user 1000"
# 1: a root shell's terminal must not receive input from the program
# (the guest's init mounts no devpts: ptys need one)
[ -e /dev/pts/ptmx ] || { mkdir -p /dev/pts && mount -t devpts devpts /dev/pts; }
check "#1: a TIOCSTI from the program never reaches the terminal's reader" \
	expect_out 0 "nothing was pushed into the terminal's input" \
	./tty-inject run ./bind-supervisor --user 1000 -- ./tty-inject push
check "#1: the program does not get the terminal as fd 0, 1 or 2 (it could read the invoker's keystrokes)" \
	expect_out 0 "the program exited with status 0" \
	./tty-inject run ./bind-supervisor --user 1000 -- ./tty-inject read
# 2: capabilities are dropped on purpose, whoever starts us
check "#2: a passwd entry with uid 4294967295 (-1: 'unchanged' to setresuid) is refused" \
	expect_out 2 "refusing --user ghost" ./bind-supervisor --user ghost -- true
check "#2: --user 0 is refused" \
	expect_out 2 "refusing --user 0" ./bind-supervisor --user 0 -- true
check "#2: --user root is refused" \
	expect_out 2 "refusing --user root" ./bind-supervisor --user root -- true
caps='CapInh: 0000000000000000 CapPrm: 0000000000000000 CapEff: 0000000000000000 CapBnd: 0000000000000000 CapAmb: 0000000000000000'
check "#2: every Cap* line of the program is zero" \
	expect_out 0 "$caps" $bs -- sh -c 'echo $(grep ^Cap /proc/self/status)'
check "#2: root with ambient capabilities and SECBIT_NO_SETUID_FIXUP: a not-allowed port is EACCES" \
	expect_out 1 "bind tcp:91 as uid 1000: Permission denied" \
	./run-as -c setuid,setgid,setpcap,net_bind_service,sys_ptrace -s 0x4 -- \
	./bind-supervisor --user 1000 --allow tcp:90 -- ./try-bind --unspec tcp 91
check "#2: started as uid 1000 with ambient CAP_SETUID and CAP_NET_BIND_SERVICE, it refuses to run the program" \
	expect_not 126 "tcp:91 as uid 1001: ok" \
	./run-as -u 1000 -c setuid,setgid,net_bind_service,sys_ptrace -- \
	./bind-supervisor --user 1001 --allow tcp:90 -- ./try-bind --unspec tcp 91
check "#2: the same with CAP_SETPCAP: no capability left, a not-allowed port is EACCES" \
	expect_out 0 "$caps bind tcp:91 as uid 1001: Permission denied" \
	./run-as -u 1000 -c setuid,setgid,setpcap,net_bind_service,sys_ptrace -- \
	./bind-supervisor --user 1001 --allow tcp:90 -- \
	sh -c 'echo $(grep ^Cap /proc/self/status) $(./try-bind --unspec tcp 91)'
# 3: tcp: is TCP and udp: is UDP, nothing else on the same port
denied="Permission denied"
check_or_skip "#3: udp:53 does not grant UDP-Lite port 53" \
	1 "$denied" $bs --allow udp:53 -- ./try-bind udplite 53
if [ -d /proc/sys/net/sctp ]; then
	check_or_skip "#3: tcp:90 does not grant SCTP port 90" \
		1 "$denied" $bs --allow tcp:90 -- ./try-bind sctp 90
else
	skip "#3: tcp:90 does not grant SCTP port 90" "no SCTP in this kernel (/proc/sys/net/sctp)"
fi
check_or_skip "#3: tcp:90 does not grant MPTCP port 90" \
	1 "$denied" $bs --allow tcp:90 -- ./try-bind mptcp 90
# 4: the policy is checked before anything is fetched: a bind on fd 1000,
# not open, to a not-allowed port is EACCES, not the fetch's EBADF
check "#4: a not-allowed port is EACCES before any fetch (fd 1000 is not open)" \
	expect_out 1 "tcp:91 as uid 1000: $denied" $bs --allow tcp:90 -- ./try-bind --badfd tcp 91
check "#4: an allowed port on fd 1000, not open, is EBADF, as the kernel says" \
	expect_out 1 "tcp:90 as uid 1000: Bad file descriptor" $bs --allow tcp:90 -- ./try-bind --badfd tcp 90
# 5: the exit status survives a hang-up that comes before SIGCHLD (6.11+)
check "#5: the main loop keeps the status whatever order exit and hang-up come in" \
	expect_out 0 "^ok 3 " ./supervise-test
# 6: a signal while the supervisor holds the notification
check "#6: under a SIGURG storm every bind()'s result agrees with getsockname()" \
	expect_out 0 "300 succeeded, 0 disagree" $bs --allow tcp:90 -- ./try-bind --storm 300 tcp 90
# 7: a child that cannot start is reported, not a crash
check "#7: a child that cannot start: a message and its exit status, no SIGSEGV" \
	expect_out 126 "the child did not start" ./run-as -u 1000 -- ./bind-supervisor --user 1001 -- true
# 8: the address length and family as the kernel reads them
check "#8: addrlen -1 is EINVAL, as the kernel says" \
	expect_out 1 "tcp:90 as uid 1000: Invalid argument" $bs --allow tcp:90 -- ./try-bind --len -1 tcp 90
check "#8: addrlen 200 is EINVAL, as the kernel says" \
	expect_out 1 "tcp:90 as uid 1000: Invalid argument" $bs --allow tcp:90 -- ./try-bind --len 200 tcp 90
check "#8: a 24-byte sockaddr_in6 to an allowed port is granted" \
	expect_out 0 "tcp6:443 as uid 1000: ok" $bs --allow tcp:443 -- ./try-bind --len24 tcp6 443
check "#8: AF_UNSPEC with INADDR_ANY on an AF_INET socket to an allowed port is granted" \
	expect_out 0 "tcp:90 as uid 1000: ok" $bs --allow tcp:90 -- ./try-bind --unspec tcp 90
# 9: the privileged range is the network namespace's
check "#9: with ip_unprivileged_port_start 2000, an allowed tcp:1500 is granted" \
	expect_out 0 "tcp:1500 as uid 1000: ok" unshare -n sh -c \
	'echo 2000 >/proc/sys/net/ipv4/ip_unprivileged_port_start && ip link set lo up &&
	 ./bind-supervisor --user 1000 --allow tcp:1500 -- ./try-bind tcp 1500'
check "#9: with ip_unprivileged_port_start 0, --allow tcp:90 is refused" \
	expect_out 2 "port 90 of 'tcp:90' is not privileged here" unshare -n sh -c \
	'echo 0 >/proc/sys/net/ipv4/ip_unprivileged_port_start &&
	 ./bind-supervisor --user 1000 --allow tcp:90 -- true'
# 10: a thread with its own fd table must not get the leader's fd bound
check "#10: a UDP bind from a thread with its own fd table is refused under tcp:90" \
	expect_out 1 "fd table of its own: its fd is not the process.s; answered EACCES" \
	$bs --allow tcp:90 -- ./try-bind --own-files udp 90
# 11: the supervisor's own failures: EACCES and a line in the log
check "#11: after the leader's pthread_exit, an allowed bind is EACCES, logged" \
	expect_out 1 "supervisor-side failure: \(PIDFD_IOCTL_GETFD\|pidfd_getfd(2)\): No such process; answered EACCES" \
	$bs --allow tcp:90 -- ./try-bind --leader-exit tcp 90
check "#11: -v names the fetch method" \
	expect_out 0 "fetch method: \(PIDFD_IOCTL_GETFD\|pidfd_getfd(2)\)" $bs -v -- true
check "#11: --fetch syscall (pidfd_getfd(2)) grants an allowed port" \
	expect_out 0 "tcp:90 as uid 1000: ok" $bs --fetch syscall --allow tcp:90 -- ./try-bind tcp 90
# 12: every ABI the kernel runs, and socketcall(2)
check_or_skip "#12: a bind through socketcall(SYS_BIND) to an allowed port is granted" \
	0 "tcp:90 as uid 1000: ok" $bs --allow tcp:90 -- ./try-bind --socketcall tcp 90
check_or_skip "#12: a bind through socketcall(SYS_BIND) to a not-allowed port is EACCES" \
	1 "tcp:91 as uid 1000: $denied" $bs --allow tcp:90 -- ./try-bind --socketcall tcp 91
for abi in $(cat /etc/abis 2>/dev/null); do
	[ -x "/abi/$abi/bin/try-bind" ] || continue
	check "#12: a program of ABI $abi is supervised: tcp:90 granted" \
		expect_out 0 "tcp:90 as uid 1000: ok" $bs --allow tcp:90 -- "/abi/$abi/bin/try-bind" tcp 90
done
# 13: signals are forwarded; the program does not outlive the supervisor
check "#13: a SIGTERM to the supervisor reaches the program" sh -c '
	./bind-supervisor --user 1000 -- sh -c "trap \"exit 42\" TERM; while :; do sleep 1; done" &
	sleep 1; kill -TERM $!; wait $!; s=$?; echo "# exit status $s"; [ $s = 42 ]'
check "#13: when the supervisor is killed, the program dies too" sh -c '
	rm -f /tmp/bs-pid
	./bind-supervisor --user 1000 -- sh -c "echo \$\$ >/tmp/bs-pid; exec sleep 30" &
	sleep 1; kill -KILL $!; wait $!; sleep 1; p=$(cat /tmp/bs-pid)
	s=$(cut -d" " -f3 "/proc/$p/stat" 2>/dev/null)
	echo "# program pid $p, state ${s:-reaped}"; [ -n "$p" ] && [ "${s:-Z}" = Z ]'
# 14: robustness
if [ -e /proc/sys/vm/unprivileged_userfaultfd ]; then
	check "#14: a bind stuck in the supervisor does not stall the others" sh -c '
		old=$(cat /proc/sys/vm/unprivileged_userfaultfd)
		echo 1 >/proc/sys/vm/unprivileged_userfaultfd
		./bind-supervisor --user 1000 --allow tcp:90 --allow tcp:91 -- ./slow-bind 90 91 \
			>/tmp/slow-bind.out 2>&1; s=$?
		sed "s/^/#   /" /tmp/slow-bind.out
		echo "$old" >/proc/sys/vm/unprivileged_userfaultfd; exit $s'
else
	skip "#14: a bind stuck in the supervisor does not stall the others" \
		"no userfaultfd in this kernel (CONFIG_USERFAULTFD)"
fi
check "#14: -v logs each decision with the pid, the address and the reason" \
	expect_out 1 "pid [0-9]* fd [0-9]* family 2 addrlen 16 127.0.0.1 port 91: port not allowed" \
	$bs -v --allow tcp:90 -- ./try-bind tcp 91
check "#14: 'tcp:+90' is refused" expect_out 2 "bad port in 'tcp:+90'" $bs --allow tcp:+90 -- true
# issue 41 (S5 of the operator's review)
check "bind-supervisor: --version says its version" \
	expect_out 0 "^bind-supervisor [0-9][0-9.]*$" ./bind-supervisor --version
check "#14: 'tcp: 90' is refused" expect_out 2 "bad port in 'tcp: 90'" $bs --allow 'tcp: 90' -- true
check "#14: 'tcp:090' is refused" expect_out 2 "bad port in 'tcp:090'" $bs --allow tcp:090 -- true
check "#14: --help prints the usage and exits 0" \
	expect_out 0 "usage: bind-supervisor" ./bind-supervisor --help
cp /etc/group /tmp/group.saved
echo "bstest:x:4321:user" >>/etc/group
check "#14: a named user gets its supplementary groups (initgroups)" \
	expect_out 0 "^1000 4321$" ./bind-supervisor --user user -- busybox id -G
cat /tmp/group.saved >/etc/group
check "#14: fds above 2 are not inherited by the program" \
	sh -c 'exec 7</etc/passwd; exec ./bind-supervisor --user 1000 -- sh -c "! [ -e /proc/\$\$/fd/7 ]"'

say "bind-supervisor and bind-agent (their library): found by the review of issue 17"
# R1: the program flips SO_REUSEADDR on its UDP socket while the supervisor
# decides; a root socket holds the port with SO_REUSEADDR
hold /tmp/holder.out ./try-bind --hold-reuseaddr udp 94
check "R1: a UDP port a root socket holds is never shared, however the program flips SO_REUSEADDR" \
	expect_out 0 "no bind of 1000 succeeded" $bs --allow udp:94 -- ./try-bind --reuseaddr-race 1000 udp 94
kill "$holder"
wait "$holder"
# R2: a thread of its own fd table with the fd closed there: the kernel
# answers (EBADF), and nothing is logged (it was a supervisor-side failure
# on every call: a program could flood the log)
check "R2: a bind on an fd the calling thread's own table does not have is EBADF, not logged" \
	expect_not 1 "supervisor-side failure" $bs --allow udp:95 -- ./try-bind --own-files-closed udp 95
check "R2: ... (the program saw EBADF)" \
	expect_out 1 "udp:95 as uid 1000: Bad file descriptor" $bs --allow udp:95 -- ./try-bind --own-files-closed udp 95

say "bind-supervisor and bind-agent (their library): found by the review of issue 26 (round 2)"
# (hold OUT CMD...: tap.sh's; the check after it fails if it never holds)
# S1: TCP SO_REUSEPORT. The kernel lets TCP sockets of the same creator uid
# share a port when both set SO_REUSEPORT; the supervisor binds with its
# own privilege. A service of the program's uid holds tcp:96 that way.
hold /tmp/rp-holder.out ./run-as -u 1000 -c net_bind_service -- ./try-bind --hold-reuseport tcp 96
check "S1: share: a TCP socket with SO_REUSEPORT is EACCES (it would join the reuseport group of a service on the port)" \
	expect_out 1 "bind tcp:96 as uid 1000: Permission denied" $bs --allow tcp:96 -- ./try-bind --reuseport tcp 96
check "S1: steer: a program cannot take the service's connections with a reuseport CBPF program" \
	expect_not 1 "steer: [1-9]" $bs --allow tcp:96 -- ./try-bind --steer tcp 96
check "S1: a TCP port a service holds with SO_REUSEPORT is never shared, however the program flips SO_REUSEPORT" \
	expect_out 0 "no bind of 1000 succeeded" $bs --allow tcp:96 -- ./try-bind --reuseport-race 1000 tcp 96
kill "$holder"
wait "$holder"
check "S1: squat: a program cannot take a granted port with SO_REUSEPORT before the service starts" \
	expect_out 1 "bind tcp:97 as uid 1000: Permission denied" \
	timeout 10 $bs --allow tcp:97 -- ./try-bind --hold-reuseport tcp 97
# S2: installed set-uid root or with file capabilities, the supervisor
# would let any user pick --user and --allow (AT_SECURE)
cp ./bind-supervisor ./bs-setuid && chmod 4755 ./bs-setuid
check "S2: a set-uid root copy, run by uid 1000, refuses to run" \
	expect_out 2 "refusing to run set-uid or set-gid or with file capabilities" \
	./run-as -u 1000 -- ./bs-setuid --user 1001 --allow tcp:90 -- ./try-bind tcp 90
cp ./bind-supervisor ./bs-setcap
if reason=$(./file-caps ./bs-setcap 2>&1); then
	check "S2: a copy with file capabilities (setcap), run by uid 1000, refuses to run" \
		expect_out 2 "refusing to run set-uid or set-gid or with file capabilities" \
		./run-as -u 1000 -- ./bs-setcap --user 1001 --allow tcp:90 -- ./try-bind tcp 90
else
	skip "S2: a copy with file capabilities (setcap), run by uid 1000, refuses to run" "$reason"
fi
rm -f ./bs-setuid ./bs-setcap
# S3: the probe for "is the port held" is made with the socket's own
# IPV6_V6ONLY: an IPv6-only socket does not collide with an IPv4 one
hold /tmp/v4-holder.out ./try-bind --hold-any udp 98
check "S3: an IPv6-only UDP socket gets an allowed port that an IPv4 socket holds, as the kernel allows" \
	expect_out 0 "bind udp6:98 as uid 1000: ok" $bs --allow udp:98 -- ./try-bind --v6only udp6 98
# issue 41 (S2 of the operator's review): was EACCES, as if the policy refused it
check "a port another socket holds is EADDRINUSE, as bind(2) says for an address in use" \
	expect_out 1 "bind udp:98 as uid 1000: Address already in use" $bs --allow udp:98 -- ./try-bind udp 98
kill "$holder"
wait "$holder"

# found by the review of issue 26's fixes (round 3)
# S1 after: the program sets SO_REUSEPORT after the granted bind; a
# service of its uid that starts later must not join its reuseport group
hold /tmp/rpa.out $bs --allow tcp:99 -- ./try-bind --reuseport-after tcp 99
check "S1: after: a later service of the program's uid cannot join the reuseport group of a granted socket that set SO_REUSEPORT after the bind" \
	expect_out 1 "bind tcp:99 as uid 1000: Address already in use" \
	timeout 10 ./run-as -u 1000 -c net_bind_service -- ./try-bind --hold-reuseport tcp 99
check "S1: after: ... the granted socket's uid in /proc/net/tcp is 4294967294" \
	sh -c "awk '\$2 ~ /:0063\$/ && \$4 == \"0A\" { print \"#   \" \$0; if (\$8 == 4294967294) ok = 1 } END { exit !ok }' /proc/net/tcp"
kill "$holder"
wait "$holder"
check "S1: after: run with capabilities only and without CAP_CHOWN, an allowed bind is EACCES, logged (it cannot re-own the socket)" \
	expect_out 1 "port 99: supervisor-side failure: fchown: Operation not permitted; answered EACCES" \
	./run-as -u 1000 -c setuid,setgid,setpcap,net_bind_service,sys_ptrace -- \
	./bind-supervisor --user 1001 --allow tcp:99 -- ./try-bind tcp 99
check "S1: after: ... with CAP_CHOWN too, it is granted" \
	expect_out 0 "bind tcp:99 as uid 1001: ok" \
	./run-as -u 1000 -c setuid,setgid,setpcap,net_bind_service,sys_ptrace,chown -- \
	./bind-supervisor --user 1001 --allow tcp:99 -- ./try-bind tcp 99
# S3 mapped: the probe fails with EINVAL for ::ffff:127.0.0.1 on an
# IPv6-only socket; a probe that fails otherwise than EADDRINUSE says
# nothing about the port
check "S3: mapped: a probe that fails otherwise than EADDRINUSE (IPv6-only, ::ffff:127.0.0.1) is EACCES, not a free port" \
	expect_out 1 "bind udp6:98 as uid 1000: Permission denied" \
	$bs --allow udp:98 -- ./try-bind --v6only-mapped udp6 98

# The threat model's sentences that a test can show
check "order: an address too short for AF_INET to a port that is not allowed is EACCES (the kernel would say EINVAL)" \
	expect_out 1 "tcp:91 as uid 1000: Permission denied" $bs --allow tcp:90 -- ./try-bind --len 8 tcp 91
check "order: ... and to an allowed port it is the kernel's EINVAL" \
	expect_out 1 "tcp:90 as uid 1000: Invalid argument" $bs --allow tcp:90 -- ./try-bind --len 8 tcp 90
uring="io_uring: a bind through io_uring (IORING_OP_BIND) to an allowed port never reaches the supervisor: the kernel refuses it"
if reason=$(./uring-bind 0 2>&1 | grep -m 1 'not supported'); then
	skip "$uring" "$reason"
	skip "io_uring: ... and nothing of it is logged with -v" "$reason"
else
	check "$uring" expect_out 1 "io_uring bind tcp:90 as uid 1000: Permission denied" \
		$bs -v --allow tcp:90 -- ./uring-bind 90
	check "io_uring: ... and nothing of it is logged with -v" \
		expect_not 1 "port 90" $bs -v --allow tcp:90 -- ./uring-bind 90
fi
. ./round3-test.sh
round3_supervisor
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
