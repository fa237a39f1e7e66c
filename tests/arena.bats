#!/usr/bin/env bats
# SPDX-License-Identifier: ISC
# leash's malloc (lib/sys/arena.c): alignment, zeroing, growth in place and
# by copy, the mmap path past the arena, size overflows.  No root needed.

load helpers

@test "arena: malloc, calloc, realloc and free keep their contracts" {
	local check=${ARENA_CHECK:-${LEASH_BUILDDIR:-$TOP/build}/arena-check}
	[[ -x $check ]] || skip "build/arena-check not built"
	run "$check"
	[[ $status != 77 ]] || skip "$output"
	assert_status 0
	assert_output ok
}
