/* SPDX-License-Identifier: ISC */
/* aid: Android's fixed ids and per-user name patterns (bionic's
 * grp_pwd.cpp behaviour, re-derived from the AID_* table). */
#include "ident/aid.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define AID_USER_OFFSET 100000UL
#define AID_APP_START 10000UL
#define AID_CACHE_GID_START 20000UL
#define AID_SHARED_GID_START 50000UL
#define AID_ISOLATED_START 90000UL
#define AID_RANGE 10000UL       /* size of each per-user range */
#define AID_USER_MAX 1000UL     /* bionic refuses larger user numbers */

struct aid { unsigned short id; const char *name; };

/* Lower-case AID_* suffixes; three media names differ, as in bionic. */
static const struct aid aid_table[] = {
	{0, "root"}, {1, "daemon"}, {2, "bin"}, {3, "sys"},
	{1000, "system"}, {1001, "radio"}, {1002, "bluetooth"},
	{1003, "graphics"}, {1004, "input"}, {1005, "audio"},
	{1006, "camera"}, {1007, "log"}, {1008, "compass"}, {1009, "mount"},
	{1010, "wifi"}, {1011, "adb"}, {1012, "install"}, {1013, "media"},
	{1014, "dhcp"}, {1015, "sdcard_rw"}, {1016, "vpn"},
	{1017, "keystore"}, {1018, "usb"}, {1019, "drm"}, {1020, "mdnsr"},
	{1021, "gps"}, {1023, "media_rw"}, {1024, "mtp"}, {1026, "drmrpc"},
	{1027, "nfc"}, {1028, "sdcard_r"}, {1029, "clat"},
	{1030, "loop_radio"}, {1031, "mediadrm"}, {1032, "package_info"},
	{1033, "sdcard_pics"}, {1034, "sdcard_av"}, {1035, "sdcard_all"},
	{1036, "logd"}, {1037, "shared_relro"}, {1038, "dbus"},
	{1039, "tlsdate"}, {1040, "mediaex"}, {1041, "audioserver"},
	{1042, "metrics_coll"}, {1043, "metricsd"}, {1044, "webserv"},
	{1045, "debuggerd"}, {1046, "mediacodec"}, {1047, "cameraserver"},
	{1048, "firewall"}, {1049, "trunks"}, {1050, "nvram"}, {1051, "dns"},
	{1052, "dns_tether"}, {1053, "webview_zygote"},
	{1054, "vehicle_network"}, {1055, "media_audio"},
	{1056, "media_video"}, {1057, "media_image"}, {1058, "tombstoned"},
	{1059, "media_obb"}, {1060, "ese"}, {1061, "ota_update"},
	{1062, "automotive_evs"}, {1063, "lowpan"}, {1064, "hsm"},
	{1065, "reserved_disk"}, {1066, "statsd"}, {1067, "incidentd"},
	{1068, "secure_element"}, {1069, "lmkd"}, {1070, "llkd"},
	{1071, "iorapd"}, {1072, "gpu_service"}, {1073, "network_stack"},
	{1074, "gsid"}, {1075, "fsverity_cert"}, {1076, "credstore"},
	{1077, "external_storage"}, {1078, "ext_data_rw"},
	{1079, "ext_obb_rw"}, {1080, "context_hub"},
	{1081, "virtualizationservice"}, {1082, "artd"}, {1083, "uwb"},
	{1084, "thread_network"}, {1085, "diced"}, {1086, "dmesgd"},
	{1087, "jc_weaver"}, {1088, "jc_strongbox"},
	{1089, "jc_identitycred"}, {1090, "sdk_sandbox"},
	{1091, "security_log_writer"}, {1092, "prng_seeder"},
	{1093, "uprobestats"}, {1094, "cros_ec"}, {1095, "mmd"},
	{2000, "shell"}, {2001, "cache"}, {2002, "diag"},
	{3001, "net_bt_admin"}, {3002, "net_bt"}, {3003, "inet"},
	{3004, "net_raw"}, {3005, "net_admin"}, {3006, "net_bw_stats"},
	{3007, "net_bw_acct"}, {3009, "readproc"}, {3010, "wakelock"},
	{3011, "uhid"}, {3012, "readtracefs"}, {3013, "virtualmachine"},
	{9997, "everybody"}, {9998, "misc"}, {9999, "nobody"},
};

#define AID_COUNT (sizeof aid_table / sizeof aid_table[0])

