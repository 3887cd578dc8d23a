#!/bin/sh
# boot/checks/docs.sh
#   The documentation, as TAP in $LOGS/docs.log: the man page lints and
#   renders, the userspace-api page is valid reST in its index, and the
#   errno lists of the man page, that page, the cover letter and the
#   selftests agree; the generated files (the plan, the docs' blocks, the
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

# Each document's list of errnos, one per line, sorted.
man_errnos() { sed -n '/^\.SH ERRORS/,/^\.SH /s/^\.B \(E[A-Z0-9]*\)$/\1/p' "$MAN" | sort -u; }
rst_errnos() { sed -n 's/^``\(E[A-Z0-9]*\)``.*/\1/p' "$KSRC/$RST" | sort -u; }
cover_errnos() {
	awk '/^Errors$/ { f = 1; next } f && /^$/ && n++ { exit } f && $NF ~ /^E[A-Z0-9]+$/ { print $NF }' \
		"$PATCHES/0000-cover-letter.patch" | sort -u
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

errnos_match() { # NAME-A FUNC-A NAME-B FUNC-B
	$2 >"$LOGS/errnos-a"
	$4 >"$LOGS/errnos-b"
	echo "$1: $(tr '\n' ' ' <"$LOGS/errnos-a")"
	echo "$3: $(tr '\n' ' ' <"$LOGS/errnos-b")"
	[ -s "$LOGS/errnos-a" ] || { echo "$1 lists no errno"; return 1; }
	diff "$LOGS/errnos-a" "$LOGS/errnos-b" | sed -n -e "s|^< |only in $1: |p" -e "s|^> |only in $3: |p"
	cmp -s "$LOGS/errnos-a" "$LOGS/errnos-b"
}

# Documented, and not asserted by any test: EINTR needs a fatal signal to
# the caller while it waits for the target's exec_update_lock (it never
# sees the errno), and EACCES an LSM with a file_receive hook (the guest
# kernels have only Yama, whose EPERM is tested).
UNTESTED_ERRNOS="EACCES EINTR"
man_tested_errnos() {
	man_errnos | grep -vxF "$(echo $UNTESTED_ERRNOS | tr ' ' '\n')"
}
untested_errnos_are_documented_and_untested() {
	rc=0
	for e in $UNTESTED_ERRNOS; do
		man_errnos | grep -qx "$e" || { echo "$e is not in the man page's ERRORS"; rc=1; }
		selftest_errnos | grep -qx "$e" && { echo "$e is asserted by a test now: drop it from UNTESTED_ERRNOS"; rc=1; }
	done
	[ $rc = 1 ] || echo "documented, not asserted by a test: $UNTESTED_ERRNOS"
	return $rc
}

# The errno sets above can agree while a row means the wrong thing: what a
# kernel without the series answers differs by base (UNKNOWN_IOCTL_ERRNO in
# boot/base/BASE/base.conf: ENOTTY on 6.1, EINVAL on 6.12). For each base,
# an entry of the man page's ERRORS for that errno must say that the kernel
# does not have PIDFD_IOCTL_GETFD.
man_entries() { # ERRNO [PAGE]: the text of PAGE's ERRORS entries for ERRNO
	awk -v e="$1" '/^\.SH ERRORS/ { f = 1; next } f && /^\.SH / { exit }
		f && /^\.TP/ { getline; cur = $0; next } f && cur == ".B " e' "${2:-$MAN}" | tr '\n' ' '
}
unpatched_errno_per_base_is_documented() {
	rc=0
	for b in $(known_bases); do
		# shellcheck disable=SC1090,SC2086
		e=$(. "$TOP/boot/base/$b/base.conf" && set -- $UNKNOWN_IOCTL_ERRNO && echo "$1")
		if man_entries "$e" "${1:-$MAN}" | grep -q 'does not have .*PIDFD_IOCTL_GETFD'; then
			echo "$b: a kernel without the series answers $e; the man page's $e entry says so"
		else
			echo "$b: a kernel without the series answers $e; no $e entry of the man page says so"
			rc=1
		fi
	done
	return $rc
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
host_case docs "man-page-errors-are-what-the-selftests-assert" \
	errnos_match "man page (less $UNTESTED_ERRNOS)" man_tested_errnos "selftests" selftest_errnos
host_case docs "man-page-errors-no-test-asserts-are-eacces-and-eintr" \
	untested_errnos_are_documented_and_untested
host_case docs "man-page-names-each-bases-errno-for-a-kernel-without-the-series" \
	unpatched_errno_per_base_is_documented
host_case docs "man-page-errors-are-the-cover-letters" \
	errnos_match "man page" man_errnos "cover letter" cover_errnos
host_case docs "man-page-errors-are-the-userspace-api-pages" \
	errnos_match "man page" man_errnos "$RST" rst_errnos
host_end

