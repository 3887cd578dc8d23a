# awk -v facts=FILE -f boot/plan/expand.awk boot/plan/matrix boot/plan/points \
#     boot/plan/skips boot/checks/points
#
# boot/plan/expand.sh's expansion (the formats are in the files' headers;
# FACTS is what expand.sh read of the arch and base records and the
# suites). Prints boot/plan/logs; a malformed line is "FILE:LINE: what is
# wrong" on stderr and exit 1.

function bad(what) {
	printf "%s:%d: %s\n", FILENAME, FNR, what > "/dev/stderr"
	nbad++
}
function die(what) {
	print what > "/dev/stderr"
	nbad++
}

# version compare: -1, 0, 1
function vcmp(a, b,   x, y, i, n) {
	n = split(a, x, ".")
	if (split(b, y, ".") > n)
		n = split(b, y, ".")
	for (i = 1; i <= n; i++) {
		if (x[i] + 0 < y[i] + 0) return -1
		if (x[i] + 0 > y[i] + 0) return 1
	}
	return 0
}

# WHEN: "" if it parses, else what is wrong; base_only refuses ABI and
# kernel-option conditions
function when_error(w, base_only,   c, n, i) {
	if (w == "*")
		return ""
	n = split(w, c, ",")
	for (i = 1; i <= n; i++) {
		if (c[i] ~ /^kernel(<|>=)[0-9]+(\.[0-9]+)*$/)
			continue
		if (!base_only && c[i] ~ /^(abi-lacks|config-lacks)=[A-Za-z0-9_]+$/)
			continue
		return "condition '" c[i] "': want kernel<V, kernel>=V" \
			(base_only ? "" : ", abi-lacks=CALL, config-lacks=OPTION") " or *"
	}
	return ""
}

function when_holds(w, b, a, abi, fl,   c, n, i, k, v) {
	if (w == "*")
		return 1
	n = split(w, c, ",")
	for (i = 1; i <= n; i++) {
		if (c[i] ~ /^kernel</) {
			if (vcmp(kver[b], substr(c[i], 8)) >= 0) return 0
		} else if (c[i] ~ /^kernel>=/) {
			if (vcmp(kver[b], substr(c[i], 9)) < 0) return 0
		} else if (c[i] ~ /^abi-lacks=/) {
			v = " " archvar[a, "ABI_LACKS_" abi] " "
			if (!index(v, " " substr(c[i], 11) " ")) return 0
		} else if (c[i] ~ /^config-lacks=/) {
			k = substr(c[i], 14)
			if ((a, "-", k) in config || (fl != "" && ("*", fl, k) in config)) return 0
		}
	}
	return 1
}

# the points of test NAME in SUITE (following =OTHER), or ""
function points_of(suite, name,   k, seen) {
	k = (suite "/" name) in pts ? suite "/" name : name
	while (k in pts && pts[k] ~ /^=/) {
		if (seen[k]++)
			return ""
		k = substr(pts[k], 2)
	}
	return k in pts ? pts[k] : ""
}

# Does NAMES (boot/plan/skips) name the test NAME of SUITE? Sets nest:
# "PARENT>" for a NAME>PARENT (the point nested under the test's point
# PARENT), else "".
function names_match(names, suite, name,   n, x, i, t) {
	n = split(names, x, ",")
	for (i = 1; i <= n; i++) {
		t = x[i]
		nest = ""
		if (index(t, ">")) {
			nest = substr(t, index(t, ">") + 1) ">"
			t = substr(t, 1, index(t, ">") - 1)
		}
		if (t == name || t == suite "/" name)
			return 1
	}
	nest = ""
	return 0
}

function in_list(list, w,   n, x, i) {
	if (list == "*")
		return 1
	n = split(list, x, ",")
	for (i = 1; i <= n; i++)
		if (x[i] == w)
			return 1
	return 0
}

# add LINE (its fields after the base, tab-separated) to log LOG of base B
function add(lg, b, line) {
	if (!(lg in logseen)) {
		logseen[lg] = 1
		logs[++nlogs] = lg
	}
	n_lines[lg, b]++
	lines[lg, b, n_lines[lg, b]] = line
}

