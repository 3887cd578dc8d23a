#!/bin/sh
# boot/checks/docs.sh
#   The documentation, as TAP in $LOGS/docs.log: the man page lints and
#   renders, the userspace-api page is valid reST in its index, the man
#   page's ERRORS and every base's userspace-api page and cover letter
#   state the rows of docs/errnos, whose selftest cases exist and assert
#   them; the generated files (the plan, the docs' blocks, the
#   workflow) are what make docs writes. The patched tree must exist
#   (make tree).
set -eu
. "$(dirname "$0")/../lib.sh"

MAN=$TOP/docs/man/PIDFD_IOCTL_GETFD.2const
RST=Documentation/userspace-api/pidfd-getfd.rst

man_page_lints_clean() { man_lints "$MAN" "$LOGS"; }

rst_page_is_valid() {
	/usr/bin/python3 - "$KSRC/$RST" <<'PY'
import sys, docutils.core
docutils.core.publish_file(source_path=sys.argv[1], writer_name='null',
                           settings_overrides={'report_level': 1, 'halt_level': 1})
print(sys.argv[1] + ': no docutils messages')
PY
	grep -qx "   pidfd-getfd" "$KSRC/Documentation/userspace-api/index.rst" ||
		{ echo "$RST is not in the userspace-api index"; return 1; }
}

# The errno table's shared checks (ERRNOS, errnos, base_conf,
# errno_rows_match, cover_rows_match): boot/checks/errnos.sh.
. "$TOP/boot/checks/errnos.sh"
# unpatched_errno BASE: the name of the errno BASE's pristine kernel answers
unpatched_errno() {
	# shellcheck disable=SC2046 # NAME NUMBER
	set -- $(base_conf "$1" UNKNOWN_IOCTL_ERRNO)
	echo "${1:-}"
}

# The selftests' cases, "NAME ERRNO..." a line: the errno names in each
# TEST/TEST_F body (to its closing brace at the start of a line).
selftest_cases() {
	awk '/^TEST(_F)?(_TIMEOUT)?\(/ {
			name = $0; sub(/^TEST[A-Z_]*\(([A-Za-z0-9_]+, *)?/, "", name); sub(/[,)].*/, "", name)
			out = name; body = 1; next }
		body { s = $0; while (match(s, /E[A-Z0-9]+/)) { out = out " " substr(s, RSTART, RLENGTH); s = substr(s, RSTART + RLENGTH) } }
		body && /^}/ { print out; body = 0 }' \
		"$TOP/selftests/pidfd_getfd_ioctl_test.c" "$TOP/selftests/pidfd_getfd_fault_test.c"
}

# Each row of docs/errnos is well formed; the selftest cases it names
# exist and assert its errno; baseline@BASE is what BASE's pristine kernel
# answers (UNKNOWN_IOCTL_ERRNO), and every base has such a row; an @BASE
# names a base.
errno_table_is_sound() {
	errnos -v doc=tests "$ERRNOS" >"$LOGS/errnos-tests" || return 1
	selftest_cases >"$LOGS/selftest-cases"
	rc=0 n=0
	while read -r line e by; do
		n=$((n + 1))
		case $by in
		untested) ;;
		in@*)
			known_bases | grep -qxF "${by#in@}" ||
				{ echo "docs/errnos:$line: $by: no base ${by#in@} (boot/base/)"; rc=1; } ;;
		baseline@*)
			b=${by#baseline@}
			if ! known_bases | grep -qxF "$b"; then
				echo "docs/errnos:$line: $by: no base $b (boot/base/)"; rc=1
			elif [ "$(unpatched_errno "$b")" != "$e" ]; then
				echo "docs/errnos:$line: $e for $by, but boot/base/$b/base.conf says UNKNOWN_IOCTL_ERRNO='$(base_conf "$b" UNKNOWN_IOCTL_ERRNO)'"; rc=1
			fi ;;
		*)
			c=$(awk -v t="$by" '$1 == t' "$LOGS/selftest-cases")
			if [ -z "$c" ]; then
				echo "docs/errnos:$line: $e: no selftest case $by (TEST/TEST_F in selftests/pidfd_getfd_ioctl_test.c or pidfd_getfd_fault_test.c)"; rc=1
			elif ! echo "$c" | tr ' ' '\n' | sed 1d | grep -qxF "$e"; then
				echo "docs/errnos:$line: $e: the selftest case $by does not name $e"; rc=1
			fi ;;
		esac
	done <"$LOGS/errnos-tests"
	for b in $(known_bases); do
		e=$(unpatched_errno "$b")
		if grep -q " $e baseline@$b\$" "$LOGS/errnos-tests"; then
			echo "$b: a kernel without the series answers $e: a row says so"
		else
			echo "$b: a kernel without the series answers $e (base.conf), and no row of docs/errnos is shown by baseline@$b"
			rc=1
		fi
	done
	echo "$n cases, bases and reasons named by docs/errnos"
	return $rc
}

