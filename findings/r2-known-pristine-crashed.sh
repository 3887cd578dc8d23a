# A broken run that passes (latent: the plan has no 'known' line today).
# A known failure is excused when the pristine kernel's log beside it fails
# the point "cleanly" -- but pristine_fails() (boot/verdict.awk) reads the
# pristine section's END only as "a number" (/ status=[0-9]+$/), and takes
# any 'not ok' line but a TIMEOUT: a pristine run whose test crashed (END
# status=139, a shell's 128+SIGSEGV; or 124, timeout(1)'s; or a 'not ok
# ... # SKIP') excuses the check log's clean failure, while the check log's
# own side demands status 1. Issue 39: "A known failure excuses exactly one
# point that fails cleanly ('not ok', no timeout) in the pristine log".
. "$(dirname "$0")/lib.sh"
S="x86_64 man-example"
{ cat "$TOP/boot/plan/logs"; printf 'known\t6.1\tx86_64\tcheck\t%s\tpoint-2\ta test that fails without the series too\n' "$S"; } >"$T/plan"
PLAN=$T/plan
good x86_64
in_sect "$L" "$S" 's/^ok 2 point-2$/not ok 2 point-2/;s/status=0$/status=1/'
P=$D/x86_64-pristine.log
# the pristine kernel's log: another boot of another build, whose test crashed
sed 's/boot_id=0c0ffee0-1234-/boot_id=0c0ffee0-7777-/;s/(plan-logs.awk) #1 SMP$/(plan-logs.awk) #2 SMP/' "$L" >"$P"
sed -i "/^@@@ BEGIN $S\$/,/^@@@ END $S /s/status=1\$/status=139/" "$P"
grep -A8 "^@@@ BEGIN $S\$" "$P" | grep "not ok\|@@@ END"
verdict
echo "(want: FAIL: the pristine test crashed (status 139): not the clean failure a known line excuses)"
