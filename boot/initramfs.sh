#!/bin/sh
# boot/initramfs.sh ARCH
#   Build the guest programs for every ABI of ARCH (boot/user.mk), fetch
#   Debian's busybox-static for ARCH, and pack $CACHE/initramfs-ARCH.cpio
#   from boot/initramfs.list with the kernel's usr/gen_init_cpio.
set -eu
. "$(dirname "$0")/lib.sh"
load_arch "${1:?usage: $0 ARCH}"

stage=$CACHE/user/$ARCH
out=$CACHE/initramfs-$ARCH.cpio
mkdir -p "$stage" "$CACHE/tools"

gen=$CACHE/tools/gen_init_cpio
if [ ! -x "$gen" ] || [ "$KSRC/usr/gen_init_cpio.c" -nt "$gen" ]; then
	cc -O2 -o "$gen" "$KSRC/usr/gen_init_cpio.c" || die "building gen_init_cpio"
fi

busybox=$CACHE/busybox/$DEBIAN_ARCH/bin/busybox
if [ ! -x "$busybox" ]; then
	step "fetching Debian busybox-static:$DEBIAN_ARCH"
	rm -rf "$CACHE/busybox/$DEBIAN_ARCH"
	mkdir -p "$CACHE/busybox/$DEBIAN_ARCH"
	(cd "$CACHE/busybox" && rm -f busybox-static_*_"$DEBIAN_ARCH".deb &&
		apt-get download -q "busybox-static:$DEBIAN_ARCH" >"$LOGS/busybox-$DEBIAN_ARCH.log" 2>&1) ||
		die "apt-get download busybox-static:$DEBIAN_ARCH failed (log: $LOGS/busybox-$DEBIAN_ARCH.log; 'make deps' adds the dpkg architecture)"
	dpkg-deb -x "$CACHE"/busybox/busybox-static_*_"$DEBIAN_ARCH".deb "$CACHE/busybox/$DEBIAN_ARCH"
	[ -x "$busybox" ] || die "no bin/busybox in busybox-static:$DEBIAN_ARCH"
fi

list=$stage/initramfs.list
echo "$ABIS" >"$stage/abis"
native=${ABIS%% *}
sed -e "s|@NATIVE@|$stage/$native|g" -e "s|@BUSYBOX@|$busybox|g" \
	-e "s|@TOP@|$TOP|g" -e "s|@STAGE@|$stage|g" "$TOP/boot/initramfs.list" >"$list"
for s in "$TOP"/boot/suites/*; do
	echo "file /etc/suites/$(basename "$s") $s 0644 0 0" >>"$list"
done

# The tree's own kselftests of the suites the series touches, for the
# native ABI, installed under bin/kselftest (run by boot/suites/check).
step "upstream kselftests: $UPSTREAM_SELFTESTS"
run_logged "$LOGS/headers-$ARCH.log" kbuild "$KSRC" "$BUILD" headers
rm -rf "$stage/$native/bin/kselftest"
run_logged "$LOGS/kselftest-$ARCH.log" env CCACHE_DIR="$CACHE/ccache" \
	make -C "$KSRC/tools/testing/selftests" O="$BUILD" ARCH="$KARCH" \
	CROSS_COMPILE="$CROSS_COMPILE" TARGETS="$UPSTREAM_SELFTESTS" USERLDFLAGS=-static \
	install INSTALL_PATH="$stage/$native/bin/kselftest"
# kselftest gives each test 45 s unless the collection's settings file says
# otherwise. Under TCG the fork-heavy ones (pidfd_test's pid recycling,
# pidfd_poll_test's 10,000 forks) take longer than that in real time, and
# the x86_64 guest keeps real time since it uses the TSC: give each test
# KSELFTEST_TIMEOUT seconds (the suites bound the whole run).
for c in $UPSTREAM_SELFTESTS; do
	echo "timeout=$KSELFTEST_TIMEOUT" >"$stage/$native/bin/kselftest/$c/settings"
done
# The series adds pidfd_getfd_ioctl_test to the pidfd collection: it runs
# there too (native ABI), as a maintainer's 'make kselftest' would run it.

for abi in $ABIS; do
	cc=$(abi_var "$abi" CC)
	step "guest programs for $abi ($cc)"
	run_logged "$LOGS/user-$abi.log" make -C "$TOP" -f boot/user.mk \
		ABI="$abi" CC="$cc" OUT="$stage/$abi/bin" KSRC="$KSRC"
	# Every file below the ABI's directory, as it is laid out there.
	(cd "$stage/$abi" && find . -mindepth 1 | sort) | while read -r f; do
		f=${f#./}
		if [ -d "$stage/$abi/$f" ]; then
			echo "dir /abi/$abi/$f 0755 0 0"
		else
			mode=$(stat -c %a "$stage/$abi/$f")
			echo "file /abi/$abi/$f $stage/$abi/$f $mode 0 0"
		fi
	done | sed "1i dir /abi/$abi 0755 0 0" >>"$list"
done

# Every suite is checked here, where a bad line can be named: the guest's
# /init would skip it, or run it on the wrong ABIs, or with no timeout.
for s in "$TOP"/boot/suites/*; do
	awk -v abis="$ABIS" -v stage="$stage" -f "$TOP/boot/suite.awk" "$s" >/dev/null ||
		die "bad suite $s (see the lines above; the format is in boot/suite.awk)"
done

"$gen" "$list" >"$out.tmp" || die "gen_init_cpio $list failed"
# Same archive, same file: the runner's KVM probe and make stay quiet.
if cmp -s "$out.tmp" "$out"; then rm -f "$out.tmp"; else mv "$out.tmp" "$out"; fi
done_step "initramfs $out ($(($(stat -c %s "$out") / 1024)) KiB)"
