"""terakan-disasm on objects llc-14 made for each class, and on bad input.

  disasm_test.py TERAKAN_DISASM LLC CORPUS_FILE"""
import os
import subprocess
import sys
import tempfile

tool, llc, source = sys.argv[1:4]


def run(arguments):
    return subprocess.run([tool] + arguments, capture_output=True, text=True, timeout=60)


with tempfile.TemporaryDirectory() as folder:
    for cpu, expected in [('cypress', ['END_OF_PROGRAM', 't: MULLO_INT']),
                          ('barts', ['END_OF_PROGRAM', 't: MULLO_INT']),
                          ('cayman', ['CF_END', 'w: MULLO_INT'])]:
        obj = os.path.join(folder, cpu + '.o')
        subprocess.run([llc, '-march=r600', '-mcpu=' + cpu, '-filetype=obj', source, '-o', obj],
                       check=True)
        result = run(['--chip', cpu.upper(), obj])
        assert result.returncode == 0, result.stderr
        assert 'ALU clause @' in result.stdout, result.stdout
        for text in expected:
            assert text in result.stdout, '%s: %r missing:\n%s' % (cpu, text, result.stdout)
        fields = run(['--chip', cpu, '--fields', obj])
        assert fields.returncode == 0 and 'ALU_INST:' in fields.stdout, fields.stdout
        print('%s: %d lines' % (cpu, result.stdout.count('\n')))

    # Raw dwords as hex text: one Cayman CF_END.
    hex_file = os.path.join(folder, 'end.hex')
    with open(hex_file, 'w') as out:
        out.write('00000000 88000000\n')
    result = run(['--chip', 'cayman', '--hex', hex_file])
    assert result.returncode == 0 and 'CF_END' in result.stdout, result.stdout + result.stderr

    # Bad input: an error message and exit status 1, never a crash.
    garbage = os.path.join(folder, 'garbage.bin')
    with open(garbage, 'wb') as out:
        out.write(bytes(range(7, 7 + 64)))
    result = run(['--chip', 'cypress', garbage])
    assert result.returncode == 1, (result.returncode, result.stderr)
    assert 'at dword' in result.stderr, result.stderr
    result = run(['--chip', 'r300', hex_file])
    assert result.returncode == 2 and 'unknown chip' in result.stderr, result.stderr
print('terakan-disasm ok')
