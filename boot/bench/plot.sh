#!/bin/sh
# boot/bench/plot.sh PNG
#   Chart $BCACHE/bench/bench.csv (from 'make bench') with gnuplot: each
#   row's median relative to its base row, one cluster per arch/ABI.
set -eu
. "$(dirname "$0")/../lib.sh"
png=${1:?usage: $0 PNG}
csv=$BCACHE/bench/bench.csv
[ -f "$csv" ] || die "no $csv: run 'make bench' first"
command -v gnuplot >/dev/null || die "gnuplot missing (make deps)"
dat=$BCACHE/bench/plot.dat
# One line per method, one column per arch/ABI: the ratio to its base row.
awk -F, 'NR > 1 {
		col = $1 "/" $2
		if (!(col in c)) { c[col] = ++nc; cols[nc] = col }
		if (!($5 in r)) { r[$5] = ++nr; rows[nr] = $5 }
		v[$5, col] = $11
	}
	END {
		printf "method"
		for (j = 1; j <= nc; j++) printf " %s", cols[j]
		print ""
		for (i = 1; i <= nr; i++) {
			printf "%s", rows[i]
			for (j = 1; j <= nc; j++) printf " %s", v[rows[i], cols[j]]
			print ""
		}
	}' "$csv" >"$dat"
ncols=$(head -n 1 "$dat" | wc -w)
accel=$(awk -F, 'NR == 2 { print $3 }' "$csv")
gnuplot <<PLOT
set terminal pngcairo size 1100,560 noenhanced font "sans,10"
set output "$png"
set title "PIDFD_IOCTL_GETFD and alternatives: median time relative to each row's base (QEMU $accel)"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set logscale y
set yrange [0.05:*]
set ylabel "ratio to base (log scale); base rows are ioctl, fds_10, callers_1, threads_1"
set xtics rotate by -30
set key top left
set grid ytics
plot for [i=2:$ncols] "$dat" using i:xtic(1) title columnheader(i)
PLOT
step "chart: $png (from $csv)"
