#!/bin/sh
# boot/image/busybox.sh ARCH
#   Print the path of Debian's static busybox for ARCH's Debian arch,
#   fetched with apt-get download into $CACHE/busybox/ the first time.
set -eu
. "$(dirname "$0")/../lib.sh"
load_arch "${1:?usage: $0 ARCH}"

busybox=$CACHE/busybox/$DEBIAN_ARCH/bin/busybox
if [ ! -x "$busybox" ]; then
	step "fetching Debian busybox-static:$DEBIAN_ARCH" >&2
	mkdir -p "$LOGS"
	rm -rf "$CACHE/busybox/$DEBIAN_ARCH"
	mkdir -p "$CACHE/busybox/$DEBIAN_ARCH"
	(cd "$CACHE/busybox" && rm -f busybox-static_*_"$DEBIAN_ARCH".deb &&
		apt-get download -q "busybox-static:$DEBIAN_ARCH" >"$LOGS/busybox-$DEBIAN_ARCH.log" 2>&1) ||
		die "apt-get download busybox-static:$DEBIAN_ARCH failed (log: $LOGS/busybox-$DEBIAN_ARCH.log; 'make deps' adds the dpkg architecture)"
	dpkg-deb -x "$CACHE"/busybox/busybox-static_*_"$DEBIAN_ARCH".deb "$CACHE/busybox/$DEBIAN_ARCH"
	[ -x "$busybox" ] || die "no bin/busybox in busybox-static:$DEBIAN_ARCH"
fi
printf '%s\n' "$busybox"