# What the selftests assert: errno names on their EXPECT/ASSERT lines. ENXIO
# is the contrast case, open(2) of /proc/PID/fd/N of a socket, not the ioctl.
selftest_errnos() {
	sed -n 's/^#define[[:space:]]\{1,\}\(E[A-Z0-9]*\)[[:space:]].*/\1/p' \
		/usr/include/asm-generic/errno-base.h /usr/include/asm-generic/errno.h | sort -u >"$LOGS/errno-names"
	grep -hE '(EXPECT|ASSERT)_[A-Z]+\(' "$TOP/selftests/pidfd_getfd_ioctl_test.c" \
		"$TOP/selftests/pidfd_getfd_fault_test.c" | grep -oE '\<E[A-Z0-9]+\>' |
		sort -u | comm -12 - "$LOGS/errno-names" | grep -vx ENXIO
}
selftest_errnos_have_rows() {
	errnos -v doc=tests "$ERRNOS" | awk '$3 != "untested" && $3 !~ /@/ { print $2 }' | sort -u >"$LOGS/errnos-shown"
	selftest_errnos >"$LOGS/errnos-asserted"
	echo "asserted by the selftests: $(tr '\n' ' ' <"$LOGS/errnos-asserted")"
	echo "docs/errnos names a case for: $(tr '\n' ' ' <"$LOGS/errnos-shown")"
	[ -s "$LOGS/errnos-asserted" ] || { echo "the selftests assert no errno"; return 1; }
	diff "$LOGS/errnos-asserted" "$LOGS/errnos-shown" |
		sed -n -e 's/^< \(.*\)/\1: asserted by a selftest; no row of docs\/errnos names a case for it/p' \
			-e 's/^> \(.*\)/\1: a row names a case for it; no selftest asserts it/p'
	cmp -s "$LOGS/errnos-asserted" "$LOGS/errnos-shown"
}

man_rows_match() { errno_rows_match "the man page" man "$MAN"; }
# The page as BASE's series adds it (the patch that creates it).
rst_rows_match() { # BASE
	s=$(base_conf "$1" SERIES)
	p=$(grep -l "^+++ b/$RST\$" "$TOP/$s"/*.patch | head -n 1)
	[ -n "$p" ] || { echo "no patch in $s creates $RST"; return 1; }
	patch_new_file "$p" "$RST" >"$LOGS/errnos-rst-$1" || return 1
	echo "$1's page: as ${p#"$TOP"/} adds it"
	errno_rows_match "$1's page" rst "$LOGS/errnos-rst-$1" "$1"
}

# Every path of this repository that README.md and docs/*.md name, in
# backquotes or not (a word that starts with one of its top folders, not
# inside a longer path or a URL), exists; ARCH, BASE, FLAVOUR and SUITE
# stand for any arch, base, flavour and suite (the first of each is
# tried), NAME for any name, NEW for one to add.
doc_paths_exist() {
	rc=0 n=0
	for p in $(cd "$TOP" && grep -ohE '(^|[^A-Za-z0-9_./-])(boot|docs|samples|selftests|kernel-patches|uapi)/[A-Za-z0-9_.*/-]*' \
		README.md docs/*.md | sed -E 's/^[^a-z]//; s/[.,;:)]*$//' | sort -u); do
		case $p in */NEW/* | */NEW) continue ;; esac
		q=$(echo "$p" | sed -e "s/ARCH/$(known_arches | head -n 1)/g" -e "s/BASE/$BASE/g" \
			-e 's/FLAVOUR/debug/g' -e 's/SUITE/check/g' -e 's/NAME/*/g')
		n=$((n + 1))
		# shellcheck disable=SC2086 # a glob in the docs is matched
		(cd "$TOP" && ls -d $q) >/dev/null 2>&1 || { echo "named but missing: $p"; rc=1; }
	done
	echo "$n paths named"
	return $rc
}

host_kept "$LOGS/docs.log" && exit 0
step "checking the documentation"
host_begin "$LOGS/docs.log" docs
# boot/plan/logs, the docs' blocks and the workflow are what make docs
# writes from the plan's rules (boot/plan/docs.sh)
host_case docs "the-plan-the-docs-blocks-and-the-workflow-are-what-make-docs-writes" \
	sh "$TOP/boot/plan/docs.sh"
host_case docs "every-path-readme-and-the-docs-name-exists" doc_paths_exist
host_case docs "man-page-lints-clean-and-renders" man_page_lints_clean
host_case docs "userspace-api-page-is-valid-rest-in-the-index" rst_page_is_valid
host_case errnos "docs-errnos-rows-are-well-formed-and-their-selftest-cases-assert-the-errno" \
	errno_table_is_sound
host_case errnos "every-errno-the-selftests-assert-has-a-row-that-names-a-case" \
	selftest_errnos_have_rows
host_case errnos "man-page-errors-are-docs-errnos-row-by-row" man_rows_match
for b in $(known_bases); do
	host_case errnos-rst "$b-userspace-api-page-errors-are-docs-errnos-row-by-row" rst_rows_match "$b"
done
for b in $(known_bases); do
	host_case errnos-cover "$b-cover-letter-errors-are-docs-errnos-row-by-row" cover_rows_match "$b"
done
host_end

