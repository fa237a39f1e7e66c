/* SPDX-License-Identifier: ISC */
/* sdbus: StartTransientUnit marshalled by hand (the D-Bus specification's
 * wire format, in this machine's byte order, which the format allows).
 * One connection per call: systemd's private socket first, which only
 * root may open and which needs no bus daemon (a server without dbus
 * installed, early boot), else the system bus, which wants Hello first.
 * Both take EXTERNAL authentication (our uid, checked by the kernel's
 * SO_PEERCRED).  Every read and write is bounded (SDBUS_TIMEOUT_MS). */
#define _GNU_SOURCE
#include "cgroup/sdbus.h"

#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define SD_PRIVATE "/run/systemd/private"
#define SD_SYSTEM_BUS "/run/dbus/system_bus_socket"

enum { MSG_CALL = 1, MSG_RETURN = 2, MSG_ERROR = 3 };
enum { F_PATH = 1, F_INTERFACE, F_MEMBER, F_ERROR_NAME, F_REPLY_SERIAL,
       F_DESTINATION, F_SENDER, F_SIGNATURE };

struct msg {
	unsigned char b[1024];
	size_t n;
	bool over;
};

static void m_bytes(struct msg *m, const void *p, size_t len)
{
	if (m->n + len > sizeof m->b) {
		m->over = true;
		return;
	}
	memcpy(m->b + m->n, p, len);
	m->n += len;
}

static void m_pad(struct msg *m, size_t align)
{
	static const unsigned char zero[8];

	m_bytes(m, zero, (align - m->n % align) % align);
}

static void m_u8(struct msg *m, uint8_t v)
{
	m_bytes(m, &v, 1);
}

static void m_u32(struct msg *m, uint32_t v)
{
	m_pad(m, 4);
	m_bytes(m, &v, 4);
}

static void m_str(struct msg *m, const char *s)
{
	m_u32(m, (uint32_t)strlen(s));
	m_bytes(m, s, strlen(s) + 1);
}

static void m_sig(struct msg *m, const char *s)
{
	m_u8(m, (uint8_t)strlen(s));
	m_bytes(m, s, strlen(s) + 1);
}

/* An array: its length slot, then the padding to its elements'
 * alignment, which the length does not count. */
static size_t m_array(struct msg *m, size_t align, size_t *start)
{
	size_t slot;

	m_u32(m, 0);
	slot = m->n - 4;
	m_pad(m, align);
	*start = m->n;
	return slot;
}

static void m_array_end(struct msg *m, size_t slot, size_t start)
{
	uint32_t len = (uint32_t)(m->n - start);

	if (!m->over)
		memcpy(m->b + slot, &len, 4);
}

/* One (sv) of a property list, the variant a string (or a bool). */
static void m_prop_s(struct msg *m, const char *key, const char *v)
{
	m_pad(m, 8);
	m_str(m, key);
	m_sig(m, "s");
	m_str(m, v);
}

static void m_prop_b(struct msg *m, const char *key, bool v)
{
	m_pad(m, 8);
	m_str(m, key);
	m_sig(m, "b");
	m_u32(m, v);
}

static void m_prop_pid(struct msg *m, const char *key, pid_t pid)
{
	size_t slot, start;

	m_pad(m, 8);
	m_str(m, key);
	m_sig(m, "au");
	slot = m_array(m, 4, &start);
	m_u32(m, (uint32_t)pid);
	m_array_end(m, slot, start);
}

static void m_field(struct msg *m, uint8_t code, const char *sig,
		    const char *v)
{
	m_pad(m, 8);
	m_u8(m, code);
	m_sig(m, sig);
	if (*sig == 'g')
		m_sig(m, v);
	else
		m_str(m, v);
}

/* A method call of systemd's Manager (or, with BUS, the bus's Hello)
 * around BODY of signature SIG. */
static void m_call(struct msg *m, uint32_t serial, bool bus,
		   const char *member, const char *sig, const struct msg *body)
{
	size_t slot, start;
	uint32_t blen = body ? (uint32_t)body->n : 0;
	const uint16_t one = 1;

	m->n = 0;
	m->over = false;
	m_u8(m, *(const unsigned char *)&one ? 'l' : 'B');
	m_u8(m, MSG_CALL);
	m_u8(m, 0);
	m_u8(m, 1);
	m_u32(m, blen);
	m_u32(m, serial);
	slot = m_array(m, 8, &start);
	m_field(m, F_PATH, "o", bus ? "/org/freedesktop/DBus" :
		"/org/freedesktop/systemd1");
	m_field(m, F_INTERFACE, "s", bus ? "org.freedesktop.DBus" :
		"org.freedesktop.systemd1.Manager");
	m_field(m, F_MEMBER, "s", member);
	m_field(m, F_DESTINATION, "s", bus ? "org.freedesktop.DBus" :
		"org.freedesktop.systemd1");
	if (sig)
		m_field(m, F_SIGNATURE, "g", sig);
	m_array_end(m, slot, start);
	m_pad(m, 8);
	if (body)
		m_bytes(m, body->b, body->n);
}

