# The console protocol: its one description and its one parser.
#
# Every log the harness judges is in this format: for a guest, boot/run.sh
# writes the first line, the guest's test channel (a serial port or virtio
# console that only its /init, boot/image/init.c, and the tests write to)
# the markers and TAP, and boot/run.sh appends the kernel's console when
# QEMU ends; the host checks write the same format through host_begin,
# host_case and host_end (boot/lib.sh). A line may end in carriage returns
# (a guest's tty), which are dropped here, once, before any reader sees the
# line.
#
#   @@@ RUN base=B arch=A suite=S [only=NAMES] [accel=X] [icount=N] [console=TOKEN] [smp=TEXT]
#                        first line (boot/run.sh, host_begin); NAMES, the
#                        only tests of S that ran (boot/run.sh -o); TOKEN is a
#                        secret of the boot, which no test sees; smp= is last,
#                        and TEXT, the kernel's line for all CPUs up, must
#                        appear in the log
#   @@@ INIT TEXT        the guest's /init started (suite=S boot_id=UUID:
#                        the kernel's boot id, which /init also writes into
#                        the kernel's log, "init: boot_id=UUID", on the
#                        console too) or says what it could not set up
#   @@@ BEGIN ABI TEST   TEST's output follows: TAP (plan, ok / not ok)
#   @@@ END ABI TEST status=S
#                        TEST ended: S is an exit status, signal:N,
#                        timeout:Ns or missing:PATH
#   @@@ STRAY ABI TEST pid=N ppid=N state=C comm=NAME
#                        TEST left that process behind; /init killed it
#   @@@ KLOG BEGIN boot_id=UUID ... @@@ KLOG END
#                        the whole kernel log, at the end, one
#                        "<LEVEL>[SECONDS] TEXT" line a record, of the
#                        boot UUID
#   @@@ KLOG ERROR TEXT  /init could not read it, or not all of it: records
#                        lost to the ring (inside the dump)
#   @@@ DONE             the guest reached its end: the last marker
#   @@@ HOST TEXT        boot/run.sh: QEMU timed out or failed
#   @@@ CONSOLE DEVICE TOKEN
#                        boot/run.sh: the kernel's console (DEVICE) follows,
#                        to the end of the log; /init and the tests write
#                        to a channel of their own (the lines above), so
#                        no kernel message can split a test's line, and no
#                        line of the console is read as a marker or TAP.
#                        Without the RUN line's TOKEN it is not the
#                        console's start (kind BADCONSOLE): a test wrote it
#
# Use: awk -f boot/console.awk -f READER.awk LOG... The rule below runs
# first for every line and sets, for the reader's rules:
#   kind     RUN INIT BEGIN END STRAY KLOG DONE HOST CONSOLE BADCONSOLE,
#            or "" for any other line (TAP, the kernel console's text)
#   in_console  1 on the CONSOLE line and every line after it
#   text     the line after its marker
#   abi, test  of BEGIN, END and STRAY, and of any line inside a test's
#            section ("" outside one)
#   status   of END;  stray  of STRAY ("pid=... comm=...")
#   run[K]   of RUN: base, arch, suite, accel, smp (per file)
#   tap      for a line in a section: "plan", "ok", "not ok", or ""
#   tap_skip 1 if that plan or test point carries a SKIP directive
# $0 is the line without its carriage return. point_name(), below, names a
# TAP point as the plan does.

# A point's name (boot/plan/logs, "A point's name"), from its TAP line
# without nesting prefixes: "not ok 7 selftests: pidfd: pidfd_setns_test #
# exit=1" -> "pidfd:pidfd_setns_test"; "ok 58 # SKIP why" -> the last RUN
# line's case (runname); "ok 12 #12: a bind ... # SKIP x" -> "12:_a_bind_...".
# No name holds '>', which joins a nested point's to its parents' (the
# verdict's PARENT>POINT): a '>' of the line is a '_'.
function point_name(l, runname) {
	sub(/^(not )?ok [0-9]+[ \t]*/, "", l)
	sub(/^- /, "", l)
	gsub(/>/, "_", l)
	if (match(l, /^selftests: [^:]+: [^ ]+/)) {
		l = substr(l, 12, RLENGTH - 11)
		sub(/: /, ":", l)
		return l
	}
	# the description ends where a directive ('#' as a word of its own) starts
	if (match(l, /(^|[ \t])#([ \t]|$)/))
		l = substr(l, 1, RSTART - 1)
	sub(/[ \t]+$/, "", l)
	gsub(/>/, "_", runname)
	if (l == "")
		return runname
	gsub(/#/, "", l)
	gsub(/[ \t]+/, "_", l)
	return l
}

function console_reset() {
	delete run
	abi = test = ""
	console_closed = in_console = 0
}

FNR == 1 { console_reset() }

{
	sub(/\r+$/, "")
	if (console_closed)	# the line after END or STRAY is outside a section
		abi = test = ""
	console_closed = 0
	kind = text = status = stray = tap = ""
	tap_skip = 0
	if (in_console) {
		abi = test = ""
	} else if ($0 ~ /^@@@ CONSOLE( |$)/) {
		text = substr($0, 13)
		if (run["console"] != "" && $4 == run["console"]) {
			kind = "CONSOLE"
			in_console = 1
			abi = test = ""
		} else
			kind = "BADCONSOLE"
	} else if ($0 ~ /^@@@ [A-Z]+( |$)/) {
		kind = $2
		text = substr($0, length($2) + 6)
		if (kind == "RUN") {
			for (i = 3; i <= NF; i++)
				if ($i ~ /^[a-z]+=/ && $i !~ /^smp=/)
					run[substr($i, 1, index($i, "=") - 1)] = substr($i, index($i, "=") + 1)
			if (match($0, / smp=.*/))
				run["smp"] = substr($0, RSTART + 5)
		} else if (kind == "BEGIN") {
			abi = $3
			test = $4
		} else if (kind == "END") {
			abi = $3
			test = $4
			status = $5
			sub(/^status=/, "", status)
			console_closed = 1
		} else if (kind == "STRAY") {
			abi = $3
			test = $4
			stray = substr($0, index($0, "pid="))
			console_closed = 1
		} else if (kind != "INIT" && kind != "KLOG" && kind != "DONE" && kind != "HOST") {
			kind = ""
		}
	} else if (test != "") {
		if ($0 ~ /^1\.\.[0-9]+/)
			tap = "plan"
		else if ($0 ~ /^ok [0-9]+/)
			tap = "ok"
		else if ($0 ~ /^not ok [0-9]+/)
			tap = "not ok"
		if (tap != "" && $0 ~ /# *[Ss][Kk][Ii][Pp]/)
			tap_skip = 1
	}
}
