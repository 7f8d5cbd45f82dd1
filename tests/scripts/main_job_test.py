#!/usr/bin/env python3
"""The main job's picture: terakan-fractal on Terakan (the simulated chip named by argv[2]) and
on lavapipe must write the same pixels; Terakan's run must name the simulated device."""
import os
import subprocess
import sys
import tempfile

from png_files import read_rgba8


def main():
    tool, chip, shim, terakan_icd, lavapipe_icd = sys.argv[1:6]
    base = dict(os.environ, VK_LOADER_LAYERS_DISABLE='VK_LAYER_MESA_device_select')
    with tempfile.TemporaryDirectory() as folder:
        mine = os.path.join(folder, 'terakan.png')
        reference = os.path.join(folder, 'lavapipe.png')
        env = dict(base, VK_DRIVER_FILES=terakan_icd, VK_ICD_FILENAMES=terakan_icd,
                   LD_PRELOAD=shim, TERAKAN_SIM_CHIP=chip)
        run = subprocess.run([tool, '--device', 'Terakan', '--output', mine], env=env,
                             capture_output=True, text=True, timeout=600)
        print(run.stdout + run.stderr)
        assert run.returncode == 0, 'terakan-fractal failed on Terakan'
        assert '(%s) (Terakan)' % chip in run.stdout, 'the simulated device is not named'
        env = dict(base, VK_DRIVER_FILES=lavapipe_icd, VK_ICD_FILENAMES=lavapipe_icd)
        run = subprocess.run([tool, '--device', 'llvmpipe', '--output', reference], env=env,
                             capture_output=True, text=True, timeout=600)
        print(run.stdout + run.stderr)
        assert run.returncode == 0, 'terakan-fractal failed on lavapipe'
        w1, h1, a = read_rgba8(mine)
        w2, h2, b = read_rgba8(reference)
        assert (w1, h1) == (w2, h2)
        differing = sum(1 for i in range(0, len(a), 4) if a[i:i + 4] != b[i:i + 4])
        print('pixels differing from lavapipe: %d of %d' % (differing, w1 * h1))
        assert differing == 0
        # The picture is not trivial: many colours.
        colours = len({a[i:i + 4] for i in range(0, len(a), 4)})
        print('distinct colours: %d' % colours)
        assert colours > 20


if __name__ == '__main__':
    main()
