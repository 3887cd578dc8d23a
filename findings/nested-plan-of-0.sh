# A nested stream that ran nothing: '# 1..0' with no SKIP directive (e.g. a
# kselftest_harness binary with no test registered prints its plan "1..0"
# and exits KSFT_PASS; the runner then says 'ok'). TAP: "There must be at
# least one test line in TAP output" and a 1..0 plan is a skip of the whole
# file (TAP 14 specification.md, "Skipping everything"); the verdict's
# section-level check catches 1..0 by the plan's count, but a nested one
# is neither a skip (PARENT>- the plan must allow) nor a failure: it passes.
. "$(dirname "$0")/lib.sh"
good x86_64
in_sect "$L" "x86_64 man-example" 's/^ok 1 point-1$/# TAP version 13\n# 1..0\n# # Totals: pass:0 fail:0 xfail:0 xpass:0 skip:0 error:0\nok 1 point-1/'
verdict
