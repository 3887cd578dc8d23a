#!/bin/sh
# boot/tests/verdict.sh [-l | -g DIR | CASE...]
#   The verdict's self-test, on the host, in a second: crafted console logs
#   (a good set, and each CASE a change to it) judged by boot/verdict.sh
#   against boot/tests/plan (PIDFD_GETFD_PLAN). The good set must pass with
#   the counts that plan gives; every other case must fail and say what it
#   expects, naming the log. -l lists the cases, -g writes the good set
#   into DIR; no CASE runs them all and
#   prints TAP. boot/checks/harness.sh runs each case as one of its own.
set -eu
TESTS=$(cd "$(dirname "$0")" && pwd)
TOP=$(dirname "$(dirname "$TESTS")")
export PIDFD_GETFD_PLAN="$TESTS/plan"

# The cases: NAME, then the text the verdict's failure must carry.
cases() {
	cat <<'EOF'
the-good-logs-pass-with-the-planned-counts|3 passed
a-missing-section-fails|x86_64-check.log: x86_64: x86_64 sel: missing
a-missing-abi-fails|x86_64-check.log: x86_64: i386 hello: missing
no-suite-file-in-the-guest-fails|x86_64-check.log: x86_64: @@@ INIT no suite
an-arm64-log-that-is-the-x86_64-log-fails|arm64-check.log: arm64: the log says arch=x86_64
a-check-log-that-is-a-demo-log-fails|x86_64-check.log: x86_64: the log says suite=demo
a-log-of-another-base-fails|x86_64-check.log: x86_64: the log says base=other, its folder test
a-log-with-no-plan-fails|x86_64-bench.log: x86_64: no plan for base test, arch x86_64, suite bench
a-duplicate-section-fails|x86_64-check.log: x86_64: x86_64 hello: a second time
sections-out-of-order-fail|x86_64-check.log: x86_64: x86_64 hello: out of order
an-extra-section-fails|x86_64-check.log: x86_64: x86_64 extra: not in the plan
an-end-naming-another-test-fails|x86_64-check.log: x86_64: x86_64 hello: END names x86_64 sel
a-second-init-fails|x86_64-check.log: x86_64: a second @@@ INIT
a-plan-of-0-fails|x86_64-check.log: x86_64: x86_64 sel: 0 TAP points, the plan says 3
fewer-points-than-planned-fail|x86_64-check.log: x86_64: x86_64 sel: 2 TAP points, the plan says 3
unplanned-skips-fail|x86_64-check.log: x86_64: i386 sel: ok 1 a # SKIP not today: a skip the plan does not allow
a-skip-with-another-reason-fails|x86_64-check.log: x86_64: x86_64 sel: ok 2 b # SKIP no reason at all: a skip the plan does not allow
a-planned-skip-that-did-not-skip-fails|x86_64-check.log: x86_64: x86_64 sel: 1 planned skip did not happen
a-not-ok-skip-fails|x86_64-check.log: x86_64: x86_64 sel: not ok 2 b # SKIP
a-kernel-line-splitting-not-ok-fails|x86_64-check.log: x86_64: x86_64 sel: a kernel message split a TAP line
a-hung-task-fails|arm64-check.log: arm64: kernel trouble (hung-task): INFO: task kworker/0:1:12 blocked for more than 120 seconds.
an-arm64-rcu-stall-fails|arm64-check.log: arm64: kernel trouble (rcu-stall): rcu: INFO: rcu_sched self-detected stall on CPU
kasan-inside-a-hash-line-fails|x86_64-check.log: x86_64: kernel trouble (kasan): BUG: KASAN: slab-use-after-free in pidfd_getfd
bail-out-after-a-complete-plan-fails|x86_64-check.log: x86_64: x86_64 sel: Bail out!
a-host-check-log-with-no-case-fails|lint.log: host: g *: 0 sections, the plan says 2
a-guest-log-without-its-kernel-console-fails|x86_64-check.log: x86_64: no kernel console
a-done-the-kernel-console-shows-does-not-count|x86_64-check.log: x86_64: the guest did not reach its end
a-section-the-kernel-console-shows-does-not-count|x86_64-check.log: x86_64: i386 sel: missing
cpus-a-test-reports-do-not-count|x86_64-check.log: x86_64: the kernel did not say 'smp: Brought up 1 node, 2 CPUs'
cpus-a-test-writes-to-the-console-do-not-count|x86_64-check.log: x86_64: the kernel did not say 'smp: Brought up 1 node, 2 CPUs'
a-console-line-a-test-wrote-fails|x86_64-check.log: x86_64: '@@@ CONSOLE' without this boot's token
a-done-a-test-wrote-fails|x86_64-check.log: x86_64: i386 sel: @@@ DONE inside the test
an-init-message-on-the-console-fails|x86_64-check.log: x86_64: @@@ INIT mount debugfs on /sys/kernel/debug: No such device
a-known-failure-without-the-pristine-failure-fails|x86_64-check.log: x86_64: i386 sel: not ok 3 c: a known failure, but
a-known-failure-the-pristine-kernel-shows-is-known|1 known failure
EOF
	# one case per kernel-trouble pattern: its example planted in a log
	# must fail, named by that pattern
	sed -e '/^#/d' -e '/^[[:space:]]*$/d' "$TOP/boot/plan/trouble" |
		while IFS='	' read -r name _ example; do
			printf 'kernel-trouble-%s|%s\n' "$name" "kernel trouble ($name)"
		done
}

