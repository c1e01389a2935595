# SPDX-License-Identifier: GPL-2.0
# Build, boot and test the static markers patchset on Linux 6.12.
#
#   make run     build everything, boot QEMU, run samples/markers/marker-demo.sh
#   make check   all tests and gates; ends with "N passed, N failed, N skipped"
#                (what CI runs)
#   make check-quick  the inner loop: the main kernel, KUnit and every
#                selftest in its guest; no series, gate kernels or arm64
#   make check-arm64  the arm64 part of check alone: cross build, boot in
#                qemu-system-aarch64, sparse/W=1; the same closing line
#   make shell   boot the test guest with an interactive shell
#   make bench   measure markers against tracepoints (QEMU -icount)
#   make stress  hot-site patching, IRQ/softirq/NMI fires and module
#                cycles under load, and the fuzzer, one table
#                (harness/stress); KCONFIG=sanitizers|preempt-none runs
#                it on that kernel
#   make check-cfi  the KUnit suites on a kCFI kernel (clang-16,
#                configs/cfi.config; harness/check-cfi)
#   make check-sanitizers, make check-preempt-none
#                the guest tests on the kernel of configs/sanitizers.config
#                (KASAN, KFENCE, kmemleak, PREEMPT) or
#                configs/preempt-none.config (harness/check-config)
#   make coverage  the markers' line coverage (gcov) under the guest's
#                KUnit suites and selftests, on the main kernel plus
#                configs/coverage.config; ends with "core: N% of M lines"
#                and "face: N% of M lines" (harness/coverage)
#
# Pieces: deps source overlay kernel guest nomarkers nomodules generic
# checkpatch sparse markers-abi, clean (build output, not the compiler
# cache) and distclean (the whole cache). Works from any directory
# (make -C path/to/repo check).
#
# Variables (make VAR=value ...):
#   CACHE         sources, builds, logs and the guest image
#   SMP           guest CPUs
#   MEM           guest memory
#   TIMEOUT       seconds before a running guest counts as hung
#   TEST_TIMEOUT  seconds one selftest may run in the guest
#   JOBS          parallel jobs of the kernel build
#   CCACHE        1: compile through ccache (in CACHE); 0: not
#   APPEND        extra kernel command line
#   QEMU_EXTRA    extra QEMU options (e.g. -icount shift=0)
#   KUNIT_EXPECT  globs each of which must name a KUnit suite that ran
#   KUNIT_EXPECT_GENERIC  the same for the generic path's boot
#   FRAGMENTS     config fragments of the main kernel
#   ARM64_FRAGMENTS  config fragments of the arm64 kernel
#   ARM64_SELFTESTS_EXCLUDE  selftests the arm64 guest does not run
#   SKIP_EXPECT   results make check lets skip ("|" between names)
#   LINUX_SOURCE_VERSION  the linux-source-6.12 version to pin
#   STRESS_CYCLES, STRESS_LOADS, DURATION, STRESS_BURST, FUZZ_WRITES
#                 make stress's counts (cycles of the hot-site probe,
#                 module loads, least seconds of the IRQ sources, fires
#                 per CPU of the accounting burst, fuzzer writes)
#   FUZZ_SEED     make stress's fuzzer seed (default: from the clock)
#   KCONFIG       make stress on another kernel: sanitizers, preempt-none
#   SLOWDOWN      check-sanitizers/check-preempt-none: TIMEOUT and
#                 TEST_TIMEOUT times this (default 8 for sanitizers, 1)

ROOT := $(patsubst %/,%,$(dir $(abspath $(lastword $(MAKEFILE_LIST)))))

CACHE ?= $(HOME)/.cache/linux-markers
SMP ?= 2
MEM ?= 1G
TIMEOUT ?= 1800
TEST_TIMEOUT ?= 600
JOBS ?= $(shell nproc)
CCACHE ?= 1
APPEND ?=
QEMU_EXTRA ?=
KUNIT_EXPECT ?= *marker*
KUNIT_EXPECT_GENERIC ?= marker_format_parse marker_field_fetch marker_registry marker_typed
FRAGMENTS ?= $(ROOT)/configs/base.config $(ROOT)/configs/debug.config
ARM64_FRAGMENTS ?= $(ROOT)/configs/arm64.config $(ROOT)/configs/debug.config
ARM64_SELFTESTS_EXCLUDE ?= markers_bpf.sh markers_stress.sh
SKIP_EXPECT ?= arm64: kunit: marker_sites.marker_site_optprobe_refused|arm64: selftest: markers_tools.sh: markers-abi --json layout equals the format files
LINUX_SOURCE_VERSION ?= 6.12.118-1~deb12u1

H := $(ROOT)/harness

# The other kernels the guest tests run on: their build directory and
# fragments. The sanitizer kernel is the main one plus
# configs/sanitizers.config; the PREEMPT_NONE one has no debug options.
KCONFIG ?=
FRAGMENTS_sanitizers = $(FRAGMENTS) $(ROOT)/configs/sanitizers.config
FRAGMENTS_preempt-none = $(ROOT)/configs/base.config $(ROOT)/configs/preempt-none.config
STRESS_BUILD := $(if $(KCONFIG),build-$(KCONFIG),build)
STRESS_FRAGMENTS = $(if $(KCONFIG),$(FRAGMENTS_$(KCONFIG)),$(FRAGMENTS))

export CACHE SMP MEM TIMEOUT TEST_TIMEOUT JOBS CCACHE APPEND QEMU_EXTRA \
	KUNIT_EXPECT KUNIT_EXPECT_GENERIC LINUX_SOURCE_VERSION FRAGMENTS \
	SERIES_AUTHOR SERIES_DATE ARM64_FRAGMENTS ARM64_SELFTESTS_EXCLUDE SKIP_EXPECT \
	SLOWDOWN

