# False alarm (latent: no plan line asks for it today). A kselftest that
# skips as a whole under kselftest's runner can never be planned. The test
# prints '1..0 # SKIP REASON' and exits 4 (KSFT_SKIP); the runner
# (tools/testing/selftests/kselftest/runner.sh run_one(), 6.1 and 6.12)
# then prints its own point with an empty reason:
#     # 1..0 # SKIP no PIDFD_IOCTL_GETFD in this kernel: the probe got ENOTTY
#     ok 8 selftests: pidfd: pidfd_getfd_ioctl_test # SKIP
# (the real pristine log, ~/.cache/pidfd-getfd/logs/6.1/x86_64-pristine.log
# lines 5020-5023). The verdict binds the nested skip to PARENT>- (which a
# plan line can allow) but also reads the runner's point as a skip of its
# own whose reason is "" -- and every plan line needs a reason (read_plan:
# n >= 8), so it is "a skip the plan does not allow" whatever the plan
# says. boot/tests/verdict.sh's a-nested-whole-stream-skip-the-plan-allows-
# passes-* passes only because its parent point is 'ok 1 point-1' without
# the runner's '# SKIP', which the runner never prints after exit 4.
. "$(dirname "$0")/lib.sh"
S="x86_64 upstream-pidfd"
R="no PIDFD_IOCTL_GETFD in this kernel: the probe got ENOTTY"
{ cat "$TOP/boot/plan/logs"; printf 'skip\t6.1\tx86_64\tcheck\t%s\tpoint-2>-\t%s\n' "$S" "$R"; } >"$T/plan"
PLAN=$T/plan
good x86_64
# plan-logs.awk writes the planned nested stream, '# 1..0 # SKIP R', under
# 'ok 2 point-2'; the runner's point says '# SKIP' too, as runner.sh does
in_sect "$L" "$S" 's/^ok 2 point-2$/ok 2 point-2 # SKIP/'
sed -n "/^@@@ BEGIN $S\$/,/^@@@ END $S /p" "$L" | grep -B2 '^ok 2 '
verdict
echo "(want: PASS with the plan's counts: the plan allows this whole-stream skip, PARENT>-; the runner's reasonless '# SKIP' on the parent is that same skip)"
