# Guest programs for one ABI, static:
#   make -f boot/image/user.mk ABI=x86_64 NATIVE_ABI=x86_64 CC=gcc OUT=STAGE/ABI/bin KSRC=DIR
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
# OUT is STAGE/ABI/bin; a guest.mk puts the sources it generates in GEN.
STAGE := $(abspath $(OUT)/../..)
GEN := $(STAGE)/src/$(ABI)

CFLAGS := -std=gnu11 -O2 -g0 -Wall -Wextra -Werror -static \
	-Iuapi
HEADERS := $(wildcard uapi/linux/*.h)

PROGS := init hello harness-selftest
init_SRC := boot/image/init.c boot/image/suite-line.h
hello_SRC := boot/guest-tests/hello.c
harness-selftest_SRC := boot/guest-tests/harness-selftest.c
SCRIPTS := boot/guest-tests/debug-checks.sh
# The systemd guest's (boot/flavour/systemd): its smoke test, and the
# service that shows systemd's fd store at work (boot/image/systemd/)
SCRIPTS += boot/guest-tests/systemd-smoke.sh
ifeq ($(ABI),$(NATIVE_ABI))
PROGS += fdstore-probe
fdstore-probe_SRC := boot/guest-tests/fdstore-probe.c
endif
include $(wildcard */guest.mk)

# A file in OUT that no rule here makes (a program no guest.mk names any
# more) would still be packed into the image: it is removed. OUT/kselftest/
# is boot/image/kselftests.sh's.
STALE := $(filter-out $(addprefix $(OUT)/,$(PROGS) $(notdir $(SCRIPTS)) kselftest),$(wildcard $(OUT)/*))
all: $(addprefix $(OUT)/,$(PROGS) $(notdir $(SCRIPTS)))
	$(if $(STALE),rm -rf $(STALE))

# A program depends on its sources' content, not their times: each source
# has a sum in SUMS that is rewritten only when the content changed, so
# a fresh clone (every file new) compiles nothing that is already built.
# (GEN's generated sources are summed as gen/NAME).
SUMS := $(STAGE)/.sums/$(ABI)
GUEST_MKS := $(wildcard */guest.mk samples/*/guest.mk)
sums = $(patsubst %,$(SUMS)/%.sum,$(patsubst $(GEN)/%,gen/%,$(1)))
# update: the target becomes $@.new only if that differs (its time stays)
update = if cmp -s $@.new $@; then rm $@.new; else mv $@.new $@; fi
define sum
	@mkdir -p $(@D)
	@sha256sum <$< >$@.new && $(update)
endef
$(SUMS)/gen/%.sum: $(GEN)/% FORCE
	$(sum)
$(SUMS)/%.sum: % FORCE
	$(sum)
# Every program also depends on the compiler's version, the flags, the
# static C library, the list of headers (a deleted one changes it) and the
# kernel tree's commit (the selftests include its kselftest headers).
ENV_SUM := $(SUMS)/.env.sum
$(ENV_SUM): FORCE
	@mkdir -p $(@D)
	@{ $(CC) --version | head -n 1 && echo '$(CFLAGS) $(HEADERS) $(GUEST_MKS)' && \
		sha256sum $$($(CC) -print-file-name=libc.a) </dev/null && git -C $(KSRC) rev-parse HEAD; } >$@.new && \
		$(update)

define prog
$(OUT)/$(1): $$(call sums,$$($(1)_SRC) $$(HEADERS) boot/image/user.mk $$(GUEST_MKS)) $$(ENV_SUM)
	@mkdir -p $$(@D)
	$$(CC) $$(CFLAGS) $$($(1)_CFLAGS) -o $$@ $$(filter %.c,$$($(1)_SRC)) $$($(1)_LDLIBS)
endef
$(foreach p,$(PROGS),$(eval $(call prog,$(p))))

# Scripts (SCRIPTS += dir/name.sh) are installed as they are.
define script
$(OUT)/$(notdir $(1)): $(call sums,$(1))
	@mkdir -p $$(@D)
	install -m 0755 $(1) $$@
endef
$(foreach s,$(SCRIPTS),$(eval $(call script,$(s))))

.PHONY: all FORCE
.DELETE_ON_ERROR:
