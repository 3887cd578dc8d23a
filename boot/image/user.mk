# Guest programs for one ABI, static:
#   make -f boot/image/user.mk ABI=x86_64 NATIVE_ABI=x86_64 CC=gcc OUT=DIR KSRC=DIR
# Each directory that has guest programs adds them in its guest.mk:
#   PROGS += name
#   name_SRC := dir/name.c [more.c]
#   name_CFLAGS / name_LDLIBS (optional)
#   SCRIPTS += dir/script.sh

ABI ?= $(error ABI not set)
OUT ?= $(error OUT not set)
KSRC ?= $(error KSRC not set)

# guest.mk files may add rules (generated sources): 'all' stays the goal.
.DEFAULT_GOAL := all

CFLAGS := -std=gnu11 -O2 -g0 -Wall -Wextra -Werror -static \
	-Iuapi
HEADERS := $(wildcard uapi/linux/*.h)

PROGS := init hello harness-selftest
init_SRC := boot/image/init.c boot/image/suite-line.h
hello_SRC := boot/guest-tests/hello.c
harness-selftest_SRC := boot/guest-tests/harness-selftest.c
SCRIPTS := boot/guest-tests/debug-checks.sh
include $(wildcard */guest.mk)

all: $(addprefix $(OUT)/,$(PROGS) $(notdir $(SCRIPTS)))

define prog
$(OUT)/$(1): $$($(1)_SRC) $$(HEADERS) boot/image/user.mk
	@mkdir -p $$(@D)
	$$(CC) $$(CFLAGS) $$($(1)_CFLAGS) -o $$@ $$(filter %.c,$$($(1)_SRC)) $$($(1)_LDLIBS)
endef
$(foreach p,$(PROGS),$(eval $(call prog,$(p))))

# Scripts (SCRIPTS += dir/name.sh) are installed as they are.
define script
$(OUT)/$(notdir $(1)): $(1)
	@mkdir -p $$(@D)
	install -m 0755 $$< $$@
endef
$(foreach s,$(SCRIPTS),$(eval $(call script,$(s))))

.PHONY: all
.DELETE_ON_ERROR:
