/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _BIND_AGENT_FDSTORE_H
#define _BIND_AGENT_FDSTORE_H

/*
 * What bind-agent keeps in systemd's fd store (sd_notify(3) FDSTORE=1),
 * so that the next agent serves the same containers (fdstore.c):
 *
 *  - per container, under one FDNAME ("c-ID-SERIAL", fdname_for()): its
 *    seccomp listener and a sealed memfd, its record (the container's id,
 *    pids and listenerMetadata, which the next agent narrows its own
 *    policy by);
 *  - once, FDNAME "journal": a memfd of fixed-size slots, one per
 *    notification in flight, written after SECCOMP_IOCTL_NOTIF_RECV and
 *    again before the agent binds the socket, cleared once answered.
 *
 * memfds, not files under /run: they live exactly as long as the
 * listeners they describe (systemd releases the store when the service
 * stops for good, and keeps it across a restart), need no directory whose
 * owner and mode must be checked, and come back only to the service's
 * main process.
 */
#include <pthread.h>
#include <stddef.h>
#include <linux/seccomp.h>
#include <linux/types.h>

#include "../lib/rules.h"

/* systemd's FDNAME: at most 255 bytes of printable ASCII but ':' (fdname_is_valid()) */
#define FDNAME_MAX 255
#define JOURNAL_FDNAME "journal"

/* Whether @fd's /proc/self/fd link reads @want ("anon_inode:seccomp notify") */
int fd_link_is(int fd, const char *want);
/* 1 if @id is a container id we take: 1-128 of [A-Za-z0-9_+-.] */
int valid_container_id(const char *id);
/*
 * "c-ID-SERIAL": @id with every byte outside [A-Za-z0-9_+-.] made '_' and
 * cut at 128 bytes, so that the name is a valid FDNAME whatever @id is.
 */
void fdname_for(const char *id, unsigned long long serial, char *buf, size_t len);
/* The SERIAL of a name fdname_for() made; 0 if @name is not one. */
unsigned long long fdname_serial(const char *name);

/* A container's record, in its memfd. */
struct container_record {
	unsigned long long serial;
	char id[129];
	int pid, runtime_pid;
	char metadata[POLICY_LIST_MAX + 8];	/* listenerMetadata, "" if none */
};
/* The record as text, into @buf: its length, or -1 if it does not fit. */
int record_format(const struct container_record *r, char *buf, size_t len);
/* Parse and check the text: 0, or -1 with what is wrong in @err. */
int record_parse(const char *buf, size_t len, struct container_record *r, char *err, size_t errlen);
/* A memfd holding the record, sealed against any change; -1 on failure. */
int record_memfd(const struct container_record *r);
/*
 * Read a record from @fd, which must be one of our memfds, sealed against
 * writes, of at most 4 KiB: 0, or -1 with what is wrong in @err.
 */
int record_read(int fd, struct container_record *r, char *err, size_t errlen);

/*
 * listenerMetadata's "allow=SPEC,..." against @within: @out gets the
 * SPECs @within grants, @dropped (if not NULL) lists those it does not.
 * An empty @metadata is @within. -1 if @metadata is not that syntax, or
 * grants more than MAX_ALLOW rules.
 */
int narrow_within(const char *metadata, const struct policy *within, struct policy *out,
		  char *dropped, size_t dlen);

/* One notification in flight, as the journal keeps it. */
/*
 * J_MARK: one slot per container, the id of the last notification it
 * received (notif.id only): the next agent looks around it for one the
 * kernel still holds that no slot has (received, and not yet journaled).
 */
enum { J_FREE, J_RECEIVED, J_BINDING, J_MARK };
struct journal_entry {
	unsigned int state;		/* J_RECEIVED, J_BINDING or J_MARK */
	unsigned long long serial;	/* its container's */
	struct seccomp_notif notif;	/* as received */
	/* J_BINDING: the socket we bind, and the address */
	int fd;				/* the program's fd number */
	unsigned int addrlen;
	unsigned long long dev, ino;
	unsigned char addr[128];
	/*
	 * How many agents took it up again from the journal (recover()): an
	 * agent after one that did and stopped before answering refuses it.
	 */
	unsigned int tries;
};
#define JOURNAL_SLOT 256
/* An entry into one slot (with its checksum), and back. */
void journal_encode(const struct journal_entry *e, unsigned char slot[JOURNAL_SLOT]);
/* 0, 1 for a free slot, -1 for one that is neither free nor whole. */
int journal_decode(const unsigned char slot[JOURNAL_SLOT], struct journal_entry *e);

struct journal {
	int fd;
	pthread_mutex_t lock;
	unsigned char *used;	/* a byte per slot */
	int nslots;
};
/*
 * @fd, a journal from the store (checked: one of our memfds), or -1 for a
 * new one. 0, or -1 with what is wrong in @err.
 */
int journal_open(struct journal *j, int fd, char *err, size_t errlen);
/*
 * The entries in it, each with its slot (kept in use: journal_free() once
 * dealt with); *corrupt counts the slots that were neither free nor
 * whole (freed). -1 on failure.
 */
int journal_load(struct journal *j, struct journal_entry **entries, int **slots, int *n,
		 int *corrupt);
/* A free slot (the journal grows if need be), or -1. */
int journal_alloc(struct journal *j);
/* 0, or -1: the entry is not in the journal. */
int journal_write(struct journal *j, int slot, const struct journal_entry *e);
void journal_free(struct journal *j, int slot);
/* Whether the lock every write takes is free within a second (the watchdog). */
int journal_responsive(struct journal *j);

#endif
