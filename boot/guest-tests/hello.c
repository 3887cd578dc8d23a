// SPDX-License-Identifier: GPL-2.0
/* The smallest guest test: a static binary of this ABI runs and sees the kernel. */
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

int main(void)
{
	struct utsname u;
	int ok = uname(&u) == 0;

	printf("TAP version 13\n1..2\n");
	printf("ok 1 a static %zu-bit binary runs\n", sizeof(void *) * 8);
	printf("%sok 2 uname reports a Linux kernel # %s %s\n",
	       ok && !strcmp(u.sysname, "Linux") ? "" : "not ", ok ? u.release : "?",
	       ok ? u.machine : "?");
	return 0;
}
