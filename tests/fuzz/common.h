/* SPDX-License-Identifier: ISC */
/* fuzz common: turning libFuzzer's bytes into strings, argv arrays and
 * files the lib reads, for the harnesses in tests/fuzz. */
#ifndef LEASH_FUZZ_COMMON_H
#define LEASH_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>

/* libFuzzer's entry points, defined by each harness. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* Stop the run with a finding: libFuzzer keeps the input as a crash. */
#define FUZZ_ASSERT(cond) \
	((cond) ? (void)0 : fuzz_fail(__FILE__, __LINE__, #cond))
_Noreturn void fuzz_fail(const char *file, int line, const char *what);

/* Is check NAME listed in LEASH_FUZZ_SKIP (comma-separated)?  For long
 * runs past a known, still open finding; make fuzz FUZZ_SKIP=... */
int fuzz_skip(const char *name);

/* A malloc'd NUL-terminated copy of DATA (free it). */
char *fuzz_cstr(const uint8_t *data, size_t size);

/* DATA split at NUL bytes into a malloc'd NULL-terminated vector behind
 * ARGV0 (the strings are copies; free with fuzz_argv_free).  *ARGC is
 * the count, ARGV0 included. */
char **fuzz_argv(const char *argv0, const uint8_t *data, size_t size,
		 int *argc);
void fuzz_argv_free(char **argv);

/* A copy of the N+1 pointers of ARGV (the NULL too): what a parse
 * that permutes ARGV started from (free it). */
char **fuzz_argv_dup(char **argv, int n);

/* AFTER (a parse's argv) holds BEFORE's N strings, reordered. */
void fuzz_check_permutation(char **before, char **after, int n);

/* Does P point into one of the N strings of V (their NULs included)? */
int fuzz_inside(char **v, int n, const char *p);

/* The index of P in V[0..N], or -1: where a parse left its operands. */
int fuzz_index(char **v, int n, char **p);

/* The next LEN-prefixed field of *DATA (LEN one byte), or the rest. */
size_t fuzz_take(const uint8_t **data, size_t *size, const uint8_t **field);

/* Once, before any other file helper: a private mount namespace (a
 * user namespace too when not root) with a private tmpfs, and a file of
 * it bound over each path of the NULL-terminated OVERLAY (may be NULL),
 * so fixed paths such as /etc/passwd read what the harness puts there,
 * for this process only.  FD[i] is OVERLAY[i]'s file for fuzz_put, or
 * -1 when that bind failed.  Exits with a message when the kernel
 * refuses the namespace. */
void fuzz_setup(const char *const overlay[], int fd[]);

/* A file NAME in the private tmpfs (fuzz_tmpdir), opened read-write. */
int fuzz_file(const char *name);

/* Make the file behind FD hold exactly DATA. */
void fuzz_put(int fd, const uint8_t *data, size_t size);

/* A private tmpfs as a directory path ("/proc/self/fd/N"): detached
 * from every tree, so nothing is left behind even after a crash. */
const char *fuzz_tmpdir(void);

#endif
