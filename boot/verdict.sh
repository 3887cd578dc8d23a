#!/bin/sh
# boot/verdict.sh LOG...
#   The verdict over LOGs (boot/verdict.awk reading them through
#   boot/console.awk), each held against the plan: boot/plan/logs (or
#   PIDFD_GETFD_PLAN, the self-test's) and boot/plan/trouble. Exit 0 only
#   if every LOG is there, complete, holds what the plan says and nothing
#   failed.
set -eu
. "$(dirname "$0")/lib.sh"
exec awk -v planfile="${PIDFD_GETFD_PLAN:-$TOP/boot/plan/logs}" -v trouble="$TOP/boot/plan/trouble" \
	-v known_bases="$(known_bases | tr '\n' ' ')" -v known_arches="$(known_arches | tr '\n' ' ')" \
	-f "$TOP/boot/console.awk" -f "$TOP/boot/verdict.awk" "$@"
