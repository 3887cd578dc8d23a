# awk -f boot/console.awk -f boot/plan/propose.awk LOG...  (boot/plan/propose.sh)
function flush_host(   i) {
	for (i = 1; i <= ng; i++)
		printf "section\t%s\thost\t%s\t%s\t*\t%d\n", base, suite, order[i], groups[order[i]]
	ng = 0
	delete groups
}
function reason(l) {
	sub(/.*# *[Ss][Kk][Ii][Pp] */, "", l)
	gsub(/[ \t]+/, " ", l)
	return l
}
FNR == 1 { flush_host() }
kind == "RUN" { base = run["base"]; arch = run["arch"]; suite = run["suite"]; next }
kind == "BEGIN" { s = abi "\t" test; n = 0; nsk = 0; runname = ""; next }
kind == "END" {
	if (arch == "host") {
		if (!(abi in groups))
			order[++ng] = abi
		groups[abi]++
	} else {
		printf "section\t%s\t%s\t%s\t%s\t%d\n", base, arch, suite, s, n
		for (i = 1; i <= nsk; i++)
			printf "skip\t%s\t%s\t%s\t%s\t%s\n", base, arch, suite, s, sk[i]
	}
	next
}
# kselftest_harness.h's line before a case: 6.1's skip line has no name
test != "" && /^# +RUN +[^ ]+ \.\.\.$/ { runname = $3; next }
test != "" && tap == "plan" && tap_skip { sk[++nsk] = "-\t" reason($0); next }
test != "" && tap != "" && tap != "plan" {
	n++
	if (tap_skip)
		sk[++nsk] = point_name($0, runname) "\t" reason($0)
}
END { flush_host() }
