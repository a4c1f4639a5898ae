#!/usr/bin/env python3
"""Static SASS count of a kernel's main loop (the largest backward branch).

  python3 loop_count.py FILE.sass NAME-SUBSTRING [UNROLL]

Prints the instructions between the loop's head and its back edge divided by
UNROLL (instructions per row of an unrolled loop) and a histogram by opcode.
A static count: branches not taken at run time are counted too, so the
harness (swe_hot.cu) compiles the slow paths out before counting.
"""
import collections
import re
import sys

text = open(sys.argv[1]).read()
want = sys.argv[2]
unroll = int(sys.argv[3]) if len(sys.argv) > 3 else 1
for f in re.split(r'\n\s*Function : ', text)[1:]:
    name = f.split('\n', 1)[0].strip()
    if want not in name:
        continue
    ins = [(int(m.group(1), 16), m.group(2).strip()) for m in re.finditer(r'/\*([0-9a-f]{4,})\*/\s+([^;]*);', f)]
    loops = []
    for a, t in ins:
        m = re.search(r'\bBRA\b.*?(0x[0-9a-f]+)', t)
        if m and int(m.group(1), 16) < a:
            loops.append((a - int(m.group(1), 16), int(m.group(1), 16), a))
    if not loops:
        print(name[:80], 'no loop')
        continue
    _, lo, hi = max(loops)
    body = [t for a, t in ins if lo <= a <= hi and not t.startswith('NOP')]
    ops = collections.Counter(re.sub(r'^@!?U?P\w+\s+', '', t).split()[0].split('.')[0] for t in body)
    print(f"{name[:100]}: loop {len(body)} instructions, {len(body) / unroll:.1f} per row")
    print('  ', ', '.join(f'{k}:{v}' for k, v in ops.most_common(40)))
