# awk -v csv=FILE -f boot/console.awk -f boot/bench/tables.awk LOG...
#   From 'bench' guest logs: each ABI's table, with the accelerator and
#   clocksource it ran with, printed; every row appended to FILE as
#   arch,abi,accel,clocksource,<the benchmark's own csv columns>.
kind == "RUN" {
	arch = run["arch"]
	print ""
	print "== " arch ": the guest ran under " run["accel"] " =="
	if (run["accel"] != "kvm")
		print "   (TCG emulates the CPU: absolute times mean little, the ratios are what count)"
	next
}
kind == "BEGIN" { cs = "?"; next }
test != "bench" && test != "bind-bench" { next }
/^# clocksource: / { cs = $3; print ""; print "-- " arch "/" abi ", " substr($0, 3); next }
/^# csv,/ {
	sub(/^# csv,/, "")
	print arch "," abi "," run["accel"] "," cs "," $0 >>csv
	next
}
/^# (method|[0-9]+ rounds|[a-z_0-9]+ +[A-Za-z])/ { print "   " substr($0, 3) }
tap == "not ok" { print "   FAILED: " $0 }
