# Guest programs from samples/ (see boot/image/user.mk).
PROGS += user-trap-pidfd
user-trap-pidfd_SRC := samples/seccomp/user-trap-pidfd.c samples/seccomp/user-trap-helper.c \
	samples/seccomp/user-trap-helper.h
SCRIPTS += samples/samples-test.sh samples/tap.sh

# bind-supervisor and bind-agent (samples/bind/).
include samples/bind/guest.mk

# The oci flavour's suite (boot/suites/oci) and its listener stand-in.
include samples/oci/guest.mk
