#!/bin/sh
# boot/verdict.sh LOG...
#   The verdict over LOGs (boot/verdict.awk reading them through
#   boot/console.awk), with each log's base's known upstream failures
#   (boot/base/BASE/upstream-known-failures). Exit 0
#   only if every LOG is there and complete and nothing failed.
set -eu
. "$(dirname "$0")/lib.sh"
exec awk -v known_dir="$TOP/boot/base" \
	-f "$TOP/boot/console.awk" -f "$TOP/boot/verdict.awk" "$@"
