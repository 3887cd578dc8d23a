#!/bin/sh
# boot/checks/baseline.sh ARCH
#   Build the pristine kernel (no series) for ARCH, boot it with the same
#   initramfs and suite as the patched one, running the tests of that suite
#   that the checks below read (PRISTINE_TESTS), and check, as TAP in
#   $LOGS/baseline-ARCH.log, that:
#   - the pristine guest ran each of them on each ABI the plan has it on, to
#     the guest's end;
#   - the PIDFD_IOCTL_GETFD selftest skips as a whole there on every ABI,
#     with its probe's reason, ENOTTY on every base (the probe passes a
#     NULL argument, which even 6.12's pidfs answers with ENOTTY), while a
#     valid request, the man page's example's, gets the base's errno
#     (UNKNOWN_IOCTL_ERRNO in boot/base/BASE/base.conf: EINVAL on 6.12),
#     and on the patched kernel it is skipped as a whole on no ABI
#     (boot/checks/ioctl-suite.awk);
#   - the upstream kselftests that fail there are exactly the ones listed
#     in boot/base/BASE/upstream-known-failures, and no others fail on the patched
#     kernel;
#   - the samples suite (bind-supervisor and its adversarial tests) passes
#     there on every ABI, through its pidfd_getfd(2) fallback.
set -eu
. "$(dirname "$0")/../lib.sh"
load_arch "${1:?usage: $0 ARCH}"
src=$BCACHE/pristine/linux
out=$BCACHE/pristine/build/$ARCH
patched=$LOGS/$ARCH-check.log
pristine=$LOGS/$ARCH-pristine.log
[ -f "$patched" ] || die "no $patched: run the patched suite first"

# The tests of the check suite the cases below read, and no others: the
# rest (bind-agent's, the benchmarks') took most of the pristine guest's
# time (docs/measurements.md), and nothing judges them there. A plan's known
# failure (boot/plan/skips) must be among them: the verdict looks for it
# in the pristine log.
PRISTINE_TESTS=pidfd_getfd_ioctl,man-example,upstream-pidfd,upstream-seccomp,samples,yama-scope-3

sh "$TOP/boot/kernel/tree.sh" worktree "$src" pristine
sh "$TOP/boot/kernel/build.sh" -s "$src" -o "$out" "$ARCH"
# The pristine log fails the verdict by design (no ioctl there: the man
# page's example fails): what it must show is judged below, so it is kept
# while its inputs do not change.
REUSE_FAILED=1 sh "$TOP/boot/run.sh" -k "$out/$KIMAGE" -l "$pristine" -o "$PRISTINE_TESTS" "$ARCH" check

# upstream_failures LOG: "DIR:TEST" of every upstream test that failed.
upstream_failures() {
	sections "" "" "$1" | sed -n 's/^not ok [0-9]* selftests: \([^:]*\): \([^ ]*\).*/\1:\2/p' |
		grep -v ':pidfd_getfd_ioctl_test$' | sort -u
}

listed() {
	sed -e 's/#.*//' "$BASE_DIR/upstream-known-failures" |
		awk -v a="$ARCH" '$1 == a { print $2 }' | sort -u
}

# sections ABI TEST LOG: those test sections of LOG ("" matches any)
sections() {
	awk -v sabi="$1" -v stest="$2" -f "$TOP/boot/console.awk" -f "$TOP/boot/section.awk" "$3"
}

# section ABI TEST: that test's section of the pristine log; sets ok and nok
section() {
	sect=$(sections "$1" "$2" "$pristine")
	nok=$(printf '%s\n' "$sect" | grep -c '^not ok ' || true)
	ok=$(printf '%s\n' "$sect" | grep -c '^ok ' || true)
}

# ioctl_suite WANT LOG [ERRNO]: boot/checks/ioctl-suite.awk over LOG
ioctl_suite() {
	awk -v want="$1" -v errno="${3:-}" -f "$TOP/boot/console.awk" \
		-f "$TOP/boot/checks/ioctl-suite.awk" "$2"
}