static int fixed_by_name(const char *name, unsigned long *id)
{
	for (size_t i = 0; i < AID_COUNT; i++)
		if (strcmp(aid_table[i].name, name) == 0) {
			*id = aid_table[i].id;
			return 0;
		}
	return -1;
}

static const char *fixed_name(unsigned long id)
{
	for (size_t i = 0; i < AID_COUNT; i++)
		if (aid_table[i].id == id)
			return aid_table[i].name;
	return NULL;
}

/* Decimal digits only (no sign, no blanks), at most MAX; *END after them. */
static int parse_num(const char *s, const char **end, unsigned long max,
		     unsigned long *out)
{
	unsigned long v = 0;

	if (*s < '0' || *s > '9')
		return -1;
	for (; *s >= '0' && *s <= '9'; s++) {
		v = v * 10 + (unsigned long)(*s - '0');
		if (v > max)
			return -1;
	}
	*end = s;
	*out = v;
	return 0;
}

/* N within a per-user range, the whole of S (or up to SUFFIX). */
static int parse_index(const char *s, const char *suffix, unsigned long *n)
{
	const char *end;

	if (parse_num(s, &end, AID_RANGE - 1, n) < 0)
		return -1;
	return strcmp(end, suffix) == 0 ? 0 : -1;
}

/* The part after "uU_": aN, aN_cache (groups), iN or a fixed name. */
static int parse_user_part(const char *s, bool group, unsigned long *appid)
{
	unsigned long n;

	if (s[0] == 'a' && parse_index(s + 1, "", &n) == 0) {
		*appid = AID_APP_START + n;
		return 0;
	}
	if (group && s[0] == 'a' && parse_index(s + 1, "_cache", &n) == 0) {
		*appid = AID_CACHE_GID_START + n;
		return 0;
	}
	if (s[0] == 'i' && parse_index(s + 1, "", &n) == 0) {
		*appid = AID_ISOLATED_START + n;
		return 0;
	}
	return fixed_by_name(s, appid);
}

static int aid_parse(const char *name, bool group, unsigned long *id)
{
	const char *end;
	unsigned long user, n;

	if (fixed_by_name(name, id) == 0)
		return 0;
	if (strncmp(name, "app_", 4) == 0 && parse_index(name + 4, "", &n) == 0) {
		*id = AID_APP_START + n;        /* pre-multi-user bionic */
		return 0;
	}
	if (group && strncmp(name, "all_a", 5) == 0 &&
	    parse_index(name + 5, "", &n) == 0) {
		*id = AID_SHARED_GID_START + n;
		return 0;
	}
	if (name[0] != 'u' || parse_num(name + 1, &end, AID_USER_MAX, &user) < 0 ||
	    *end != '_' || parse_user_part(end + 1, group, &n) < 0)
		return -1;
	*id = user * AID_USER_OFFSET + n;
	return 0;
}

int aid_user_by_name(const char *name, uid_t *id)
{
	unsigned long v;

	if (aid_parse(name, false, &v) < 0) {
		errno = ENOENT;
		return -1;
	}
	*id = (uid_t)v;
	return 0;
}

int aid_group_by_name(const char *name, gid_t *id)
{
	unsigned long v;

	if (aid_parse(name, true, &v) < 0) {
		errno = ENOENT;
		return -1;
	}
	*id = (gid_t)v;
	return 0;
}

int aid_name(unsigned long id, char *buf, size_t size)
{
	unsigned long user = id / AID_USER_OFFSET, appid = id % AID_USER_OFFSET;
	const char *fixed = appid < AID_APP_START ? fixed_name(appid) : NULL;
	int n;

	if (user > AID_USER_MAX)
		n = -1;
	else if (fixed && user == 0)
		n = snprintf(buf, size, "%s", fixed);
	else if (fixed)
		n = snprintf(buf, size, "u%lu_%s", user, fixed);
	else if (appid >= AID_APP_START && appid < AID_APP_START + AID_RANGE)
		n = snprintf(buf, size, "u%lu_a%lu", user, appid - AID_APP_START);
	else if (appid >= AID_ISOLATED_START)
		n = snprintf(buf, size, "u%lu_i%lu", user, appid - AID_ISOLATED_START);
	else
		n = -1;
	if (n < 0) {
		errno = ENOENT;
		return -1;
	}
	if ((size_t)n >= size) {
		errno = ERANGE;
		return -1;
	}
	return 0;
}
