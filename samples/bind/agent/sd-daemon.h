/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _BIND_SUPERVISOR_SD_DAEMON_H
#define _BIND_SUPERVISOR_SD_DAEMON_H

/*
 * systemd's socket activation and readiness protocols (sd_listen_fds(3),
 * sd_notify(3)), without libsystemd: Debian ships no static libsystemd,
 * and the agent is a static binary.
 */

/*
 * The listening socket systemd passed us (LISTEN_PID is ours, LISTEN_FDS
 * is 1: fd 3), checked: a listening AF_UNIX stream socket on a path only
 * root may connect to (a socket file owned by root, with no write
 * permission for group and others: connect(2) needs it). If @path is not NULL, the socket must be bound to it. Returns
 * the fd, or -1 if nothing was passed to us; exits with a message if what
 * was passed is not that. Clears LISTEN_* from the environment.
 */
int sd_listen_socket(const char *prog, const char *path);

/*
 * "READY=1" and @status to $NOTIFY_SOCKET, if it is set. Returns 0 if sent
 * or not asked for, -1 (with a message) if it cannot be sent.
 */
int sd_ready(const char *prog, const char *status);

#endif
