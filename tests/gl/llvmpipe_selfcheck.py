#!/usr/bin/env python3
"""terakan-gl-scenes on llvmpipe, twice into two folders, then --compare between them: every
scene must draw without GL errors and come out the same both times."""
import os
import subprocess
import sys
import tempfile

program = sys.argv[1]
# Neither a preloaded simulator nor a software override from the caller may change which
# driver draws; the program itself asks Mesa for llvmpipe.
environment = {key: value for key, value in os.environ.items() if key not in ('LD_PRELOAD', 'GALLIUM_DRIVER')}

with tempfile.TemporaryDirectory(prefix='terakan-gl-selfcheck-') as folder:
    runs = [os.path.join(folder, name) for name in ('first', 'second')]
    for run in runs:
        result = subprocess.run([program, '--device', 'llvmpipe', '--out', run], env=environment)
        if result.returncode != 0:
            sys.exit('terakan-gl-scenes --device llvmpipe failed (%d)' % result.returncode)
    result = subprocess.run([program, '--compare'] + runs, env=environment)
    if result.returncode != 0:
        sys.exit('the two llvmpipe runs drew different pictures')
