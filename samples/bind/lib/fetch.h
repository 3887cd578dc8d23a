/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _BIND_FETCH_H
#define _BIND_FETCH_H

/*
 * The PIDFD_IOCTL_GETFD client (fetch.c): how a socket is taken out of
 * the program that trapped.
 */
#include <sys/types.h>

/* --fetch: "auto", "ioctl" or "syscall"; -1 if none of them. */
int set_fetch(const char *method);
/* Pick the fetch (ioctl where the kernel has it); exits if neither works. */
void probe_fetch(const char *prog);

/* The method probe_fetch() picked (or --fetch said). */
enum fetch_method { FETCH_AUTO, FETCH_IOCTL, FETCH_SYSCALL };
extern enum fetch_method fetch_method;
/* A copy of @pidfd's process's (or thread's) @fd, close-on-exec; -1 with errno. */
int fetch(int pidfd, int fd);
/*
 * A pidfd for the thread @tid that trapped: of the thread itself (*thread
 * set) if @want_thread and the kernel has PIDFD_THREAD, else of its
 * process. -1 with errno.
 */
int open_process(pid_t tid, int want_thread, int *thread);

#endif /* _BIND_FETCH_H */
