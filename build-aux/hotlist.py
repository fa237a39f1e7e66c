#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""hotlist.py: regenerate build-aux/hot.ld from what leash runs.

usage: build-aux/hotlist.py LEASH MAP >build-aux/hot.ld.new

LEASH is a static build (with its link map MAP: make LDFLAGS=-Wl,-Map,MAP).
Each scenario below runs under valgrind's lackey, which logs every
instruction fetch and data load of leash and of its forked child until
the exec; each address is mapped back to the input section of the link
map that holds it.  The script then prints a linker script that puts,
before the default .text:

  .rodata.first  the read-only data the waiting supervisor of a plain -t
                 and of a -u launch (with and without its cgroup, with a
                 pty) touched, in that order
  .text.hot      the code of those parents: the plain -t's first, then the
                 -u setup's
  .text.warm     the code only the forked children run before their exec,
                 then that of the rare paths below (a deadline's kill, -v,
                 a missing command)

so that each kind of launch maps the fewest 64 KiB fault-around windows
of the binary (a waiting process keeps what it mapped in its Rss; the
child's own mappings end at its exec).  Input sections are named by
section and, for libc, libcap and crt objects, by archive member; leash's
own objects are LTO output with random names, so by section name only
(with -ffunction-sections each function has its own: .text.NAME).

Run it as root (the -u scenarios) with valgrind installed, on the layout
to regenerate (its own traces name what it placed), and once more on the
result (it settles in a pass or two).  Every string literal goes first
whether it was seen or not: the kernel reads a path passed to a syscall
without a load lackey logs, and the compiler files a string that several
functions use under one of them; long texts (--help) are arrays, in the
default .rodata.  Re-run it when the code that a launch runs changes; a
name that no longer matches costs memory, never correctness.
"""
import bisect
import glob
import os
import re
import subprocess
import sys
import tempfile

# (group, LEASH_WAIT or None, needs a terminal, argv after the program)
SCENARIOS = [
    ('t', None, False, ['-t', '10', 'true']),
    ('t', 'thread', False, ['-t', '10', 'true']),
    ('t', 'pidfd', False, ['-t', '10', 'true']),
    ('t', 'poll', False, ['-t', '10', 'true']),
    ('t', None, False, ['@timeout', '10', 'true']),
    ('u', None, False, ['-u', 'nobody', '--cgroup=off', '-t', '10', 'true']),
    ('u', None, False, ['-u', 'nobody', '-t', '10', 'true']),
    ('u', 'pidfd', False, ['-u', 'nobody', '-t', '10', 'true']),
    ('u', None, True, ['-u', 'nobody', '-t', '10', 'sh', '-c', 'echo x; sleep 0.2']),
    ('rare', None, False, ['-t', '0.05', 'sleep', '1']),
    ('rare', None, False, ['-v', '-t', '10', 'true']),
    ('rare', None, False, ['-t', '10', '/nonexistent/command']),
    ('rare', None, False, ['-u', 'nobody', '-t', '10', '/nonexistent/command']),
]


def sections(mapfile):
    """(address, size, section, file) of every input section placed."""
    out, started, pend = [], False, None
    line_re = re.compile(r'^ (\.\S+)?\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+(\S.*)$')
    for line in open(mapfile):
        if line.startswith('Linker script and memory map'):
            started = True
            continue
        if not started:
            continue
        m = re.match(r'^ (\.\S+)\s*$', line)
        if m:
            pend = m.group(1)
            continue
        m = line_re.match(line)
        if m:
            sec = m.group(1) or pend
            addr, size = int(m.group(2), 16), int(m.group(3), 16)
            if sec and addr and size:
                out.append((addr, size, sec, m.group(4).strip()))
        pend = None
    out.sort()
    return out


def trace(leash, wait, tty, argv, secs, tmp):
    """{'parent': [(section, file)...], 'child': [...]} in first-touch order."""
    starts = [s[0] for s in secs]
    prog = leash
    if argv[0].startswith('@'):     # another personality: a link named so
        prog = os.path.join(tmp, argv[0][1:])
        if not os.path.exists(prog):
            os.symlink(os.path.abspath(leash), prog)
        argv = argv[1:]
    for f in glob.glob(os.path.join(tmp, 'lk.*')):
        os.unlink(f)
    cmd = ['valgrind', '--tool=lackey', '--trace-mem=yes',
           '--log-file=' + os.path.join(tmp, 'lk.%p'), prog] + argv
    env = dict(os.environ)
    env.pop('LEASH_WAIT', None)
    if wait:
        env['LEASH_WAIT'] = wait
    if tty:     # a terminal on fd 0, so that -u gets its pty
        cmd = ['script', '-qec', ' '.join("'%s'" % a for a in cmd), '/dev/null']
    subprocess.run(cmd, env=env, stdin=None if tty else subprocess.DEVNULL,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    logs = sorted(glob.glob(os.path.join(tmp, 'lk.*')),
                  key=lambda f: int(f.rsplit('.', 1)[1]))
    result = {'parent': [], 'child': []}
    for n, log in enumerate(logs):
        seen, order = set(), []
        for line in open(log):
            p = line.split()
            if len(p) != 2 or p[0] not in ('I', 'L', 'M'):
                continue
            a = int(p[1].split(',')[0], 16)
            i = bisect.bisect_right(starts, a) - 1
            if i < 0 or a >= secs[i][0] + secs[i][1] or i in seen:
                continue
            seen.add(i)
            order.append((secs[i][2], secs[i][3]))
        result['parent' if n == 0 else 'child'] += order
    return result


def pattern(sec, path):
    """A linker script input section description for SEC of PATH."""
    base = os.path.basename(path)
    m = re.match(r'^(.*)\((.*)\)$', base)
    if m and m.group(1).startswith(('libc.a', 'libcap.a')):
        return '*%s:%s(%s)' % (m.group(1), m.group(2), sec)
    if re.match(r'^[A-Za-z0-9_]*crt\w*\.o$', base):
        return '*%s(%s)' % (base, sec)
    return '*(%s)' % sec


def rodata_of(sec, pat):
    """The read-only data that hot code SEC (placed by PAT) may use
    unseen: the kernel reads a syscall's arguments (a path, a signal mask)
    without a load that lackey logs.  A libc member's whole rodata; a
    function's own string and constant sections."""
    m = re.match(r'^(\*lib\w*\.a:[^(]+)\(', pat)
    if m:
        return ['%s(.rodata .rodata.*)' % m.group(1)]
    if not sec.startswith('.text.') or pat != '*(%s)' % sec:
        return []
    names = {sec[len('.text.'):]}
    names.add(re.sub(r'\.(part|constprop|isra|cold|lto_priv)\..*$', '', sec[len('.text.'):]))
    return ['*(.rodata.%s .rodata.%s.*)' % (n, n) for n in sorted(names)
            if not n.startswith('startup')]


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    leash, mapfile = sys.argv[1:]
    secs = sections(mapfile)
    groups = {}
    with tempfile.TemporaryDirectory() as tmp:
        for group, wait, tty, argv in SCENARIOS:
            r = trace(leash, wait, tty, argv, secs, tmp)
            for who in ('parent', 'child'):
                groups.setdefault((group, who), []).extend(r[who])
    placed, lists = set(), {'rodata': [], 'hot': [], 'warm': []}
    order = [(('t', 'parent'), 'hot'), (('u', 'parent'), 'hot'),
             (('t', 'child'), 'warm'), (('u', 'child'), 'warm'),
             (('rare', 'parent'), 'warm'), (('rare', 'child'), 'warm')]
    for key, where in order:
        for sec, path in groups.get(key, []):
            pat = pattern(sec, path)
            if pat in placed:
                continue
            if sec.startswith('.rodata') and where == 'hot':
                lists['rodata'].append(pat)
            elif sec.startswith('.text') and sec not in ('.text.unlikely',):
                lists[where].append(pat)
                if where == 'hot':
                    lists['rodata'] += [r for r in rodata_of(sec, pat)
                                        if r not in lists['rodata']]
            else:
                continue
            placed.add(pat)
    # Every string literal, seen or not (see above).
    lists['rodata'] = [r for r in lists['rodata'] if '.str1.' not in r or r.startswith('*lib')]
    lists['rodata'].append('*(.rodata.str1.* .rodata.*.str1.*)')
    print('/* SPDX-License-Identifier: ISC */\n/* hot.ld' + HEADER)
    for name, key in (('.rodata.first', 'rodata'), ('.text.hot', 'hot'),
                      ('.fini.first', None), ('.text.warm', 'warm')):
        if not key:     # exit() runs _fini: in the hot window too
            print('\t.fini.first : { KEEP (*(SORT_NONE(.fini))) }')
            continue
        print('\t%s : {' % name)
        for pat in lists[key]:
            print('\t\t%s' % pat)
        print('\t}')
    print('}\nINSERT BEFORE .text;')


HEADER = """ (made by build-aux/hotlist.py, which says how and why):
 * what a waiting supervisor runs first, in as few 64 KiB fault-around
 * windows of the binary as can be: the read-only data that a plain -t
 * and a -u launch touch, then their code (-t's first), then the code
 * that only the children before exec and the rare paths run.  Everything
 * else keeps the default layout, after these.  Only the layout depends
 * on this list: a name that no longer matches costs memory, never
 * correctness.  Used by the static build (configure checks that the
 * linker takes it). */
SECTIONS
{"""

if __name__ == '__main__':
    main()
