"""terakan-sim, the command that runs one program on the simulated card, and what it switches on:
TERAKAN_SIM_DUMP (PNGs of the buffers after each draw) and TERAKAN_SIM_TRACE=draws.

  terakan_sim_test.py TERAKAN_SIM SHIM GL_SCENES ICD_MANIFEST OUTPUT_FOLDER

- --help, a bad chip (the message lists the valid ones), no program, an unknown option;
- the program's exit status comes back, and a program that does not exist gives 127;
- --print-shim finds the build tree's library;
- the shim is in PROGRAM only (its children run without it) unless --inherit;
- vulkaninfo through Terakan names the simulated Barts; Debian's r600 GL driver names Cayman;
- --dump: Debian's r600 driver draws scenes on the simulated Cayman; every PNG decodes (our own
  reader below, CRCs checked), is 64x64, the clear's last dump is the clear colour everywhere,
  a triangle's last dump is the picture glReadPixels returned (upside down: the dump is the
  buffer in memory order, and GL keeps row 0 at the bottom), the depth scene dumps its depth
  buffer (cleared to 1.0 where nothing was drawn); --trace draws prints one line per draw."""
import os
import shutil
import struct
import subprocess
import sys
import zlib

launcher, shim, gl_scenes, icd, output = sys.argv[1:6]
base = {key: value for key, value in os.environ.items()
        if key not in ('LD_PRELOAD', 'TERAKAN_SIM_CHIP', 'TERAKAN_SIM_DUMP', 'TERAKAN_SIM_TRACE',
                       'TERAKAN_SIM_SHIM', 'TERAKAN_SIM_PRELOAD_ONCE')}


def run(arguments, environment=None, check_status=None):
    result = subprocess.run([launcher] + arguments, env=environment or base, capture_output=True,
                            text=True, timeout=300)
    if check_status is not None and result.returncode != check_status:
        sys.exit('terakan-sim %s: exit status %d, expected %d\nstdout:\n%s\nstderr:\n%s' % (
            ' '.join(arguments), result.returncode, check_status, result.stdout, result.stderr))
    return result


