// SPDX-License-Identifier: GPL-2.0
/*
 * What bind-agent keeps in systemd's fd store (fdstore.h): names, the
 * container records, and the journal of notifications in flight.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../lib/bind-cli.h"
#include "fdstore.h"

#define ID_CHARS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_+-."
#define RECORD_MAX 4096
#define RECORD_MEMFD "bind-agent-container"
#define JOURNAL_MEMFD "bind-agent-journal"
#define JOURNAL_GROW 64		/* slots at a time */
#define JOURNAL_MAX (1 << 20)	/* slots: 256 MiB */
#define JOURNAL_MAGIC 0x314a4142u	/* "BAJ1" */
#define JOURNAL_MAGIC_TRIES 0x324a4142u	/* "BAJ2": with tries */

_Static_assert(sizeof(struct seccomp_notif) == 80, "struct seccomp_notif is 80 bytes");

static int __attribute__((format(printf, 3, 4))) fail(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -1;
}

int valid_container_id(const char *id)
{
	size_t n = strlen(id);

	return n >= 1 && n <= 128 && strspn(id, ID_CHARS) == n;
}

void fdname_for(const char *id, unsigned long long serial, char *buf, size_t len)
{
	char safe[129];
	size_t i;

	for (i = 0; id[i] && i < 128; i++)
		safe[i] = strchr(ID_CHARS, id[i]) ? id[i] : '_';
	safe[i] = '\0';
	/* "c-" + 128 + "-" + 20 digits: 151 bytes, within FDNAME_MAX */
	snprintf(buf, len, "c-%s-%llu", safe, serial);
}

unsigned long long fdname_serial(const char *name)
{
	const char *dash = strrchr(name, '-');
	unsigned long long serial;
	char *end;

	if (strncmp(name, "c-", 2) || !dash || dash < name + 3 || !dash[1] ||
	    strspn(dash + 1, "0123456789") != strlen(dash + 1) || strlen(dash + 1) > 20)
		return 0;
	errno = 0;
	serial = strtoull(dash + 1, &end, 10);
	return errno || *end ? 0 : serial;
}

int record_format(const struct container_record *r, char *buf, size_t len)
{
	int n = snprintf(buf, len, "bind-agent container 1\nserial=%llu\nid=%s\npid=%d\nruntime_pid=%d\nmetadata=%s\n",
			 r->serial, r->id, r->pid, r->runtime_pid, r->metadata);

	return n < 0 || (size_t)n >= len ? -1 : n;
}

/* "KEY=VALUE\n" at *p: VALUE (terminated in place), or NULL */
static char *field(char **p, const char *key)
{
	size_t k = strlen(key);
	char *v, *nl;

	if (strncmp(*p, key, k) || (*p)[k] != '=')
		return NULL;
	v = *p + k + 1;
	nl = strchr(v, '\n');
	if (!nl)
		return NULL;
	*nl = '\0';
	*p = nl + 1;
	return v;
}

int record_parse(const char *buf, size_t len, struct container_record *r, char *err, size_t errlen)
{
	char copy[RECORD_MAX + 1], *p = copy, *v;
	long n;

	if (len > RECORD_MAX || memchr(buf, '\0', len))
		return fail(err, errlen, "not a record of at most %d bytes of text", RECORD_MAX);
	memcpy(copy, buf, len);
	copy[len] = '\0';
	memset(r, 0, sizeof(*r));
	if (strncmp(p, "bind-agent container 1\n", 23))
		return fail(err, errlen, "not a container record of version 1");
	p += 23;
	v = field(&p, "serial");
	errno = 0;
	if (!v || !*v || strspn(v, "0123456789") != strlen(v) || strlen(v) > 20 ||
	    !(r->serial = strtoull(v, NULL, 10)) || errno)
		return fail(err, errlen, "no serial");
	v = field(&p, "id");
	if (!v || !valid_container_id(v))
		return fail(err, errlen, "the id is not 1-128 of [A-Za-z0-9_+-.]");
	strcpy(r->id, v);
	v = field(&p, "pid");
	if (!v || (n = parse_number(v, 1, 0x7fffffff)) < 0)
		return fail(err, errlen, "no pid");
	r->pid = (int)n;
	v = field(&p, "runtime_pid");
	if (!v || (n = parse_number(v, 0, 0x7fffffff)) < 0)
		return fail(err, errlen, "no runtime_pid");
	r->runtime_pid = (int)n;
	v = field(&p, "metadata");
	if (!v || strlen(v) >= sizeof(r->metadata) ||
	    strspn(v, "abcdefghijklmnopqrstuvwxyz0123456789:=,") != strlen(v))
		return fail(err, errlen, "the metadata is not [a-z0-9:=,], shorter than %zu bytes",
			    sizeof(r->metadata));
	strcpy(r->metadata, v);
	if (*p)
		return fail(err, errlen, "data after the record");
	return 0;
}

