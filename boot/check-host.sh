#!/bin/sh
# boot/check-host.sh ARCH
#   Checks that need no guest test, as TAP in $CACHE/logs/host-*.log:
#   the series (git am, quilt, checkpatch, uapi copy, sparse), the docs
#   (man page lint, errno lists against the selftests, cover letter and
#   kernel doc) and the harness itself (guests and logs that must fail the
#   verdict, a bad suite line, a dropped config option, the arch list, the
#   generated CI workflow).
#   ARCH's kernel and initramfs must be built.
set -eu
. "$(dirname "$0")/lib.sh"
load_arch "${1:?usage: $0 ARCH}"
WT=$CACHE/wt

# --- the series ---------------------------------------------------------

series_files_match() {
	rc=0
	for p in $(series_patches); do
		[ -f "$TOP/kernel-patches/$p" ] || { echo "series names missing $p"; rc=1; }
	done
	for f in "$TOP"/kernel-patches/*.patch; do
		p=$(basename "$f")
		case $p in 0000-cover-letter.patch) continue ;; esac
		series_patches | grep -qxF "$p" || { echo "$p is not in series"; rc=1; }
	done
	[ -f "$TOP/kernel-patches/0000-cover-letter.patch" ] || { echo "no cover letter"; rc=1; }
	return $rc
}

applies_with_git_am() {
	sh "$TOP/boot/tree.sh" worktree "$WT/am" pristine
	for p in $(series_patches); do
		sh "$TOP/boot/tree.sh" am "$WT/am" "$TOP/kernel-patches/$p" || return 1
		echo "applied $p"
	done
	git -C "$WT/am" diff --quiet series -- || { echo "git am result differs from branch series"; return 1; }
}

applies_with_quilt() {
	sh "$TOP/boot/tree.sh" worktree "$WT/quilt" pristine
	git -C "$WT/quilt" clean -fdxq
	(cd "$WT/quilt" && QUILT_PATCHES="$TOP/kernel-patches" QUILT_PC=.pc \
		quilt push -a --fuzz=0) || return 1
	rm -rf "$WT/quilt/.pc"
	git -C "$WT/quilt" add -A -f .
	git -C "$WT/quilt" diff --cached --stat series --
	git -C "$WT/quilt" diff --cached --quiet series -- ||
		{ echo "quilt's tree differs from git am's"; return 1; }
}

# FILE_PATH_CHANGES ("does MAINTAINERS need updating?") fires for every
# added file; added_files_are_maintained checks what it asks instead.
# UNKNOWN_COMMIT_ID: the tree is the Debian tarball in one commit, so
# checkpatch cannot find the mainline commit a backport names ("commit
# 0c9bd6bc4bb2... upstream."); the note on the patch says where it is.
checkpatch_clean() {
	# checkpatch finds the kernel tree from the current directory.
	# Debian's python3 first: checkpatch's SPDX check needs its python3-ply.
	out=$(cd "$KSRC" && PATH=/usr/bin:$PATH perl scripts/checkpatch.pl --strict --show-types \
		--ignore FILE_PATH_CHANGES,UNKNOWN_COMMIT_ID "$1" 2>&1) || true
	echo "$out"
	echo "$out" | grep -q '^total: 0 errors, 0 warnings, 0 checks'
}

added_files_are_maintained() {
	rc=0
	for f in $(git -C "$KSRC" diff --name-only --diff-filter=A pristine series); do
		m=$(cd "$KSRC" && perl scripts/get_maintainer.pl --no-git --no-git-fallback -f "$f" |
			grep -v 'THE REST' | grep -E '\((maintainer|supporter|reviewer):' | head -n 1)
		echo "$f: ${m:-no MAINTAINERS entry}"
		[ -n "$m" ] || rc=1
	done
	return $rc
}

# The repo's copies of what the series adds, and the files in the patched
# tree: one source, so any difference is drift.
sources_match_the_series() {
	rc=0
	for pair in selftests/pidfd_getfd_ioctl_test.c:tools/testing/selftests/pidfd/pidfd_getfd_ioctl_test.c \
		samples/seccomp/user-trap.c:samples/seccomp/user-trap.c \
		samples/seccomp/user-trap-helper.c:samples/seccomp/user-trap-helper.c \
		samples/seccomp/user-trap-helper.h:samples/seccomp/user-trap-helper.h \
		samples/seccomp/user-trap-pidfd.c:samples/seccomp/user-trap-pidfd.c; do
		if cmp -s "$TOP/${pair%%:*}" "$KSRC/${pair#*:}"; then
			echo "same: ${pair%%:*}"
		else
			diff -u "$KSRC/${pair#*:}" "$TOP/${pair%%:*}" | head -n 20
			rc=1
		fi
	done
	return $rc
}

# 'p' ioctl commands of the uapi headers, but linux/pidfd.h's, numbered LO
# to HI (hex): "FILE:LINE: 0xNN". The magic is 'p' or a macro defined as
# 'p'; the number is decimal or hex.
p_ioctls_in() { # LO HI
	magic=$(cd "$KSRC" && grep -rhE "^#define[[:space:]]+[A-Za-z0-9_]+[[:space:]]+'p'" \
		include/uapi arch/*/include/uapi | awk '{ printf "|%s", $2 }')
	(cd "$KSRC" && grep -rnE "_IO(R|W|WR)?\(('p'$magic),[[:space:]]*(0[xX][0-9a-fA-F]+|[0-9]+)" \
		include/uapi arch/*/include/uapi) | grep -v '^include/uapi/linux/pidfd.h:' |
		awk -v lo=$((0x$1)) -v hi=$((0x$2)) '
		function num(s,   v, i) {	# decimal or 0x hex; awk has no strtonum
			if (s !~ /^0[xX]/)
				return s + 0
			for (i = 3; i <= length(s); i++)
				v = v * 16 + index("0123456789abcdef", tolower(substr(s, i, 1))) - 1
			return v
		}
		{
			match($0, /_IO(R|W|WR)?\([^,]*,[[:space:]]*[0-9a-fA-FxX]+/)
			n = substr($0, RSTART, RLENGTH); sub(/.*,[[:space:]]*/, "", n)
			v = num(n)
			if (v >= lo && v <= hi) { split($0, f, ":"); printf "%s:%s: 0x%02X\n", f[1], f[2], v }
		}'
}

