#!/bin/sh
# boot/plan/docs.sh [-w | -s]
#   The counts in README.md and docs/ come from the plan (boot/plan/logs),
#   the suites and the package lists: each block between
#   "<!-- plan: NAME -->" and "<!-- /plan: NAME -->" is what this script
#   makes of them. Without -w: print the difference and exit 1 if a
#   committed block is not that (make check, through boot/checks/harness.sh);
#   with -w: rewrite the blocks (make docs); with -s: print the suites it
#   counts for make check, one a line (the harness self-test compares them
#   with the logs make check's verdict reads).
set -eu
TOP=$(cd "$(dirname "$0")/../.." && pwd)
plan=$TOP/boot/plan/logs
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
default=$(basename "$(readlink -f "$TOP/boot/base/default")")

# rows BASE SUITE...: the planned "arch/ABI passed skipped" rows of the
# logs of SUITEs (host checks: host/GROUP), sorted as the verdict sorts
# them; baseline has one log per arch of the check suite
rows() {
	b=$1
	shift
	nb=$(sh "$TOP/boot/plan/query.sh" arches "$b" check | wc -l)
	awk -v b="$b" -v nb="$nb" -v suites=" $* " '
	$1 == "section" && ($2 == b || $2 == "*") && index(suites, " " $4 " ") {
		r = $3 "/" $5
		if (!(r in pts)) { rows[++n] = r }
		pts[r] += $7 * ($4 == "baseline" ? nb : 1)
	}
	$1 == "skip" && ($2 == b || $2 == "*") && index(suites, " " $4 " ") {
		sk[$3 "/" $5] += ($4 == "baseline" ? nb : 1)
	}
	END { for (i = 1; i <= n; i++) print rows[i], pts[rows[i]] - sk[rows[i]], sk[rows[i]] + 0 }
	' "$plan" | LC_ALL=C sort
}

# matrix BASE SUITE...: the verdict's matrix and last line, as planned
matrix() {
	rows "$@" | awk '
	{ printf "%-22s %7d %7d %7d\n", $1, $2, 0, $3; p += $2; s += $3 }
	END { printf "%d passed, 0 failed, %d skipped\n", p, s }'
}

# total BASE SUITE...: "N passed, 0 failed, M skipped"
total() {
	if [ -z "$(rows "$@")" ]; then
		echo "no plan: the verdict fails every log"
	else
		matrix "$@" | tail -n 1
	fi
}

# check_suites BASE: the suites of the logs make check's verdict reads for
# BASE, from the Makefile's one list of them (CHECK_LOGS), as a plain make
# check picks them: without the MAKEFLAGS of a make that runs this script
# (make check ARCH=arm64 would drop the oci log)
check_suites() {
	(cd "$TOP" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
		make -s --no-print-directory print-check-suites BASE="$1") | tr '\n' ' '
}
CHECK=$(check_suites "$default")
[ -n "$CHECK" ] || { echo "$0: make print-check-suites printed no suite" >&2; exit 1; }
if [ "${1:-}" = -s ]; then
	# shellcheck disable=SC2086 # the suites, one word each
	printf '%s\n' $CHECK
	exit 0
fi

# the blocks, one file each
{
	echo '```'
	printf '%-22s %7s %7s %7s\n' arch/ABI passed failed skipped
	# shellcheck disable=SC2086
	matrix "$default" $CHECK
	echo '```'
} >"$tmp/check-matrix"

{
	echo "| base | arch/ABI | suite | test | point | the reason its line must carry |"
	echo "|---|---|---|---|---|---|"
	awk '$1 == "skip" { r = $8; for (i = 9; i <= NF; i++) r = r " " $i
		printf "| %s | %s/%s | %s | `%s` | `%s` | %s |\n", ($2 == "*" ? "every base" : $2), $3, $5, $4, $6, $7, r }' "$plan"
} >"$tmp/skips"

n=$(PIDFD_GETFD_CACHE=$tmp sh "$TOP/boot/deps.sh" -l | wc -l)
echo "installs the $n packages" >"$tmp/packages"

{
	echo "| base | target | the plan's last line |"
	echo "|---|---|---|"
	for b in $(sh "$TOP/boot/plan/query.sh" bases check); do
		suites=$(check_suites "$b")
		# shellcheck disable=SC2086
		echo "| $b | \`make check\` | $(total "$b" $suites) |"
		echo "| $b | \`make check-patched\` | $(total "$b" check) |"
		echo "| $b | \`make check-debug\` | $(total "$b" debug) |"
		echo "| $b | \`make check-prefixes\` | $(total "$b" prefixes) |"
		echo "| $b | \`make demo\` | $(total "$b" demo oci) |"
	done
} >"$tmp/targets"

{
	for s in check debug; do
		for a in $(sh "$TOP/boot/plan/query.sh" arches "$default" "$s"); do
			abis=$(sed -n "s/^ABIS='\(.*\)'/\1/p" "$TOP/boot/arch/$a/arch.conf")
			t=$(awk -v abis="$abis" -f "$TOP/boot/suite.awk" "$TOP/boot/suites/$s")
			echo "- \`boot/suites/$s\` on $a ($abis): $t s"
		done
	done
} >"$tmp/timeouts"

sh "$TOP/boot/plan/query.sh" ci | awk '{ printf "- `make %s BASE=%s%s`\n", $1, $2, ($3 == "*" ? "" : " ARCH=" $3) }' >"$tmp/ci"

# replace FILE: FILE with each block rewritten, on stdout
replace() {
	awk -v dir="$tmp" '
	match($0, /^ *<!-- plan: [a-z-]+ -->$/) {
		indent = $0
		sub(/<.*/, "", indent)
		name = $0
		sub(/^ *<!-- plan: /, "", name)
		sub(/ -->$/, "", name)
		print
		while ((getline l < (dir "/" name)) > 0)
			print (l == "" ? "" : indent l)
		close(dir "/" name)
		skipping = name
		next
	}
	skipping != "" && $0 ~ "^ *<!-- /plan: " skipping " -->$" { skipping = "" }
	skipping == "" { print }
	END { if (skipping != "") { print "no end of block " skipping > "/dev/stderr"; exit 1 } }
	' "$1"
}

rc=0
for f in README.md docs/harness.md; do
	replace "$TOP/$f" >"$tmp/new"
	if [ "${1:-}" = -w ]; then
		cmp -s "$tmp/new" "$TOP/$f" || { cp "$tmp/new" "$TOP/$f"; echo "rewrote the plan's blocks in $f"; }
	else
		diff -u "$TOP/$f" "$tmp/new" | sed "s|$tmp/new|$f, from the plan|" || true
	fi
	cmp -s "$tmp/new" "$TOP/$f" || rc=1
done
[ "${1:-}" = -w ] || [ $rc = 0 ] || echo "the plan's blocks differ from the committed text: make docs"
[ "${1:-}" = -w ] || exit $rc
