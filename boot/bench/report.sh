#!/bin/sh
# boot/bench/report.sh LOG...
#   After make bench's guests ($LOGS/ARCH-bench.log, -bench-icount.log with
#   ICOUNT, -bench-systemd.log): print each ABI's table from the guest
#   logs, with the accelerator and clocksource it ran with, and write all
#   rows to $BCACHE/bench/bench.csv (bench-icount.csv with ICOUNT, the
#   guests run by instruction count), agent-scale's to agent-scale.csv
#   beside it (boot/bench/scale-doc.sh puts its table in
#   docs/benchmarks.md). Fails if the benchmark itself failed.
set -eu
. "$(dirname "$0")/../lib.sh"
[ $# -gt 0 ] || die "usage: $0 LOG..."
for log; do
	[ -f "$log" ] || die "no $log: make bench boots the guest that writes it"
done
mkdir -p "$BCACHE/bench"
csv=$BCACHE/bench/bench${ICOUNT:+-icount}.csv
scale=$BCACHE/bench/agent-scale${ICOUNT:+-icount}.csv
echo 'arch,abi,accel,clocksource,method,base,calls,min_ns,median_ns,max_ns,ratio' >"$csv.tmp"
awk -v csv="$csv.tmp" -v scale="$scale.tmp" -f "$TOP/boot/console.awk" -f "$TOP/boot/bench/tables.awk" "$@"
mv "$csv.tmp" "$csv"
mv "$scale.tmp" "$scale"
echo
echo "CSV: $csv $scale"
# The benchmark's own TAP (every method ran, the clocksource is not jiffies).
rc=0
sh "$TOP/boot/verdict.sh" "$@" >"$csv.verdict" || rc=$?
tail -n 1 "$csv.verdict"
[ "$rc" = 0 ] || die "the benchmark failed (logs: $*; the verdict: $csv.verdict)"
