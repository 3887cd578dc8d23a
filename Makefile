# PIDFD_IOCTL_GETFD: a kernel patch series, its tests and samples, and the
# harness that builds the kernels and boots them in QEMU. 'make help' lists
# the targets. Everything built lives in $(PIDFD_GETFD_CACHE), not here.

export PIDFD_GETFD_CACHE ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/pidfd-getfd
# The kernel bases: one folder each in boot/base/; boot/base/default links
# to the default one. 'make ... BASE=NAME' on the command line picks
# another; the scripts get it as PIDFD_GETFD_BASE.
ALL_BASES := $(filter-out default,$(patsubst boot/base/%/base.conf,%,$(wildcard boot/base/*/base.conf)))
BASE := $(if $(filter command line,$(origin BASE)),$(BASE),$(notdir $(realpath boot/base/default)))
$(if $(filter $(BASE),$(ALL_BASES)),,$(error unknown BASE '$(BASE)'; known: $(ALL_BASES)))
export PIDFD_GETFD_BASE := $(BASE)
LOGS := $(PIDFD_GETFD_CACHE)/logs/$(BASE)
# The arches: one folder each in boot/arch/. 'make ... ARCH=NAME' on the
# command line picks some; ARCH in the environment is kbuild's (ARCH=x86
# for a kernel build) and is ignored, so it cannot narrow a run unseen.
# Which arch runs which suite is the plan's (boot/plan/logs, read through
# boot/plan/query.sh): by default the arches it has a check log for.
ALL_ARCHES := $(patsubst boot/arch/%/arch.conf,%,$(wildcard boot/arch/*/arch.conf))
ARCH_GIVEN := $(filter command line,$(origin ARCH))
# The plan is expanded from rules (boot/plan/expand.sh: boot/plan/matrix,
# boot/plan/points and skips, boot/checks/points, the records): a
# malformed line of them, or a boot/plan/logs that is not their expansion
# (make docs writes it), stops every target that runs a verdict at once,
# naming it. Targets that judge nothing (deps, the builds, docs) go on: a
# folder added to try an arch or base stops no one's make deps.
PLAN_FREE_GOALS := docs help clean print-check-suites deps tree kernel initramfs shell bench-plot
ifneq ($(or $(filter-out $(PLAN_FREE_GOALS),$(MAKECMDGOALS)),$(if $(MAKECMDGOALS),,none)),)
PLAN_ERRORS := $(shell sh boot/plan/expand.sh -c 2>&1 >/dev/null)
$(if $(PLAN_ERRORS),$(error $(PLAN_ERRORS)))
endif
plan_arches = $(shell sh boot/plan/query.sh arches $(BASE) $(1))
ARCHES := $(if $(ARCH_GIVEN),$(ARCH),$(call plan_arches,check))
HOST_ARCH := $(shell uname -m)
# The guest for host-side checks and 'make shell': the host's arch if it is one.
SHELL_ARCH := $(if $(filter $(HOST_ARCH),$(ARCHES)),$(HOST_ARCH),$(firstword $(ARCHES)))
# The debug kernel: the arches the plan has a debug log for, unless ARCH
# is given (docs/harness.md, "CI", for the time each arch adds).
DEBUG_ARCH := $(if $(ARCH_GIVEN),$(ARCH),$(call plan_arches,debug))
# The oci guest (boot/flavour/oci) packs the host's own crun and runc, so
# only the host's arch has one: the plan's oci arches (docs/harness.md,
# "The oci guest").
OCI_ARCHES := $(filter $(call plan_arches,oci),$(ARCHES))
# The systemd guest (boot/flavour/systemd): the oci image with the host's
# systemd as PID 1, so the host's arch too (docs/harness.md, "The systemd
# guest").
SYSTEMD_ARCHES := $(filter $(call plan_arches,systemd),$(ARCHES))
# make bench on the systemd guest (agent-scale's restart through the fd store)
BENCH_SYSTEMD_ARCHES := $(filter $(call plan_arches,bench-systemd),$(ARCHES))

# guest ARCH...: kernel + initramfs for each arch
guest = sh boot/kernel/tree.sh && for a in $(1); do \
	sh boot/kernel/build.sh $$a && sh boot/image/initramfs.sh $$a || exit 1; done
# boot SUITE ARCH...: run SUITE on each arch
boot = for a in $(2); do sh boot/run.sh $$a $(1) || exit 1; done
# oci: the oci image layer (after 'guest'), and its boot on the arch's kernel
oci = sh boot/kernel/tree.sh && for a in $(OCI_ARCHES); do \
	sh boot/image/oci-layer.sh $$a && \
	sh boot/run.sh -f oci $$a oci || exit 1; done
# systemd: the systemd layer on the oci image, and its boot on the arch's kernel
systemd = sh boot/kernel/tree.sh && for a in $(SYSTEMD_ARCHES); do \
	sh boot/image/oci-layer.sh $$a && sh boot/image/systemd-layer.sh $$a && \
	sh boot/run.sh -f systemd $$a systemd || exit 1; done
verdict = sh boot/verdict.sh
# The logs each verdict expects, by name: a missing one fails it.
guest_logs = $(foreach a,$(ARCHES),$(LOGS)/$(a)-$(1).log)
baseline_logs = $(foreach a,$(ARCHES),$(LOGS)/baseline-$(a).log)
oci_logs = $(foreach a,$(OCI_ARCHES),$(LOGS)/$(a)-oci.log)
systemd_logs = $(foreach a,$(SYSTEMD_ARCHES),$(LOGS)/$(a)-systemd.log)
CHECK_LOGS = $(call guest_logs,check) $(baseline_logs) $(oci_logs) $(systemd_logs) \
	$(LOGS)/lint.log $(LOGS)/docs.log $(LOGS)/harness.log $(LOGS)/agent-host.log
# The suites of make check's logs (ARCH-SUITE.log: SUITE, baseline-ARCH.log:
# baseline, SUITE.log: SUITE), one a line: the ones boot/plan/docs.sh
# counts for make check, so that CHECK_LOGS is their one list.
print-check-suites:
	@for l in $(notdir $(basename $(CHECK_LOGS))); do \
		case $$l in baseline-*) l=baseline ;; esac; \
		for a in $(ALL_ARCHES); do l=$${l#$$a-}; done; \
		echo $$l; done | LC_ALL=C sort -u

.PHONY: help deps tree kernel initramfs check check-guest check-patched \
	check-lint check-docs check-harness check-agent-host check-baseline check-prefixes \
	check-debug check-oci check-systemd check-pristine-image check-mutant \
	bench bench-plot reference-build demo shell clean docs print-check-suites

help:
	@echo 'make demo                  boot every arch and run the samples'
	@echo 'make check                 the five below, one verdict (the CI test)'
	@echo '  make check-guest         the guest suites on every arch and ABI, and the'
	@echo '                           pristine-kernel baseline (make check-baseline)'
	@echo '  make check-lint          the series without booting: git am, quilt,'
	@echo '                           checkpatch, uapi, ioctl number, sparse, -fanalyzer'
	@echo '  make check-docs          man page, userspace-api page, errno lists'
	@echo '  make check-harness       the harness self-test: what must fail does'
	@echo '  make check-agent-host    bind-agent on the host: systemd units, socket'
	@echo '                           activation, json log, metrics (promtool)'
	@echo 'make check-patched         the guest suites on the patched kernels only'
	@echo 'make check-baseline        the pristine kernels (no series): the ioctl'
	@echo '                           suite skips there (part of check-guest, last)'
	@echo 'make check-prefixes        every prefix of the series builds, every arch'
	@echo 'make check-pristine-image  each pristine kernel built with no ccache hit is'
	@echo '                           the one make check boots, byte for byte (weekly)'
	@echo 'make check-debug           KASAN/lockdep/kmemleak/fault-injection kernel:'
	@echo '                           selftests, stress, fail-nth sweeps (x86_64)'
	@echo 'make check-mutant          the ioctl selftest fails, not skips, on a kernel'
	@echo '                           whose handler answers EINVAL to a valid request'
	@echo 'make check-oci             Debian 12'"'"'s crun and runc run OCI containers in'
	@echo '                           a guest (x86_64, the oci image);'
	@echo '                           part of check-guest'
	@echo 'make check-systemd         the oci image with Debian 12'"'"'s systemd as PID 1'
	@echo '                           (x86_64): bind-agent'"'"'s units, the fd store;'
	@echo '                           part of check-guest'
	@echo 'make bench                 the benchmarks on every arch and ABI, tables + CSV'
	@echo '                           (ARCH=arm64 ICOUNT=N: QEMU -icount shift=N, figures'
	@echo '                           that count work; x86_64 refuses -icount)'
	@echo 'make bench-plot            docs/benchmarks.png from the last bench CSV'
	@echo 'make reference-build       time the reference build (a fixed kernel build'
	@echo '                           that docs/measurements.md compares machines by)'
	@echo 'make shell                 an interactive busybox shell in the guest'
	@echo 'make kernel / initramfs    just build them'
	@echo 'make docs                  rewrite what follows from the plan'"'"'s rules:'
	@echo '                           boot/plan/logs, the counts in README.md and docs/,'
	@echo '                           .github/workflows/check.yml'
	@echo 'make deps                  install the missing Debian packages the selected'
	@echo '                           arches and base need (apt-get)'
	@echo 'make clean                 remove the cache ($(PIDFD_GETFD_CACHE))'
	@echo 'On the command line:'
	@echo '  ARCH="NAME..."  the arches, folders of boot/arch/ (default: those the plan'
	@echo '                  has a check log for, "$(call plan_arches,check)";'
	@echo '                  ARCH from the environment is ignored)'
	@echo '  BASE=NAME       the kernel base (default: $(BASE); known: $(ALL_BASES),'
	@echo '                  the folders in boot/base/)'
	@echo '  RERUN=1         boot every guest, even one whose inputs did not change'
	@echo 'Environment: PIDFD_GETFD_CACHE (the cache), ACCEL=kvm|tcg, SHOW_TAP=1,'
	@echo '  JOBS (parallel kernel build jobs); docs/harness.md, "Knobs".'

# only what the selection needs: BASE's packages and the arches' of the run
# (and of its debug kernel)
deps:
	@sh boot/deps.sh $(sort $(ARCHES) $(DEBUG_ARCH))

tree: deps
	@sh boot/kernel/tree.sh

kernel: deps
	@sh boot/kernel/tree.sh && for a in $(ARCHES); do sh boot/kernel/build.sh $$a || exit 1; done

initramfs: deps
	@sh boot/kernel/tree.sh && for a in $(ARCHES); do sh boot/image/initramfs.sh $$a || exit 1; done

# Each step replaces its own log or keeps it (a guest's and a host check's
# while their inputs are the same: docs/harness.md, "Keeping what did not
# change"); the verdict reads the list above, so a step that did not run
# leaves a missing (or old, already judged) log. The pristine baseline
# comes last: its kernels do not depend on the series, whose answer comes
# first.
baseline = for a in $(ARCHES); do sh boot/checks/baseline.sh $$a || exit 1; done
check: deps
	@rm -f $(baseline_logs)
	@$(call guest,$(ARCHES))
	@$(call boot,check,$(ARCHES))
	@$(oci)
	@$(systemd)
	@sh boot/checks/lint.sh $(SHELL_ARCH)
	@sh boot/checks/docs.sh
	@sh boot/checks/harness.sh $(SHELL_ARCH)
	@sh boot/checks/agent-host.sh
	@$(baseline)
	@echo '== verdict =='
	@$(verdict) $(CHECK_LOGS)

check-guest: deps
	@rm -f $(baseline_logs)
	@$(call guest,$(ARCHES))
	@$(call boot,check,$(ARCHES))
	@$(oci)
	@$(systemd)
	@$(baseline)
	@$(verdict) $(call guest_logs,check) $(oci_logs) $(systemd_logs) $(baseline_logs)

# The pristine baseline alone (after the patched guests it compares with)
check-baseline: deps
	@rm -f $(baseline_logs)
	@$(call guest,$(ARCHES))
	@$(call boot,check,$(ARCHES))
	@$(baseline)
	@$(verdict) $(baseline_logs)

# The guest suites on the patched kernels only, no pristine baseline and no
# host checks: what CI runs of the second base (docs/harness.md, "CI").
check-patched: deps
	@$(call guest,$(ARCHES))
	@$(call boot,check,$(ARCHES))
	@$(verdict) $(call guest_logs,check)

# check-lint, check-harness: boot/checks/NAME.sh on the host's guest arch
check-lint check-harness: check-%: deps
	@$(call guest,$(SHELL_ARCH))
	@sh boot/checks/$*.sh $(SHELL_ARCH)
	@$(verdict) $(LOGS)/$*.log

# bind-agent on the host: its systemd units, socket activation, logs,
# metrics and the host kernel's fast paths (no guest)
check-agent-host: deps
	@sh boot/checks/agent-host.sh
	@$(verdict) $(LOGS)/agent-host.log

check-docs: deps
	@sh boot/kernel/tree.sh && sh boot/checks/docs.sh
	@$(verdict) $(LOGS)/docs.log

check-prefixes: deps
	@rm -f $(LOGS)/prefixes.log
	@sh boot/kernel/tree.sh && sh boot/checks/prefixes.sh $(ARCHES)
	@$(verdict) $(LOGS)/prefixes.log

# The pristine kernels from the shared ccache against ones built with none
# (weekly in the workflow, not in .ci/run)
check-pristine-image: deps
	@rm -f $(LOGS)/pristine-image.log
	@sh boot/kernel/tree.sh && sh boot/checks/pristine-image.sh $(ARCHES)
	@$(verdict) $(LOGS)/pristine-image.log

check-debug: deps
	@sh boot/kernel/tree.sh && for a in $(DEBUG_ARCH); do \
		sh boot/kernel/build.sh -f debug $$a && sh boot/image/initramfs.sh $$a || exit 1; done
	@for a in $(DEBUG_ARCH); do sh boot/run.sh -f debug $$a debug || exit 1; done
	@echo '== verdict (debug kernels) =='
	@$(verdict) $(foreach a,$(DEBUG_ARCH),$(LOGS)/$(a)-debug.log)

# The selftest on a kernel whose handler answers EINVAL to a valid request
# must fail, not skip (boot/checks/mutant-einval.sh; not part of check)
check-mutant: deps
	@$(call guest,$(SHELL_ARCH))
	@sh boot/checks/mutant-einval.sh $(SHELL_ARCH)

# The oci guest alone (part of check-guest and check)
check-oci: deps
	@$(call guest,$(OCI_ARCHES))
	@$(oci)
	@echo '== verdict (oci guests) =='
	@$(verdict) $(oci_logs)

# The systemd guest alone (part of check-guest and check)
check-systemd: deps
	@$(call guest,$(SYSTEMD_ARCHES))
	@$(systemd)
	@echo '== verdict (systemd guests) =='
	@$(verdict) $(systemd_logs)

# (ICOUNT: the arches' bench-icount guests alone)
bench_logs = $(call guest_logs,bench$(if $(ICOUNT),-icount)) \
	$(if $(ICOUNT),,$(foreach a,$(BENCH_SYSTEMD_ARCHES),$(LOGS)/$(a)-bench-systemd.log))
bench: deps
	@$(call guest,$(ARCHES))
	@for a in $(ARCHES); do RERUN=1 sh boot/run.sh $$a bench$(if $(ICOUNT),-icount) || exit 1; done
	@$(if $(ICOUNT),:,for a in $(BENCH_SYSTEMD_ARCHES); do \
		sh boot/image/oci-layer.sh $$a && sh boot/image/systemd-layer.sh $$a && \
		RERUN=1 sh boot/run.sh -f systemd $$a bench-systemd || exit 1; done)
	@sh boot/bench/report.sh $(bench_logs)

bench-plot: deps
	@sh boot/bench/plot.sh docs/benchmarks.png

reference-build: deps
	@sh boot/bench/reference-build.sh

demo: deps
	@$(call guest,$(ARCHES))
	@for a in $(ARCHES); do RERUN=1 SHOW_TAP=1 sh boot/run.sh $$a demo || exit 1; done
	@export RERUN=1 SHOW_TAP=1; $(oci)
	@echo '== verdict =='
	@$(verdict) $(call guest_logs,demo) $(oci_logs)

shell: deps
	@$(call guest,$(SHELL_ARCH))
	@sh boot/run.sh $(SHELL_ARCH) shell

# What follows from the plan's rules (boot/plan/docs.sh): boot/plan/logs,
# the blocks in README.md and docs/harness.md, .github/workflows/check.yml;
# make check fails while the committed files differ.
docs:
	@sh boot/plan/docs.sh -w

clean:
	rm -rf $(PIDFD_GETFD_CACHE)
