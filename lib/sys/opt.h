/* SPDX-License-Identifier: ISC */
/* opt: getopt_long as glibc does it (messages, abbreviations, permutation
 * or stop-at-first-operand), so the personalities are bit-compatible
 * with the GNU and util-linux tools they replace, also under musl. */
#ifndef LEASH_OPT_H
#define LEASH_OPT_H

#include <stdbool.h>

enum opt_arg { OPT_NONE, OPT_REQUIRED, OPT_OPTIONAL };

struct opt_long {
	const char *name;
	enum opt_arg arg;
	int val;
};

struct opt_state {
	int argc;
	char **argv;
	const char *shorts;     /* "k:s:v"; a leading '+' stops at the first operand */
	const struct opt_long *longs;
	const char *prog;       /* prefix of glibc's messages: argv[0] as given */
	/* Output. */
	int ind;                /* next argv index; operands start here at the end */
	char *arg;
	int opt;                /* the offending option character on '?' */
	char *msg;              /* on '?': glibc's message line (malloc'd,
				 * the caller's to free), NULL without memory */
	/* Internal. */
	int next_char;          /* position inside a cluster like -vk5 */
	int first_operand, last_operand;  /* permutation window */
};

void opt_init(struct opt_state *st, int argc, char **argv, const char *shorts,
	      const struct opt_long *longs, const char *prog);

/* Next option: its value, '?' with glibc's message in st->msg (nothing
 * is printed), or -1 at the end (then argv[st->ind..] are the operands,
 * permuted to the end).  Free st->msg when done (opt_fini). */
int opt_next(struct opt_state *st);

/* Free what the state holds (the last message). */
void opt_fini(struct opt_state *st);

#endif