# On the pristine kernel the selftest's probe (a NULL argument) gets ENOTTY
# and skips the whole test, on every ABI; only ENOTTY is a skip (a patched
# kernel answers EFAULT, and any other errno is the cases' to fail). A
# valid request gets the base's errno (UNKNOWN_IOCTL_ERRNO), which the man
# page's example, failing there, prints on every ABI (its perror() line in
# man-example's "# got:").
# shellcheck disable=SC2086
set -- $UNKNOWN_IOCTL_ERRNO
errno_name=$1
errno_text=$(/usr/bin/python3 -c 'import os, sys; print(os.strerror(int(sys.argv[1])))' "$2")
ioctl_suite_skips_with_enotty_and_a_request_gets_the_base_errno() {
	rc=0
	ioctl_suite skipped "$pristine" ENOTTY || rc=1
	for abi in $ABIS; do
		section "$abi" pidfd_getfd_ioctl
		[ -n "$sect" ] || { echo "$abi: no pidfd_getfd_ioctl section on the pristine kernel"; rc=1; }
		section "$abi" man-example
		if printf '%s\n' "$sect" | grep -q "ioctl: PIDFD_IOCTL_GETFD: $errno_text"; then
			echo "$abi: a valid request gets $errno_name ($errno_text) from the pristine kernel"
		else
			echo "$abi: the man page's example did not print \"ioctl: PIDFD_IOCTL_GETFD: $errno_text\" ($errno_name) on the pristine kernel"
			rc=1
		fi
	done
	return $rc
}

# On the patched kernel that skip is a failure, on every ABI.
patched_kernel_never_skips_the_ioctl_suite() {
	ioctl_suite ran "$patched"
}

pristine_failures_are_the_listed_ones() {
	upstream_failures "$pristine" >"$LOGS/baseline-$ARCH.fails"
	listed >"$LOGS/baseline-$ARCH.listed"
	echo "pristine kernel: $(wc -l <"$LOGS/baseline-$ARCH.fails") upstream failures; listed: $(wc -l <"$LOGS/baseline-$ARCH.listed")"
	diff "$LOGS/baseline-$ARCH.listed" "$LOGS/baseline-$ARCH.fails" | sed -n 's/^< /listed but passes on the pristine kernel: /p; s/^> /fails on the pristine kernel but not listed: /p'
	cmp -s "$LOGS/baseline-$ARCH.listed" "$LOGS/baseline-$ARCH.fails"
}

patched_failures_are_known() {
	upstream_failures "$patched" >"$LOGS/patched-$ARCH.fails"
	echo "patched kernel: $(wc -l <"$LOGS/patched-$ARCH.fails") upstream failures"
	! listed | comm -13 - "$LOGS/patched-$ARCH.fails" | sed 's/^/fails only with the series: /' | grep .
}

# The samples section of every ABI: a plan, no failure, and bind-supervisor
# fell back to pidfd_getfd(2) (there is no PIDFD_IOCTL_GETFD to use here).
samples_pass_through_the_fallback() {
	rc=0
	for abi in $ABIS; do
		section "$abi" samples
		plan=$(printf '%s\n' "$sect" | sed -n 's/^1\.\.\([0-9]*\)$/\1/p' | tail -n 1)
		fallback=$(printf '%s\n' "$sect" | grep -c 'fetch method: pidfd_getfd(2)' || true)
		echo "$abi on the pristine kernel: samples $ok passed, $nok failed, plan ${plan:-none}, pidfd_getfd(2) fallback named $fallback times"
		printf '%s\n' "$sect" | grep '^not ok ' || true
		[ "$nok" = 0 ] && [ -n "$plan" ] && [ "$ok" = "$plan" ] && [ "$fallback" -gt 0 ] || rc=1
	done
	return $rc
}

