/* SPDX-License-Identifier: ISC */
/* report: one JSON object saying what a run did, escaped by hand. */
#include "report/report.h"

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "diag/diag.h"
#include "signal/signal.h"

void jbuf_init(struct jbuf *b)
{
	b->p = b->first;
	b->len = 0;
	b->cap = sizeof b->first;
	b->err = false;
	b->first[0] = '\0';
}

void jbuf_free(struct jbuf *b)
{
	if (b->p != b->first)
		free(b->p);
	jbuf_init(b);
}

/* Room for N more bytes and the terminating NUL; false (ERR set) when
 * the buffer cannot grow. */
static bool jb_room(struct jbuf *b, size_t n)
{
	size_t cap;
	char *p;

	if (b->err)
		return false;
	if (n < b->cap - b->len)
		return true;
	for (cap = b->cap; cap - b->len <= n; cap *= 2)
		if (cap > SIZE_MAX / 2)
			return b->err = true, false;
	if (b->p == b->first) {
		if ((p = malloc(cap)))
			memcpy(p, b->first, b->len + 1);
	} else {
		p = realloc(b->p, cap);
	}
	if (!p)
		return b->err = true, false;
	b->p = p;
	b->cap = cap;
	return true;
}

static void jb_put(struct jbuf *b, const char *s, size_t n)
{
	if (!jb_room(b, n))
		return;
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

/* V in decimal, a '-' first when NEG. */
static void jb_num(struct jbuf *b, bool neg, unsigned long long v)
{
	char digits[24], *d = digits + sizeof digits;

	do
		*--d = (char)('0' + v % 10);
	while (v /= 10);
	if (neg)
		*--d = '-';
	jb_put(b, d, (size_t)(digits + sizeof digits - d));
}

static void jb_uint(struct jbuf *b, unsigned long long v)
{
	jb_num(b, false, v);
}

static void jb_int(struct jbuf *b, long long v)
{
	jb_num(b, v < 0, v < 0 ? -(unsigned long long)v : (unsigned long long)v);
}

/* Length of the valid UTF-8 sequence at S (N bytes left), or 0. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	unsigned char c = s[0], lo = 0x80, hi = 0xbf;
	size_t len;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4;
	else
		return 0;       /* continuation byte, C0/C1 overlong, F5.. */
	/* The second byte's range rules out overlongs, surrogates and
	 * code points beyond U+10FFFF (RFC 3629, section 4). */
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return len;
}

/* The escape for byte C (< 0x20, '"', '\' or DEL) into OUT; its length. */
static size_t escape_byte(unsigned char c, char out[7])
{
	static const char hex[] = "0123456789abcdef";
	const char *named = NULL;

	switch (c) {
	case '"': named = "\\\""; break;
	case '\\': named = "\\\\"; break;
	case '\b': named = "\\b"; break;
	case '\f': named = "\\f"; break;
	case '\n': named = "\\n"; break;
	case '\r': named = "\\r"; break;
	case '\t': named = "\\t"; break;
	}
	if (named) {
		memcpy(out, named, 2);
		return 2;
	}
	memcpy(out, "\\u00", 4);
	out[4] = hex[c >> 4];
	out[5] = hex[c & 15];
	return 6;
}

static size_t emit(char *dst, size_t cap, size_t at, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++, at++)
		if (at < cap)
			dst[at] = s[i];
	return at;
}

size_t report_escape(char *dst, size_t cap, const char *src, size_t n)
{
	const unsigned char *s = (const unsigned char *)src;
	size_t at = 0;
	char esc[7];

	for (size_t i = 0; i < n;) {
		unsigned char c = s[i];
		size_t len;
		if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
			/* Most of a report: printable ASCII, as it is. */
			if (at < cap)
				dst[at] = (char)c;
			at++;
			i++;
		} else if (c < 0x80) {
			at = emit(dst, cap, at, esc, escape_byte(c, esc));
			i++;
		} else if ((len = utf8_len(s + i, n - i)) == 0) {
			at = emit(dst, cap, at, "\\ufffd", 6);
			i++;
		} else {
			at = emit(dst, cap, at, (const char *)s + i, len);
			i += len;
		}
	}
	return at;
}

