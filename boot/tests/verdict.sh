#!/bin/sh
# boot/tests/verdict.sh [-l | -g DIR | CASE...]
#   The verdict's self-test, on the host, in seconds: crafted console logs
#   judged by boot/verdict.sh. Two sets:
#   - the protocol's cases: a small good set and each case a change to it,
#     against boot/tests/plan (PIDFD_GETFD_PLAN);
#   - the plan's cases (named ...-ARCH): the logs a run that did all the
#     plan (boot/plan/logs, or VERDICT_TEST_PLAN) says would write, made
#     from it by boot/tests/plan-logs.awk, and each case a change to them:
#     one per class of broken run, per arch of the plan's first CI base,
#     and one per kernel-trouble pattern (boot/plan/trouble) and arch. They
#     follow the plan as it changes.
#   A good set must pass with the counts its plan gives; every other case
#   must fail and say what it expects, naming the log. -l lists the cases,
#   -g writes the protocol's good set into DIR; no CASE runs them all and
#   prints TAP. boot/checks/harness.sh runs each case as one of its own.
set -eu
TESTS=$(cd "$(dirname "$0")" && pwd)
TOP=$(dirname "$(dirname "$TESTS")")
PLAN=${VERDICT_TEST_PLAN:-$TOP/boot/plan/logs}
TROUBLE=$TOP/boot/plan/trouble

# The cases: NAME, then the text the verdict's failure must carry.
proto_cases() {
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
a-planned-skip-that-did-not-skip-fails|x86_64-check.log: x86_64: x86_64 sel: the planned skip of point b did not happen
a-not-ok-skip-fails|x86_64-check.log: x86_64: x86_64 sel: not ok 2 b # SKIP
a-kernel-line-splitting-not-ok-fails|x86_64-check.log: x86_64: x86_64 sel: a kernel message split a TAP line
a-hung-task-fails|arm64-check.log: arm64: kernel trouble (hung-task): INFO: task kworker/0:1:12 blocked for more than 120 seconds.
an-arm64-rcu-stall-fails|arm64-check.log: arm64: kernel trouble (rcu-self-stall): rcu: INFO: rcu_sched self-detected stall on CPU
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
}

# console: the kernel console, which boot/run.sh appends to a guest's log
console() {
	printf '@@@ CONSOLE ttyS0 %s\n[    0.000000] %s\n[    0.100000] %s\n' "$token" "$banner" "$smp"
	echo '[    0.200000] Run /init as init process'
	echo "[    0.300000] init: boot_id=$boot_id"
	echo '[    0.400000] reboot: Restarting system'
}
# klog: the kernel-log dump /init writes
klog() {
	printf '@@@ KLOG BEGIN boot_id=%s\n<5>[    0.000000] %s\n<6>[    0.100000] %s\n' "$boot_id" "$banner" "$smp"
	printf '<6>[    1.000000] Run /init as init process\n<4>[    1.100000] init: boot_id=%s\n' "$boot_id"
	printf '<6>[    1.900000] init: dumping the kernel log, boot_id=%s\n@@@ KLOG END\n@@@ DONE\n' "$boot_id"
}

# good DIR: the logs every case starts from
good() {
	d=$1
	smp='smp: Brought up 1 node, 2 CPUs'
	# boot/run.sh's per-boot secret, in the RUN line and its CONSOLE line
	token=5e1f0c2a9b7d4e31
	# the kernel's boot id (/proc/sys/kernel/random/boot_id) and banner
	boot_id=0c0ffee0-1234-4abc-8def-0123456789ab
	banner='Linux version 6.1.0 (verdict.sh) #1 SMP'
	for a in x86_64 arm64; do
		case $a in x86_64) abis="x86_64 i386" m=x86_64 ;; arm64) abis="arm64 armhf" m=aarch64 ;; esac
		{
			echo "@@@ RUN base=test arch=$a suite=check accel=tcg console=$token smp=$smp"
			echo "@@@ INIT suite=check boot_id=$boot_id"
			for abi in $abis; do
				# boot/guest-tests/hello.c's lines: the ABI's word size, uname's release and machine
				case $abi in x86_64 | arm64) w=64 ;; *) w=32 ;; esac
				printf '@@@ BEGIN %s hello\n1..2\nok 1 a static %s-bit binary runs\n' "$abi" "$w"
				printf 'ok 2 uname reports a Linux kernel # 6.1.0 %s\n\n@@@ END %s hello status=0\n' "$m" "$abi"
				[ "$a" = arm64 ] && continue
				printf '@@@ BEGIN %s sel\n# a diagnostic\n1..3\nok 1 a\n' "$abi"
				if [ "$abi" = x86_64 ]; then
					echo "ok 2 b # SKIP no socketcall on this ABI"
				else
					echo "ok 2 b"
				fi
				printf 'ok 3 c\n\n@@@ END %s sel status=0\n' "$abi"
			done
			klog
			console
		} >"$d/$a-check.log"
	done
	{
		echo "@@@ RUN base=test arch=x86_64 suite=demo accel=tcg console=$token smp=$smp"
		echo "@@@ INIT suite=demo boot_id=$boot_id"
		printf '@@@ BEGIN x86_64 samples\n1..2\nok 1 s\nok 2 t\n\n@@@ END x86_64 samples status=0\n'
		klog
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
proto_make_case() {
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
	a-duplicate-section-fails) edit "$x" '/^@@@ END x86_64 hello/a @@@ BEGIN x86_64 hello\n1..2\nok 1 a static 64-bit binary runs\nok 2 uname reports a Linux kernel # 6.1.0 x86_64\n@@@ END x86_64 hello status=0' ;;
	sections-out-of-order-fail)
		edit "$x" '/^@@@ BEGIN x86_64 hello/,/^@@@ END x86_64 hello/d'
		edit "$x" '/^@@@ END x86_64 sel/a @@@ BEGIN x86_64 hello\n1..2\nok 1 a static 64-bit binary runs\nok 2 uname reports a Linux kernel # 6.1.0 x86_64\n@@@ END x86_64 hello status=0' ;;
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
		# the pristine kernel's log: another boot of another build
		sed 's/boot_id=0c0ffee0-1234-/boot_id=0c0ffee0-7777-/;s/(verdict.sh) #1 SMP$/(verdict.sh) #2 SMP/' "$x" >"$d/x86_64-pristine.log" ;;
	*) echo "no case $name" >&2; return 1 ;;
	esac
	printf '%s\n' "$@"
}