# Each of PRISTINE_TESTS ran on each ABI the plan has its section on
# (boot/plan/logs, the check suite of this base and arch): it exited (a
# status, not a timeout, a signal or a missing program) after a TAP plan
# and as many points as that plan said; and the guest reached its end. An
# upstream section that did not run would otherwise pass as one without
# failures. (A name that is no test of the suite stops boot/run.sh before
# the boot, and fails here too.)
pristine_guest_ran_what_the_baseline_reads() {
	awk -v b="$BASE" -v a="$ARCH" -v only="$PRISTINE_TESTS" '
		BEGIN { m = split(only, t, ",") }
		$1 == "section" && ($2 == b || $2 == "*") && $3 == a && $4 == "check" { abis[$6] = abis[$6] " " $5 }
		END {
			for (j = 1; j <= m; j++) {
				if (!(t[j] in abis)) {
					print "- " t[j] ": no section of the check suite in the plan (boot/plan/logs)"
					continue
				}
				n = split(abis[t[j]], x, " ")
				for (i = 1; i <= n; i++)
					print x[i], t[j]
			}
		}' "$TOP/boot/plan/logs" | LC_ALL=C sort >"$LOGS/baseline-$ARCH.want"
	sections "" "" "$pristine" | awk '
		/^@@@ BEGIN / { key = $3 " " $4; plan = ""; n = 0; next }
		/^1\.\.[0-9]+/ && plan == "" { plan = substr($0, 4); sub(/[^0-9].*/, "", plan); next }
		/^(not )?ok [0-9]/ { n++; next }
		/^@@@ END / {
			st = $NF
			sub(/^status=/, "", st)
			if (st !~ /^[0-9]+$/)
				print key, "ended with status " st
			else if (plan == "")
				print key, "printed no TAP plan"
			else if (n != plan + 0)
				print key, "printed " n " of its " plan " points"
			else
				print key
		}' | LC_ALL=C sort >"$LOGS/baseline-$ARCH.ran"
	echo "want $(wc -l <"$LOGS/baseline-$ARCH.want") test runs on the pristine kernel ($PRISTINE_TESTS)"
	rc=0
	sed '/^@@@ CONSOLE /q' "$pristine" | grep -q '^@@@ DONE' ||
		{ echo "the pristine guest did not reach its end (no @@@ DONE)"; rc=1; }
	while read -r abi t; do
		if [ "$abi" = - ]; then
			echo "$t"
			rc=1
			continue
		fi
		grep -qx -e "$abi $t" "$LOGS/baseline-$ARCH.ran" && continue
		rc=1
		why=$(grep -e "^$abi $t " "$LOGS/baseline-$ARCH.ran" | cut -d' ' -f3-)
		echo "$abi $t on the pristine kernel: ${why:-no section}"
	done <"$LOGS/baseline-$ARCH.want"
	return $rc
}

host_begin "$LOGS/baseline-$ARCH.log" baseline
host_case baseline "$ARCH-the-pristine-guest-ran-each-test-the-baseline-reads" \
	pristine_guest_ran_what_the_baseline_reads
host_case baseline "$ARCH-the-ioctl-suite-skips-with-enotty-and-a-request-gets-$(echo "$errno_name" | tr A-Z a-z)-on-the-pristine-kernel" \
	ioctl_suite_skips_with_enotty_and_a_request_gets_the_base_errno
host_case baseline "$ARCH-the-ioctl-suite-is-not-skipped-on-the-patched-kernel" \
	patched_kernel_never_skips_the_ioctl_suite
host_case baseline "$ARCH-upstream-failures-on-the-pristine-kernel-are-the-listed-ones" pristine_failures_are_the_listed_ones
host_case baseline "$ARCH-no-upstream-test-fails-only-with-the-series" patched_failures_are_known
host_case baseline "$ARCH-samples-pass-on-the-pristine-kernel-through-the-fallback" samples_pass_through_the_fallback
host_end
