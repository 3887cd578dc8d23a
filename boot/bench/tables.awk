# awk -v csv=FILE -f boot/console.awk -f boot/bench/tables.awk LOG...
#   From 'bench' (or 'bench-icount') guest logs: each ABI's tables, with the accelerator and
#   clocksource they ran with, printed; every row appended to FILE as
#   arch,abi,accel,clocksource,<the benchmark's own csv columns>; last, per
#   ABI, a supervised bind taken apart: the notification's floor
#   (notif_none), the rest of a bind answered CONTINUE (bind_continue), and
#   what supervising it adds (bind_ioctl: the fetch, the checks, the
#   supervisor's own bind()).
kind == "RUN" {
	arch = run["arch"]
	print ""
	print "== " arch ": the guest ran under " run["accel"] \
		(run["icount"] != "" ? " with -icount shift=" run["icount"] : "") " =="
	if (run["icount"] != "")
		print "   (guest time counts instructions, 2^" run["icount"] " ns each: a proxy for work that host load cannot move)"
	else if (run["accel"] != "kvm")
		print "   (TCG emulates the CPU: absolute times mean little, the ratios are what count)"
	next
}
kind == "BEGIN" { cs = "?"; next }
test != "bench" && test != "bind-bench" && test != "notif-rtt" { next }
/^# clocksource: / { cs = $3; print ""; print "-- " arch "/" abi ", " substr($0, 3); next }
/^# csv,/ {
	sub(/^# csv,/, "")
	print arch "," abi "," run["accel"] (run["icount"] != "" ? "-icount" run["icount"] : "") "," cs "," $0 >>csv
	split($0, f, ",")
	k = arch "/" abi
	if (!(k in abis))
		order[++nabis] = k
	abis[k] = 1
	median[k, f[1]] = f[5]
	next
}
/^# (method|[0-9]+ rounds|[a-z_0-9]+ +[A-Za-z])/ { print "   " substr($0, 3) }
tap == "not ok" { print "   FAILED: " $0 }
END {
	for (i = 1; i <= nabis; i++) {
		k = order[i]
		n = median[k, "notif_none"]; c = median[k, "bind_continue"]; b = median[k, "bind_ioctl"]
		if (n == "" || c == "" || b == "")
			continue
		if (i == 1) {
			print ""
			print "-- a supervised bind (bind_ioctl), taken apart (medians, ns):"
		}
		printf "   %-14s %9.0f = notification %7.0f + rest of a CONTINUE'd bind %7.0f + supervising %7.0f\n",
			k, b, n, c - n, b - c
		if (median[k, "notif_sync"] != "")
			printf "   %-14s notification with SYNC_WAKE_UP %7.0f (%.2fx)\n", "",
				median[k, "notif_sync"], median[k, "notif_sync"] / n
	}
}
