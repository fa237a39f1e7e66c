/* SPDX-License-Identifier: ISC */
/* sysname: a system call's name from its number, for a message.  The
 * calls leash itself makes (what a seccomp filter can refuse it); each
 * only where the architecture has it. */
#include "sysname.h"

#include <sys/syscall.h>

/* Newer than some C libraries' lists; the same number everywhere. */
#ifndef SYS_pidfd_send_signal
#define SYS_pidfd_send_signal 424
#endif
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_clone3
#define SYS_clone3 435
#endif
#ifndef SYS_close_range
#define SYS_close_range 436
#endif
#ifndef SYS_faccessat2
#define SYS_faccessat2 439
#endif

#define CALL(name) { SYS_##name, #name }

static const struct {
	long nr;
	const char *name;
} calls[] = {
#ifdef SYS_access
	CALL(access),
#endif
#ifdef SYS_capget
	CALL(capget),
#endif
#ifdef SYS_capset
	CALL(capset),
#endif
#ifdef SYS_chdir
	CALL(chdir),
#endif
#ifdef SYS_clock_gettime
	CALL(clock_gettime),
#endif
#ifdef SYS_clock_gettime64
	CALL(clock_gettime64),
#endif
#ifdef SYS_clock_nanosleep
	CALL(clock_nanosleep),
#endif
#ifdef SYS_clock_nanosleep_time64
	CALL(clock_nanosleep_time64),
#endif
#ifdef SYS_clone
	CALL(clone),
#endif
#ifdef SYS_clone3
	CALL(clone3),
#endif
#ifdef SYS_close
	CALL(close),
#endif
#ifdef SYS_close_range
	CALL(close_range),
#endif
#ifdef SYS_dup
	CALL(dup),
#endif
#ifdef SYS_dup2
	CALL(dup2),
#endif
#ifdef SYS_dup3
	CALL(dup3),
#endif
#ifdef SYS_eventfd2
	CALL(eventfd2),
#endif
#ifdef SYS_execve
	CALL(execve),
#endif
#ifdef SYS_faccessat
	CALL(faccessat),
#endif
#ifdef SYS_faccessat2
	CALL(faccessat2),
#endif
#ifdef SYS_fchdir
	CALL(fchdir),
#endif
#ifdef SYS_fcntl
	CALL(fcntl),
#endif
#ifdef SYS_fcntl64
	CALL(fcntl64),
#endif
#ifdef SYS_fork
	CALL(fork),
#endif
#ifdef SYS_fstat
	CALL(fstat),
#endif
#ifdef SYS_fstat64
	CALL(fstat64),
#endif
#ifdef SYS_fstatat64
	CALL(fstatat64),
#endif
#ifdef SYS_fstatfs
	CALL(fstatfs),
#endif
#ifdef SYS_fstatfs64
	CALL(fstatfs64),
#endif
#ifdef SYS_getdents
	CALL(getdents),
#endif
#ifdef SYS_getdents64
	CALL(getdents64),
#endif
#ifdef SYS_getgroups
	CALL(getgroups),
#endif
#ifdef SYS_getgroups32
	CALL(getgroups32),
#endif
#ifdef SYS_getpgid
	CALL(getpgid),
#endif
#ifdef SYS_getppid
	CALL(getppid),
#endif
#ifdef SYS_getresgid
	CALL(getresgid),
#endif
#ifdef SYS_getresgid32
	CALL(getresgid32),
#endif
#ifdef SYS_getresuid
	CALL(getresuid),
#endif
#ifdef SYS_getresuid32
	CALL(getresuid32),
#endif
#ifdef SYS_getsid
	CALL(getsid),
#endif
#ifdef SYS_ioctl
	CALL(ioctl),
#endif
#ifdef SYS_keyctl
	CALL(keyctl),
#endif
#ifdef SYS_kill
	CALL(kill),
#endif
#ifdef SYS_mkdir
	CALL(mkdir),
#endif
#ifdef SYS_mkdirat
	CALL(mkdirat),
#endif
#ifdef SYS_newfstatat
	CALL(newfstatat),
#endif
#ifdef SYS_open
	CALL(open),
#endif
#ifdef SYS_openat
	CALL(openat),
#endif
#ifdef SYS_pidfd_open
	CALL(pidfd_open),
#endif
#ifdef SYS_pidfd_send_signal
	CALL(pidfd_send_signal),
#endif
#ifdef SYS_pipe
	CALL(pipe),
#endif
#ifdef SYS_pipe2
	CALL(pipe2),
#endif
#ifdef SYS_poll
	CALL(poll),
#endif
#ifdef SYS_ppoll
	CALL(ppoll),
#endif
#ifdef SYS_ppoll_time64
	CALL(ppoll_time64),
#endif
#ifdef SYS_prctl
	CALL(prctl),
#endif
#ifdef SYS_prlimit64
	CALL(prlimit64),
#endif
#ifdef SYS_read
	CALL(read),
#endif
#ifdef SYS_readlink
	CALL(readlink),
#endif
#ifdef SYS_rt_sigaction
	CALL(rt_sigaction),
#endif
#ifdef SYS_rt_sigprocmask
	CALL(rt_sigprocmask),
#endif
#ifdef SYS_rt_sigtimedwait
	CALL(rt_sigtimedwait),
#endif
#ifdef SYS_rt_sigtimedwait_time64
	CALL(rt_sigtimedwait_time64),
#endif
#ifdef SYS_setgid
	CALL(setgid),
#endif
#ifdef SYS_setgid32
	CALL(setgid32),
#endif
#ifdef SYS_setgroups
	CALL(setgroups),
#endif
#ifdef SYS_setgroups32
	CALL(setgroups32),
#endif
#ifdef SYS_setpgid
	CALL(setpgid),
#endif
#ifdef SYS_setresgid
	CALL(setresgid),
#endif
#ifdef SYS_setresgid32
	CALL(setresgid32),
#endif
#ifdef SYS_setresuid
	CALL(setresuid),
#endif
#ifdef SYS_setresuid32
	CALL(setresuid32),
#endif
#ifdef SYS_setsid
	CALL(setsid),
#endif
#ifdef SYS_setuid
	CALL(setuid),
#endif
#ifdef SYS_setuid32
	CALL(setuid32),
#endif
#ifdef SYS_signalfd
	CALL(signalfd),
#endif
#ifdef SYS_signalfd4
	CALL(signalfd4),
#endif
#ifdef SYS_statx
	CALL(statx),
#endif
#ifdef SYS_timer_create
	CALL(timer_create),
#endif
#ifdef SYS_timer_delete
	CALL(timer_delete),
#endif
#ifdef SYS_timer_settime
	CALL(timer_settime),
#endif
#ifdef SYS_timer_settime64
	CALL(timer_settime64),
#endif
#ifdef SYS_timerfd_create
	CALL(timerfd_create),
#endif
#ifdef SYS_timerfd_settime
	CALL(timerfd_settime),
#endif
#ifdef SYS_timerfd_settime64
	CALL(timerfd_settime64),
#endif
#ifdef SYS_unlink
	CALL(unlink),
#endif
#ifdef SYS_unlinkat
	CALL(unlinkat),
#endif
#ifdef SYS_vfork
	CALL(vfork),
#endif
#ifdef SYS_wait4
	CALL(wait4),
#endif
#ifdef SYS_waitid
	CALL(waitid),
#endif
#ifdef SYS_write
	CALL(write),
#endif
};

const char *sysname(long nr)
{
	for (size_t i = 0; i < sizeof calls / sizeof *calls; i++)
		if (calls[i].nr == nr)
			return calls[i].name;
	return NULL;
}
