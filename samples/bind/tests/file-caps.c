// SPDX-License-Identifier: GPL-2.0
/*
 * file-caps PATH: give PATH the file capabilities bind-supervisor needs
 * (cap_setuid,cap_setgid,cap_setpcap,cap_net_bind_service,cap_sys_ptrace+ep),
 * as `setcap` would, for the tests of a supervisor run that way by a user.
 * Exits 0, 1 on failure, 3 if the filesystem keeps no file capabilities
 * (the test skips).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/capability.h>
#include <stdio.h>
#include <string.h>
#include <sys/xattr.h>

int main(int argc, char **argv)
{
	const __u32 caps = 1U << CAP_SETUID | 1U << CAP_SETGID | 1U << CAP_SETPCAP |
		1U << CAP_NET_BIND_SERVICE | 1U << CAP_SYS_PTRACE;
	struct vfs_cap_data data = {
		.magic_etc = VFS_CAP_REVISION_2 | VFS_CAP_FLAGS_EFFECTIVE,
		.data = { { .permitted = caps } },
	};

	if (argc != 2) {
		fprintf(stderr, "usage: file-caps PATH\n");
		return 2;
	}
	if (!setxattr(argv[1], "security.capability", &data, sizeof(data), 0))
		return 0;
	fprintf(stderr, "file-caps: %s: %s\n", argv[1], strerror(errno));
	return errno == EOPNOTSUPP ? 3 : 1;
}
