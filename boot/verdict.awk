# awk -v planfile=boot/plan/logs -v trouble=boot/plan/trouble [-v known_bases="B..."] \
#     [-v known_arches="A..."] [-v smp_ok="ARCH=LINE;..."] [-v base_kv="BASE=VERSION;..."] \
#     -f boot/console.awk -f boot/verdict.awk LOG...
#
# Judge guest (and host check) logs written by boot/run.sh against the
# plan: what each log must hold (boot/plan/logs: its sections in order,
# the TAP points of each, the skips allowed there, each bound to its point
# and reason, the known failures) and what the kernel must never say
# (boot/plan/trouble). Fails closed. Each failure names the log, the
# section, the TAP line and the rule it breaks:
# - the log: a log the plan has no entry for, a RUN line that does not
#   match the file's name and folder (a host log SUITE-ARCH.log whose cases
#   name another arch), a second RUN or /init, no @@@ DONE;
# - sections: one missing, extra, repeated or out of order, or ended with a
#   status other than an exit code the TAP explains (a timeout, a signal);
# - TAP, read as TAP 13/14 and kselftest write it: one plan per stream
#   (the section's own, and each nested one: kselftest's runner prints each
#   test's TAP indented by '# ', TAP 14 by four blanks), at its start or
#   its end; points numbered from 1, in order, each once, as many as the
#   plan says; a nested stream without a plan only with kselftest's
#   "Totals:" line counting its points; a nested stream a forked child
#   printed again (its plan, then the same points line for line: upstream
#   pidfd_test's stdio buffer, copied by fork(); from its TAP version if the
#   copy ended at a line's end, while the stream is short of its plan) read once; 'ok N ... # SKIP reason' is the only
#   skip and is allowed only where the plan names its point and reason
#   (POINT - for the section's '1..0 # SKIP'; a nested '1..0' is a skip,
#   and one without a SKIP reason no plan line allows); 'not ok' at any depth, a
#   TODO, XFAIL or XPASS directive, a directive without a blank before
#   its '#' ('ok 1 d#SKIP'), 'Bail out!', a TAP point outside a
#   section, a TAP line split by a kernel message each fail;
# - a known failure (plan 'known' lines) excuses one point, at the
#   section's own level, never the failures nested under it, only if it
#   failed cleanly ('not ok' with no directive, the test exited with 1)
#   and the pristine kernel's log beside it (ARCH-pristine.log), a
#   complete log of the same base, arch and suite without kernel
#   trouble, another boot (INIT's boot id) of another build (its dump's
#   and console's banner) of the same version, fails that point as
#   cleanly in its section (not on its console; a crash, a timeout or
#   any status but 1 there excuses nothing);
# - each ABI's identity: its hello section (boot/guest-tests/hello.c) says
#   its binary's word size and uname(2)'s release and machine, which must
#   be the ABI's (abi_rec, from its arch's record: BITS_ABI, UNAME_MACHINE)
#   and the kernel banner's version;
# - the guest's identity: the RUN line's smp= (the line the kernel prints
#   with every CPU up) must be the arch record's (smp_ok, from boot/lib.sh
#   SMP_OK), the log must hold /init's '@@@ INIT suite=SUITE' of its
#   suite once, and the kernel's console must say it and 'Run /init as init
#   process', the first of their kind;
# - the boot: /init's INIT line carries the kernel's boot id (boot_id=), the
#   kernel-log dump's BEGIN line the same, and the console and the dump
#   each hold /init's record 'init: boot_id=' of it (the first of its
#   kind, on the console after /init ran) and the same 'Linux version'
#   banner (the first of its kind), whose version is the base record's
#   KERNEL_VERSION (base_kv): no console of another boot or kernel, no
#   dump of another boot;
# - the kernel's log, dumped by /init (@@@ KLOG BEGIN ... END) after the
#   last test: there, once, complete, of records only, read without error
#   (@@@ KLOG ERROR: /init says so for a record lost to the ring too),
#   holding /init's record written just before it read the log to its end
#   ('init: dumping the kernel log, boot_id=' this boot's), the same two lines and every line the trouble
#   list needs for the log's suite (the debug flavour's checkers);
# - kernel trouble: a line anywhere in a guest's log (console, dump, a
#   test's '#' lines) that matches a pattern of boot/plan/trouble.
# Prints a matrix of arch/ABI x passed/failed/skipped, then every failure
# as "FAILED ROW: LOG: ARCH: what (log: PATH)", the plan's counts for these
# logs, and last 'N passed, N failed, N skipped'. Exits 1 if anything
# failed or nothing ran. Every LOG named is expected: one that is missing,
# empty, or lacks its '@@@ DONE' is a failure. The log format, and the
# variables its parser sets for the rules below, are in boot/console.awk.

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
function read_plan(   line, f, n, i) {
	while ((getline line < planfile) > 0) {
		sub(/#.*/, "", line)
		sub(/^[ \t]+/, "", line)
		sub(/[ \t]+$/, "", line)
		if (line == "")
			continue
		n = split(line, f, /[ \t]+/)
		if (f[1] == "ci" || f[1] == "weekly")	# CI's steps: boot/plan/query.sh reads them
			continue
		np++
		ptype[np] = f[1]; pbase[np] = f[2]; parch[np] = f[3]; psuite[np] = f[4]
		pabi[np] = f[5]; pname[np] = f[6]; ppoint[np] = f[7]
		prest[np] = ""
		for (i = 8; i <= n; i++)
			prest[np] = prest[np] (i > 8 ? " " : "") f[i]
		if (!(ptype[np] == "section" && n == 7 && f[7] ~ /^[0-9]+$/ ||
		    (ptype[np] == "skip" || ptype[np] == "known") && n >= 8)) {
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
		n = split(line, f, "\t")
		if (f[1] == "need" && n == 5) {
			nneed++
			need_suite[nneed] = f[2]; need_name[nneed] = f[3]; need_re[nneed] = f[4]
		} else if (f[1] != "need" && n == 3 && f[2] != "") {
			nt++
			tname[nt] = f[1]
			tre[nt] = f[2]
			tre_all = tre_all (nt > 1 ? "|" : "") "(" f[2] ")"
		} else {
			print "verdict.awk: " trouble ": bad line: " line > "/dev/stderr"
			bad_plan = 1
		}
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
# their points, skips (point and reason) and known failures.
function load_log_plan(   i, k) {
	nwant = 0
	delete want; delete want_points; delete want_skips; delete want_at
	delete allow_point; delete allow_reason; delete known
	for (i = 1; i <= np; i++) {
		if (!plan_matches(i))
			continue
		k = pabi[i] " " pname[i]
		if (ptype[i] == "section") {
			want[++nwant] = k
			want_at[k] = nwant
			want_points[k] = ppoint[i]
		} else if (ptype[i] == "skip") {
			want_skips[k]++
			allow_point[k, want_skips[k]] = ppoint[i]
			allow_reason[k, want_skips[k]] = prest[i]
		} else {
			known[k " " ppoint[i]] = 1
		}
	}
}

function start_file() {
	file = FILENAME
	short = basename(file)
	arch = run_arch = run_base = run_suite = ""
	runseen = done = insection = smp_seen = smp_line = ninit = console_seen = 0
	init_seen = console_restart = 0
	init_boot = klog_boot = klog_bootrec = console_bootrec = klog_banner = console_banner = ""
	console_last = klog_endrec = ""
	klog_begins = klog_ends = in_klog = klog_records = klog_smp = klog_init = 0
	smp = ""
	smp_given = 0
	delete seen_count; delete bad_seen; delete group_count
	delete used; delete known_used; delete klog_need; delete hello_release
	planned_log = 0
	last_at = 0
}

# What the log's name says: ARCH-SUITE.log for a guest, SUITE.log or
# SUITE-ANYTHING.log for a host check (SUITE-ARCH.log: that arch's, its
# cases named ARCH-...).
function check_header(   name, i, h, d) {
	name = short
	sub(/\.log$/, "", name)
	host_for = ""
	if (run_arch == "host") {
		if (name != run_suite && index(name, run_suite "-") != 1)
			failure(arch, "the log says suite=" run_suite ", its name " short)
		else if (substr(name, length(run_suite) + 2) in arches)
			host_for = substr(name, length(run_suite) + 2)
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
	close_streams(0)
	unbound_nested_skips()
	flush_nested()
	insection = 0
}

# A section's BEGIN: where it stands against the plan.
function begin_section(k) {
	seen_count[k]++
	if (host_for != "" && index(test, host_for "-") != 1)
		failure(row, sectname ": a case of " short " must be " host_for "'s (" host_for "-...): the log is of another arch")
	if (!planned_log)
		return
	if (seen_count[k] > 1) {
		failure(row, sectname ": a second time (the plan has each section once: " planfile ")")
		return
	}
	if (!(k in want_at) && !((abi " *") in want_at)) {
		failure(row, sectname ": not in the plan (" planfile ")")
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
	close_streams(0)
	unbound_nested_skips()
	flush_nested()
	if (st_plan[0] < 0)
		failure(row, sectname ": no TAP plan (exit status " status ")")
	else if (npoints != st_plan[0])
		failure(row, sectname ": TAP plan says " st_plan[0] " tests, " npoints " reported")
	if (planned_log) {
		if ((abi " *") in want_at)
			expect = 1
		else if (k in want_points)
			expect = want_points[k]
		else
			expect = ""
		if (expect != "" && npoints != expect)
			failure(row, sectname ": " npoints " TAP points, the plan says " expect " (" planfile ")")
		for (i = 1; i <= want_skips[k]; i++)
			if (!((k, i) in used))
				failure(row, sectname ": the planned skip of point " allow_point[k, i] \
					" did not happen (" planfile ")")
	}
	# A test that did not end with an exit code (a timeout, a signal, its
	# program missing) fails, whatever its TAP said; a known failure is
	# not a clean one then.
	if (status !~ /^[0-9]+$/) {
		failure(row, sectname ": ended with status " status ": not an exit code (a timeout, a signal, a missing program), whatever its TAP said")
		for (i = 1; i <= nknown_here; i++)
			failure(row, sectname ": " known_line[i] ": a known failure, but not a clean one (the test ended with status " status ")")
		return
	}
	# A known failure is a test that said 'not ok' and exited with 1, as
	# kselftest (KSFT_FAIL) and its runner do when a test fails; a shell's
	# 128+N (killed by signal N), timeout(1)'s 124, or any other status is
	# not a clean failure.
	if (status != "1")
		for (i = 1; i <= nknown_here; i++)
			failure(row, sectname ": " known_line[i] ": a known failure, but not a clean one (the test ended with status " status ")")
	all_skipped = st_plan[0] == 0 || (npoints > 0 && nskip == npoints)
	# A non-zero exit the TAP already explains is not counted again.
	if (status != "0" && !(status == "4" && all_skipped) && nfail == 0 && nknown_here == 0)
		failure(row, sectname ": exited with status " status ", which no failed or skipped point explains")
}

# The directive of a TAP point: the word after its ' #' that starts with
# SKIP or TODO, any case (TAP 14: "# SKIP\S*\s+", so '# Skipped: why' and
# '# SKIPPED why' are skips), or is XFAIL, XPASS or TIMEOUT (kselftest.h,
# kselftest/runner.sh), as SKIP, TODO, XFAIL, XPASS, TIMEOUT, or "".
function directive(l,   d) {
	d = ""
	if (match(l, /[ \t]#[ \t]*[Ss][Kk][Ii][Pp]/))
		d = "SKIP"
	else if (match(l, /[ \t]#[ \t]*[Tt][Oo][Dd][Oo]/))
		d = "TODO"
	else if (match(l, /[ \t]#[ \t]*(XFAIL|XPASS|TIMEOUT)([^A-Za-z]|$)/)) {
		d = substr(l, RSTART, RLENGTH)
		sub(/^[ \t]#[ \t]*/, "", d)
		d = substr(d, 1, 5) == "XFAIL" ? "XFAIL" : substr(d, 1, 5) == "XPASS" ? "XPASS" : "TIMEOUT"
	}
	return d
}

# The reason of a skip: the text after its SKIP word (TAP 14: SKIP\S*, so
# 'Skipped:' is the word), blanks squeezed, none at either end.
function skip_reason(l) {
	match(l, /[ \t]#[ \t]*[Ss][Kk][Ii][Pp][^ \t]*/)
	l = substr(l, RSTART + RLENGTH)
	gsub(/[ \t]+/, " ", l)
	sub(/^ /, "", l)
	sub(/ $/, "", l)
	return l
}

# A skip (a point, or the plan's POINT -; a nested one named by the
# points it is nested under, PARENT>POINT): allowed if an unused planned
# skip of this section names that point and its reason R is the text
# after SKIP, all of it (the real logs' skips end with the plan's reason).
function skip_allowed(name, r,   k, i) {
	k = abi " " test
	for (i = 1; i <= want_skips[k]; i++)
		if (!((k, i) in used) && allow_point[k, i] == name && r == allow_reason[k, i]) {
			used[k, i] = 1
			return 1
		}
	return 0
}

# TAP streams of a section by depth (0: the section's own; d: nested d
# times): its plan (-1: none yet), the points before it, its points, and
# kselftest's Totals count. close_streams(D) closes every stream deeper
# than D.
function open_stream(d) {
	if (d > maxdepth)
		maxdepth = d
	st_open[d] = 1
	st_plan[d] = -1
	st_n[d] = st_before[d] = st_bad[d] = st_version[d] = 0
	st_totals[d] = -1
	st_run[d] = st_plan_line[d] = ""
	st_replay[d] = st_pending[d] = 0
}

function close_streams(d,   i) {
	for (i = maxdepth; i > d; i--)
		if (st_open[i])
			end_stream(i)
	if (maxdepth > d)
		maxdepth = d
}

# The nested stream at depth i ends: its points against its plan.
function end_stream(i) {
	st_open[i] = 0
	if (st_plan[i] < 0 && st_n[i] > 0 && st_totals[i] != st_n[i])
		nested_failure("nested TAP: " st_n[i] " points without a plan (nor kselftest's Totals line counting them)")
	else if (st_plan[i] >= 0 && st_n[i] != st_plan[i])
		nested_failure("nested TAP: the plan says " st_plan[i] " points, " st_n[i] " reported")
}

# A failure nested in the section's point to come: held until that point,
# so that it is named. Always a failure, under a known failure too: the
# plan's known line excuses its point only (fail closed: the pristine
# log's nested failures are not compared line for line).
function nested_failure(what) {
	pending[++npending] = what
}

function flush_nested(   i) {
	for (i = 1; i <= npending; i++)
		failure(row, sectname ": " pending[i] (insection && kind == "" ? " (nested under: " $0 ")" : ""))
	npending = 0
}

# A skip nested d levels down (a point's SKIP, or its stream's '1..0 #
# SKIP', POINT -): held until the points it is nested under come (kselftest
# prints a test's TAP, then its runner's point for it), which name it
# PARENT>POINT, from the section's own point down; then it is a skip
# the plan must allow, bound to that point and its reason, as a point of
# the section's own is. It counts as no skip of the matrix: its section's
# point counts, as a pass; but a whole stream's skip right under the
# section's point (PARENT>-, its test did nothing) makes that point a
# skip, and the reasonless 'ok N ... # SKIP' kselftest's runner prints
# for it (runner.sh run_one(), after the test's exit 4) is that same
# skip, counted once (stream_skip, below).
function nested_skip(d, name, line, reason) {
	nskipped++
	nsk_level[nskipped] = d
	nsk_name[nskipped] = name
	nsk_line[nskipped] = line
	nsk_reason[nskipped] = reason
}

# The point NAME at depth d came: the skips held one level below it are
# nested under it; at the section's level they are judged. One held
# deeper than that has no point of its own at d + 1.
function bind_nested_skips(d, name,   i) {
	stream_skip = 0	# 1: a whole stream's skip the plan allows is bound to NAME; 2: one it does not
	for (i = 1; i <= nskipped; i++) {
		if (nsk_level[i] < 0 || nsk_level[i] <= d)
			continue
		if (nsk_level[i] > d + 1) {
			nsk_level[i] = -1
			nested_failure(nsk_line[i] ": a skip nested under no point at depth " d + 1 " (TAP: a stream is its parent point's, before it)")
			continue
		}
		nsk_name[i] = name ">" nsk_name[i]
		nsk_level[i] = d
		if (d > 0)
			continue
		nsk_level[i] = -1
		if (nsk_reason[i] == "")
			nested_failure(nsk_line[i] ": a plan of 0 points without a SKIP reason: a skip of its stream (TAP) that no plan line can allow (point " nsk_name[i] ", " planfile ")")
		else if (!skip_allowed(nsk_name[i], nsk_reason[i]))
			nested_failure(nsk_line[i] ": a skip the plan does not allow (point " nsk_name[i] ", " planfile ")")
		else {
			if (nsk_name[i] == name ">-")
				stream_skip = 1
			continue
		}
		if (nsk_name[i] == name ">-")
			stream_skip = 2
	}
}

# The section ends: a skip still held was nested under no point of it.
function unbound_nested_skips(   i) {
	for (i = 1; i <= nskipped; i++)
		if (nsk_level[i] >= 0)
			failure(row, sectname ": " nsk_line[i] ": a skip nested under no point of the section (TAP: a stream is its parent point's, before it)")
	nskipped = 0
}

# A failure of the TAP line at depth d: held if nested
function tap_fail(d, what) {
	if (d)
		nested_failure($0 (what == "" ? "" : ": " what))
	else
		failure(row, sectname ": " $0 (what == "" ? "" : ": " what))
}

# A TAP line of a section at depth d (content c, its nesting prefixes
# removed).
function tap_line(d, c,   num, due, name, dir, k, why) {
	if (c ~ /^TAP version [0-9]+$/) {
		close_streams(d)
		if (!st_open[d])
			open_stream(d)
		if (st_version[d] || st_plan[d] >= 0 || st_n[d]) {
			if (d == 0) {
				failure(row, sectname ": " $0 ": a second TAP stream in one section")
				return
			}
			# a forked child's copy of the stream (upstream pidfd_test)
			# whose last buffer ended at a line's end: the parent's
			# stream again, from its TAP version, while the open one
			# is short of its plan; a replay if that plan comes next
			if (d > 0 && st_plan[d] >= 0 && st_before[d] == 0 && st_n[d] < st_plan[d] &&
			    !st_replay[d] && !st_pending[d]) {
				st_pending[d] = 1
				return
			}
			# a new nested stream ends the one open at its depth,
			# which is checked as any other end checks it
			end_stream(d)
			open_stream(d)
		}
		st_version[d] = 1
		return
	}
	close_streams(d)
	if (!st_open[d])
		open_stream(d)
	# after a replay's TAP version, anything but the stream's plan again
	# starts a new stream, as a TAP version does
	if (st_pending[d]) {
		st_pending[d] = 0
		if (c != st_plan_line[d]) {
			end_stream(d)
			open_stream(d)
			st_version[d] = 1
		}
	}
	if (c ~ /^1\.\.[0-9]+/) {
		# a forked child's copy of the stream's stdio buffer (upstream
		# pidfd_test): the same plan again, then the same points, line
		# for line, read once
		if (d > 0 && st_plan[d] >= 0 && c == st_plan_line[d] && st_before[d] == 0 && !st_replay[d]) {
			st_replay[d] = st_n[d]
			st_n[d] = 0
			return
		}
		if (st_plan[d] >= 0) {
			tap_fail(d, "a second TAP plan")
			return
		}
		st_plan_line[d] = c
		st_plan[d] = substr(c, 4) + 0
		st_before[d] = st_n[d]
		# a nested plan of 0 points is a skip of its stream, SKIP or
		# not (TAP: "1..0" skips it; kselftest_harness.h prints a bare
		# "1..0" when no test is registered): the plan must allow it
		if (d > 0 && c ~ /[ \t]#[ \t]*[Ss][Kk][Ii][Pp]/) {
			if (st_plan[d] != 0)
				nested_failure($0 ": a plan of more than 0 points that says SKIP")
			else
				nested_skip(d, "-", $0, skip_reason(c))
		} else if (d > 0 && st_plan[d] == 0) {
			nested_skip(d, "-", $0, "")
		} else if (d == 0 && c ~ /[ \t]#[ \t]*[Ss][Kk][Ii][Pp]/) {
			if (st_plan[d] != 0)
				failure(row, sectname ": " $0 ": a plan of more than 0 points that says SKIP")
			else if (skip_allowed("-", skip_reason(c)))
				skipped[row]++
			else
				failure(row, sectname ": " $0 ": a skip the plan does not allow (point -, " planfile ")")
		}
		return
	}
	if (c ~ /^Bail out!/) {
		tap_fail(d, "the test gave up (TAP's Bail out!)")
		return
	}
	# a point
	if (c !~ /^(not )?ok [0-9]+([ \t]|$)/) {
		tap_fail(d, "a TAP point without its number")
		if (d == 0)
			nfail++
		return
	}
	num = c
	sub(/^(not )?ok /, "", num)
	sub(/[^0-9].*/, "", num)
	num += 0
	due = st_n[d] + 1
	st_n[d]++
	if (st_replay[d] >= due) {
		if (num != due || c != st_line[d, due])
			tap_fail(d, "not the line " due " of the stream that its second plan repeats")
		return
	}
	st_line[d, due] = c
	if (num != due && !st_bad[d]) {
		st_bad[d] = 1
		tap_fail(d, "point " num ", but " due " is due (points count from 1, in order, each once)")
	}
	if (st_plan[d] >= 0 && st_before[d] > 0)
		tap_fail(d, "a point after the plan that ends the stream")
	# A directive glued to the description ('ok 1 desc#SKIP why', 'ok 1
	# desc#TODO x'): TAP::Parser takes the first '#' followed by blanks
	# and SKIP or TODO as a directive, KTAP forbids a '#' in a
	# description, and neither kselftest nor our tests write one. One
	# reader sees a skip (which the plan would have to allow), another a
	# pass: fail closed, a point that is neither.
	if (c ~ /[^ \t]#[ \t]*([Ss][Kk][Ii][Pp]|[Tt][Oo][Dd][Oo])/) {
		if (d == 0) {
			npoints++
			nfail++
			flush_nested()
		}
		tap_fail(d, "a directive without a blank before its '#' (TAP::Parser reads a directive, KTAP allows no '#' in a description): neither a pass nor a skip")
		return
	}
	dir = directive(c)
	name = point_name(c, st_run[d])
	st_run[d] = ""	# a nameless point takes the RUN line just before it, once
	bind_nested_skips(d, name)
	if (d > 0) {
		if (c ~ /^not ok/)
			nested_failure($0 ": not ok")
		else if (dir != "" && dir != "SKIP")
			nested_failure($0 ": not a pass (# " dir ")")
		else if (dir == "SKIP")
			nested_skip(d, name, $0, skip_reason(c))
		return
	}
	npoints++
	k = abi " " test
	# the point whose whole nested stream skipped: a skip, its own
	# (the runner's) '# SKIP' without a reason the same one, counted once
	if (stream_skip && c ~ /^ok/ && (dir == "" || (dir == "SKIP" && skip_reason(c) == ""))) {
		nskip++
		if (stream_skip == 1)
			skipped[row]++
		else
			nfail++	# the nested skip's failure says why
		flush_nested()
		return
	}
	if (c ~ /^not ok/ && dir == "SKIP") {
		nfail++
		flush_nested()
		failure(row, sectname ": " $0 ": not ok, whatever its SKIP says (TAP)")
	} else if (dir == "SKIP") {
		nskip++
		flush_nested()
		if (skip_allowed(name, skip_reason(c)))
			skipped[row]++
		else {
			nfail++
			failure(row, sectname ": " $0 ": a skip the plan does not allow (point " name ", " planfile ")")
		}
	} else if (c ~ /^ok/ && dir != "") {
		nfail++
		flush_nested()
		failure(row, sectname ": " $0 ": not a pass (# " dir "; only SKIP is a directive the verdict takes)")
	} else if (c ~ /^ok/) {
		npass++
		passed[row]++
		flush_nested()
	} else if ((k " " name) in known && !((k " " name) in known_used)) {
		known_used[k " " name] = 1
		if (dir != "") {
			nfail++
			flush_nested()
			failure(row, sectname ": " $0 ": a known failure, but not a clean one (" \
				(dir == "TIMEOUT" ? "it timed out" : "# " dir) ")")
		} else if ((why = pristine_fails(name)) == "") {
			knownfail[row]++
			nknown++
			known_line[++nknown_here] = $0
			flush_nested()
		} else {
			nfail++
			flush_nested()
			failure(row, sectname ": " $0 ": a known failure, but " why)
		}
	} else {
		nfail++
		flush_nested()
		failure(row, sectname ": " $0 ": a failed point (not ok)")
	}
}

# Does the pristine kernel's log beside this one fail the point NAME of
# this section cleanly? "" if it does, else why not. That log must be a
# complete one of this base, arch and suite, without kernel trouble (the
# trouble list on every line, console too: a kernel that oopsed excuses
# nothing); only its test channel counts for the point, not its console.
function pristine_fails(name,   p, line, in_it, hit, runl, done_p, cons, tok, rn, why, bad, i,
    in_k, p_boot, p_kban, p_cban, own) {
	p = dirname(file) "/" run_arch "-pristine.log"
	hit = done_p = cons = in_k = 0
	runl = rn = st = bad = p_boot = p_kban = p_cban = ""
	while ((getline line < p) > 0) {
		sub(/\r+$/, "", line)
		if (bad == "" && line ~ tre_all)
			for (i = 1; i <= nt; i++)
				if (line ~ tre[i]) {
					bad = p " shows kernel trouble (" tname[i] "): " line
					break
				}
		if (cons) {
			if (p_cban == "" && line ~ /^(<[0-9]+>)?\[ *[0-9]+\.[0-9]+\] Linux version /)
				p_cban = banner_of(line)
			continue
		}
		# its identity: the boot (/init's INIT line), the kernel (the
		# dump's banner)
		if (line ~ /^@@@ INIT suite=[^ ]+ boot_id=/ && p_boot == "")
			p_boot = substr(line, index(line, " boot_id=") + 9)
		else if (line ~ /^@@@ KLOG BEGIN/)
			in_k = 1
		else if (line ~ /^@@@ KLOG END/)
			in_k = 0
		else if (in_k && p_kban == "" && line ~ /^<[0-7]>\[ *[0-9]+\.[0-9]+\] Linux version /)
			p_kban = banner_of(line)
		if (runl == "") {
			runl = line
			tok = line
			if (match(tok, / console=[^ ]+/))
				tok = substr(tok, RSTART + 9, RLENGTH - 9)
			else
				tok = ""
			continue
		}
		if (line ~ /^@@@ CONSOLE / && tok != "" && substr(line, 13) ~ ("^[^ ]+ " tok "$")) {
			cons = 1
			continue
		}
		if (line == "@@@ DONE")
			done_p = 1
		else if (line ~ /^@@@ HOST /)
			why = p " is not complete: " line
		else if (line == "@@@ BEGIN " abi " " test) {
			in_it = 1
			rn = ""
		} else if (line ~ /^@@@ END /) {
			# a clean failure, as this log's side must be (below):
			# the test exited with 1, not a crash (a shell's 128+N),
			# timeout(1)'s 124 or any other status
			if (in_it && hit && line !~ / status=1$/)
				hit = 0
			in_it = 0
		} else if (in_it && line ~ /^# +RUN +[^ ]+ \.\.\.$/) {
			rn = line
			sub(/^# +RUN +/, "", rn)
			sub(/ \.\.\.$/, "", rn)
		} else if (in_it && line ~ /^not ok [0-9]+/ && point_name(line, rn) == name && directive(line) == "")
			hit = 1
	}
	close(p)
	if (runl == "")
		return p " (the pristine kernel's log) is not there or empty"
	if (index(runl, "@@@ RUN base=" run_base " arch=" run_arch " suite=" run_suite " ") != 1)
		return p " is not the pristine log of base " run_base ", arch " run_arch ", suite " run_suite ": " runl
	if (match(runl, / only=[^ ]+/) && index("," substr(runl, RSTART + 6, RLENGTH - 6) ",", "," test ",") == 0)
		return p " ran only " substr(runl, RSTART + 6, RLENGTH - 6) ", not " test \
			" (PRISTINE_TESTS in boot/checks/baseline.sh: a known failure's test must be among them)"
	if (why != "")
		return why
	if (bad != "")
		return bad
	if (!done_p || !cons)
		return p " is not complete (no @@@ DONE or no console): cut short"
	# another boot of another build of the same version: not this log
	# again, nor this kernel booted twice
	own = own_banner()
	if (p_boot == "" || p_boot == init_boot)
		return p " is not another boot (its INIT line's boot_id=" p_boot ", this log's " init_boot \
			"): not the pristine kernel's log"
	if (p_kban == "" || p_kban != p_cban)
		return p " does not show one kernel in its kernel-log dump and its console ('" p_kban "', '" p_cban "')"
	if (own == "" || p_kban == own)
		return p " is of this log's kernel (its banner '" p_kban "'): not the pristine kernel's"
	if (version_of(p_kban) != version_of(own))
		return p " is of kernel " version_of(p_kban) ", this log's " version_of(own) ": not the same version"
	if (!hit)
		return p " (the pristine kernel) does not show it in " abi " " test ", failing cleanly ('not ok' without a directive, the test's status 1)"
	return ""
}

# A "Linux version ..." record's text; its version word.
function banner_of(l) {
	sub(/^(<[0-9]+>)?\[ *[0-9]+\.[0-9]+\] /, "", l)
	return l
}
function version_of(b,   w) {
	split(b, w, " ")
	return w[3]
}

# This log's kernel: the first banner of its kernel-log dump (which comes
# after the sections, so read ahead here; finish_file() holds it against
# the console's).
function own_banner(   line, in_k, b) {
	in_k = 0
	b = ""
	while ((getline line < file) > 0) {
		sub(/\r+$/, "", line)
		if (line ~ /^@@@ KLOG BEGIN/)
			in_k = 1
		else if (line ~ /^@@@ (KLOG END|CONSOLE )/)
			in_k = 0
		else if (in_k && line ~ /^<[0-7]>\[ *[0-9]+\.[0-9]+\] Linux version /) {
			b = banner_of(line)
			break
		}
	}
	close(file)
	return b
}

function finish_file(   i, k, kf, expect) {
	if (file == "")
		return
	close_section()
	if (!runseen)
		failure(arch, "not a boot/run.sh log")
	else if (!done)
		failure(arch, "the guest did not reach its end (@@@ DONE missing; " \
			(console_seen ? "the kernel console is at the end of the log)" : "no kernel console either)"))
	if (runseen && run_arch != "host") {
		if (!console_seen)
			failure(arch, "no kernel console (@@@ CONSOLE): boot/run.sh appends it when QEMU ends")
		# who the guest was: the CPUs its arch's record asks for, and /init
		expect = (run_arch in smp_want) ? smp_want[run_arch] : ""
		if (!smp_given)
			failure(arch, "the RUN line has no smp= (the line the kernel prints with the arch's CPUs up)")
		else if (expect != "" && smp != expect)
			failure(arch, "the RUN line says smp=" smp ", the arch's record '" expect "' (boot/arch/" run_arch "/arch.conf)")
		if (expect == "")
			expect = smp
		if (expect == "" && !(run_arch in smp_want))
			failure(arch, "no CPU count for arch " run_arch " (no boot/arch/" run_arch "/arch.conf)")
		if (smp != "" && !smp_seen)
			failure(arch, "the kernel did not say '" smp "': fewer CPUs than asked for")
		if (!ninit)
			failure(arch, "no '@@@ INIT suite=" run_suite "' line: /init writes it once, when it starts")
		if (console_seen && !init_seen)
			failure(arch, "the kernel's console has no 'Run /init as init process' after its CPUs came up")
		# one boot, one kernel: the channel's, the dump's, the console's
		# the guest's end: /init's reboot(RB_AUTOBOOT), the kernel's
		# kernel_restart() (kernel/reboot.c, pr_emerg "reboot: Restarting
		# system", both bases), after /init's boot-id record; a console
		# that stops before (a guest that reset or hung without a word,
		# a console cut short) does not show the end. It need not be the
		# console's last record: until machine_restart() stops the other
		# CPU, that CPU may still print, and these lines of both trees are
		# not trouble (none matches boot/plan/trouble): x86
		# native_machine_restart()'s pr_notice "reboot: machine restart"
		# (arch/x86/kernel/reboot.c); kernel/time/hrtimer.c
		# hrtimer_interrupt()'s pr_warn_once "hrtimer: interrupt took %llu
		# ns" (a vCPU the host stalled); arch/arm64/kernel/smp.c
		# smp_send_stop()'s pr_warn "SMP: failed to stop secondary CPUs
		# %*pbl" and arch/x86/kernel/smp.c native_stop_other_cpus()'s
		# pr_emerg "Shutting down cpus with NMI" (the other CPU missed
		# the stop for 1 s, as a loaded host's TCG vCPU can). What follows
		# the restart is held to the trouble patterns, as every line is.
		if (console_seen && console_restart != 1)
			failure(arch, "the kernel's console has no 'reboot: Restarting system' after /init's boot-id record (/init's reboot, kernel/reboot.c kernel_restart()): " \
				(console_restart ? "only before it" (console_bootrec == "" ? " (there is none)" : "") : \
				console_last == "" ? "no kernel record" : "its last record is '" console_last "'") ": the guest did not reach its restart")
		if (console_seen && console_banner == "")
			failure(arch, "the kernel's console has no 'Linux version' banner")
		if (klog_begins && klog_banner == "")
			failure(arch, "the kernel-log dump has no 'Linux version' banner")
		if (console_banner != "" && klog_banner != "" && console_banner != klog_banner)
			failure(arch, "the kernel's console is of another kernel: its banner '" console_banner \
				"', the kernel-log dump's '" klog_banner "'")
		kv = (run_base in base_version) ? base_version[run_base] : ""
		if (console_banner != "" && kv != "" && (index(console_banner, "Linux version " kv) != 1 ||
		    substr(console_banner, length("Linux version " kv) + 1, 1) ~ /[0-9]/))
			failure(arch, "the kernel's console says '" console_banner "': not the kernel of base " \
				run_base " (KERNEL_VERSION=" kv ", boot/base/" run_base "/base.conf)")
		if (ninit && init_boot != "") {
			if (klog_begins && klog_boot != init_boot)
				failure(arch, "the kernel-log dump is of boot_id=" klog_boot ", /init's INIT line of boot_id=" \
					init_boot ": a dump of another boot")
			if (klog_begins && klog_bootrec != init_boot)
				failure(arch, "the kernel-log dump has no record 'init: boot_id=" init_boot "'" \
					(klog_bootrec == "" ? "" : " (its first is of boot_id=" klog_bootrec ")") ": a dump of another boot")
			if (console_seen && console_bootrec != init_boot)
				failure(arch, "the kernel's console has no 'init: boot_id=" init_boot "' after /init ran" \
					(console_bootrec == "" ? "" : " (its first is of boot_id=" console_bootrec ")") \
					": a console of another boot")
		}
		# the release uname(2) told each ABI's hello: the banner's
		for (i in hello_release)
			if ((console_banner != "" || klog_banner != "") &&
			    hello_release[i] != version_of(klog_banner != "" ? klog_banner : console_banner))
				failure(arch "/" i, i " hello: uname(2) says release " hello_release[i] ", the kernel's banner '" \
					(klog_banner != "" ? klog_banner : console_banner) "': another kernel")
		# the kernel's log, as /init dumped it
		if (!klog_begins)
			failure(arch, "no kernel-log dump (@@@ KLOG BEGIN ... END): /init writes it after the last test")
		else {
			if (!klog_ends)
				failure(arch, "the kernel-log dump has no end (@@@ KLOG END)")
			if (!klog_records)
				failure(arch, "the kernel-log dump is empty")
			if (!klog_init)
				failure(arch, "the kernel-log dump has no 'Run /init as init process'")
			# /init's own record, written after the last test, just
			# before it reads the log to its end (boot/image/init.c
			# dump_kernel_log(), which says in a KLOG ERROR line any
			# record lost to the ring: a gap in the kernel's SEQ
			# numbers): without it the dump is cut short, its records
			# of the tests' time missing. The dump is the kernel's
			# whole log; the console is not held against it (it
			# shows only the records of its level, in its own form)
			if (klog_endrec != init_boot || init_boot == "")
				failure(arch, "the kernel-log dump has no record '" KLOG_END_RECORD init_boot \
					"' (/init writes it after the last test, then dumps the log to its end): a dump cut short" \
					(klog_endrec == "" ? "" : " (its record is of boot_id=" klog_endrec ")"))
			if (expect != "" && !klog_smp)
				failure(arch, "the kernel-log dump has no '" expect "'")
			for (i = 1; i <= nneed; i++)
				if (need_suite[i] == run_suite && !(i in klog_need))
					failure(arch, "the kernel-log dump has no '" need_re[i] "' (" need_name[i] \
						": boot/plan/trouble needs it in every " run_suite " log)")
		}
	}
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
			if (plan_matches(i) && ptype[i] == "skip" && ppoint[i] ~ /^[^>]+(>-)?$/)
				planned_skip++	# a point's skip, or its whole stream's (above)
			else if (plan_matches(i) && ptype[i] == "section" && pname[i] == "*")
				planned_pass += ppoint[i]
	}
}

BEGIN {
	# /init's record that starts its dump (boot/image/init.c dump_kernel_log())
	KLOG_END_RECORD = "init: dumping the kernel log, boot_id="
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
	# each base's kernel version; each ABI's word size and uname machine;
	# each arch's line for all of its CPUs up: from their records
	records(base_kv, base_version)
	abi_records(abi_rec, abi_bits, abi_machine)
	records(smp_ok, smp_want)
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
	smp_given = ("smp" in run)	# before run["smp"] makes it
	smp = run["smp"]
	smp_expect = (run_arch in smp_want) ? smp_want[run_arch] : smp
	check_header()
	next
}

kind == "BEGIN" {
	if (done)
		failure(arch, $0 ": after @@@ DONE")
	if (in_klog)
		failure(arch, $0 ": inside the kernel-log dump")
	else if (klog_begins)
		failure(arch, $0 ": after the kernel-log dump (@@@ KLOG BEGIN ... END), which /init writes after the last test")
	close_section()
	insection = 1
	row = arch "/" abi
	sect = test
	sectname = abi " " test
	rows[row] = 1
	npoints = npass = nskip = nfail = nknown_here = npending = nskipped = 0
	maxdepth = 0
	delete st_open
	open_stream(0)
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
	else {
		if (in_klog)
			failure(arch, "@@@ DONE inside the kernel-log dump")
		done = 1
	}
	next
}

# The kernel's log: once, after the tests, before DONE, records only.
kind == "KLOG" {
	if (insection)
		failure(row, sectname ": " $0 ": inside a test (a test wrote it?)")
	else if (done)
		failure(arch, $0 ": after @@@ DONE")
	else if (text ~ /^BEGIN( |$)/) {
		if (klog_begins++)
			failure(arch, "a second kernel-log dump (@@@ KLOG BEGIN)")
		else if (text !~ /^BEGIN boot_id=[0-9a-f-]+$/)
			failure(arch, $0 ": no boot_id=UUID (the kernel's boot id: whose log this is)")
		else
			klog_boot = substr(text, 15)
		in_klog = 1
	} else if (text == "END") {
		if (!in_klog)
			failure(arch, "@@@ KLOG END without its BEGIN")
		else
			klog_ends++
		in_klog = 0
	} else
		failure(arch, $0 ": the guest could not read the kernel log")
	next
}
in_klog && kind == "" && !insection {
	if ($0 ~ /^<[0-7]>\[ *[0-9]+\.[0-9]+\] /) {
		klog_records++
		line = $0
		sub(/^<[0-7]>\[ *[0-9]+\.[0-9]+\] /, "", line)
		if (line == smp_expect)
			klog_smp++
		if (line == "Run /init as init process")
			klog_init++
		if (klog_banner == "" && line ~ /^Linux version /)
			klog_banner = line
		if (klog_bootrec == "" && line ~ /^init: boot_id=/)
			klog_bootrec = substr(line, 15)
		if (klog_endrec == "" && index(line, KLOG_END_RECORD) == 1)
			klog_endrec = substr(line, length(KLOG_END_RECORD) + 1)
		for (i = 1; i <= nneed; i++)
			if (need_suite[i] == run_suite && line ~ need_re[i])
				klog_need[i] = 1
	} else if ($0 != "")
		failure(arch, $0 ": not a kernel-log record, in the kernel-log dump")
}

# The kernel's console, after everything /init wrote: read for the CPUs,
# /init's start and kernel trouble only.
kind == "CONSOLE" {
	close_section()
	if (in_klog)
		failure(arch, "the kernel-log dump has no end (@@@ KLOG END)")
	in_klog = 0
	console_seen = 1
	next
}
kind == "BADCONSOLE" {
	failure(insection ? row : arch, "'@@@ CONSOLE' without this boot's token (a test wrote it?): " $0)
	next
}
# /init says on the console what went wrong before its channel was there
in_console && /^@@@ INIT / { failure(arch, $0 ": /init could not set it up (said on the console)") }
# The guest's /init found a process TEST left behind, and killed it.
kind == "STRAY" { failure(arch "/" abi, abi " " test ": left a process behind: " stray); next }
kind == "HOST" { failure(arch, "boot/run.sh: " text); next }
kind == "INIT" {
	if (text ~ /^suite=/) {
		if (ninit++)
			failure(arch, "a second @@@ INIT " text ": the guest ran /init again")
		else {
			split(text, w, " ")
			if (w[1] != "suite=" run_suite)
				failure(arch, "@@@ INIT " text ", but the log says suite=" run_suite)
			if (run_arch == "host")
				;
			else if (text !~ /^suite=[^ ]+ boot_id=[0-9a-f-]+$/)
				failure(arch, "@@@ INIT " text ": no boot_id=UUID (the kernel's boot id, which ties the console and the kernel-log dump to this boot)")
			else
				init_boot = substr(w[2], 9)
		}
	} else
		failure(arch, "@@@ INIT " text ": /init could not set it up")
	next
}

# An ABI's hello section (boot/guest-tests/hello.c): its binary says its
# word size and what uname(2) says, which must be what the ABI is (its
# arch's record: BITS_ABI, UNAME_MACHINE), so that a section of a 32-bit
# ABI run by 64-bit binaries fails; the release is held against the
# kernel's banner when the log ends.
insection && kind == "" && run_arch != "host" && test == "hello" && /^(not )?ok [0-9]+([ \t]|$)/ {
	k = run_arch "/" abi
	if (!(k in abi_bits) || abi_bits[k] !~ /^[0-9]+$/ || abi_machine[k] == "")
		failure(row, sectname ": no word size or uname machine for ABI " abi " (boot/arch/" run_arch "/arch.conf BITS_" abi ", UNAME_MACHINE)")
	else if ($0 ~ /^(not )?ok 1([ \t]|$)/) {
		if ($0 != "ok 1 a static " abi_bits[k] "-bit binary runs")
			failure(row, sectname ": " $0 ": not 'ok 1 a static " abi_bits[k] "-bit binary runs': the ABI " abi " is " \
				abi_bits[k] "-bit (boot/arch/" run_arch "/arch.conf BITS_" abi ")")
	} else if ($0 ~ /^(not )?ok 2([ \t]|$)/) {
		if ($0 !~ /^ok 2 uname reports a Linux kernel # [^ ]+ [^ ]+$/)
			failure(row, sectname ": " $0 ": not 'ok 2 uname reports a Linux kernel # RELEASE MACHINE'")
		else {
			split($0, w, " ")
			if (w[10] != abi_machine[k])
				failure(row, sectname ": " $0 ": uname(2) says machine " w[10] ", the ABI " abi "'s is " \
					abi_machine[k] " (boot/arch/" run_arch "/arch.conf UNAME_MACHINE)")
			hello_release[abi] = w[9]
		}
	}
}

# TAP inside a section: its own (depth 0), and for a guest, nested TAP
# under '# ' (kselftest's runner) or four blanks (TAP 14). A host check's
# '#' lines are its command's output, not TAP.
insection && kind == "" {
	c = $0
	dep = 0
	if (run_arch != "host")
		while (c ~ /^(# |    )/) {
			c = substr(c, c ~ /^# / ? 3 : 5)
			dep++
		}
	if (c ~ /^(TAP version [0-9]|1\.\.[0-9]|(not )?ok([ \t]|$)|Bail out!)/) {
		tap_line(dep, c)
	} else if (dep > 0) {
		# a diagnostic of the stream one level up: its kselftest
		# harness's RUN line (a point's name) or Totals
		if (c ~ /^ RUN +[^ ]+ \.\.\.$/) {
			st_run[dep - 1] = c
			sub(/^ RUN +/, "", st_run[dep - 1])
			sub(/ \.\.\.$/, "", st_run[dep - 1])
		} else if (c ~ /^Totals: pass:[0-9]+ fail:0 xfail:0 xpass:0 skip:[0-9]+ error:0$/) {
			split(c, tot, /[: ]/)
			st_totals[dep - 1] = tot[4] + tot[12]
		}
	}
}

# A TAP point outside a section: a test's output escaped it.
!insection && kind == "" && !in_console && !in_klog && runseen {
	c = $0
	if (run_arch != "host")
		while (c ~ /^(# |    )/)
			c = substr(c, c ~ /^# / ? 3 : 5)
	if (c ~ /^not ok/ || c ~ /^ok [0-9]+/)
		failure(arch, $0 ": a TAP point outside a test's section")
	else if (c ~ /^Bail out!/)
		failure(arch, $0 ": a TAP bail out outside a test's section")
}

# A kernel message written into a test's line: what the line said is lost
# (a 'not ok' so split reads as 'ok'), so the section fails.
insection && kind == "" && run_arch != "host" && !/^#/ && /\[ *[0-9]+\.[0-9]+\] / &&
    !/^(<[0-9]+>)?\[ *[0-9]+\.[0-9]+\]/ {
	failure(row, sectname ": a kernel message split a TAP line: " $0)
}

# The kernel's own lines, the first of their kind, printed before /init
# ran: a test can write to the console (/dev/kmsg), but only later.
in_console && !smp_line && /^(<[0-9]+>)?\[ *[0-9]+\.[0-9]+\] smp: Brought up / {
	smp_line = 1
	if (smp != "" && index($0, smp))
		smp_seen = 1
}
in_console && smp_line && !init_seen && /^(<[0-9]+>)?\[ *[0-9]+\.[0-9]+\] Run \/init as init process$/ {
	init_seen = 1
}
# The kernel's banner, its first line; /init's record of the boot id, the
# first after /init ran (boot/image/init.c writes it before any test)
in_console && console_banner == "" && /^(<[0-9]+>)?\[ *[0-9]+\.[0-9]+\] Linux version / {
	console_banner = $0
	sub(/^(<[0-9]+>)?\[ *[0-9]+\.[0-9]+\] /, "", console_banner)
}
in_console && init_seen && console_bootrec == "" && /^(<[0-9]+>)?\[ *[0-9]+\.[0-9]+\] init: boot_id=/ {
	console_bootrec = $0
	sub(/^(<[0-9]+>)?\[ *[0-9]+\.[0-9]+\] init: boot_id=/, "", console_bootrec)
}

# The guest's end: the kernel's 'reboot: Restarting system' after /init's
# boot-id record (below); the console's last kernel record, for the message
in_console && /^(<[0-9]+>)?\[ *[0-9]+\.[0-9]+\] / {
	console_last = $0
	sub(/^(<[0-9]+>)?\[ *[0-9]+\.[0-9]+\] /, "", console_last)
	if (console_last == "reboot: Restarting system")
		console_restart = console_bootrec != "" ? 1 : console_restart ? console_restart : -1
}

# The kernel must not complain, on the console, in a test's '#' lines (a
# report the test copied, or a kernel line written into one) or in the
# dumped log: every pattern of the trouble list, on every guest.
run_arch != "host" && $0 ~ tre_all {
	for (i = 1; i <= nt; i++)
		if ($0 ~ tre[i]) {
			line = $0
			sub(/^(# )+/, "", line)
			sub(/^<[0-9]+>/, "", line)
			sub(/^\[ *[0-9.]+\] */, "", line)
			if (!((i, line) in bad_seen)) {
				bad_seen[i, line] = 1
				failure(insection ? row : arch, "kernel trouble (" tname[i] "): " line " (in " \
					(in_console ? "the kernel's console" : in_klog ? "the kernel-log dump" : \
					insection ? sectname "'s output" : "the tests' channel") ", " trouble ")")
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
