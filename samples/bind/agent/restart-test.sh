#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# bind-agent across its own restart, crash and upgrade, under systemd as
# PID 1 (its fd store, docs/bind-agent.md "Restart, crash and upgrade"), as
# TAP, with agent-client as the runtime. Each of systemctl restart, a
# SIGKILL (systemctl kill) and an upgrade to a second binary has a
# container that binds before, one whose bind is pending meanwhile, and
# one created after; a bind the agent received and did not answer (the
# test-only BIND_AGENT_TEST_DIE) is answered by the next agent, as are one
# it had already bound and one it had not yet journaled; SIGHUP changes a
# served container's policy; the watchdog restarts a stopped agent; a
# stored listener whose container exited leaves the store. A container binds all along, and every answer
# must agree with getsockname(): nothing answered wrongly, no ENOSYS.
#
# Assumes: systemd is PID 1; samples/bind/deploy/systemd's units are
# installed (bind-agent.socket and .service, as install-agent.sh does);
# the unit's ExecStart binary is bind-agent; the cwd holds agent-client,
# try-bind and bind-agent, a second build, which the upgrade installs
# over the ExecStart binary (the first is put back at the end: the
# rollback). Runs as root. Nothing else may use bind-agent meanwhile.

. ./tap.sh
echo "TAP version 13"

svc=bind-agent.service
sock=/run/bind-agent.sock
dropin=/run/systemd/system/$svc.d/restart-test.conf
allow=/run/bind-agent-test/allow
die=/run/bind-agent/test-die
poison=/run/bind-agent-test/poison
W=/tmp/restart-test
stop=$W/stop
pids=

# The service manager: systemd. RESTART_TEST_MANAGER may name a file of
# shell functions that replaces these, for development on a machine whose
# PID 1 is not systemd (no such run counts: the guest's is the test).
mgr_check() { [ "$(cat /proc/1/comm)" = systemd ]; }
mgr_setup() {
	bin=$(systemctl cat "$svc" | sed -n 's/^ExecStart=\([^ ]\{1,\}\).*/\1/p' | tail -n 1)
	mkdir -p "${dropin%/*}"
	cat >"$dropin" <<EOF
[Service]
ExecStart=
ExecStart=$bin -v --socket $sock --allow tcp:82 --allow tcp:443 --allow-file $allow
Environment=BIND_AGENT_TEST_DIE=$die BIND_AGENT_TEST_POISON=$poison
WatchdogSec=10s
EOF
	systemctl daemon-reload && systemctl stop "$svc" && systemctl start "$svc"
}
mgr_teardown() {
	rm -f "$dropin"
	systemctl daemon-reload
	systemctl stop "$svc"
}
mgr_restart() { systemctl restart "$svc"; }
# (a start that fails is retried, Restart=always: its job does not end)
mgr_restart_nowait() { systemctl restart --no-block "$svc"; }
mgr_crash() { systemctl kill -s KILL "$svc"; }
mgr_reload() { systemctl reload "$svc"; }
mgr_pid() { systemctl show -P MainPID "$svc"; }
# (the journal's last entry now: the agent's log is what comes after it)
cursor=$(journalctl -q -n 1 --show-cursor 2>/dev/null | sed -n 's/^-- cursor: //p')
mgr_log() {
	if [ -n "$cursor" ]; then
		journalctl -q -o cat --no-pager -u "$svc" --after-cursor="$cursor"
	else
		journalctl -q -o cat --no-pager -u "$svc"
	fi
}
mgr_watchdog() { systemctl show -P WatchdogUSec "$svc"; }
mgr_restarts() { systemctl show -P NRestarts "$svc"; }
mgr_state() { systemctl show -P ActiveState "$svc"; }
mgr_result() { systemctl show -P Result "$svc"; }
# shellcheck source=/dev/null
[ -z "${RESTART_TEST_MANAGER:-}" ] || . "$RESTART_TEST_MANAGER"

if ! mgr_check; then
	echo "Bail out! systemd is not PID 1 here: this test is systemd's fd store's"
	exit 1
fi

cleanup() {
	: >"$stop"
	rm -f "$poison"
	# shellcheck disable=SC2086
	kill $pids 2>/dev/null
	# shellcheck disable=SC2086
	wait $pids 2>/dev/null
	[ -z "${saved:-}" ] || { cp "$saved" "$bin.restart-test" && mv -f "$bin.restart-test" "$bin"; }
	mgr_teardown
}
trap cleanup EXIT

# wait_log PATTERN [COUNT [SECONDS]]: until the agent's log (since the
# test began) has COUNT lines with PATTERN (default 1), at most SECONDS (30)
wait_log() {
	i=0
	while [ "$(mgr_log | grep -c -- "$1")" -lt "${2:-1}" ]; do
		i=$((i + 1))
		[ "$i" -le "$((${3:-30} * 10))" ] ||
			{ say "${2:-1} '$1' not in the agent's log after ${3:-30} s"; return 1; }
		sleep 0.1
	done
}
# new_agent OLDPID: until a main process other than OLDPID serves (30 s)
new_agent() {
	i=0
	while p=$(mgr_pid) && { [ -z "$p" ] || [ "$p" = 0 ] || [ "$p" = "$1" ]; }; do
		i=$((i + 1))
		[ "$i" -le 300 ] || { say "no new agent after 30 s (main pid $p)"; return 1; }
		sleep 0.1
	done
	wait_log "listening on" "$((listening + 1))" && listening=$((listening + 1))
}
# A container, ID, that binds tcp:443 now and again once $W/go.ID exists,
# then binds an AF_UNIX socket: started before an event, asked after it.
held() {
	./agent-client "$sock" run --id "$1" -- sh -c \
		"./try-bind tcp 443; while [ ! -e $W/go.$1 ]; do sleep 0.1; done; ./try-bind tcp 443; ./try-bind unix 0" \
		>"$W/$1.out" 2>&1 &
	pids="$pids $!"
	eval "held_$1=$!"
	i=0
	until grep -q "bind tcp:443" "$W/$1.out"; do
		i=$((i + 1))
		[ "$i" -le 300 ] || { say "container $1 did not bind within 30 s"; return 1; }
		sleep 0.1
	done
}
# released ID: its second round of binds, after the event (60 s at most)
released() {
	: >"$W/go.$1"
	i=0
	until grep -q "^bind unix" "$W/$1.out"; do
		i=$((i + 1))
		[ "$i" -le 600 ] || break
		sleep 0.1
	done
	sed 's/^/#   /' "$W/$1.out"
	[ "$(grep -c '^bind tcp:443 as uid 1000: ok$' "$W/$1.out")" = 2 ] &&
		grep -q '^bind unix:0 as uid 1000: ok$' "$W/$1.out"
}

rm -rf "$W"
mkdir -p "$W" "${allow%/*}"
chmod 0755 "$W"
echo "tcp:83" >"$allow"
chmod 0644 "$allow"
listening=0
mgr_setup || { echo "Bail out! cannot set up $svc"; exit 1; }
wait_log "listening on" 1 || { echo "Bail out! the agent does not start"; exit 1; }
listening=1
say "agent: $bin, main pid $(mgr_pid); kernel $(uname -r); $(systemctl --version 2>/dev/null | head -n 1)"

# All along: a container that binds tcp:82 every 0.2 s, each answer
# checked against getsockname(); it must never see ENOSYS.
./agent-client "$sock" run --id loop -- sh -c \
	"while [ ! -e $stop ]; do echo \"\$(date +%s) \$(./try-bind --until-enosys 1 tcp 82 2>&1)\"; sleep 0.2; done" \
	>"$W/loop.out" 2>&1 &
loop=$!
pids="$pids $loop"
wait_log "container loop: pid [0-9]* .*port 82: allowed, bound" ||
	{ echo "Bail out! the first container is not served"; exit 1; }

