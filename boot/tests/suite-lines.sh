#!/bin/sh
# boot/tests/suite-lines.sh
#   One reading of suite lines: the host's (boot/suite.awk) and the
#   guest's (boot/image/suite-line.h, which /init uses, built here for the
#   host as boot/tests/suite-reader.c) must accept the same lines with the
#   same name, ABIs, timeout and command, and refuse the same lines. Run
#   on crafted lines (below) and on every file in boot/suites/. Prints
#   both readings where they differ; exit 1 then.
set -eu
TOP=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -std=c11 -Wall -Wextra -Werror -o "$tmp/suite-reader" "$TOP/boot/tests/suite-reader.c"

long=$(printf 'x%.0s' $(seq 1 480))
words=$(printf ' a%.0s' $(seq 1 31))
{
	echo '# a comment'
	echo '   # an indented comment'
	printf '\t# a comment after a tab\n'
	echo ''
	echo '   '
	echo 'good all 30 hello'
	printf 'tabs\tnative\t60\thello\targ\n'
	echo '  indented last 120 /usr/bin/env A=1 hello'
	echo 'huge all 4294967297 hello'
	echo 'bigger all 99999999999999999999 hello'
	echo 'max all 86400 hello'
	echo 'over all 86401 hello'
	echo 'zero all 0 hello'
	echo 'lead all 030 hello'
	echo 'unit all 30s hello'
	echo 'neg all -1 hello'
	echo 'plus all +5 hello'
	echo 'typo nativ 30 hello'
	echo 'short all 30'
	echo "many all 30 hello$words"
	echo "toomany all 30 hello$words b"
	echo "long all 30 hello $long"
	echo "# $long$long"
	echo 'good all 30 again'
	echo "n$(printf 'x%.0s' $(seq 1 62)) all 30 hello"
	echo "n$(printf 'x%.0s' $(seq 1 63)) all 30 hello"
	printf 'noeol all 30 hello'
} >"$tmp/crafted"

rc=0
for f in "$tmp/crafted" "$TOP"/boot/suites/*; do
	awk -v abis="x86_64 i386" -v list=1 -f "$TOP/boot/suite.awk" "$f" | sed 's/ bad .*/ bad/' >"$tmp/host"
	"$tmp/suite-reader" "$f" | sed 's/ bad .*/ bad/' >"$tmp/guest"
	if ! diff -u "$tmp/host" "$tmp/guest" >"$tmp/diff"; then
		echo "the host (-) and the guest (+) read $(basename "$f") differently:"
		sed 's|'"$tmp"'/||' "$tmp/diff"
		[ "$f" != "$tmp/crafted" ] || cat -n "$f" | cut -c1-100
		rc=1
	else
		echo "$(basename "$f"): both readers: $(grep -c ' ok ' "$tmp/host" || true) tests, $(grep -c ' bad$' "$tmp/host" || true) bad lines"
	fi
done
exit $rc
