# PIDFD_IOCTL_GETFD: a kernel patch series, its tests and samples, and the
# harness that builds the kernels and boots them in QEMU. 'make help' lists
# the targets. Everything built lives in $(PIDFD_GETFD_CACHE), not here.

export PIDFD_GETFD_CACHE ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/pidfd-getfd
LOGS := $(PIDFD_GETFD_CACHE)/logs
# The arches: one folder each in boot/arch/. 'make ... ARCH=NAME' on the
# command line picks some; ARCH in the environment is kbuild's (ARCH=x86
# for a kernel build) and is ignored, so it cannot narrow a run unseen.
ALL_ARCHES := $(patsubst boot/arch/%/arch.conf,%,$(wildcard boot/arch/*/arch.conf))
ARCH_GIVEN := $(filter command line,$(origin ARCH))
ARCHES := $(if $(ARCH_GIVEN),$(ARCH),$(ALL_ARCHES))
HOST_ARCH := $(shell uname -m)
# The guest for host-side checks and 'make shell': the host's arch if it is one.
SHELL_ARCH := $(if $(filter $(HOST_ARCH),$(ARCHES)),$(HOST_ARCH),$(firstword $(ARCHES)))
# The debug kernel is built for x86_64 only unless ARCH is given: see
# docs/harness.md for the time each arch adds to CI.
DEBUG_ARCH := $(if $(ARCH_GIVEN),$(ARCH),x86_64)

# guest ARCH...: kernel + initramfs for each arch
guest = sh boot/tree.sh && for a in $(1); do \
	sh boot/kernel.sh $$a && sh boot/initramfs.sh $$a || exit 1; done
# boot SUITE ARCH...: run SUITE on each arch
boot = for a in $(2); do sh boot/run.sh $$a $(1) || exit 1; done
verdict = awk -v known=boot/upstream-known-failures -f boot/verdict.awk
# The logs each verdict expects, by name: a missing one fails it.
HOST_LOGS := $(foreach l,series docs harness,$(LOGS)/host-$(l).log)
guest_logs = $(foreach a,$(ARCHES),$(LOGS)/$(a)-$(1).log)
baseline_logs = $(foreach a,$(ARCHES),$(LOGS)/host-baseline-$(a).log)

.PHONY: help deps tree kernel initramfs check check-guest check-host \
	check-series check-debug bench bench-plot demo shell clean

help:
	@echo 'make demo                  boot every arch and run the samples'
	@echo 'make check                 everything below, one verdict (the CI test)'
	@echo '  make check-guest         the guest suites on every arch and ABI, and the'
	@echo '                           pristine-kernel baseline'
	@echo '  make check-host          series lint: git am, quilt, checkpatch, uapi, sparse;'
	@echo '                           and the harness self-test'
	@echo 'make check-series          every prefix of the series builds, every arch'
	@echo 'make check-debug           KASAN/lockdep/kmemleak/fault-injection kernel:'
	@echo '                           selftests, stress, fail-nth sweeps (x86_64)'
	@echo 'make bench                 the benchmark on every arch and ABI, tables + CSV'
	@echo 'make bench-plot            docs/benchmarks.png from the last bench CSV'
	@echo 'make shell                 an interactive busybox shell in the guest'
	@echo 'make kernel / initramfs    just build them'
	@echo 'make deps                  install missing Debian packages (apt-get)'
	@echo 'make clean                 remove the cache ($(PIDFD_GETFD_CACHE))'
	@echo 'ARCH="NAME..." on the command line picks arches (default: "$(ALL_ARCHES)",'
	@echo '  the folders in boot/arch/; ARCH from the environment is ignored).'

deps:
	@sh boot/deps.sh

tree: deps
	@sh boot/tree.sh

kernel: deps
	@sh boot/tree.sh && for a in $(ARCHES); do sh boot/kernel.sh $$a || exit 1; done

initramfs: deps
	@sh boot/tree.sh && for a in $(ARCHES); do sh boot/initramfs.sh $$a || exit 1; done

check: deps
	@rm -f $(LOGS)/*-check.log $(LOGS)/host-*.log
	@$(call guest,$(ARCHES))
	@$(call boot,check,$(ARCHES))
	@for a in $(ARCHES); do sh boot/baseline.sh $$a || exit 1; done
	@sh boot/check-host.sh $(SHELL_ARCH)
	@echo '== verdict =='
	@$(verdict) $(call guest_logs,check) $(baseline_logs) $(HOST_LOGS)

check-guest: deps
	@rm -f $(LOGS)/*-check.log $(LOGS)/host-baseline-*.log
	@$(call guest,$(ARCHES))
	@$(call boot,check,$(ARCHES))
	@for a in $(ARCHES); do sh boot/baseline.sh $$a || exit 1; done
	@$(verdict) $(call guest_logs,check) $(baseline_logs)

check-host: deps
	@rm -f $(LOGS)/host-*.log
	@$(call guest,$(SHELL_ARCH))
	@sh boot/check-host.sh $(SHELL_ARCH)
	@$(verdict) $(HOST_LOGS)

check-series: deps
	@sh boot/tree.sh && sh boot/check-series.sh $(ARCHES)
	@$(verdict) $(LOGS)/series.log

check-debug: deps
	@rm -f $(foreach a,$(DEBUG_ARCH),$(LOGS)/$(a)-debug.log)
	@sh boot/tree.sh && for a in $(DEBUG_ARCH); do \
		sh boot/kernel.sh $$a debug && sh boot/initramfs.sh $$a || exit 1; done
	@for a in $(DEBUG_ARCH); do \
		FLAVOUR=debug GUEST_MEM=1G sh boot/run.sh $$a debug || exit 1; done
	@echo '== verdict (debug kernels) =='
	@$(verdict) $(foreach a,$(DEBUG_ARCH),$(LOGS)/$(a)-debug.log)

bench: deps
	@$(call guest,$(ARCHES))
	@$(call boot,bench,$(ARCHES))
	@sh boot/bench/report.sh $(ARCHES)

bench-plot: deps
	@sh boot/bench/plot.sh docs/benchmarks.png

demo: deps
	@$(call guest,$(ARCHES))
	@for a in $(ARCHES); do SHOW_TAP=1 sh boot/run.sh $$a demo || exit 1; done
	@echo '== verdict =='
	@$(verdict) $(call guest_logs,demo)

shell: deps
	@$(call guest,$(SHELL_ARCH))
	@sh boot/run.sh $(SHELL_ARCH) shell

clean:
	rm -rf $(PIDFD_GETFD_CACHE)
