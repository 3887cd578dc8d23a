# The same in a nested stream (kselftest's runner's '# ' prefix): a nested
# point '# ok 2 sub-2 # Skipped: why' is a skip for TAP, a pass for the
# verdict, so it is not held against the plan's nested skips (PARENT>POINT).
. "$(dirname "$0")/lib.sh"
good x86_64
in_sect "$L" "x86_64 man-example" 's/^ok 1 point-1$/# TAP version 13\n# 1..2\n# ok 1 sub-1\n# ok 2 sub-2 # Skipped: no reason the plan knows\nok 1 point-1/'
verdict
