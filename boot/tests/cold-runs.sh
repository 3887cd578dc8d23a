#!/bin/sh
# boot/tests/cold-runs.sh
#   boot/plan/cold.awk, the cold runs' table that make docs writes into
#   README.md and docs/harness.md, from crafted copies of
#   docs/measurements.md: the minutes and the reference builds are
#   computed from a row's seconds and its reference build, the table ends
#   at its first line that is not a row, and a row without a reference
#   build, a file without the table and a table without a row each stop
#   it, naming the line. Exit 1, saying what differs.
# shellcheck disable=SC2016 # markdown's backquotes, not the shell's
set -eu
TOP=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "cold-runs: $*"; exit 1; }
cold() { awk -f "$TOP/boot/plan/cold.awk" "$@"; }
head='| run | base | commit | date | machine | seconds | reference build (s) | how |
|---|---|---|---|---|---|---|---|'

printf '# M\n\n<!-- cold-runs -->\n%s\n%s\n%s\n\n| a | table | after |\n' "$head" \
	'| `make check` | 6.1 | abc1234 | 2026-12-08 | I | 2730 | 91 | quiet |' \
	'| `.ci/run` | 6.1 | abc1234 | 2026-12-08 | I | 4550 | 91 | quiet |' >"$tmp/good.md"
cold "$tmp/good.md" >"$tmp/good.out" || fail "a good table stopped it"
cat "$tmp/good.out"
[ "$(wc -l <"$tmp/good.out")" = 4 ] || fail "want a header, a rule and two rows"
grep -qxF '| `make check` | 6.1 | I | 45.5 | 91 s | 30.0 | abc1234, 2026-12-08 | quiet |' "$tmp/good.out" ||
	fail "make check's row: not 45.5 minutes and 30.0 reference builds"
grep -qxF '| `.ci/run` | 6.1 | I | 75.8 | 91 s | 50.0 | abc1234, 2026-12-08 | quiet |' "$tmp/good.out" ||
	fail ".ci/run's row: not 75.8 minutes and 50.0 reference builds"

# bad NAME WANT: NAME.md must stop it with a message matching WANT
bad() {
	if cold "$tmp/$1.md" >"$tmp/$1.out" 2>"$tmp/$1.err"; then
		fail "$1: passed"
	fi
	cat "$tmp/$1.err"
	grep -q "$2" "$tmp/$1.err" || fail "$1: the message does not say '$2'"
}
printf '<!-- cold-runs -->\n%s\n%s\n' "$head" \
	'| `make check` | 6.1 | abc1234 | 2026-12-08 | I | 2730 |  | quiet |' >"$tmp/noref.md"
bad noref "noref.md:4: a cold run without whole seconds or its reference build"
printf '<!-- cold-runs -->\n%s\n%s\n' "$head" \
	'| `make check` | 6.1 | abc1234 | 2026-12-08 | I | 45 min | 91 | quiet |' >"$tmp/minutes.md"
bad minutes "minutes.md:4: a cold run without whole seconds"
printf '# M\n\nno table\n' >"$tmp/none.md"
bad none 'none.md: no cold run after a line'
printf '<!-- cold-runs -->\n%s\n\nprose\n' "$head" >"$tmp/empty.md"
bad empty 'empty.md: no cold run after a line'
echo "cold-runs: every case as wanted"
