# awk [-v known_dir=boot/base] -f boot/console.awk -f boot/verdict.awk LOG...
#
# Judge guest (and host check) logs written by boot/run.sh: every test
# section's TAP, its exit status, the kernel's log, and whether the guest
# finished. Prints a matrix of arch/ABI x passed/failed/skipped, then every
# failure with its log file, and last 'N passed, N failed, N skipped'.
# Exits 1 if anything failed or nothing ran. Every LOG named is expected:
# one that is missing, empty, or lacks its '@@@ DONE' is a failure. An
# upstream kselftest listed in the known-failures file (boot/checks/baseline.sh
# proves each fails without the series too) is counted as a known failure:
# neither passed nor skipped. The log format, and the variables its
# parser sets for the rules below, are in boot/console.awk.

function failure(row, what) {
	failed[row]++
	nfailures++
	failures[nfailures] = row ": " what " (log: " file ")"
	rows[row] = 1
}

function close_section() {
	if (!insection)
		return
	failure(row, sect ": no END marker: the guest stopped inside the test")
	insection = 0
}

function finish_file() {
	if (file == "")
		return
	close_section()
	if (!runseen)
		failure(arch, "not a boot/run.sh log")
	else if (!done)
		failure(arch, "the guest did not reach its end (@@@ DONE missing)")
	if (smp != "" && !smp_seen)
		failure(arch, "the kernel did not say '" smp "': fewer CPUs than asked for")
}

BEGIN {
	# Every log named is expected: a missing or empty one fails, named.
	# The bases of the logs, from their first lines: with more than one,
	# each row says its base.
	for (i = 1; i < ARGC; i++) {
		if ((getline line < ARGV[i]) > 0) {
			close(ARGV[i])
			if (match(line, /^@@@ RUN base=[^ ]+/)) {
				b = substr(line, 14, RLENGTH - 13)
				if (!(b in bases)) {
					bases[b] = 1
					nbases++
				}
			}
			continue
		}
		file = ARGV[i]
		failure("verdict", "the expected log is " \
			(system("test -e '" ARGV[i] "'") ? "missing" : "empty"))
		ARGV[i] = ""
	}
	file = ""
	# Each base's known upstream failures: known_dir/BASE/upstream-known-failures
	for (b in bases) {
		known = known_dir "/" b "/upstream-known-failures"
		while (known_dir != "" && (getline line < known) > 0) {
			sub(/#.*/, "", line)
			if (split(line, f, " ") >= 2)
				is_known[b " " f[1] " " f[2]] = 1
		}
		close(known)
	}
}

FNR == 1 {
	finish_file()
	file = FILENAME
	arch = FILENAME
	runseen = done = insection = smp_seen = 0
	base = ""
	smp = ""
	delete bad_seen
}

kind == "RUN" {
	runseen = 1
	if ("arch" in run)
		arch = run["arch"]
	base = run["base"]
	if (nbases > 1)
		arch = base ":" arch
	smp = run["smp"]
	next
}

kind == "BEGIN" {
	close_section()
	insection = 1
	row = arch "/" abi
	sect = test
	rows[row] = 1
	plan = -1
	npoints = npass = nskip = nfail = 0
	next
}

kind == "END" {
	if (!insection) {
		# its BEGIN was lost (a kernel message on the same line?)
		failure(arch "/" abi, test ": END without its BEGIN")
		next
	}
	insection = 0
	if (plan < 0)
		failure(row, sect ": no TAP plan (exit status " status ")")
	else if (npoints != plan)
		failure(row, sect ": TAP plan says " plan " tests, " npoints " reported")
	all_skipped = plan == 0 || (npoints > 0 && nskip == npoints)
	# A non-zero exit the TAP already explains is not counted again.
	if (status != "0" && !(status == "4" && all_skipped) && nfail == 0)
		failure(row, sect ": exited with status " status)
	next
}

kind == "DONE" { done = 1; next }
# The guest's /init found a process TEST left behind, and killed it.
kind == "STRAY" { failure(arch "/" abi, test ": left a process behind: " stray); next }
kind == "HOST" { failure(arch, text); next }
kind == "KLOG" || kind == "INIT" { next }

insection && tap == "plan" {
	plan = substr($1, 4) + 0
	if (plan == 0 && tap_skip)
		skipped[row]++
	next
}

insection && tap != "" {
	npoints++
	if (tap_skip) {
		nskip++
		skipped[row]++
	} else if (tap == "ok") {
		npass++
		passed[row]++
	} else if ((base " " run["arch"] " " upstream_name($0)) in is_known) {
		knownfail[row]++
		nknown++
	} else {
		nfail++
		failure(row, sect ": " $0)
	}
	next
}

# "not ok 7 selftests: pidfd: pidfd_setns_test # exit=1" -> "pidfd:pidfd_setns_test"
function upstream_name(l) {
	if (!match(l, /selftests: [^:]+: [^ ]+/))
		return ""
	l = substr(l, RSTART + 11, RLENGTH - 11)
	sub(/: /, ":", l)
	return l
}

smp != "" && index($0, smp) { smp_seen = 1 }

# The kernel must not complain, on the console or in the dumped log; on
# debug kernels that includes KASAN, lockdep, RCU and kmemleak reports.
# Test diagnostics ('# ...') are not the kernel's.
!/^#/ && /Oops|BUG:|WARNING:|Kernel panic|Call Trace|general protection fault|KASAN|possible circular locking|possible recursive locking|inconsistent lock state|suspicious RCU|turning off the locking correctness validator|unreferenced object|suspected memory leak/ {
	line = $0
	sub(/^<[0-9]+>/, "", line)
	sub(/^\[ *[0-9.]+\] */, "", line)
	if (!(line in bad_seen)) {
		bad_seen[line] = 1
		failure(arch, "kernel: " line)
	}
}

END {
	finish_file()
	printf "%-22s %7s %7s %7s\n", "arch/ABI", "passed", "failed", "skipped"
	n = 0
	for (r in rows)
		order[++n] = r
	for (i = 2; i <= n; i++)	# insertion sort: awk has no sort
		for (j = i; j > 1 && order[j - 1] > order[j]; j--) {
			t = order[j]; order[j] = order[j - 1]; order[j - 1] = t
		}
	for (i = 1; i <= n; i++) {
		r = order[i]
		printf "%-22s %7d %7d %7d\n", r, passed[r], failed[r], skipped[r]
		tp += passed[r]; tf += failed[r]; ts += skipped[r]
	}
	for (i = 1; i <= nfailures; i++)
		print "FAILED " failures[i]
	if (nknown)
		printf "%d known failures, which fail without the series too (%s/BASE/upstream-known-failures)\n", nknown, known_dir
	if (tp + tf == 0 && nfailures == 0) {
		print "FAILED: no test ran"
		tf = 1
	}
	printf "%d passed, %d failed, %d skipped\n", tp, tf, ts
	exit tf > 0
}
