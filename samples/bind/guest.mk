# Guest programs of samples/bind/ (see boot/image/user.mk): bind-supervisor,
# bind-agent, their library, their tests' tools and their benchmarks.
# Included by samples/guest.mk.
PROGS += bind-supervisor try-bind tty-inject run-as slow-bind supervise-test \
	file-caps uring-bind \
	bind-bench notif-rtt
# The library both supervisors share (lib/, one file per job): all of it,
# and the version bind-cli.c includes.
BIND_LIB_SRC := $(sort $(wildcard samples/bind/lib/*.c samples/bind/lib/*.h)) samples/bind/VERSION \
	samples/seccomp/user-trap-helper.c samples/seccomp/user-trap-helper.h
bind-supervisor_SRC := samples/bind/supervisor/bind-supervisor.c \
	samples/bind/supervisor/supervise.c samples/bind/supervisor/supervise.h $(BIND_LIB_SRC)
bind-supervisor_CFLAGS := -pthread
supervise-test_SRC := samples/bind/supervisor/supervise-test.c \
	samples/bind/supervisor/supervise.c samples/bind/supervisor/supervise.h
try-bind_SRC := samples/bind/tests/try-bind.c
try-bind_CFLAGS := -pthread
tty-inject_SRC := samples/bind/tests/tty-inject.c
run-as_SRC := samples/bind/tests/run-as.c
file-caps_SRC := samples/bind/tests/file-caps.c
uring-bind_SRC := samples/bind/tests/uring-bind.c
slow-bind_SRC := samples/bind/tests/slow-bind.c
slow-bind_CFLAGS := -pthread
bind-bench_SRC := samples/bind/bench/bind-bench.c samples/bind/bench/bench-rows.h
notif-rtt_SRC := samples/bind/bench/notif-rtt.c samples/bind/bench/bench-rows.h \
	samples/bind/lib/serve.h samples/bind/lib/rules.h samples/bind/lib/abis.h \
	samples/seccomp/user-trap-helper.c samples/seccomp/user-trap-helper.h
# bind-supervisor's tests, sourced by samples/samples-test.sh; the
# security review of issue 41's, by them and agent-test.sh
SCRIPTS += samples/bind/supervisor/bind-supervisor-test.sh samples/bind/tests/round3-test.sh

# bind-agent, the OCI runtimes' seccomp agent, and its test client: the
# native ABI only (a runtime hands its listener to an agent of its own
# arch), with Debian's libjson-c-dev for that arch (boot/deps.sh).
ifeq ($(ABI),$(NATIVE_ABI))
PROGS += bind-agent agent-client agent-scale json-lines
bind-agent_SRC := samples/bind/agent/bind-agent.c $(BIND_LIB_SRC) \
	samples/bind/agent/agent-log.c samples/bind/agent/agent-log.h \
	samples/bind/agent/sd-daemon.c samples/bind/agent/sd-daemon.h \
	samples/bind/agent/fdstore.c samples/bind/agent/fdstore.h
bind-agent_CFLAGS := -pthread -I/usr/include/json-c
bind-agent_LDLIBS := /usr/lib/$(shell $(CC) -dumpmachine)/libjson-c.a
agent-client_SRC := samples/bind/agent/agent-client.c \
	samples/seccomp/user-trap-helper.c samples/seccomp/user-trap-helper.h
json-lines_SRC := samples/bind/tests/json-lines.c
json-lines_CFLAGS := -I/usr/include/json-c
json-lines_LDLIBS := $(bind-agent_LDLIBS)
# derive-profile: the podman profile for bind-agent, derived in the oci
# guest from the image's /usr/share/containers/seccomp.json
PROGS += derive-profile
derive-profile_SRC := samples/bind/deploy/derive-profile.c
derive-profile_CFLAGS := -I/usr/include/json-c
derive-profile_LDLIBS := $(bind-agent_LDLIBS)
SCRIPTS += samples/bind/agent/agent-test.sh
# make bench's scale rows: one bind-agent serving many agent-client containers
agent-scale_SRC := samples/bind/bench/agent-scale.c samples/bind/bench/bench-rows.h
# its restart, crash and upgrade under systemd as PID 1 (a guest whose
# init is systemd, with the units installed)
SCRIPTS += samples/bind/agent/restart-test.sh
endif