for event in restart crash upgrade rollback; do
	say "$event, with containers before, during and after"
	held "$event" || not_ok "$event: a container binds before"
	old=$(mgr_pid)
	case $event in
	restart) mgr_restart ;;
	crash) mgr_crash ;;
	upgrade)
		saved=$W/bind-agent.saved
		cp "$bin" "$saved" && cp ./bind-agent "$bin.restart-test" && mv -f "$bin.restart-test" "$bin" &&
			mgr_restart
		;;
	rollback)
		cp "$saved" "$bin.restart-test" && mv -f "$bin.restart-test" "$bin" && saved= && mgr_restart
		;;
	esac
	check "$event: a new agent serves" new_agent "$old"
	pid=$(mgr_pid)
	[ "$event" = upgrade ] || [ "$event" = rollback ] &&
		check "$event: ... and it runs the binary now installed" \
			[ "$(stat -L -c %i "/proc/$pid/exe")" = "$(stat -c %i "$bin")" ]
	check "$event: it took the container back from systemd's fd store" \
		wait_log "container $event (pid [0-9]*, from runtime pid [0-9]*): serving its listener again, from systemd's fd store"
	check "$event: the container served before binds tcp:443 and AF_UNIX after" released "$event"
	check "$event: a container created after binds tcp:443" \
		expect_out 0 "bind tcp:443 as uid 1000: ok" timeout 60 ./agent-client "$sock" run --id "$event-after" -- ./try-bind tcp 443
done

say "a broken upgrade: a binary that exits at once, restarted in a loop, then the rollback"
# systemd's default start limit (5 starts in 10 s) would fail the unit
# after the fifth quick start, and a failed unit's fd store is closed: every
# served container's bind ENOSYS for good. The unit has none (docs/bind-agent.md).
held broken
old=$(mgr_pid)
restarts=$(mgr_restarts)
saved=$W/bind-agent.saved
cp "$bin" "$saved"
printf '#!/bin/sh\nexit 1\n' >"$bin.restart-test" && chmod 0755 "$bin.restart-test" &&
	mv -f "$bin.restart-test" "$bin"
mgr_restart_nowait
# six restarts of the broken binary: one more than the default limit allows
looped() {
	i=0
	while [ "$(mgr_restarts)" -lt "$((restarts + 6))" ]; do
		[ "$(mgr_state)" != failed ] || { say "the unit failed: $(mgr_result)"; return 1; }
		i=$((i + 1))
		[ "$i" -le 300 ] || { say "$(($(mgr_restarts) - restarts)) restarts after 30 s"; return 1; }
		sleep 0.1
	done
	say "$(($(mgr_restarts) - restarts)) restarts, the unit $(mgr_state)"
}
check "broken: systemd restarts a binary that exits at once six times, and the unit does not fail" looped
cp "$saved" "$bin.restart-test" && mv -f "$bin.restart-test" "$bin" && saved=
mgr_restart
check "broken: after the rollback, a new agent serves" new_agent "$old"
check "broken: the container served before binds tcp:443 and AF_UNIX after" released broken

say "binds in flight when the agent dies (BIND_AGENT_TEST_DIE)"
# received: the journal has it, nothing done; sending: bound, not answered
for step in received sending; do
	old=$(mgr_pid)
	echo "$step die-$step" >"$die"
	check "$step: a bind pending while the agent dies is answered by the next, as getsockname() says" \
		expect_out 1 "1 succeeded, 0 disagree with getsockname(), last: ok" \
		timeout 60 ./agent-client "$sock" run --id "die-$step" -- ./try-bind --until-enosys 1 tcp 443
	check "$step: the agent died there" wait_log "BIND_AGENT_TEST_DIE: killing ourselves at '$step die-$step'"
	new_agent "$old"
