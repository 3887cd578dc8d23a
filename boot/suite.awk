# awk -v abis="ABI..." [-v stage=DIR] [-v boot=SECONDS] [-v list=1] [-v only=NAME,...] -f boot/suite.awk SUITE
#
# Read a suite file (boot/suites/NAME; the format is in boot/image/init.c,
# which runs it) on the host, by the rules of the guest's reader,
# boot/image/suite-line.h (boot/tests/suite-lines.sh holds the two against
# each other): every line that is not blank or a comment (first non-blank
# character '#') must be "NAME ABIS TIMEOUT COMMAND [ARG...]" with ABIS
# all, native or last, TIMEOUT whole seconds from 1 to 86400, NAME unique
# and shorter than 64 characters, at most 34 words and 500 characters
# (comments too), at most 64 tests; with stage, each COMMAND (or the program
# /usr/bin/env runs) must be a program in stage/ABI/bin for every ABI the
# line runs on. A bad line is printed as "FILE:LINE: what is wrong" on
# stderr and the exit status is 1. Otherwise prints the boot timeout the
# suite needs: the sum of its tests' timeouts, each counted once per ABI it
# runs on, plus 5 s per test run for the stray-process check after it, plus
# boot seconds (default 120) for booting; with only (boot/run.sh -o), of
# the tests so named alone, each of which must be in the suite. With
# list, prints instead
# "LINE ok NAME ABIS TIMEOUT COMMAND" for each test line (the format of
# boot/tests/suite-reader) and goes on past bad lines.

function bad(what) {
	if (list != "")
		print FNR, "bad", what
	else
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
	nonly = split(only, onlyname, ",")
	for (i = 1; i <= nonly; i++)
		wanted[onlyname[i]] = 1
	total = boot
}

length($0) > 500 {
	bad("longer than 500 characters")
	next
}

/^[ \t]*(#|$)/ { next }

{
	# the first rule a line breaks, in suite-line.h's order
	if (NF < 4)
		why = "want NAME ABIS TIMEOUT COMMAND [ARG...], got " NF " words"
	else if (NF > 34)
		why = "more than 34 words"
	else if (length($1) >= 64)
		why = "the test name is longer than 63 characters"
	else if ($1 in names)
		why = "the test name '" $1 "' is also on line " names[$1]
	else if ($2 != "all" && $2 != "native" && $2 != "last")
		why = "ABIS is '" $2 "': want all, native or last"
	else if ($3 !~ /^[1-9][0-9]*$/ || length($3) > 5 || $3 + 0 > 86400)
		why = "TIMEOUT is '" $3 "': want whole seconds from 1 to 86400"
	else if (ntests == 64)
		why = "more than 64 tests"
	else
		why = ""
	if (why != "") {
		bad(why)
		next
	}
	names[$1] = FNR
	ntests++
	if (list != "")
		print FNR, "ok", $1, $2, $3 + 0, $4
	runs = $2 == "all" ? nabis : 1
	if (nonly == 0 || $1 in wanted)
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
	if (list != "")
		exit 0
	for (i = 1; i <= nonly; i++)
		if (!(onlyname[i] in names)) {
			printf "%s: only=%s: no test '%s' in it\n", FILENAME, only, onlyname[i] > "/dev/stderr"
			nbad++
		}
	if (nbad)
		exit 1
	print total
}
