#!/bin/sh
# boot/checks/canary.sh ARCH PATCH
#   Prove that 'make check-debug' can fail: build the debug kernel from the
#   series plus PATCH (a deliberate bug) in $BCACHE/canary, boot the debug
#   suite on it, and succeed only if the verdict rejects it. Prints the
#   verdict's failures. Not part of CI (a debug build and a boot: 8 min
#   after make check-debug, whose ccache it reuses).
set -eu
. "$(dirname "$0")/../lib.sh"
load_arch "${1:?usage: $0 ARCH PATCH}"
patch=$(cd "$(dirname "${2:?usage: $0 ARCH PATCH}")" && pwd)/$(basename "$2")
src=$BCACHE/canary/linux
out=$BCACHE/canary/build/$ARCH-debug
log=$LOGS/$ARCH-canary.log

sh "$TOP/boot/kernel/tree.sh" worktree "$src" series
git -C "$src" apply "$patch" || die "$patch does not apply to the series"
step "canary: the series plus $(basename "$patch")"
sh "$TOP/boot/kernel/build.sh" -f debug -s "$src" -o "$out" "$ARCH"
sh "$TOP/boot/image/initramfs.sh" "$ARCH"
RERUN=1 sh "$TOP/boot/run.sh" -f debug -k "$out/$KIMAGE" -l "$log" "$ARCH" debug
if sh "$TOP/boot/verdict.sh" "$log" >"$log.verdict"; then
	cat "$log.verdict"
	die "the debug suite passed a kernel with $(basename "$patch"): it cannot catch that bug"
fi
grep '^FAILED' "$log.verdict"
tail -n 1 "$log.verdict"
done_step "canary caught: the debug verdict rejects $(basename "$patch") (log: $log)"