# console: the kernel console, which boot/run.sh appends to a guest's log
console() {
	printf '@@@ CONSOLE ttyS0 %s\n[    0.000000] Linux version 6.1.0\n[    0.100000] %s\n' "$token" "$smp"
	echo '[    0.200000] Run /init as init process'
}

# good DIR: the logs every case starts from
good() {
	d=$1
	smp='smp: Brought up 1 node, 2 CPUs'
	# boot/run.sh's per-boot secret, in the RUN line and its CONSOLE line
	token=5e1f0c2a9b7d4e31
	for a in x86_64 arm64; do
		case $a in x86_64) abis="x86_64 i386" ;; arm64) abis="arm64 armhf" ;; esac
		{
			echo "@@@ RUN base=test arch=$a suite=check accel=tcg console=$token smp=$smp"
			echo "@@@ INIT suite=check"
			for abi in $abis; do
				printf '@@@ BEGIN %s hello\n1..1\nok 1 hello\n\n@@@ END %s hello status=0\n' "$abi" "$abi"
				[ "$a" = arm64 ] && continue
				printf '@@@ BEGIN %s sel\n# a diagnostic\n1..3\nok 1 a\n' "$abi"
				if [ "$abi" = x86_64 ]; then
					echo "ok 2 b # SKIP no socketcall on this ABI"
				else
					echo "ok 2 b"
				fi
				printf 'ok 3 c\n\n@@@ END %s sel status=0\n' "$abi"
			done
			printf '@@@ KLOG BEGIN\n<6>[    0.100000] %s\n\n@@@ KLOG END\n@@@ DONE\n' "$smp"
			console
		} >"$d/$a-check.log"
	done
	{
		echo "@@@ RUN base=test arch=x86_64 suite=demo accel=tcg console=$token smp=$smp"
		echo "@@@ INIT suite=demo"
		printf '@@@ BEGIN x86_64 samples\n1..2\nok 1 s\nok 2 t\n\n@@@ END x86_64 samples status=0\n@@@ DONE\n'
		console
	} >"$d/x86_64-demo.log"
	{
		echo "@@@ RUN base=test arch=host suite=lint"
		for c in one two; do
			printf '@@@ BEGIN g %s\n# output\n1..1\nok 1 %s\n@@@ END g %s status=0\n' "$c" "$c" "$c"
		done
		echo "@@@ DONE"
	} >"$d/lint.log"
}

