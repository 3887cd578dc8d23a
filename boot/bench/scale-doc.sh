#!/bin/sh
# boot/bench/scale-doc.sh [-o FILE] REFERENCE LOG...
#   Put agent-scale's table (one bind-agent serving many containers, from
#   'make bench' guest logs, as boot/bench/tables.awk makes it) into
#   docs/benchmarks.md (or FILE), between its '<!-- bench: agent-scale -->'
#   lines, with what it ran on beside it: the commit checked out here, the
#   logs' date, this machine's CPU, cores and memory (run it where the
#   bench ran), the guests' RUN lines and agent-scale's own header line,
#   and REFERENCE, the last line 'make reference-build' printed on this
#   machine ("reference build: N s (...)"). Nothing in the block is typed.
set -eu
TOP=$(cd "$(dirname "$0")/../.." && pwd)
die() { echo "scale-doc.sh: $*" >&2; exit 1; }
doc=$TOP/docs/benchmarks.md
if [ "${1:-}" = -o ]; then
	[ $# -ge 2 ] || die "usage: $0 [-o FILE] REFERENCE LOG..."
	doc=$2
	shift 2
fi
[ $# -ge 2 ] || die "usage: $0 [-o FILE] REFERENCE LOG..."
ref=$1
shift
printf '%s\n' "$ref" | grep -Eq '^reference build: [0-9]+ s \(' ||
	die "REFERENCE is not make reference-build's line ('reference build: N s (...)'): '$ref'"
for log; do
	[ -f "$log" ] || die "no log $log"
done
if ! grep -qx '<!-- bench: agent-scale -->' "$doc" || ! grep -qx '<!-- /bench: agent-scale -->' "$doc"; then
	die "$doc has no '<!-- bench: agent-scale -->' ... '<!-- /bench: agent-scale -->' block"
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# (the bench rows' CSV is not wanted here)
awk -v csv=/dev/null -f "$TOP/boot/console.awk" -f "$TOP/boot/bench/tables.awk" "$@" >"$tmp/out"
echo 'test == "agent-scale" && /^# [0-9]+ binds per container/ { print substr($0, 2); exit }' >"$tmp/head.awk"
sed -n '/^| arch\/abi | agent run by /,/^$/p' "$tmp/out" | sed '/^$/d' >"$tmp/table"
[ -s "$tmp/table" ] || die "no agent-scale rows in $*"
commit=$(git -C "$TOP" rev-parse --short HEAD)
git -C "$TOP" diff --quiet HEAD -- || commit="$commit with uncommitted changes"
{
	echo '<!-- bench: agent-scale -->'
	printf 'Written by `boot/bench/scale-doc.sh` from'
	for log; do printf ' `%s` (%s)' "$(basename "$log")" "$(date -u -r "$log" '+%Y-%m-%d %H:%M UTC')"; done
	echo ", at commit $commit."
	echo "The machine: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1),"
	echo "$(nproc) cores, $(awk '/^MemTotal:/ { printf "%.0f", $2 / 1048576 }' /proc/meminfo) GiB;"
	echo "$ref."
	echo "The guests:"
	for log; do
		printf -- '- `%s`; agent-scale:%s\n' "$(sed -n '1s/^@@@ RUN //; 1s/ console=[^ ]*//; 1s/ smp=.*//p' "$log")" \
			"$(awk -f "$TOP/boot/console.awk" -f "$tmp/head.awk" "$log")"
	done
	echo
	cat "$tmp/table"
	echo '<!-- /bench: agent-scale -->'
} >"$tmp/block"
awk -v block="$tmp/block" '
	$0 == "<!-- bench: agent-scale -->" { while ((getline l <block) > 0) print l; skip = 1; next }
	$0 == "<!-- /bench: agent-scale -->" { skip = 0; next }
	!skip' "$doc" >"$tmp/doc"
cat "$tmp/doc" >"$doc"
echo "scale-doc.sh: wrote agent-scale's table into $doc"
