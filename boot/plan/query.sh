#!/bin/sh
# boot/plan/query.sh WHAT [ARG...]: what the plan (boot/plan/logs) says runs,
# for the Makefile, .ci/run and boot/plan/docs.sh (the docs, the workflow).
#   arches BASE SUITE  the arches whose SUITE log the plan has for BASE
#   bases SUITE        the bases named for SUITE ('*' lines: every base
#                      folder of boot/base/)
#   ci                 CI's steps: one "TARGET BASE ARCHES" line each
#   weekly             the workflow's weekly steps, in the same form
set -eu
TOP=$(cd "$(dirname "$0")/../.." && pwd)
plan=${PIDFD_GETFD_PLAN:-$TOP/boot/plan/logs}
all_bases=$(for d in "$TOP"/boot/base/*/base.conf; do d=${d%/base.conf}; [ -L "$d" ] || basename "$d"; done)
case ${1:-} in
arches)
	awk -v b="$2" -v s="$3" '$1 == "section" && ($2 == b || $2 == "*") && $4 == s && $3 != "host" &&
		!seen[$3]++ { print $3 }' "$plan" | sort ;;
bases)
	# shellcheck disable=SC2086 # the bases, one word each
	awk -v s="$2" -v all="$(printf '%s ' $all_bases)" '$1 == "section" && $4 == s {
		if ($2 == "*") { n = split(all, a, " "); for (i = 1; i <= n; i++) if (!seen[a[i]]++) print a[i] }
		else if (!seen[$2]++) print $2 }' "$plan" | sort ;;
ci | weekly)
	awk -v k="$1" '$1 == k { $1 = ""; sub(/^ /, ""); print }' "$plan" ;;
*)
	echo "usage: $0 arches BASE SUITE | bases SUITE | ci | weekly" >&2
	exit 2 ;;
esac
