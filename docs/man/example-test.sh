#!/bin/sh
# Guest: run the example of PIDFD_IOCTL_GETFD.2const as the page shows it,
# as TAP: a target holding a file on fd 3, at offset 0 and at offset 5,
# and an fd the target does not have.
echo 1..3
n=0 rc=0
check() { # NAME OUTPUT PATTERN
	n=$((n + 1))
	if printf '%s\n' "$2" | grep -qxE "$3"; then
		echo "ok $n $1"
	else
		printf '# got: %s\n# want: %s\n' "$2" "$3"
		echo "not ok $n $1"
		rc=1
	fi
}

sleep 60 3</etc/passwd &
pid=$!
check the-example-names-the-targets-file "$(pidfd_getfd_example $pid 3 2>&1)" \
	"fd 3 of PID $pid is fd [0-9]+ here: /etc/passwd, offset 0"
kill $pid

# dd reads 5 bytes through a dup of fd 3, so fd 3's offset is 5.
(exec 3</etc/passwd; dd bs=5 count=1 <&3 >/dev/null 2>&1; exec sleep 60) &
pid=$!
for _ in 1 2 3 4 5 6 7 8 9 10; do
	grep -qx 'pos:[[:space:]]*5' /proc/$pid/fdinfo/3 2>/dev/null && break
	sleep 1
done
check the-example-sees-the-targets-offset "$(pidfd_getfd_example $pid 3 2>&1)" \
	"fd 3 of PID $pid is fd [0-9]+ here: /etc/passwd, offset 5"

out=$(pidfd_getfd_example $pid 9 2>&1; echo "exit $?")
check an-fd-the-target-lacks-is-ebadf "$(printf '%s' "$out" | tr '\n' ' ')" \
	"ioctl: PIDFD_IOCTL_GETFD: Bad file descriptor exit 1"
kill $pid
exit $rc
