/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SAMPLES_SECCOMP_USER_TRAP_HELPER_H
#define _SAMPLES_SECCOMP_USER_TRAP_HELPER_H

/* seccomp(2), which glibc does not wrap. */
int seccomp(unsigned int op, unsigned int flags, void *args);

/*
 * Install a filter that sends syscall @nr to a user-space supervisor and
 * allows everything else; with SECCOMP_FILTER_FLAG_NEW_LISTENER, returns
 * the listener fd.
 */
int user_trap_syscall(int nr, unsigned int flags);

/* Pass one fd over a unix socket with SCM_RIGHTS, and receive it. */
int send_fd(int sock, int fd);
int recv_fd(int sock);

#endif /* _SAMPLES_SECCOMP_USER_TRAP_HELPER_H */
