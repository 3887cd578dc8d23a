// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of what bind-agent keeps in systemd's fd store (fdstore.c),
 * as TAP, on the host: FDNAMEs made from container ids, the container
 * records and their memfds' checks, the journal's slots and the journal
 * itself, and the narrowing of a record's listenerMetadata by a policy.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fdstore.h"
#include "../lib/bind-cli.h"

static int n, failed;

static void check(int ok, const char *name)
{
	n++;
	if (!ok)
		failed = 1;
	printf("%sok %d %s\n", ok ? "" : "not ", n, name);
}

/* systemd's fdname_is_valid(): printable ASCII but ':', at most 255 bytes */
static int valid_fdname(const char *s)
{
	size_t len = strlen(s);

	for (const char *p = s; *p; p++)
		if (*p < ' ' || *p > '~' || *p == ':')
			return 0;
	return len <= FDNAME_MAX;
}

static void fdnames(void)
{
	char id[300], name[FDNAME_MAX + 1];

	fdname_for("web", 7, name, sizeof(name));
	check(!strcmp(name, "c-web-7") && fdname_serial(name) == 7, "fdname: c-ID-SERIAL, and its serial back");
	fdname_for("a:b\nc/d e", 12, name, sizeof(name));
	printf("#   %s\n", name);
	check(!strcmp(name, "c-a_b_c_d_e-12") && valid_fdname(name),
	      "fdname: ':', a line break, '/' and a blank become '_' (a valid FDNAME, a safe name)");
	memset(id, 'x', sizeof(id) - 1);
	id[sizeof(id) - 1] = '\0';
	fdname_for(id, 18446744073709551615ULL, name, sizeof(name));
	check(valid_fdname(name) && strlen(name) == 2 + 128 + 1 + 20 &&
	      fdname_serial(name) == 18446744073709551615ULL,
	      "fdname: a 299-byte id is cut at 128 bytes; the largest serial fits, within 255 bytes");
	fdname_for("my-app-1", 3, name, sizeof(name));
	check(fdname_serial(name) == 3, "fdname: an id with dashes: the serial is after the last one");
	check(!fdname_serial("journal") && !fdname_serial("c-web-") && !fdname_serial("c--5") &&
	      !fdname_serial("c-web-5x") && !fdname_serial("x-web-5") &&
	      !fdname_serial("c-web-99999999999999999999"),
	      "fdname: names that are not ours have no serial");
	check(valid_container_id("web.1_+-") && !valid_container_id("") && !valid_container_id("a b") &&
	      !valid_container_id(id), "container ids: 1-128 of [A-Za-z0-9_+-.]");
}

