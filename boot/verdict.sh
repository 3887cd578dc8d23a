#!/bin/sh
# boot/verdict.sh LOG...
#   The verdict over LOGs (boot/verdict.awk reading them through
#   boot/console.awk), with the base's known upstream failures. Exit 0
#   only if every LOG is there and complete and nothing failed.
set -eu
. "$(dirname "$0")/lib.sh"
exec awk -v known="$BASE_DIR/upstream-known-failures" \
	-f "$TOP/boot/console.awk" -f "$TOP/boot/verdict.awk" "$@"