BEGIN {
	while ((getline l < facts) > 0) {
		split(l, f, " ")
		if (f[1] == "base") {
			bases[++nbases] = f[2]
			isbase[f[2]] = 1
			kver[f[2]] = f[3]
			patches[f[2]] = f[4]
			cfiles[f[2]] = f[5]
			if (f[3] == "-")
				die("boot/base/" f[2] "/base.conf: no KERNEL_VERSION")
		} else if (f[1] == "archvar") {
			if (!(f[2] in isarch)) {
				isarch[f[2]] = 1
				arches[++narches] = f[2]
			}
			v = substr(l, length("archvar " f[2] " ") + 1)
			k = v
			sub(/=.*/, "", k)
			sub(/^[^=]*=/, "", v)
			gsub(/^'|'$/, "", v)
			archvar[f[2], k] = v
		} else if (f[1] == "config") {
			config[f[2], f[3], f[4]] = 1
		} else if (f[1] == "suiteline") {
			s = f[2]
			if (f[4] == "bad") {
				w = l
				sub(/^suiteline [^ ]+ [0-9]+ bad /, "", w)
				die("boot/suites/" s ":" f[3] ": " w)
				continue
			}
			hassuite[s] = 1
			nt[s]++
			tname[s, nt[s]] = f[5]
			tabis[s, nt[s]] = f[6]
			tline[s, nt[s]] = f[3]
			istest[f[5]] = 1
			istest[s "/" f[5]] = 1
		}
	}
	close(facts)
	for (i = 1; i <= narches; i++)
		if (archvar[arches[i], "ABIS"] == "")
			die("boot/arch/" arches[i] "/arch.conf: no ABIS")
}

FNR == 1 { fileno++ }