/* S as a JSON string, escaped straight into the buffer. */
static void jb_str(struct jbuf *b, const char *s)
{
	size_t n, room, len;
	char *at;

	if (!s) {
		jb_put(b, "null", 4);
		return;
	}
	/* Every byte becomes at most six ("\\u00XX", "\\ufffd"). */
	n = strlen(s);
	if (n > (SIZE_MAX - 8) / 6) {
		b->err = true;
		return;
	}
	room = 6 * n;
	if (!jb_room(b, room + 2))
		return;
	at = b->p + b->len;
	*at = '"';
	len = report_escape(at + 1, room, s, n);
	at[len + 1] = '"';
	b->len += len + 2;
	b->p[b->len] = '\0';
}

/* S of at most N bytes (a kernel's comm, maybe unterminated). */
static void jb_strn(struct jbuf *b, const char *s, size_t n)
{
	char z[32];
	size_t len = strnlen(s, n < sizeof z ? n : sizeof z - 1);

	memcpy(z, s, len);
	z[len] = '\0';
	jb_str(b, z);
}

/* "key": , with a comma before every key but the first of an object.
 * Keys are this file's own literals: plain ASCII, nothing to escape. */
static void jb_key(struct jbuf *b, bool *first, const char *key)
{
	size_t n = strlen(key);
	char *at;

	if (!jb_room(b, n + 4))
		return;
	at = b->p + b->len;
	if (!*first)
		*at++ = ',';
	*first = false;
	*at++ = '"';
	memcpy(at, key, n);
	at += n;
	*at++ = '"';
	*at++ = ':';
	*at = '\0';
	b->len = (size_t)(at - b->p);
}

static void jb_sig(struct jbuf *b, int sig)
{
	char name[16];

	jb_str(b, signal_name(sig, name, sizeof name));
}

/* SEC.UUUUUU (microseconds, six digits). */
static void jb_decimal(struct jbuf *b, long long sec, long usec)
{
	char frac[7];

	jb_int(b, sec);
	frac[0] = '.';
	for (int i = 6; i > 0; i--, usec /= 10)
		frac[i] = (char)('0' + usec % 10);
	jb_put(b, frac, sizeof frac);
}

static void jb_secs(struct jbuf *b, long long sec, long nsec)
{
	jb_decimal(b, sec, nsec / 1000);
}

static void jb_usecs(struct jbuf *b, long long us)
{
	jb_decimal(b, us / 1000000, (long)(us % 1000000));
}

const char *report_result_name(enum report_result r)
{
	switch (r) {
	case RESULT_EXITED: return "exited";
	case RESULT_SIGNALED: return "signaled";
	case RESULT_TIMEOUT: return "timeout";
	case RESULT_KILLED_AFTER_TIMEOUT: return "killed-after-timeout";
	case RESULT_KILLED_FROM_OUTSIDE: return "killed-from-outside";
	case RESULT_OOM_KILLED: return "oom-killed";
	case RESULT_IDLE: return "idle";
	case RESULT_STALLED: return "stalled";
	default: return "failed";
	}
}

const char *report_tree_name(enum tree_kill t)
{
	switch (t) {
	case TREE_GROUP: return "group";
	case TREE_SUBREAPER: return "subreaper";
	case TREE_CGROUP: return "cgroup";
	default: return "none";
	}
}

static const char *why_name(int why)
{
	switch (why) {
	case LEASH_WHY_DEADLINE: return "deadline";
	case LEASH_WHY_KILL_AFTER: return "kill-after";
	case LEASH_WHY_LEFTOVERS: return "leftovers";
	case LEASH_WHY_SESSION_END: return "session-end";
	case LEASH_WHY_WARN: return "warn";
	case LEASH_WHY_IDLE: return "idle";
	case LEASH_WHY_STALL: return "stalled";
	default: return "forwarded";
	}
}

static const char *target_name(int target)
{
	switch (target) {
	case LEASH_TARGET_CGROUP: return "cgroup";
	case LEASH_TARGET_TREE: return "tree";
	default: return "command";
	}
}

/* The outcome of a command that ran; NULL else. */
static const struct leash_outcome *ran(const struct report *r)
{
	return r->ran ? r->out : NULL;
}

static unsigned min_u(unsigned a, unsigned b)
{
	return a < b ? a : b;
}

static void put_argv(struct jbuf *b, char *const *argv)
{
	if (!argv) {
		jb_put(b, "null", 4);
		return;
	}
	jb_put(b, "[", 1);
	for (size_t i = 0; argv[i]; i++) {
		if (i)
			jb_put(b, ",", 1);
		jb_str(b, argv[i]);
	}
	jb_put(b, "]", 1);
}

