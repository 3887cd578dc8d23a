# Guest programs from docs/ (see boot/image/user.mk): the man page's example,
# taken out of the page, so that what runs is what the page prints.
MAN_EXAMPLE := $(GEN)/pidfd_getfd_example.c
PROGS += pidfd_getfd_example
pidfd_getfd_example_SRC := $(MAN_EXAMPLE)
SCRIPTS += docs/man/example-test.sh

$(MAN_EXAMPLE): docs/man/PIDFD_IOCTL_GETFD.2const docs/man/example.sh
	@mkdir -p $(@D)
	sh docs/man/example.sh $< >$@