static void records(void)
{
	struct container_record r = { .serial = 42, .id = "web", .pid = 1234, .runtime_pid = 99,
				      .metadata = "allow=tcp:80,udp:53" }, back;
	char buf[4096], err[200];
	int len = record_format(&r, buf, sizeof(buf)), fd;

	check(len > 0 && !record_parse(buf, (size_t)len, &back, err, sizeof(err)) &&
	      back.serial == 42 && !strcmp(back.id, "web") && back.pid == 1234 &&
	      back.runtime_pid == 99 && !strcmp(back.metadata, "allow=tcp:80,udp:53"),
	      "record: formatted and parsed back");
	/* each line changed to something bad is refused, with a reason */
	static const struct { const char *from, *to, *why; } bad[] = {
		{ "bind-agent container 1", "bind-agent container 2", "version 1" },
		{ "serial=42", "serial=0", "serial" },
		{ "id=web", "id=w b", "id" },
		{ "id=web", "id=", "id" },
		{ "pid=1234", "pid=-1", "pid" },
		{ "metadata=allow=tcp:80,udp:53", "metadata=ALLOW", "metadata" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char copy[4096], *at, name[200];

		snprintf(copy, sizeof(copy), "%s", buf);
		at = strstr(copy, bad[i].from);
		memmove(at + strlen(bad[i].to), at + strlen(bad[i].from), strlen(at + strlen(bad[i].from)) + 1);
		memcpy(at, bad[i].to, strlen(bad[i].to));
		snprintf(name, sizeof(name), "record: '%s' is refused (%s)", bad[i].to, bad[i].why);
		err[0] = '\0';
		check(record_parse(copy, strlen(copy), &back, err, sizeof(err)) && strstr(err, bad[i].why), name);
		printf("#   %s\n", err);
	}
	snprintf(buf + len, sizeof(buf) - (size_t)len, "extra=1\n");
	check(record_parse(buf, strlen(buf), &back, err, sizeof(err)) != 0, "record: data after it is refused");

	fd = record_memfd(&r);
	check(fd >= 0 && !record_read(fd, &back, err, sizeof(err)) && back.serial == 42,
	      "record memfd: sealed, read back");
	check(fd >= 0 && write(fd, "x", 1) < 0, "record memfd: a write to it fails (F_SEAL_WRITE)");
	if (fd >= 0)
		close(fd);
	/* the same text in a memfd that is not sealed, or not ours */
	fd = memfd_create("bind-agent-container", MFD_CLOEXEC);
	len = record_format(&r, buf, sizeof(buf));
	check(fd >= 0 && write(fd, buf, (size_t)len) == len && record_read(fd, &back, err, sizeof(err)) &&
	      strstr(err, "not sealed"), "record memfd: one not sealed against writes is refused");
	printf("#   %s\n", err);
	close(fd);
	fd = memfd_create("something-else", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	check(fd >= 0 && write(fd, buf, (size_t)len) == len &&
	      !fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE) &&
	      record_read(fd, &back, err, sizeof(err)) && strstr(err, "not a memfd named"),
	      "record memfd: a sealed memfd of another name is refused");
	close(fd);
	fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
	check(record_read(fd, &back, err, sizeof(err)) != 0, "record memfd: a file is refused");
	close(fd);
}

static void slots(void)
{
	struct journal_entry e = { .state = J_BINDING, .serial = 5, .fd = 7, .addrlen = 16,
				   .dev = 8, .ino = 123456 }, back;
	unsigned char slot[JOURNAL_SLOT], zero[JOURNAL_SLOT] = { 0 };
	int flipped = 0;

	e.notif.id = 0x1122334455667788ULL;
	e.notif.pid = 4321;
	e.notif.data.nr = 49;
	e.notif.data.args[1] = 0xdeadbeef;
	e.addr[0] = 2;
	e.addr[3] = 80;
	journal_encode(&e, slot);
	check(!journal_decode(slot, &back) && back.state == J_BINDING && back.serial == 5 &&
	      back.notif.id == e.notif.id && back.notif.pid == 4321 && back.notif.data.nr == 49 &&
	      back.notif.data.args[1] == 0xdeadbeef && back.fd == 7 && back.addrlen == 16 &&
	      back.dev == 8 && back.ino == 123456 && !memcmp(back.addr, e.addr, sizeof(e.addr)),
	      "journal slot: encoded and decoded back");
	check(journal_decode(zero, &back) == 1, "journal slot: all zero is a free slot");
	/* any one byte changed (a torn write, a foreign memfd) is not an entry */
	for (int i = 0; i < JOURNAL_SLOT - 4; i++) {
		slot[i] ^= 0x40;
		flipped += journal_decode(slot, &back) == -1;
		slot[i] ^= 0x40;
	}
	check(flipped == JOURNAL_SLOT - 4, "journal slot: each of its 252 bytes changed is detected");
	e.state = 9;
	journal_encode(&e, slot);
	check(journal_decode(slot, &back) == -1, "journal slot: an unknown state is refused");
	/* tries: "BAJ2", every byte checked; none: "BAJ1", as before tries */
	e.state = J_RECEIVED;
	e.tries = 1;
	journal_encode(&e, slot);
	check(!journal_decode(slot, &back) && back.tries == 1 && back.state == J_RECEIVED &&
	      back.notif.id == e.notif.id && !memcmp(slot, "BAJ2", 4),
	      "journal slot: its tries encoded and decoded back, as BAJ2");
	flipped = 0;
	for (int i = 0; i < JOURNAL_SLOT; i++) {
		slot[i] ^= 0x40;
		flipped += journal_decode(slot, &back) == -1;
		slot[i] ^= 0x40;
	}
	check(flipped == JOURNAL_SLOT, "journal slot with tries: each of its 256 bytes changed is detected");
	e.tries = 0;
	journal_encode(&e, slot);
	check(!memcmp(slot, "BAJ1", 4) && !memcmp(slot + 252, zero, 4) && !journal_decode(slot, &back) &&
	      !back.tries, "journal slot without tries: BAJ1, the layout an agent before tries reads");
}

static void journal(void)
{
	struct journal j, j2;
	struct journal_entry e = { .state = J_RECEIVED, .serial = 9 }, *entries;
	int *slotv, count, corrupt, s[70], fd;
	char err[200];
	unsigned char junk[JOURNAL_SLOT];

	check(!journal_open(&j, -1, err, sizeof(err)), "journal: a new one");
	for (int i = 0; i < 70; i++)
		s[i] = journal_alloc(&j);
	check(s[0] == 0 && s[69] == 69 && j.nslots == 128, "journal: 70 slots, grown 64 at a time");
	for (int i = 0; i < 70; i++) {
		e.notif.id = (unsigned long long)i;
		journal_write(&j, s[i], &e);
	}
	for (int i = 0; i < 70; i++)
		if (i != 3 && i != 66)
			journal_free(&j, s[i]);
	check(journal_alloc(&j) == 0, "journal: a freed slot is used again");
	journal_free(&j, 0);
	/* a slot of garbage, as a torn write might leave */
	memset(junk, 0x5a, sizeof(junk));
	check(pwrite(j.fd, junk, sizeof(junk), 10 * JOURNAL_SLOT) == JOURNAL_SLOT, "journal: garbage written into slot 10");
	/* the next agent: the same memfd, passed back (a dup, as systemd's) */
	fd = dup(j.fd);
	check(!journal_open(&j2, fd, err, sizeof(err)) &&
	      !journal_load(&j2, &entries, &slotv, &count, &corrupt) && count == 2 && corrupt == 1 &&
	      entries[0].notif.id == 3 && entries[1].notif.id == 66 && slotv[1] == 66,
	      "journal: the next agent finds the 2 entries in flight, and 1 slot that is neither free nor whole");
	check(!j2.used[10] && j2.used[3] && j2.used[66] && !j2.used[0],
	      "journal: ... whose slot is free again, while the entries' stay in use");
	free(entries);
	free(slotv);
	fd = memfd_create("not-the-journal", MFD_CLOEXEC);
	check(journal_open(&j2, fd, err, sizeof(err)) != 0, "journal: a memfd of another name is refused");
	close(fd);
	fd = memfd_create("bind-agent-journal", MFD_CLOEXEC);
	check(!ftruncate(fd, 100) && journal_open(&j2, fd, err, sizeof(err)) != 0,
	      "journal: one whose size is not a number of slots is refused");
	close(fd);
	check(journal_responsive(&j), "journal: its lock is free (the watchdog's check)");
}

static void narrowing(void)
{
	struct policy agent = { .n = 0 }, out;
	struct { struct policy out; int guard[8]; } big;
	char err[160], dropped[200], many[7 * (MAX_ALLOW + 1) + 8];

	policy_add(&agent, "tcp:80", err, sizeof(err));
	policy_add(&agent, "udp:53", err, sizeof(err));
	check(!narrow_within("", &agent, &out, dropped, sizeof(dropped)) && out.n == 2 && !dropped[0],
	      "narrow: no metadata: the agent's policy");
	check(!narrow_within("allow=tcp:80,tcp:443", &agent, &out, dropped, sizeof(dropped)) &&
	      out.n == 1 && out.rules[0].port == 80 && !strcmp(dropped, "tcp:443"),
	      "narrow: what the agent no longer grants is dropped, and named");
	check(!narrow_within("allow=", &agent, &out, dropped, sizeof(dropped)) && out.n == 0,
	      "narrow: allow= with nothing is no port");
	check(narrow_within("deny=tcp:80", &agent, &out, dropped, sizeof(dropped)) != 0 &&
	      narrow_within("allow=tcp:x", &agent, &out, dropped, sizeof(dropped)) != 0,
	      "narrow: not allow=SPEC,... is refused");
	/* a record is read back from the store: more rules than a policy holds */
	snprintf(many, sizeof(many), "allow=");
	for (int i = 0; i <= MAX_ALLOW; i++)
		strcat(many, i ? ",tcp:80" : "tcp:80");
	memset(&big, 0, sizeof(big));
	check(narrow_within(many, &agent, &big.out, dropped, sizeof(dropped)) != 0 &&
	      big.out.n <= MAX_ALLOW && !big.guard[0],
	      "narrow: more than MAX_ALLOW rules are refused, not written past the policy");
}

int main(void)
{
	unpriv_start = 1024;
	printf("TAP version 13\n");
	fdnames();
	records();
	slots();
	journal();
	narrowing();
	printf("1..%d\n", n);
	return failed;
}
