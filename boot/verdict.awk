# awk -v planfile=boot/plan/logs -v trouble=boot/plan/trouble [-v known_bases="B..."] [-v known_arches="A..."] \
#     -f boot/console.awk -f boot/verdict.awk LOG...
#
# Judge guest (and host check) logs written by boot/run.sh against the
# plan: what each log must hold (boot/plan/logs: its sections in order,
# the TAP points of each, the skips allowed there with their reasons, the
# known failures) and what the kernel must never say (boot/plan/trouble).
# Fails closed: a log the plan has no entry for, a header that does not
# match the file's name, a section missing, extra, repeated or out of
# order, a count of TAP points other than the plan's, a skip the plan does
# not allow, 'Bail out!', a second /init, a TAP line split by a kernel
# message, a known failure the pristine kernel of the same base does not
# show (LOGDIR/ARCH-pristine.log), a guest log without the kernel's
# console (appended by boot/run.sh) and any kernel trouble each fail.
# Prints a matrix of arch/ABI x passed/failed/skipped, then every failure
# as "FAILED ROW: LOG: ARCH: what", the plan's counts for these logs, and
# last 'N passed, N failed, N skipped'. Exits 1 if anything failed or
# nothing ran. Every LOG named is expected: one that is missing, empty, or
# lacks its '@@@ DONE' is a failure. The log format, and the variables its
# parser sets for the rules below, are in boot/console.awk.

function failure(row, what) {
	failed[row]++
	nfailures++
	failures[nfailures] = row ": " short ": " (run_arch == "" ? "" : run_arch ": ") what \
		" (log: " file ")"
	rows[row] = 1
}

