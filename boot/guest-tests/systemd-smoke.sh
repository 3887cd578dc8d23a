#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The systemd guest's smoke test (boot/suites/systemd, boot/flavour/systemd),
# as TAP: the guest is what its tests need, a system whose PID 1 is
# Debian 12's systemd 252: /proc/1/exe is systemd; the boot finished with no
# unit failed ('systemctl is-system-running' says running); bind-agent.socket
# is listening on the unit's path and bind-agent.service starts under its
# unit's sandbox and says READY=1; and the fd store keeps a service's fd
# (fdstore-probe.service, boot/guest-tests/fdstore-probe.c) across
# 'systemctl restart' and a SIGKILL (Restart=on-failure), and drops it on
# 'systemctl stop'. Run from the ABI's bin directory, as root, by the suite
# runner (boot/image/systemd/pidfd-suite.service).

. ./tap.sh
# systemctl and journalctl are in /bin, systemd-analyze in /usr/bin
PATH=$PATH:/usr/bin:/usr/sbin
# plain text in the log
export SYSTEMD_COLORS=0
echo "TAP version 13"

pid1_is_systemd() {
	exe=$(readlink /proc/1/exe)
	say "/proc/1/exe: $exe; $(systemctl --version | head -n 1)"
	[ "$exe" = /lib/systemd/systemd ]
}
check "PID 1 is systemd" pid1_is_systemd

system_running() {
	state=$(systemctl is-system-running --wait)
	say "is-system-running: $state"
	[ "$state" = running ] && return 0
	systemctl --no-pager --failed | sed 's/^/#   /'
	return 1
}
check "the boot finished with no unit failed (is-system-running: running)" system_running

socket_listening() {
	state=$(systemctl is-active bind-agent.socket)
	listen=$(systemctl show -p Listen --value bind-agent.socket)
	say "bind-agent.socket: $state, listening on $listen"
	[ "$state" = active ] && [ "$listen" = "/run/bind-agent.sock (Stream)" ] && [ -S /run/bind-agent.sock ]
}
check "bind-agent.socket is listening on /run/bind-agent.sock" socket_listening

agent_starts() {
	systemctl start bind-agent.service
	rc=$?
	state=$(systemctl is-active bind-agent.service)
	say "systemctl start bind-agent.service: status $rc, then $state"
	systemctl --no-pager status bind-agent.service 2>&1 | sed 's/^/#   /'
	# (it warns that bind-agent.socket can start it again)
	systemctl stop bind-agent.service 2>&1 | sed 's/^/#   /'
	[ "$rc" = 0 ] && [ "$state" = active ]
}
check "bind-agent.service starts under its unit's sandbox (READY=1)" agent_starts

# The probe's state: "pid=PID fd=stored|received token=TOKEN names=NAMES"
state=/run/fdstore-probe.state
probe() {
	cat "$state" 2>/dev/null
}
main_pid() {
	systemctl show -p MainPID --value fdstore-probe.service
}
# probe_is WANT: the probe's state matches WANT, its pid is the MainPID
probe_is() {
	now=$(probe)
	[ "$now" = "$1" ] && [ "${now%% *}" = "pid=$(main_pid)" ]
}
# expect_probe WANT: wait up to 10 s for it; say what it is
expect_probe() {
	retry 10 probe_is "$1"
	rc=$?
	say "state: $(probe) (MainPID $(main_pid)); wanted: $1"
	return $rc
}

rm -f "$state"
systemctl start fdstore-probe.service
first=$(main_pid)
check "a service stores an fd (FDSTORE=1, FDNAME=probe)" \
	expect_probe "pid=$first fd=stored token=$first names="
systemctl restart fdstore-probe.service
second=$(main_pid)
check "after 'systemctl restart', the new process gets it back (LISTEN_FDNAMES=probe)" \
	expect_probe "pid=$second fd=received token=$first names=probe"
kill -KILL "$second"
# Restart=on-failure: systemd starts it again, after RestartSec=100ms
wait_new() { [ "$(main_pid)" != "$second" ] && [ "$(main_pid)" != 0 ]; }
retry 10 wait_new
third=$(main_pid)
check "after SIGKILL, the restarted process gets it back" \
	expect_probe "pid=$third fd=received token=$first names=probe"
systemctl stop fdstore-probe.service
systemctl start fdstore-probe.service
fourth=$(main_pid)
check "after 'systemctl stop', the store is empty: the next start stores anew" \
	expect_probe "pid=$fourth fd=stored token=$fourth names="
systemctl stop fdstore-probe.service
rm -f "$state"

echo "1..$n"
exit $failed
