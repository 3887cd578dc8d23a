#!/bin/sh
# boot/plan/expand.sh [-w | -c]
#   The plan (boot/plan/logs), expanded from the facts it follows from:
#   boot/plan/matrix (which suite runs on which base and arch, CI's steps),
#   the suite files and boot/plan/points (each test's TAP points, once),
#   boot/plan/skips (skips as rules on what the records declare),
#   boot/checks/points (the host checks' groups), the arch records
#   (boot/arch/*/arch.conf: ABIS, ABI_LACKS_<abi>, kernel.config), the
#   base records (boot/base/*/base.conf: KERNEL_VERSION, the series).
#   Prints it; -w writes boot/plan/logs (make docs); -c exits 1, with the
#   difference, while boot/plan/logs is not this output. A malformed line
#   of any of these fails at once with "FILE:LINE: what is wrong".
#   A line holds on every base ('*') when every base gets it.
set -eu
. "$(dirname "$0")/../lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
plan=$TOP/boot/plan/logs

# The facts of the records, one a line, for the awk below:
#   base NAME KERNEL_VERSION PATCHES C-FILES
#   archvar ARCH VAR=VALUE    (what arch.conf sets, first line of a value)
#   config ARCH|* -|FLAVOUR OPTION   (an option a kernel fragment sets)
#   suiteline SUITE LINE ok NAME ABIS TIMEOUT COMMAND | SUITE LINE bad WHAT
options() { sed -n 's/^CONFIG_\([A-Za-z0-9_]*\)=[ym]$/\1/p' "$@"; }
{
	for b in $(known_bases); do
		(
			# what lib.sh read of the default base is not this one's
			unset KERNEL_VERSION SERIES SERIES_ON_TOP
			# shellcheck disable=SC1090
			. "$TOP/boot/base/$b/base.conf"
			PATCHES=$TOP/$SERIES
			for p in $(series_patches); do
				[ -f "$PATCHES/$p" ] || {
					echo "$TOP/boot/base/$b/base.conf: its series names $SERIES/$p, which is missing" >&2
					exit 1
				}
			done
			n=$(series_patches | wc -l)
			c=$(cd "$PATCHES" && series_patches | while read -r p; do
				sed -n 's|^diff --git a/\([^ ]*\) b/.*|\1|p' "$p"; done |
				grep '\.c$' | grep -v -e '^tools/' -e '^samples/' | sort -u | wc -l)
			echo "base $b ${KERNEL_VERSION:--} $n $c"
		) || exit 1
	done
	for a in $(known_arches); do
		[ -f "$TOP/boot/arch/$a/kernel.config" ] ||
			{ echo "boot/arch/$a/kernel.config: missing (every arch has its kernel fragment)" >&2; exit 1; }
		# shellcheck disable=SC2016 # the inner shell's $1
		env -i sh -c '. "$1" && set' sh "$TOP/boot/arch/$a/arch.conf" |
			grep '^[A-Za-z_][A-Za-z0-9_]*=' | sed "s/^/archvar $a /"
		options "$TOP/boot/kernel/common.config" "$TOP/boot/arch/$a/kernel.config" |
			sed "s/^/config $a - /"
	done
	for f in "$TOP"/boot/flavour/*/kernel.config; do
		[ -f "$f" ] || continue
		options "$f" | sed "s/^/config * $(basename "$(dirname "$f")") /"
	done
	# each suite the matrix names, as boot/suite.awk reads it
	for s in $(awk '$1 == "suite" { print $2 }' "$TOP/boot/plan/matrix" | sort -u); do
		[ -f "$TOP/boot/suites/$s" ] || continue
		awk -v abis=x -v list=1 -f "$TOP/boot/suite.awk" "$TOP/boot/suites/$s" | sed "s/^/suiteline $s /"
	done
} >"$tmp/facts"

cd "$TOP"
awk -v facts="$tmp/facts" -f boot/plan/expand.awk \
	boot/plan/matrix boot/plan/points boot/plan/skips boot/checks/points >"$tmp/logs"

case ${1:-} in
-w)
	cmp -s "$tmp/logs" "$plan" || { cp "$tmp/logs" "$plan"; echo "rewrote boot/plan/logs"; } ;;
-c)
	diff -u "$plan" "$tmp/logs" | sed "s|$tmp/logs|boot/plan/logs, from the rules|" || true
	cmp -s "$tmp/logs" "$plan" || {
		echo "boot/plan/logs differs from what boot/plan/expand.sh makes of the rules: make docs" >&2
		exit 1
	} ;;
'')
	cat "$tmp/logs" ;;
*)
	echo "usage: $0 [-w | -c]" >&2
	exit 2 ;;
esac
