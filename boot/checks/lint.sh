#!/bin/sh
# boot/checks/lint.sh ARCH
#   The series, checked without booting, as TAP in $LOGS/lint.log: it
#   applies with git am and with quilt (no fuzz), checkpatch --strict, a
#   MAINTAINERS entry for every added file, the uapi copy, the reserved
#   ioctl number, the uapi headers it changes compiled alone with every
#   guest ABI's compiler, the repo's copies of the selftests, the samples
#   and the userspace-api page, the selftest with no warning from any
#   ABI's compiler, each cover letter ready to mail, sparse (nothing new),
#   and gcc -fanalyzer over the supervisor and the samples.
#   ARCH's kernel must be built (sparse runs on its config).
set -eu
. "$(dirname "$0")/../lib.sh"
load_arch "${1:?usage: $0 ARCH}"
WT=$BCACHE/wt

# Each series (boot/lib.sh series_dirs) lists exactly the patches beside
# it and has a cover letter.
series_files_match() {
	rc=0
	for p in $(series_patches); do
		[ -f "$PATCHES/$p" ] || { echo "series names missing $p"; rc=1; }
	done
	for s in $(series_dirs); do
		for f in "$PATCHES/$s"/*.patch; do
			p=${f#"$PATCHES"/}; p=${p#./}
			case $p in *0000-cover-letter.patch) continue ;; esac
			series_patches | grep -qxF "$p" || { echo "$p is not in $s/series"; rc=1; }
		done
		[ -f "$PATCHES/$s/0000-cover-letter.patch" ] || { echo "no cover letter in $s"; rc=1; }
		echo "$s: $(grep -c '^[0-9]' "$PATCHES/$s/series") patches"
	done
	return $rc
}

applies_with_git_am() {
	sh "$TOP/boot/kernel/tree.sh" worktree "$WT/am" pristine
	for p in $(series_patches); do
		sh "$TOP/boot/kernel/tree.sh" am "$WT/am" "$PATCHES/$p" || return 1
		echo "applied $p"
	done
	git -C "$WT/am" diff --quiet series -- || { echo "git am result differs from branch series"; return 1; }
}

applies_with_quilt() {
	sh "$TOP/boot/kernel/tree.sh" worktree "$WT/quilt" pristine
	git -C "$WT/quilt" clean -fdxq
	# One quilt series after the other, each with its own .pc.
	n=0
	for s in $(series_dirs); do
		n=$((n + 1))
		(cd "$WT/quilt" && QUILT_PATCHES="$PATCHES/$s" QUILT_PC=.pc$n \
			quilt push -a --fuzz=0) || return 1
	done
	rm -rf "$WT/quilt"/.pc*
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
# tree: one source, so any difference is drift. A base whose tree needs
# other lines (an older or newer kernel's style) says which, as a patch
# from the repo's copies to its files: boot/base/BASE/sources.diff.
SOURCES="selftests/pidfd_getfd_ioctl_test.c:tools/testing/selftests/pidfd/pidfd_getfd_ioctl_test.c
docs/userspace-api/pidfd-getfd.rst:Documentation/userspace-api/pidfd-getfd.rst
samples/seccomp/user-trap.c:samples/seccomp/user-trap.c
samples/seccomp/user-trap-helper.c:samples/seccomp/user-trap-helper.c
samples/seccomp/user-trap-helper.h:samples/seccomp/user-trap-helper.h
samples/seccomp/user-trap-pidfd.c:samples/seccomp/user-trap-pidfd.c"
sources_match_the_series() {
	want=$BCACHE/wt/sources
	rm -rf "$want"
	for pair in $SOURCES; do
		mkdir -p "$(dirname "$want/${pair#*:}")"
		cp "$TOP/${pair%%:*}" "$want/${pair#*:}"
	done
	if [ -f "$BASE_DIR/sources.diff" ]; then
		(cd "$want" && patch -p1 -s --no-backup-if-mismatch <"$BASE_DIR/sources.diff") ||
			{ echo "boot/base/$BASE/sources.diff does not apply to the repo's copies"; return 1; }
		echo "the repo's copies with boot/base/$BASE/sources.diff:"
	fi
	rc=0
	for pair in $SOURCES; do
		if cmp -s "$want/${pair#*:}" "$KSRC/${pair#*:}"; then
			echo "same: ${pair%%:*}"
		else
			diff -u "$KSRC/${pair#*:}" "$want/${pair#*:}" | head -n 20
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
	nr=$(sed -n "s/^#define PIDFD_IOCTL_GETFD _IOW('p', \(0x[0-9a-f]*\),.*/\1/p" \
		"$KSRC/include/uapi/linux/pidfd.h")
	[ -n "$nr" ] && [ $((nr)) -ge $((0x$1)) ] && [ $((nr)) -le $((0x$2)) ] ||
		{ echo "PIDFD_IOCTL_GETFD's number '$nr' is not in $1-$2"; return 1; }
	used=$(p_ioctls_in "$1" "$2")
	[ -z "$used" ] || { echo "used by other headers:"; echo "$used"; return 1; }
	echo "no other uapi header uses 'p' $1-$2"
}

