# SPDX-License-Identifier: ISC
# leash: GNU make.  ./configure writes config.mk; an unconfigured tree is
# configured with defaults on the first make.
#
#   make                 build/leash (+ build/timeout, build/su links, build/probe)
#   make check           deps, build with -Werror, bats suite, man page lint
#   make check SANITIZE=1  the same suite against an ASan+UBSan dynamic build
#   make demo | bench | check-vm | install | uninstall | clean | distclean
#   make ARCH=aarch64|armhf|i686|x86_64  a static build in build-ARCH/
#   make check-cross | dist | release   (see "cross builds" below)
#   make fuzz FUZZ_SECONDS=N  each libFuzzer harness (tests/fuzz) N seconds
#   V=1 shows full command lines; WERROR=1|0 makes warnings errors or not
#   (configure's default: 1 unless CFLAGS was given; check always uses 1);
#   DEPS=0 skips build-aux/deps.sh in check, demo, bench and check-vm.

.DELETE_ON_ERROR:
.SUFFIXES:
.DEFAULT_GOAL := all

NOCONFIG_GOALS := clean distclean help dist distcheck release check-cross
# ARCH=... on the command line (not from the environment, where kernel
# builds leave it) builds in build-ARCH with build-ARCH/config.mk.
ifeq ($(origin ARCH),environment)
ARCH :=
endif
ifneq ($(filter-out aarch64 armhf i686 x86_64,$(ARCH)),)
$(error ARCH=$(ARCH): aarch64, armhf, i686 or x86_64)
endif
CONFIG_MK := $(if $(ARCH),build-$(ARCH)/)config.mk
ifneq ($(filter-out $(NOCONFIG_GOALS),$(or $(MAKECMDGOALS),all)),)
include $(CONFIG_MK)
endif
srcdir ?= .

comma := ,

# Goals that set up the machine (build-aux/deps.sh) before configuring.
DEPS ?= 1
DEPS_PROFILE := $(strip $(if $(filter check,$(MAKECMDGOALS)),check) \
	$(if $(filter check-vm,$(MAKECMDGOALS)),check vm) \
	$(if $(filter bench,$(MAKECMDGOALS)),check) \
	$(if $(filter demo,$(MAKECMDGOALS)),demo))
DEPS_CMD = $(if $(filter 1,$(DEPS)),$(srcdir)/build-aux/deps.sh $(or $(1),build))

# A config.mk older than configure is made again with the arguments it
# was made with (a pull that changes configure changes the flags).
RECONFIGURE = args=$$(sed -n 's/^CONFIGURE_ARGS = //p' $@ 2>/dev/null); \
	[ -n "$$args" ] && echo "leash: $@ is older than configure: $$args" && \
	eval "$$args"

# include, not -include: when configure fails, make stops with its message
# instead of compiling with a bare cc.
config.mk: $(srcdir)/configure
	@$(if $(DEPS_PROFILE),$(call DEPS_CMD,$(DEPS_PROFILE)))
	@$(RECONFIGURE) || { \
		echo "leash: tree not configured: running ./configure with defaults"; \
		$(srcdir)/configure; } || { echo "leash: ./configure failed (above); fix that, or run ./configure with options" >&2; exit 1; }

ifeq ($(V),1)
Q :=
else
Q := @
endif

# PREFIX is the spelling many users type.
ifdef PREFIX
prefix = $(PREFIX)
endif

# SANITIZE=1: a dynamic ASan+UBSan build of the same sources in build-san/.
# GLIBC=1: the same without the sanitizers in build-glibc/: libleash.a
# for glibc hosts (the GLib host test, make check when GLib is there),
# and make bench's glibc host (build-glibc/bench: the bench against it).
ifeq ($(SANITIZE),1)
B := build-san
else ifeq ($(GLIBC),1)
B := build-glibc
else
B := $(if $(ARCH),build-$(ARCH),build)
endif
KINC_DIR := $(if $(KINC_LINUX),$(B)/kinc)
ifneq ($(filter 1,$(SANITIZE) $(GLIBC)),)
SAN_CC ?= gcc
SAN_FLAGS := $(if $(filter 1,$(SANITIZE)),-fsanitize=address$(comma)undefined \
	-fno-sanitize-recover=all -fno-omit-frame-pointer -g)
BUILD_CC := $(SAN_CC)
BUILD_CPPFLAGS := $(CPPFLAGS_AUTO:-D_FORTIFY_SOURCE%=) -U_FORTIFY_SOURCE
BUILD_LDFLAGS := $(filter-out -static,$(LDFLAGS_AUTO)) -pthread
BUILD_LIBCAP_CFLAGS := $(if $(filter dir,$(LIBCAP)),$(LIBCAP_CFLAGS))
BUILD_LIBCAP_LIBS := $(if $(filter dir,$(LIBCAP)),$(filter -L% -Wl%,$(LIBCAP_LIBS))) -lcap
KINC :=
BUILD_SIZE :=
else
SAN_FLAGS :=
BUILD_SIZE := $(CFLAGS_SIZE)
BUILD_CC := $(CC)
BUILD_CPPFLAGS := $(CPPFLAGS_AUTO)
BUILD_LDFLAGS := $(LDFLAGS_AUTO) $(LDFLAGS_SIZE)
BUILD_LIBCAP_CFLAGS := $(LIBCAP_CFLAGS)
BUILD_LIBCAP_LIBS := $(LIBCAP_LIBS)
KINC := $(KINC_DIR)
endif

