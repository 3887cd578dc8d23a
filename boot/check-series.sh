#!/bin/sh
# boot/check-series.sh ARCH...
#   Every prefix of kernel-patches/series builds for every ARCH: apply the
#   patches one by one with git am in $CACHE/series/linux and build each
#   step incrementally in $CACHE/series/build/ARCH. TAP in
#   $CACHE/logs/series.log.
set -eu
. "$(dirname "$0")/lib.sh"
[ $# -gt 0 ] || die "usage: $0 ARCH..."
for a in "$@"; do load_arch "$a"; done
ARCH=

wt=$CACHE/series/linux
sh "$TOP/boot/tree.sh" worktree "$wt" pristine
host_begin "$LOGS/series.log" series
n=0
total=$(series_patches | wc -l)
for p in $(series_patches); do
	n=$((n + 1))
	step "prefix $n/$total: $p"
	sh "$TOP/boot/tree.sh" am "$wt" "$TOP/kernel-patches/$p"
	for a in "$@"; do
		host_case "prefix-builds" "$a-$(printf %02d $n)-${p%.patch}" \
			env KERNEL_SRC="$wt" KERNEL_BUILD="$CACHE/series/build/$a" \
			sh "$TOP/boot/kernel.sh" "$a"
	done
done
host_end
