# Guest programs from samples/ (see boot/user.mk).
PROGS += user-trap-pidfd bind-supervisor try-bind
user-trap-pidfd_SRC := samples/seccomp/user-trap-pidfd.c samples/seccomp/user-trap-helper.c \
	samples/seccomp/user-trap-helper.h
bind-supervisor_SRC := samples/bind-supervisor/bind-supervisor.c \
	samples/seccomp/user-trap-helper.c samples/seccomp/user-trap-helper.h
try-bind_SRC := samples/bind-supervisor/try-bind.c
SCRIPTS += samples/samples-test.sh
try-bind_CFLAGS := -pthread
