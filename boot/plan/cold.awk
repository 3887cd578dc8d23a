# awk -f boot/plan/cold.awk docs/measurements.md
#   The cold runs timed against the reference build, from their one home:
#   the markdown table after the line "<!-- cold-runs -->" of
#   docs/measurements.md, whose columns are run, base, commit, date,
#   machine, seconds, reference build (s), how the machine was. Prints
#   the table README.md and docs/harness.md show (boot/plan/docs.sh's
#   block "cold"), with the minutes and the reference builds (the run's
#   seconds over the reference build's) computed here, not stated there.
#   Exits 1, naming the row, if a row lacks whole seconds or a reference
#   build, or if there is no such table or no row in it.
function t(s) { gsub(/^ +| +$/, "", s); return s }
BEGIN { FS = "|" }
$0 == "<!-- cold-runs -->" { on = 1; next }
on && !/^\|/ && n { on = 0 }
on && /^\|/ {
	if (++n <= 2)
		next
	if (NF != 10 || t($7) !~ /^[0-9]+$/ || t($8) !~ /^[1-9][0-9]*$/) {
		printf "%s:%d: a cold run without whole seconds or its reference build: %s\n",
			FILENAME, FNR, $0 > "/dev/stderr"
		bad = 1
		exit 1
	}
	if (n == 3) {
		print "| run | base | machine | minutes | reference build | reference builds | commit, date | how the machine was |"
		print "|---|---|---|---|---|---|---|---|"
	}
	printf "| %s | %s | %s | %.1f | %d s | %.1f | %s, %s | %s |\n",
		t($2), t($3), t($6), t($7) / 60, t($8), t($7) / t($8), t($4), t($5), t($9)
}
END {
	if (bad)
		exit 1
	if (n < 3) {
		printf "%s: no cold run after a line \"<!-- cold-runs -->\"\n", FILENAME > "/dev/stderr"
		exit 1
	}
}
