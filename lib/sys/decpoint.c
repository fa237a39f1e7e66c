/* SPDX-License-Identifier: ISC */
/* decpoint: the locale's decimal point, read from glibc's compiled
 * locales, since a static musl program has none of its own. */
#include "sys/decpoint.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define LOCALE_DIR "/usr/lib/locale"
#define ARCHIVE LOCALE_DIR "/locale-archive"
#define ARCHIVE_MAGIC 0xde020109u
#define NUMERIC_MAGIC (0x20031115u ^ 1)	/* glibc's LIMAGIC(LC_NUMERIC) */
#define NUMERIC_CAT 1			/* LC_NUMERIC in glibc's numbering */
#define NUMERIC_CODESET 5		/* _NL_NUMERIC_CODESET's index */
#define NCATS 13			/* glibc's __LC_LAST */
#define NAME_MAX_LEN 255		/* glibc ignores longer names */

/* The parts of language[_territory][.codeset][@modifier], as glibc's
 * _nl_explode_name splits them, and which are there (glibc's XPG_ bits). */
enum { HAS_NORM = 1, HAS_CODESET = 2, HAS_TERR = 4, HAS_MOD = 8 };
struct locname {
	const char *lang, *terr, *codeset, *mod;
	int lang_len, terr_len, codeset_len, mod_len;
	char norm[64];          /* the codeset as glibc normalizes it */
	int mask;
};

struct map {
	const unsigned char *p;
	size_t len;
};

/* glibc's _nl_normalize_codeset: letters and digits only, lower case,
 * "iso" before one of only digits ("UTF-8" -> "utf8", "8859-1" -> "iso88591"). */
static void codeset_normalize(const char *s, size_t n, char *out, size_t size)
{
	size_t k = 0, i;
	int digits = 1;

	for (i = 0; i < n; i++)
		if ((s[i] | 0x20) >= 'a' && (s[i] | 0x20) <= 'z')
			digits = 0;
	if (digits)
		k = (size_t)snprintf(out, size, "iso");
	for (i = 0; i < n && k + 1 < size; i++) {
		char c = s[i];
		if (c >= 'A' && c <= 'Z')
			out[k++] = (char)(c | 0x20);
		else if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
			out[k++] = c;
	}
	out[k] = '\0';
}

/* Split NAME; -1 for a name glibc would not load from a file
 * (C and POSIX are built in, and a name with '/' leash does not follow). */
static int locname_split(const char *name, struct locname *n)
{
	size_t len = strlen(name);

	if (!len || len > NAME_MAX_LEN || strchr(name, '/') ||
	    !strcmp(name, "C") || !strcmp(name, "POSIX"))
		return -1;
	memset(n, 0, sizeof *n);
	n->lang = name;
	n->lang_len = (int)strcspn(name, "_.@");
	name += n->lang_len;
	if (*name == '_') {
		n->terr = ++name, n->mask |= HAS_TERR;
		name += n->terr_len = (int)strcspn(name, ".@");
	}
	if (*name == '.') {
		n->codeset = ++name, n->mask |= HAS_CODESET;
		name += n->codeset_len = (int)strcspn(name, "@");
		codeset_normalize(n->codeset, (size_t)n->codeset_len,
				  n->norm, sizeof n->norm);
		if (n->codeset_len &&
		    (strlen(n->norm) != (size_t)n->codeset_len ||
		     memcmp(n->norm, n->codeset, (size_t)n->codeset_len)))
			n->mask |= HAS_NORM;
	}
	if (*name == '@')
		n->mod = ++name, n->mod_len = (int)strlen(name), n->mask |= HAS_MOD;
	return 0;
}

/* The name for one combination of parts, as glibc's _nl_make_l10nflist. */
static void locname_build(const struct locname *n, int parts, char *out,
			  size_t size)
{
	snprintf(out, size, "%.*s%s%.*s%s%.*s%s%s%s%.*s",
		 n->lang_len, n->lang,
		 parts & HAS_TERR ? "_" : "", parts & HAS_TERR ? n->terr_len : 0,
		 n->terr ? n->terr : "",
		 parts & HAS_CODESET ? "." : "",
		 parts & HAS_CODESET ? n->codeset_len : 0,
		 n->codeset ? n->codeset : "",
		 parts & HAS_NORM ? "." : "", parts & HAS_NORM ? n->norm : "",
		 parts & HAS_MOD ? "@" : "", parts & HAS_MOD ? n->mod_len : 0,
		 n->mod ? n->mod : "");
}

static int map_open(const char *path, struct map *m)
{
	struct stat st;
	void *p;
	/* O_NONBLOCK: a FIFO planted in LOCPATH must not hang the parse. */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size <= 0 ||
	    (p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd,
		      0)) == MAP_FAILED) {
		close(fd);
		return -1;
	}
	close(fd);
	m->p = p;
	m->len = (size_t)st.st_size;
	return 0;
}

static void map_close(struct map *m)
{
	munmap((void *)m->p, m->len);
}

/* String I of a compiled locale category (LEN bytes at P), or NULL. */
static const char *category_string(const unsigned char *p, size_t len,
				   uint32_t i)
{
	uint32_t head[2], off;

	if (len < sizeof head)
		return NULL;
	memcpy(head, p, sizeof head);
	if (head[0] != NUMERIC_MAGIC || head[1] <= i ||
	    head[1] > (len - sizeof head) / 4)
		return NULL;
	memcpy(&off, p + sizeof head + 4 * i, 4);
	if (off >= len || !memchr(p + off, '\0', len - off))
		return NULL;
	return (const char *)p + off;
}

