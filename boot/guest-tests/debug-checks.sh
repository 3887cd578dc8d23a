#!/bin/sh
# Guest, debug kernels: debug-checks.sh begin|end, as TAP.
#   begin: KASAN, lockdep, kmemleak and fault injection are live, and
#          kmemleak forgets what boot left (boot-time objects are not ours);
#   end:   lockdep is still on (a lockdep report switches it off) and a
#          kmemleak scan finds nothing. A report is printed as it is, so
#          the verdict also sees it in the log.
k=/sys/kernel/debug/kmemleak
n=0 rc=0
case ${1:-} in
begin) echo 1..4 ;;
end) echo 1..2 ;;
*) echo "usage: $0 begin|end" >&2; exit 2 ;;
esac

result() { # NAME CMD...
	name=$1
	shift
	n=$((n + 1))
	if "$@"; then echo "ok $n $name"; else echo "not ok $n $name"; rc=1; fi
}

lockdep_on() { grep -qE '^ *debug_locks: +1$' /proc/lockdep_stats; }

kmemleak_scan() {
	# An object is reported once it is 5 s old and two scans found no
	# reference to it.
	echo scan >$k && sleep 6 && echo scan >$k
}

kmemleak_clear() { kmemleak_scan && echo clear >$k; }

kmemleak_empty() {
	kmemleak_scan || return 1
	report=$(cat $k)
	[ -z "$report" ] && return 0
	printf '%s\n' "$report"
	return 1
}

case $1 in
begin)
	result kasan-is-on sh -c 'dmesg | grep -q "KernelAddressSanitizer initialized"'
	result lockdep-is-on lockdep_on
	result fault-injection-is-on test -w /proc/self/fail-nth
	result kmemleak-is-on-and-forgets-boot kmemleak_clear
	;;
end)
	result lockdep-is-still-on lockdep_on
	result kmemleak-finds-no-leak kmemleak_empty
	;;
esac
exit $rc
