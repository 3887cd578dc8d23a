#!/bin/sh
# boot/tests/plan-rules.sh
#   The plan's rules fail at once: in a copy of the project, a malformed
#   line in each of boot/plan/matrix, boot/plan/points, boot/plan/skips,
#   boot/checks/points and a suite file, and a boot/plan/logs that is not
#   the rules' expansion, each stop 'make -n check' before it runs
#   anything, naming the file and line (or saying make docs); the copy as
#   it is passes. boot/checks/harness.sh runs it as one case.
set -eu
TOP=$(cd "$(dirname "$0")/../.." && pwd)
s=$(mktemp -d)
trap 'rm -rf "$s"' EXIT

# try EXPECTED FILE LINE: the copy with LINE appended to FILE; make must
# stop saying EXPECTED ("" for a copy that must pass: then LINE is empty)
rc=0
try() {
	rm -rf "$s/top"
	mkdir "$s/top"
	(cd "$TOP" && { git ls-files -co --exclude-standard 2>/dev/null || find . ! -type d; } | tar -cf - -T -) |
		tar -C "$s/top" -xf -
	[ -z "$3" ] || printf '%s\n' "$3" >>"$s/top/$2"
	if out=$(cd "$s/top" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -n check 2>&1); then
		if [ -n "$1" ]; then
			echo "make -n check passed with '$3' in $2"
			rc=1
		else
			echo "the copy as it is: make -n check passes"
		fi
		return
	fi
	if [ -n "$1" ] && printf '%s\n' "$out" | grep -qF -- "$1"; then
		echo "'$3' in $2: $(printf '%s\n' "$out" | grep -F -- "$1" | head -n 1)"
	else
		printf '%s\n' "$out" | tail -n 3
		echo "make -n check did not stop saying '$1'"
		rc=1
	fi
}
n() { echo $(($(wc -l <"$TOP/$1") + 1)); }
try "" boot/plan/matrix ""
try "boot/plan/matrix:$(n boot/plan/matrix): no arch 'nosucharch'" boot/plan/matrix "suite check * nosucharch"
try "boot/plan/points:$(n boot/plan/points): want: NAME POINTS" boot/plan/points "hello two"
try "boot/plan/skips:$(n boot/plan/skips): condition 'kernel<=6.9'" boot/plan/skips "skip samples kernel<=6.9 point=x why"
try "boot/plan/skips:$(n boot/plan/skips): 'samples>': NAME>PARENT wants a PARENT" boot/plan/skips "skip samples> * point=x why"
try "boot/plan/skips:$(n boot/plan/skips): 'samples>p': NAME>PARENT wants a PARENT, and only a skip is nested" \
	boot/plan/skips "known samples>p * point=x why"
try "boot/plan/skips:$(n boot/plan/skips): no suite of boot/plan/matrix has a test 'nosuch'" boot/plan/skips "skip nosuch>p * point=x why"
try "boot/checks/points:$(n boot/checks/points): want: SUITE GROUP POINTS" boot/checks/points "lint series"
try "boot/suites/check:$(n boot/suites/check): ABIS is 'some'" boot/suites/check "hello2 some 30 hello"
try "boot/plan/logs differs from what boot/plan/expand.sh makes of the rules: make docs" \
	boot/plan/logs "section * x86_64 check x86_64 extra 1"
exit $rc
