#!/bin/sh
# boot/kernel.sh ARCH [FLAVOUR]
#   Configure (tinyconfig + boot/config/common.config + boot/arch/ARCH/kernel.config
#   [+ boot/config/FLAVOUR.config]) and build the kernel image for ARCH, out of
#   tree in $CACHE/build/ARCH[-FLAVOUR], with ccache.
#   KERNEL_SRC overrides the source tree (default: the patched $CACHE/linux).
set -eu
. "$(dirname "$0")/lib.sh"
load_arch "${1:?usage: $0 ARCH [FLAVOUR]}"
flavour=${2:-}
src=${KERNEL_SRC:-$KSRC}
out=${KERNEL_BUILD:-$BUILD${flavour:+-$flavour}}
frags="$TOP/boot/config/common.config $ARCH_DIR/kernel.config"
[ -z "$flavour" ] || frags="$frags $TOP/boot/config/$flavour.config"
for f in $frags; do [ -f "$f" ] || die "no config fragment $f"; done
name=$ARCH${flavour:+-$flavour}
mkdir -p "$out" "$LOGS"
log=$LOGS/kernel-$(echo "${out#"$CACHE"/}" | tr / -).log

command -v ccache >/dev/null || die "ccache missing (run 'make deps')"
kmake() { kbuild "$src" "$out" "$@"; }

# Regenerate .config only when a fragment changed, so rebuilds stay incremental.
want=$(cat $frags | sha256sum | cut -d' ' -f1)
if [ "$(cat "$out/.fragments.stamp" 2>/dev/null)" != "$want" ] || [ ! -f "$out/.config" ]; then
	step "configuring $name: tinyconfig + $(for f in $frags; do basename "$f"; done | tr '\n' ' ')"
	run_logged "$log" kmake tinyconfig
	run_logged "$log.merge" sh -c "cd '$out' && ARCH=$KARCH '$src/scripts/kconfig/merge_config.sh' -m -O '$out' '$out/.config' $frags"
	run_logged "$log" kmake olddefconfig
	"$TOP/boot/config.sh" verify "$out/.config" $frags
	echo "$want" >"$out/.fragments.stamp"
fi

step "building $name $KTARGET and samples/seccomp (-j$JOBS, log: $log)"
run_logged "$log" kmake -j"$JOBS" "$KTARGET" samples/seccomp/
[ -f "$out/$KIMAGE" ] || die "no $out/$KIMAGE after the build"
done_step "kernel $name ready: $out/$KIMAGE"
