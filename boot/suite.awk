# awk -v abis="ABI..." [-v stage=DIR] [-v boot=SECONDS] -f boot/suite.awk SUITE
#
# Read a suite file (boot/suites/NAME; the format is in boot/image/init.c,
# which runs it) on the host. Every line that is not blank or a comment
# must be "NAME ABIS TIMEOUT COMMAND [ARG...]" with ABIS all, native or
# last, TIMEOUT a whole number of seconds above 0 and NAME unique; with
# stage, each COMMAND (or the program /usr/bin/env runs) must be a program
# in stage/ABI/bin for every ABI the line runs on. A bad line is printed
# as "FILE:LINE: what is wrong" on stderr and the exit status is 1.
# Otherwise prints the boot timeout the suite needs: the sum of its tests'
# timeouts, each counted once per ABI it runs on, plus 5 s per test run for
# the stray-process check after it, plus boot seconds (default 120) for
# booting.

function bad(what) {
	printf "%s:%d: %s\n", FILENAME, FNR, what > "/dev/stderr"
	nbad++
}

BEGIN {
	nabis = split(abis, abi, " ")
	if (nabis == 0) {
		print "suite.awk: no ABIs given (-v abis=...)" > "/dev/stderr"
		exit 2
	}
	if (boot == "")
		boot = 120
	total = boot
}

/^[ \t]*(#|$)/ { next }

{
	if (NF < 4) {
		bad("want NAME ABIS TIMEOUT COMMAND [ARG...], got " NF " words")
		next
	}
	if ($1 in names)
		bad("the test name '" $1 "' is also on line " names[$1])
	names[$1] = FNR
	if ($2 != "all" && $2 != "native" && $2 != "last")
		bad("ABIS is '" $2 "': want all, native or last")
	if ($3 !~ /^[1-9][0-9]*$/)
		bad("TIMEOUT is '" $3 "': want whole seconds above 0")
	if (NF > 34 || length($0) > 500)
		bad("longer than the guest's /init reads (32 arguments, 500 characters)")
	runs = $2 == "all" ? nabis : 1
	total += runs * $3 + runs * 5	# 5 s: the stray-process check
	if (stage == "")
		next
	prog = $4
	if (prog == "/usr/bin/env")
		for (i = 5; i <= NF && $i ~ /=/; i++)
			prog = $(i + 1)
	if (prog ~ /^\//)
		next
	for (i = 1; i <= nabis; i++) {
		if ($2 == "native" && i > 1 || $2 == "last" && i < nabis)
			continue
		if (system("test -x '" stage "/" abi[i] "/bin/" prog "'"))
			bad("no program '" prog "' for " abi[i] " in " stage "/" abi[i] "/bin")
	}
}

END {
	if (nbad)
		exit 1
	print total
}
