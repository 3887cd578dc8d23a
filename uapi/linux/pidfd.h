/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */

#ifndef _UAPI_LINUX_PIDFD_H
#define _UAPI_LINUX_PIDFD_H

#include <linux/types.h>
#include <linux/fcntl.h>
#include <linux/ioctl.h>

/* Flags for pidfd_open().  */
#define PIDFD_NONBLOCK O_NONBLOCK

/* Flags for PIDFD_IOCTL_GETFD. */
#define PIDFD_GETFD_CLOEXEC (1U << 0)	/* the new fd gets FD_CLOEXEC */

/**
 * struct pidfd_getfd_args - arguments of PIDFD_IOCTL_GETFD
 * @size:  sizeof(struct pidfd_getfd_args) the caller was built with; must
 *         equal the size encoded in the ioctl command
 * @fd:    file descriptor number in the process the pidfd refers to
 * @flags: PIDFD_GETFD_* flags
 *
 * The size bits of PIDFD_IOCTL_GETFD are the struct's version.  Later
 * versions may only append fields; the kernel accepts a larger struct as
 * long as every byte it does not know is zero.  A later version must have
 * the same size and layout on every ABI (so that the compat path reads
 * what a 32-bit caller wrote): its size is a multiple of 8, every field
 * is naturally aligned, and a gap is an explicit, zeroed padding field,
 * never an implicit hole.  A first __u64, for example, goes after a
 * __u32 pad at offset 12, which makes version 1 24 bytes.
 */
struct pidfd_getfd_args {
	__u32 size;
	__u32 fd;
	__u32 flags;
};

#define PIDFD_GETFD_ARGS_SIZE_VER0 12	/* sizeof first published struct */

#define PIDFD_IOCTL_GETFD _IOW('p', 0xb0, struct pidfd_getfd_args)

#endif /* _UAPI_LINUX_PIDFD_H */
