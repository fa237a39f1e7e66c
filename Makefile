# SPDX-License-Identifier: ISC
# leash: GNU make.  ./configure writes config.mk; an unconfigured tree is
# configured with defaults on the first make.
#
#   make                 build/leash (+ build/timeout, build/su links, build/probe)
#   make check           deps, build with -Werror, bats suite, man page lint
#   make check SANITIZE=1  the same suite against an ASan+UBSan dynamic build
#   make demo | bench | check-vm | install | uninstall | clean | distclean
#   V=1 shows full command lines; WERROR=1|0 makes warnings errors or not
#   (configure's default: 1 unless CFLAGS was given; check always uses 1);
#   DEPS=0 skips build-aux/deps.sh in check, demo, bench and check-vm.

.DELETE_ON_ERROR:
.SUFFIXES:
.DEFAULT_GOAL := all

NOCONFIG_GOALS := clean distclean help
ifneq ($(filter-out $(NOCONFIG_GOALS),$(or $(MAKECMDGOALS),all)),)
include config.mk
endif
srcdir ?= .

# Goals that set up the machine (build-aux/deps.sh) before configuring.
DEPS ?= 1
DEPS_PROFILE := $(strip $(if $(filter check,$(MAKECMDGOALS)),check) \
	$(if $(filter check-vm,$(MAKECMDGOALS)),check vm) \
	$(if $(filter bench,$(MAKECMDGOALS)),check) \
	$(if $(filter demo,$(MAKECMDGOALS)),check))
DEPS_CMD = $(if $(filter 1,$(DEPS)),$(srcdir)/build-aux/deps.sh $(or $(1),build))