# 'p' 0xb0 is spelled out, with no PIDFD_IOC_MAGIC-style macro, so that the
# usual grep for a type's users finds the command.
uapi_spells_the_command_out() {
	h=$KSRC/include/uapi/linux/pidfd.h
	echo "PIDFD_IOC_MAGIC in linux/pidfd.h: $(grep -c PIDFD_IOC_MAGIC "$h")"
	! grep -q PIDFD_IOC_MAGIC "$h" &&
		grep -n "^#define PIDFD_IOCTL_GETFD _IOW('p', 0xb0, struct pidfd_getfd_args)\$" "$h"
}

# Where pidfs keeps the one list of its valid commands (pidfs_ioctl_valid(),
# 6.12), the command is matched in it. A base with fs/pidfs.c (6.9 and
# later) runs this case, and fails it without that list; 6.1 has no pidfs.
pidfs_lists_the_command() {
	f=$KSRC/fs/pidfs.c
	sed -n '/^static bool pidfs_ioctl_valid(/,/^}/p' "$f" | grep -n 'pidfd_ioctl_is_getfd(cmd)'
}

# The check can fail: linux/pr.h's 'p' 0xC8-0xCD are in C0-CF.
range_check_finds_pr_h() {
	used=$(p_ioctls_in C0 CF)
	echo "$used"
	echo "$used" | grep -q '^include/uapi/linux/pr.h:.*: 0xC8$'
}

# uapi/linux/pidfd.h against the patched tree's: the whole file, or, for a
# base whose header has more than ours (UAPI_COMPARE=block in base.conf),
# the block the series adds, from its first comment to the command.
uapi_block() {
	sed -n '/^\/\* Flags for PIDFD_IOCTL_GETFD\. \*\/$/,/^#define PIDFD_IOCTL_GETFD /p' "$1"
}
uapi_copy_identical() {
	case $UAPI_COMPARE in
	file) diff -u "$KSRC/include/uapi/linux/pidfd.h" "$TOP/uapi/linux/pidfd.h" ;;
	block)
		uapi_block "$KSRC/include/uapi/linux/pidfd.h" >"$LOGS/uapi-tree"
		uapi_block "$TOP/uapi/linux/pidfd.h" >"$LOGS/uapi-repo"
		echo "the block the series adds: $(wc -l <"$LOGS/uapi-repo") lines"
		[ -s "$LOGS/uapi-repo" ] && diff -u "$LOGS/uapi-tree" "$LOGS/uapi-repo"
		;;
	*) echo "UAPI_COMPARE is '$UAPI_COMPARE' in boot/base/$BASE/base.conf: want file or block"; return 1 ;;
	esac
}

# Sparse warnings of a file in the pristine and the patched tree, without
# line numbers, which the series shifts.
sparse_warnings() { # SRC BUILD OBJ
	kbuild "$1" "$2" C=2 "$3" 2>&1 |
		grep -E 'warning:|error:' | sed -E -e "s|^$1/||" -e 's/:[0-9]+:[0-9]+:/:/' | sort
}