# The plan's cases. plan_q AWK-PROGRAM: the plan's lines (comments and
# blanks dropped) through an awk program, fields split by blanks.
plan_q() {
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$PLAN" | awk "$1"
}
# the base the cases use: the first CI step's; its arches that run 'check'
cbase() { plan_q '$1 == "ci" { print $3; exit }'; }
carches() {
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$PLAN" |
		awk -v b="$(cbase)" '$1 == "section" && ($2 == "*" || $2 == b) && $4 == "check" && !seen[$3]++ { print $3 }'
}
# guest suites of base B with their arches, "SUITE ARCH" a line
suites_of() {
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$PLAN" |
		awk -v b="$1" '$1 == "section" && ($2 == "*" || $2 == b) && $3 != "host" && !seen[$4 " " $3]++ { print $4, $3 }'
}
# sec ARCH: "ABI NAME" of the first section of ARCH's check log with 3
# points or more and no planned skip (the TAP cases change it)
sec() {
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$PLAN" |
		awk -v b="$(cbase)" -v a="$1" '($2 == "*" || $2 == b) && $3 == a && $4 == "check" {
			k = $5 " " $6
			if ($1 == "skip") skipped[k] = 1
			if ($1 == "section" && $7 >= 3) cand[++n] = k
		}
		END { for (i = 1; i <= n; i++) if (!(cand[i] in skipped)) { print cand[i]; exit } }'
}
# skipsec ARCH: "ABI NAME POINT REASON..." of ARCH's first planned skip of a
# point of a section's own TAP; nskipsec ARCH: of its first planned skip of
# a nested point (POINT PARENT>NAME)
skipsec() {
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$PLAN" |
		awk -v b="$(cbase)" -v a="$1" '$1 == "skip" && ($2 == "*" || $2 == b) && $3 == a && $4 == "check" && $7 != "-" && $7 !~ />/ {
			$1 = $2 = $3 = $4 = ""; sub(/^ +/, ""); print; exit }'
}
nskipsec() {
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$PLAN" |
		awk -v b="$(cbase)" -v a="$1" '$1 == "skip" && ($2 == "*" || $2 == b) && $3 == a && $4 == "check" && $7 ~ />[^-]/ {
			$1 = $2 = $3 = $4 = ""; sub(/^ +/, ""); print; exit }'
}
trouble_lines() { sed -e '/^#/d' -e '/^[[:space:]]*$/d' "$TROUBLE"; }

# smp_of ARCH: the line the kernel prints with every CPU of the arch's record up
smp_of() { (. "$TOP/boot/lib.sh" && load_arch "$1" >/dev/null && echo "$SMP_OK"); }

# kv_of BASE: the base record's KERNEL_VERSION
kv_of() { (unset KERNEL_VERSION; . "$TOP/boot/base/$1/base.conf" && echo "$KERNEL_VERSION"); }

# abi_rec_of ARCH: each ABI's word size and uname machine, from its record
abi_rec_of() { (. "$TOP/boot/lib.sh" && abi_rec "$1"); }

# plan_log DIR BASE ARCH SUITE: the log of that run, as the plan has it
plan_log() {
	awk -v base="$2" -v arch="$3" -v suite="$4" -v smp="$(smp_of "$3")" -v token=5e1f0c2a9b7d4e31 \
		-v kv="$(kv_of "$2")" -v abi_rec="$(abi_rec_of "$3")" \
		-v trouble="$TROUBLE" -f "$TOP/boot/records.awk" -f "$TESTS/plan-logs.awk" "$PLAN" >"$1/$3-$4.log"
}
# baseline_log FILE BASE ARCH: the host check's log boot/checks/baseline.sh
# writes for ARCH, its cases named as it names them (ARCH-...)
baseline_log() {
	n=$(sed -e 's/#.*//' "$PLAN" | awk '$1 == "section" && $3 == "host" && $4 == "baseline" { print $7; exit }')
	{
		echo "@@@ RUN base=$2 arch=host suite=baseline"
		i=0
		while [ "$i" -lt "$n" ]; do
			i=$((i + 1))
			printf '@@@ BEGIN baseline %s-case-%d\n# output\n1..1\nok 1 %s-case-%d\n@@@ END baseline %s-case-%d status=0\n' \
				"$3" "$i" "$3" "$i" "$3" "$i"
		done
		echo "@@@ DONE"
	} >"$1"
}

# plant WHERE TEXT LOG [SECTION]: TEXT as a kernel line in the dump
# (klog), at the end of the console (console), or as a '#' line of
# SECTION ("ABI NAME"; section)
plant() {
	awk -v where="$1" -v text="$2" -v sect="${4:-}" '
		where == "klog" && /^@@@ KLOG END/ { print "<3>[   42.000000] " text }
		{ print }
		where == "section" && $0 == "@@@ BEGIN " sect { print "# [   42.000000] " text }
		END { if (where == "console") print "[   42.000000] " text }' "$3" >"$3.new"
	mv "$3.new" "$3"
}

# in_sect LOG "ABI NAME" SED-SCRIPT: SED-SCRIPT on that section of LOG only
in_sect() {
	edit "$1" "/^@@@ BEGIN $2\$/,/^@@@ END $2 /{$3}"
}