# include, not -include: when configure fails, make stops with its message
# instead of compiling with a bare cc.
config.mk:
	@$(if $(DEPS_PROFILE),$(call DEPS_CMD,$(DEPS_PROFILE)))
	@echo "leash: tree not configured: running ./configure with defaults"
	@$(srcdir)/configure || { echo "leash: ./configure failed (above); fix that, or run ./configure with options" >&2; exit 1; }

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
ifeq ($(SANITIZE),1)
B := build-san
else
B := build
endif
KINC_DIR := $(if $(KINC_LINUX),$(B)/kinc)
ifeq ($(SANITIZE),1)
SAN_CC ?= gcc
SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer -g
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
SRCS := $(sort $(wildcard $(srcdir)/cmd/*.c $(srcdir)/lib/*.c))
OBJS := $(patsubst $(srcdir)/%.c,$(B)/obj/%.o,$(SRCS))
HELPER_SRCS := $(sort $(wildcard $(srcdir)/tests/*.c))
HELPERS := $(patsubst $(srcdir)/tests/%.c,$(B)/%,$(HELPER_SRCS))
BENCH_SRCS := $(sort $(wildcard $(srcdir)/tests/bench/*.c))
BENCH_OBJS := $(patsubst $(srcdir)/%.c,$(B)/obj/%.o,$(BENCH_SRCS))
LINKS := $(B)/timeout $(B)/su
LIBCAP_A := $(if $(filter 1,$(SANITIZE)),,$(if $(filter build,$(LIBCAP)),$(B)/libcap/lib/libcap.a))

.PHONY: all check demo bench check-vm install install-strip uninstall \
	clean distclean help deps FORCE
all: $(B)/leash $(LINKS) $(HELPERS)

# Rebuild when the flags change (WERROR=1, CFLAGS=..., a new configure).
# Programs are linked to a temporary name and renamed, so a test running
# at the same time never sees a half-written binary.
FLAGS_NOW = $(BUILD_CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) | $(ALL_LDFLAGS) $(BUILD_LIBCAP_LIBS) $(LIBS) | $(CC) $(HELPER_LDFLAGS)
$(B)/.flags: FORCE
	@mkdir -p $(B)
	@printf '%s\n' '$(subst ','\'',$(FLAGS_NOW))' | cmp -s - $@ || \
		printf '%s\n' '$(subst ','\'',$(FLAGS_NOW))' >$@

$(B)/leash: $(OBJS) $(LIBCAP_A) $(B)/.flags $(srcdir)/build-aux/hot.ld
	@echo "  LD      $@"
	$(Q)$(BUILD_CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@.tmp $(OBJS) $(BUILD_LIBCAP_LIBS) $(LIBS)
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

$(B)/bench: $(BENCH_OBJS) $(B)/.flags
	@echo "  LD      $@"
	$(Q)$(BUILD_CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@.tmp $(BENCH_OBJS) $(LIBS)
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
	$(Q)$(srcdir)/build-aux/libcap.sh $(B)/libcap
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
	$(Q)$(TEST_ENV) $(srcdir)/build-aux/check.sh

demo:
	$(Q)$(call DEPS_CMD,check)
	$(Q)$(MAKE) --no-print-directory all
	$(Q)$(TEST_ENV) $(srcdir)/build-aux/demo.sh

bench:
	$(Q)$(call DEPS_CMD,check)
	$(Q)$(MAKE) --no-print-directory all $(if $(BENCH_SRCS),$(B)/bench)
	$(Q)if [ -x $(srcdir)/build-aux/bench.sh ]; then \
		$(TEST_ENV) BENCH=$(abspath $(B)/bench) $(srcdir)/build-aux/bench.sh; \
	else echo "leash: no build-aux/bench.sh yet: nothing to measure"; fi

check-vm:
	$(Q)$(call DEPS_CMD,vm)
	$(Q)$(MAKE) --no-print-directory WERROR=1 all $(if $(BENCH_SRCS),$(B)/bench)
	$(Q)if [ -x $(srcdir)/build-aux/check-vm.sh ]; then \
		$(TEST_ENV) $(srcdir)/build-aux/check-vm.sh; \
	else echo "leash: no build-aux/check-vm.sh: nothing to run in a VM" >&2; exit 1; fi

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

install: all
	$(Q)$(INSTALL) -d $(DESTDIR)$(bindir) $(DESTDIR)$(mandir)/man1 $(DESTDIR)$(LEASH_LIBEXEC) \
		$(DESTDIR)$(COMPLETIONS)
	$(Q)$(INSTALL) -m 0755 $(INSTALL_STRIP) $(B)/leash $(DESTDIR)$(bindir)/.leash.new
	$(Q)mv -f $(DESTDIR)$(bindir)/.leash.new $(DESTDIR)$(bindir)/leash
	$(Q)$(INSTALL) -m 0644 $(srcdir)/man/leash.1 $(DESTDIR)$(mandir)/man1/.leash.1.new
	$(Q)mv -f $(DESTDIR)$(mandir)/man1/.leash.1.new $(DESTDIR)$(mandir)/man1/leash.1
	$(Q)$(INSTALL) -m 0644 $(srcdir)/bash-completion/leash $(DESTDIR)$(COMPLETIONS)/.leash.new
	$(Q)mv -f $(DESTDIR)$(COMPLETIONS)/.leash.new $(DESTDIR)$(COMPLETIONS)/leash
	$(Q)$(REL_LEASH_SH); for n in timeout su; do \
		ln -sfn "$$to" $(DESTDIR)$(LEASH_LIBEXEC)/.$$n.new && \
		mv -f $(DESTDIR)$(LEASH_LIBEXEC)/.$$n.new $(DESTDIR)$(LEASH_LIBEXEC)/$$n || exit 1; \
	done
	@echo "leash: installed $(DESTDIR)$(bindir)/leash, $(DESTDIR)$(mandir)/man1/leash.1, $(DESTDIR)$(LEASH_LIBEXEC)/{timeout,su}, $(DESTDIR)$(COMPLETIONS)/leash"

install-strip:
	$(Q)$(MAKE) --no-print-directory INSTALL_STRIP=-s install

uninstall:
	$(Q)rm -f $(DESTDIR)$(bindir)/leash $(DESTDIR)$(mandir)/man1/leash.1 \
		$(DESTDIR)$(LEASH_LIBEXEC)/timeout $(DESTDIR)$(LEASH_LIBEXEC)/su \
		$(DESTDIR)$(COMPLETIONS)/leash
	$(Q)rmdir $(DESTDIR)$(LEASH_LIBEXEC) 2>/dev/null || true

# clean keeps what was downloaded: the libcap built from Debian's source
# (build/libcap) and check-vm's kernel and packages (build/vm-cache).
KEEP_ON_CLEAN := libcap vm-cache
clean:
	$(Q)if [ -d build ]; then find build -mindepth 1 -maxdepth 1 \
		$(foreach k,$(KEEP_ON_CLEAN),! -name $(k)) -exec rm -rf {} +; fi
	$(Q)rm -rf build-san

# distclean leaves the tree `git archive` gives.
distclean: clean
	$(Q)rm -rf build config.mk config.mk.tmp bench-*.json
	$(Q)if [ -L Makefile ]; then rm -f Makefile; fi	# configure's link out of tree

help:
	@sed -n '/SPDX-License-Identifier/d; 2,11s/^# \{0,1\}//p' $(firstword $(MAKEFILE_LIST))