static void put_identity(struct jbuf *b, const struct report *r)
{
	bool first = true;

	if (!r->id_source) {
		jb_put(b, "null", 4);
		return;
	}
	jb_put(b, "{", 1);
	jb_key(b, &first, "source");
	jb_str(b, r->id_source);
	jb_key(b, &first, "user");
	jb_str(b, r->user);
	jb_key(b, &first, "uid");
	jb_uint(b, r->uid);
	jb_key(b, &first, "gid");
	jb_uint(b, r->gid);
	jb_key(b, &first, "groups");
	jb_put(b, "[", 1);
	for (size_t i = 0; i < r->ngroups; i++) {
		if (i)
			jb_put(b, ",", 1);
		jb_uint(b, r->groups[i]);
	}
	jb_put(b, "]}", 2);
}

static void put_cgroup(struct jbuf *b, const struct report *r)
{
	bool first = true;

	if (!r->cg_hierarchy) {
		jb_put(b, "null", 4);
		return;
	}
	jb_put(b, "{", 1);
	jb_key(b, &first, "hierarchy");
	jb_str(b, r->cg_hierarchy);
	jb_key(b, &first, "path");
	jb_str(b, r->cg_path);
	jb_key(b, &first, "leaf");
	jb_str(b, r->cg_leaf);
	jb_key(b, &first, "uid_group");
	jb_str(b, r->cg_uid_group);
	jb_key(b, &first, "weight");
	if (r->cg_weight)
		jb_uint(b, r->cg_weight);
	else
		jb_put(b, "null", 4);
	jb_put(b, "}", 1);
}

static void put_sent(struct jbuf *b, const struct leash_outcome *o)
{
	unsigned n = o ? min_u(o->nsignals, LEASH_OUT_MAX_SIGNALS) : 0;

	jb_put(b, "[", 1);
	for (unsigned i = 0; i < n; i++) {
		const struct leash_signal_sent *s = &o->sent[i];
		bool first = true;
		jb_put(b, i ? ",{" : "{", i ? 2 : 1);
		jb_key(b, &first, "signal");
		jb_sig(b, s->sig);
		jb_key(b, &first, "at");
		jb_secs(b, (long long)s->at.tv_sec, s->at.tv_nsec);
		jb_key(b, &first, "why");
		jb_str(b, why_name(s->why));
		jb_key(b, &first, "processes");
		jb_uint(b, s->procs);
		jb_put(b, "}", 1);
	}
	jb_put(b, "]", 1);
}

static void put_failed(struct jbuf *b, const struct leash_outcome *o)
{
	unsigned n = o ? min_u(o->nkills_failed, LEASH_OUT_MAX_FAILED) : 0;

	jb_put(b, "[", 1);
	for (unsigned i = 0; i < n; i++) {
		const struct leash_kill_failed *f = &o->kills_failed[i];
		bool first = true;
		jb_put(b, i ? ",{" : "{", i ? 2 : 1);
		jb_key(b, &first, "signal");
		jb_sig(b, f->sig);
		jb_key(b, &first, "target");
		jb_str(b, target_name(f->target));
		jb_key(b, &first, "error");
		jb_str(b, strerror(f->error));
		jb_key(b, &first, "errno");
		jb_int(b, f->error);
		jb_put(b, "}", 1);
	}
	jb_put(b, "]", 1);
}

/* What the command left running; null where leash could not look. */
static void put_left(struct jbuf *b, const struct leash_outcome *o)
{
	if (!o || !(o->flags & LEASH_OUT_LEFT_SEEN)) {
		jb_put(b, "null", 4);
		return;
	}
	jb_put(b, "[", 1);
	for (unsigned i = 0; i < min_u(o->leftovers_seen, LEASH_OUT_MAX_LEFT);
	     i++) {
		bool first = true;
		jb_put(b, i ? ",{" : "{", i ? 2 : 1);
		jb_key(b, &first, "pid");
		jb_int(b, o->left[i].pid);
		jb_key(b, &first, "name");
		jb_strn(b, o->left[i].name, sizeof o->left[i].name);
		jb_put(b, "}", 1);
	}
	jb_put(b, "]", 1);
}

