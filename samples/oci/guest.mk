# Guest programs of the oci suite (boot/suites/oci, make check-oci): its
# script and oci-listener, which reports what a runtime sends to a
# linux.seccomp.listenerPath socket. Included by samples/guest.mk.
PROGS += oci-listener
oci-listener_SRC := samples/oci/oci-listener.c
SCRIPTS += samples/oci/oci-test.sh
