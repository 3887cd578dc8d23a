#!/bin/sh
# boot/tests/deps.sh CASE
#   boot/deps.sh's self-test, on the host, without installing anything: a
#   copy of the project with an arch folder (boot/arch/frob) and a base
#   folder (boot/base/9.9) whose packages the archive lacks, and dpkg,
#   dpkg-query, apt-cache, apt-get, npm and node on PATH that stand for
#   Debian's (every package is installed but those two; the archive has
#   every package but those two), without make docs after adding them:
#   what 'make deps BASE=... ARCH=...' runs (make -n) is run with those.
#   boot/checks/harness.sh runs each CASE as one of its own; the output says
#   what was run and what it printed.
#     another-arch-is-not-affected    ARCH=x86_64 installs nothing of frob's
#     the-arch-fails-naming-package-and-folder   ARCH=frob fails, naming both
#     the-base-fails-naming-package-and-folder   BASE=9.9 fails, naming both
set -eu
TOP=$(cd "$(dirname "$0")/../.." && pwd)
NOPKG=pidfd-getfd-no-such-package
NOBASE=linux-source-9.9

s=$(mktemp -d)
trap 'rm -rf "$s"' EXIT
mkdir -p "$s/top" "$s/bin" "$s/cache"
# the project as it is now: git's tracked and untracked files
(cd "$TOP" && { git ls-files -co --exclude-standard 2>/dev/null || find . ! -type d; } | tar -cf - -T -) |
	tar -C "$s/top" -xf -
mkdir "$s/top/boot/arch/frob" "$s/top/boot/base/9.9"
sed 's/^KARCH=.*/KARCH=frob/' "$TOP/boot/arch/x86_64/arch.conf" >"$s/top/boot/arch/frob/arch.conf"
cp "$TOP/boot/arch/x86_64/kernel.config" "$s/top/boot/arch/frob/"
echo "$NOPKG" >"$s/top/boot/arch/frob/packages"
sed -e "s/^PACKAGE=.*/PACKAGE=$NOBASE/" -e 's/^KERNEL_VERSION=.*/KERNEL_VERSION=9.9/' \
	"$TOP/boot/base/6.1/base.conf" >"$s/top/boot/base/9.9/base.conf"

# Debian's tools, as far as boot/deps.sh asks them; each call is logged
for t in dpkg dpkg-query apt-cache apt-get npm node id; do
	cat >"$s/bin/$t" <<EOF
#!/bin/sh
echo "$t \$*" >>"$s/calls"
lacks() { case \$1 in $NOPKG* | $NOBASE*) return 0 ;; esac; return 1; }
case $t in
dpkg)
	case \$1 in --print-architecture) echo amd64 ;; --print-foreign-architectures) echo arm64 ;; esac ;;
dpkg-query)
	for p; do :; done
	lacks "\$p" && exit 1
	echo 'install ok installed' ;;
apt-cache)
	# policy PKG: what Debian's prints of the candidate, nothing for a
	# package it does not know
	[ "\$1" = policy ] && ! lacks "\$2" && printf '%s:\n  Installed: (none)\n  Candidate: 1.0\n' "\$2" ;;
apt-get)
	for p in "\$@"; do lacks "\$p" && { echo "E: Unable to locate package \$p"; exit 100; }; done ;;
id)
	echo 0 ;;
esac
exit 0
EOF
	chmod +x "$s/bin/$t"
done

# deps BASE ARCH: what 'make deps BASE=... ARCH=...' runs in the copy (as
# make -n prints it, with the extra folders and no make docs after them),
# run there with the tools above; its output in $s/out
deps() {
	cmd=$(cd "$s/top" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
		make -n deps BASE="$1" ARCH="$2" 2>&1) || { echo "make -n deps: $cmd"; return 2; }
	case $cmd in
	"sh boot/deps.sh $2") ;;
	*) echo "make -n deps BASE=$1 ARCH=$2 runs '$cmd', not 'sh boot/deps.sh $2'"; return 2 ;;
	esac
	echo "make deps BASE=$1 ARCH=$2: $cmd"
	(cd "$s/top" && PATH=$s/bin:$PATH PIDFD_GETFD_CACHE=$s/cache PIDFD_GETFD_BASE=$1 $cmd) >"$s/out" 2>&1
}
show() { sed 's/^/  /' "$s/out"; }

case ${1:-} in
another-arch-is-not-affected)
	deps 6.1 x86_64 || { show; echo "failed"; exit 1; }
	show
	if grep -q "$NOPKG" "$s/calls" "$s/out"; then
		grep "$NOPKG" "$s/calls" "$s/out"
		echo "boot/arch/frob's package came into a selection of x86_64"
		exit 1
	fi
	echo "x86_64 alone: nothing of boot/arch/frob asked for" ;;
the-arch-fails-naming-package-and-folder)
	deps 6.1 frob && { show; echo "passed"; exit 1; }
	[ $? = 1 ] || exit 1
	show
	grep "$NOPKG" "$s/out" | grep -q 'boot/arch/frob' ;;
the-base-fails-naming-package-and-folder)
	deps 9.9 x86_64 && { show; echo "passed"; exit 1; }
	[ $? = 1 ] || exit 1
	show
	grep "$NOBASE" "$s/out" | grep -q 'boot/base/9.9' ;;
*)
	echo "usage: $0 another-arch-is-not-affected | the-arch-fails-naming-package-and-folder |" \
		"the-base-fails-naming-package-and-folder" >&2
	exit 2 ;;
esac
