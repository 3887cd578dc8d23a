# awk -v csv=FILE -f boot/console.awk -f boot/bench/tables.awk LOG...
#   From 'bench' (or 'bench-icount') guest logs: each ABI's tables, with the accelerator and
#   clocksource they ran with, printed; every row appended to FILE as
#   arch,abi,accel,clocksource,<the benchmark's own csv columns>; last, per
#   ABI, a supervised bind taken apart: the notification's floor
#   (notif_none), the rest of a bind answered CONTINUE (bind_continue), and
#   what supervising it adds (bind_ioctl: the fetch, the checks, the
#   supervisor's own bind()). agent-scale's rows (one bind-agent serving
#   many containers; its manager: agent-scale itself, or systemd) go, last,
#   into one markdown table (boot/bench/scale-doc.sh puts it in
#   docs/benchmarks.md), and with -v scale=FILE to FILE, after its header
#   (BEGIN, below: the columns' one statement)
BEGIN {
	if (scale != "")
		print "arch,abi,accel,manager,containers,served,rss_kb,fds,threads,mem_used_kb,binds,p50_us,p99_us,max_us,load_s,restart" >scale
}
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
kind == "BEGIN" { cs = "?"; manager = "agent-scale"; next }
test != "bench" && test != "bind-bench" && test != "notif-rtt" && test != "agent-scale" { next }
test == "agent-scale" && /^# manager: / { manager = $3; next }
# "# scale,SIZE,KEY,VALUE,...": the restart's VALUE is a time or a sentence
test == "agent-scale" && /^# scale,/ {
	n = split(substr($0, 9), f, ",")
	k = arch "/" abi SUBSEP manager SUBSEP f[1]
	if (!(k in scaled)) {
		scaled[k] = 1
		srow[++nscale] = k
		saccel[k] = run["accel"] (run["icount"] != "" ? "-icount" run["icount"] : "")
	}
	for (i = 2; i + 1 <= n; i += 2)
		sv[k, f[i]] = f[i + 1]
	next
}
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
	scale_table()
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

function us(v) { return v == "" ? "?" : sprintf("%.0f us", v) }
function mib(kb) { return kb == "" || kb < 0 ? "?" : sprintf("%.1f MiB", kb / 1024) }
function scale_table(   i, k, a, restart) {
	if (!nscale)
		return
	print ""
	print "-- one bind-agent serving many containers (agent-scale), as markdown:"
	print ""
	print "| arch/abi | agent run by | containers | served | agent RSS | agent fds | agent threads | memory in use | bind() p50 | p99 | max | binds, all at once | restart until all served |"
	print "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
	for (i = 1; i <= nscale; i++) {
		k = srow[i]
		split(k, a, SUBSEP)
		restart = sv[k, "restart_ms"] != "" ? sprintf("%.0f ms", sv[k, "restart_ms"]) : \
			sv[k, "restart"] != "" ? sv[k, "restart"] : "?"
		printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", a[1], a[2], a[3],
			sv[k, "served"] == "" ? "?" : sv[k, "served"], mib(sv[k, "rss_kb"]),
			sv[k, "fds"] == "" ? "?" : sv[k, "fds"], sv[k, "threads"] == "" ? "?" : sv[k, "threads"],
			mib(sv[k, "mem_used_kb"]), us(sv[k, "p50_us"]), us(sv[k, "p99_us"]), us(sv[k, "max_us"]),
			sv[k, "binds"] == "" ? "?" : sv[k, "binds"] " in " sv[k, "seconds"] " s", restart
		if (scale != "") {
			sub("/", ",", a[1])
			print a[1] "," saccel[k] "," a[2] "," a[3] "," sv[k, "served"] "," sv[k, "rss_kb"] "," \
				sv[k, "fds"] "," sv[k, "threads"] "," sv[k, "mem_used_kb"] "," sv[k, "binds"] "," \
				sv[k, "p50_us"] "," \
				sv[k, "p99_us"] "," sv[k, "max_us"] "," sv[k, "seconds"] "," \
				(sv[k, "restart_ms"] != "" ? sv[k, "restart_ms"] " ms" : sv[k, "restart"]) >scale
		}
	}
}
