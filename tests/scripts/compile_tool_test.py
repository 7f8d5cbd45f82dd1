"""terakan-compile on every corpus shader (GLSL in, through glslangValidator) for a VLIW5 chip
and Cayman: disassembly and statistics for the ones the compiler handles, the refusal message
and exit status 1 for the ones it must refuse; plus bad input and TERAKAN_DEBUG dumps.

  compile_tool_test.py TERAKAN_COMPILE CORPUS_FOLDER"""
import os
import subprocess
import sys

tool, folder = sys.argv[1:3]


def run(arguments, env=None):
    return subprocess.run([tool] + arguments, capture_output=True, text=True, timeout=120,
                          env=env)


count = 0
for name in sorted(os.listdir(folder)):
    if not name.endswith('.comp'):
        continue
    path = os.path.join(folder, name)
    with open(path) as source:
        refused = any(line.startswith('// refused:') for line in source)
    for chip, end in [('barts', 'END_OF_PROGRAM'), ('Cayman', 'CF_END')]:
        result = run(['--chip', chip, path])
        if refused:
            assert result.returncode == 1, (name, chip, result.stdout)
            assert 'not supported' in result.stderr or 'only 32-bit' in result.stderr, result.stderr
        else:
            assert result.returncode == 0, (name, chip, result.stderr)
            assert 'ALU clause @' in result.stdout and end in result.stdout, result.stdout
            assert chip.upper() + ': dw: ' in result.stdout and 'occupancy' in result.stdout, result.stdout
        count += 1

assert run(['--chip', 'NOTACHIP', path]).returncode == 2
garbage = os.path.join(os.environ.get('TMPDIR', '/tmp'), 'terakan-compile-garbage.spv')
with open(garbage, 'wb') as out:
    out.write(bytes([0x03, 0x02, 0x23, 0x07]) + bytes(range(40)))
bad = run([garbage])
os.unlink(garbage)
assert bad.returncode == 1 and 'SPIR-V' in bad.stderr, bad.stderr

env = dict(os.environ, TERAKAN_DEBUG='nir,ir,shaders')
dumped = run(['--stats-only', os.path.join(folder, 'int_add.comp')], env=env)
assert dumped.returncode == 0, dumped.stderr
assert 'terakan: NIR from SPIR-V' in dumped.stderr and 'terakan: shader for' in dumped.stderr
assert 'terakan: backend IR after selection' in dumped.stderr and 'alu clause' in dumped.stderr
# Vertex input options: instance-rate locations with divisors, and dynamic vertex input, whose
# program reads the rates and divisors from driver constants and jumps over the division when no
# divisor differs from 1 (docs/compiler.md, "Dynamic vertex input").
vertex = os.path.join(folder, '..', '..', 'api', 'shaders', 'vertex_input_dynamic.vert')
def alu_groups(result):
    return int(result.stdout.split('alu_groups: ')[1].split(',')[0])
for chip in ['barts', 'Cayman']:
    static = run(['--chip', chip, vertex])
    divided = run(['--chip', chip, '--instance-input', '1', '--instance-input', '2:3', vertex])
    dynamic = run(['--chip', chip, '--dynamic-vertex-input', vertex])
    for result in (static, divided, dynamic):
        assert result.returncode == 0, result.stderr
        assert result.stdout.count('VFETCH') == 3, result.stdout
    assert 'JUMP' not in static.stdout and 'JUMP' in dynamic.stdout, dynamic.stdout
    assert alu_groups(static) < alu_groups(divided) < alu_groups(dynamic), (static.stdout, dynamic.stdout)
    count += 3
assert run(['--instance-input', 'x', vertex]).returncode == 2
print('%d compilations checked' % count)