sparse_adds_nothing() { # FILE.c
	obj=${1%.c}.o
	sparse_warnings "$BCACHE/pristine/linux" "$BCACHE/pristine/build/sparse-$ARCH" "$obj" >"$LOGS/sparse-before"
	sparse_warnings "$KSRC" "$BUILD" "$obj" >"$LOGS/sparse-after"
	echo "sparse on $1: $(wc -l <"$LOGS/sparse-before") warnings before, $(wc -l <"$LOGS/sparse-after") after"
	! comm -13 "$LOGS/sparse-before" "$LOGS/sparse-after" | grep .
}

prepare_sparse_pristine() {
	sh "$TOP/boot/kernel/tree.sh" worktree "$BCACHE/pristine/linux" pristine
	b=$BCACHE/pristine/build/sparse-$ARCH
	mkdir -p "$b"
	cmp -s "$BUILD/.config" "$b/.config" || cp "$BUILD/.config" "$b/.config"
	run_logged "$LOGS/sparse-prepare.log" kbuild "$BCACHE/pristine/linux" "$b" -j"$JOBS" olddefconfig prepare
}

# A patch by anyone but the project (an upstream backport) keeps its
# upstream author date: older than every patch the project wrote, on any
# base (issue 40, S5: 6.12/0001 had the date of its export).
PLACEHOLDER='pidfd-getfd developers <pidfd-getfd@localhost>'
patch_epoch() { date -u -d "$(sed -n 's/^Date: //p' "$1" | head -n 1)" +%s; }
backports_keep_their_upstream_dates() {
	ours=$(find "$TOP/kernel-patches" -name '0*.patch' ! -name '0000-cover-letter.patch' \
		-exec grep -lxF "From: $PLACEHOLDER" {} + | while read -r f; do
		echo "$(patch_epoch "$f") ${f#"$TOP"/}"
	done | sort -n | head -n 1)
	echo "the project's oldest patch: ${ours#* } ($(date -u -d "@${ours%% *}"))"
	rc=0
	for p in $(series_patches); do
		grep -qxF "From: $PLACEHOLDER" "$PATCHES/$p" && continue
		d=$(patch_epoch "$PATCHES/$p")
		echo "$p: $(sed -n 's/^From: //p' "$PATCHES/$p" | head -n 1), $(date -u -d "@$d")"
		[ "$d" -lt "${ours%% *}" ] || { echo "  is not older than the project's patches: not an upstream date"; rc=1; }
	done
	return $rc
}

# A reST-style heading in a commit message keeps its underline on a line of
# its own (issue 40, S7: 6.12/0004 had "The command and its versions ---").
headings_keep_their_underline() {
	rc=0
	for p in $(series_patches); do
		sed -n '/^Subject:/,/^---$/p' "$PATCHES/$p" | grep -nE '[^-[:space:]][[:space:]]+-{4,}$' |
			sed "s|^|$p: |" | grep . && rc=1
	done
	[ $rc = 1 ] || echo "no heading joined to its underline in $(series_patches | wc -l) messages"
	return $rc
}