plan_cases() {
	b=$(cbase)
	for s in $(plan_q '$1 == "ci" && !seen[$3]++ { print $3 }'); do
		echo "the-plans-logs-of-$s-pass-with-the-planned-counts|the plan"
	done
	for a in $(carches); do
		S=$(sec "$a") K=$(skipsec "$a" | cut -d' ' -f1-2) SMP=$(smp_of "$a")
		cat <<EOC
no-kernel-log-dump-fails-$a|$a-check.log: $a: no kernel-log dump (@@@ KLOG BEGIN ... END)
an-empty-kernel-log-dump-fails-$a|$a-check.log: $a: the kernel-log dump is empty
a-kernel-log-dump-without-its-end-fails-$a|$a-check.log: $a: the kernel-log dump has no end (@@@ KLOG END)
a-kernel-log-the-guest-could-not-read-fails-$a|$a-check.log: $a: @@@ KLOG ERROR read /dev/kmsg: Invalid argument
kernel-trouble-on-the-console-fails-$a|$a-check.log: $a: kernel trouble (
kernel-trouble-in-a-test-line-fails-$a|$a-check.log: $a: kernel trouble (
a-not-ok-nested-under-an-ok-fails-$a|$a-check.log: $a: $S: # not ok 2 sub-2: not ok
a-not-ok-skip-fails-$a|$a-check.log: $a: $S: not ok 2 point-2 # SKIP not here: not ok
a-repeated-point-fails-$a|$a-check.log: $a: $S: ok 1 point-2: point 1, but 2 is due
points-out-of-order-fail-$a|$a-check.log: $a: $S: ok 3 point-2: point 3, but 2 is due
a-missing-point-fails-$a|$a-check.log: $a: $S: ok 3 point-3: point 3, but 2 is due
two-plans-in-a-section-fail-$a|$a-check.log: $a: $S: 1..3: a second TAP plan
a-not-ok-between-sections-fails-$a|$a-check.log: $a: not ok 1 between: a TAP point outside a test's section
a-nested-point-repeated-fails-$a|$a-check.log: $a: $S: # ok 1 sub-2: point 1, but 2 is due
a-nested-plan-not-met-fails-$a|$a-check.log: $a: $S: nested TAP: the plan says 3 points, 1 reported
an-xfail-point-fails-$a|$a-check.log: $a: $S: ok 2 point-2 # XFAIL expected: not a pass
a-planned-skip-on-another-point-fails-$a|$a-check.log: $a: $K: ok 1 point-1 # SKIP
a-nameless-skip-named-by-its-run-line-is-planned-$a|the plan
a-nameless-skip-whose-run-line-names-another-case-fails-$a|$a-check.log: $a: $K: ok
a-nested-stream-without-a-plan-counted-by-totals-passes-$a|the plan
a-nested-stream-a-fork-printed-twice-is-read-once-passes-$a|the plan
a-nested-stream-a-fork-printed-twice-from-its-tap-version-is-read-once-passes-$a|the plan
a-nested-stream-printed-twice-with-another-line-fails-$a|$a-check.log: $a: $S: # ok 1 sub-x: not the line 1 of the stream that its second plan repeats
a-nested-stream-without-a-plan-or-totals-fails-$a|$a-check.log: $a: $S: nested TAP: 1 points without a plan
no-init-line-on-the-console-fails-$a|$a-check.log: $a: the kernel's console has no 'Run /init as init process'
no-init-line-in-the-dump-fails-$a|$a-check.log: $a: the kernel-log dump has no 'Run /init as init process'
no-cpus-line-in-the-dump-fails-$a|$a-check.log: $a: the kernel-log dump has no '$SMP'
a-run-line-without-its-cpu-count-fails-$a|$a-check.log: $a: the RUN line has no smp=
a-run-line-with-another-cpu-count-fails-$a|$a-check.log: $a: the RUN line says smp=smp: Brought up 1 node, 1 CPU, the arch's record '$SMP'
a-baseline-log-of-another-arch-fails-$a|baseline-$a.log: host: baseline
a-baseline-log-of-another-base-fails-$a|baseline-$a.log: host: the log says base=another-base, its folder $b
a-known-failure-the-pristine-log-shows-is-known-$a|1 known failure
a-known-failure-that-timed-out-fails-$a|$a-check.log: $a: $S: not ok 2 point-2: a known failure, but not a clean one
a-known-failure-with-a-timeout-directive-fails-$a|$a-check.log: $a: $S: not ok 2 point-2 # TIMEOUT 60 seconds: a known failure, but not a clean one
a-known-failure-only-on-the-pristine-console-fails-$a|$a-check.log: $a: $S: not ok 2 point-2: a known failure, but
a-known-failure-with-a-pristine-log-of-another-base-fails-$a|$a-check.log: $a: $S: not ok 2 point-2: a known failure, but
a-known-failure-with-a-pristine-log-cut-short-fails-$a|$a-check.log: $a: $S: not ok 2 point-2: a known failure, but
a-known-failure-with-the-check-log-as-the-pristine-log-fails-$a|$a-check.log: $a: $S: not ok 2 point-2: a known failure, but
a-known-failure-with-a-pristine-log-of-this-kernel-fails-$a|$a-pristine.log is of this log's kernel (its banner
a-known-failure-excuses-one-point-only-$a|$a-check.log: $a: $S: not ok 3 point-3
a-skip-without-a-blank-before-its-hash-fails-$a|$a-check.log: $a: $S: ok 2 point-2#SKIP not here: a directive without a blank before its '#'
a-todo-without-a-blank-before-its-hash-fails-$a|$a-check.log: $a: $S: ok 2 point-2#TODO x: a directive without a blank before its '#'
a-nested-todo-without-a-blank-before-its-hash-fails-$a|$a-check.log: $a: $S: # ok 1 sub-1#TODO x: a directive without a blank before its '#'
a-second-tap-version-ending-a-nested-stream-short-fails-$a|$a-check.log: $a: $S: nested TAP: the plan says 3 points, 1 reported
a-kernel-log-dump-before-a-test-fails-$a|$a-check.log: $a: @@@ BEGIN $S: after the kernel-log dump
no-init-suite-line-fails-$a|$a-check.log: $a: no '@@@ INIT suite=check'
a-skip-whose-reason-only-holds-the-planned-one-fails-$a|$a-check.log: $a: $K: ok
a-known-failure-with-a-pristine-log-showing-kernel-trouble-fails-$a|$a-pristine.log shows kernel trouble (
a-known-failure-does-not-excuse-failures-nested-under-it-$a|$a-check.log: $a: $S: # not ok 1 sub-1: not ok
a-console-of-another-boot-fails-$a|$a-check.log: $a: the kernel's console has no 'init: boot_id=0c0ffee0-1234-4abc-8def-0123456789ab' after /init ran (its first is of boot_id=
a-console-of-another-kernel-fails-$a|$a-check.log: $a: the kernel's console is of another kernel: its banner 'Linux version
a-console-without-the-boot-id-fails-$a|$a-check.log: $a: the kernel's console has no 'init: boot_id=0c0ffee0-1234-4abc-8def-0123456789ab' after /init ran: a console of another boot
a-boot-id-on-the-console-before-init-ran-does-not-count-$a|$a-check.log: $a: the kernel's console has no 'init: boot_id=0c0ffee0-1234-4abc-8def-0123456789ab' after /init ran
a-console-cut-short-before-the-kernels-restart-fails-$a|$a-check.log: $a: the kernel's console
a-console-without-its-banner-fails-$a|$a-check.log: $a: the kernel's console has no 'Linux version' banner
a-dump-of-another-boot-fails-$a|$a-check.log: $a: the kernel-log dump is of boot_id=0c0ffee0-9999-4abc-8def-0123456789ab, /init's INIT line of boot_id=0c0ffee0-1234-4abc-8def-0123456789ab
a-dump-without-the-boot-id-record-fails-$a|$a-check.log: $a: the kernel-log dump has no record 'init: boot_id=0c0ffee0-1234-4abc-8def-0123456789ab': a dump of another boot
a-dump-without-its-banner-fails-$a|$a-check.log: $a: the kernel-log dump has no 'Linux version' banner
a-dump-header-without-a-boot-id-fails-$a|$a-check.log: $a: @@@ KLOG BEGIN: no boot_id=UUID
an-init-line-without-a-boot-id-fails-$a|$a-check.log: $a: @@@ INIT suite=check: no boot_id=UUID
a-kernel-of-another-base-fails-$a|$a-check.log: $a: the kernel's console says 'Linux version 5.10.0 (plan-logs.awk) #1 SMP': not the kernel of base $b
a-known-failure-killed-by-a-signal-fails-$a|$a-check.log: $a: $S: not ok 2 point-2: a known failure, but not a clean one (the test ended with status 139)
a-known-failure-with-another-exit-status-fails-$a|$a-check.log: $a: $S: not ok 2 point-2: a known failure, but not a clean one (the test ended with status 2)
a-known-failure-whose-pristine-test-crashed-fails-$a|$a-check.log: $a: $S: not ok 2 point-2: a known failure, but
a-known-failure-whose-pristine-test-timed-out-fails-$a|$a-check.log: $a: $S: not ok 2 point-2: a known failure, but
a-known-failure-whose-pristine-test-exited-2-fails-$a|$a-check.log: $a: $S: not ok 2 point-2: a known failure, but
a-known-failure-whose-pristine-point-has-a-directive-fails-$a|$a-check.log: $a: $S: not ok 2 point-2: a known failure, but
a-known-failure-whose-test-the-pristine-guest-did-not-run-fails-$a|$a-pristine.log ran only other-test, not ${S#* }
a-known-failure-whose-test-the-pristine-guest-ran-among-others-is-known-$a|1 known failure
a-known-failure-with-a-todo-directive-fails-$a|$a-check.log: $a: $S: not ok 2 point-2 # TODO later: a known failure, but not a clean one (# TODO)
EOC
		cat <<EOC
a-nested-skip-the-plan-does-not-allow-fails-$a|$a-check.log: $a: $S: # ok 2 sub-2 # SKIP not planned: a skip the plan does not allow (point point-1>sub-2,
a-nested-plan-skip-the-plan-does-not-allow-fails-$a|$a-check.log: $a: $S: # 1..0 # SKIP no PIDFD_IOCTL_GETFD in this kernel: the probe got ENOTTY: a skip the plan does not allow (point point-1>-,
a-nested-skip-under-no-point-fails-$a|$a-check.log: $a: $S: # ok 1 sub-1 # SKIP why: a skip nested under no point of the section
a-nested-whole-stream-skip-the-plan-allows-passes-$a|the plan
a-nested-whole-stream-skip-under-the-runners-skip-passes-$a|the plan
a-runners-reasonless-skip-without-a-nested-skip-fails-$a|$a-check.log: $a: $S: ok 1 point-1 # SKIP: a skip the plan does not allow (point point-1,
a-runners-skip-over-a-nested-whole-stream-skip-the-plan-does-not-allow-fails-$a|$a-check.log: $a: $S: # 1..0 # SKIP the probe got ENOTTY: a skip the plan does not allow (point point-1>-,
a-32-bit-abis-hello-run-by-a-64-bit-binary-fails-$a|$a-check.log: $a: $(plan_q '$1 == "section" && $3 == "'"$a"'" && $4 == "check" && $5 != "'"$a"'" { print $5; exit }') hello: ok 1 a static 64-bit binary runs
a-hello-whose-uname-says-another-kernel-fails-$a|$a-check.log: $a: $a hello: uname(2) says release 5.10.0, the kernel's banner
a-hello-whose-uname-says-another-machine-fails-$a|: uname(2) says machine i686, the ABI $a's is
a-kernel-log-dump-without-the-records-of-the-tests-fails-$a|$a-check.log: $a: the kernel-log dump has no record 'init: dumping the kernel log, boot_id=
a-kernel-log-dump-of-the-end-record-of-another-boot-fails-$a|$a-check.log: $a: the kernel-log dump has no record 'init: dumping the kernel log, boot_id=0c0ffee0-1234-4abc-8def-0123456789ab'
a-skip-spelled-skipped-is-a-skip-$a|$a-check.log: $a: $S: ok 2 point-2 # Skipped: not here
a-nested-skip-spelled-skipped-is-a-skip-$a|$a-check.log: $a: $S: # ok 2 sub-2 # SKIPPED not planned
a-todo-spelled-todos-is-a-todo-$a|$a-check.log: $a: $S: ok 2 point-2 # Todos: later: not a pass (# TODO
a-nested-plan-of-0-without-skip-fails-$a|$a-check.log: $a: $S: # 1..0
a-record-of-the-other-cpu-after-the-restart-passes-$a|the plan
a-stop-of-the-other-cpu-after-the-restart-passes-$a|the plan
a-restart-before-inits-boot-id-record-fails-$a|$a-check.log: $a: the kernel's console has no 'reboot: Restarting system' after /init's boot-id record
EOC
		k=$(nskipsec "$a")
		[ -n "$k" ] || continue
		NS=$(echo "$k" | cut -d' ' -f1-2)
		np=$(echo "$k" | cut -d' ' -f3)
		NP=${np%%>*} NC=${np#*>}
		cat <<EOC
a-planned-nested-skip-on-another-point-fails-$a|$a-check.log: $a: $NS: # ok 1 sub-1 # SKIP
a-planned-nested-skip-under-another-point-fails-$a|$a-check.log: $a: $NS: # ok 2 $NC # SKIP
a-planned-nested-skip-at-the-sections-own-level-fails-$a|$a-check.log: $a: $NS: ok 1 $NP>$NC # SKIP
a-nameless-nested-skip-named-by-its-run-line-is-planned-$a|the plan
a-nameless-nested-skip-whose-run-line-names-another-case-fails-$a|$a-check.log: $a: $NS: # ok 2 # SKIP
a-planned-nested-skip-that-did-not-skip-fails-$a|$a-check.log: $a: $NS: the planned skip of point $np did not happen
EOC
		trouble_lines | awk -F'\t' -v a="$a" '$1 != "need" { printf "kernel-trouble-%s-%s|%s-check.log: %s: kernel trouble (%s)\n", $1, a, a, a, $1 }'
	done
	# the systemd guest (boot/flavour/systemd): its smoke test saying that
	# PID 1 is not systemd (a guest whose /init ran the suite itself), or
	# that the fd store lost its fd, fails its log
	for a in $(suites_of "$b" | awk '$1 == "systemd" { print $2 }'); do
		echo "a-systemd-log-whose-pid-1-is-not-systemd-fails-$a|$a-systemd.log: $a: $a systemd-smoke: not ok 1 PID 1 is systemd"
		echo "a-systemd-log-whose-fd-store-lost-its-fd-fails-$a|$a-systemd.log: $a: $a systemd-smoke: not ok 6 after 'systemctl restart'"
	done
	# a log of a suite whose dump needs a line, without it
	trouble_lines | awk -F'\t' '$1 == "need" { print $2, $3 }' | while read -r suite name; do
		for a in $(suites_of "$b" | awk -v s="$suite" '$1 == s { print $2 }'); do
			echo "a-$suite-log-without-$name-fails-$a|$a-$suite.log: $a: the kernel-log dump has no '"
		done
	done
}

# plan_make_case NAME DIR: the plan's good logs in DIR/BASE, changed into
# case NAME; prints the logs to judge
plan_make_case() {
	name=$1 top=$2
	b=$(cbase)
	case $name in
	the-plans-logs-of-*)
		b=${name#the-plans-logs-of-}
		b=${b%-pass-with-the-planned-counts}
		d=$top/$b
		mkdir -p "$d"
		suites_of "$b" | while read -r s a; do
			plan_log "$d" "$b" "$a" "$s"
			echo "$d/$a-$s.log"
		done
		for a in $(sed -e 's/#.*//' "$PLAN" | awk -v b="$b" '$1 == "section" && ($2 == "*" || $2 == b) && $4 == "check" && $3 != "host" && !seen[$3]++ { print $3 }'); do
			baseline_log "$d/baseline-$a.log" "$b" "$a"
			echo "$d/baseline-$a.log"
		done
		return 0 ;;
	esac
	a=${name##*-}
	d=$top/$b
	mkdir -p "$d"
	l=$d/$a-check.log
	plan_log "$d" "$b" "$a" check
	set -- "$l"
	S=$(sec "$a")
	case $name in
	no-kernel-log-dump-fails-*) edit "$l" '/^@@@ KLOG BEGIN/,/^@@@ KLOG END/d' ;;
	an-empty-kernel-log-dump-fails-*) edit "$l" '/^@@@ KLOG BEGIN/,/^@@@ KLOG END/{/^</d}' ;;
	a-kernel-log-dump-without-its-end-fails-*) edit "$l" '/^@@@ KLOG END/d' ;;
	a-kernel-log-the-guest-could-not-read-fails-*)
		edit "$l" '/^<6>.*Run \/init as init process/a @@@ KLOG ERROR read /dev/kmsg: Invalid argument' ;;
	kernel-trouble-on-the-console-fails-*) plant console "$(trouble_lines | head -n 1 | cut -f3)" "$l" ;;
	kernel-trouble-in-a-test-line-fails-*) plant section "$(trouble_lines | head -n 1 | cut -f3)" "$l" "$S" ;;
	a-not-ok-nested-under-an-ok-fails-*)
		in_sect "$l" "$S" 's/^ok 1 point-1$/# TAP version 13\n# 1..2\n# ok 1 sub-1\n# not ok 2 sub-2\nok 1 point-1/' ;;
	a-not-ok-skip-fails-*) in_sect "$l" "$S" 's/^ok 2 point-2$/not ok 2 point-2 # SKIP not here/' ;;
	a-repeated-point-fails-*) in_sect "$l" "$S" 's/^ok 2 point-2$/ok 1 point-2/' ;;
	points-out-of-order-fail-*) in_sect "$l" "$S" 's/^ok 2 point-2$/ok 3 point-2/;s/^ok 3 point-3$/ok 2 point-3/' ;;
	a-missing-point-fails-*)
		n=$(grep -A2 "^@@@ BEGIN $S\$" "$l" | sed -n 's/^1\.\.//p')
		in_sect "$l" "$S" "/^ok 2 point-2\$/d;s/^ok $n point-$n\$/ok $n point-$n\\nok $((n + 1)) point-$((n + 1))/" ;;
	two-plans-in-a-section-fail-*)
		n=$(grep -A2 "^@@@ BEGIN $S\$" "$l" | sed -n 's/^1\.\.//p')
		in_sect "$l" "$S" "s/^ok $n point-$n\$/ok $n point-$n\\n1..3/" ;;
	a-not-ok-between-sections-fails-*) edit "$l" "/^@@@ END $S /a not ok 1 between" ;;
	a-nested-point-repeated-fails-*)
		in_sect "$l" "$S" 's/^ok 1 point-1$/# 1..2\n# ok 1 sub-1\n# ok 1 sub-2\nok 1 point-1/' ;;
	a-nested-plan-not-met-fails-*)
		in_sect "$l" "$S" 's/^ok 1 point-1$/# TAP version 13\n# 1..3\n# ok 1 sub-1\nok 1 point-1/' ;;
	an-xfail-point-fails-*) in_sect "$l" "$S" 's/^ok 2 point-2$/ok 2 point-2 # XFAIL expected/' ;;
	a-planned-skip-on-another-point-fails-*)
		k=$(skipsec "$a")
		ks=$(echo "$k" | cut -d' ' -f1-2)
		p=$(echo "$k" | cut -d' ' -f3)
		r=$(echo "$k" | cut -d' ' -f4-)
		awk -v s="$ks" -v p="$p" -v r="$r" '
			$0 == "@@@ BEGIN " s { in_s = 1 }
			in_s && $0 ~ /^ok 1 point-1$/ { $0 = $0 " # SKIP " r }
			in_s && index($0, " " p " # SKIP ") { sub(/ # SKIP .*/, "") ; done = 1 }
			/^@@@ END / { in_s = 0 }
			{ print }' "$l" >"$l.new" && mv "$l.new" "$l" ;;
	a-nameless-skip-*)
		# 6.1's kselftest_harness.h: '#  RUN NAME ...', then 'ok N # SKIP why'
		k=$(skipsec "$a")
		ks=$(echo "$k" | cut -d' ' -f1-2)
		p=$(echo "$k" | cut -d' ' -f3)
		case $name in *-names-another-case-*) rn=another.case ;; *) rn=$p ;; esac
		awk -v s="$ks" -v p="$p" -v rn="$rn" '
			$0 == "@@@ BEGIN " s { in_s = 1 }
			in_s && index($0, " " p " # SKIP ") {
				print "#  RUN           " rn " ..."
				sub(" " p " # SKIP ", " # SKIP ")
			}
			/^@@@ END / { in_s = 0 }
			{ print }' "$l" >"$l.new" && mv "$l.new" "$l" ;;
	a-nested-stream-without-a-plan-*)
		t='# # Totals: pass:1 fail:0 xfail:0 xpass:0 skip:0 error:0\n'
		case $name in *-or-totals-*) t= ;; esac
		in_sect "$l" "$S" "s/^ok 1 point-1\$/# ok 1 sub-1\n$t""ok 1 point-1/" ;;
	a-nested-stream-*-from-its-tap-version-*)
		# upstream pidfd_test's recycling child (pidfd_test.c, pid1)
		# holds a copy of the parent's unflushed stream, flushes only
		# full 4096-byte buffers and _exit()s: when its last buffer
		# ends at a line's end, the parent's stream, TAP version first,
		# starts on a line of its own
		in_sect "$l" "$S" 's/^ok 1 point-1$/# TAP version 13\n# 1..2\n# ok 1 sub-1\n# # waitpid WEXITSTATUS=0\n# TAP version 13\n# 1..2\n# ok 1 sub-1\n# ok 2 sub-2\nok 1 point-1/' ;;
	a-nested-stream-*printed-twice-*)
		# upstream pidfd_test: a forked child prints the parent's
		# stdio buffer again, plan and points, then the rest
		x=sub-1
		case $name in *-another-line-*) x=sub-x ;; esac
		in_sect "$l" "$S" "s/^ok 1 point-1\$/# TAP version 13\n# 1..2\n# ok 1 sub-1\n# 1..2\n# ok 1 $x\n# ok 2 sub-2\nok 1 point-1/" ;;
	a-nested-skip-the-plan-does-not-allow-fails-*)
		in_sect "$l" "$S" 's/^ok 1 point-1$/# TAP version 13\n# 1..2\n# ok 1 sub-1\n# ok 2 sub-2 # SKIP not planned\nok 1 point-1/' ;;
	a-nested-plan-skip-the-plan-does-not-allow-fails-*)
		# the pristine kernel's pidfd_getfd_ioctl_test under kselftest's runner
		in_sect "$l" "$S" 's/^ok 1 point-1$/# TAP version 13\n# 1..0 # SKIP no PIDFD_IOCTL_GETFD in this kernel: the probe got ENOTTY\nok 1 point-1/' ;;
	a-nested-skip-under-no-point-fails-*)
		n=$(grep -A2 "^@@@ BEGIN $S\$" "$l" | sed -n 's/^1\.\.//p')
		in_sect "$l" "$S" "s/^ok $n point-$n\$/ok $n point-$n\\n# TAP version 13\\n# 1..1\\n# ok 1 sub-1 # SKIP why/" ;;
	a-32-bit-abis-hello-run-by-a-64-bit-binary-fails-*)
		# boot/guest-tests/hello.c's lines; the ABI other than the
		# arch's own (32-bit) says its binary is 64-bit
		for ab in $(plan_q '$1 == "section" && $3 == "'"$a"'" && $4 == "check" && $6 == "hello" { print $5 }'); do
			in_sect "$l" "$ab hello" "s/^ok 1 a static 32-bit binary runs\$/ok 1 a static 64-bit binary runs/"
		done ;;
	a-hello-whose-uname-says-another-kernel-fails-*)
		# the ABI's hello ran under another kernel than the banner's
		in_sect "$l" "$a hello" 's/^\(ok 2 uname reports a Linux kernel # \)[^ ]*/\15.10.0/' ;;
	a-hello-whose-uname-says-another-machine-fails-*)
		# uname(2) under personality(PER_LINUX32), or another arch's
		in_sect "$l" "$a hello" 's/^\(ok 2 uname reports a Linux kernel # [^ ]*\) .*/\1 i686/' ;;
	a-kernel-log-dump-without-the-records-of-the-tests-fails-*)
		# the console shows a record of the tests' time that the dump,
		# which ends at /init's boot id, lacks: the dump lacks /init's
		# record written just before it dumps, after the last test
		edit "$l" '/^@@@ CONSOLE/,${/reboot: Restarting system/i [    1.500000] kselftest: Running tests in pidfd
}'
		edit "$l" '/^@@@ KLOG BEGIN/,/^@@@ KLOG END/{/init: dumping the kernel log/d}' ;;
	a-kernel-log-dump-of-the-end-record-of-another-boot-fails-*)
		edit "$l" '/^@@@ KLOG BEGIN/,/^@@@ KLOG END/s/init: dumping the kernel log, boot_id=0c0ffee0-1234-/init: dumping the kernel log, boot_id=0c0ffee0-9999-/' ;;
	a-skip-spelled-skipped-is-a-skip-*)
		# TAP: a directive that starts with SKIP (SKIP\S*) is a skip
		in_sect "$l" "$S" 's/^ok 2 point-2$/ok 2 point-2 # Skipped: not here/' ;;
	a-todo-spelled-todos-is-a-todo-*)
		# TAP: a directive that starts with TODO (TODO\S*) is a TODO
		in_sect "$l" "$S" 's/^ok 2 point-2$/ok 2 point-2 # Todos: later/' ;;
	a-nested-skip-spelled-skipped-is-a-skip-*)
		in_sect "$l" "$S" 's/^ok 1 point-1$/# TAP version 13\n# 1..2\n# ok 1 sub-1\n# ok 2 sub-2 # SKIPPED not planned\nok 1 point-1/' ;;
	a-nested-plan-of-0-without-skip-fails-*)
		# kselftest_harness.h with no test registered: "1..0", exit 0
		in_sect "$l" "$S" 's/^ok 1 point-1$/# TAP version 13\n# 1..0\n# # Totals: pass:0 fail:0 xfail:0 xpass:0 skip:0 error:0\nok 1 point-1/' ;;
	a-nested-whole-stream-skip-*)
		{
			cat "$PLAN"
			echo "skip	$b	$a	check	$S point-1>- the probe got ENOTTY"
		} >"$top/plan"
		# kselftest's runner (runner.sh run_one()): the test printed
		# '1..0 # SKIP R' and exited 4 (KSFT_SKIP), so the runner's
		# point is 'ok N selftests: DIR: TEST # SKIP', no reason (the
		# pristine log's pidfd_getfd_ioctl_test)
		p='ok 1 point-1'
		case $name in *-under-the-runners-skip-*) p='ok 1 point-1 # SKIP' ;; esac
		in_sect "$l" "$S" "s/^ok 1 point-1\$/# TAP version 13\\n# 1..0 # SKIP the probe got ENOTTY\\n$p/" ;;
	a-runners-reasonless-skip-without-a-nested-skip-fails-*)
		# the runner's skip with no nested stream that skipped
		in_sect "$l" "$S" 's/^ok 1 point-1$/& # SKIP/' ;;
	a-runners-skip-over-a-nested-whole-stream-skip-the-plan-does-not-allow-fails-*)
		in_sect "$l" "$S" 's/^ok 1 point-1$/# TAP version 13\n# 1..0 # SKIP the probe got ENOTTY\nok 1 point-1 # SKIP/' ;;
	a-planned-nested-skip-*|a-nameless-nested-skip-*)
		k=$(nskipsec "$a")
		ks=$(echo "$k" | cut -d' ' -f1-2)
		np=$(echo "$k" | cut -d' ' -f3)
		r=$(echo "$k" | cut -d' ' -f4-)
		# plan-logs.awk: the stream under the parent's point, each
		# skip after a pass, 'ok 2 CHILD # SKIP R' the first one
		p=${np%%>*} c=${np#*>}
		case $name in
		*-on-another-point-*)
			in_sect "$l" "$ks" "s/^# ok 1 sub-1\$/# ok 1 sub-1 # SKIP $r/;s/^# ok 2 $c # SKIP .*/# ok 2 $c/" ;;
		*-under-another-point-*) in_sect "$l" "$ks" "s/^ok 1 $p\$/ok 1 point-1/" ;;
		*-at-the-sections-own-level-*)
			# the nested stream gone, its skip on the parent's point
			in_sect "$l" "$ks" "/^# /d;s/^ok 1 $p\$/ok 1 $p>$c # SKIP $r/" ;;
		*-that-did-not-skip-*) in_sect "$l" "$ks" "s/^# ok 2 $c # SKIP .*/# ok 2 $c/" ;;
		a-nameless-*)
			# 6.1's kselftest_harness.h: '#  RUN NAME ...', then 'ok N # SKIP why'
			rn=$c
			case $name in *-names-another-case-*) rn=another.case ;; esac
			in_sect "$l" "$ks" "s/^# ok 2 $c # SKIP /# #  RUN           $rn ...\\n# ok 2 # SKIP /" ;;
		esac ;;
	a-skip-without-a-blank-before-its-hash-fails-*) in_sect "$l" "$S" 's/^ok 2 point-2$/ok 2 point-2#SKIP not here/' ;;
	a-todo-without-a-blank-before-its-hash-fails-*) in_sect "$l" "$S" 's/^ok 2 point-2$/ok 2 point-2#TODO x/' ;;
	a-nested-todo-without-a-blank-before-its-hash-fails-*)
		in_sect "$l" "$S" 's/^ok 1 point-1$/# TAP version 13\n# 1..1\n# ok 1 sub-1#TODO x\nok 1 point-1/' ;;
	a-second-tap-version-ending-a-nested-stream-short-fails-*)
		in_sect "$l" "$S" 's/^ok 1 point-1$/# TAP version 13\n# 1..3\n# ok 1 sub-1\n# TAP version 13\n# 1..1\n# ok 1 sub-1\nok 1 point-1/' ;;
	a-kernel-log-dump-before-a-test-fails-*)
		sed -n '/^@@@ KLOG BEGIN/,/^@@@ KLOG END/p' "$l" >"$d/klog"
		edit "$l" '/^@@@ KLOG BEGIN/,/^@@@ KLOG END/d'
		edit "$l" "/^@@@ INIT suite=/r $d/klog" ;;
	no-init-suite-line-fails-*) edit "$l" '/^@@@ INIT suite=/d' ;;
	a-console-of-another-boot-fails-*) edit "$l" '/^@@@ CONSOLE/,${s/init: boot_id=0c0ffee0-1234-/init: boot_id=0c0ffee0-9999-/}' ;;
	a-console-of-another-kernel-fails-*) edit "$l" '/^@@@ CONSOLE/,${s/) #1 SMP$/) #2 SMP/}' ;;
	a-console-without-the-boot-id-fails-*) edit "$l" '/^@@@ CONSOLE/,${/init: boot_id=/d}' ;;
	a-boot-id-on-the-console-before-init-ran-does-not-count-*)
		edit "$l" '/^@@@ CONSOLE/,${/init: boot_id=/d}'
		edit "$l" '/^@@@ CONSOLE/,${/Linux version/a [    0.000100] init: boot_id=0c0ffee0-1234-4abc-8def-0123456789ab
}' ;;
	a-console-cut-short-before-the-kernels-restart-fails-*)
		# the kernel went on printing during the tests; the console
		# stops there (a guest that reset without a word after @@@ DONE
		# ends QEMU -no-reboot with status 0 too)
		edit "$l" '/reboot: Restarting system/d'
		edit "$l" '$a [    9.000000] kselftest: Running tests in pidfd' ;;
	a-record-of-the-other-cpu-after-the-restart-passes-*)
		# kernel_restart() printed 'reboot: Restarting system'; the
		# other CPU, still taking interrupts until machine_restart()
		# stops it, prints a warning the console shows (hrtimer's
		# pr_warn_once, seen at 186 s on a real arm64 TCG console
		# of 6.1; or arm64 smp_send_stop()'s "SMP: failed to stop
		# secondary CPUs", x86's "Shutting down cpus with NMI")
		edit "$l" '$a [    2.100000] hrtimer: interrupt took 21032336 ns' ;;
	a-stop-of-the-other-cpu-after-the-restart-passes-*)
		# machine_restart() waited 1 s for the other CPU to stop:
		# arm64 smp_send_stop() (arch/arm64/kernel/smp.c), x86
		# native_stop_other_cpus() (arch/x86/kernel/smp.c) and then
		# native_machine_restart() (arch/x86/kernel/reboot.c)
		case $a in
		arm64) edit "$l" '$a [    3.100000] SMP: failed to stop secondary CPUs 1' ;;
		*) edit "$l" '$a [    3.100000] Shutting down cpus with NMI\n[    3.100100] reboot: machine restart' ;;
		esac ;;
	a-restart-before-inits-boot-id-record-fails-*)
		# the restart record is there, but of a boot before /init's
		# (the console's only one is before the boot-id record)
		edit "$l" '/^@@@ CONSOLE/,${/reboot: Restarting system/d}'
		edit "$l" '/^@@@ CONSOLE/,${/init: boot_id=/i [    0.250000] reboot: Restarting system
}' ;;
	a-console-without-its-banner-fails-*) edit "$l" '/^@@@ CONSOLE/,${/Linux version/d}' ;;
	a-dump-of-another-boot-fails-*) edit "$l" '/^@@@ KLOG BEGIN/,/^@@@ KLOG END/s/boot_id=0c0ffee0-1234-/boot_id=0c0ffee0-9999-/' ;;
	a-dump-without-the-boot-id-record-fails-*) edit "$l" '/^@@@ KLOG BEGIN/,/^@@@ KLOG END/{/^<.*init: boot_id=/d}' ;;
	a-dump-without-its-banner-fails-*) edit "$l" '/^@@@ KLOG BEGIN/,/^@@@ KLOG END/{/Linux version/d}' ;;
	a-dump-header-without-a-boot-id-fails-*) edit "$l" 's/^@@@ KLOG BEGIN .*/@@@ KLOG BEGIN/' ;;
	an-init-line-without-a-boot-id-fails-*) edit "$l" 's/^\(@@@ INIT suite=[^ ]*\) .*/\1/' ;;
	a-kernel-of-another-base-fails-*) edit "$l" 's/Linux version [0-9.]* (plan-logs.awk)/Linux version 5.10.0 (plan-logs.awk)/' ;;
	a-skip-whose-reason-only-holds-the-planned-one-fails-*)
		k=$(skipsec "$a")
		ks=$(echo "$k" | cut -d' ' -f1-2)
		p=$(echo "$k" | cut -d' ' -f3)
		in_sect "$l" "$ks" "s/ $p # SKIP / $p # SKIP not really: /" ;;
	no-init-line-on-the-console-fails-*) edit "$l" '/^@@@ CONSOLE/,${/Run \/init as init process/d}' ;;
	no-init-line-in-the-dump-fails-*) edit "$l" '/^@@@ KLOG BEGIN/,/^@@@ KLOG END/{/Run \/init as init process/d}' ;;
	no-cpus-line-in-the-dump-fails-*) edit "$l" '/^@@@ KLOG BEGIN/,/^@@@ KLOG END/{/smp: Brought up/d}' ;;
	a-run-line-without-its-cpu-count-fails-*) edit "$l" '1s/ smp=.*//' ;;
	a-run-line-with-another-cpu-count-fails-*) edit "$l" 's/smp: Brought up 1 node, [0-9]* CPUs/smp: Brought up 1 node, 1 CPU/' ;;
	a-baseline-log-of-another-arch-fails-*)
		for o in $(carches); do [ "$o" = "$a" ] || break; done
		baseline_log "$d/baseline-$a.log" "$b" "$o"
		set -- "$d/baseline-$a.log" ;;
	a-baseline-log-of-another-base-fails-*)
		baseline_log "$d/baseline-$a.log" another-base "$a"
		set -- "$d/baseline-$a.log" ;;
	a-known-failure-*)
		# the plan and a known failure of point-2 in the changed section
		{
			cat "$PLAN"
			echo "known	$b	$a	check	$S point-2 a test that fails without the series too"
		} >"$top/plan"
		in_sect "$l" "$S" 's/^ok 2 point-2$/not ok 2 point-2/;s/status=0$/status=1/'
		case $name in
		*-excuses-one-point-only-*) in_sect "$l" "$S" 's/^ok 3 point-3$/not ok 3 point-3/' ;;
		*-with-a-timeout-directive-*) in_sect "$l" "$S" 's/^not ok 2 point-2$/& # TIMEOUT 60 seconds/' ;;
		*-does-not-excuse-failures-nested-under-it-*)
			# the pristine log (a copy) fails the same nested point too
			in_sect "$l" "$S" 's/^not ok 2 point-2$/# TAP version 13\n# 1..1\n# not ok 1 sub-1\n&/' ;;
		esac
		p=$d/$a-pristine.log
		cp "$l" "$p"
		case $name in
		*-that-timed-out-*) in_sect "$l" "$S" 's/status=1$/status=timeout:60s/' ;;
		*-only-on-the-pristine-console-*)
			# the pristine log passes the point; its console shows
			# the section again, failing it
			plan_log "$d" "$b" "$a" check
			cp "$l" "$p"
			sed -n "/^@@@ BEGIN $S\$/,/^@@@ END $S /p" "$l" | sed 's/^ok 2 point-2$/not ok 2 point-2/' >>"$p"
			in_sect "$l" "$S" 's/^ok 2 point-2$/not ok 2 point-2/;s/status=0$/status=1/' ;;
		*-of-another-base-*) edit "$p" "1s/base=$b /base=another-base /" ;;
		*-cut-short-*) edit "$p" "/^@@@ END $S /q" ;;
		*-showing-kernel-trouble-*) plant klog "$(trouble_lines | head -n 1 | cut -f3)" "$p" ;;
		*-killed-by-a-signal-*) in_sect "$l" "$S" 's/status=1$/status=139/' ;;
		*-with-another-exit-status-*) in_sect "$l" "$S" 's/status=1$/status=2/' ;;
		# the pristine kernel's run of the test crashed (a shell's
		# 128+SIGSEGV): not the clean failure the known line excuses
		*-whose-pristine-test-crashed-*) in_sect "$p" "$S" 's/status=1$/status=139/' ;;
		# timeout(1)'s 124, any other status, a directive: the same
		*-whose-pristine-test-timed-out-*) in_sect "$p" "$S" 's/status=1$/status=124/' ;;
		*-whose-pristine-test-exited-2-*) in_sect "$p" "$S" 's/status=1$/status=2/' ;;
		*-whose-pristine-point-has-a-directive-*) in_sect "$p" "$S" 's/^not ok 2 point-2$/& # TODO later/' ;;
		# the pristine guest ran other tests only (boot/run.sh -o), or
		# this one among others
		*-whose-test-the-pristine-guest-did-not-run-*) edit "$p" "1s/ suite=check / suite=check only=other-test /" ;;
		*-whose-test-the-pristine-guest-ran-among-others-*) edit "$p" "1s/ suite=check / suite=check only=other-test,${S#* },third /" ;;
		*-with-a-todo-directive-*) in_sect "$l" "$S" 's/^not ok 2 point-2$/& # TODO later/' ;;
		esac
		case $name in
		*-with-the-check-log-as-the-pristine-log-*) ;;	# the same boot, the same kernel
		# another boot of the same build
		*-of-this-kernel-*) edit "$p" 's/boot_id=0c0ffee0-1234-/boot_id=0c0ffee0-7777-/' ;;
		# the pristine kernel's log: another boot (boot id) of another build (banner)
		*) edit "$p" 's/boot_id=0c0ffee0-1234-/boot_id=0c0ffee0-7777-/;s/(plan-logs.awk) #1 SMP$/(plan-logs.awk) #2 SMP/' ;;
		esac ;;
	kernel-trouble-*)
		t=${name#kernel-trouble-}
		t=${t%-"$a"}
		plant klog "$(trouble_lines | awk -F'\t' -v t="$t" '$1 == t { print $3 }')" "$l" ;;
	a-systemd-log-whose-*)
		plan_log "$d" "$b" "$a" systemd
		l=$d/$a-systemd.log
		case $name in
		*-pid-1-is-not-systemd-*) p='s/^ok 1 point-1$/not ok 1 PID 1 is systemd/' ;;
		*) p="s/^ok 6 point-6\$/not ok 6 after 'systemctl restart', the new process gets it back/" ;;
		esac
		in_sect "$l" "$a systemd-smoke" "$p;s/status=0\$/status=1/"
		set -- "$l" ;;
	a-*-log-without-*-fails-*)
		s=${name#a-}
		s=${s%%-log-without-*}
		t=${name#a-"$s"-log-without-}
		t=${t%-fails-"$a"}
		plan_log "$d" "$b" "$a" "$s"
		l=$d/$a-$s.log
		x=$(trouble_lines | awk -F'\t' -v s="$s" -v t="$t" '$1 == "need" && $2 == s && $3 == t { print $5 }')
		grep -vF -- "$x" "$l" >"$l.new" && mv "$l.new" "$l"
		set -- "$l" ;;
	*) echo "no case $name" >&2; return 1 ;;
	esac
	printf '%s\n' "$@"
}