/* StartTransientUnit(s name, s mode, a(sv) properties,
 * a(sa(sv)) auxiliary units). */
static void m_scope_body(struct msg *b, const char *name, const char *slice,
			 pid_t pid, const char *description)
{
	size_t slot, start;

	b->n = 0;
	b->over = false;
	m_str(b, name);
	m_str(b, "fail");
	slot = m_array(b, 8, &start);
	m_prop_s(b, "Description", description);
	m_prop_s(b, "Slice", slice);
	m_prop_b(b, "Delegate", true);
	m_prop_pid(b, "PIDs", pid);
	/* Collected even if it ends failed (its last process killed). */
	m_prop_s(b, "CollectMode", "inactive-or-failed");
	m_array_end(b, slot, start);
	slot = m_array(b, 8, &start);
	m_array_end(b, slot, start);
}

static int io_wait(int fd, short ev)
{
	struct pollfd p = { .fd = fd, .events = ev };
	int n;

	do
		n = poll(&p, 1, SDBUS_TIMEOUT_MS);
	while (n < 0 && errno == EINTR);
	if (n == 0)
		errno = ETIMEDOUT;
	return n > 0 ? 0 : -1;
}

static int send_all(int fd, const void *p, size_t len)
{
	const char *c = p;

	while (len) {
		ssize_t w;

		if (io_wait(fd, POLLOUT) < 0)
			return -1;
		w = send(fd, c, len, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (w < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (w < 0)
			return -1;
		c += w;
		len -= (size_t)w;
	}
	return 0;
}

static int recv_all(int fd, void *p, size_t len)
{
	char *c = p;

	while (len) {
		ssize_t r;

		if (io_wait(fd, POLLIN) < 0)
			return -1;
		r = recv(fd, c, len, MSG_DONTWAIT);
		if (r < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (r <= 0) {
			if (r == 0)
				errno = ECONNRESET;
			return -1;
		}
		c += r;
		len -= (size_t)r;
	}
	return 0;
}

static int sd_connect(const char *path)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -1;
	strcpy(a.sun_path, path);
	if (connect(fd, (struct sockaddr *)&a, sizeof a) == 0)
		return fd;
	close(fd);
	return -1;
}

/* EXTERNAL with our uid, in hex of its decimal digits; the server's
 * "OK <guid>" line, then BEGIN. */
static int sd_auth(int fd)
{
	char line[128], uid[16], *at;
	int n = snprintf(uid, sizeof uid, "%u", (unsigned)geteuid());

	at = line + snprintf(line, sizeof line, "%cAUTH EXTERNAL ", 0);
	for (int i = 0; i < n; i++)
		at += snprintf(at, 3, "%02x", (unsigned char)uid[i]);
	at += snprintf(at, 3, "\r\n");
	if (send_all(fd, line, (size_t)(at - line)) < 0)
		return -1;
	for (at = line; at < line + sizeof line - 1; at++) {
		if (recv_all(fd, at, 1) < 0)
			return -1;
		if (*at == '\n')
			break;
	}
	if (strncmp(line, "OK ", 3) != 0) {
		errno = EACCES;
		return -1;
	}
	return send_all(fd, "BEGIN\r\n", 7);
}

static uint32_t get_u32(const unsigned char *p, bool swap)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return swap ? __builtin_bswap32(v) : v;
}

struct reply {
	int type;
	uint32_t reply_serial;
	char error[128];
	char text[256];
};

/* Walk the header fields for REPLY_SERIAL and ERROR_NAME (the only
 * types a header field has are u, s, o and g). */
static void parse_fields(const unsigned char *h, size_t len, bool swap,
			 struct reply *r)
{
	size_t at = 16;

	while (at + 4 <= len) {
		uint8_t code = h[at], slen = h[at + 1];
		char type = (char)h[at + 2];
		uint32_t vlen;

		at += 3 + slen;         /* code, signature: len, chars, NUL */
		if (type == 'g') {
			at += 2u + h[at];
		} else {
			at = (at + 3) & ~(size_t)3;
			if (at + 4 > len)
				return;
			vlen = get_u32(h + at, swap);
			if (type == 'u' && code == F_REPLY_SERIAL)
				r->reply_serial = vlen;
			if (type == 's' && code == F_ERROR_NAME && at + 4 + vlen <= len)
				snprintf(r->error, sizeof r->error, "%.*s",
					 (int)vlen, (const char *)h + at + 4);
			at += type == 'u' ? 4 : 4u + vlen + 1;
		}
		at = (at + 7) & ~(size_t)7;
	}
}

/* Read one message; R gets its type, reply serial, error name and (for
 * an error) the text its body starts with. */
static int read_msg(int fd, struct reply *r)
{
	unsigned char h[4096];
	uint32_t flen, blen;
	size_t hlen;
	bool swap;

	memset(r, 0, sizeof *r);
	if (recv_all(fd, h, 16) < 0)
		return -1;
	swap = h[0] != (*(const unsigned char *)&(const uint16_t){ 1 } ? 'l' : 'B');
	blen = get_u32(h + 4, swap);
	flen = get_u32(h + 12, swap);
	hlen = (16 + (size_t)flen + 7) & ~(size_t)7;
	if (hlen + blen > sizeof h) {
		errno = EMSGSIZE;
		return -1;
	}
	if (recv_all(fd, h + 16, hlen + blen - 16) < 0)
		return -1;
	r->type = h[1];
	parse_fields(h, 16 + flen, swap, r);
	if (r->type == MSG_ERROR && blen >= 4) {
		uint32_t tlen = get_u32(h + hlen, swap);

		if (tlen < blen - 4)
			snprintf(r->text, sizeof r->text, "%.*s", (int)tlen,
				 (const char *)h + hlen + 4);
	}
	return 0;
}

/* Send the call (after Hello on a bus) and wait for its reply, skipping
 * Hello's reply and the signals a bus sends a new peer. */
static int sd_call(int fd, bool bus, const struct msg *body, char *err,
		   size_t size)
{
	struct msg m;
	struct reply r;
	uint32_t serial = bus ? 2 : 1;

	if (bus) {
		m_call(&m, 1, true, "Hello", NULL, NULL);
		if (send_all(fd, m.b, m.n) < 0)
			return -1;
	}
	m_call(&m, serial, false, "StartTransientUnit", "ssa(sv)a(sa(sv))", body);
	if (m.over) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if (send_all(fd, m.b, m.n) < 0)
		return -1;
	for (int i = 0; i < 64; i++) {
		if (read_msg(fd, &r) < 0)
			return -1;
		if ((r.type != MSG_RETURN && r.type != MSG_ERROR) ||
		    r.reply_serial != serial) {
			if (r.type == MSG_ERROR && r.reply_serial == 1) {
				snprintf(err, size, "%s", r.error);
				errno = EPROTO;
				return -1;      /* Hello refused */
			}
			continue;
		}
		if (r.type == MSG_RETURN)
			return 0;
		snprintf(err, size, "%s: %s", r.error, r.text);
		errno = strstr(r.error, "UnitExists") ? EEXIST :
			strstr(r.error, "AccessDenied") ? EACCES : EPROTO;
		return -1;
	}
	errno = EPROTO;
	return -1;
}

int sdbus_start_scope(const char *name, const char *slice, pid_t pid,
		      const char *description, char *err, size_t size)
{
	struct msg body;
	bool bus = false;
	int fd, rc, e;

	snprintf(err, size, "no D-Bus connection to systemd");
	m_scope_body(&body, name, slice, pid, description);
	if (body.over) {
		errno = ENAMETOOLONG;
		return -1;
	}
	fd = geteuid() == 0 ? sd_connect(SD_PRIVATE) : -1;
	if (fd < 0) {
		bus = true;
		fd = sd_connect(SD_SYSTEM_BUS);
	}
	if (fd < 0) {
		snprintf(err, size, "cannot connect to %s or %s", SD_PRIVATE,
			 SD_SYSTEM_BUS);
		return -1;
	}
	rc = sd_auth(fd);
	if (rc < 0)
		snprintf(err, size, "D-Bus authentication at %s failed",
			 bus ? SD_SYSTEM_BUS : SD_PRIVATE);
	else
		rc = sd_call(fd, bus, &body, err, size);
	if (rc == 0)
		snprintf(err, size, "%s", bus ? SD_SYSTEM_BUS : SD_PRIVATE);
	e = errno;
	close(fd);
	errno = e;
	return rc;
}
