/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _BIND_SUPERVISOR_SD_DAEMON_H
#define _BIND_SUPERVISOR_SD_DAEMON_H

/*
 * systemd's socket activation and readiness protocols (sd_listen_fds(3),
 * sd_notify(3)), without libsystemd: Debian ships no static libsystemd,
 * and the agent is a static binary.
 */

/* An fd systemd passed us from our fd store, with its FDNAME. */
struct sd_fd {
	int fd;
	char name[256];
};

/*
 * What systemd passed us (LISTEN_PID is ours): the listening socket of
 * bind-agent.socket, returned, checked: a listening AF_UNIX stream socket
 * on a path only root may connect to (a socket file owned by root, with no
 * write permission for group and others: connect(2) needs it); if @path is
 * not NULL, bound to it. Every fd that is not a socket came from our fd
 * store: *@stored (calloc()ed), *@nstored of them, each with its name
 * (LISTEN_FDNAMES). Returns -1 if no socket was passed; exits with a
 * message if more than one was, or the one is not that. Clears LISTEN_*
 * from the environment.
 */
int sd_listen_socket(const char *prog, const char *path, struct sd_fd **stored, int *nstored);

/*
 * $NOTIFY_SOCKET, kept for sd_notify_fds() and cleared from the
 * environment: 1 if it is set, 0 if not, -1 (with a message) if it is not
 * a socket's name.
 */
int sd_notify_init(const char *prog);
/*
 * @msg ("READY=1", "FDSTORE=1\nFDNAME=...", "WATCHDOG=1", ...) with @nfds
 * fds (SCM_RIGHTS, at most SD_NOTIFY_FDS_MAX) to the service manager: 0 if
 * sent, 1 if there is none (no NOTIFY_SOCKET), -1 with a message if it
 * could not be sent.
 */
#define SD_NOTIFY_FDS_MAX 4
int sd_notify_fds(const char *prog, const char *msg, const int *fds, int nfds);

/* "READY=1", @status and MAINPID: 0 if sent or not asked for, -1 if not sent. */
int sd_ready(const char *prog, const char *status);

#endif
