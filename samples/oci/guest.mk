# Guest programs of the oci suite (boot/suites/oci, make check-oci): its
# script; oci-listener, which reports what a runtime sends to a
# linux.seccomp.listenerPath socket; oci-refused, two calls podman's
# default seccomp profile refuses (run in a container). Included by
# samples/guest.mk.
PROGS += oci-listener oci-refused
oci-listener_SRC := samples/oci/oci-listener.c
oci-refused_SRC := samples/oci/oci-refused.c
SCRIPTS += samples/oci/oci-test.sh
