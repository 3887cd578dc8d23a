#!/bin/sh
# boot/canary.sh ARCH PATCH
#   Prove that 'make check-debug' can fail: build the debug kernel from the
#   series plus PATCH (a deliberate bug) in $CACHE/canary, boot the debug
#   suite on it, and succeed only if the verdict rejects it. Prints the
#   verdict's failures. Not part of CI (a debug build and a boot: 8 min
#   after make check-debug, whose ccache it reuses).
set -eu
. "$(dirname "$0")/lib.sh"
load_arch "${1:?usage: $0 ARCH PATCH}"
patch=$(cd "$(dirname "${2:?usage: $0 ARCH PATCH}")" && pwd)/$(basename "$2")
src=$CACHE/canary/linux
out=$CACHE/canary/build/$ARCH-debug
log=$LOGS/$ARCH-canary.log

sh "$TOP/boot/tree.sh" worktree "$src" series
git -C "$src" apply "$patch" || die "$patch does not apply to the series"
step "canary: the series plus $(basename "$patch")"
KERNEL_SRC=$src KERNEL_BUILD=$out sh "$TOP/boot/kernel.sh" "$ARCH" debug
sh "$TOP/boot/initramfs.sh" "$ARCH"
KERNEL_IMAGE=$out/$KIMAGE RUN_LOG=$log GUEST_MEM=1G sh "$TOP/boot/run.sh" "$ARCH" debug
if awk -f "$TOP/boot/verdict.awk" "$log" >"$log.verdict"; then
	cat "$log.verdict"
	die "the debug suite passed a kernel with $(basename "$patch"): it cannot catch that bug"
fi
grep '^FAILED' "$log.verdict"
tail -n 1 "$log.verdict"
done_step "canary caught: the debug verdict rejects $(basename "$patch") (log: $log)"
