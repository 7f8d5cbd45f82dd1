#!/usr/bin/env python3
"""Terakan's code against r600g's on the same shaders: statistics side by side.

  scripts/shaderdb-compare.py [--build DIR] [--chip cayman,barts] [--worst N] [CORPUS_DIR...]

For each chip and each corpus folder (default: tests/shaderdb/graphics, the game-like vertex and
pixel shaders, and tests/compiler/shaders, the compute corpus):
  - Terakan: build/src/tools/terakan-shaderdb --chip CHIP DIR (the Vulkan GLSL through
    glslangValidator and Terakan's compiler);
  - r600g: the same files translated to desktop GLSL 4.50 (below), compiled and linked by the
    system's Mesa r600 driver (Debian's r600_dri.so) on the simulated card (libterakan_sim.so
    preloaded, TERAKAN_SIM_CHIP=CHIP) through build/src/tools/terakan-r600g-shaderdb, which
    collects r600g's own statistics lines from the GL debug output.
Both sides use r600g's definitions (src/tools/shader_stats.h). Prints one line per shader both
compiled, the totals over those shaders with the ratios Terakan / r600g, the N worst shaders by
alu_groups ratio, and the shaders left out on either side with the reason.

The translation from Vulkan GLSL to desktop GLSL is textual and small: `set = N` is dropped from
layouts, `layout(push_constant) uniform` becomes a std140 uniform block at binding 13,
`layout(constant_id = N)` is dropped (the default value is used on both sides only if no
specialization is given, which terakan-shaderdb never gives), gl_VertexIndex/gl_InstanceIndex
become gl_VertexID/gl_InstanceID. Shaders using what has no GL 4.5 equivalent (scalar block
layout, separate texture/sampler objects, subgroups, 64-bit or 8/16-bit arithmetic extensions)
are left out and listed. What differs and is not corrected for:
  - r600g's vertex shaders contain no vertex fetches (a separate fetch shader does them, not
    counted); Terakan's vertex shaders fetch their own inputs (more cf, dw, and GPRs for the
    fetched values);
  - GL links the two stages (unused varyings removed, constants propagated across); Terakan
    compiles each stage alone;
  - push constants as std140 change array strides (16 bytes) in the r600g version;
  - r600g's time (link_ms) is GLSL parsing, linking and r600g's backend per program;
    Terakan's compile_ms is SPIR-V validation, SPIR-V to NIR and its backend per shader
    (glslangValidator not included)."""
import argparse
import math
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STAT = re.compile(r'^(?P<name>\S+) - (?P<stage>VS|FS|CS) shader: (?P<dw>\d+) dw, (?P<gprs>\d+) gprs, '
                  r'(?P<alu_groups>\d+) alu_groups, (?P<loops>\d+) loops, (?P<cf>\d+) cf, (?P<stack>\d+) stack'
                  r'(?P<rest>.*)$')
OTHER = re.compile(r'^(?P<name>\S+) - (?P<kind>refused|skipped): (?P<why>.*)$')
FIELDS = ['dw', 'gprs', 'alu_groups', 'loops', 'cf', 'stack']
UNTRANSLATABLE = [
    (re.compile(r'GL_EXT_scalar_block_layout|\bscalar\b\s*[,)]'), 'scalar block layout'),
    (re.compile(r'\b(texture[123]D|textureCube|texture2DArray|sampler)\b\s+\w+\s*;'), 'separate texture/sampler objects'),
    (re.compile(r'GL_KHR_shader_subgroup|GL_EXT_shader_explicit_arithmetic_types|GL_EXT_shader_16bit_storage|'
                r'GL_EXT_shader_8bit_storage|GL_ARB_gpu_shader_int64'), 'an extension without a GL 4.5 equivalent'),
    (re.compile(r'\bsubpassInput'), 'input attachments'),
]


def translate(source):
    """Vulkan GLSL -> desktop GLSL 4.50, or (None, reason)."""
    for pattern, reason in UNTRANSLATABLE:
        if pattern.search(source):
            return None, reason
    text = re.sub(r'\bset\s*=\s*\d+\s*,\s*', '', source)
    text = re.sub(r',\s*set\s*=\s*\d+\s*', '', text)
    text = re.sub(r'layout\s*\(\s*push_constant\s*\)\s*uniform', 'layout(std140, binding = 13) uniform', text)
    text = re.sub(r'layout\s*\(\s*constant_id\s*=\s*\d+\s*\)\s*', '', text)
    text = text.replace('gl_VertexIndex', 'gl_VertexID').replace('gl_InstanceIndex', 'gl_InstanceID')
    text = re.sub(r'^#version\s+\d+.*$', '#version 450 core', text, count=1, flags=re.M)
    return text, None