static void put_fallbacks(struct jbuf *b, unsigned taken)
{
	bool first = true;

	jb_put(b, "[", 1);
	for (unsigned f = 1; f & FALLBACK_ALL; f <<= 1) {
		if (!(taken & f))
			continue;
		if (!first)
			jb_put(b, ",", 1);
		first = false;
		jb_str(b, fallback_name(f));
	}
	jb_put(b, "]", 1);
}

static void put_fate(struct jbuf *b, bool *first, const struct report *r)
{
	const struct leash_outcome *o = ran(r);
	bool sig = o && o->flags & LEASH_OUT_SIGNAL;
	bool core = sig && o->flags & LEASH_OUT_CORE;

	jb_key(b, first, "result");
	jb_str(b, report_result_name(report_result(r)));
	jb_key(b, first, "status");
	if (o && !sig)
		jb_int(b, o->status);
	else
		jb_put(b, "null", 4);
	jb_key(b, first, "signal");
	if (sig)
		jb_sig(b, o->status);
	else
		jb_put(b, "null", 4);
	jb_key(b, first, "core_dumped");
	jb_put(b, core ? "true" : "false", core ? 4 : 5);
	jb_key(b, first, "exit_status");
	jb_int(b, r->exit_status);
	jb_key(b, first, "reraised");
	jb_put(b, r->reraised ? "true" : "false", r->reraised ? 4 : 5);
}

static void jb_when(struct jbuf *b, bool have, const struct timespec *t)
{
	if (have)
		jb_secs(b, (long long)t->tv_sec, t->tv_nsec);
	else
		jb_put(b, "null", 4);
}

/* --idle's and --stall's news: when the command last wrote, last used
 * CPU (null: not watched). */
static void put_progress(struct jbuf *b, bool *first, const struct report *r)
{
	jb_key(b, first, "last_output");
	jb_when(b, r->have_last_output, &r->last_output);
	jb_key(b, first, "last_cpu_progress");
	jb_when(b, r->have_last_cpu, &r->last_cpu);
}

static void put_cost(struct jbuf *b, bool *first, const struct report *r)
{
	const struct leash_outcome *o = ran(r);
	unsigned from = o ? o->flags & (LEASH_OUT_CPU_CGROUP |
					LEASH_OUT_CPU_RUSAGE) : 0;

	jb_key(b, first, "wall_time");
	jb_secs(b, (long long)r->wall.tv_sec, r->wall.tv_nsec);
	jb_key(b, first, "cpu");
	if (!from) {
		jb_put(b, "null", 4);
	} else {
		bool inner = true;
		jb_put(b, "{", 1);
		jb_key(b, &inner, "user");
		jb_usecs(b, o->user_us);
		jb_key(b, &inner, "system");
		jb_usecs(b, o->system_us);
		jb_key(b, &inner, "source");
		jb_str(b, from == LEASH_OUT_CPU_CGROUP ? "cgroup" : "rusage");
		jb_put(b, "}", 1);
	}
}

static void jb_count(struct jbuf *b, long long v)
{
	if (v < 0)
		jb_put(b, "null", 4);
	else
		jb_int(b, v);
}

bool report_limited(const struct report *r)
{
	for (int i = 0; i < CGROUP_NLIMITS; i++)
		if (r->limits[i])
			return true;
	return false;
}

/* "limits": the values given, null each not given, null without any;
 * "measured": the leaf's counters, null each the kernel lacks. */
static void put_limits(struct jbuf *b, bool *first, const struct report *r)
{
	const struct leash_outcome *o = ran(r);
	bool inner = true;

	jb_key(b, first, "limits");
	if (!report_limited(r)) {
		jb_put(b, "null", 4);
	} else {
		jb_put(b, "{", 1);
		for (int i = 0; i < CGROUP_NLIMITS; i++) {
			jb_key(b, &inner, limit_rows[i].key);
			jb_str(b, r->limits[i]);
		}
		jb_put(b, "}", 1);
	}
	jb_key(b, first, "measured");
	if (!o || !(o->flags & LEASH_OUT_MEASURED)) {
		jb_put(b, "null", 4);
		return;
	}
	inner = true;
	jb_put(b, "{", 1);
	jb_key(b, &inner, "memory_peak");
	jb_count(b, o->memory_peak);
	jb_key(b, &inner, "oom_kills");
	jb_count(b, o->oom_kills);
	jb_key(b, &inner, "pids_peak");
	jb_count(b, o->pids_peak);
	jb_key(b, &inner, "cpu_throttled");
	if (o->throttled_us < 0)
		jb_put(b, "null", 4);
	else
		jb_usecs(b, o->throttled_us);
	jb_put(b, "}", 1);
}

