#!/bin/sh
# boot/image/oci-layer.sh ARCH
#   The oci flavour's image (INITRD_LAYER=oci in boot/flavour/oci/flavour.conf):
#   $BCACHE/initramfs-ARCH-oci.cpio is the arch's initramfs
#   (boot/image/initramfs.sh, built first) with a second newc archive
#   concatenated after it (the kernel unpacks one after the other):
#   - the host's crun, runc, podman and conmon (Debian's packages,
#     boot/flavour/oci/packages) in /usr/bin, with their shared-library
#     closure and the dynamic loader at the paths ldd names (/lib/TRIPLET,
#     /lib64), as the host has them, and podman's configuration and its
#     default seccomp profile;
#   - /oci/rootfs, a container root file system: Debian's static busybox,
#     the native ABI's static try-bind and oci-refused, /etc/passwd and
#     /etc/group with uid 1000, /www/index.html.
#   The libraries come from ldd, which runs the host's loader: the binaries
#   must be of the host's arch (docs/harness.md, "Again for the oci image",
#   says why this is not dracut). Writes .content beside the image like
#   initramfs.sh, so that boot/run.sh keys boots on what it holds.
set -eu
. "$(dirname "$0")/../lib.sh"
. "$TOP/boot/image/layer.sh"
load_arch "${1:?usage: $0 ARCH}"

[ "$DEBIAN_ARCH" = "$(dpkg --print-architecture)" ] ||
	die "the oci layer packs the host's own crun and runc: $ARCH is not the host's arch"
base=$BCACHE/initramfs-$ARCH.cpio
[ -f "$base" ] && [ -f "$base.content" ] || die "no $base (boot/image/initramfs.sh $ARCH first)"
gen=$BCACHE/tools/gen_init_cpio
[ -x "$gen" ] || die "no $gen (boot/image/initramfs.sh $ARCH builds it)"
busybox=$(sh "$TOP/boot/image/busybox.sh" "$ARCH")
stage=$BCACHE/user/$ARCH-oci
for p in try-bind oci-refused; do
	f=$BCACHE/user/$ARCH/${ABIS%% *}/bin/$p
	[ -x "$f" ] && ! readelf -l "$f" | grep -q INTERP ||
		die "no static $f (boot/image/initramfs.sh $ARCH builds it)"
done
try_bind=$BCACHE/user/$ARCH/${ABIS%% *}/bin/try-bind
oci_refused=$BCACHE/user/$ARCH/${ABIS%% *}/bin/oci-refused
out=$BCACHE/initramfs-$ARCH-oci.cpio
list=$stage/layer.list
rm -rf "$stage"
mkdir -p "$stage"

step "oci layer: crun, runc, podman, conmon and their libraries, a busybox rootfs"
bins=
for b in crun runc podman conmon; do
	p=$(command -v "$b") || die "no $b on the host ('make deps' installs it)"
	bins="$bins $p"
done

# shellcheck disable=SC2086 # one path a word
libs=$(layer_libs $bins)

{
	# shellcheck disable=SC2086 # one path a line
	layer_dirs $libs
	for b in $bins; do echo "file /usr/bin/$(basename "$b") $(readlink -f "$b") 0755 0 0"; done
	# podman's configuration, as containers-common installs it
	# (the kernel makes no missing parent: /usr/share is not in the base,
	# and without it neither file of /usr/share/containers was unpacked)
	for d in /etc/containers /usr/share /usr/share/containers; do echo "dir $d 0755 0 0"; done
	# and its default seccomp profile, which the oci suite derives
	# bind-agent's profile from (samples/bind/deploy/derive-profile.c)
	for f in /etc/containers/policy.json /etc/containers/registries.conf \
		/usr/share/containers/containers.conf /usr/share/containers/seccomp.json; do
		[ -f "$f" ] || die "no $f on the host ('make deps' installs podman)"
		echo "file $f $f 0644 0 0"
	done
	# what podman copies into a container of the host's network
	printf '127.0.0.1 localhost\n::1 localhost\n' >"$stage/hosts"
	: >"$stage/resolv.conf"
	echo "file /etc/hosts $stage/hosts 0644 0 0"
	echo "file /etc/resolv.conf $stage/resolv.conf 0644 0 0"
	# Each object at the path the loader asks for, with the content of the
	# file it names (most are symlinks to a versioned name).
	for l in $libs; do echo "file $l $(readlink -f "$l") 0755 0 0"; done

	# The container's root: read-only for it (root.readonly), so the mount
	# points are here.
	printf '%s\n' "dir /oci 0755 0 0" "dir /oci/rootfs 0755 0 0"
	for d in bin etc proc sys dev www; do echo "dir /oci/rootfs/$d 0755 0 0"; done
	echo "dir /oci/rootfs/tmp 1777 0 0"
	echo "file /oci/rootfs/bin/busybox $busybox 0755 0 0"
	# try-bind --storm, for the containers with linux.seccomp.flags
	echo "file /oci/rootfs/bin/try-bind $try_bind 0755 0 0"
	# oci-refused, calls podman's default seccomp profile refuses
	echo "file /oci/rootfs/bin/oci-refused $oci_refused 0755 0 0"
	for a in sh httpd nc wget sleep cat; do echo "slink /oci/rootfs/bin/$a busybox 0777 0 0"; done
	printf 'root:x:0:0:root:/root:/bin/sh\nuser:x:1000:1000:container user:/tmp:/bin/sh\n' >"$stage/passwd"
	printf 'root:x:0:\nuser:x:1000:\n' >"$stage/group"
	echo 'hello from an OCI container' >"$stage/index.html"
	echo "file /oci/rootfs/etc/passwd $stage/passwd 0644 0 0"
	echo "file /oci/rootfs/etc/group $stage/group 0644 0 0"
	echo "file /oci/rootfs/www/index.html $stage/index.html 0644 0 0"
} >"$list"

layer_pack "$list" "$base" "$out"
