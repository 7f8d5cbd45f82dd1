"""terakan-shaderdb on a small folder (tests/shaderdb/small: a vertex/fragment pair, a compute
shader, one shader the compiler refuses and one glslangValidator rejects) for Barts and Cayman:
every line in r600g's format, the totals line equal to the sums of the lines, the refusals
counted and listed without failing the run; usage errors; and terakan-compile's r600g line for
a vertex shader.

  shaderdb_tool_test.py TERAKAN_SHADERDB TERAKAN_COMPILE FOLDER"""
import re
import subprocess
import sys

shaderdb, compile_tool, folder = sys.argv[1:4]
LINE = re.compile(r'^(\S+) - (VS|FS|CS) shader: (\d+) dw, (\d+) gprs, (\d+) alu_groups, (\d+) loops, (\d+) cf, '
                  r'(\d+) stack; alu: \d+, occupancy: [0-9.]+%, literals: \d+, alu_clauses: \d+, tex_clauses: \d+, '
                  r'vtx_clauses: \d+, compile_ms: [0-9.]+$')
TOTAL = re.compile(r'^total \((\w+)\): (\d+) shaders, (\d+) refused, (\d+) vertex/fragment pairs; (\d+) dw, (\d+) gprs, '
                   r'(\d+) alu_groups, (\d+) loops, (\d+) cf, (\d+) stack; alu: \d+, literals: \d+, compile_ms: [0-9.]+$')

for chip in ['barts', 'cayman']:
    result = subprocess.run([shaderdb, '--chip', chip, folder], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, (chip, result.returncode, result.stderr)
    lines = result.stdout.splitlines()
    sums = [0] * 6
    stages = {}
    refused = set()
    totals = None
    for line in lines:
        m = LINE.match(line)
        if m:
            stages[m.group(1)] = m.group(2)
            for i in range(6):
                sums[i] += int(m.group(3 + i))
            assert int(m.group(5)) > 0 and int(m.group(3)) > 0, line
            continue
        m = TOTAL.match(line)
        if m:
            totals = m
            continue
        if ' - refused: ' in line:
            refused.add(line.strip().split(' - ')[0])
            continue
        assert re.match(r'^refused: \d+$', line), 'unexpected line: ' + line
    assert stages == {'ui.vert': 'VS', 'ui.frag': 'FS', 'int_add.comp': 'CS'}, stages
    assert refused == {'refused_sample.frag', 'not_glsl.comp'}, refused
    assert totals, result.stdout
    assert totals.group(1) == chip.upper() and totals.group(2, 3, 4) == ('3', '2', '1'), totals.group(0)
    assert [int(totals.group(5 + i)) for i in range(6)] == sums, (totals.group(0), sums)
    assert 'refused: 2' in lines, result.stdout

for bad in [['--chip', 'NOTACHIP', folder], [folder + '/does-not-exist'], []]:
    result = subprocess.run([shaderdb] + bad, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2, (bad, result.returncode)

result = subprocess.run([compile_tool, '--chip', 'cayman', '--stats-only', folder + '/ui.vert'],
                        capture_output=True, text=True, timeout=60)
assert result.returncode == 0, result.stderr
assert re.search(r'^CAYMAN: r600g: VS shader: \d+ dw, \d+ gprs, \d+ alu_groups, \d+ loops, \d+ cf, \d+ stack$',
                 result.stdout, re.M), result.stdout
print('terakan-shaderdb: format, totals and refusals checked on barts and cayman')
