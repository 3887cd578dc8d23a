# the plan's good x86_64 log, unchanged: must PASS (a control)
. "$(dirname "$0")/lib.sh"
good x86_64
verdict