def parse(output):
    stats, other = {}, {}
    for line in output.splitlines():
        m = STAT.match(line)
        if m:
            stats[m['name']] = dict({k: int(m[k]) for k in FIELDS}, stage=m['stage'], rest=m['rest'])
            continue
        m = OTHER.match(line)
        if m:
            other[m['name']] = '%s: %s' % (m['kind'], m['why'])
    return stats, other


def number(rest, key):
    m = re.search(key + r': ([0-9.]+)', rest)
    return float(m.group(1)) if m else 0.0


def ratio(a, b):
    return '%.2fx' % (a / b) if b else 'n/a'


def run_chip(args, chip, folders):
    tools = os.path.join(args.build, 'src', 'tools')
    simulator = os.path.join(args.build, 'src', 'sim', 'libterakan_sim.so')
    rows, left_out = [], []
    r600g_ms, terakan_ms, renderer = 0.0, 0.0, ''
    for folder in folders:
        label = os.path.basename(os.path.normpath(folder))
        ours = subprocess.run([os.path.join(tools, 'terakan-shaderdb'), '--chip', chip, folder],
                              capture_output=True, text=True, check=True)
        ours_stats, ours_other = parse(ours.stdout)
        with tempfile.TemporaryDirectory(prefix='terakan-shaderdb-gl-') as gl_folder:
            not_translated = {}
            for directory, _, files in os.walk(folder):
                for name in files:
                    if not name.endswith(('.vert', '.frag', '.comp')):
                        continue
                    path = os.path.join(directory, name)
                    relative = os.path.relpath(path, folder)
                    text, why = translate(open(path).read())
                    if text is None:
                        not_translated[relative] = 'not translated: ' + why
                        continue
                    os.makedirs(os.path.join(gl_folder, os.path.dirname(relative)), exist_ok=True)
                    with open(os.path.join(gl_folder, relative), 'w') as out:
                        out.write(text)
            env = {k: v for k, v in os.environ.items() if k not in ('LD_PRELOAD', 'GALLIUM_DRIVER')}
            env.update(LD_PRELOAD=simulator, TERAKAN_SIM_CHIP=chip, R600_DEBUG='nohyperz',
                       MESA_SHADER_CACHE_DISABLE='true')
            theirs = subprocess.run([os.path.join(tools, 'terakan-r600g-shaderdb'), gl_folder],
                                    capture_output=True, text=True, env=env)
            if theirs.returncode != 0:
                sys.exit('terakan-r600g-shaderdb failed on %s (%d): %s' % (chip, theirs.returncode, theirs.stderr[-2000:]))
        renderer = next((l[2:] for l in theirs.stdout.splitlines() if l.startswith('# ')), renderer)
        their_stats, their_other = parse(theirs.stdout)
        their_other.update(not_translated)
        programs_timed = set()
        for name in sorted(set(ours_stats) | set(ours_other) | set(their_stats) | set(their_other)):
            shown = label + '/' + name
            if name in ours_stats and name in their_stats:
                a, b = ours_stats[name], their_stats[name]
                rows.append((shown, a, b))
                terakan_ms += number(a['rest'], 'compile_ms')
                program = name.rsplit('.', 1)[0]
                if program not in programs_timed:
                    programs_timed.add(program)
                    r600g_ms += number(b['rest'], 'link_ms')
            else:
                left_out.append((shown, ours_other.get(name, 'compiled' if name in ours_stats else 'absent'),
                                 their_other.get(name, 'compiled' if name in their_stats else 'absent')))

    print('== %s (r600g: %s)' % (chip.upper(), renderer))
    header = '%-44s %s' % ('shader', '  '.join('%-17s' % f for f in ['alu_groups T/r', 'gprs T/r', 'cf T/r', 'dw T/r']))
    print(header)
    for shown, a, b in rows:
        print('%-44s %s' % (shown, '  '.join('%-17s' % ('%d/%d' % (a[f], b[f])) for f in ['alu_groups', 'gprs', 'cf', 'dw'])))
    total = {side: {f: sum(row[side][f] for row in rows) for f in FIELDS} for side in (1, 2)}
    gprs_ok = sum(1 for _, a, b in rows if a['gprs'] <= b['gprs'])
    print('totals over %d shaders compiled by both: alu_groups %d / %d = %s, gprs %d / %d = %s, cf %d / %d = %s, '
          'dw %d / %d = %s, loops %d / %d, stack %d / %d'
          % (len(rows), total[1]['alu_groups'], total[2]['alu_groups'], ratio(total[1]['alu_groups'], total[2]['alu_groups']),
             total[1]['gprs'], total[2]['gprs'], ratio(total[1]['gprs'], total[2]['gprs']),
             total[1]['cf'], total[2]['cf'], ratio(total[1]['cf'], total[2]['cf']),
             total[1]['dw'], total[2]['dw'], ratio(total[1]['dw'], total[2]['dw']),
             total[1]['loops'], total[2]['loops'], total[1]['stack'], total[2]['stack']))
    same = [row for row in rows if row[1]['loops'] == row[2]['loops']]
    if same:
        a = {f: sum(row[1][f] for row in same) for f in FIELDS}
        b = {f: sum(row[2][f] for row in same) for f in FIELDS}
        print('totals over the %d with the same number of loops on both sides (no loop unrolled by one only): '
              'alu_groups %d / %d = %s, gprs %d / %d = %s, cf %d / %d = %s'
              % (len(same), a['alu_groups'], b['alu_groups'], ratio(a['alu_groups'], b['alu_groups']),
                 a['gprs'], b['gprs'], ratio(a['gprs'], b['gprs']), a['cf'], b['cf'], ratio(a['cf'], b['cf'])))
    if rows:
        logs = [math.log(a['alu_groups'] / b['alu_groups']) for _, a, b in rows if a['alu_groups'] and b['alu_groups']]
        print('alu_groups per-shader ratio: geometric mean %.2fx over %d shaders' % (math.exp(sum(logs) / len(logs)), len(logs)))
        print('gprs no higher than r600g\'s in %d of %d shaders (%.0f%%)' % (gprs_ok, len(rows), 100.0 * gprs_ok / len(rows)))
    print('compile time: Terakan %.1f ms (compile_ms, per shader), r600g %.1f ms (link_ms, per program, simulator preloaded)'
          % (terakan_ms, r600g_ms))
    for stage in ('VS', 'FS', 'CS'):
        subset = [row for row in rows if row[2]['stage'] == stage]
        if subset:
            line = '  %s: %d shaders' % (stage, len(subset))
            for field in ('alu_groups', 'gprs', 'cf'):
                a = sum(row[1][field] for row in subset)
                b = sum(row[2][field] for row in subset)
                line += ', %s %d / %d = %s' % (field, a, b, ratio(a, b))
            print(line)
    worst = sorted(rows, key=lambda row: -(row[1]['alu_groups'] / max(row[2]['alu_groups'], 1)))[:args.worst]
    print('worst %d by alu_groups ratio:' % len(worst))
    for shown, a, b in worst:
        print('  %-44s alu_groups %d / %d = %s, gprs %d / %d, cf %d / %d'
              % (shown, a['alu_groups'], b['alu_groups'], ratio(a['alu_groups'], b['alu_groups']),
                 a['gprs'], b['gprs'], a['cf'], b['cf']))
    print('left out (%d): shader, Terakan, r600g' % len(left_out))
    for shown, ours_why, their_why in left_out:
        print('  %s: Terakan %s; r600g %s' % (shown, ours_why, their_why))
    print()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--build', default=os.path.join(ROOT, 'build'))
    parser.add_argument('--chip', default='cayman,barts')
    parser.add_argument('--worst', type=int, default=10)
    parser.add_argument('folders', nargs='*')
    args = parser.parse_args()
    folders = args.folders or [os.path.join(ROOT, 'tests', 'shaderdb', 'graphics'),
                               os.path.join(ROOT, 'tests', 'compiler', 'shaders')]
    for chip in args.chip.split(','):
        run_chip(args, chip, folders)


if __name__ == '__main__':
    main()
