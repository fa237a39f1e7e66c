/* SPDX-License-Identifier: ISC */
/* wcn: the proc connector: a netlink socket subscribed to fork, exec
 * and uid events, read in batches. */
#define _GNU_SOURCE
#include "watch/internal.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/cn_proc.h>
#include <linux/connector.h>
#include <linux/netlink.h>

#include "sys/sys.h"

/* 8 MiB: ~12k events of ~660 B queued before ENOBUFS (watch.md 1.3). */
#define W_RCVBUF (8 << 20)
#define W_BATCH 32
#define W_MSG 1024

/* Linux 6.6's struct proc_input: an event mask with the op; older
 * kernels ignore a message of this length, so LISTEN goes first alone. */
struct w_input { uint32_t op; uint32_t mask; };

static int w_cn_send(int s, const void *data, uint16_t len)
{
	char buf[NLMSG_SPACE(sizeof(struct cn_msg) + 16)];
	struct nlmsghdr *nh = (struct nlmsghdr *)buf;
	struct cn_msg *cn = NLMSG_DATA(nh);

	memset(buf, 0, sizeof buf);
	nh->nlmsg_len = NLMSG_LENGTH(sizeof *cn + len);
	nh->nlmsg_type = NLMSG_DONE;
	nh->nlmsg_pid = (uint32_t)getpid();
	cn->id.idx = CN_IDX_PROC;
	cn->id.val = CN_VAL_PROC;
	cn->len = len;
	memcpy(cn->data, data, len);
	return send(s, buf, nh->nlmsg_len, 0) < 0 ? -1 : 0;
}

static int w_cn_subscribe(int s)
{
	uint32_t op = PROC_CN_MCAST_LISTEN;
	struct w_input in = { PROC_CN_MCAST_LISTEN,
			      PROC_EVENT_FORK | PROC_EVENT_EXEC | PROC_EVENT_UID };

	if (w_cn_send(s, &op, sizeof op) < 0)
		return -1;
	/* 6.6+: only these three (no EXIT: half the traffic). */
	return w_cn_send(s, &in, sizeof in);
}

int w_cn_open(struct watch *w, const char **what)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK,
				  .nl_groups = CN_IDX_PROC };
	int size = W_RCVBUF;

	w->sock = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK,
			 NETLINK_CONNECTOR);
	if (w->sock < 0) {
		*what = errno == EPROTONOSUPPORT || errno == EAFNOSUPPORT ?
			"no proc connector in this kernel (CONFIG_CONNECTOR "
			"and CONFIG_PROC_EVENTS)" : "cannot open a netlink "
			"connector socket";
		return -1;
	}
	sa.nl_pid = 0;
	if (bind(w->sock, (struct sockaddr *)&sa, sizeof sa) < 0) {
		*what = errno == EPERM ? "cannot listen to the proc connector "
			"(needs CAP_NET_ADMIN)" : "cannot bind the proc "
			"connector socket";
		return -1;
	}
	/* Never NETLINK_NO_ENOBUFS: ENOBUFS is the only sign of a loss. */
	if (setsockopt(w->sock, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof size))
		setsockopt(w->sock, SOL_SOCKET, SO_RCVBUF, &size, sizeof size);
	if (w_cn_subscribe(w->sock) < 0) {
		*what = "cannot subscribe to the proc connector";
		return -1;
	}
	return 0;
}

static void w_cn_parse(const struct proc_event *ev, struct w_event *e)
{
	memset(e, 0, sizeof *e);
	e->what = ev->what;
	e->ts = ev->timestamp_ns;
	switch (ev->what) {
	case PROC_EVENT_FORK:
		e->ptgid = ev->event_data.fork.parent_tgid;
		e->ppid = ev->event_data.fork.parent_pid;
		e->pid = ev->event_data.fork.child_pid;
		e->tgid = ev->event_data.fork.child_tgid;
		break;
	case PROC_EVENT_EXEC:
		e->pid = ev->event_data.exec.process_pid;
		e->tgid = ev->event_data.exec.process_tgid;
		break;
	case PROC_EVENT_UID:
		e->pid = ev->event_data.id.process_pid;
		e->tgid = ev->event_data.id.process_tgid;
		e->ruid = ev->event_data.id.r.ruid;
		e->euid = ev->event_data.id.e.euid;
		break;
	default:
		break;
	}
}

/* Each datagram holds one nlmsghdr + cn_msg + proc_event. */
static void w_cn_dispatch(struct watch *w, const char *buf, size_t n,
			  void (*fn)(struct watch *, const struct w_event *))
{
	const struct nlmsghdr *nh = (const struct nlmsghdr *)buf;

	for (; NLMSG_OK(nh, n); nh = NLMSG_NEXT(nh, n)) {
		const struct cn_msg *cn = NLMSG_DATA(nh);
		struct proc_event ev;
		struct w_event e;

		if (nh->nlmsg_type == NLMSG_ERROR || nh->nlmsg_type == NLMSG_NOOP ||
		    cn->id.idx != CN_IDX_PROC || cn->len < sizeof ev)
			continue;
		/* cn_msg's data sits 4 bytes past an 8-byte boundary and
		 * proc_event holds a u64: copied, not read in place (an
		 * unaligned load, which armv7 may refuse). */
		memcpy(&ev, cn->data, sizeof ev);
		w_cn_parse(&ev, &e);
		fn(w, &e);
	}
}

int w_cn_read(struct watch *w, void (*fn)(struct watch *, const struct w_event *))
{
	static BSS_PAGE char bufs[W_BATCH][W_MSG];
	struct mmsghdr m[W_BATCH];
	struct iovec iov[W_BATCH];

	for (;;) {
		for (int i = 0; i < W_BATCH; i++) {
			iov[i] = (struct iovec){ bufs[i], W_MSG };
			m[i].msg_hdr = (struct msghdr){ .msg_iov = &iov[i],
							.msg_iovlen = 1 };
		}
		int n = recvmmsg(w->sock, m, W_BATCH, MSG_DONTWAIT, NULL);

		if (n < 0)
			return errno == EAGAIN || errno == EINTR ? 0 : -1;
		for (int i = 0; i < n; i++)
			w_cn_dispatch(w, bufs[i], m[i].msg_len, fn);
		if (n < W_BATCH)
			return 0;
	}
}

void w_cn_drain(struct watch *w)
{
	char buf[W_MSG];

	while (recv(w->sock, buf, sizeof buf, MSG_DONTWAIT) >= 0 ||
	       errno == ENOBUFS || errno == EINTR)
		;
}