int record_memfd(const struct container_record *r)
{
	char buf[RECORD_MAX];
	int n = record_format(r, buf, sizeof(buf)), fd;

	if (n < 0)
		return errno = EOVERFLOW, -1;
	fd = memfd_create(RECORD_MEMFD, MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0)
		return -1;
	if (write(fd, buf, (size_t)n) != n ||
	    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL)) {
		close(fd);
		return -1;
	}
	return fd;
}

int fd_link_is(int fd, const char *want)
{
	char path[64], target[128];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0)
		return 0;
	target[n] = '\0';
	return !strcmp(target, want);
}

/* Whether @fd is a memfd we named @name */
static int our_memfd(int fd, const char *name)
{
	char want[128];

	snprintf(want, sizeof(want), "/memfd:%s (deleted)", name);
	return fd_link_is(fd, want);
}

int record_read(int fd, struct container_record *r, char *err, size_t errlen)
{
	int need = F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE, seals;
	char buf[RECORD_MAX];
	struct stat st;
	ssize_t n;

	if (!our_memfd(fd, RECORD_MEMFD) || fstat(fd, &st) || !S_ISREG(st.st_mode))
		return fail(err, errlen, "not a memfd named %s", RECORD_MEMFD);
	seals = fcntl(fd, F_GET_SEALS);
	if (seals < 0 || (seals & need) != need)
		return fail(err, errlen, "not sealed against writes");
	if (st.st_size > RECORD_MAX)
		return fail(err, errlen, "larger than %d bytes", RECORD_MAX);
	n = pread(fd, buf, sizeof(buf), 0);
	if (n < 0)
		return fail(err, errlen, "read: %s", strerror(errno));
	return record_parse(buf, (size_t)n, r, err, errlen);
}

int narrow_within(const char *metadata, const struct policy *within, struct policy *out,
		  char *dropped, size_t dlen)
{
	char copy[POLICY_LIST_MAX], err[160], *save = NULL;
	size_t used = 0;
	struct policy one;

	if (dropped && dlen)
		dropped[0] = '\0';
	if (!*metadata) {
		*out = *within;
		return 0;
	}
	if (strncmp(metadata, "allow=", 6) || strlen(metadata + 6) >= sizeof(copy))
		return -1;
	strcpy(copy, metadata + 6);
	out->n = 0;
	for (char *spec = strtok_r(copy, ",", &save); spec; spec = strtok_r(NULL, ",", &save)) {
		one.n = 0;
		if (policy_add(&one, spec, err, sizeof(err)))
			return -1;
		if (!policy_allows(within, one.rules[0].type, one.rules[0].protocol, one.rules[0].port)) {
			if (dropped && used < dlen)
				used += (size_t)snprintf(dropped + used, dlen - used, "%s%s",
							 used ? " " : "", spec);
			continue;
		}
		/* as policy_add(): a record has no more rules than a policy holds */
		if (out->n == MAX_ALLOW)
			return -1;
		out->rules[out->n++] = one.rules[0];
	}
	return 0;
}

