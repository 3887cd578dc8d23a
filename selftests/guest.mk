# Guest programs from selftests/ (see boot/user.mk).
PROGS += pidfd_getfd_ioctl_test
pidfd_getfd_ioctl_test_SRC := selftests/pidfd_getfd_ioctl_test.c
pidfd_getfd_ioctl_test_CFLAGS := -isystem $(KSRC)/tools/testing/selftests/pidfd -pthread