# kernel-patches/resign.sh on a scratch repo: a commit by an upstream author
# keeps its author and author date, and gets the poster's sign-off in place
# of the placeholder's; a commit by the placeholder becomes the poster's.
resign_keeps_upstream_authors_and_dates() {
	r=$BCACHE/wt/resign
	rm -rf "$r"
	mkdir -p "$r"
	git -C "$r" init -q
	git -C "$r" config user.name Poster
	git -C "$r" config user.email poster@example.org
	echo a >"$r/f" && git -C "$r" add f && git -C "$r" commit -q -m base && git -C "$r" tag base
	echo b >>"$r/f" && git -C "$r" add f
	GIT_AUTHOR_NAME=Upstream GIT_AUTHOR_EMAIL=up@example.org GIT_AUTHOR_DATE=2024-12-01T18:04:36+00:00 \
		git -C "$r" commit -q -m upstream -m "Signed-off-by: Upstream <up@example.org>
Signed-off-by: $PLACEHOLDER"
	echo c >>"$r/f" && git -C "$r" add f
	GIT_AUTHOR_NAME='pidfd-getfd developers' GIT_AUTHOR_EMAIL=pidfd-getfd@localhost \
		git -C "$r" commit -q -m ours -m "Signed-off-by: $PLACEHOLDER"
	sh "$TOP/kernel-patches/resign.sh" "$r" base
	up=$(git -C "$r" log -1 --format='%an <%ae> %aI|%(trailers:key=Signed-off-by,valueonly,separator=%x2C)' HEAD~1)
	me=$(git -C "$r" log -1 --format='%an <%ae>|%(trailers:key=Signed-off-by,valueonly,separator=%x2C)' HEAD)
	echo "upstream commit: $up"
	echo "our commit: $me"
	[ "$up" = "Upstream <up@example.org> 2024-12-01T18:04:36+00:00|Upstream <up@example.org>,Poster <poster@example.org>" ] &&
		[ "$me" = "Poster <poster@example.org>|Poster <poster@example.org>" ]
}

# The uapi headers the series changes compile on their own in user space,
# for every guest ABI: the kernel's CONFIG_UAPI_HEADER_TEST steps
# (usr/include/Makefile: each header installed by headers_install.sh, then
# compiled twice over with -std=c90, then headers_check.pl), run here with
# each ABI's own compiler over the headers of the ABI's kernel arch
# (UAPI_ARCH_ABI in arch.conf where it is not the arch's KARCH: armhf's
# programs use arch/arm's). The kernel's test runs only the kernel's own
# compiler. A copy of each header with a C++ comment must fail, so that
# the compile is known to judge.
uapi_changed() {
	git -C "$KSRC" diff --name-only --diff-filter=AM pristine series -- 'include/uapi/*' 'arch/*/include/uapi/*' |
		sed -E 's|^(arch/[^/]*/)?include/uapi/||'
}
uapi_abis() { # one line each: ABI COMPILER KERNEL-ARCH
	for _a in $(known_arches); do
		(
			load_arch "$_a"
			for _abi in $ABIS; do
				eval "_ha=\${UAPI_ARCH_$_abi:-\$KARCH}"
				echo "$_abi $(abi_var "$_abi" CC) $_ha"
			done
		)
	done
}
uapi_compiles() { # ABI COMPILER KERNEL-ARCH
	out=$BCACHE/uapi/$3
	mkdir -p "$out"
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$KSRC" O="$out" ARCH="$3" \
		CROSS_COMPILE="${2%gcc}" headers >"$out/headers.log" 2>&1 ||
		{ tail -n 20 "$out/headers.log"; echo "make ARCH=$3 headers failed"; return 1; }
	inc=$out/usr/include
	hdrs=$(uapi_changed)
	[ -n "$hdrs" ] || { echo "the series changes no uapi header"; return 1; }
	for h in $hdrs; do
		"$2" -std=c90 -Wall -Werror=implicit-function-declaration -I "$inc" \
			-I "$KSRC/usr/dummy-include" -fsyntax-only -x c /dev/null \
			-include "$inc/$h" -include "$inc/$h" || return 1
		perl "$KSRC/usr/include/headers_check.pl" "$inc" "$3" "$inc/$h" || return 1
		echo "$h: compiles alone twice with $2 -std=c90 ($1, arch/$3's headers); headers_check.pl is silent"
		sed '$a\
// a C++ comment, which -std=c90 refuses' "$inc/$h" >"$out/broken.h"
		if "$2" -std=c90 -Wall -I "$inc" -fsyntax-only -x c /dev/null -include "$out/broken.h" 2>/dev/null; then
			echo "a copy of $h with a C++ comment compiled: the check cannot fail"
			return 1
		fi
	done
}

