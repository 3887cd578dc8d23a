#!/bin/sh
# boot/image/initramfs.sh ARCH
#   Pack $BCACHE/initramfs-ARCH.cpio with the kernel's usr/gen_init_cpio:
#   boot/image/initramfs.list, Debian's busybox (boot/image/busybox.sh),
#   the suites (each checked here by boot/suite.awk), the tree's kselftests
#   (boot/image/kselftests.sh) and the guest programs of every ABI of ARCH
#   (boot/image/user.mk).
set -eu
. "$(dirname "$0")/../lib.sh"
load_arch "${1:?usage: $0 ARCH}"

stage=$BCACHE/user/$ARCH
out=$BCACHE/initramfs-$ARCH.cpio
mkdir -p "$stage" "$BCACHE/tools"

gen=$BCACHE/tools/gen_init_cpio
if [ ! -x "$gen" ] || [ "$KSRC/usr/gen_init_cpio.c" -nt "$gen" ]; then
	cc -O2 -o "$gen" "$KSRC/usr/gen_init_cpio.c" || die "building gen_init_cpio"
fi

busybox=$(sh "$TOP/boot/image/busybox.sh" "$ARCH")

list=$stage/initramfs.list
echo "$ABIS" >"$stage/abis"
native=${ABIS%% *}
sed -e "s|@NATIVE@|$stage/$native|g" -e "s|@BUSYBOX@|$busybox|g" \
	-e "s|@TOP@|$TOP|g" -e "s|@STAGE@|$stage|g" "$TOP/boot/image/initramfs.list" >"$list"
for s in "$TOP"/boot/suites/*; do
	echo "file /etc/suites/$(basename "$s") $s 0644 0 0" >>"$list"
done

sh "$TOP/boot/image/kselftests.sh" "$ARCH"

for abi in $ABIS; do
	cc=$(abi_var "$abi" CC)
	step "guest programs for $abi ($cc)"
	# without the outer make's flags (CFLAGS= on its command line would
	# reach user.mk), which the programs' sums do not hold
	run_logged "$LOGS/user-$abi.log" env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$TOP" -f boot/image/user.mk \
		ABI="$abi" NATIVE_ABI="$native" CC="$cc" OUT="$stage/$abi/bin" KSRC="$KSRC"
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

# What the image holds, without times: each entry with its file's content
# hash in place of its source path. boot/run.sh keys a boot on this, so it
# is removed first and moved into place last, after the image; an image
# that holds the same is not packed again.
list_content "$list" | sha256sum | cut -d' ' -f1 >"$out.content.tmp"
if [ -f "$out" ] && cmp -s "$out.content.tmp" "$out.content" &&
	[ "$(sha256sum <"$out")" = "$(cat "$out.sum" 2>/dev/null)" ]; then
	rm "$out.content.tmp"
	done_step "initramfs $out kept: it holds the same files"
	exit 0
fi
rm -f "$out.content" "$out.sum"
# Directories get time 0 (gen_init_cpio would give them the time of
# packing); files keep their own times.
"$gen" -t 0 "$list" >"$out.tmp" || die "gen_init_cpio $list failed"
mv "$out.tmp" "$out"
sha256sum <"$out" >"$out.sum"
mv "$out.content.tmp" "$out.content"
done_step "initramfs $out ($(($(stat -c %s "$out") / 1024)) KiB)"
