# awk -v base=B -v arch=A -v suite=S -v smp=TEXT -v token=T -v trouble=FILE \
#     -v kv=VERSION -v abi_rec="ARCH/ABI=BITS MACHINE;..." -f boot/records.awk -f boot/tests/plan-logs.awk PLAN
#
# The log of a guest that did everything the plan (boot/plan/logs format)
# says ARCH-SUITE.log of BASE must hold, as boot/run.sh and the guest's
# /init (boot/image/init.c) write it: its RUN line (smp=TEXT, the arch
# record's line, boot/lib.sh SMP_OK), /init's line with the boot's id,
# every planned section in order with a TAP version, a plan and its
# points (an ABI's hello section as boot/guest-tests/hello.c prints it, of
# the ABI's word size and uname machine, abi_rec), each planned skip on a
# point named as the plan's POINT (the last
# points of the section; POINT - is the whole section's '1..0 # SKIP'; a
# nested PARENT>POINT is a point of a TAP stream nested under the
# section's first points, each named PARENT, as kselftest's runner prints
# a test's; PARENT>- that stream's '1..0 # SKIP'), the kernel-log dump
# with the boot's identity (the banner of a kernel of VERSION, the base
# record's, the CPUs, /init's start and its boot id) and the lines the
# trouble list needs for SUITE, DONE, and the kernel's console with the
# same identity, to the kernel's restart. boot/tests/verdict.sh makes its cases from it, so that
# they follow the plan.

function matches(f) {
	return (f[2] == "*" || f[2] == base) && f[3] == arch && f[4] == suite
}

BEGIN { FS = "[ \t]+" }

{
	sub(/#.*/, "")
	sub(/^[ \t]+/, "")
}
$0 == "" { next }
{ split($0, f, /[ \t]+/) }
f[1] == "section" && matches(f) {
	k = f[5] " " f[6]
	order[++n] = k
	points[k] = f[7]
	next
}
f[1] == "skip" && matches(f) {
	k = f[5] " " f[6]
	r = f[8]
	for (i = 9; i <= NF; i++)
		r = r " " $i
	if (j = index(f[7], ">")) {
		p = substr(f[7], 1, j - 1)
		if (!((k, p) in nest_n))
			nest_parent[k, ++nparents[k]] = p
		nest_n[k, p]++
		nest_point[k, p, nest_n[k, p]] = substr(f[7], j + 1)
		nest_reason[k, p, nest_n[k, p]] = r
		next
	}
	nskip[k]++
	skip_point[k, nskip[k]] = f[7]
	skip_reason[k, nskip[k]] = r
}

# the stream nested under the point P of section k, as kselftest's runner
# prints a test's: its skips, a pass before each
function nested(k, p,   i, n) {
	print "# TAP version 13"
	if (nest_n[k, p] == 1 && nest_point[k, p, 1] == "-") {
		print "# 1..0 # SKIP " nest_reason[k, p, 1]
		return
	}
	print "# 1.." 2 * nest_n[k, p]
	for (i = 1; i <= nest_n[k, p]; i++) {
		print "# ok " ++n " sub-" n
		print "# ok " ++n " " nest_point[k, p, i] " # SKIP " nest_reason[k, p, i]
	}
}

END {
	# the kernel's boot id, and its banner: the base's version (kv)
	boot_id = "0c0ffee0-1234-4abc-8def-0123456789ab"
	abi_records(abi_rec, bits, machine)
	banner = "Linux version " kv ".0 (plan-logs.awk) #1 SMP"
	print "@@@ RUN base=" base " arch=" arch " suite=" suite " accel=tcg console=" token " smp=" smp
	print "@@@ INIT suite=" suite " boot_id=" boot_id
	for (s = 1; s <= n; s++) {
		k = order[s]
		split(k, kf, " ")
		print "@@@ BEGIN " k
		print "TAP version 13"
		status = 0
		if (nskip[k] == 1 && skip_point[k, 1] == "-") {
			print "1..0 # SKIP " skip_reason[k, 1]
			status = 4
		} else {
			print "1.." points[k]
			first = points[k] - nskip[k]
			for (i = 1; i <= points[k]; i++)
				if (i > first)
					print "ok " i " " skip_point[k, i - first] " # SKIP " skip_reason[k, i - first]
				else if (kf[2] == "hello" && i == 1)
					print "ok 1 a static " bits[arch "/" kf[1]] "-bit binary runs"
				else if (kf[2] == "hello" && i == 2)
					print "ok 2 uname reports a Linux kernel # " kv ".0 " machine[arch "/" kf[1]]
				else if (i <= nparents[k]) {
					nested(k, nest_parent[k, i])
					print "ok " i " " nest_parent[k, i]
				} else
					print "ok " i " point-" i
		}
		print ""
		print "@@@ END " k " status=" status
	}
	print "@@@ KLOG BEGIN boot_id=" boot_id
	print "<5>[    0.000000] " banner
	print "<6>[    0.100000] " smp
	while ((getline line < trouble) > 0) {
		split(line, t, "\t")
		if (t[1] == "need" && t[2] == suite)
			print "<6>[    0.200000] " t[5]
	}
	close(trouble)
	print "<6>[    1.000000] Run /init as init process"
	print "<4>[    1.100000] init: boot_id=" boot_id
	# /init's record before it dumps the log (boot/image/init.c)
	print "<6>[    1.900000] init: dumping the kernel log, boot_id=" boot_id
	print "@@@ KLOG END"
	print "@@@ DONE"
	print ""
	print "@@@ CONSOLE ttyS0 " token
	print "[    0.000000] " banner
	print "[    0.100000] " smp
	print "[    1.000000] Run /init as init process"
	print "[    1.100000] init: boot_id=" boot_id
	# the guest's end: /init's reboot (kernel/reboot.c kernel_restart())
	print "[    2.000000] reboot: Restarting system"
}
