#!/usr/bin/env python3
"""The scenes drawn by Debian's r600 OpenGL driver on the simulated card (the simulator
preloaded, TERAKAN_SIM_CHIP naming the board) against the same scenes on llvmpipe, pixel for
pixel. The test fails on any differing pixel, on any GL error, and on any command stream the
simulator refuses or any GPU hang it reports (r600g only prints those on stderr).

usage: r600g_against_llvmpipe.py PROGRAM SIMULATOR CHIP OUTPUT_FOLDER [--size W H] SCENE..."""
import os
import subprocess
import sys

program, simulator, chip, output = sys.argv[1:5]
scenes = sys.argv[5:]
size = []
if scenes[:1] == ['--size']:
    size, scenes = scenes[:3], scenes[3:]
base = {key: value for key, value in os.environ.items() if key not in ('LD_PRELOAD', 'GALLIUM_DRIVER')}
reference, simulated = os.path.join(output, 'llvmpipe'), os.path.join(output, chip)

result = subprocess.run([program, '--device', 'llvmpipe', '--out', reference] + size + scenes, env=base)
if result.returncode != 0:
    sys.exit('llvmpipe could not draw the scenes (%d)' % result.returncode)

# R600_DEBUG: nohyperz, HTILE is not simulated yet (docs/sim-semantics.md lists every r600g switch
# the tests use and why). r600g's asynchronous DMA ring is on: texture uploads and readbacks go
# through it. TERAKAN_SIM_TRACE=draws prints a line per draw and per DMA packet (and the
# predication decisions); the DMA lines are counted (the DMA ring must really be used), and no
# trace line is echoed.
environment = dict(base, LD_PRELOAD=simulator, TERAKAN_SIM_CHIP=chip, R600_DEBUG='nohyperz',
                   TERAKAN_SIM_TRACE='draws')
run = subprocess.run([program, '--device', 'gbm', '--out', simulated] + size + scenes, env=environment,
                     stderr=subprocess.PIPE, text=True)
trace = ('terakan-sim: draw ', 'terakan-sim: DMA ring: ', 'terakan-sim: SET_PREDICATION ', 'terakan-sim: [')
sys.stderr.writelines(line + '\n' for line in run.stderr.splitlines() if not line.startswith(trace))
dma_packets = [line for line in run.stderr.splitlines() if line.startswith(trace[1])]
refusals = [line for line in run.stderr.splitlines()
            if 'kernel rejected' in line or 'GPU hang' in line or 'CS: ' in line]
if run.returncode != 0:
    sys.exit('r600g on the simulated %s failed (%d)' % (chip, run.returncode))
if refusals:
    sys.exit('the simulator refused %d command streams (first: %s)' % (len(refusals), refusals[0]))
if not dma_packets:
    sys.exit('r600g on the simulated %s never used the DMA ring' % chip)

result = subprocess.run([program, '--compare', reference, simulated] + scenes, env=base)
if result.returncode != 0:
    sys.exit('r600g on the simulated %s and llvmpipe drew different pictures (PNGs in %s)' % (chip, output))
print('%d scenes on the simulated %s: 0 pixels differ from llvmpipe, 0 refusals, %d DMA ring packets'
      % (len(scenes), chip, len(dma_packets)))
