/* SPDX-License-Identifier: ISC */
/* wscan: every process of /proc classified again by its uid: at start,
 * after lost events or a stop, and as the periodic audit. */
#define _GNU_SOURCE
#include "watch/internal.h"

#include <dirent.h>
#include <stdlib.h>

void w_rescan(struct watch *w)
{
	DIR *d = opendir("/proc");
	struct dirent *e;

	w->st.rescans++;
	w->need_rescan = false;
	if (!d)
		return;
	while ((e = readdir(d))) {
		char *end;
		long pid = strtol(e->d_name, &end, 10);

		if (*end || pid <= 2)
			continue;
		w_consider(w, (pid_t)pid, WATCH_SCAN, 0, 0);
	}
	closedir(d);
}
