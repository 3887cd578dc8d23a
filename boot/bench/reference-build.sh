#!/bin/sh
# boot/bench/reference-build.sh
#   The reference build: a kernel build that never changes with the
#   project, so that a time measured on one machine can be compared with a
#   time measured on another (docs/measurements.md gives every timing row
#   in reference builds). It is linux-source-6.1's x86_64 tinyconfig
#   bzImage, built with plain gcc (no ccache) and make -j$(nproc) in a
#   freshly extracted tree; the configuration step is not timed. Prints the
#   seconds, and the machine's CPU, in one line. Run it with nothing else
#   running on the machine.
set -eu
. "$(dirname "$0")/../lib.sh"
tarball=/usr/src/linux-source-6.1.tar.xz
[ -f "$tarball" ] || die "$tarball missing (apt-get install linux-source-6.1)"
case $(uname -m) in
x86_64) cross= ;;
*) cross=x86_64-linux-gnu- ;;
esac
command -v "${cross}gcc" >/dev/null || die "no ${cross}gcc for an x86_64 kernel"
dir=$CACHE/reference
src=$dir/linux-6.1 out=$dir/build-x86_64 log=$dir/build.log
if [ ! -f "$src/Makefile" ]; then
	step "extracting $tarball into $src"
	rm -rf "$src"
	mkdir -p "$src"
	tar -C "$src" --strip-components=1 -xf "$tarball"
fi
rm -rf "$out"
mkdir -p "$out"
# Plain gcc: no ccache, even where /usr/lib/ccache is on PATH; no outer
# make's flags.
PATH=$(printf '%s' "$PATH" | tr : '\n' | grep -v ccache | paste -sd:)
rmake() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u KCFLAGS -u KCPPFLAGS -u ARCH -u CROSS_COMPILE \
		make -C "$src" O="$out" ARCH=x86_64 CROSS_COMPILE="$cross" "$@"
}
rmake tinyconfig >"$log" 2>&1 || { tail -n 20 "$log" >&2; die "tinyconfig failed (log: $log)"; }
n=$(nproc)
step "timing make -j$n bzImage (x86_64 tinyconfig, $("${cross}gcc" -dumpfullversion), log: $log)"
t0=$(date +%s.%N)
rmake -j"$n" bzImage >>"$log" 2>&1 || { tail -n 20 "$log" >&2; die "the reference build failed (log: $log)"; }
t1=$(date +%s.%N)
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
version=$(sed -n 's/^VERSION = //p; s/^PATCHLEVEL = //p; s/^SUBLEVEL = //p' "$src/Makefile" | paste -sd.)
printf 'reference build: %.0f s (linux %s x86_64 tinyconfig bzImage, gcc %s, -j%s, %s)\n' \
	"$(echo "$t1 - $t0" | bc)" "$version" "$("${cross}gcc" -dumpfullversion)" "$n" "$cpu"
