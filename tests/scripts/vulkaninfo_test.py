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
    # The one queue family draws, computes and copies.
    assert 'queueFlags                  = QUEUE_GRAPHICS | QUEUE_COMPUTE | QUEUE_TRANSFER' in full.stdout, full.stdout

    # The formats' attachment features: RGBA8 renders and blends, D32F is a depth attachment.
    formats = run(['--show-formats'], environment)
    assert formats.returncode == 0, formats.stderr
    text = formats.stdout

    def features_of(format_name):
        # The block listing `format_name` among the formats sharing one set of properties.
        for block in text.split('Formats: count = ')[1:]:
            names = block.split('Properties:')[0]
            if '\t' + format_name + '\n' in names:
                return block.split('Properties:')[1]
        raise AssertionError(format_name + ' not listed')

    rgba8 = features_of('FORMAT_R8G8B8A8_UNORM')
    assert 'FORMAT_FEATURE_COLOR_ATTACHMENT_BIT' in rgba8 and 'FORMAT_FEATURE_COLOR_ATTACHMENT_BLEND_BIT' in rgba8, rgba8
    assert 'FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT' in features_of('FORMAT_D32_SFLOAT')
    print('vulkaninfo shows %s (%s), the graphics queue and attachment features' % (name, device_id))


if __name__ == '__main__':
    main()
