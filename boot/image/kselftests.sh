#!/bin/sh
# boot/image/kselftests.sh ARCH
#   Install the tree's own kselftests of the suites the series touches
#   ($UPSTREAM_SELFTESTS), built static for ARCH's native ABI, under
#   $BCACHE/user/ARCH/NATIVE/bin/kselftest (run by boot/suites/check).
set -eu
. "$(dirname "$0")/../lib.sh"
load_arch "${1:?usage: $0 ARCH}"
stage=$BCACHE/user/$ARCH
native=${ABIS%% *}

step "upstream kselftests: $UPSTREAM_SELFTESTS"
run_logged "$LOGS/headers-$ARCH.log" kbuild "$KSRC" "$BUILD" headers
rm -rf "$stage/$native/bin/kselftest"
run_logged "$LOGS/kselftest-$ARCH.log" env CCACHE_DIR="$CACHE/ccache" \
	make -C "$KSRC/tools/testing/selftests" O="$BUILD" ARCH="$KARCH" \
	CROSS_COMPILE="$CROSS_COMPILE" TARGETS="$UPSTREAM_SELFTESTS" USERLDFLAGS=-static \
	install INSTALL_PATH="$stage/$native/bin/kselftest"
# kselftest gives each test 45 s unless the collection's settings file says
# otherwise. Under TCG the fork-heavy ones (pidfd_test's pid recycling,
# pidfd_poll_test's 10,000 forks) take longer than that in real time, and
# the x86_64 guest keeps real time since it uses the TSC: give each test
# KSELFTEST_TIMEOUT seconds (the suites bound the whole run).
for c in $UPSTREAM_SELFTESTS; do
	echo "timeout=$KSELFTEST_TIMEOUT" >"$stage/$native/bin/kselftest/$c/settings"
done
# The series adds pidfd_getfd_ioctl_test to the pidfd collection: it runs
# there too (native ABI), as a maintainer's 'make kselftest' would run it.