# The numbers ioctl-number.rst reserves for linux/pidfd.h hold our command
# and no other header's.
ioctl_range_is_free() {
	# "'p'   B0-BF  linux/pidfd.h ..." or, for one number, "'p'   B0     ..."
	range=$(sed -n "s|^'p' *\([0-9A-F][0-9A-F]\)-*\([0-9A-F]*\) *linux/pidfd.h .*|\1 \2|p" \
		"$KSRC/Documentation/userspace-api/ioctl/ioctl-number.rst")
	[ -n "$range" ] || { echo "ioctl-number.rst reserves no 'p' number for linux/pidfd.h"; return 1; }
	set -- $range
	[ $# = 2 ] || set -- "$1" "$1"
	echo "reserved: 'p' $1-$2"
	nr=$(sed -n "s/^#define PIDFD_IOCTL_GETFD _IOW(PIDFD_IOC_MAGIC, \(0x[0-9a-f]*\),.*/\1/p" \
		"$KSRC/include/uapi/linux/pidfd.h")
	[ -n "$nr" ] && [ $((nr)) -ge $((0x$1)) ] && [ $((nr)) -le $((0x$2)) ] ||
		{ echo "PIDFD_IOCTL_GETFD's number '$nr' is not in $1-$2"; return 1; }
	used=$(p_ioctls_in "$1" "$2")
	[ -z "$used" ] || { echo "used by other headers:"; echo "$used"; return 1; }
	echo "no other uapi header uses 'p' $1-$2"
}

# The check can fail: linux/pr.h's 'p' 0xC8-0xCD are in C0-CF.
range_check_finds_pr_h() {
	used=$(p_ioctls_in C0 CF)
	echo "$used"
	echo "$used" | grep -q '^include/uapi/linux/pr.h:.*: 0xC8$'
}

uapi_copy_identical() {
	diff -u "$KSRC/include/uapi/linux/pidfd.h" "$TOP/uapi/linux/pidfd.h"
}

# Sparse warnings of a file in the pristine and the patched tree, without
# line numbers, which the series shifts.
sparse_warnings() { # SRC BUILD OBJ
	kbuild "$1" "$2" C=2 "$3" 2>&1 |
		grep -E 'warning:|error:' | sed -E -e "s|^$1/||" -e 's/:[0-9]+:[0-9]+:/:/' | sort
}

sparse_adds_nothing() { # FILE.c
	obj=${1%.c}.o
	sparse_warnings "$CACHE/pristine/linux" "$CACHE/pristine/build/sparse-$ARCH" "$obj" >"$LOGS/sparse-before"
	sparse_warnings "$KSRC" "$BUILD" "$obj" >"$LOGS/sparse-after"
	echo "sparse on $1: $(wc -l <"$LOGS/sparse-before") warnings before, $(wc -l <"$LOGS/sparse-after") after"
	! comm -13 "$LOGS/sparse-before" "$LOGS/sparse-after" | grep .
}

prepare_sparse_pristine() {
	sh "$TOP/boot/tree.sh" worktree "$CACHE/pristine/linux" pristine
	b=$CACHE/pristine/build/sparse-$ARCH
	mkdir -p "$b"
	cmp -s "$BUILD/.config" "$b/.config" || cp "$BUILD/.config" "$b/.config"
	run_logged "$LOGS/sparse-prepare.log" kbuild "$CACHE/pristine/linux" "$b" -j"$JOBS" olddefconfig prepare
}

step "checking the series"
host_begin "$LOGS/host-series.log" series
host_case series "series-file-lists-every-patch" series_files_match
host_case series "series-applies-with-git-am" applies_with_git_am
host_case series "series-applies-with-quilt-push-no-fuzz" applies_with_quilt
for p in $(series_patches); do
	host_case checkpatch "$p" checkpatch_clean "$TOP/kernel-patches/$p"
done
host_case series "every-added-file-has-a-maintainers-entry" added_files_are_maintained
host_case series "uapi-linux-pidfd.h-is-the-patched-tree's" uapi_copy_identical
host_case series "the-reserved-ioctl-number-is-used-by-no-other-uapi-header" ioctl_range_is_free
host_case series "the-range-check-finds-linux-pr.h-in-p-C0-CF" range_check_finds_pr_h
host_case series "selftests-and-samples-are-the-patched-tree's" sources_match_the_series
command -v sparse >/dev/null || die "sparse missing (make deps)"
prepare_sparse_pristine
for f in $(git -C "$KSRC" diff --name-only pristine series -- '*.c' | grep -v -e '^tools/' -e '^samples/'); do
	host_case sparse "$f" sparse_adds_nothing "$f"
done
# The security code must be clean under gcc's static analyzer (leaks,
# use after free, NULL dereferences), with the same flags as the guest build.
analyzer_clean() {
	for f in "$@"; do
		gcc -std=gnu11 -O2 -Wall -Wextra -Werror -fanalyzer -I"$TOP/uapi" -pthread \
			-c "$TOP/$f" -o /dev/null || return 1
		echo "$f: no analyzer warning"
	done
}
host_case analyzer "bind-supervisor-and-the-user-trap-samples-are-fanalyzer-clean" \
	analyzer_clean $(cd "$TOP" && ls samples/bind-supervisor/*.c) \
		samples/seccomp/user-trap-helper.c samples/seccomp/user-trap-pidfd.c
host_end

# --- the documentation -----------------------------------------------------

MAN=$TOP/docs/man/PIDFD_IOCTL_GETFD.2const
RST=Documentation/userspace-api/pidfd-getfd.rst

man_page_lints_clean() {
	groff -man -ww -z "$MAN" >"$LOGS/man-lint" 2>&1
	MANWIDTH=80 man -l "$MAN" 2>>"$LOGS/man-lint" >"$LOGS/man-rendered"
	cat "$LOGS/man-lint"
	echo "rendered: $(wc -l <"$LOGS/man-rendered") lines"
	[ ! -s "$LOGS/man-lint" ] && [ -s "$LOGS/man-rendered" ]
}

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
		"$TOP/kernel-patches/0000-cover-letter.patch" | sort -u
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
	diff "$LOGS/errnos-a" "$LOGS/errnos-b" | sed -n -e "s/^< /only in $1: /p" -e "s/^> /only in $3: /p"
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

step "checking the documentation"
host_begin "$LOGS/host-docs.log" docs
host_case docs "man-page-lints-clean-and-renders" man_page_lints_clean
host_case docs "userspace-api-page-is-valid-rest-in-the-index" rst_page_is_valid
host_case docs "man-page-errors-are-what-the-selftests-assert" \
	errnos_match "man page (less $UNTESTED_ERRNOS)" man_tested_errnos "selftests" selftest_errnos
host_case docs "man-page-errors-no-test-asserts-are-eacces-and-eintr" \
	untested_errnos_are_documented_and_untested
host_case docs "man-page-errors-are-the-cover-letters" \
	errnos_match "man page" man_errnos "cover letter" cover_errnos
host_case docs "man-page-errors-are-the-userspace-api-pages" \
	errnos_match "man page" man_errnos "$RST" rst_errnos
host_end

# --- the harness can fail -------------------------------------------------

verdict_rejects() { # SUITE TIMEOUT EXPECTED-TEXT
	log=$LOGS/harness-$1.log
	RUN_LOG=$log sh "$TOP/boot/run.sh" "$ARCH" "$1" "$2" >/dev/null 2>&1
	if awk -f "$TOP/boot/verdict.awk" "$log" >"$log.verdict"; then
		echo "the verdict passed $log"
		return 1
	fi
	cat "$log.verdict"
	grep -q "$3" "$log.verdict"
}

config_drop_is_named() {
	frag=$CACHE/harness-dropped.config
	printf 'CONFIG_SECCOMP_FILTER=y\nCONFIG_PIDFD_HARNESS_SELFTEST_OPTION=y\n' >"$frag"
	if out=$(sh "$TOP/boot/config.sh" verify "$BUILD/.config" "$frag" 2>&1); then
		echo "verify accepted a missing option"
		return 1
	fi
	echo "$out"
	echo "$out" | grep -q 'CONFIG_PIDFD_HARNESS_SELFTEST_OPTION' &&
		! echo "$out" | grep -q 'CONFIG_SECCOMP_FILTER'
}

# verdict_on_logs EXPECTED-TEXT LOG...: the verdict over LOGs must fail and
# say EXPECTED-TEXT (logs made here, no guest needed)
verdict_on_logs() {
	want=$1
	shift
	if awk -f "$TOP/boot/verdict.awk" "$@" >"$LOGS/harness-logs.verdict" 2>&1; then
		cat "$LOGS/harness-logs.verdict"
		echo "the verdict passed $*"
		return 1
	fi
	cat "$LOGS/harness-logs.verdict"
	grep -q -- "$want" "$LOGS/harness-logs.verdict"
}

# A complete log of one passing test, and the same log cut before its end
good_log() {
	printf '@@@ RUN arch=%s suite=t\n@@@ BEGIN %s t\n1..1\nok 1 t\n@@@ END %s t status=0\n@@@ DONE\n' \
		"$1" "$1" "$1" >"$2"
}
cut_log() {
	good_log "$1" "$2"
	sed -i '/^@@@ DONE/d' "$2"
}

# A suite with one bad line among good ones: the check names that line.
a_bad_suite_line_is_named() {
	suite=$LOGS/harness-bad.suite
	printf '# a comment\nhello all 30 hello\nhangs nativ 30 harness-selftest hang\n' >"$suite"
	if awk -v abis="$ABIS" -v stage="$CACHE/user/$ARCH" -f "$TOP/boot/suite.awk" "$suite"; then
		echo "suite.awk accepted $suite"
		return 1
	fi 2>"$LOGS/harness-bad.suite.out"
	cat "$LOGS/harness-bad.suite.out"
	grep -q "harness-bad.suite:3: ABIS is 'nativ'" "$LOGS/harness-bad.suite.out"
}

# .github/workflows/check.yml is what boot/ci-matrix.sh makes of boot/arch/.
the_ci_workflow_is_generated() {
	sh "$TOP/boot/ci-matrix.sh" | diff -u "$TOP/.github/workflows/check.yml" - &&
		echo "the workflow's jobs: $(known_arches | tr '\n' ' ')"
}

# kbuild's ARCH in the environment must not pick the arches of a run.
an_environment_arch_is_ignored() {
	all=$(known_arches | tr '\n' ' ' | sed 's/ $//')
	# without the outer make's MAKEFLAGS: a 'make check ARCH=...' passes
	# its command-line ARCH down through them
	out=$(cd "$TOP" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL ARCH=x86 make -n check 2>&1 |
		grep 'boot/run.sh .* check')
	echo "$out"
	echo "$out" | grep -qF "for a in $all;"
}

an_empty_log_fails() {
	good_log x86_64 "$LOGS/harness-good.log"
	: >"$LOGS/harness-empty.log"
	verdict_on_logs "log is empty (log: $LOGS/harness-empty.log)" "$LOGS/harness-good.log" "$LOGS/harness-empty.log"
}

a_missing_log_fails() {
	good_log x86_64 "$LOGS/harness-good.log"
	rm -f "$LOGS/harness-missing.log"
	verdict_on_logs "log is missing (log: $LOGS/harness-missing.log)" "$LOGS/harness-good.log" "$LOGS/harness-missing.log"
}

a_cut_log_is_named() {
	cut_log arm64 "$LOGS/harness-cut.log"
	good_log x86_64 "$LOGS/harness-good.log"
	verdict_on_logs "@@@ DONE missing) (log: $LOGS/harness-cut.log)" \
		"$LOGS/harness-cut.log" "$LOGS/harness-good.log"
}

step "harness self-test: a failing guest, a hung guest, a warning before a hang, a stray process, a dropped option, a bad suite line, a missing, empty or cut log must fail"
host_begin "$LOGS/host-harness.log" harness
host_case harness "a-failing-guest-test-fails-the-verdict" \
	verdict_rejects selftest-fail 120 'a deliberately failing case'
host_case harness "a-guest-that-never-ends-fails-the-verdict" \
	verdict_rejects selftest-hang 15 'did not finish within 15 s'
host_case harness "a-kernel-warning-before-a-hang-is-in-the-verdict" \
	verdict_rejects selftest-warn 15 'kernel: harness-selftest: WARNING: a kernel warning, then a hang'
host_case harness "a-test-that-leaves-a-process-behind-fails-the-verdict" \
	verdict_rejects selftest-stray 120 'left a process behind: pid=.* comm=harness-selfte'
host_case harness "a-dropped-config-option-fails-naming-it" config_drop_is_named
host_case harness "a-bad-suite-line-fails-naming-it" a_bad_suite_line_is_named
host_case harness "an-arch-in-the-environment-does-not-narrow-the-run" an_environment_arch_is_ignored
host_case harness "the-ci-workflow-is-the-one-boot-arch-makes" the_ci_workflow_is_generated
host_case harness "an-empty-log-among-the-verdicts-inputs-fails-it" an_empty_log_fails
host_case harness "a-missing-log-among-the-verdicts-inputs-fails-it" a_missing_log_fails
host_case harness "a-cut-log-is-named-in-its-failure-not-the-next-log" a_cut_log_is_named
host_end
