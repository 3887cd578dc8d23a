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
kind == "BEGIN" { s = abi "\t" test; n = 0; nsk = 0; npend = 0; delete rn; next }
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
# TAP at depth d (d '# ' before it: kselftest's runner nests each test's;
# a host check's '#' lines are its command's output); a nested skip is
# PARENT>POINT, PARENT the point after it one level up (boot/verdict.awk)
test != "" {
	c = $0
	d = 0
	while (arch != "host" && c ~ /^# /) {
		c = substr(c, 3)
		d++
	}
}
# kselftest_harness.h's line before a case: 6.1's skip line has no name
test != "" && d > 0 && c ~ /^ +RUN +[^ ]+ \.\.\.$/ {
	rn[d - 1] = c
	sub(/^ +RUN +/, "", rn[d - 1])
	sub(/ \.\.\.$/, "", rn[d - 1])
	next
}
test != "" && c ~ /^1\.\.0[^0-9]/ && c ~ /#[ \t]*[Ss][Kk][Ii][Pp]/ {
	if (d)
		hold(d, "-", reason(c))
	else
		sk[++nsk] = "-\t" reason(c)
	next
}
test != "" && c ~ /^(not )?ok [0-9]+/ {
	name = point_name(c, rn[d])
	rn[d] = ""
	for (i = 1; i <= npend; i++)
		if (plevel[i] == d + 1) {
			pname[i] = name ">" pname[i]
			if (--plevel[i] == 0)
				sk[++nsk] = pname[i] "\t" preason[i]
		}
	if (c ~ /# *[Ss][Kk][Ii][Pp]/ && d)
		hold(d, name, reason(c))
	else if (c ~ /# *[Ss][Kk][Ii][Pp]/)
		sk[++nsk] = name "\t" reason(c)
	if (!d)
		n++
}
function hold(d, name, r) {
	plevel[++npend] = d
	pname[npend] = name
	preason[npend] = r
}
END { flush_host() }
