# boot/checks/errnos.awk -v doc=DOC [-v base=BASE] FILE
#   The rows of an errors list, one a line, "ERRNO | CONDITION", the
#   condition normalised (below), for boot/checks/docs.sh to compare with
#   docs/errnos row by row:
#     doc=table  FILE is docs/errnos: its rows for the document -v of=man,
#                rst or cover of BASE; a malformed row is
#                "docs/errnos:LINE: what is wrong" on stderr, and exit 1
#     doc=tests  FILE is docs/errnos: "LINE ERRNO SHOWN-BY" for each case
#                a row names (a selftest case, baseline@BASE, or untested),
#                and "LINE ERRNO in@BASE" for each base IN names
#     doc=man    FILE is the man page: its ERRORS entries (.TP, .B ERRNO);
#                an entry's condition is its first sentence (up to the
#                first source line that ends in "."), the rest is comment
#     doc=rst    FILE is the userspace-api page: the table of its "Errors"
#                section, a row ``ERRNO`` and its text
#     doc=cover  FILE is a cover letter: its "Errors" block, a row
#                "  ERRNO  text", continued on lines indented further
#
# What counts as the same condition (norm()): the documents' markup is
# text (man's font macros and escapes, rst's ``literals``); an aside in
# parentheses is dropped; letters are lower case, white space is one
# space, none before , ; : . and none of those at the end; the man
# page's word "request" (ioctl(2)'s name for it) reads "command". A
# document's entry is split into rows at ", or ", so one entry may join
# the conditions of one errno; the table's conditions hold no ", or ".

function trim(s) {
	sub(/^[ \t]+/, "", s)
	sub(/[ \t]+$/, "", s)
	return s
}

# norm(S): S without its asides, case or spacing (above), not split
function norm(s,   out, c, i, depth) {
	out = ""
	depth = 0
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (c == "(")
			depth++
		else if (c == ")" && depth > 0)
			depth--
		else if (depth == 0)
			out = out c
	}
	s = tolower(out)
	gsub(/[ \t]+/, " ", s)
	gsub(/ ,/, ",", s); gsub(/ ;/, ";", s); gsub(/ :/, ":", s); gsub(/ \./, ".", s)
	s = " " s " "
	while (match(s, /[^a-z0-9_]request[^a-z0-9_]/))
		s = substr(s, 1, RSTART) "command" substr(s, RSTART + RLENGTH - 1)
	s = trim(s)
	sub(/[.,;: ]+$/, "", s)
	return s
}

# emit(ERRNO, TEXT): TEXT's conditions, split at ", or "
function emit(e, text,   s, n, parts, i) {
	s = norm(text)
	n = split(s, parts, /, or /)
	for (i = 1; i <= n; i++) {
		parts[i] = trim(parts[i])
		sub(/[.,;: ]+$/, "", parts[i])
		if (parts[i] != "")
			printf "%s | %s\n", e, parts[i]
	}
	rows++
}

