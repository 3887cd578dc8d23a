#!/bin/sh
# boot/kernel/build.sh [-f FLAVOUR] [-s SRC -o OUT] ARCH
#   Configure (tinyconfig + boot/kernel/common.config +
#   boot/arch/ARCH/kernel.config [+ boot/flavour/FLAVOUR/kernel.config]) and
#   build ARCH's kernel image and samples/seccomp out of tree, with ccache.
#   -s SRC, -o OUT  another tree and build directory (default: the patched
#                   $BCACHE/linux into $BCACHE/build/ARCH[-FLAVOUR])
set -eu
. "$(dirname "$0")/../lib.sh"
usage="usage: $0 [-f FLAVOUR] [-s SRC -o OUT] ARCH"
flavour= src= out=
while getopts f:s:o: opt; do
	case $opt in
	f) flavour=$OPTARG ;;
	s) src=$OPTARG ;;
	o) out=$OPTARG ;;
	*) die "$usage" ;;
	esac
done
shift $((OPTIND - 1))
[ $# = 1 ] || die "$usage"
load_arch "$1"
[ -z "$flavour" ] || load_flavour "$flavour"
src=${src:-$KSRC}
out=${out:-$BUILD${flavour:+-$flavour}}
frags="$TOP/boot/kernel/common.config $ARCH_DIR/kernel.config"
[ -z "$flavour" ] || frags="$frags $TOP/boot/flavour/$flavour/kernel.config"
for f in $frags; do [ -f "$f" ] || die "no config fragment $f"; done
name=$ARCH${flavour:+-$flavour}
mkdir -p "$out" "$LOGS"
# One build at a time in a build directory. A second one (another make
# against the same cache, or what is left of a make whose shell was killed:
# its compilers inherit this lock) would read the dependency files the
# first is writing, and fail with fixdep errors far from the cause.
exec 9>"$out.lock"
flock -n 9 || die "another build is writing $out (lock: $out.lock)"
log=$LOGS/kernel-$(echo "${out#"$BCACHE"/}" | tr / -).log

command -v ccache >/dev/null || die "ccache missing (run 'make deps')"
kmake() { kbuild "$src" "$out" "$@"; }

# Regenerate .config only when a fragment changed, so rebuilds stay incremental.
want=$(cat $frags | sha256sum | cut -d' ' -f1)
if [ "$(cat "$out/.fragments.stamp" 2>/dev/null)" != "$want" ] || [ ! -f "$out/.config" ]; then
	step "configuring $name: tinyconfig + $(for f in $frags; do basename "$f"; done | tr '\n' ' ')"
	run_logged "$log" kmake tinyconfig
	run_logged "$log.merge" sh -c "cd '$out' && ARCH=$KARCH '$src/scripts/kconfig/merge_config.sh' -m -O '$out' '$out/.config' $frags"
	run_logged "$log" kmake olddefconfig
	"$TOP/boot/kernel/config.sh" verify "$out/.config" $frags
	echo "$want" >"$out/.fragments.stamp"
fi

# What the image is made of: the tree's commit and its changes (untracked
# files are ignored there: the tarball's .gitignore is /*), the .config,
# the compiler, linker and assembler, the target and how kbuild is called. A build whose
# key and image are those the last one left beside it (OUT/.build.key) is
# kept: kbuild's own pass over an unchanged tree reads every .cmd file and
# relinks nothing, and still takes seconds (docs/measurements.md).
head=$(git -C "$src" rev-parse HEAD) || die "$src is not a git tree (boot/kernel/tree.sh makes it)"
# Each input is read in this shell, so one that cannot be read stops here.
build_inputs() {
	echo "$head"
	git -C "$src" diff HEAD --binary >"$out/.build.diff" || return 1
	sha256sum <"$out/.build.diff"
	cat "$out/.config" || return 1
	for t in gcc ld as; do
		"${CROSS_COMPILE}$t" --version >"$out/.build.tool" || return 1
		head -n 1 "$out/.build.tool"
	done
	echo "$KTARGET"
	cat "$TOP/boot/kernel/build.sh" || return 1
	sed -n '/^kbuild() {/,/^}/p' "$TOP/boot/lib.sh"
}
build_inputs >"$out/.build.inputs" || die "cannot read the inputs of the $name build (see $out/.build.inputs)"
key=$(sha256sum <"$out/.build.inputs" | cut -d' ' -f1)
image_sum() { sha256sum <"$out/$KIMAGE" | cut -d' ' -f1; }
if [ -f "$out/$KIMAGE" ] && [ "$(cat "$out/.build.key" 2>/dev/null)" = "$key $(image_sum)" ]; then
	step "kernel $name kept: $out/$KIMAGE (the tree, .config and compiler of its last build)"
	exit 0
fi
rm -f "$out/.build.key"
step "building $name $KTARGET and samples/seccomp (-j$JOBS, log: $log)"
run_logged "$log" kmake -j"$JOBS" "$KTARGET" samples/seccomp/
[ -f "$out/$KIMAGE" ] || die "no $out/$KIMAGE after the build"
echo "$key $(image_sum)" >"$out/.build.key"
done_step "kernel $name ready: $out/$KIMAGE"
