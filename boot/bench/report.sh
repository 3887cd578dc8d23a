#!/bin/sh
# boot/bench/report.sh ARCH...
#   After 'boot/run.sh ARCH bench': print each ABI's table from the guest
#   log, with the accelerator and clocksource it ran with, and write all
#   rows to $BCACHE/bench/bench.csv (bench-icount.csv with ICOUNT, the
#   guests run by instruction count), agent-scale's to agent-scale.csv
#   beside it (boot/bench/scale-doc.sh puts its table in
#   docs/benchmarks.md). Fails if the benchmark itself failed.
set -eu
. "$(dirname "$0")/../lib.sh"
[ $# -gt 0 ] || die "usage: $0 ARCH..."
mkdir -p "$BCACHE/bench"
csv=$BCACHE/bench/bench${ICOUNT:+-icount}.csv
scale=$BCACHE/bench/agent-scale${ICOUNT:+-icount}.csv
logs=
echo 'arch,abi,accel,clocksource,method,base,calls,min_ns,median_ns,max_ns,ratio' >"$csv.tmp"
echo 'arch,abi,accel,containers,served,rss_kb,fds,threads,binds,p50_us,p99_us,max_us,load_s,restart' >"$scale.tmp"
for a in "$@"; do
	log=$LOGS/$a-bench${ICOUNT:+-icount}.log
	[ -f "$log" ] || die "no $log: boot/run.sh $a bench${ICOUNT:+-icount} first"
	logs="$logs $log"
done
awk -v csv="$csv.tmp" -v scale="$scale.tmp" -f "$TOP/boot/console.awk" -f "$TOP/boot/bench/tables.awk" $logs
mv "$csv.tmp" "$csv"
mv "$scale.tmp" "$scale"
echo
echo "CSV: $csv $scale"
# The benchmark's own TAP (every method ran, the clocksource is not jiffies).
rc=0
sh "$TOP/boot/verdict.sh" $logs >"$csv.verdict" || rc=$?
tail -n 1 "$csv.verdict"
[ "$rc" = 0 ] || die "the benchmark failed (log:$logs)"