# run_case NAME: 0 if the verdict does what the case expects
run_case() {
	if line=$(proto_cases | grep "^$1|"); then
		set=proto
	elif line=$(plan_cases | grep "^$1|"); then
		set=plan
	else
		echo "no case $1"
		return 1
	fi
	want=${line#*|}
	top=$(mktemp -d)
	if [ $set = proto ]; then
		# the logs' folder is named after their base, as under $CACHE/logs/
		d=$top/test
		mkdir "$d"
		good "$d"
		logs=$(proto_make_case "$1" "$d") || { rm -rf "$top"; return 1; }
		plan=$TESTS/plan
	else
		d=$top
		logs=$(plan_make_case "$1" "$top") || { rm -rf "$top"; return 1; }
		plan=$PLAN
		[ ! -f "$top/plan" ] || plan=$top/plan
	fi
	rc=0
	# shellcheck disable=SC2086
	PIDFD_GETFD_PLAN=$plan sh "$TOP/boot/verdict.sh" $logs >"$top/out" 2>&1 || rc=$?
	sed "s|$d/||g" "$top/out"
	result=0
	case $1 in
	the-good-logs-pass*)
		if [ $rc != 0 ] || ! grep -qx '17 passed, 0 failed, 1 skipped' "$top/out"; then
			echo "want: exit 0 and '17 passed, 0 failed, 1 skipped' for the good logs of the plan"
			result=1
		fi ;;
	the-plans-logs-* | *-passes-* | *-is-planned-*)
		counts=$(sed -n 's/^the plan (.*) for these logs: //p' "$top/out")
		if [ $rc != 0 ] || [ -z "$counts" ] || [ "$(tail -n 1 "$top/out")" != "$counts" ]; then
			echo "want: exit 0 and the plan's counts ('${counts:-?}') as the last line"
			result=1
		fi ;;
	*-is-known*)
		if [ $rc != 0 ] || ! grep -q "$want" "$top/out"; then
			echo "want: exit 0 and '$want'"
			result=1
		fi ;;
	*)
		if [ $rc = 0 ]; then
			echo "the verdict passed the case: want a failure saying '$want'"
			result=1
		elif ! grep -F -- "$want" "$top/out" | grep -q "^FAILED"; then
			echo "the verdict failed, but no FAILED line says '$want'"
			result=1
		fi ;;
	esac
	rm -rf "$top"
	return $result
}

cases() { proto_cases; plan_cases; }

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
