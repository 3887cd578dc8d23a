#!/bin/sh
# boot/bench/report.sh ARCH...
#   After 'boot/run.sh ARCH bench': print each ABI's table from the guest
#   log, with the accelerator and clocksource it ran with, and write all
#   rows to $CACHE/bench/bench.csv. Fails if the benchmark itself failed.
set -eu
. "$(dirname "$0")/../lib.sh"
[ $# -gt 0 ] || die "usage: $0 ARCH..."
mkdir -p "$CACHE/bench"
csv=$CACHE/bench/bench.csv
logs=
echo 'arch,abi,accel,clocksource,method,base,calls,min_ns,median_ns,max_ns,ratio' >"$csv.tmp"
for a in "$@"; do
	log=$LOGS/$a-bench.log
	[ -f "$log" ] || die "no $log: boot/run.sh $a bench first"
	logs="$logs $log"
	accel=$(sed -n 's/^@@@ RUN .* accel=\([a-z]*\).*/\1/p' "$log")
	echo
	echo "== $a: the guest ran under $accel =="
	[ "$accel" = kvm ] ||
		echo "   (TCG emulates the CPU: absolute times mean little, the ratios are what count)"
	tr -d '\r' <"$log" | awk -v arch="$a" -v accel="$accel" -v csv="$csv.tmp" '
		/^@@@ BEGIN / && ($4 == "bench" || $4 == "bind-bench") { abi = $3; cs = "?"; next }
		/^@@@ END / { abi = ""; next }
		abi == "" { next }
		/^# clocksource: / { cs = $3; print ""; print "-- " arch "/" abi ", " substr($0, 3); next }
		/^# csv,/ {
			sub(/^# csv,/, "")
			print arch "," abi "," accel "," cs "," $0 >>csv
			next
		}
		/^# (method|[0-9]+ rounds|[a-z_0-9]+ +[A-Za-z])/ { print "   " substr($0, 3) }
		/^not ok / { print "   FAILED: " $0 }'
done
mv "$csv.tmp" "$csv"
echo
echo "CSV: $csv"
# The benchmark's own TAP (every method ran, the clocksource is not jiffies).
rc=0
awk -f "$TOP/boot/verdict.awk" $logs >"$csv.verdict" || rc=$?
tail -n 1 "$csv.verdict"
[ "$rc" = 0 ] || die "the benchmark failed (log:$logs)"