done
# unjournaled ID [CLIENT-OPTION...] -- COMMAND: a container ID binds
# AF_UNIX, so that the journal marks its last id, then runs COMMAND,
# whose first notification kills the agent after it is received and
# before the journal has it; its output in $W/ID.out
unjournaled() {
	_id=$1
	shift
	_opts=
	while [ "$1" != -- ]; do _opts="$_opts $1" && shift; done
	shift
	# shellcheck disable=SC2086 # one option a word
	timeout 60 ./agent-client "$sock" run --id "die-$_id" $_opts -- sh -c \
		"./try-bind unix 0; while [ ! -e $W/go.$_id ]; do sleep 0.1; done; $*" \
		>"$W/$_id.out" 2>&1 &
	_pid=$!
	pids="$pids $_pid"
	wait_log "container die-$_id: pid [0-9]* syscall\|container die-$_id: pid [0-9]* .*family 1" ||
		sleep 2
	old=$(mgr_pid)
	echo "unjournaled die-$_id" >"$die"
	: >"$W/go.$_id"
	new_agent "$old"
	wait "$_pid"
	sed 's/^/#   /' "$W/$_id.out"
}
unjournaled unjournaled -- "./try-bind unix 0; ./try-bind tcp 443"
check "unjournaled: a bind received and not yet journaled when the agent died is refused (EPERM): nothing says what it asked" \
	[ "$(cat "$W/unjournaled.out")" = "bind unix:0 as uid 1000: ok
bind unix:0 as uid 1000: Operation not permitted
bind tcp:443 as uid 1000: ok" ]
check "unjournaled: the agent died there" wait_log "BIND_AGENT_TEST_DIE: killing ourselves at 'unjournaled die-unjournaled'"
check "unjournaled: the next agent found it near the last id the journal marked, and refused it" \
	wait_log "container die-unjournaled: notification [0-9]*, received by the agent before us and not yet in its journal: nothing says what it asked: refused (EPERM)"
# ... whatever the syscall: a filter may send any to the agent (listen()
# here), which refuses all but bind(); the kernel must not do it instead
unjournaled lostlisten --listen -- "./try-bind --listen-only tcp 0"
check "unjournaled: a listen() the agent refuses, received and not yet journaled when it died, is refused (EPERM), not done by the kernel" \
	[ "$(cat "$W/lostlisten.out")" = "bind unix:0 as uid 1000: ok
listen tcp as uid 1000: Operation not permitted" ]
check "received: the next agent decided it again, from the journal" \
	wait_log "container die-received: pid [0-9]*: notification [0-9]*, in flight when the agent before us stopped, decided again: answered 0"
check "sending: the next agent answered 0, what the bind the dead one made did" \
	wait_log "container die-sending: pid [0-9]*: notification [0-9]*: the agent before us bound its socket (fd [0-9]*) and stopped before answering: answered 0"

say "a decision that kills the agent: decided again once, then refused"
# Each agent that decides it dies (BIND_AGENT_TEST_POISON): the first, and
# the next, which decides it again from the journal. The one after must
# refuse it (EPERM, as what it does not decide) rather than decide it
# again: restarted forever (Restart=always, no start limit), the agent
# would serve no container.
echo "deciding die-poison" >"$poison"
check "poison: a bind whose decision kills every agent that makes it is refused (EPERM), not decided forever" \
	expect_out 1 "bind tcp:443 as uid 1000: Operation not permitted" \
	timeout 60 ./agent-client "$sock" run --id die-poison -- ./try-bind tcp 443
rm -f "$poison"
check "poison: two agents died deciding it, the first and one that decided it again" \
	[ "$(mgr_log | grep -c "BIND_AGENT_TEST_POISON: killing ourselves at 'deciding die-poison'")" = 2 ]
check "poison: the next agent refused it, saying why" \
	wait_log "container die-poison: pid [0-9]*: notification [0-9]*: an agent before us already decided it again from the journal and stopped before answering: refused (EPERM)"
check "poison: ... and serves: a container binds tcp:443" \
	expect_out 0 "bind tcp:443 as uid 1000: ok" timeout 60 ./agent-client "$sock" run --id poison-after -- ./try-bind tcp 443
# (every agent started since: new_agent counts from here)
listening=$(mgr_log | grep -c "listening on")

say "SIGHUP: --allow-file again, for the containers served too"
held hup
check "SIGHUP: with tcp:83 in the file, a served container binds tcp:83" \
	expect_out 0 "bind tcp:83 as uid 1000: ok" timeout 60 ./agent-client "$sock" run --id hup83 -- ./try-bind tcp 83
timeout 120 ./agent-client "$sock" run --id hupheld -- sh -c \
	"while [ ! -e $W/go.hup1 ]; do sleep 0.1; done; ./try-bind tcp 83; while [ ! -e $W/go.hup2 ]; do sleep 0.1; done; ./try-bind tcp 83" \
	>"$W/hupheld.out" 2>&1 &
hupheld=$!
pids="$pids $hupheld"
wait_log "container hupheld (pid"
: >"$allow"
pid=$(mgr_pid)
mgr_reload
check "SIGHUP: one line says what changed" \
	wait_log "SIGHUP: allowed: tcp:82 tcp:443 (was tcp:82 tcp:443 tcp:83; added: none; removed: tcp:83); [0-9]* containers served now have it"
: >"$W/go.hup1"
echo "tcp:83" >"$allow"
sleep 1
mgr_reload
wait_log "SIGHUP: allowed: tcp:82 tcp:443 tcp:83 (was tcp:82 tcp:443; added: tcp:83; removed: none)"
: >"$W/go.hup2"
wait "$hupheld"
sed 's/^/#   /' "$W/hupheld.out"
check "SIGHUP: a container served all along was refused tcp:83 once the file dropped it, and granted it once it came back" \
	[ "$(cat "$W/hupheld.out")" = "bind tcp:83 as uid 1000: Permission denied
bind tcp:83 as uid 1000: ok" ]
check "SIGHUP: the agent was not restarted" [ "$(mgr_pid)" = "$pid" ]
released hup >/dev/null

say "a stored listener whose container exited leaves the store"
./agent-client "$sock" run --id gone -- sh -c "./try-bind tcp 443; exec sleep 600" >"$W/gone.out" 2>&1 &
gone=$!
pids="$pids $gone"
wait_log "container gone: pid [0-9]* .*port 443: allowed, bound"
old=$(mgr_pid)
mgr_restart
new_agent "$old"
wait_log "container gone (pid [0-9]*, from runtime pid [0-9]*): serving its listener again"
kill "$gone"
wait "$gone"
check "gone: the agent says its container is done and removes it from the store" \
	wait_log "container gone: done: removed from systemd's fd store (c-gone-[0-9]*)"
old=$(mgr_pid)
mgr_restart
new_agent "$old"
# (after the line that removed it, no agent takes "gone" back)
not_back() { ! mgr_log | sed -n '/container gone: done: removed/,$p' | grep -q 'container gone (pid'; }
check "gone: the next agent does not get it back" not_back

say "the watchdog: a stopped agent is restarted, and its containers served on"
wd=$(mgr_watchdog)
say "WatchdogUSec: $wd"
has_watchdog() { [ -n "$wd" ] && [ "$wd" != 0 ] && [ "$wd" != infinity ]; }
check "the unit has a watchdog (WatchdogSec=)" has_watchdog
held watchdog
old=$(mgr_pid)
kill -STOP "$old"
check "watchdog: systemd restarts the stopped agent" new_agent "$old"
kill -CONT "$old" 2>/dev/null
check "watchdog: the container served before binds after" released watchdog

: >"$stop"
i=0
while kill -0 "$loop" 2>/dev/null && [ "$i" -lt 600 ]; do
	i=$((i + 1))
	sleep 0.1
done
kill "$loop" 2>/dev/null
wait "$loop"
total=$(wc -l <"$W/loop.out")
good=$(grep -c "^[0-9]* until-enosys: 1 binds to tcp:82, 1 succeeded, 0 disagree with getsockname(), last: ok$" "$W/loop.out")
say "the container that bound all along: $good of $total binds answered ok and agreed with getsockname()"
grep -v "1 succeeded, 0 disagree" "$W/loop.out" | sed 's/^/#   /'
all_good() { [ "$total" -gt 10 ] && [ "$good" = "$total" ]; }
check "all along: every bind of the container that lived through every event succeeded, as getsockname() says, never ENOSYS" \
	all_good
no_failure() { ! mgr_log | grep 'supervisor-side failure'; }
check "no supervisor-side failure was logged" no_failure
say "the agent's log:"
mgr_log | sed 's/^/#   /' | tail -n 200

echo "1..$n"
exit $failed