int report_format(const struct report *r, struct jbuf *b)
{
	const struct leash_outcome *o = ran(r);
	unsigned listed;
	bool first = true;

	jb_put(b, "{", 1);
	jb_key(b, &first, "argv");
	put_argv(b, r->argv);
	jb_key(b, &first, "identity");
	put_identity(b, r);
	jb_key(b, &first, "cgroup");
	put_cgroup(b, r);
	jb_key(b, &first, "cgroup_reason");
	jb_str(b, r->cg_hierarchy ? NULL : r->cg_reason);
	jb_key(b, &first, "systemd_unit");
	jb_str(b, r->sd_unit);
	jb_key(b, &first, "tree_kill");
	jb_str(b, report_tree_name(r->tree_kill));
	jb_key(b, &first, "pty");
	jb_put(b, r->pty ? "true" : "false", r->pty ? 4 : 5);
	jb_key(b, &first, "deadline_from");
	jb_str(b, r->deadline_from);
	jb_key(b, &first, "fallbacks");
	put_fallbacks(b, r->fallbacks | (r->out ? r->out->fallbacks : 0));
	put_fate(b, &first, r);
	put_progress(b, &first, r);
	jb_key(b, &first, "signals_sent");
	put_sent(b, o);
	jb_key(b, &first, "signals_not_listed");
	listed = o ? min_u(o->nsignals, LEASH_OUT_MAX_SIGNALS) : 0;
	jb_uint(b, o ? o->nsignals - listed : 0);
	jb_key(b, &first, "kills_failed");
	put_failed(b, o);
	jb_key(b, &first, "leftovers");
	put_left(b, o);
	jb_key(b, &first, "leftovers_not_listed");
	listed = o ? min_u(o->leftovers_seen, LEASH_OUT_MAX_LEFT) : 0;
	jb_uint(b, o ? o->leftovers_seen - listed : 0);
	jb_key(b, &first, "leftovers_killed");
	jb_uint(b, o ? o->leftovers_killed : 0);
	put_cost(b, &first, r);
	put_limits(b, &first, r);
	jb_key(b, &first, "error");
	jb_str(b, r->error);
	jb_put(b, "}\n", 2);
	return b->err ? (errno = ENOMEM, -1) : 0;
}

enum report_result report_result(const struct report *r)
{
	const struct leash_outcome *o = ran(r);

	switch (o ? o->result : LEASH_FAILED) {
	case LEASH_EXITED:
		return RESULT_EXITED;
	case LEASH_SIGNALED:
		/* A KILL neither leash nor the OOM killer sent. */
		return o->status == SIGKILL ? RESULT_KILLED_FROM_OUTSIDE :
		       RESULT_SIGNALED;
	case LEASH_TIMEOUT:
		return r->ended_by ? r->ended_by : RESULT_TIMEOUT;
	case LEASH_KILLED_AFTER:
		return r->ended_by ? r->ended_by : RESULT_KILLED_AFTER_TIMEOUT;
	case LEASH_OOM_KILLED:
		return RESULT_OOM_KILLED;
	default:
		return RESULT_FAILED;
	}
}

enum report_result report_timed_out_by(const struct outcome *out,
				       enum report_result deadline)
{
	return out->fired == PROGRESS_IDLE ? RESULT_IDLE :
	       out->fired == PROGRESS_STALL ? RESULT_STALLED : deadline;
}

enum report_result report_result_of(const struct outcome *out)
{
	if (out->code == CLD_EXITED)
		return out->timed_out ?
		       report_timed_out_by(out, RESULT_TIMEOUT) : RESULT_EXITED;
	/* A KILL leash did not send while the leaf's OOM kills rose (the
	 * leaf is new: from 0) is the OOM killer's, deadline or not. */
	if (out->status == SIGKILL && !out->sent_kill_after &&
	    out->have_usage && out->usage.oom_kills > 0)
		return RESULT_OOM_KILLED;
	if (out->timed_out)
		return report_timed_out_by(out, out->status == SIGKILL &&
					   out->sent_kill_after ?
					   RESULT_KILLED_AFTER_TIMEOUT :
					   RESULT_TIMEOUT);
	return out->status == SIGKILL ? RESULT_KILLED_FROM_OUTSIDE :
	       RESULT_SIGNALED;
}