WERROR ?= 0
ALL_CPPFLAGS = -I$(srcdir)/lib -I$(srcdir)/cmd $(BUILD_CPPFLAGS) \
	$(if $(KINC),-isystem $(KINC)) $(CPPFLAGS)
ALL_CFLAGS = $(CFLAGS_AUTO) $(BUILD_SIZE) $(CFLAGS_WARN) \
	$(if $(filter 1,$(WERROR)),$(CFLAGS_WERROR)) $(SAN_FLAGS) $(CFLAGS)
ALL_LDFLAGS = $(BUILD_LDFLAGS) $(SAN_FLAGS) $(LDFLAGS)

# Sources by wildcard: nobody needs to edit this file to add one.
SRCS := $(sort $(wildcard $(srcdir)/cmd/*.c $(srcdir)/lib/*/*.c))
OBJS := $(patsubst $(srcdir)/%.c,$(B)/obj/%.o,$(SRCS))
HELPER_SRCS := $(sort $(wildcard $(srcdir)/tests/*.c))
HELPERS := $(patsubst $(srcdir)/tests/%.c,$(B)/%,$(HELPER_SRCS))
BENCH_SRCS := $(sort $(wildcard $(srcdir)/tests/bench/*.c))
BENCH_OBJS := $(patsubst $(srcdir)/%.c,$(B)/obj/%.o,$(BENCH_SRCS))
LINKS := $(B)/timeout $(B)/su
HOST_SRCS := $(sort $(wildcard $(srcdir)/tests/host/*.c))
HOST_TESTS := $(patsubst $(srcdir)/tests/host/%.c,$(B)/host/%,$(HOST_SRCS))
INSIDE_SRCS := $(sort $(wildcard $(srcdir)/tests/host/inside/*.c))
INSIDE_TESTS := $(patsubst $(srcdir)/tests/host/inside/%.c,$(B)/host/inside-%,$(INSIDE_SRCS))
LIBCAP_A := $(if $(filter 1,$(SANITIZE) $(GLIBC)),,$(if $(filter build,$(LIBCAP)),$(B)/libcap/lib/libcap.a))

.PHONY: all check demo bench check-vm install install-lib install-strip uninstall \
	clean distclean help deps FORCE
# libleash and its host tests in every build: a cross build's archive
# and hosts run under qemu-user in check-cross (tests/library.bats).
all: $(B)/leash $(LINKS) $(HELPERS) $(B)/libleash.a $(HOST_TESTS) $(INSIDE_TESTS) $(B)/leash.pc

# Rebuild when the flags change (WERROR=1, CFLAGS=..., a new configure).
# Programs are linked to a temporary name and renamed, so a test running
# at the same time never sees a half-written binary.
FLAGS_NOW = $(BUILD_CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) | $(ALL_LDFLAGS) $(BUILD_LIBCAP_LIBS) $(LIBS) | $(CC) $(HELPER_LDFLAGS)
$(B)/.flags: FORCE
	@mkdir -p $(B)
	@printf '%s\n' '$(subst ','\'',$(FLAGS_NOW))' | cmp -s - $@ || \
		printf '%s\n' '$(subst ','\'',$(FLAGS_NOW))' >$@

$(B)/leash: $(OBJS) $(LIBCAP_A) $(B)/.flags
	@echo "  LD      $@"
	$(Q)$(BUILD_CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@.tmp $(OBJS) $(BUILD_LIBCAP_LIBS) $(LIBS) $(LINK_TRACE)
	$(Q)$(LINK_CHECK)
	$(Q)mv -f $@.tmp $@

$(LINKS): | $(B)/leash
	$(Q)ln -sfn leash $@

$(B)/obj/%.o: $(srcdir)/%.c $(B)/.flags | $(KINC) $(LIBCAP_A)
	@mkdir -p $(@D)
	@echo "  CC      $<"
	$(Q)$(BUILD_CC) $(ALL_CPPFLAGS) $(BUILD_LIBCAP_CFLAGS) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

# Test helpers (tests/probe.c, ...): the configured toolchain in every
# mode (static musl by default, since check-vm copies them into a guest),
# no libcap and no sanitizer: under SANITIZE=1 the probe still reports
# what the command sees, measured by the same instrument.
HELPER_CPPFLAGS = -I$(srcdir)/lib -I$(srcdir)/cmd $(CPPFLAGS_AUTO) \
	$(if $(KINC_DIR),-isystem $(KINC_DIR)) $(CPPFLAGS)
HELPER_CFLAGS = $(CFLAGS_AUTO) $(CFLAGS_SIZE) $(CFLAGS_WARN) \
	$(if $(filter 1,$(WERROR)),$(CFLAGS_WERROR)) $(CFLAGS)
HELPER_LDFLAGS = $(LDFLAGS_AUTO) $(LDFLAGS_SIZE) $(LDFLAGS)
$(B)/%: $(srcdir)/tests/%.c $(B)/.flags | $(KINC_DIR)
	@mkdir -p $(B)/obj
	@echo "  CC      $<"
	$(Q)$(CC) $(HELPER_CPPFLAGS) $(HELPER_CFLAGS) -MMD -MP -MF $(B)/obj/$*.d -MT $@ $(HELPER_LDFLAGS) -o $@.tmp $< $(LIBS)
	$(Q)mv -f $@.tmp $@

# ---- libleash (lib/leash.h, leash(3)): the library a host links ----
# The same sources as leash, compiled again without the static binary's
# size tricks (no LTO, no LEASH_SMALL_LIBC: the host's own printf and
# qsort serve it; not lib/sys/arena.c: the host's malloc does), PIC so
# a PIE host can link it.  One relocatable object in the archive, its
# libcap linked in, every symbol but the leash_* of leash.h made local:
# a host's own diag() or cap_init() never meets one of ours.
libdir ?= $(exec_prefix)/lib
includedir ?= $(prefix)/include
LEASH_VERSION := $(shell sed -n 's/^\#define LEASH_VERSION "\(.*\)"/\1/p' $(srcdir)/cmd/cmd.h)
OBJCOPY ?= $(patsubst %strip,%objcopy,$(STRIP))
LIBLEASH_SRCS := $(filter-out $(srcdir)/lib/sys/arena.c $(srcdir)/lib/watch/%.c, \
	$(sort $(wildcard $(srcdir)/lib/*/*.c)))
