# Guest programs from samples/ (see boot/image/user.mk).
PROGS += user-trap-pidfd bind-supervisor try-bind tty-inject run-as slow-bind supervise-test \
	file-caps uring-bind \
	bind-bench notif-rtt
user-trap-pidfd_SRC := samples/seccomp/user-trap-pidfd.c samples/seccomp/user-trap-helper.c \
	samples/seccomp/user-trap-helper.h
# The library both supervisors share, one file per job.
BIND_LIB_SRC := $(addprefix samples/bind-supervisor/,abis.h bind-cli.c bind-cli.h \
	rules.c rules.h fetch.c fetch.h call.c call-checks.c call.h decide.c \
	serve-answer.c serve.c serve.h) \
	samples/seccomp/user-trap-helper.c samples/seccomp/user-trap-helper.h
bind-supervisor_SRC := samples/bind-supervisor/bind-supervisor.c \
	samples/bind-supervisor/supervise.c samples/bind-supervisor/supervise.h $(BIND_LIB_SRC)
bind-supervisor_CFLAGS := -pthread
try-bind_SRC := samples/bind-supervisor/try-bind.c
try-bind_CFLAGS := -pthread
tty-inject_SRC := samples/bind-supervisor/tty-inject.c
run-as_SRC := samples/bind-supervisor/run-as.c
file-caps_SRC := samples/bind-supervisor/file-caps.c
uring-bind_SRC := samples/bind-supervisor/uring-bind.c
slow-bind_SRC := samples/bind-supervisor/slow-bind.c
slow-bind_CFLAGS := -pthread
bind-bench_SRC := samples/bind-supervisor/bind-bench.c samples/bind-supervisor/bench-rows.h
notif-rtt_SRC := samples/bind-supervisor/notif-rtt.c samples/bind-supervisor/bench-rows.h \
	samples/bind-supervisor/serve.h samples/bind-supervisor/rules.h samples/bind-supervisor/abis.h \
	samples/seccomp/user-trap-helper.c \
	samples/seccomp/user-trap-helper.h
supervise-test_SRC := samples/bind-supervisor/supervise-test.c \
	samples/bind-supervisor/supervise.c samples/bind-supervisor/supervise.h
SCRIPTS += samples/samples-test.sh samples/tap.sh

# bind-agent, the OCI runtimes' seccomp agent, and its test client: the
# native ABI only (a runtime hands its listener to an agent of its own
# arch), with Debian's libjson-c-dev for that arch (boot/deps.sh).
ifeq ($(ABI),$(NATIVE_ABI))
PROGS += bind-agent agent-client
bind-agent_SRC := samples/bind-supervisor/bind-agent.c $(BIND_LIB_SRC) \
	samples/bind-supervisor/agent-log.c samples/bind-supervisor/agent-log.h \
	samples/bind-supervisor/sd-daemon.c samples/bind-supervisor/sd-daemon.h
bind-agent_CFLAGS := -pthread -I/usr/include/json-c
bind-agent_LDLIBS := /usr/lib/$(shell $(CC) -dumpmachine)/libjson-c.a
agent-client_SRC := samples/bind-supervisor/agent-client.c \
	samples/seccomp/user-trap-helper.c samples/seccomp/user-trap-helper.h
SCRIPTS += samples/bind-supervisor/agent-test.sh
endif

# The oci flavour's suite (boot/suites/oci) and its listener stand-in.
include samples/oci/guest.mk
