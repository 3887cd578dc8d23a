/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _BIND_SUPERVISOR_SUPERVISE_H
#define _BIND_SUPERVISOR_SUPERVISE_H

#include <sys/types.h>

/*
 * supervise() waits for the supervised program: it forwards the signals
 * that arrive on @sigfd (a signalfd) to the program through @pidfd, reaps
 * the program @pid and every orphan it leaves (we are a child subreaper),
 * and returns once the program has been reaped AND @listener has hung up
 * (no task uses the filter any more), whatever order those come in.
 * Returns the program's exit status (128 + signal if killed), or -1.
 * The notifications themselves are answered by other threads.
 */
int supervise(int listener, int sigfd, int pidfd, pid_t pid);

#endif /* _BIND_SUPERVISOR_SUPERVISE_H */