LIBLEASH_OBJS := $(patsubst $(srcdir)/%.c,$(B)/libobj/%.o,$(LIBLEASH_SRCS))
LIBLEASH_CAP = $(or $(LIBCAP_A),$(shell $(BUILD_CC) -print-file-name=libcap.a))
LIBLEASH_CFLAGS = $(CFLAGS_AUTO) -fPIC $(CFLAGS_WARN) \
	$(if $(filter 1,$(WERROR)),$(CFLAGS_WERROR)) $(SAN_FLAGS) $(CFLAGS)
lparen := (
LIBLEASH_SYMS = $(shell sed -n 's/^[a-z].*[ *]\(leash_[a-z_]*\)[$(lparen)].*/\1/p' $(srcdir)/lib/leash.h)

$(B)/libobj/%.o: $(srcdir)/%.c $(B)/.flags | $(KINC) $(LIBCAP_A)
	@mkdir -p $(@D)
	@echo "  CC      $< (libleash)"
	$(Q)$(BUILD_CC) $(ALL_CPPFLAGS) $(BUILD_LIBCAP_CFLAGS) $(LIBLEASH_CFLAGS) -MMD -MP -c -o $@ $<

$(B)/libleash.syms: $(srcdir)/lib/leash.h
	$(Q)printf '%s\n' $(LIBLEASH_SYMS) >$@.tmp && mv -f $@.tmp $@

$(B)/libleash.a: $(LIBLEASH_OBJS) $(B)/libleash.syms
	@echo "  AR      $@"
	$(Q)rm -f $@.all.a $@.tmp && $(AR) rcs $@.all.a $(LIBLEASH_OBJS)
	$(Q)$(BUILD_CC) -nostdlib -r -o $@.o $(addprefix -Wl$(comma)-u$(comma),$(LIBLEASH_SYMS)) \
		$@.all.a $(LIBLEASH_CAP)
	$(Q)$(OBJCOPY) --keep-global-symbols=$(B)/libleash.syms $@.o
	$(Q)$(AR) rcs $@.tmp $@.o && rm -f $@.o $@.all.a && mv -f $@.tmp $@

# leash.pc for pkg-config: no Requires (libcap is inside the archive).
# Made again when prefix, libdir or includedir change (FORCE, then cmp).
$(B)/leash.pc: FORCE
	@mkdir -p $(B)
	$(Q)printf '%s\n' 'prefix=$(prefix)' 'exec_prefix=$(exec_prefix)' \
		'libdir=$(libdir)' 'includedir=$(includedir)' '' \
		'Name: leash' 'Description: run a command as another uid, in its cgroup leaf, with a deadline (libleash)' \
		'Version: $(LEASH_VERSION)' 'Cflags: -I$${includedir}' \
		'Libs: -L$${libdir} -lleash' 'Libs.private: -pthread' >$@.tmp && \
		{ cmp -s $@.tmp $@ && rm -f $@.tmp || mv -f $@.tmp $@; }

# Host tests (tests/host/*.c): C programs that link libleash.a as a host
# would, with the configured toolchain; tests/library.bats drives them.
HOST_LDFLAGS = $(if $(filter 1,$(SANITIZE) $(GLIBC)),$(BUILD_LDFLAGS) $(SAN_FLAGS),$(HELPER_LDFLAGS))
$(B)/host/%: $(srcdir)/tests/host/%.c $(B)/libleash.a $(srcdir)/lib/leash.h
	@mkdir -p $(@D)
	@echo "  CC      $< (host)"
	$(Q)$(BUILD_CC) -I$(srcdir)/lib $(CPPFLAGS_AUTO) $(LIBLEASH_CFLAGS) $(HOST_LDFLAGS) \
		-o $@.tmp $< $(B)/libleash.a -pthread $(LIBS)
	$(Q)mv -f $@.tmp $@

# White-box hosts (tests/host/inside/*.c): lib/'s objects as the archive
# has them, but with their internal names, to see what a host cannot (a
# failed step's message).
$(B)/host/inside-%: $(srcdir)/tests/host/inside/%.c $(LIBLEASH_OBJS)
	@mkdir -p $(@D)
	@echo "  CC      $< (white-box host)"
	$(Q)$(BUILD_CC) -I$(srcdir)/lib $(ALL_CPPFLAGS) $(LIBLEASH_CFLAGS) $(HOST_LDFLAGS) \
		-o $@.tmp $< $(LIBLEASH_OBJS) $(LIBLEASH_CAP) -pthread $(LIBS)
	$(Q)mv -f $@.tmp $@

# The GLib host (tests/host-glib/): GLib's child watches beside libleash's
# runs in one GMainContext; glibc only (GLIBC=1), where GLib is installed.
# make check builds it in build-glibc/ when pkg-config knows glib-2.0.
GLIB_FLAGS = $(shell pkg-config --cflags --libs glib-2.0 2>/dev/null)
.PHONY: glibc-host
glibc-host: $(B)/host/host-glib $(B)/host/glib-run $(HOST_TESTS)
# examples/glib-run.c, leash(3)'s example, built as a GLib program would.
$(B)/host/glib-run: $(srcdir)/examples/glib-run.c $(B)/libleash.a $(srcdir)/lib/leash.h
	@mkdir -p $(@D)
	@echo "  CC      $< (example)"
	$(Q)$(BUILD_CC) -I$(srcdir)/lib $(CPPFLAGS_AUTO) $(LIBLEASH_CFLAGS) $(HOST_LDFLAGS) \
		-o $@.tmp $< $(B)/libleash.a $(GLIB_FLAGS) -pthread $(LIBS)
	$(Q)mv -f $@.tmp $@
$(B)/host/host-glib: $(srcdir)/tests/host-glib/host-glib.c $(B)/libleash.a $(srcdir)/lib/leash.h
	@mkdir -p $(@D)
	@echo "  CC      $< (GLib host)"
	$(Q)$(BUILD_CC) -I$(srcdir)/lib $(CPPFLAGS_AUTO) $(LIBLEASH_CFLAGS) $(HOST_LDFLAGS) \
		-o $@.tmp $< $(B)/libleash.a $(GLIB_FLAGS) -pthread $(LIBS)
	$(Q)mv -f $@.tmp $@

-include $(LIBLEASH_OBJS:.o=.d)

$(B)/bench: $(BENCH_OBJS) $(B)/libleash.a $(B)/.flags
	@echo "  LD      $@"
	$(Q)$(BUILD_CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@.tmp $(BENCH_OBJS) $(B)/libleash.a -pthread $(LIBS)
	$(Q)mv -f $@.tmp $@

# musl-gcc has no kernel headers: links to the system's uapi copies.
$(B)/kinc:
	@mkdir -p $@.tmp
	$(Q)ln -sfn $(KINC_LINUX) $@.tmp/linux
	$(Q)ln -sfn $(KINC_ASM) $@.tmp/asm
	$(Q)ln -sfn $(KINC_GENERIC) $@.tmp/asm-generic
	$(Q)rm -rf $@ && mv $@.tmp $@

# Debian's libcap2 source built for musl; kept by clean, removed by distclean.
$(B)/libcap/lib/libcap.a: $(srcdir)/build-aux/libcap.sh
	$(Q)MUSL_CC='$(CC)' AR='$(AR)' RANLIB='$(RANLIB)' $(srcdir)/build-aux/libcap.sh $(B)/libcap
	@touch $@

-include $(OBJS:.o=.d) $(BENCH_OBJS:.o=.d) $(patsubst $(B)/%,$(B)/obj/%.d,$(HELPERS))

# ---- tests and demos ----

deps:
	$(Q)$(srcdir)/build-aux/deps.sh $(or $(PROFILE),check)

TEST_ENV = LEASH=$(abspath $(B)/leash) TIMEOUT=$(abspath $(B)/timeout) \
	SU=$(abspath $(B)/su) PROBE=$(abspath $(B)/probe) \
	LEASH_BUILDDIR=$(abspath $(B)) LEASH_SRCDIR=$(abspath $(srcdir))

check:
	$(Q)$(call DEPS_CMD,check)
	$(Q)$(MAKE) --no-print-directory WERROR=1 all
	$(Q)if pkg-config --exists glib-2.0 2>/dev/null; then \
		$(MAKE) --no-print-directory GLIBC=1 WERROR=1 glibc-host; fi
	$(Q)$(TEST_ENV) $(srcdir)/build-aux/check.sh

demo:
	$(Q)$(call DEPS_CMD,demo)
	$(Q)$(MAKE) --no-print-directory all
	$(Q)$(TEST_ENV) $(srcdir)/build-aux/demo.sh

# The library section's glibc host: the bench built again against glibc
# and build-glibc/libleash.a (GLIBC=1); BENCH_GLIBC=PATH|no overrides,
# and where it cannot be built its rows say why (BENCH_GLIBC_WHY).
BENCH_GLIBC_SH = glibc=$${BENCH_GLIBC-}; why=; \
	if [ -n "$$glibc" ]; then :; \
	elif [ -n "$(ARCH)" ]; then glibc=no why="a cross build (ARCH=$(ARCH))"; \
	elif ! command -v $(or $(SAN_CC),gcc) >/dev/null 2>&1; then \
		glibc=no why="no $(or $(SAN_CC),gcc), the glibc toolchain"; \
	elif $(MAKE) --no-print-directory GLIBC=1 build-glibc/bench; then \
		glibc=$(abspath build-glibc/bench); \
	else glibc=no why="make GLIBC=1 build-glibc/bench failed (above)"; fi
bench:
	$(Q)$(call DEPS_CMD,check)
	$(Q)$(MAKE) --no-print-directory all $(if $(BENCH_SRCS),$(B)/bench)
	$(Q)$(BENCH_GLIBC_SH); \
	if [ -x $(srcdir)/build-aux/bench.sh ]; then \
		$(TEST_ENV) BENCH=$(abspath $(B)/bench) BENCH_GLIBC="$$glibc" \
		BENCH_GLIBC_WHY="$$why" $(srcdir)/build-aux/bench.sh; \
	else echo "leash: no build-aux/bench.sh yet: nothing to measure"; fi

check-vm:
	$(Q)$(call DEPS_CMD,vm)
	$(Q)$(MAKE) --no-print-directory WERROR=1 all $(if $(BENCH_SRCS),$(B)/bench)
	$(Q)if [ -x $(srcdir)/build-aux/check-vm.sh ]; then \
		$(TEST_ENV) $(srcdir)/build-aux/check-vm.sh; \
	else echo "leash: no build-aux/check-vm.sh: nothing to run in a VM" >&2; exit 1; fi

# ---- cross builds, check-cross, dist, release ----
# make ARCH=aarch64 (armhf, i686, x86_64): a static build in build-ARCH/,
# configured on first use: build-aux/deps.sh ARCH installs the cross gcc
# and the target's kernel headers (host packages), configure unpacks the
# target's musl into build-ARCH/musl (build-aux/cross.sh says why).
.PHONY: check-cross dist distcheck release
build-%/config.mk: $(srcdir)/configure
	$(Q)$(if $(filter 1,$(DEPS)),$(srcdir)/build-aux/deps.sh $*)
	$(Q)$(RECONFIGURE) || { eval "$$($(srcdir)/build-aux/cross.sh info $*)" && \
		$(srcdir)/configure --host=$$triple --static --config-mk=$@; }

# A cross link lists its inputs (ld --trace) and every one of them must
# be ELF for the target: a host libcap.a or crt1.o fails the build.
LINK_TRACE = $(if $(ELF_MACHINE),-Xlinker --trace >$@.inputs)
LINK_CHECK = $(if $(ELF_MACHINE),READELF='$(READELF)' $(srcdir)/build-aux/cross.sh \
	elf '$(ELF_MACHINE)' $@.inputs $@.tmp,:)

# The bats files qemu-user can run (not the cgroup ones: under qemu those
# test the host's kernel, which make check does), once per target, with
# the waiter strategies in CROSS_WAITS; library.bats, the target's
# libleash.a and its host programs, each started by the emulator; and
# cross.bats, the build's own guards, once the target's toolchain is there.
CROSS_ARCHS ?= aarch64 armhf
CROSS_FILES ?= tests/timeout.bats tests/supervise.bats tests/prexec.bats \
	tests/su.bats tests/ident.bats tests/env.bats tests/passwd.bats \
	tests/hints.bats tests/arena.bats tests/cgroup-mountinfo.bats tests/sigsys.bats \
	tests/library.bats tests/cross.bats
CROSS_WAITS ?= thread
# One file at a time: qemu-user emulates every instruction, and the
# timing tests were measured that way (make check runs four at once).
CROSS_JOBS ?= 1
check-cross:
	$(Q)$(call DEPS_CMD,check)
	$(Q)st=0; for a in $(CROSS_ARCHS); do \
		$(MAKE) --no-print-directory ARCH=$$a WERROR=1 all && \
		LEASH_CHECK_FILES='$(CROSS_FILES)' LEASH_CHECK_WAITS='$(CROSS_WAITS)' \
		LEASH_CHECK_JOBS='$(CROSS_JOBS)' \
		$(srcdir)/build-aux/check-cross.sh $$a build-$$a || st=1; \
	done; exit $$st

# Source tarball (build/release/leash-VERSION.tar.gz) of the tracked
# files, reproducible; distcheck builds it with ./configure && make.
dist distcheck:
	$(Q)$(srcdir)/build-aux/dist.sh $(if $(filter distcheck,$@),--check) build/release

# Stripped static binaries, their sha256 and --version (through qemu for
# the other architectures) in build/release/, beside make dist's tarball,
# which must build with ./configure && make (as make distcheck).
RELEASE_ARCHS ?= x86_64 aarch64 armhf
release:
	$(Q)for a in $(RELEASE_ARCHS); do \
		$(MAKE) --no-print-directory ARCH=$$a build-$$a/leash || exit 1; done
	$(Q)$(srcdir)/build-aux/dist.sh --check build/release
	$(Q)$(srcdir)/build-aux/release.sh build/release $(RELEASE_ARCHS)

# ---- install: atomic (temporary name, then rename), no chown ----

INSTALL ?= install
LEASH_LIBEXEC = $(libexecdir)/leash
datadir ?= $(datarootdir)
COMPLETIONS = $(datadir)/bash-completion/completions
# The compat links point at bindir/leash by a path relative to their own
# directory (../../bin/leash), so they survive DESTDIR staging.
REL_LEASH_SH = from=$$(printf %s '$(LEASH_LIBEXEC)' | sed 's|//*|/|g; s|/$$||'); \
	to=$$(printf %s '$(bindir)/leash' | sed 's|//*|/|g'); up=; \
	case $$from:$$to in /*:/*) \
	while case $$to/ in "$$from"/*) false;; *) true;; esac; do \
		from=$${from%/*}; up=../$$up; done; to=$$up$${to\#$$from/};; esac

# bash-completion loads a completion by the command's name: the links
# timeout and su beside the completion file find it on their first use;
# where timeout or su is not leash, it loads the system's file instead.
install: all
	$(Q)$(INSTALL) -d $(DESTDIR)$(bindir) $(DESTDIR)$(mandir)/man1 $(DESTDIR)$(LEASH_LIBEXEC) \
		$(DESTDIR)$(COMPLETIONS)
	$(Q)$(INSTALL) -m 0755 $(INSTALL_STRIP) $(B)/leash $(DESTDIR)$(bindir)/.leash.new
	$(Q)mv -f $(DESTDIR)$(bindir)/.leash.new $(DESTDIR)$(bindir)/leash
	$(Q)$(INSTALL) -m 0644 $(srcdir)/man/leash.1 $(DESTDIR)$(mandir)/man1/.leash.1.new
	$(Q)mv -f $(DESTDIR)$(mandir)/man1/.leash.1.new $(DESTDIR)$(mandir)/man1/leash.1
	$(Q)$(INSTALL) -m 0644 $(srcdir)/bash-completion/leash $(DESTDIR)$(COMPLETIONS)/.leash.new
	$(Q)mv -f $(DESTDIR)$(COMPLETIONS)/.leash.new $(DESTDIR)$(COMPLETIONS)/leash
	$(Q)for n in timeout su; do \
		ln -sfn leash $(DESTDIR)$(COMPLETIONS)/.$$n.new && \
		mv -f $(DESTDIR)$(COMPLETIONS)/.$$n.new $(DESTDIR)$(COMPLETIONS)/$$n || exit 1; \
	done
	$(Q)$(REL_LEASH_SH); for n in timeout su; do \
		ln -sfn "$$to" $(DESTDIR)$(LEASH_LIBEXEC)/.$$n.new && \
		mv -f $(DESTDIR)$(LEASH_LIBEXEC)/.$$n.new $(DESTDIR)$(LEASH_LIBEXEC)/$$n || exit 1; \
	done
	@echo "leash: installed $(DESTDIR)$(bindir)/leash, $(DESTDIR)$(mandir)/man1/leash.1, $(DESTDIR)$(LEASH_LIBEXEC)/{timeout,su}, $(DESTDIR)$(COMPLETIONS)/{leash,timeout,su}"
	$(Q)$(MAKE) --no-print-directory install-lib

# libleash: the header, the archive, its pkg-config file and leash(3),
# with a link leash_spawn.3 (the name a reader looks up) to it.
install-lib: $(B)/libleash.a $(B)/leash.pc
	$(Q)$(INSTALL) -d $(DESTDIR)$(includedir) $(DESTDIR)$(libdir)/pkgconfig \
		$(DESTDIR)$(mandir)/man3
	$(Q)$(INSTALL) -m 0644 $(srcdir)/lib/leash.h $(DESTDIR)$(includedir)/.leash.h.new
	$(Q)mv -f $(DESTDIR)$(includedir)/.leash.h.new $(DESTDIR)$(includedir)/leash.h
	$(Q)$(INSTALL) -m 0644 $(B)/libleash.a $(DESTDIR)$(libdir)/.libleash.a.new
	$(Q)mv -f $(DESTDIR)$(libdir)/.libleash.a.new $(DESTDIR)$(libdir)/libleash.a
	$(Q)$(INSTALL) -m 0644 $(B)/leash.pc $(DESTDIR)$(libdir)/pkgconfig/.leash.pc.new
	$(Q)mv -f $(DESTDIR)$(libdir)/pkgconfig/.leash.pc.new $(DESTDIR)$(libdir)/pkgconfig/leash.pc
	$(Q)$(INSTALL) -m 0644 $(srcdir)/man/leash.3 $(DESTDIR)$(mandir)/man3/.leash.3.new
	$(Q)mv -f $(DESTDIR)$(mandir)/man3/.leash.3.new $(DESTDIR)$(mandir)/man3/leash.3
	$(Q)ln -sfn leash.3 $(DESTDIR)$(mandir)/man3/.leash_spawn.3.new && \
		mv -f $(DESTDIR)$(mandir)/man3/.leash_spawn.3.new $(DESTDIR)$(mandir)/man3/leash_spawn.3
	@echo "leash: installed $(DESTDIR)$(includedir)/leash.h, $(DESTDIR)$(libdir)/libleash.a, $(DESTDIR)$(libdir)/pkgconfig/leash.pc, $(DESTDIR)$(mandir)/man3/leash.3"

install-strip:
	$(Q)$(MAKE) --no-print-directory INSTALL_STRIP=-s install

uninstall:
	$(Q)rm -f $(DESTDIR)$(bindir)/leash $(DESTDIR)$(mandir)/man1/leash.1 \
		$(DESTDIR)$(LEASH_LIBEXEC)/timeout $(DESTDIR)$(LEASH_LIBEXEC)/su \
		$(DESTDIR)$(COMPLETIONS)/leash
	$(Q)for n in timeout su; do \
		[ "$$(readlink $(DESTDIR)$(COMPLETIONS)/$$n 2>/dev/null)" != leash ] || \
			rm -f $(DESTDIR)$(COMPLETIONS)/$$n; done
	$(Q)rmdir $(DESTDIR)$(LEASH_LIBEXEC) 2>/dev/null || true
	$(Q)rm -f $(DESTDIR)$(includedir)/leash.h $(DESTDIR)$(libdir)/libleash.a \
		$(DESTDIR)$(libdir)/pkgconfig/leash.pc $(DESTDIR)$(mandir)/man3/leash.3 \
		$(DESTDIR)$(mandir)/man3/leash_spawn.3

# clean keeps what was downloaded: the libcap built from Debian's source
# (build/libcap), GNU timeout built from Debian's coreutils source for the
# fuzz replay (build/coreutils), the bench's qemu-user (build/qemu) and
# check-vm's kernel and packages (build/vm-cache); in
# a cross build directory also the target's musl and qemu, and its
# config.mk (as the tree's own config.mk stays).
KEEP_ON_CLEAN := libcap vm-cache coreutils qemu
CROSS_KEEP_ON_CLEAN := libcap musl qemu config.mk
# (named one by one: build-aux is no build directory)
CROSS_DIRS := $(addprefix build-,aarch64 armhf i686 x86_64)
clean:
	$(Q)if [ -d build ]; then find build -mindepth 1 -maxdepth 1 \
		$(foreach k,$(KEEP_ON_CLEAN),! -name $(k)) -exec rm -rf {} +; fi
	$(Q)rm -rf build-san build-glibc
	$(Q)for d in $(CROSS_DIRS); do [ -d "$$d" ] || continue; \
		find "$$d" -mindepth 1 -maxdepth 1 \
			$(foreach k,$(CROSS_KEEP_ON_CLEAN),! -name $(k)) -exec rm -rf {} +; done

# distclean leaves the tree `git archive` gives.
distclean: clean
	$(Q)rm -rf build config.mk config.mk.tmp bench-*.json $(CROSS_DIRS)
	$(Q)if [ -L Makefile ]; then rm -f Makefile; fi	# configure's link out of tree

help:
	@sed -n '/SPDX-License-Identifier/d; /^$$/q; s/^# \{0,1\}//p' $(firstword $(MAKEFILE_LIST))

# ---- fuzzing: libFuzzer harnesses in tests/fuzz (issue 12) ----
# clang with the glibc of the host (libFuzzer needs glibc), objects in
# build-fuzz/ apart from the musl build.  make fuzz-build builds them;
# make fuzz FUZZ_SECONDS=N runs each for N seconds (FUZZ_TARGETS="env
# opt" picks some; FUZZ_SKIP=dup-vars,... or LEASH_FUZZ_SKIP in the
# environment turns off the checks of known open findings, see
# tests/fuzz/README); make check replays every seed
# corpus.
FUZZ_CC ?= clang-14
FUZZ_B := build-fuzz
FUZZ_SECONDS ?= 60
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer -g
FUZZ_CPPFLAGS := -I$(srcdir)/lib -I$(srcdir)/cmd -I$(srcdir)/tests/fuzz -D_DEFAULT_SOURCE
FUZZ_CFLAGS := -std=c11 -O1 $(CFLAGS_WARN) \
	$(if $(filter 1,$(WERROR)),$(CFLAGS_WERROR)) $(FUZZ_SAN)
# cmd/parse*.c too: each personality's parse, apart from running.
FUZZ_LIB_OBJS := $(patsubst $(srcdir)/lib/%.c,$(FUZZ_B)/lib/%.o,$(wildcard $(srcdir)/lib/*/*.c)) \
	$(patsubst $(srcdir)/cmd/%.c,$(FUZZ_B)/cmd/%.o,$(wildcard $(srcdir)/cmd/parse*.c))
