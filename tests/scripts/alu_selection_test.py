"""Guards of the ALU selection of issue 13's sixth round (docs/compiler.md, "ALU selection"),
on corpus shaders for Barts and Cayman (tests/compiler/shaders; the corpus test runs the same
shaders against lavapipe, this one checks what was selected and the group counts reached):

- narrow_multiplies.comp: products of operands provably below 2^24 are MUL_UINT24 or
  MULADD_UINT24; the two whose operands are not (25 bits, a negative factor) stay MULLO_INT;
- packing.comp: the packing built-ins' shift-and-mask combinations become BFI_INT;
- unpack_norm.comp: the sign-extending shift pairs become BFE_INT;
- group counts at most what the round reached (before: packing 60 / 50, unpack_norm 34 / 23,
  many_stores 194 / 121 on Cayman / Barts).

  alu_selection_test.py TERAKAN_COMPILE CORPUS_FOLDER"""
import os
import re
import sys

from compiled_listing import compile_listing

compile_tool, folder = sys.argv[1:3]
STATS = re.compile(r'^(\w+): r600g: CS shader: (\d+) dw, (\d+) gprs, (\d+) alu_groups', re.M)
MOST_GROUPS = {('cayman', 'packing.comp'): 49, ('barts', 'packing.comp'): 48,
               ('cayman', 'unpack_norm.comp'): 25, ('barts', 'unpack_norm.comp'): 23,
               ('cayman', 'many_stores.comp'): 192, ('barts', 'many_stores.comp'): 97,
               ('cayman', 'narrow_multiplies.comp'): 19, ('barts', 'narrow_multiplies.comp'): 12}


def compile_cs(chip, name):
    listing, _, stats = compile_listing(compile_tool, chip, os.path.join(folder, name), STATS)
    return listing, int(stats.group(4))


def count(pattern, listing):
    return len(re.findall(pattern, listing, re.M))


for chip in ['barts', 'cayman']:
    listing, _ = compile_cs(chip, 'narrow_multiplies.comp')
    # One MULLO_INT writes a register per product (Cayman's other copies write nothing).
    assert count(r'\bMULLO_INT +R', listing) == 2, (chip, 'MULLO_INT products', listing)
    assert count(r'\bMUL_UINT24\b', listing) >= 4, (chip, 'MUL_UINT24', listing)
    assert count(r'\bMULADD_UINT24\b', listing) >= 2, (chip, 'MULADD_UINT24', listing)
    listing, _ = compile_cs(chip, 'packing.comp')
    assert count(r'\bBFI_INT\b', listing) >= 6, (chip, 'BFI_INT in packing.comp', listing)
    listing, _ = compile_cs(chip, 'unpack_norm.comp')
    assert count(r'\bBFE_INT\b', listing) >= 4, (chip, 'BFE_INT in unpack_norm.comp', listing)
    for (limit_chip, name), most in MOST_GROUPS.items():
        if limit_chip == chip:
            _, groups = compile_cs(chip, name)
            assert groups <= most, (chip, name, groups, 'at most', most)
print('ALU selection: 24-bit products, BFI_INT packing, BFE_INT unpacking, group counts within their limits')
