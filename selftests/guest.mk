# Guest programs from selftests/ (see boot/image/user.mk).
PROGS += pidfd_getfd_ioctl_test
pidfd_getfd_ioctl_test_SRC := selftests/pidfd_getfd_ioctl_test.c
pidfd_getfd_ioctl_test_CFLAGS := -isystem $(KSRC)/tools/testing/selftests/pidfd -pthread
# Not in the series: the debug-kernel stress and fault sweeps, and the benchmark
PROGS += pidfd_getfd_stress pidfd_getfd_fault_test pidfd_getfd_bench
pidfd_getfd_stress_SRC := selftests/pidfd_getfd_stress.c
pidfd_getfd_stress_CFLAGS := $(pidfd_getfd_ioctl_test_CFLAGS)
pidfd_getfd_fault_test_SRC := selftests/pidfd_getfd_fault_test.c
pidfd_getfd_fault_test_CFLAGS := $(pidfd_getfd_ioctl_test_CFLAGS)
pidfd_getfd_bench_SRC := selftests/pidfd_getfd_bench.c
pidfd_getfd_bench_CFLAGS := $(pidfd_getfd_ioctl_test_CFLAGS)