def load_png(path):
    """(width, height, rows of RGBA bytes) of an 8-bit RGBA PNG; any filter type."""
    with open(path, 'rb') as file:
        data = file.read()
    assert data[:8] == b'\x89PNG\r\n\x1a\n', path
    at, idat, header = 8, b'', None
    while at < len(data):
        length, = struct.unpack('>I', data[at:at + 4])
        kind, body = data[at + 4:at + 8], data[at + 8:at + 8 + length]
        crc, = struct.unpack('>I', data[at + 8 + length:at + 12 + length])
        assert zlib.crc32(kind + body) == crc, '%s: bad CRC in %s' % (path, kind)
        at += 12 + length
        if kind == b'IHDR':
            header = struct.unpack('>IIBBBBB', body)
        elif kind == b'IDAT':
            idat += body
    width, height, depth, colour, _, _, interlace = header
    assert (depth, colour, interlace) == (8, 6, 0), '%s: not 8-bit RGBA' % path
    raw, stride, rows, previous = zlib.decompress(idat), width * 4, [], bytearray(width * 4)
    assert len(raw) == height * (stride + 1), path
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            left = line[x - 4] if x >= 4 else 0
            up, up_left = previous[x], previous[x - 4] if x >= 4 else 0
            if kind == 1:
                line[x] = (line[x] + left) & 255
            elif kind == 2:
                line[x] = (line[x] + up) & 255
            elif kind == 3:
                line[x] = (line[x] + (left + up) // 2) & 255
            elif kind == 4:
                guess = left + up - up_left
                near = min((abs(guess - left), 0, left), (abs(guess - up), 1, up), (abs(guess - up_left), 2, up_left))
                line[x] = (line[x] + near[2]) & 255
        rows.append(bytes(line))
        previous = line
    return width, height, rows


# --- the command line --------------------------------------------------------------------
help_text = run(['--help'], check_status=0).stdout
assert 'usage: terakan-sim' in help_text and '--chip' in help_text, help_text

bad = run(['--chip', 'voodoo2', 'true'], check_status=2)
assert "unknown chip 'voodoo2'" in bad.stderr, bad.stderr
for name in ('cedar', 'cypress', 'barts', 'cayman', 'aruba'):
    assert name in bad.stderr, 'the valid chips are not listed: ' + bad.stderr
run([], check_status=2)
run(['--frobnicate', 'true'], check_status=2)
run(['--chip', 'barts', 'sh', '-c', 'exit 7'], check_status=7)
missing = run(['--chip', 'barts', '/nonexistent/program'], check_status=127)
assert 'cannot run /nonexistent/program' in missing.stderr, missing.stderr
printed = run(['--print-shim'], check_status=0).stdout.strip()
assert os.path.realpath(printed) == os.path.realpath(shim), (printed, shim)
print('command line: help, bad chip, usage errors, exit status, --print-shim: ok')

# --- the shim in PROGRAM only, or in its children too (--inherit) ------------------------
# The shell shows whether it has the library mapped and what LD_PRELOAD it passes on; grep
# looks at its own mappings.
probe = ('grep -c libterakan_sim /proc/$$/maps >/dev/null && echo shell-has-it; '
         'echo "children get: ${LD_PRELOAD-nothing}"; '
         'grep -c libterakan_sim /proc/self/maps || true')
other = '/lib/x86_64-linux-gnu/libz.so.1' if os.path.exists('/lib/x86_64-linux-gnu/libz.so.1') else None
environment = dict(base, LD_PRELOAD=other) if other else base
only = run(['--chip', 'barts', 'sh', '-c', probe], environment, check_status=0).stdout.split('\n')
assert only[0] == 'shell-has-it', only
assert only[1] == 'children get: %s' % (other or 'nothing'), only
assert only[2] == '0', 'a child of the program has the simulator: %s' % only
inherited = run(['--chip', 'barts', '--inherit', 'sh', '-c', probe], check_status=0).stdout.split('\n')
assert inherited[0] == 'shell-has-it' and int(inherited[2]) > 0, inherited
print('the simulator goes into the program only (and into its children with --inherit): ok')

# --- the simulated device, named by the drivers on it ------------------------------------
vulkan = dict(base, VK_DRIVER_FILES=icd, VK_ICD_FILENAMES=icd, NODEVICE_SELECT='1',
              VK_LOADER_LAYERS_DISABLE='VK_LAYER_MESA_device_select')
summary = run(['--chip', 'barts', 'vulkaninfo', '--summary'], vulkan, check_status=0).stdout
assert 'AMD Radeon HD 6870 (BARTS) (Terakan)' in summary, summary
print('vulkaninfo on terakan-sim --chip barts: AMD Radeon HD 6870 (BARTS) (Terakan)')

# --- TERAKAN_SIM_DUMP and TERAKAN_SIM_TRACE=draws through Debian's r600 driver ------------
# R600_DEBUG: nohyperz as in tests/gl (docs/sim-semantics.md says why).
gl = dict(base, R600_DEBUG='nohyperz')
shutil.rmtree(output, ignore_errors=True)


def draw_scene(scene, trace=False):
    dumps, pictures = os.path.join(output, scene + '-dumps'), os.path.join(output, scene)
    result = run(['--chip', 'cayman', '--dump', dumps] + (['--trace', 'draws'] if trace else []) +
                 [gl_scenes, '--device', 'gbm', '--out', pictures, scene], gl, check_status=0)
    assert 'GL_RENDERER: AMD CAYMAN' in result.stdout, result.stdout
    files = sorted(os.listdir(dumps))
    assert files, 'nothing dumped for ' + scene
    for name in files:
        assert name.startswith('draw-') and '-cayman-' in name, name
        width, height, _ = load_png(os.path.join(dumps, name))
        assert (width, height) == (64, 64), (name, width, height)
    colour = [name for name in files if name.endswith('-cb0.png')]
    return result, dumps, files, colour, os.path.join(pictures, scene + '.png')


result, dumps, files, colour, _ = draw_scene('clear', trace=True)
draw_lines = [line for line in result.stderr.splitlines() if line.startswith('terakan-sim: draw ')]
assert len(draw_lines) == len(colour), (draw_lines, colour)
assert not [line for line in result.stderr.splitlines() if 'PKT3' in line], 'packets traced too'
_, _, rows = load_png(os.path.join(dumps, colour[-1]))
assert all(row == bytes([32, 96, 160, 255]) * 64 for row in rows), 'the clear colour is not everywhere'
print('clear: %d draws traced and dumped; the last dump is (32, 96, 160, 255) everywhere' % len(colour))

for scene in ('triangle', 'vertex_colours'):
    _, dumps, files, colour, picture = draw_scene(scene)
    _, _, dumped = load_png(os.path.join(dumps, colour[-1]))
    _, _, read = load_png(picture)
    assert dumped == read[::-1], '%s: the last dump is not the picture glReadPixels gave' % scene
    print('%s: the last of %d dumps equals the picture, upside down' % (scene, len(colour)))

_, dumps, files, colour, _ = draw_scene('depth_test')
depth = [name for name in files if name.endswith('-depth.png')]
assert depth, 'no depth buffer dumped: %s' % files
_, _, rows = load_png(os.path.join(dumps, depth[-1]))
assert rows[0][0:4] == bytes([255, 255, 255, 255]), 'the depth corner is not the cleared 1.0: %s' % rows[0][0:4]
assert any(row[x] < 255 for row in rows for x in range(0, 256, 4)), 'nothing nearer than 1.0 was drawn'
print('depth_test: %d depth dumps; cleared 1.0 in the corner, the triangles nearer' % len(depth))
