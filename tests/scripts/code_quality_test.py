"""Guards of the scheduler's and the pixel-shader front end's code quality (docs/compiler.md,
"Tuning so far", fourth round), on shaders of tests/shaderdb/graphics for Barts and Cayman:

- ui.frag picks between two expressions that read inputs (`text ? colour.a * t : t * colour`):
  with its input reads moved to the top of the program (compiler input_hoisting.cpp) NIR
  flattens the branch into selects, so the program has no JUMP/ELSE and uses no stack;
- terrain.frag and lit_textured.frag: ALU groups at most what the fifth round reached (the
  bundle heights, the fetch-aware window, the early end of clauses before a ready fetch and the
  slot preference of free operations in schedule.cpp); terrain.frag took 33 groups on Barts and
  35 on Cayman before the fourth round;
- lit_textured.frag on Barts and ui.frag on Cayman: GPRs at most r600g's 13 and what the
  register allocator's slot changes reached (regalloc.cpp: a vector operation takes a free slot
  of its group when its own channel would cost a GPR); without them 14 and 4;
- skinned.vert on Barts: ALU groups at most 35 (r600g 38): t-slot operations keep a read port
  for operands whose channel the allocator chooses (schedule.cpp ports_with); taken as free,
  47 groups, the emitter splitting 18 of them for bank-swizzle read-port conflicts;
- fog_tonemap.frag on Barts: ALU groups at most 24 (r600g 25): its vignette's DOT4 goes beside
  a transcendental of the fog chain when nothing else would take the vector slots (27 when a
  bundle went only into an empty group).

  code_quality_test.py TERAKAN_COMPILE SHADERDB_GRAPHICS_FOLDER"""
import os
import re
import sys

from compiled_listing import compile_listing

compile_tool, folder = sys.argv[1:3]
STATS = re.compile(r'^(\w+): r600g: [FV]S shader: (\d+) dw, (\d+) gprs, (\d+) alu_groups, (\d+) loops, (\d+) cf, '
                   r'(\d+) stack$', re.M)
# Most ALU groups allowed (the fifth round's figures; r600g 22.3.6 has terrain 24 / 26 and
# lit_textured 95 / 115 on Barts / Cayman, see docs/compiler.md). Without the early clause end
# before a taller fetch they were 26 / 29 and 81 / 102.
MOST_GROUPS = {('barts', 'terrain.frag'): 23, ('cayman', 'terrain.frag'): 24,
               ('barts', 'lit_textured.frag'): 65, ('cayman', 'lit_textured.frag'): 92,
               ('barts', 'skinned.vert'): 35, ('barts', 'fog_tonemap.frag'): 24}

# Most GPRs allowed (docs/compiler.md, "Register allocation").
MOST_GPRS = {('barts', 'lit_textured.frag'): 13, ('cayman', 'ui.frag'): 3}


def compile_fs(chip, name):
    output, dumps, stats = compile_listing(compile_tool, chip, os.path.join(folder, name), STATS)
    return output + dumps, stats


for chip in ['barts', 'cayman']:
    listing, stats = compile_fs(chip, 'ui.frag')
    assert int(stats.group(7)) == 0, (chip, 'ui.frag uses the stack', stats.group(0))
    assert not re.search(r'^\d{4}\s+(JUMP|ELSE)\b', listing, re.M), (chip, 'ui.frag still branches', listing)
    for (limit_chip, name), most in MOST_GROUPS.items():
        if limit_chip != chip:
            continue
        _, stats = compile_fs(chip, name)
        assert int(stats.group(4)) <= most, (chip, name, stats.group(0), 'at most', most)
    for (limit_chip, name), most in MOST_GPRS.items():
        if limit_chip != chip:
            continue
        listing, _ = compile_fs(chip, name)
        gprs = re.search(r'^\w+: dw: \d+, gprs: (\d+),', listing, re.M)
        assert gprs and int(gprs.group(1)) <= most, (chip, name, 'GPRs at most', most, gprs and gprs.group(0))
print('code quality: ui.frag without branches, terrain.frag, lit_textured.frag, skinned.vert and fog_tonemap.frag within their group counts, '
      'lit_textured.frag (Barts) and ui.frag (Cayman) within their GPRs')
