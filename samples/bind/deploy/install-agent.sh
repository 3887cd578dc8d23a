#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Build bind-agent (static, as for the guests) and install it as a
# socket-activated service:
#
#	sh samples/bind/deploy/install-agent.sh
#	systemctl daemon-reload && systemctl enable --now bind-agent.socket
#
# Installs PREFIX/sbin/bind-agent, PREFIX/share/man/man8/bind-agent.8 and
# bind-supervisor.8, UNITDIR/bind-agent.socket and .service (ExecStart
# naming PREFIX's binary), and CONFDIR/bind-agent (the agent's options)
# unless it exists. Defaults: PREFIX=/usr/local UNITDIR=/etc/systemd/system
# CONFDIR=/etc/default; set them in the environment to install elsewhere
# (boot/checks/agent-host.sh installs into a temporary directory). Needs
# gcc and libjson-c-dev.
set -eu
: "${PREFIX:=/usr/local}" "${UNITDIR:=/etc/systemd/system}" "${CONFDIR:=/etc/default}"
DEPLOY=$(cd "$(dirname "$0")" && pwd)
BIND=$(cd "$DEPLOY/.." && pwd)
TOP=$(cd "$BIND/../.." && pwd)
CC=${CC:-gcc}
LIBDIR=/usr/lib/$($CC -dumpmachine)

mkdir -p "$PREFIX/sbin" "$PREFIX/share/man/man8" "$UNITDIR" "$CONFDIR"
$CC -std=gnu11 -O2 -g0 -Wall -Wextra -Werror -static -I"$TOP/uapi" -pthread \
	-I/usr/include/json-c -o "$PREFIX/sbin/bind-agent.new" \
	"$BIND/agent/bind-agent.c" "$BIND"/lib/*.c "$BIND/agent/agent-log.c" "$BIND/agent/sd-daemon.c" "$BIND/agent/fdstore.c" \
	"$TOP/samples/seccomp/user-trap-helper.c" "$LIBDIR/libjson-c.a"
mv -f "$PREFIX/sbin/bind-agent.new" "$PREFIX/sbin/bind-agent"
for m in bind-agent.8 bind-supervisor.8; do
	install -m 0644 "$TOP/docs/man/$m" "$PREFIX/share/man/man8/$m"
done
install -m 0644 "$DEPLOY/systemd/bind-agent.socket" "$UNITDIR/bind-agent.socket"
sed "s|/usr/local/sbin/bind-agent|$PREFIX/sbin/bind-agent|; s|/etc/default/bind-agent|$CONFDIR/bind-agent|" \
	"$DEPLOY/systemd/bind-agent.service" >"$UNITDIR/bind-agent.service"
chmod 0644 "$UNITDIR/bind-agent.service"
if [ ! -e "$CONFDIR/bind-agent" ]; then
	cat >"$CONFDIR/bind-agent" <<'CONF'
# bind-agent's options (bind-agent(8)): the privileged ports containers may
# get, and where its metrics go. It grants nothing without an --allow.
#BIND_AGENT_OPTS="--allow tcp:80 --allow tcp:443 --metrics /run/bind-agent/metrics.prom"
BIND_AGENT_OPTS=""
CONF
fi
echo "installed $PREFIX/sbin/bind-agent and $UNITDIR/bind-agent.{socket,service}; options in $CONFDIR/bind-agent"
echo "now: systemctl daemon-reload && systemctl enable --now bind-agent.socket"
