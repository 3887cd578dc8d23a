#!/bin/sh
# boot/checks/mutant-einval.sh ARCH
#   Prove that the PIDFD_IOCTL_GETFD selftest fails, and does not skip, on
#   a kernel whose handler answers EINVAL to a valid request (a broken size
#   or flags check; issue 40, S1): build ARCH's kernel from the series plus
#   boot/checks/mutant-einval-BASE.patch in $BCACHE/mutant-einval (the same
#   depth as the patched tree, so ccache compiles only the file the patch
#   changes), boot the selftest alone (boot/suites/ioctl) on every ABI of
#   ARCH, and succeed only if each ABI's run exited 1 (KSFT_FAIL), not 4
#   (KSFT_SKIP) or 0 (boot/checks/ioctl-suite.awk want=failed). Needs the
#   patched tree and ARCH's guest programs (make check-guest first); not
#   part of CI (a kernel build and a boot). make check-mutant runs it.
set -eu
. "$(dirname "$0")/../lib.sh"
load_arch "${1:?usage: $0 ARCH}"
patch=$TOP/boot/checks/mutant-einval-$BASE.patch
[ -f "$patch" ] || die "no $patch: no EINVAL mutant for base $BASE"
src=$BCACHE/mutant-einval/linux
out=$BCACHE/mutant-einval/build/$ARCH
log=$LOGS/$ARCH-mutant-einval.log

sh "$TOP/boot/kernel/tree.sh" worktree "$src" series
git -C "$src" apply "$patch" || die "$(basename "$patch") does not apply to the series"
step "mutant: the series plus $(basename "$patch")"
sh "$TOP/boot/kernel/build.sh" -s "$src" -o "$out" "$ARCH"
sh "$TOP/boot/image/initramfs.sh" "$ARCH"
# The log fails the verdict by design: it is judged here, not there.
REUSE_FAILED=1 RERUN=1 sh "$TOP/boot/run.sh" -k "$out/$KIMAGE" -l "$log" "$ARCH" ioctl
judged=$(awk -v want=failed -f "$TOP/boot/console.awk" -f "$TOP/boot/checks/ioctl-suite.awk" "$log") ||
	{ echo "$judged"; die "the selftest did not fail on the EINVAL mutant: it cannot catch that bug (log: $log)"; }
echo "$judged"
# shellcheck disable=SC2086
[ "$(echo "$judged" | grep -c '^ok: ')" = "$(set -- $ABIS && echo $#)" ] ||
	die "not every ABI of $ARCH ($ABIS) ran the selftest on the mutant (log: $log)"
done_step "mutant caught: the selftest fails on $(basename "$patch") on $ABIS (log: $log)"