.PHONY: check check-quick check-arm64 run shell bench deps source overlay kernel guest \
	nomarkers nomodules generic checkpatch sparse markers-abi stress series \
	series-check htmldocs clean distclean check-sanitizers check-preempt-none \
	check-cfi coverage

check:
	@$(H)/check

check-quick:
	@CHECK_QUICK=1 $(H)/check

run: guest
	@$(H)/boot run

shell: guest
	@$(H)/boot shell

# The benchmark kernel (no debug options, JUMP_LABEL) and its table.
bench: overlay
	@$(H)/bench

deps:
	@$(H)/install-deps

source: deps
	@$(H)/unpack-source

overlay: source
	@$(H)/overlay

kernel: overlay
	@$(H)/configure build $(FRAGMENTS)
	@$(H)/build-kernel build bzImage modules headers

guest: kernel
	@$(H)/build-test-modules

stress: overlay
	@test -n "$(STRESS_FRAGMENTS)" || { echo "KCONFIG=$(KCONFIG): no such kernel (sanitizers, preempt-none)"; exit 1; }
	@$(H)/configure $(STRESS_BUILD) $(STRESS_FRAGMENTS)
	@$(H)/build-kernel $(STRESS_BUILD) bzImage modules headers
	@$(H)/build-test-modules $(STRESS_BUILD)
	@$(H)/build-selftests $(STRESS_BUILD)
	@$(H)/build-initramfs $(STRESS_BUILD)
	@$(H)/stress $(STRESS_BUILD)

check-sanitizers: overlay
	@$(H)/check-config sanitizers $(FRAGMENTS_sanitizers)

check-preempt-none: overlay
	@$(H)/check-config preempt-none $(FRAGMENTS_preempt-none)

check-cfi: overlay
	@$(H)/check-cfi

# gcov on the markers' objects only, in $(CACHE)/build-coverage; the
# report is $(CACHE)/coverage/report.txt. Not part of make check: it
# builds and boots another kernel.
coverage: overlay
	@$(H)/coverage $(FRAGMENTS) $(ROOT)/configs/coverage.config

nomarkers: overlay
	@$(H)/configure build-nomarkers $(FRAGMENTS) $(ROOT)/configs/nomarkers.config
	@$(H)/build-kernel build-nomarkers vmlinux

# CONFIG_MODULES=n with markers on: builds, our objects clean at W=1.
nomodules: overlay
	@$(H)/configure build-nomodules $(FRAGMENTS) $(ROOT)/configs/nomodules.config
	@$(H)/build-kernel build-nomodules vmlinux
	@$(H)/gate-sparse build-nomodules

# x86 without patchable sites: builds, our objects clean at W=1, and its
# KUnit suites pass in a boot (the results are counted as in make check).
generic: overlay
	@$(H)/configure build-generic $(FRAGMENTS) $(ROOT)/configs/generic.config
	@$(H)/build-kernel build-generic bzImage modules
	@$(H)/gate-sparse build-generic
	@$(H)/build-initramfs build-generic
	@$(H)/boot kunit build-generic
	@KUNIT_EXPECT='$(KUNIT_EXPECT_GENERIC)' $(H)/report-guest \
		$(CACHE)/logs/guest-generic-kunit.log /dev/null | awk -F'\t' \
		'{ n[$$1]++ } $$1 == "fail" { print "FAIL", $$2, $$3 } END { \
		printf "%d passed, %d failed, %d skipped\n", n["pass"], n["fail"], n["skip"]; \
		exit n["fail"] > 0 }'

# The patchset as a numbered git format-patch series with a cover letter,
# in $(OUT) (default $(CACHE)/series); series-check: the gates of make
# check on it (git am onto pristine, each patch builds).
series: overlay
	@$(H)/series files
	@$(H)/series write $(or $(OUT),$(CACHE)/series)

series-check: overlay
	@$(H)/series files
	@$(H)/series write
	@$(H)/gate-checkpatch
	@$(H)/series verify
	@$(H)/series build

checkpatch: overlay
	@$(H)/series write
	@$(H)/gate-checkpatch

# Documentation/trace as HTML, in $(CACHE)/build-docs; fails on a warning
# about our files.
htmldocs: overlay
	@$(H)/gate-htmldocs

sparse: kernel
	@$(H)/gate-sparse

# arm64: the kernel cross-built with patchable sites, booted with the
# KUnit suites and selftests, its sparse/W=1 gate; counted as in make check.
check-arm64: overlay
	@$(H)/check-arm64 | awk -F'\t' \
		'{ n[$$1]++ } $$1 != "pass" { print toupper($$1), $$2, $$3 } END { \
		printf "%d passed, %d failed, %d skipped\n", n["pass"], n["fail"], n["skip"]; \
		exit n["fail"] > 0 }'

# markers-abi (tools/markers): the baselines gate and the tool's tests,
# with a closing count as in make check.
markers-abi: kernel
	@$(H)/build-markers-abi
	@$(H)/gate-marker-baselines
	@$(H)/test-markers-abi | awk -F'\t' \
		'{ n[$$1]++ } $$1 != "pass" { print toupper($$1), $$2, $$3 } END { \
		printf "%d passed, %d failed, %d skipped\n", n["pass"], n["fail"], n["skip"]; \
		exit n["fail"] > 0 }'

clean:
	rm -rf $(CACHE)/build $(CACHE)/build-* $(CACHE)/kconfig-* \
		$(CACHE)/test-modules* $(CACHE)/selftests* $(CACHE)/initramfs* \
		$(CACHE)/markers-abi $(CACHE)/guest-exit $(CACHE)/logs \
		$(CACHE)/results.txt $(CACHE)/coverage

distclean:
	rm -rf $(CACHE)
