// SPDX-License-Identifier: GPL-2.0
/*
 * Reading the trapped call (call.h): which ABI and syscall a notification
 * is, and bind()'s arguments, copied once out of the program.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <fcntl.h>
#include <linux/net.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/uio.h>
#include <unistd.h>

#include "call.h"

#define ABI_ROW(name_, arch_, bind_, socketcall_, ioctl_, word_, badnr_) \
	{ .name = #name_, .arch = arch_, .bind = bind_, .socketcall = socketcall_, \
	  .ioctl = ioctl_, .word = word_, .badnr = badnr_ },
const struct abi abis[NABIS] = { FOR_EACH_ABI(ABI_ROW) };
#undef ABI_ROW

const struct abi *abi_of(__u32 arch)
{
	for (size_t i = 0; i < NABIS; i++)
		if (abis[i].arch == arch)
			return &abis[i];
	return NULL;
}

int id_valid(int listener, __u64 id)
{
	return ioctl(listener, SECCOMP_IOCTL_NOTIF_ID_VALID, &id) == 0;
}

/* Copy @len bytes at @addr out of the target, once. */
static int read_target(pid_t pid, void *buf, size_t len, __u64 addr)
{
	struct iovec local = { buf, len };
	struct iovec remote = { (void *)(uintptr_t)addr, len };
	char path[64];
	ssize_t n;
	FILE *f;

	if (addr <= UINTPTR_MAX - len)
		return process_vm_readv(pid, &local, 1, &remote, 1, 0) == (ssize_t)len ? 0 : -1;
	/* A 64-bit program under a 32-bit supervisor: beyond our pointers. */
	snprintf(path, sizeof(path), "/proc/%d/mem", pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	n = pread64(fileno(f), buf, len, (off64_t)addr);
	fclose(f);
	return n == (ssize_t)len ? 0 : -1;
}

/*
 * Read bind()'s or socketcall(SYS_BIND)'s arguments once. Returns 0,
 * NOT_BIND, or -1 if we cannot read them.
 */
int read_call(const struct seccomp_notif *req, struct call *c)
{
	const struct abi *a = abi_of(req->data.arch);
	__u64 args[3] = { req->data.args[0], req->data.args[1], req->data.args[2] };

	if (!a)
		return NOT_BIND;
	c->syscall = "bind";
	if (req->data.nr == (int)a->socketcall && a->socketcall != a->bind) {
		__u32 words[3];

		c->syscall = "socketcall";
		if ((int)args[0] != SYS_BIND)
			return NOT_BIND;
		if (a->word != 4 || read_target(req->pid, words, sizeof(words), args[1]))
			return -1;
		for (int i = 0; i < 3; i++)
			args[i] = words[i];
	} else if (req->data.nr != (int)a->bind) {
		c->syscall = NULL;
		return NOT_BIND;
	}
	/* The kernel takes fd and addrlen as ints: so do we. */
	c->fd = (int)(__u32)args[0];
	c->len = (int)(__u32)args[2];
	if (c->len < 4 || c->len > (int)sizeof(c->addr) ||
	    read_target(req->pid, &c->addr, c->len, args[1]))
		return -1;
	/* sin_port and sin6_port are at the same place. */
	c->port = ntohs(((struct sockaddr_in *)&c->addr)->sin_port);
	c->read = 1;
	return 0;
}
