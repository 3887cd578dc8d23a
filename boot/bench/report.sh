#!/bin/sh
# boot/bench/report.sh ARCH...
#   After 'boot/run.sh ARCH bench': print each ABI's table from the guest
#   log, with the accelerator and clocksource it ran with, and write all
#   rows to $BCACHE/bench/bench.csv (bench-icount.csv with ICOUNT, the
#   guests run by instruction count). Fails if the benchmark itself failed.
set -eu
. "$(dirname "$0")/../lib.sh"
[ $# -gt 0 ] || die "usage: $0 ARCH..."
mkdir -p "$BCACHE/bench"
csv=$BCACHE/bench/bench${ICOUNT:+-icount}.csv
logs=
echo 'arch,abi,accel,clocksource,method,base,calls,min_ns,median_ns,max_ns,ratio' >"$csv.tmp"
for a in "$@"; do
	log=$LOGS/$a-bench${ICOUNT:+-icount}.log
	[ -f "$log" ] || die "no $log: boot/run.sh $a bench${ICOUNT:+-icount} first"
	logs="$logs $log"
done
awk -v csv="$csv.tmp" -f "$TOP/boot/console.awk" -f "$TOP/boot/bench/tables.awk" $logs
mv "$csv.tmp" "$csv"
echo
echo "CSV: $csv"
# The benchmark's own TAP (every method ran, the clocksource is not jiffies).
rc=0
sh "$TOP/boot/verdict.sh" $logs >"$csv.verdict" || rc=$?
tail -n 1 "$csv.verdict"
[ "$rc" = 0 ] || die "the benchmark failed (log:$logs)"