# The selftest as the kernel's own Makefile builds it, the patched tree's
# copy, with every guest ABI's compiler (uapi_abis) at -Wall, against the
# headers the uapi group installed for the ABI's kernel arch (the
# Makefile's KHDR_INCLUDES): no warning at all. The harness is found as
# ../kselftest_harness.h, an ordinary header, as in the kernel's build;
# guest.mk's -isystem makes it a system header, which hides the warnings
# of its ASSERT_* macros (issue 40, S2: 16 on i386 and armhf).
selftest_has_no_warning() { # ABI COMPILER KERNEL-ARCH
	f=$KSRC/tools/testing/selftests/pidfd/pidfd_getfd_ioctl_test.c
	inc=$BCACHE/uapi/$3/usr/include
	[ -d "$inc" ] || { echo "no $inc: the uapi group installs it"; return 1; }
	"$2" -std=gnu11 -O2 -Wall -I"$inc" -pthread -c "$f" -o /dev/null >"$LOGS/abi-cc.out" 2>&1
	rc=$?
	cat "$LOGS/abi-cc.out"
	echo "$1: $2 -Wall: exit $rc, $(grep -c 'warning:' "$LOGS/abi-cc.out") warnings"
	[ $rc = 0 ] && [ ! -s "$LOGS/abi-cc.out" ]
}

# A cover letter as a maintainer receives it (git format-patch -v4
# --cover-letter --base): To and Cc, a versioned subject that counts the
# series' patches, a changelog entry for every round after the first
# ("Changes in vN"), the base named by base-commit, the pristine tree's id
# (what base-commit names; boot/kernel/tree.sh), and no body line over
# 75 columns but one with a URL or a Message-ID, which cannot be wrapped.
cover_letter_is_postable() { # SERIES-DIR
	f=$PATCHES/$1/0000-cover-letter.patch
	rc=0
	n=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$PATCHES/$1/series" | wc -l)
	subj=$(sed -n 's/^Subject: //p' "$f" | head -n 1)
	echo "$1: $subj"
	grep -q '^To: [^[:space:]]' "$f" || { echo "no To:"; rc=1; }
	grep -q '^Cc: [^[:space:]]' "$f" || { echo "no Cc:"; rc=1; }
	v=$(echo "$subj" | sed -n "s|^\[PATCH v\([0-9][0-9]*\) 0*/$n\] .*|\1|p")
	if [ -z "$v" ]; then
		echo "the subject is not [PATCH vN 0/$n] ..."
		rc=1
	else
		i=2
		while [ "$i" -le "$v" ]; do
			grep -q "^Changes in v$i\>" "$f" || { echo "no changelog entry 'Changes in v$i'"; rc=1; }
			i=$((i + 1))
		done
	fi
	grep -Eq '^base-commit: [0-9a-f]{40}$' "$f" || { echo "no base-commit:"; rc=1; }
	# what base-commit names: the tarball's tree, whatever commit holds it
	t=$(git -C "$KSRC" rev-parse "pristine^{tree}")
	grep -q "$t" "$f" || { echo "the letter does not name the pristine tree, $t"; rc=1; }
	awk 'body && length($0) > 75 && !/[a-z]+:\/\/|<[^ ]+@[^ ]+>/ { printf "line %d is %d columns\n", NR, length($0); bad = 1 }
		/^$/ { body = 1 } END { exit bad }' "$f" || rc=1
	return $rc
}

host_kept "$LOGS/lint.log" && exit 0
step "checking the series"
host_begin "$LOGS/lint.log" lint
host_case series "series-file-lists-every-patch" series_files_match
host_case series "series-applies-with-git-am" applies_with_git_am
host_case series "series-applies-with-quilt-push-no-fuzz" applies_with_quilt
for p in $(series_patches); do
	host_case checkpatch "$p" checkpatch_clean "$PATCHES/$p"
