# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# The security review of issue 41 (round 3 of the daemons' security), as
# TAP: "R3.N" is its finding N. Sourced after tap.sh, from the ABI's bin
# directory, as root: bind-supervisor-test.sh runs round3_supervisor,
# agent-test.sh round3_agent. The ports are tcp:86-91, which no other test
# of either script uses.

# r3_devices: two network devices of our own, r3a and r3b (veth), in the
# network namespace the test runs in; fails, saying why, without them
r3_devices() {
	ip link show r3b >/dev/null 2>&1 && return 0
	ip link add name r3a type veth peer name r3b >/tmp/r3-devices.out 2>&1 || return 1
	# busybox's ip names the peer itself (veth0): r3b it is
	peer=$(ip link show | sed -n 's/^[0-9]*: \([^@:]*\)@r3a.*/\1/p')
	[ "$peer" = r3b ] || ip link set dev "$peer" name r3b >>/tmp/r3-devices.out 2>&1
}

# R3.4: the held-port probe is made with the socket's SO_BINDTODEVICE;
# R3.5: a caller with CAP_NET_BIND_SERVICE over its socket's network
# namespace gets the kernel's own answer. Both are the library's: $1 runs
# the program under the daemon (a function or command).
r3_library() {
	run=$1
	who=$2
	if r3_devices; then
		hold /tmp/r3-dev.out ./try-bind --device r3a --hold-any tcp 89
		check "R3.4: $who: a socket bound to device r3b gets tcp:89 while a socket bound to device r3a holds it, as the kernel allows" \
			expect_out 0 "bind tcp:89 as uid [0-9]*: ok" $run ./try-bind --device r3b tcp 89
		check "R3.4: $who: ... a socket bound to no device is refused it (EADDRINUSE, as the kernel says)" \
			expect_out 1 "bind tcp:89 as uid [0-9]*: Address already in use" $run ./try-bind tcp 89
		check "R3.4: $who: ... and so is a socket bound to the holder's device r3a" \
			expect_out 1 "bind tcp:89 as uid [0-9]*: Address already in use" $run ./try-bind --device r3a tcp 89
		kill "$holder"
		wait "$holder"
		hold /tmp/r3-dev.out ./try-bind --hold-any tcp 89
		check "R3.4: $who: a socket bound to device r3b is refused tcp:89 while a socket bound to no device holds it" \
			expect_out 1 "bind tcp:89 as uid [0-9]*: Address already in use" $run ./try-bind --device r3b tcp 89
		kill "$holder"
		wait "$holder"
	else
		say "ip link add r3a type veth peer name r3b: $(head -n 1 /tmp/r3-devices.out)"
		why="no veth device in this kernel (CONFIG_VETH)"
		for case in "a socket bound to device r3b gets tcp:89 while a socket bound to device r3a holds it, as the kernel allows" \
			"... a socket bound to no device is refused it (EADDRINUSE, as the kernel says)" \
			"... and so is a socket bound to the holder's device r3a" \
			"a socket bound to device r3b is refused tcp:89 while a socket bound to no device holds it"; do
			skip "R3.4: $who: $case" "$why"
		done
	fi
	# tcp:91 is allowed by no policy here
	check_or_skip "R3.5: $who: uid 0 of a user namespace of its own binds tcp:91, not allowed, in the network namespace that namespace owns: the kernel grants it" \
		0 "bind tcp:91 as uid 0: ok" $run ./try-bind --userns tcp 91
	check_or_skip "R3.5: $who: ... but not on a socket of the namespace it started in, where it holds nothing (EACCES)" \
		1 "bind tcp:91 as uid 0: Permission denied" $run ./try-bind --userns-hostsock tcp 91
}

round3_supervisor() {
	say "bind-supervisor (its library): found by the security review of issue 41 (round 3)"
	r3_library "./bind-supervisor -v --user 1000 --allow tcp:89 --" bind-supervisor
}