FUZZ_SRCS := $(filter-out %/common.c,$(sort $(wildcard $(srcdir)/tests/fuzz/*.c)))
FUZZ_ALL := $(patsubst $(srcdir)/tests/fuzz/%.c,%,$(FUZZ_SRCS))
FUZZ_TARGETS ?= $(FUZZ_ALL)
FUZZ_BINS := $(patsubst %,$(FUZZ_B)/fuzz-%,$(FUZZ_ALL))

.PHONY: fuzz fuzz-build fuzz-clean
fuzz-build:
	$(Q)$(call DEPS_CMD,fuzz)
	$(Q)$(MAKE) --no-print-directory $(FUZZ_BINS) $(FUZZ_B)/gnuref-durations

fuzz: fuzz-build
	$(Q)LEASH_FUZZ_SKIP='$(or $(FUZZ_SKIP),$(LEASH_FUZZ_SKIP))' $(srcdir)/build-aux/fuzz.sh run \
		$(FUZZ_SECONDS) $(FUZZ_B) $(FUZZ_TARGETS)

$(FUZZ_B)/.flags: FORCE
	@mkdir -p $(FUZZ_B)
	@printf '%s\n' '$(FUZZ_CC) $(FUZZ_CPPFLAGS) $(FUZZ_CFLAGS)' | cmp -s - $@ || \
		printf '%s\n' '$(FUZZ_CC) $(FUZZ_CPPFLAGS) $(FUZZ_CFLAGS)' >$@

$(FUZZ_B)/%.o: $(srcdir)/%.c $(FUZZ_B)/.flags
	@mkdir -p $(@D)
	@echo "  CC      $< (fuzz)"
	$(Q)$(FUZZ_CC) $(FUZZ_CPPFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<

# An archive: each harness links only the lib objects it calls.
$(FUZZ_B)/libleash.a: $(FUZZ_LIB_OBJS)
	$(Q)rm -f $@ && ar rcs $@ $^

$(FUZZ_B)/fuzz-%: $(FUZZ_B)/tests/fuzz/%.o $(FUZZ_B)/tests/fuzz/common.o $(FUZZ_B)/libleash.a
	@echo "  LD      $@"
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@.tmp $^
	$(Q)mv -f $@.tmp $@

# GNU timeout's own parsers, the reference of the duration and signals
# harnesses: built by build-aux/gnuref.sh from Debian's coreutils source,
# which it fetches once into build/coreutils (kept by make clean).
GNUREF_SRC := build/coreutils
GNUREF_A := $(FUZZ_B)/gnuref/libgnuref.a
$(GNUREF_A): $(srcdir)/build-aux/gnuref.sh $(wildcard $(srcdir)/tests/fuzz/gnuref/*) $(FUZZ_B)/.flags
	@echo "  GNUREF  $@"
	$(Q)CC='$(FUZZ_CC)' CFLAGS='-O1 $(FUZZ_SAN) -fsanitize=fuzzer-no-link' \
		$(srcdir)/build-aux/gnuref.sh $(GNUREF_SRC) $(@D)
$(FUZZ_B)/fuzz-duration $(FUZZ_B)/fuzz-signals: $(GNUREF_A)
# GNU's reading of durations line by line, beside tests/durread.c's (the
# musl build's) in tests/format.bats.
$(FUZZ_B)/gnuref-durations: $(srcdir)/tests/fuzz/gnuref/durations.c $(GNUREF_A)
	@echo "  LD      $@"
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -o $@.tmp $^
	$(Q)mv -f $@.tmp $@

.SECONDARY: $(patsubst %,$(FUZZ_B)/tests/fuzz/%.o,$(FUZZ_ALL) common)
-include $(FUZZ_LIB_OBJS:.o=.d) $(patsubst %,$(FUZZ_B)/tests/fuzz/%.d,$(FUZZ_ALL) common)

# make check replays the corpora (build-aux/check.sh, one item each);
# not when LEASH_CHECK_FILES picks some bats files only.
check: $(if $(LEASH_CHECK_FILES),,fuzz-build)
TEST_ENV += LEASH_FUZZ_BUILDDIR=$(abspath $(FUZZ_B))

clean: fuzz-clean
fuzz-clean:
	$(Q)rm -rf $(FUZZ_B)
