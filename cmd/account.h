/* SPDX-License-Identifier: ISC */
/* account: the native personality's --report and -v account of a run:
 * the resolved identity first, one summary line last, and the report
 * (lib/report/report.c) written when leash ends, also on its own failures once
 * the report option was read. */
#ifndef LEASH_ACCOUNT_H
#define LEASH_ACCOUNT_H

#include <stdbool.h>

#include "cmd.h"

/* --report=FILE, --report-fd=N (N as leash_parse read it): checked now
 * (125 and one line when the destination cannot be written), written
 * at the end. */
void account_report_file(const char *path);
void account_report_fd(int fd);
bool account_wanted(void);

/* The plan the account is about; WHY_NONE says why no cgroup is used
 * when cmd/ decided that already (NULL: cgroup_prepare will say). */
void account_plan(struct plan *p, const char *why_none);

/* Options and identity resolved: under -v, the identity line. */
void account_start(void);

/* The run is over: the -v summary and the report.  Returns STATUS, or
 * 125 when a report was asked for and could not be written. */
int account_finish(const struct outcome *out, bool ran, int status);

/* A usage error after the report option: report it, then exit. */
void account_fail(int status);

#endif