/* The decimal point of an LC_NUMERIC category into BUF: its length, or
 * -1 if the category is malformed. */
static int numeric_point(const unsigned char *p, size_t len, char *buf)
{
	const char *s = category_string(p, len, 0);
	size_t n = s ? strlen(s) : 0;

	if (!n || n >= DECPOINT_MAX)
		return -1;
	memcpy(buf, s, n + 1);
	return (int)n;
}

/* The archive's record of NAME (with its codeset normalized, as glibc
 * looks it up), found by a walk of the name table: -1 if absent. */
static int archive_point(const char *name, char *buf)
{
	struct map m;
	uint32_t head[5], ent[3], rec[2];
	size_t nlen = strlen(name) + 1;
	int r = -1;

	if (map_open(ARCHIVE, &m) < 0)
		return -1;
	memcpy(head, m.p, m.len < sizeof head ? 0 : sizeof head);
	if (m.len < sizeof head || head[0] != ARCHIVE_MAGIC ||
	    head[2] > m.len || head[4] > (m.len - head[2]) / sizeof ent)
		goto out;
	for (uint32_t i = 0; i < head[4] && r < 0; i++) {
		memcpy(ent, m.p + head[2] + i * sizeof ent, sizeof ent);
		if (!ent[1] || ent[1] > m.len - nlen ||
		    memcmp(m.p + ent[1], name, nlen))
			continue;
		/* A record: refs, then {offset, length} per category. */
		size_t at = (size_t)ent[2] + 4 + NUMERIC_CAT * sizeof rec;
		if (ent[2] > m.len || m.len - ent[2] < 4 + NCATS * sizeof rec)
			break;
		memcpy(rec, m.p + at, sizeof rec);
		if (rec[0] <= m.len && rec[1] <= m.len - rec[0])
			r = numeric_point(m.p + rec[0], rec[1], buf);
		break;
	}
out:
	map_close(&m);
	return r;
}

/* DIR/NAME/LC_NUMERIC: -1 if absent or malformed, -2 if its codeset is
 * not the one the locale name asked for (glibc then gives up). */
static int file_point(const char *dir, size_t dlen, const char *name,
		      const struct locname *n, char *buf)
{
	char path[4096], norm[64];
	struct map m;
	int r;

	if ((size_t)snprintf(path, sizeof path, "%.*s/%s/LC_NUMERIC",
			     (int)dlen, dir, name) >= sizeof path ||
	    map_open(path, &m) < 0)
		return -1;
	r = numeric_point(m.p, m.len, buf);
	const char *cs = category_string(m.p, m.len, NUMERIC_CODESET);
	if (r >= 0 && n->codeset_len) {
		/* glibc compares through iconv's aliases; the names will do. */
		codeset_normalize(cs ? cs : "", cs ? strlen(cs) : 0, norm,
				  sizeof norm);
		if (strcmp(norm, n->norm))
			r = -2;
	}
	map_close(&m);
	return r;
}

/* Every combination of the name's parts, most specific first, in every
 * directory of DIRS (':'-separated), as glibc's _nl_find_locale. */
static int dirs_point(const char *dirs, const struct locname *n, char *buf)
{
	char name[NAME_MAX_LEN + 80];

	for (int parts = n->mask; parts >= 0; parts--) {
		if ((parts & ~n->mask) ||
		    ((parts & HAS_CODESET) && (parts & HAS_NORM)))
			continue;
		locname_build(n, parts, name, sizeof name);
		for (const char *d = dirs; *d; d += *d == ':') {
			size_t dlen = strcspn(d, ":");
			int r = dlen ? file_point(d, dlen, name, n, buf) : -1;
			if (r != -1)
				return r;
			d += dlen;
		}
	}
	return -1;
}

static const char *env_name(void)
{
	static const char *const vars[] = { "LC_ALL", "LC_NUMERIC", "LANG" };

	for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
		const char *v = getenv(vars[i]);
		if (v && *v)
			return v;
	}
	return NULL;
}

size_t decpoint_lookup(char buf[DECPOINT_MAX])
{
	const char *name = env_name(), *locpath = getenv("LOCPATH");
	char dirs[4096], archived[NAME_MAX_LEN + 80];
	struct locname n;
	int r = -1;

	if (!name || locname_split(name, &n) < 0)
		return 0;
	if (locpath && *locpath) {
		/* glibc skips the archive then, and searches its own
		 * directory after LOCPATH's. */
		snprintf(dirs, sizeof dirs, "%s:%s", locpath, LOCALE_DIR);
	} else {
		snprintf(dirs, sizeof dirs, "%s", LOCALE_DIR);
		if (n.mask & HAS_NORM)
			locname_build(&n, n.mask & ~HAS_CODESET, archived,
				      sizeof archived);
		r = archive_point(n.mask & HAS_NORM ? archived : name, buf);
	}
	if (r < 0)
		r = dirs_point(dirs, &n, buf);
	if (r <= 0 || !strcmp(buf, "."))
		return 0;
	return (size_t)r;
}
