#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The samples, in the guest, as TAP: user-trap-pidfd, then bind-supervisor
# (samples/bind/supervisor/bind-supervisor-test.sh, sourced: one TAP
# stream). Run from the ABI's bin directory, as root.

. ./tap.sh
echo "TAP version 13"

# Which way bind-supervisor takes sockets: the ioctl, or pidfd_getfd(2)
# on a kernel without it (the pristine baseline)
method=$(./bind-supervisor -v --user 1000 -- true 2>&1 | sed -n 's/^bind-supervisor: fetch method: //p')
say "user-trap-pidfd: the supervisor binds the child's port-80 socket to 4998"
utp1="user-trap-pidfd: the child's getsockname() reports the port the supervisor bound"
utp2="user-trap-pidfd: a bind() on an AF_UNIX socket goes on to the kernel"
if [ "$method" = PIDFD_IOCTL_GETFD ]; then
	check "$utp1" expect_out 0 "getsockname() says 127.0.0.1:4998" timeout 60 ./user-trap-pidfd
	check "$utp2" expect_out 0 "bind() of an AF_UNIX socket returned 0" timeout 60 ./user-trap-pidfd
else
	skip "$utp1" "this kernel has no PIDFD_IOCTL_GETFD (fetch method: $method)"
	skip "$utp2" "this kernel has no PIDFD_IOCTL_GETFD (fetch method: $method)"
fi

# bind-supervisor's own tests
. ./bind-supervisor-test.sh

echo "1..$n"
exit $failed
