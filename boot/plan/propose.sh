#!/bin/sh
# boot/plan/propose.sh LOG...
#   Print the plan lines (boot/plan/logs format) that describe LOGs as
#   they are: each guest section with its TAP points, each skip with its
#   reason, each host check's groups with their counts. A help for adding
#   a test to the plan, never a substitute for reading it: compare the
#   output with boot/plan/logs (diff) and copy only the lines the change
#   you made explains. A log that failed proposes its failure as the plan.
set -eu
TOP=$(cd "$(dirname "$0")/../.." && pwd)
exec awk -f "$TOP/boot/console.awk" -f "$TOP/boot/plan/propose.awk" "$@"
