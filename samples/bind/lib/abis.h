/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _BIND_ABIS_H
#define _BIND_ABIS_H

/*
 * The ABIs a supervised program may run in, one row each: the one place
 * in C that names them. abis[], NABIS and the names in the logs come from
 * these rows. NAME is the arch records' (boot/arch/ARCH/arch.conf ABIS);
 * boot/checks/lint.sh fails if a record names an ABI that has no row.
 *
 *   ABI(NAME, AUDIT_ARCH, bind, socketcall, ioctl, sizeof(long), BADNR)
 *
 * The numbers are the ABI's syscall numbers; BADNR is a JSET mask of
 * numbers to refuse (x32's, under x86_64).
 */
#include <linux/audit.h>
#include <linux/types.h>

#define NO_SOCKETCALL(nr) (nr)	/* socketcall == bind: never reached */
#define FOR_EACH_ABI(ABI) \
	ABI(x86_64, AUDIT_ARCH_X86_64, 49, NO_SOCKETCALL(49), 16, 8, 0x40000000) \
	ABI(i386, AUDIT_ARCH_I386, 361, 102, 54, 4, 0) \
	ABI(arm64, AUDIT_ARCH_AARCH64, 200, NO_SOCKETCALL(200), 29, 8, 0) \
	ABI(armhf, AUDIT_ARCH_ARM, 282, NO_SOCKETCALL(282), 54, 4, 0)

struct abi {
	const char *name;	/* the arch records' name, for the logs */
	__u32 arch, bind, socketcall, ioctl, word;	/* word: sizeof(long) */
	__u32 badnr;	/* JSET mask of numbers to refuse (x32) */
};

#define ABI_INDEX(name, ...) ABI_INDEX_##name,
enum { FOR_EACH_ABI(ABI_INDEX) NABIS };
#undef ABI_INDEX

extern const struct abi abis[NABIS];

/* The ABI of a notification's audit arch; NULL if it is none of abis[]. */
const struct abi *abi_of(__u32 arch);

#endif /* _BIND_ABIS_H */