function basename(p) { sub(/.*\//, "", p); return p }
function dirname(p) { if (!sub(/\/[^\/]*$/, "", p)) p = "."; return p }

# Read the plan and the trouble list.
function read_plan(   line, f, n) {
	while ((getline line < planfile) > 0) {
		sub(/#.*/, "", line)
		sub(/^[ \t]+/, "", line)
		if (line == "")
			continue
		n = split(line, f, /[ \t]+/)
		if (f[1] == "ci" || f[1] == "weekly")	# CI's steps: boot/plan/query.sh reads them
			continue
		np++
		ptype[np] = f[1]; pbase[np] = f[2]; parch[np] = f[3]; psuite[np] = f[4]
		pabi[np] = f[5]; pname[np] = f[6]
		prest[np] = ""
		for (i = 7; i <= n; i++)
			prest[np] = prest[np] (i > 7 ? " " : "") f[i]
		if (ptype[np] != "section" && ptype[np] != "skip" && ptype[np] != "known" || n < 7) {
			print "verdict.awk: " planfile ": bad line: " line > "/dev/stderr"
			bad_plan = 1
		}
		if (pbase[np] != "*")
			plan_bases[pbase[np]] = 1
	}
	close(planfile)
	if (np == 0) {
		print "verdict.awk: no plan in '" planfile "'" > "/dev/stderr"
		bad_plan = 1
	}
	while ((getline line < trouble) > 0) {
		if (line ~ /^#/ || line ~ /^[ \t]*$/)
			continue
		split(line, f, "\t")
		nt++
		tname[nt] = f[1]
		tre[nt] = f[2]
	}
	close(trouble)
	if (nt == 0) {
		print "verdict.awk: no kernel-trouble patterns in '" trouble "'" > "/dev/stderr"
		bad_plan = 1
	}
}

function plan_matches(i) {
	return (pbase[i] == "*" || pbase[i] == run_base) && parch[i] == run_arch && psuite[i] == run_suite
}

# The plan for this log: its sections in order (want[1..nwant] "ABI NAME"),
# their points, skips and known failures.
function load_log_plan(   i, k) {
	nwant = 0
	delete want; delete want_points; delete want_skips; delete want_at
	delete allow; delete known
	for (i = 1; i <= np; i++) {
		if (!plan_matches(i))
			continue
		k = pabi[i] " " pname[i]
		if (ptype[i] == "section") {
			want[++nwant] = k
			want_at[k] = nwant
			want_points[k] = prest[i]
		} else if (ptype[i] == "skip") {
			allow[k, ++want_skips[k]] = prest[i]
		} else {
			known[k " " pname2(prest[i])] = 1
		}
	}
}

function pname2(s) { sub(/ .*/, "", s); return s }

function start_file() {
	file = FILENAME
	short = basename(file)
	arch = run_arch = run_base = run_suite = ""
	runseen = done = insection = smp_seen = smp_line = ninit = console_seen = 0
	smp = ""
	delete seen_count; delete bad_seen; delete group_count
	planned_log = 0
}

# What the log's name says: ARCH-SUITE.log for a guest, SUITE.log or
# SUITE-ANYTHING.log for a host check.
function check_header(   name, i, h, d) {
	name = short
	sub(/\.log$/, "", name)
	if (run_arch == "host") {
		if (name != run_suite && index(name, run_suite "-") != 1)
			failure(arch, "the log says suite=" run_suite ", its name " short)
	} else if (name != run_arch "-" run_suite) {
		# the name is what the caller expected: its plan holds
		i = index(name, "-")
		if (!(substr(name, 1, i - 1) in arches))
			failure(arch, "the log's name " short " is not ARCH-SUITE.log of an arch")
		else if (substr(name, 1, i - 1) != run_arch) {
			h = run_arch
			run_arch = arch = substr(name, 1, i - 1)
			failure(arch, "the log says arch=" h ", its name " short)
		}
		if (substr(name, i + 1) != run_suite) {
			h = run_suite
			run_suite = substr(name, i + 1)
			failure(arch, "the log says suite=" h ", its name " short)
		}
		if (nbases > 1)
			arch = run_base ":" run_arch
	}
	d = basename(dirname(file))
	# logs live in $CACHE/logs/BASE/
	if ((d in plan_bases) && d != run_base)
		failure(arch, "the log says base=" run_base ", its folder " d)
	load_log_plan()
	if (nwant == 0)
		failure(arch, "no plan for base " run_base ", arch " run_arch ", suite " run_suite \
			" (" planfile ")")
	else
		planned_log = 1
}

function close_section() {
	if (!insection)
		return
	failure(row, sectname ": no END marker: the guest stopped inside the test")
	insection = 0
}

# A section's BEGIN: where it stands against the plan.
function begin_section(k) {
	seen_count[k]++
	if (!planned_log)
		return
	if (seen_count[k] > 1) {
		failure(row, sectname ": a second time")
		return
	}
	if (!(k in want_at) && !((abi " *") in want_at)) {
		failure(row, sectname ": not in the plan")
		return
	}
	if ((abi " *") in want_at) {
		group_count[abi]++
		k = abi " *"
		if (group_count[abi] > 1)
			return
	}
	if (want_at[k] < last_at)
		failure(row, sectname ": out of order: the plan has it before " want[last_at])
	else
		last_at = want_at[k]
}

function end_section(   k, expect, i, n) {
	k = abi " " test
	if (plan < 0)
		failure(row, sectname ": no TAP plan (exit status " status ")")
	else if (npoints != plan)
		failure(row, sectname ": TAP plan says " plan " tests, " npoints " reported")
	if (planned_log) {
		if ((abi " *") in want_at)
			expect = 1
		else if (k in want_points)
			expect = want_points[k]
		else
			expect = ""
		if (expect != "" && npoints != expect)
			failure(row, sectname ": " npoints " TAP points, the plan says " expect)
		n = 0
		for (i = 1; i <= want_skips[k]; i++)
			if (!((k, i) in used))
				n++
		if (n)
			failure(row, sectname ": " n " planned skip" (n > 1 ? "s" : "") \
				" did not happen (" planfile ")")
	}
	all_skipped = plan == 0 || (npoints > 0 && nskip == npoints)
	# A non-zero exit the TAP already explains is not counted again.
	if (status != "0" && !(status == "4" && all_skipped) && nfail == 0 && nknown_here == 0)
		failure(row, sectname ": exited with status " status)
}

# A skip (plan or point): allowed if an unused planned skip's reason is in
# the text after its SKIP.
function skip_allowed(line,   k, i, l) {
	k = abi " " test
	l = line
	sub(/^.*# *[Ss][Kk][Ii][Pp]/, "", l)	# the reason: what follows SKIP
	gsub(/[ \t]+/, " ", l)
	for (i = 1; i <= want_skips[k]; i++)
		if (!((k, i) in used) && index(l, allow[k, i])) {
			used[k, i] = 1
			return 1
		}
	return 0
}

# "not ok 7 selftests: pidfd: pidfd_setns_test # exit=1" -> "pidfd:pidfd_setns_test";
# "not ok 3 name # text" -> "name"
function point_name(l) {
	if (match(l, /selftests: [^:]+: [^ ]+/)) {
		l = substr(l, RSTART + 11, RLENGTH - 11)
		sub(/: /, ":", l)
		return l
	}
	sub(/^(not )?ok [0-9]+ (- )?/, "", l)
	sub(/ .*/, "", l)
	return l
}

# Does the pristine kernel's log beside this one fail the same point?
function pristine_fails(name,   p, line, in_it, rc) {
	p = dirname(file) "/" run_arch "-pristine.log"
	rc = 0
	while ((getline line < p) > 0) {
		sub(/\r+$/, "", line)
		if (line == "@@@ BEGIN " abi " " test)
			in_it = 1
		else if (line ~ /^@@@ END /)
			in_it = 0
		else if (in_it && line ~ /^not ok [0-9]+/ && point_name(line) == name)
			rc = 1
	}
	close(p)
	pristine_log = p
	return rc
}

function finish_file(   i, k, missing) {
	if (file == "")
		return
	close_section()
	if (!runseen)
		failure(arch, "not a boot/run.sh log")
	else if (!done)
		failure(arch, "the guest did not reach its end (@@@ DONE missing; " \
			(console_seen ? "the kernel console is at the end of the log)" : "no kernel console either)"))
	if (runseen && run_arch != "host" && !console_seen)
		failure(arch, "no kernel console (@@@ CONSOLE): boot/run.sh appends it when QEMU ends")
	if (smp != "" && !smp_seen)
		failure(arch, "the kernel did not say '" smp "': fewer CPUs than asked for")
	if (planned_log) {
		for (i = 1; i <= nwant; i++) {
			k = want[i]
			split(k, kf, " ")
			row = arch "/" kf[1]
			if (kf[2] == "*") {
				if (group_count[kf[1]] != want_points[k])
					failure(row, k ": " group_count[kf[1]] + 0 " sections, the plan says " want_points[k])
				continue
			}
			if (!(k in seen_count))
				failure(row, k ": missing (the plan lists it: " planfile ")")
			planned_pass += want_points[k]
		}
		for (i = 1; i <= np; i++)
			if (plan_matches(i) && ptype[i] == "skip")
				planned_skip++
			else if (plan_matches(i) && ptype[i] == "section" && pname[i] == "*")
				planned_pass += prest[i]
	}
}

BEGIN {
	if (planfile == "" || trouble == "") {
		print "verdict.awk: -v planfile=FILE -v trouble=FILE" > "/dev/stderr"
		exit 2
	}
	read_plan()
	if (bad_plan)
		exit 2
	n = split(known_arches, f, " ")
	for (i = 1; i <= n; i++)
		arches[f[i]] = 1
	for (i = 1; i <= np; i++)
		if (parch[i] != "host")
			arches[parch[i]] = 1
	# the bases: those the plan names, and every base folder (known_bases)
	n = split(known_bases, f, " ")
	for (i = 1; i <= n; i++)
		plan_bases[f[i]] = 1
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
		short = basename(file)
		failure("verdict", "the expected log is " \
			(system("test -e '" ARGV[i] "'") ? "missing" : "empty"))
		ARGV[i] = ""
	}
	file = ""
}

FNR == 1 {
	finish_file()
	start_file()
	arch = FILENAME
	last_at = 0
}

kind == "RUN" {
	if (runseen++) {
		failure(arch, "a second @@@ RUN line")
		next
	}
	run_arch = run["arch"]
	run_base = run["base"]
	run_suite = run["suite"]
	arch = run_arch
	if (nbases > 1)
		arch = run_base ":" arch
	smp = run["smp"]
	check_header()
	next
}

kind == "BEGIN" {
	if (done)
		failure(arch, $0 ": after @@@ DONE")
	close_section()
	insection = 1
	row = arch "/" abi
	sect = test
	sectname = abi " " test
	rows[row] = 1
	plan = -1
	npoints = npass = nskip = nfail = nknown_here = 0
	begin_section(abi " " test)
	next
}

kind == "END" {
	if (!insection) {
		# its BEGIN was lost (a kernel message on the same line?)
		row = arch "/" abi
		failure(row, abi " " test ": END without its BEGIN")
		next
	}
	insection = 0
	if (abi " " test != sectname) {
		failure(row, sectname ": END names " abi " " test)
		abi = substr(sectname, 1, index(sectname, " ") - 1)
		test = sect
	}
	end_section()
	next
}

# DONE is /init's, after every test: one inside a test's section, or a
# test after DONE, is a test writing markers.
kind == "DONE" {
	if (insection)
		failure(row, sectname ": @@@ DONE inside the test (a test wrote it?)")
	else
		done = 1
	next
}
# The kernel's console, after everything /init wrote: read for the CPUs
# and for kernel trouble only.
kind == "CONSOLE" { close_section(); console_seen = 1; next }
kind == "BADCONSOLE" {
	failure(insection ? row : arch, "'@@@ CONSOLE' without this boot's token (a test wrote it?): " $0)
	next
}
# /init says on the console what went wrong before its channel was there
in_console && /^@@@ INIT / { failure(arch, $0) }
# The guest's /init found a process TEST left behind, and killed it.
kind == "STRAY" { failure(arch "/" abi, abi " " test ": left a process behind: " stray); next }
kind == "HOST" { failure(arch, text); next }
kind == "INIT" {
	if (text ~ /^suite=/) {
		if (ninit++)
			failure(arch, "a second @@@ INIT " text ": the guest ran /init again")
		else if (text != "suite=" run_suite)
			failure(arch, "@@@ INIT " text ", but the log says suite=" run_suite)
	} else
		failure(arch, "@@@ INIT " text)
	next
}

# Bail out! is a TAP producer giving up, wherever it stands.
/^Bail out!/ { failure(insection ? row : arch, (insection ? sectname ": " : "") $0) }

insection && tap == "plan" {
	plan = substr($1, 4) + 0
	if (plan == 0 && tap_skip) {
		if (skip_allowed($0))
			skipped[row]++
		else
			failure(row, sectname ": " $0 ": a skip the plan does not allow")
	}
	next
}

insection && tap != "" {
	npoints++
	if (tap_skip) {
		nskip++
		if (skip_allowed($0))
			skipped[row]++
		else {
			nfail++
			failure(row, sectname ": " $0 ": a skip the plan does not allow")
		}
	} else if (tap == "ok") {
		npass++
		passed[row]++
	} else if ((abi " " test " " point_name($0)) in known) {
		if (pristine_fails(point_name($0))) {
			knownfail[row]++
			nknown++
			nknown_here++
		} else {
			nfail++
			failure(row, sectname ": " $0 ": a known failure, but " pristine_log \
				" (the pristine kernel) does not show it")
		}
	} else {
		nfail++
		failure(row, sectname ": " $0)
	}
	next
}

# A kernel message written into a test's line: what the line said is lost
# (a 'not ok' so split reads as 'ok'), so the section fails.
insection && kind == "" && run_arch != "host" && !/^#/ && /\[ *[0-9]+\.[0-9]+\] / &&
    !/^(<[0-9]+>)?\[ *[0-9]+\.[0-9]+\]/ {
	failure(row, sectname ": a kernel message split a TAP line: " $0)
}

# The kernel's own line, the first of its kind, printed before /init ran:
# a test can write to the console (/dev/kmsg), but only later.
in_console && !smp_line && /^(<[0-9]+>)?\[ *[0-9]+\.[0-9]+\] smp: Brought up / {
	smp_line = 1
	if (smp != "" && index($0, smp))
		smp_seen = 1
}

# The kernel must not complain, on the console, in a test's '#' lines (a
# report the test copied, or a kernel line written into one) or in the
# dumped log: every pattern of the trouble list, on every guest.
run_arch != "host" {
	for (i = 1; i <= nt; i++)
		if ($0 ~ tre[i]) {
			line = $0
			sub(/^#[ \t]*/, "", line)
			sub(/^<[0-9]+>/, "", line)
			sub(/^\[ *[0-9.]+\] */, "", line)
			if (!((i, line) in bad_seen)) {
				bad_seen[i, line] = 1
				failure(arch, "kernel trouble (" tname[i] "): " line)
			}
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
		printf "%d known failure%s, which the pristine kernel shows too (%s)\n", nknown, (nknown > 1 ? "s" : ""), planfile
	if (tp + tf == 0 && nfailures == 0) {
		print "FAILED: no test ran"
		tf = 1
	}
	printf "the plan (%s) for these logs: %d passed, 0 failed, %d skipped\n", planfile,
		planned_pass - planned_skip - nknown, planned_skip
	printf "%d passed, %d failed, %d skipped\n", tp, tf, ts
	exit tf > 0
}