done
host_case series "every-added-file-has-a-maintainers-entry" added_files_are_maintained
host_case series "uapi-linux-pidfd.h-is-the-patched-tree's-$UAPI_COMPARE" uapi_copy_identical
host_case series "the-reserved-ioctl-number-is-used-by-no-other-uapi-header" ioctl_range_is_free
host_case series "the-range-check-finds-linux-pr.h-in-p-C0-CF" range_check_finds_pr_h
host_case series "the-uapi-header-spells-out-p-0xb0" uapi_spells_the_command_out
[ ! -f "$KSRC/fs/pidfs.c" ] ||
	host_case series "pidfs-ioctl-valid-lists-the-command" pidfs_lists_the_command
host_case series "selftests-samples-and-the-userspace-api-page-are-the-patched-tree's" sources_match_the_series
host_case series "backports-keep-their-upstream-author-dates" backports_keep_their_upstream_dates
host_case series "resign-keeps-upstream-authors-and-dates" resign_keeps_upstream_authors_and_dates
host_case series "message-headings-keep-their-underline" headings_keep_their_underline
uapi_abis >"$LOGS/uapi-abis"
while read -r abi cc harch; do
	host_case uapi "$abi" uapi_compiles "$abi" "$cc" "$harch" </dev/null
done <"$LOGS/uapi-abis"
while read -r abi cc harch; do
	host_case warnings "selftest-has-no-warning-for-$abi" selftest_has_no_warning "$abi" "$cc" "$harch" </dev/null
done <"$LOGS/uapi-abis"
for s in $(series_dirs); do
	host_case cover-letter "$(echo "$s" | sed 's|^\.$|series|')-cover-letter-is-postable" cover_letter_is_postable "$s"
done
# the series' letter states docs/errnos's rows for this base (docs.sh holds
# every base's to it; here make check-lint BASE=... fails on its own)
. "$TOP/boot/checks/errnos.sh"
host_case cover-letter "$BASE-cover-letter-errors-are-docs-errnos-row-by-row" cover_rows_match "$BASE"
command -v sparse >/dev/null || die "sparse missing (make deps)"
prepare_sparse_pristine
for f in $(git -C "$KSRC" diff --name-only pristine series -- '*.c' | grep -v -e '^tools/' -e '^samples/'); do
	host_case sparse "$f" sparse_adds_nothing "$f"
done
# The security code must be clean under gcc's static analyzer (leaks,
# use after free, NULL dereferences), with the same flags as the guest build.
analyzer_clean() {
	for f in "$@"; do
		gcc -std=gnu11 -O2 -Wall -Wextra -Werror -fanalyzer -I"$TOP/uapi" -I/usr/include/json-c -pthread \
			-c "$TOP/$f" -o /dev/null || return 1
		echo "$f: no analyzer warning"
	done
}
host_case analyzer "bind-supervisor-and-the-user-trap-samples-are-fanalyzer-clean" \
	analyzer_clean $(cd "$TOP" && ls samples/bind/*/*.c) \
		samples/seccomp/user-trap-helper.c samples/seccomp/user-trap-pidfd.c
# The supervisors' ABI table (one ABI(NAME, ...) row each) has a row for
# every ABI an arch record names: a guest of that ABI would otherwise
# have its binds killed by bind-supervisor's filter, and a missing row
# would be found only by a failed guest run.
ABI_TABLE=samples/bind/lib/abis.h
abi_rows() {
	sed -n 's/^[[:space:]]*ABI(\([A-Za-z0-9_]*\),.*/\1/p' "$TOP/$ABI_TABLE"
}
every_abi_has_a_row() {
	rows=$(abi_rows)
	[ -n "$rows" ] || { echo "$ABI_TABLE: no ABI(NAME, ...) row"; return 1; }
	rc=0
	for _a in $(known_arches); do
		for _abi in $(load_arch "$_a" && echo "$ABIS"); do
			if echo "$rows" | grep -qxF "$_abi"; then
				echo "$_abi (boot/arch/$_a/arch.conf): a row in $ABI_TABLE"
			else
				echo "$_abi (boot/arch/$_a/arch.conf): no ABI($_abi, ...) row in $ABI_TABLE"
				rc=1
			fi
		done
	done
	return $rc
}
host_case abis "every-abi-of-an-arch-record-has-a-row-in-the-supervisors'-abi-table" every_abi_has_a_row
host_end