# edit FILE SED-SCRIPT
edit() { sed -i "$2" "$1"; }

# make_case NAME DIR: change the good logs in DIR into case NAME; prints the
# logs to judge.
make_case() {
	name=$1 d=$2
	x=$d/x86_64-check.log arm=$d/arm64-check.log
	set -- "$x" "$arm" "$d/x86_64-demo.log" "$d/lint.log"
	case $name in
	the-good-logs-pass-with-the-planned-counts) ;;
	a-missing-section-fails) edit "$x" '/^@@@ BEGIN x86_64 sel/,/^@@@ END x86_64 sel/d' ;;
	a-missing-abi-fails) edit "$x" '/^@@@ BEGIN i386 /,/^@@@ END i386 /d' ;;
	no-suite-file-in-the-guest-fails)
		edit "$x" '/^@@@ INIT/,/^@@@ KLOG BEGIN/{/^@@@ INIT/!{/^@@@ KLOG BEGIN/!d}}'
		edit "$x" '/^@@@ INIT/a @@@ INIT no suite /etc/suites/check: No such file or directory' ;;
	an-arm64-log-that-is-the-x86_64-log-fails) cp "$x" "$arm" ;;
	a-check-log-that-is-a-demo-log-fails) cp "$d/x86_64-demo.log" "$x" ;;
	a-log-of-another-base-fails) edit "$x" '1s/base=test/base=other/' ;;
	a-log-with-no-plan-fails)
		sed '1s/suite=check/suite=bench/; s/INIT suite=check/INIT suite=bench/' "$x" >"$d/x86_64-bench.log"
		set -- "$@" "$d/x86_64-bench.log" ;;
	a-duplicate-section-fails) edit "$x" '/^@@@ END x86_64 hello/a @@@ BEGIN x86_64 hello\n1..1\nok 1 hello\n@@@ END x86_64 hello status=0' ;;
	sections-out-of-order-fail)
		edit "$x" '/^@@@ BEGIN x86_64 hello/,/^@@@ END x86_64 hello/d'
		edit "$x" '/^@@@ END x86_64 sel/a @@@ BEGIN x86_64 hello\n1..1\nok 1 hello\n@@@ END x86_64 hello status=0' ;;
	an-extra-section-fails) edit "$x" '/^@@@ END x86_64 hello/a @@@ BEGIN x86_64 extra\n1..1\nok 1 extra\n@@@ END x86_64 extra status=0' ;;
	an-end-naming-another-test-fails) edit "$x" 's/^@@@ END x86_64 hello /@@@ END x86_64 sel /' ;;
	a-second-init-fails) edit "$x" '/^@@@ END x86_64 sel/a [    9.000000] reboot: Restarting system\n@@@ INIT suite=check' ;;
	a-plan-of-0-fails) edit "$x" '/^@@@ BEGIN x86_64 sel/,/^@@@ END x86_64 sel/{/^1\.\./s/.*/1..0/;/^ok/d}' ;;
	fewer-points-than-planned-fail) edit "$x" '/^@@@ BEGIN x86_64 sel/,/^@@@ END x86_64 sel/{s/^1\.\.3/1..2/;/^ok 3/d}' ;;
	unplanned-skips-fail) edit "$x" '/^@@@ BEGIN i386 sel/,/^@@@ END i386 sel/s/^\(ok [0-9] [a-z]\)$/\1 # SKIP not today/' ;;
	a-skip-with-another-reason-fails) edit "$x" 's/# SKIP no socketcall on this ABI/# SKIP no reason at all/' ;;
	a-planned-skip-that-did-not-skip-fails) edit "$x" 's/ # SKIP no socketcall on this ABI//' ;;
	a-not-ok-skip-fails) edit "$x" '/^@@@ BEGIN x86_64 sel/,/^@@@ END x86_64 sel/s/^ok 2 b.*/not ok 2 b # SKIP/' ;;
	a-kernel-line-splitting-not-ok-fails)
		edit "$x" '/^@@@ BEGIN i386 sel/,/^@@@ END i386 sel/s/^ok 2 b$/not [   12.345678] random: crng reseeded\nok 2 b/'
		# the same in x86_64's section, where the runner then exits 1
		edit "$x" '/^@@@ BEGIN x86_64 sel/,/^@@@ END x86_64 sel/{s/^ok 3 c$/not [   12.345678] random: crng reseeded\nok 3 c/;s/status=0/status=1/}' ;;
	a-hung-task-fails) edit "$arm" '/^@@@ KLOG END/i <3>[  245.000000] INFO: task kworker/0:1:12 blocked for more than 120 seconds.' ;;
	an-arm64-rcu-stall-fails)
		edit "$arm" '$a [   60.000000] rcu: INFO: rcu_sched self-detected stall on CPU\n[   60.000001] Call trace:\n[   60.000002]  dump_backtrace+0x0/0x1e0' ;;
	kasan-inside-a-hash-line-fails)
		edit "$x" '/^@@@ BEGIN x86_64 sel/a # [   30.000000] BUG: KASAN: slab-use-after-free in pidfd_getfd+0x1c/0x80' ;;
	bail-out-after-a-complete-plan-fails) edit "$x" '/^@@@ BEGIN x86_64 sel/,/^@@@ END x86_64 sel/s/^ok 3 c$/ok 3 c\nBail out! the runner gave up/' ;;
	a-host-check-log-with-no-case-fails) printf '@@@ RUN base=test arch=host suite=lint\n@@@ DONE\n' >"$d/lint.log" ;;
	a-guest-log-without-its-kernel-console-fails) edit "$x" '/^@@@ CONSOLE/,$d' ;;
	a-done-the-kernel-console-shows-does-not-count)
		edit "$x" '/^@@@ DONE/d'
		edit "$x" '$a @@@ DONE' ;;
	a-section-the-kernel-console-shows-does-not-count)
		sed -n '/^@@@ BEGIN i386 sel/,/^@@@ END i386 sel/p' "$x" >"$d/sel"
		edit "$x" '/^@@@ BEGIN i386 sel/,/^@@@ END i386 sel/d'
		edit "$x" "\$r $d/sel" ;;
	cpus-a-test-reports-do-not-count)
		edit "$x" '/^@@@ CONSOLE/,${/smp: Brought up/d}'
		edit "$x" '/^@@@ KLOG BEGIN/,/^@@@ KLOG END/{/smp: Brought up/d}'
		edit "$x" '/^@@@ BEGIN x86_64 sel/a smp: Brought up 1 node, 2 CPUs' ;;
	cpus-a-test-writes-to-the-console-do-not-count)
		# the kernel brought up one CPU; a test wrote the line it wanted
		edit "$x" '/^@@@ CONSOLE/,${s/smp: Brought up 1 node, 2 CPUs/smp: Brought up 1 node, 1 CPU/}'
		edit "$x" '$a [   50.000000] smp: Brought up 1 node, 2 CPUs' ;;
	a-console-line-a-test-wrote-fails)
		# the last test ends its section, the guest and the log itself,
		# as the guest would, then fails
		edit "$x" '/^@@@ BEGIN i386 sel/,/^@@@ END i386 sel/s/status=0$/status=1/'
		edit "$x" '/^@@@ BEGIN i386 sel/,/^@@@ END i386 sel/{/^ok 3 c$/a @@@ END i386 sel status=0\n@@@ DONE\n@@@ CONSOLE ttyS0\nnot ok 4 d
}' ;;
	a-done-a-test-wrote-fails)
		# the last test says the guest is done; the guest then dies
		# in its kernel-log dump, which no trouble line explains
		edit "$x" '/^@@@ BEGIN i386 sel/,/^@@@ END i386 sel/s/^ok 3 c$/ok 3 c\n@@@ DONE/'
		edit "$x" '/^@@@ KLOG BEGIN/,/^@@@ DONE/{/^@@@ KLOG BEGIN/!d}' ;;
	an-init-message-on-the-console-fails)
		edit "$x" '/^@@@ CONSOLE/a @@@ INIT mount debugfs on /sys/kernel/debug: No such device' ;;
	a-known-failure-without-the-pristine-failure-fails)
		edit "$x" '/^@@@ BEGIN i386 sel/,/^@@@ END i386 sel/{s/^ok 3 c$/not ok 3 c/;s/status=0/status=1/}' ;;
	a-known-failure-the-pristine-kernel-shows-is-known)
		edit "$x" '/^@@@ BEGIN i386 sel/,/^@@@ END i386 sel/{s/^ok 3 c$/not ok 3 c/;s/status=0/status=1/}'
		cp "$x" "$d/x86_64-pristine.log" ;;
	kernel-trouble-*)
		example=$(sed -e '/^#/d' "$TOP/boot/plan/trouble" |
			awk -F'\t' -v n="${name#kernel-trouble-}" '$1 == n { print $3 }')
		printf '/^@@@ END i386 hello/i [   42.000000] %s\n' "$example" >"$d/sed"
		sed -i -f "$d/sed" "$x" ;;
	*) echo "no case $name" >&2; return 1 ;;
	esac
	printf '%s\n' "$@"
}

