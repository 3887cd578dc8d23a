#!/bin/sh
# boot/checks/prefixes.sh ARCH...
#   Every prefix of the base's series builds for every ARCH: apply the
#   patches one by one with git am in $BCACHE/prefixes/linux and build
#   each step incrementally in $BCACHE/prefixes/build/ARCH. TAP in
#   $LOGS/prefixes.log.
set -eu
. "$(dirname "$0")/../lib.sh"
[ $# -gt 0 ] || die "usage: $0 ARCH..."
for a in "$@"; do load_arch "$a"; done
ARCH=

wt=$BCACHE/prefixes/linux
sh "$TOP/boot/kernel/tree.sh" worktree "$wt" pristine
host_begin "$LOGS/prefixes.log" prefixes
n=0
total=$(series_patches | wc -l)
for p in $(series_patches); do
	n=$((n + 1))
	step "prefix $n/$total: $p"
	sh "$TOP/boot/kernel/tree.sh" am "$wt" "$PATCHES/$p"
	for a in "$@"; do
		host_case "prefix-builds" "$a-$(printf %02d $n)-$(echo "${p%.patch}" | tr / -)" \
			sh "$TOP/boot/kernel/build.sh" -s "$wt" -o "$BCACHE/prefixes/build/$a" "$a"
	done
done
host_end
