#!/bin/sh
# boot/image/systemd-layer.sh ARCH
#   The systemd flavour's image (INITRD_LAYER=systemd in
#   boot/flavour/systemd/flavour.conf): $BCACHE/initramfs-ARCH-systemd.cpio
#   is the oci image (boot/image/oci-layer.sh, built first: crun, runc,
#   podman, the busybox rootfs) with a third newc archive after it:
#   - the host's systemd 252 (Debian 12's package): PID 1, journald,
#     systemctl, journalctl and systemd-analyze at the paths the package
#     installs them, with their shared-library closure (boot/image/layer.sh);
#   - the units of Debian's that a booted system needs here (SYSTEM_UNITS
#     below: the targets of a boot to multi-user.target, and journald's) in
#     /lib/systemd/system, each with the .wants links Debian gives it there;
#   - the project's units in /etc/systemd/system: bind-agent's
#     (samples/bind/deploy/systemd/) and the harness's (boot/image/systemd/),
#     enabled as 'systemctl enable' would (a link in the .wants folder of
#     each WantedBy= target), and each one's program (ExecStart='s first
#     word) at that path: the native ABI's static build of that name, unless
#     the image below has that path already (/init);
#   - /etc: machine-id (a fixed one), os-release (the host's), the group
#     systemd-journal added to the base image's boot/image/group;
#     /var/tmp (PrivateTmp=).
#   /init execs systemd as PID 1 when the kernel command line says pid1=
#   (boot/image/init.c; boot/flavour/systemd/flavour.conf adds it).
set -eu
. "$(dirname "$0")/../lib.sh"
. "$TOP/boot/image/layer.sh"
load_arch "${1:?usage: $0 ARCH}"

[ "$DEBIAN_ARCH" = "$(dpkg --print-architecture)" ] ||
	die "the systemd layer packs the host's own systemd: $ARCH is not the host's arch"
below=$BCACHE/initramfs-$ARCH-oci.cpio
[ -f "$below" ] || die "no $below (boot/image/oci-layer.sh $ARCH first)"
native=$BCACHE/user/$ARCH/${ABIS%% *}/bin
stage=$BCACHE/user/$ARCH-systemd
out=$BCACHE/initramfs-$ARCH-systemd.cpio
list=$stage/layer.list
rm -rf "$stage"
mkdir -p "$stage"

# systemd's programs, at the paths Debian 12's package installs them
PROGRAMS="/lib/systemd/systemd /lib/systemd/systemd-journald /bin/systemctl /bin/journalctl
	/usr/bin/systemd-analyze"
# Debian's units the guest boots with (from /lib/systemd/system): the
# targets on the way to multi-user.target and journald with its sockets
SYSTEM_UNITS="multi-user.target basic.target sysinit.target sockets.target timers.target
	paths.target slices.target local-fs.target local-fs-pre.target swap.target
	shutdown.target reboot.target final.target umount.target
	systemd-journald.service systemd-journald.socket systemd-journald-dev-log.socket"
# The project's units (installed in /etc/systemd/system)
UNITS="$TOP/samples/bind/deploy/systemd/bind-agent.service $TOP/samples/bind/deploy/systemd/bind-agent.socket
	$TOP/boot/image/systemd/pidfd-suite.service $TOP/boot/image/systemd/fdstore-probe.service"

step "systemd layer: systemd $(dpkg-query -W -f '${Version}' systemd), its units, bind-agent's"
for p in $PROGRAMS; do
	[ -x "$p" ] || die "no $p on the host (Debian's systemd package)"
done
# shellcheck disable=SC2086 # lists of words
libs=$(layer_libs $PROGRAMS)

# unit_value FILE KEY: each value of KEY= in FILE, one a line
unit_value() {
	sed -n "s/^$2=//p" "$1"
}

{
	# shellcheck disable=SC2086
	layer_dirs $libs $PROGRAMS /lib/systemd/system/x /etc/systemd/system/x /var/x
	echo "dir /var/tmp 1777 0 0"
	for p in $PROGRAMS; do echo "file $p $(readlink -f "$p") 0755 0 0"; done
	for l in $libs; do echo "file $l $(readlink -f "$l") 0755 0 0"; done

	for u in $SYSTEM_UNITS; do
		f=/lib/systemd/system/$u
		[ -f "$f" ] || die "no $f on the host"
		echo "file $f $(readlink -f "$f") 0644 0 0"
		# Debian's own links to it: sockets.target.wants/systemd-journald.socket
		for w in /lib/systemd/system/*.wants/"$u"; do
			[ -L "$w" ] || continue
			echo "dir $(dirname "$w") 0755 0 0"
			echo "slink $w $(readlink "$w") 0777 0 0"
		done
	done
	echo "slink /etc/systemd/system/default.target /lib/systemd/system/multi-user.target 0777 0 0"

	for f in $UNITS; do
		u=$(basename "$f")
		echo "file /etc/systemd/system/$u $f 0644 0 0"
		for t in $(unit_value "$f" WantedBy); do
			echo "dir /etc/systemd/system/$t.wants 0755 0 0"
			echo "slink /etc/systemd/system/$t.wants/$u /etc/systemd/system/$u 0777 0 0"
		done
		for prog in $(unit_value "$f" ExecStart | awk '{ sub(/^[-@:+!]+/, "", $1); print $1 }'); do
			grep -q "^file $prog " "$BCACHE/user/$ARCH/initramfs.list" && continue
			[ -x "$native/$(basename "$prog")" ] ||
				die "$f runs $prog: no $native/$(basename "$prog") (boot/image/initramfs.sh $ARCH builds the guest programs)"
			readelf -l "$native/$(basename "$prog")" | grep -q INTERP &&
				die "$native/$(basename "$prog") is not static"
			layer_dirs "$prog"
			echo "file $prog $native/$(basename "$prog") 0755 0 0"
		done
	done

	# One machine id for every boot (systemd would write a new one into
	# /etc), Debian's os-release, and journald's group.
	echo 5ad1d0c0ffee4e6e8a5b1dfd0e0e7c41 >"$stage/machine-id"
	cp "$(readlink -f /etc/os-release)" "$stage/os-release"
	{ cat "$TOP/boot/image/group"; echo 'systemd-journal:x:101:'; } >"$stage/group"
	echo "file /etc/machine-id $stage/machine-id 0444 0 0"
	echo "file /etc/os-release $stage/os-release 0644 0 0"
	echo "file /etc/group $stage/group 0644 0 0"
} | awk -v below="$BCACHE/user/$ARCH-oci/layer.list" '
	# each entry once, and none the oci layer has already (its libraries)
	BEGIN { while ((getline l <below) > 0) seen[l] = 1 }
	!seen[$0]++' >"$list"

layer_pack "$list" "$below" "$out"