# run_case NAME: 0 if the verdict does what the case expects
run_case() {
	want=$(cases | grep "^$1|" | cut -d'|' -f2-)
	[ -n "$want" ] || { echo "no case $1"; return 1; }
	top=$(mktemp -d)
	# the logs' folder is named after their base, as under $CACHE/logs/
	d=$top/test
	mkdir "$d"
	good "$d"
	logs=$(make_case "$1" "$d") || { rm -rf "$top"; return 1; }
	rc=0
	# shellcheck disable=SC2086
	sh "$TOP/boot/verdict.sh" $logs >"$d/out" 2>&1 || rc=$?
	sed "s|$d/||g" "$d/out"
	result=0
	case $1 in
	the-good-logs-pass*)
		if [ $rc != 0 ] || ! grep -qx '13 passed, 0 failed, 1 skipped' "$d/out"; then
			echo "want: exit 0 and '13 passed, 0 failed, 1 skipped' for the good logs of the plan"
			result=1
		fi ;;
	*-is-known)
		if [ $rc != 0 ] || ! grep -q "$want" "$d/out"; then
			echo "want: exit 0 and '$want'"
			result=1
		fi ;;
	*)
		if [ $rc = 0 ]; then
			echo "the verdict passed the case: want a failure saying '$want'"
			result=1
		elif ! grep -F -- "$want" "$d/out" | grep -q "^FAILED"; then
			echo "the verdict failed, but no FAILED line says '$want'"
			result=1
		fi ;;
	esac
	rm -rf "$top"
	return $result
}

if [ "${1:-}" = -g ]; then	# -g DIR: write the good logs into DIR
	good "$2"
	exit 0
fi
if [ "${1:-}" = -l ]; then
	cases | cut -d'|' -f1
	exit 0
fi
# shellcheck disable=SC2046 # one word per case name
[ $# -gt 0 ] || set -- $(cases | cut -d'|' -f1)
n=0 bad=0
echo "1..$#"
for c in "$@"; do
	n=$((n + 1))
	if out=$(run_case "$c" 2>&1); then
		echo "ok $n $c"
	else
		echo "not ok $n $c"
		bad=$((bad + 1))
	fi
	printf '%s\n' "$out" | sed 's/^/# /'
done
[ $bad = 0 ]
