# Guest programs from samples/ (see boot/image/user.mk).
PROGS += user-trap-pidfd bind-supervisor try-bind tty-inject run-as slow-bind supervise-test \
	bind-bench
user-trap-pidfd_SRC := samples/seccomp/user-trap-pidfd.c samples/seccomp/user-trap-helper.c \
	samples/seccomp/user-trap-helper.h
bind-supervisor_SRC := samples/bind-supervisor/bind-supervisor.c \
	samples/bind-supervisor/supervise.c samples/bind-supervisor/supervise.h \
	samples/seccomp/user-trap-helper.c samples/seccomp/user-trap-helper.h
bind-supervisor_CFLAGS := -pthread
try-bind_SRC := samples/bind-supervisor/try-bind.c
try-bind_CFLAGS := -pthread
tty-inject_SRC := samples/bind-supervisor/tty-inject.c
run-as_SRC := samples/bind-supervisor/run-as.c
slow-bind_SRC := samples/bind-supervisor/slow-bind.c
slow-bind_CFLAGS := -pthread
bind-bench_SRC := samples/bind-supervisor/bind-bench.c
supervise-test_SRC := samples/bind-supervisor/supervise-test.c \
	samples/bind-supervisor/supervise.c samples/bind-supervisor/supervise.h
SCRIPTS += samples/samples-test.sh
# The oci flavour's suite (boot/suites/oci) and its listener stand-in.
include samples/oci/guest.mk
