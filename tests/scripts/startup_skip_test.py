"""A DRM node Terakan cannot drive is skipped with a TERAKAN_DEBUG=startup message, and
enumeration still succeeds for the other driver on the machine (lavapipe).

  startup_skip_test.py CHIP EXPECTED_MESSAGE

CHIP is given to the simulator as TERAKAN_SIM_CHIP: a string it does not understand makes it
present a PCI node whose kernel driver is not radeon; a non-TeraScale radeon PCI id (Tahiti,
0x6798) makes it present that chip for identification only."""
import os
import subprocess
import sys

chip, expected_message = sys.argv[1:3]
environment = dict(os.environ)
environment['LD_PRELOAD'] = environment['TERAKAN_SIM_SHIM']
environment['TERAKAN_SIM_CHIP'] = chip
environment['TERAKAN_DEBUG'] = 'startup'
result = subprocess.run(['vulkaninfo', '--summary'], env=environment, capture_output=True,
                        text=True, timeout=120)
assert result.returncode == 0, result.stdout + result.stderr
assert 'Terakan' not in result.stdout, result.stdout
assert 'llvmpipe' in result.stdout, result.stdout
assert 'terakan: skipping /dev/dri/renderD128' in result.stderr, result.stderr
assert expected_message in result.stderr, result.stderr
print('skipped as expected:', expected_message)