# man: the text of one source line, or "" for a request that sets none
function man_text(l,   m, args, a, n, i, q, joined) {
	gsub(/\\\(aq/, "'", l); gsub(/\\\(dq/, "\"", l); gsub(/\\-/, "-", l)
	gsub(/\\e/, "\\", l); gsub(/\\[&%:]/, "", l); gsub(/\\f[BIRP]/, "", l)
	if (l !~ /^\./)
		return l
	m = l
	sub(/[ \t].*/, "", m)
	args = substr(l, length(m) + 1)
	if (m !~ /^\.(B|I|SM|SB|BR|RB|IR|RI|BI|IB)$/)
		return ""
	# the arguments, "quoted" ones whole
	n = 0
	args = trim(args)
	while (args != "") {
		if (substr(args, 1, 1) == "\"") {
			q = index(substr(args, 2), "\"")
			if (q == 0) q = length(args)
			a[++n] = substr(args, 2, q - 1)
			args = substr(args, q + 2)
		} else {
			q = index(args, " ")
			if (q == 0) q = length(args) + 1
			a[++n] = substr(args, 1, q - 1)
			args = substr(args, q + 1)
		}
		args = trim(args)
	}
	joined = ""
	for (i = 1; i <= n; i++)
		joined = joined (i > 1 && m ~ /^\.(B|I|SM|SB)$/ ? " " : "") a[i]
	return joined
}

function bad(what) {
	printf "%s:%d: %s\n", "docs/errnos", FNR, what > "/dev/stderr"
	nbad++
}

BEGIN {
	FS = "\n"
	if (doc !~ /^(table|tests|man|rst|cover)$/) {
		print "errnos.awk: doc=table, tests, man, rst or cover" > "/dev/stderr"
		exit 2
	}
}

# docs/errnos
doc == "table" || doc == "tests" {
	if ($0 ~ /^[ \t]*(#|$)/)
		next
	n = split($0, f, /\|/)
	for (i = 1; i <= n; i++)
		f[i] = trim(f[i])
	if (n != 4) { bad("want ERRNO | IN | CONDITION | SHOWN BY"); next }
	if (f[1] !~ /^E[A-Z0-9]+$/) { bad("'" f[1] "' is not an errno name"); next }
	nin = split(f[2], ins, " ")
	if (nin == 0) { bad("IN names no document"); next }
	want = 0
	for (i = 1; i <= nin; i++) {
		if (ins[i] !~ /^(man|(rst|cover)(@[0-9A-Za-z._-]+)?)$/)
			bad("IN: '" ins[i] "' is not man, rst, cover, rst@BASE or cover@BASE")
		if (ins[i] == of || ins[i] == of "@" base)
			want = 1
	}
	if (norm(f[3]) == "") { bad("no condition"); next }
	if (index(norm(f[3]), ", or ")) { bad("the condition holds \", or \", which a document's row is split at: make it two rows"); next }
	if (f[4] == "") { bad("SHOWN BY is empty: a selftest case, baseline@BASE or 'untested: why'"); next }
	if (f[4] ~ /^untested:/ && trim(substr(f[4], 10)) == "") { bad("untested: say why"); next }
	if (doc == "tests") {
		for (i = 1; i <= nin; i++)
			if (ins[i] ~ /@/)
				printf "%d %s in@%s\n", FNR, f[1], substr(ins[i], index(ins[i], "@") + 1)
		if (f[4] ~ /^untested:/)
			printf "%d %s untested\n", FNR, f[1]
		else {
			nt = split(f[4], tc, " ")
			for (i = 1; i <= nt; i++)
				printf "%d %s %s\n", FNR, f[1], tc[i]
		}
	} else if (want)
		printf "%s | %s\n", f[1], norm(f[3])
	next
}

# the man page's ERRORS
doc == "man" && /^\.(SH|TP)/ {
	if (inerr && e != "" && !done)
		emit(e, text)
	e = ""
	if ($0 ~ /^\.SH/)
		inerr = ($0 ~ /^\.SH "?ERRORS"?$/)
	else
		tag = inerr
	next
}
doc == "man" && inerr && tag {
	tag = 0
	if ($0 ~ /^\.B E[A-Z0-9]+$/) { e = substr($0, 4); text = ""; done = 0 }
	next
}
doc == "man" && inerr && e != "" && !done {
	if ($0 ~ /^\.(P|PP|LP|IP|SS)( |$)/) { emit(e, text); done = 1; next }
	t = man_text($0)
	if (t == "")
		next
	text = text " " t
	if (t ~ /\.[ \t]*$/) { emit(e, text); done = 1 }
	next
}

# the userspace-api page's "Errors" table
doc == "rst" && prev == "Errors" && /^=+$/ { sect = 1 }
doc == "rst" && sect && /^=+  +=+[ \t]*$/ {
	if (++borders == 2) { if (e != "") emit(e, text); exit }
	prev = $0
	next
}
doc == "rst" && borders == 1 {
	if (match($0, /^``E[A-Z0-9]+``/)) {
		len = RLENGTH	# emit() matches too
		if (e != "") emit(e, text)
		e = substr($0, 3, len - 4)
		text = substr($0, len + 1)
	} else if ($0 ~ /^[ \t]+[^ \t]/)
		text = text " " $0
	gsub(/``/, "", text)
	next
}

# the cover letter's "Errors" block
doc == "cover" && prev == "Errors" && /^-+$/ { blk = 1; prev = $0; next }
doc == "cover" && blk {
	if ($0 ~ /^[ \t]*$/) {
		if (e != "") { emit(e, text); e = "" }
		if (lines) exit
		next
	}
	lines++
	if (match($0, /^  E[A-Z0-9]+ /)) {
		len = RLENGTH	# emit() matches too
		if (e != "") emit(e, text)
		e = trim(substr($0, 1, len))
		text = substr($0, len + 1)
	} else if ($0 ~ /^   +[^ ]/ && e != "")
		text = text " " $0
	else {
		printf "not a row of the Errors block (want \"  ERRNO  condition\"): %s\n", $0 > "/dev/stderr"
		nbad++
	}
	next
}

{ prev = $0 }

END {
	if (doc == "cover" && e != "")
		emit(e, text)
	if (nbad)
		exit 1
}
