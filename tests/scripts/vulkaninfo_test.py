"""vulkaninfo through the real loader with only Terakan's manifest.

With the simulator preloaded (TERAKAN_SIM_SHIM) for chip CHIP, both `vulkaninfo --summary` and
the full report must succeed and name the device and its id. With --no-shim, vulkaninfo must
not crash (exit status, not a signal) and must not report a Terakan device.
"""
import os
import subprocess
import sys


def run(arguments, environment):
    return subprocess.run(['vulkaninfo'] + arguments, env=environment, capture_output=True,
                          text=True, timeout=120)


def main():
    environment = dict(os.environ)
    environment.pop('LD_PRELOAD', None)
    # lavapipe stays visible: the check is that Terakan adds nothing and breaks nothing.
    if sys.argv[1] == '--no-shim':
        result = run(['--summary'], environment)
        assert result.returncode >= 0, 'vulkaninfo died of signal %d' % -result.returncode
        assert 'Terakan' not in result.stdout, result.stdout
        print('no Terakan device reported; vulkaninfo exit status %d' % result.returncode)
        return

    chip, device_id, name = sys.argv[1:4]
    environment['LD_PRELOAD'] = environment['TERAKAN_SIM_SHIM']
    environment['TERAKAN_SIM_CHIP'] = chip

    summary = run(['--summary'], environment)
    assert summary.returncode == 0, summary.stdout + summary.stderr
    assert 'deviceName         = ' + name in summary.stdout, summary.stdout
    assert 'deviceID           = ' + device_id in summary.stdout, summary.stdout
    assert 'vendorID           = 0x1002' in summary.stdout, summary.stdout

    full = run([], environment)
    assert full.returncode == 0, full.stderr
    assert 'driverName      = terakan' in full.stdout, full.stdout
    # Nothing vulkaninfo asks for may fall through to an unimplemented entry point.
    assert 'not implemented' not in full.stderr, full.stderr
    print('vulkaninfo shows %s (%s)' % (name, device_id))


if __name__ == '__main__':
    main()
