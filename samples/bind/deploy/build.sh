#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Build bind-agent or bind-supervisor from this checkout, static, as for
# the guests (samples/bind/guest.mk), into DESTDIR/DIR/PROGRAM:
#
#	sh samples/bind/deploy/build.sh bind-supervisor /usr/local/sbin
#	sh samples/bind/deploy/build.sh bind-agent /usr/local/sbin
#
# The new binary is written beside the old one and renamed over it: a
# running copy keeps its file. Needs gcc (CC), and for bind-agent
# Debian's libjson-c-dev. install-agent.sh runs it; docs/bind-supervisor.md
# and docs/bind-agent.md show it, and boot/checks/agent-host.sh runs the
# former's command as that page shows it.
set -eu
prog=${1:?usage: build.sh bind-agent|bind-supervisor DIR}
dir=${DESTDIR:-}${2:?usage: build.sh bind-agent|bind-supervisor DIR}
BIND=$(cd "$(dirname "$0")/.." && pwd)
TOP=$(cd "$BIND/../.." && pwd)
CC=${CC:-gcc}
CFLAGS="-std=gnu11 -O2 -g0 -Wall -Wextra -Werror -static -I$TOP/uapi -pthread"
mkdir -p "$dir"
case $prog in
bind-agent)
	# shellcheck disable=SC2086
	$CC $CFLAGS -I/usr/include/json-c -o "$dir/$prog.new" \
		"$BIND/agent/bind-agent.c" "$BIND"/lib/*.c "$BIND/agent/agent-log.c" "$BIND/agent/sd-daemon.c" \
		"$BIND/agent/fdstore.c" "$TOP/samples/seccomp/user-trap-helper.c" "/usr/lib/$($CC -dumpmachine)/libjson-c.a"
	;;
bind-supervisor)
	# shellcheck disable=SC2086
	$CC $CFLAGS -o "$dir/$prog.new" \
		"$BIND/supervisor/bind-supervisor.c" "$BIND/supervisor/supervise.c" "$BIND"/lib/*.c \
		"$TOP/samples/seccomp/user-trap-helper.c"
	;;
*)
	echo "build.sh: no program '$prog': bind-agent or bind-supervisor" >&2
	exit 2
	;;
esac
mv -f "$dir/$prog.new" "$dir/$prog"
echo "built $dir/$prog: $("$dir/$prog" --version)"
