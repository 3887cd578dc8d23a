#!/bin/sh
# boot/checks/pristine-image.sh ARCH...
#   The premise of the baseline's pristine kernels, checked. baseline.sh
#   builds them through the shared ccache, where nearly every object is a
#   hit from the patched kernels' build: the series changes no header that
#   most files include, so those objects are the same. Here each arch's
#   pristine kernel is built twice, into new build directories at the same
#   depth under $BCACHE (so that ccache's base_dir writes the same paths
#   into __FILE__): once as baseline.sh builds it, through the shared
#   ccache, and once through an empty ccache of its own, every object
#   compiled from the pristine sources; both with the build's time, user,
#   host and number fixed. The two vmlinux files and images must be the
#   same byte for byte (cmp). TAP in $LOGS/pristine-image.log. Not in
#   .ci/run: the second build is a whole kernel per arch; the workflow runs
#   it weekly (boot/plan/matrix).
set -eu
. "$(dirname "$0")/../lib.sh"
[ $# -gt 0 ] || die "usage: $0 ARCH..."
src=$BCACHE/pristine/linux
sh "$TOP/boot/kernel/tree.sh" worktree "$src" pristine
export KBUILD_BUILD_TIMESTAMP='Thu Jan  1 00:00:00 UTC 1970' KBUILD_BUILD_USER=pidfd-getfd \
	KBUILD_BUILD_HOST=pidfd-getfd KBUILD_BUILD_VERSION=1

same_image() { # ARCH
	load_arch "$1"
	shared=$BCACHE/pristine/build/image-shared-$ARCH
	own=$BCACHE/pristine/build/image-own-$ARCH
	own_ccache=$BCACHE/pristine/ccache-own-$ARCH
	rm -rf "$shared" "$own" "$own_ccache"
	sh "$TOP/boot/kernel/build.sh" -s "$src" -o "$shared" "$ARCH" || return 1
	CCACHE_DIR=$own_ccache sh "$TOP/boot/kernel/build.sh" -s "$src" -o "$own" "$ARCH" || return 1
	echo "the build with an empty ccache: $(CCACHE_DIR=$own_ccache ccache --print-stats |
		awk -F'\t' '$1 ~ /^(direct_cache_hit|preprocessed_cache_hit|cache_miss)$/ { printf "%s %s ", $1, $2 }')"
	for f in vmlinux "$KIMAGE"; do
		cmp "$shared/$f" "$own/$f" || return 1
		echo "same: $f ($(wc -c <"$own/$f") bytes)"
	done
	rm -rf "$shared" "$own" "$own_ccache"
}

host_begin "$LOGS/pristine-image.log" pristine-image
for a in "$@"; do
	host_case pristine-image "$a-the-pristine-kernel-from-the-shared-ccache-is-the-one-built-without" same_image "$a"
done
host_end