# The agent, its log through a FIFO whose reader the test can stop: a
# full pipe stalls every write to the log (r3_stall), until r3_resume.
r3_sock=/run/bind-agent-r3.sock
r3_log=/tmp/r3-agent.log
r3_fifo=/tmp/r3-agent.fifo
r3_agent=
r3_start_agent() {
	rm -f "$r3_fifo" "$r3_log"
	mkfifo "$r3_fifo"
	cat "$r3_fifo" >"$r3_log" &
	r3_reader=$!
	./bind-agent --socket "$r3_sock" "$@" 2>"$r3_fifo" &
	r3_agent=$!
	wait_file "$r3_log" "listening on $r3_sock"
}
r3_stall() {
	kill -STOP "$r3_reader"
	# 1 MiB of empty lines, from a writer that blocks once the pipe is full
	awk 'BEGIN { for (i = 0; i < 1048576; i++) print "" }' >"$r3_fifo" &
	r3_filler=$!
	# until it does: asleep (S), with its reader stopped it can only be
	# waiting in write(2) for room. A fixed second was not always enough
	# under TCG: the agent's log write went through, and its answer with it.
	_i=0
	until [ "$(sed 's/.*) //' "/proc/$r3_filler/stat" 2>/dev/null | cut -d' ' -f1)" = S ]; do
		_i=$((_i + 1))
		[ "$_i" -le 600 ] || { say "the log's pipe did not fill in 60 s"; return 1; }
		sleep 0.1
	done
}
r3_resume() {
	kill -CONT "$r3_reader"
	wait "$r3_filler"
}
r3_stop_agent() {
	kill -9 "$r3_agent" 2>/dev/null
	wait "$r3_agent" 2>/dev/null
	kill -CONT "$r3_reader" 2>/dev/null
	wait "$r3_reader"
	r3_agent=
	rm -f "$r3_fifo" "$r3_sock"
}
r3() { ./agent-client "$r3_sock" run "$@"; }

round3_agent() {
	say "bind-agent: found by the security review of issue 41 (round 3)"
	r3_start_agent -v --allow tcp:86 --allow tcp:87 --allow tcp:88 --allow tcp:89
	r3_restart
	r3_neighbour
	r3_eintr
	r3_library "r3 --id r3-library --" bind-agent
	r3_stop_agent
	r3_drain
	r3_fd_limit
}

go=/tmp/r3.go go2=/tmp/r3.go2
# r3_withdrawn ID HOW PORT: container ID's try-bind --withdraw HOW tcp PORT
# in the background ($prog, its output in /tmp/ID.out), the agent's answer
# to its first bind() held by the stalled log until the program has seen
# the signal; then the log goes on, and the answer is not delivered
r3_withdrawn() {
	rm -f "$go" "$go2"
	TRY_BIND_GO=$go TRY_BIND_GO2=$go2 r3 --id "$1" -- ./try-bind --withdraw "$2" tcp "$3" \
		>"/tmp/$1.out" 2>&1 &
	prog=$!
	wait_file "$r3_log" "container $1 (pid"
	r3_stall
	touch "$go"
	wait_file "/tmp/$1.out" "signalled ($2)"
	# R3.1: the first answer waits on the stalled log for 1 s, more than
	# the 200 ms the restarted bind() waited for it (CLAIM_WAIT_MS)
	[ "$2" != restart ] || sleep 1
	r3_resume
	wait_file "$r3_log" "container $1: pid [0-9]* .* port $3: allowed, bound"
	sleep 1
}
# r3_result ID: the program's output, once it has exited
r3_result() {
	wait "$prog"
	sed 's/^/#   /' "/tmp/$1.out"
}
# R3.1-R3.2, R3.6: with an agent started with -v (r3_start_agent)
r3_restart() {
	r3_withdrawn r3-restart restart 86
	r3_result r3-restart
	check "R3.1: a bind() withdrawn by a signal after the agent bound it, restarted while the first answer waits 1 s on a stalled log: success, as bound" \
		grep -q "withdraw: the bind() got ok; the socket is bound" /tmp/r3-restart.out
}
r3_neighbour() {
	# R3.2: a neighbour's binds do not evict a container's withdrawn bind
	# (its restart waits until the signal handler sees $go2)
	r3_withdrawn r3-late late 87
	check "R3.2: meanwhile a neighbour container makes 100 binds" \
		expect_out 0 "repeat: 100 binds to tcp:88, 100 succeeded, 0 disagree" \
		r3 --id r3-neighbour -- ./try-bind --repeat 100 tcp 88
	touch "$go2"
	r3_result r3-late
	check "R3.2: ... and the first container's bind(), restarted after them, still gets success, as bound" \
		grep -q "withdraw: the bind() got ok; the socket is bound" /tmp/r3-late.out
}
r3_eintr() {
	# R3.6: EINTR, then the same thread's second bind() of the socket
	# (once $go2 exists)
	r3_withdrawn r3-eintr eintr 88
	touch "$go2"
	r3_result r3-eintr
	check "R3.6: a bind() that failed with EINTR after the agent bound its socket, then the program's own second bind() of it, another call (its address length): EINVAL, as the kernel says for a bound socket" \
		grep -q "second bind() of the socket after EINTR got Invalid argument" /tmp/r3-eintr.out
}

