// SPDX-License-Identifier: GPL-2.0
/*
 * oci-refused: make two system calls that podman's default seccomp profile
 * (/usr/share/containers/seccomp.json, Debian 12's containers-common
 * 0.50.1) refuses to every container whatever its capabilities, and print
 * what each returned, one line each:
 *
 *   personality(0x40000): RESULT
 *       PER_LINUX | ADDR_NO_RANDOMIZE. The profile allows personality()
 *       only for the arguments 0, 8, 0x20000, 0x20008 and 0xffffffff (its
 *       unconditional args rules); anything else falls to its
 *       defaultAction, SCMP_ACT_ERRNO with defaultErrnoRet 38: ENOSYS. The
 *       kernel lets any process set it: 0 (the old persona).
 *   vmsplice(-1): RESULT
 *       In the profile's first rule, SCMP_ACT_ERRNO with errnoRet 1, no
 *       conditions: EPERM. The kernel answers EBADF for fd -1.
 *
 * RESULT is "ok" or the errno's name (ENOSYS, EPERM, EBADF, or the number).
 * The oci suite runs it in a podman container under the profile
 * derive-profile made from the default, and under a profile without those
 * refusals, to show that the check can tell them apart. Exit status 0.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <sys/personality.h>
#include <sys/syscall.h>
#include <unistd.h>

static void say(const char *call, long rc, int err)
{
	const char *name = err == ENOSYS ? "ENOSYS" : err == EPERM ? "EPERM" :
			   err == EBADF ? "EBADF" : NULL;

	if (rc >= 0)
		printf("%s: ok\n", call);
	else if (name)
		printf("%s: %s\n", call, name);
	else
		printf("%s: errno %d\n", call, err);
}

int main(void)
{
	long rc;

	errno = 0;
	rc = syscall(SYS_personality, (unsigned long)(PER_LINUX | ADDR_NO_RANDOMIZE));
	say("personality(0x40000)", rc, errno);
	errno = 0;
	rc = syscall(SYS_vmsplice, -1, NULL, 0UL, 0U);
	say("vmsplice(-1)", rc, errno);
	return 0;
}