/* FNV-1a, 32 bits: a torn or foreign slot is not taken for an entry. */
static unsigned int checksum(const unsigned char *p, size_t n)
{
	unsigned int h = 2166136261u;

	while (n--)
		h = (h ^ *p++) * 16777619u;
	return h;
}

/*
 * A slot: magic, state, serial, the notification (80 bytes), fd,
 * addrlen, dev, ino, the address (128 bytes), the checksum of all that.
 * An entry with tries is "BAJ2": the same, then tries, then the checksum.
 * An entry without is "BAJ1", as agents before tries wrote and read it:
 * such an agent (a rollback) reads every slot as before, and takes one
 * with tries for a slot neither free nor whole, which it frees. Its
 * notification then stays pending, unless answer_lost() finds it near
 * its container's mark and refuses it (EPERM): never decided once more.
 */
#define OFF_STATE 4
#define OFF_SERIAL 8
#define OFF_NOTIF 16
#define OFF_FD 96
#define OFF_ADDRLEN 100
#define OFF_DEV 104
#define OFF_INO 112
#define OFF_ADDR 120
#define OFF_SUM 248
#define OFF_TRIES 248
#define OFF_SUM_TRIES 252

void journal_encode(const struct journal_entry *e, unsigned char slot[JOURNAL_SLOT])
{
	unsigned int magic = e->tries ? JOURNAL_MAGIC_TRIES : JOURNAL_MAGIC, sum;
	size_t end = e->tries ? OFF_SUM_TRIES : OFF_SUM;

	memset(slot, 0, JOURNAL_SLOT);
	memcpy(slot, &magic, 4);
	memcpy(slot + OFF_STATE, &e->state, 4);
	memcpy(slot + OFF_SERIAL, &e->serial, 8);
	memcpy(slot + OFF_NOTIF, &e->notif, 80);
	memcpy(slot + OFF_FD, &e->fd, 4);
	memcpy(slot + OFF_ADDRLEN, &e->addrlen, 4);
	memcpy(slot + OFF_DEV, &e->dev, 8);
	memcpy(slot + OFF_INO, &e->ino, 8);
	memcpy(slot + OFF_ADDR, e->addr, 128);
	if (e->tries)
		memcpy(slot + OFF_TRIES, &e->tries, 4);
	sum = checksum(slot, end);
	memcpy(slot + end, &sum, 4);
}

int journal_decode(const unsigned char slot[JOURNAL_SLOT], struct journal_entry *e)
{
	static const unsigned char zero[JOURNAL_SLOT];
	unsigned int magic, sum;
	size_t end;

	if (!memcmp(slot, zero, JOURNAL_SLOT))
		return 1;
	memcpy(&magic, slot, 4);
	end = magic == JOURNAL_MAGIC_TRIES ? OFF_SUM_TRIES : OFF_SUM;
	memcpy(&sum, slot + end, 4);
	if ((magic != JOURNAL_MAGIC && magic != JOURNAL_MAGIC_TRIES) || sum != checksum(slot, end))
		return -1;
	memset(e, 0, sizeof(*e));
	memcpy(&e->state, slot + OFF_STATE, 4);
	memcpy(&e->serial, slot + OFF_SERIAL, 8);
	memcpy(&e->notif, slot + OFF_NOTIF, 80);
	memcpy(&e->fd, slot + OFF_FD, 4);
	memcpy(&e->addrlen, slot + OFF_ADDRLEN, 4);
	memcpy(&e->dev, slot + OFF_DEV, 8);
	memcpy(&e->ino, slot + OFF_INO, 8);
	memcpy(e->addr, slot + OFF_ADDR, 128);
	if (magic == JOURNAL_MAGIC_TRIES)
		memcpy(&e->tries, slot + OFF_TRIES, 4);
	if ((magic == JOURNAL_MAGIC_TRIES && !e->tries) ||
	    (e->state != J_RECEIVED && e->state != J_BINDING && e->state != J_MARK) || !e->serial ||
	    e->addrlen > sizeof(e->addr))
		return -1;
	return 0;
}