r3_drain() {
	# R3.3: SIGTERM with the log stalled: the drain's deadline holds
	r3_start_agent --allow tcp:86
	r3_stall
	./agent-client "$r3_sock" silent >/dev/null 2>&1
	sleep 1
	kill -TERM "$r3_agent"
	i=0
	while kill -0 "$r3_agent" 2>/dev/null && [ "$i" -lt 150 ]; do
		i=$((i + 1))
		sleep 0.1
	done
	check "R3.3: SIGTERM while a write to its stalled log blocks: the agent exits within 15 s (its drain's 5 s deadline holds)" \
		sh -c "! kill -0 $r3_agent 2>/dev/null"
	kill -9 "$r3_agent" 2>/dev/null
	wait "$r3_agent"
	status=$?
	r3_resume
	check "R3.3: ... with status 0: nothing was in flight" [ "$status" = 0 ]
	r3_stop_agent
}

r3_fd_limit() {
	# R3.7: at the hard limit of open files a container is refused, and
	# the log names that limit, not the runtime
	rm -f "$r3_log"
	sh -c "ulimit -n 12 && exec ./bind-agent --socket $r3_sock --allow tcp:86" 2>"$r3_log" &
	r3_agent=$!
	wait_file "$r3_log" "listening on $r3_sock"
	pids7=
	i=0
	while [ "$i" -lt 20 ] && ! grep -q "connection dropped" "$r3_log"; do
		# agent-client itself in the background, not r3 (a function: its
		# subshell would be what $! is, and the kill below would leave
		# agent-client and its sleep behind: the guest's STRAY lines)
		./agent-client "$r3_sock" run --id "r3-fd$i" -- sleep 600 >/dev/null 2>&1 &
		pids7="$pids7 $!"
		wait_file "$r3_log" "container r3-fd$i (pid\|connection dropped" 10
		i=$((i + 1))
	done
	say "$(grep 'connection dropped' "$r3_log" | head -n 1)"
	check "R3.7: at its open-file limit the agent refuses a container and says it is at its limit" \
		grep -q "at its open-file limit (RLIMIT_NOFILE 12).*; connection dropped" "$r3_log"
	check "R3.7: ... without blaming the runtime for the fds it sent ('N fds sent: want exactly one')" \
		sh -c "! grep -q 'fds sent: want exactly one' $r3_log"
	kill -9 "$r3_agent"
	wait "$r3_agent"
	# shellcheck disable=SC2086
	kill $pids7 2>/dev/null
	# shellcheck disable=SC2086
	wait $pids7
	r3_agent=
	rm -f "$r3_sock"
}