/^[ \t]*(#|$)/ { next }

fileno == 1 {
	if ($1 == "suite") {
		if (NF < 4 || NF > 5 || NF == 5 && $5 !~ /^flavour=[A-Za-z0-9_-]+$/) {
			bad("want: suite SUITE BASES ARCHES [flavour=FLAVOUR]")
			next
		}
		if (!($2 in hassuite)) {
			bad("no suite '" $2 "' (boot/suites/" $2 ")")
			next
		}
		n = split($3, x, ",")
		for (i = 1; i <= n; i++)
			if (x[i] != "*" && !(x[i] in isbase))
				bad("no base '" x[i] "' (boot/base/" x[i] "/base.conf)")
		fl = NF == 5 ? substr($5, 9) : ""
		if (fl != "" && system("test -f boot/flavour/" fl "/flavour.conf"))
			bad("no flavour '" fl "' (boot/flavour/" fl "/flavour.conf)")
		sel = ""
		if ($4 ~ /^[A-Z_][A-Z0-9_]*=/) {
			k = $4; sub(/=.*/, "", k)
			v = $4; sub(/^[^=]*=/, "", v)
			for (i = 1; i <= narches; i++) {
				w = archvar[arches[i], k]
				sub(/ .*/, "", w)
				if (w == v)
					sel = sel " " arches[i]
			}
		} else {
			n = split($4, x, ",")
			for (i = 1; i <= narches; i++)
				if (in_list($4, arches[i]))
					sel = sel " " arches[i]
			for (i = 1; i <= n; i++)
				if (x[i] != "*" && !(x[i] in isarch))
					bad("no arch '" x[i] "' (boot/arch/" x[i] "/arch.conf)")
		}
		nrun++
		rsuite[nrun] = $2; rbases[nrun] = $3; rarches[nrun] = substr(sel, 2); rfl[nrun] = fl
		runs_suite[$2] = 1
		if ($2 == "check")
			check_bases_arches = check_bases_arches " " nrun
	} else if ($1 == "ci" || $1 == "weekly") {
		if (NF != 4) {
			bad("want: " $1 " TARGET BASE ARCHES")
			next
		}
		if (!($3 in isbase))
			bad("no base '" $3 "' (boot/base/" $3 "/base.conf)")
		ci[++nci] = $1 "\t" $2 "\t" $3 "\t" $4
	} else
		bad("'" $1 "': want suite, ci or weekly")
	next
}

fileno == 2 {
	if (NF != 2 || $2 !~ /^([0-9]+|=[A-Za-z0-9_.-]+)$/) {
		bad("want: NAME POINTS or NAME =OTHER")
		next
	}
	if ($1 in pts) {
		bad("'" $1 "' is also on line " ptsline[$1])
		next
	}
	if (!($1 in istest))
		bad("no suite of boot/plan/matrix has a test '" $1 "'")
	pts[$1] = $2
	ptsline[$1] = FNR
	next
}

fileno == 3 {
	if ($1 != "skip" && $1 != "known") {
		bad("'" $1 "': want skip or known")
		next
	}
	i = 4
	p = ""
	if ($4 ~ /^point=/) {
		p = substr($4, 7)
		i = 5
	}
	if (NF < i || p == "") {
		bad("want: " $1 " NAMES WHEN point=POINT REASON...")
		next
	}
	if ((w = when_error($3, 0)) != "") {
		bad(w)
		next
	}
	n = split($2, x, ",")
	for (j = 1; j <= n; j++) {
		if (x[j] ~ />$/ || index(x[j], ">") && $1 != "skip")
			bad("'" x[j] "': NAME>PARENT wants a PARENT, and only a skip is nested")
		sub(/>.*/, "", x[j])
		if (!(x[j] in istest))
			bad("no suite of boot/plan/matrix has a test '" x[j] "'")
	}
	r = $0
	sub(/^[ \t]*[^ \t]+[ \t]+[^ \t]+[ \t]+[^ \t]+[ \t]+/, "", r)
	if (p != "")
		sub(/^[^ \t]+[ \t]+/, "", r)
	nrule++
	ktype[nrule] = $1; knames[nrule] = $2; kwhen[nrule] = $3; kpoint[nrule] = p; kreason[nrule] = r
	next
}

fileno == 4 {
	if (NF < 3 || NF > 4 || $3 !~ /^([0-9]+|patches|patches\*arches|c-files|abis|arches|bases)$/) {
		bad("want: SUITE GROUP POINTS [WHEN], POINTS a number, patches, patches*arches, c-files, abis, arches or bases")
		next
	}
	if (NF == 4 && (w = when_error($4, 1)) != "") {
		bad(w)
		next
	}
	if (system("test -f boot/checks/" $1 ".sh"))
		bad("no host check '" $1 "' (boot/checks/" $1 ".sh)")
	nhost++
	hsuite[nhost] = $1; hgroup[nhost] = $2; hpts[nhost] = $3; hwhen[nhost] = (NF == 4 ? $4 : "*")
	next
}

END {
	for (s in hassuite)
		for (i = 1; i <= nt[s]; i++)
			if (s in runs_suite && points_of(s, tname[s, i]) == "")
				die("boot/suites/" s ":" tline[s, i] ": test '" tname[s, i] \
					"' has no points in boot/plan/points")
	if (nbad)
		exit 1

	# the arches 'check' runs on, per base (patches*arches)
	for (i = 1; i <= nbases; i++) {
		b = bases[i]
		ncheck[b] = 0
		split(check_bases_arches, rr, " ")
		for (r in rr)
			if (in_list(rbases[rr[r]], b))
				ncheck[b] += split(rarches[rr[r]], x, " ")
	}

	# every arch record's ABIs (abis)
	for (i = 1; i <= narches; i++)
		nabis_all += split(archvar[arches[i], "ABIS"], x, " ")

	# host checks
	for (i = 1; i <= nbases; i++) {
		b = bases[i]
		for (h = 1; h <= nhost; h++) {
			if (!when_holds(hwhen[h], b))
				continue
			p = hpts[h] == "patches" ? patches[b] : hpts[h] == "c-files" ? cfiles[b] : \
				hpts[h] == "patches*arches" ? patches[b] * ncheck[b] : \
				hpts[h] == "abis" ? nabis_all : hpts[h] == "arches" ? ncheck[b] : \
				hpts[h] == "bases" ? nbases : hpts[h]
			add("host " hsuite[h], b, "section\t\001\thost\t" hsuite[h] "\t" hgroup[h] "\t*\t" p)
		}
	}

	# guest suites: each ABI's pass, the tests in file order (boot/image/init.c)
	for (r = 1; r <= nrun; r++) {
		s = rsuite[r]
		na = split(rarches[r], ar, " ")
		for (ai = 1; ai <= na; ai++) {
			a = ar[ai]
			lg = s " " a
			nabis = split(archvar[a, "ABIS"], abi, " ")
			for (i = 1; i <= nbases; i++) {
				b = bases[i]
				if (!in_list(rbases[r], b))
					continue
				for (j = 1; j <= nabis; j++)
					for (t = 1; t <= nt[s]; t++) {
						if (tabis[s, t] == "native" && j > 1 || tabis[s, t] == "last" && j < nabis)
							continue
						nm = tname[s, t]
						add(lg, b, "section\t\001\t" a "\t" s "\t" abi[j] "\t" nm "\t" points_of(s, nm))
						for (k = 1; k <= nrule; k++) {
							if (!names_match(knames[k], s, nm) || !when_holds(kwhen[k], b, a, abi[j], rfl[r]))
								continue
							add(lg, b, ktype[k] "\t\001\t" a "\t" s "\t" abi[j] "\t" nm "\t" \
								nest kpoint[k] "\t" kreason[k])
						}
					}
			}
		}
	}

	print "# Generated by boot/plan/expand.sh (make docs) from boot/plan/matrix,"
	print "# boot/plan/points, boot/plan/skips, boot/checks/points and the arch"
	print "# and base records: do not edit; edit those and run make docs."
	print "# boot/verdict.awk holds each log against these lines and fails closed;"
	print "# the Makefile, .ci/run and the docs read which base, arch and suite run"
	print "# from them (boot/plan/query.sh). Fields are split by blanks:"
	print "#"
	print "#   section BASE ARCH SUITE ABI NAME POINTS"
	print "#       a section of the log ARCH-SUITE.log of BASE (for ARCH host, the"
	print "#       host check's log SUITE.log or SUITE-ANYTHING.log), in order, with"
	print "#       its count of TAP points; NAME * with ARCH host: POINTS sections of"
	print "#       group ABI, each one point (boot/lib.sh's host_case)"
	print "#   skip BASE ARCH SUITE ABI NAME POINT REASON..."
	print "#       one skipped point allowed in that section: the point named POINT"
	print "#       (below) may be 'ok N ... # SKIP REASON', REASON all the text after its"
	print "#       SKIP; POINT - is the whole section's '1..0 # SKIP REASON'. A"
	print "#       point of a nested TAP stream (kselftest's runner's test) is"
	print "#       PARENT>POINT, PARENT the section's point it is nested under"
	print "#       (PARENT>-: that stream's '1..0 # SKIP REASON'; PARENT, the"
	print "#       section's own point, then counts as one skip, and the reasonless"
	print "#       'ok N ... # SKIP' kselftest's runner prints for it is that skip)"
	print "#   known BASE ARCH SUITE ABI NAME POINT REASON..."
	print "#       the point named POINT counted as known, not failed, if it fails"
	print "#       cleanly ('not ok' with no directive, the test exited with 1)"
	print "#       and fails as cleanly in the pristine kernel's log beside it"
	print "#       (ARCH-pristine.log),"
	print "#       a complete log of the same base and arch without kernel"
	print "#       trouble, another boot (boot id) of another build (banner) of"
	print "#       the same version; one point each, never a failure nested under it"
	print "#   ci TARGET BASE ARCHES"
	print "#       a step of CI (.ci/run), in order: make TARGET BASE=BASE [ARCH=ARCHES]"
	print "#       (* for every arch the plan has for that target's suite)"
	print "#   weekly TARGET BASE ARCHES"
	print "#       the same, for the workflow's weekly job only (not .ci/run)"
	print "#"
	print "# A point's name (POINT), one blank-free token, from its TAP line"
	print "# 'ok N DESCRIPTION # DIRECTIVE' (boot/console.awk, point_name()):"
	print "#   - kselftest's runner, 'selftests: DIR: TEST': DIR:TEST;"
	print "#   - a line without a description (6.1's kselftest_harness.h prints a"
	print "#     skipped case as 'ok N # SKIP REASON'): the case named by the last"
	print "#     '#  RUN           FIXTURE.TEST ...' line before it, FIXTURE.TEST;"
	print "#   - any other: the description, each run of blanks one '_', without '#'"
	print "#     (kselftest_harness.h's FIXTURE[.VARIANT].TEST as it is; the samples'"
	print "#     '#12: a bind ...' is 12:_a_bind_...)."
	print "#"
	print "# BASE * is every base; a base that differs gets lines of its own instead."
	print ""
	print "# CI's steps (.ci/run), in order"
	for (i = 1; i <= nci; i++)
		print ci[i]
	for (g = 1; g <= nlogs; g++) {
		lg = logs[g]
		# merge the bases' lists, keeping each one's order; a line every
		# base has is printed once, with base *
		nm = 0
		delete mkey; delete has; delete occ
		for (i = 1; i <= nbases; i++) {
			b = bases[i]
			delete occ
			for (j = 1; j <= n_lines[lg, b]; j++)
				bkey[j] = lines[lg, b, j] SUBSEP (++occ[lines[lg, b, j]])
			for (j = 1; j <= n_lines[lg, b]; j++) {
				key = bkey[j]
				has[key, b] = 1
				if (key in at)
					continue
				# before this base's next line that is there already
				pos = nm + 1
				for (m = j + 1; m <= n_lines[lg, b]; m++)
					if (bkey[m] in at) {
						pos = at[bkey[m]]
						break
					}
				for (m = nm; m >= pos; m--) {
					mkey[m + 1] = mkey[m]
					at[mkey[m + 1]] = m + 1
				}
				mkey[pos] = key
				at[key] = pos
				nm++
			}
		}
		split(lg, lw, " ")
		print ""
		print "# " (lw[1] == "host" ? "boot/checks/" lw[2] ".sh" : "boot/suites/" lw[1] " on " lw[2])
		for (m = 1; m <= nm; m++) {
			key = mkey[m]
			line = key
			sub(SUBSEP ".*", "", line)
			n = 0
			for (i = 1; i <= nbases; i++)
				n += (key, bases[i]) in has
			c = index(line, "\001")
			if (n == nbases)
				print substr(line, 1, c - 1) "*" substr(line, c + 1)
			else
				for (i = 1; i <= nbases; i++)
					if ((key, bases[i]) in has)
						print substr(line, 1, c - 1) bases[i] substr(line, c + 1)
		}
		delete at
	}
}