int journal_open(struct journal *j, int fd, char *err, size_t errlen)
{
	struct stat st;

	pthread_mutex_init(&j->lock, NULL);
	j->used = NULL;
	j->nslots = 0;
	if (fd < 0) {
		fd = memfd_create(JOURNAL_MEMFD, MFD_CLOEXEC);
		if (fd < 0)
			return fail(err, errlen, "memfd_create: %s", strerror(errno));
	} else if (!our_memfd(fd, JOURNAL_MEMFD)) {
		return fail(err, errlen, "not a memfd named %s", JOURNAL_MEMFD);
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size % JOURNAL_SLOT ||
	    st.st_size / JOURNAL_SLOT > JOURNAL_MAX)
		return fail(err, errlen, "its size is not a number of %d-byte slots", JOURNAL_SLOT);
	j->fd = fd;
	j->nslots = (int)(st.st_size / JOURNAL_SLOT);
	j->used = calloc((size_t)j->nslots + 1, 1);
	if (!j->used)
		return fail(err, errlen, "out of memory");
	return 0;
}

int journal_load(struct journal *j, struct journal_entry **entries, int **slots, int *n,
		 int *corrupt)
{
	unsigned char slot[JOURNAL_SLOT];

	*n = *corrupt = 0;
	*entries = calloc((size_t)j->nslots + 1, sizeof(**entries));
	*slots = calloc((size_t)j->nslots + 1, sizeof(**slots));
	if (!*entries || !*slots)
		return -1;
	for (int i = 0; i < j->nslots; i++) {
		if (pread(j->fd, slot, sizeof(slot), (off_t)i * JOURNAL_SLOT) != JOURNAL_SLOT)
			return -1;
		switch (journal_decode(slot, &(*entries)[*n])) {
		case 0:
			j->used[i] = 1;
			(*slots)[(*n)++] = i;
			break;
		case -1:
			++*corrupt;
			journal_free(j, i);
			break;
		}
	}
	return 0;
}

int journal_alloc(struct journal *j)
{
	int slot = -1;

	pthread_mutex_lock(&j->lock);
	for (int i = 0; i < j->nslots && slot < 0; i++)
		if (!j->used[i])
			slot = i;
	if (slot < 0 && j->nslots + JOURNAL_GROW <= JOURNAL_MAX) {
		unsigned char *more = realloc(j->used, (size_t)j->nslots + JOURNAL_GROW);

		if (more && !ftruncate(j->fd, (off_t)(j->nslots + JOURNAL_GROW) * JOURNAL_SLOT)) {
			memset(more + j->nslots, 0, JOURNAL_GROW);
			slot = j->nslots;
			j->nslots += JOURNAL_GROW;
		}
		if (more)
			j->used = more;
	}
	if (slot >= 0)
		j->used[slot] = 1;
	pthread_mutex_unlock(&j->lock);
	return slot;
}

/*
 * A slot lies within one page (256 divides it): a write the kernel has
 * begun is in the page cache whole before a SIGKILL takes effect, and the
 * checksum catches anything else.
 */
int journal_write(struct journal *j, int slot, const struct journal_entry *e)
{
	unsigned char buf[JOURNAL_SLOT];

	journal_encode(e, buf);
	return pwrite(j->fd, buf, sizeof(buf), (off_t)slot * JOURNAL_SLOT) == JOURNAL_SLOT ? 0 : -1;
}

void journal_free(struct journal *j, int slot)
{
	static const unsigned char zero[JOURNAL_SLOT];

	if (pwrite(j->fd, zero, sizeof(zero), (off_t)slot * JOURNAL_SLOT) != JOURNAL_SLOT)
		perror("bind-agent: clearing a slot of the journal");
	pthread_mutex_lock(&j->lock);
	j->used[slot] = 0;
	pthread_mutex_unlock(&j->lock);
}

int journal_responsive(struct journal *j)
{
	struct timespec deadline;

	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += 1;
	if (pthread_mutex_timedlock(&j->lock, &deadline))
		return 0;
	pthread_mutex_unlock(&j->lock);
	return 1;
}
