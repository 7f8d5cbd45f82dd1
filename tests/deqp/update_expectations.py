#!/usr/bin/env python3
"""Rewrites the expectation lists from a run of the CI subset on every chip:

  scripts/deqp.sh --chips cayman,barts,cypress --caselist tests/deqp/ci-cases.txt --out DIR
  tests/deqp/update_expectations.py DIR

expectations.txt gets every case whose result is not a pass and is the same on all chips;
CHIP-expectations.txt the cases whose result differs between chips. Each line is
'CASE,STATUS  # reason', the reason being dEQP's (and Terakan's own message where it printed
one), shortened to one line. Read the diff before committing: a new line is a regression or
a newly reached case, a removed line a fix."""
import csv
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CHIPS = ('cayman', 'barts', 'cypress')
PASS_LIKE = ('Pass', 'QualityWarning', 'CompatibilityWarning')


# Where dEQP's own words do not say why, the reason to write instead (case prefix -> reason).
KNOWN_REASONS = {
    'dEQP-VK.rasterization.line_continuity.line-strip':
        'the image is created with STORAGE usage: storage images are not supported yet '
        '(terakan: image usage 0xb is not supported for format 37)',
    'dEQP-VK.api.command_buffers.render_pass_continue':
        'clear value mismatch: vkCmdClearAttachments recorded in a RENDER_PASS_CONTINUE secondary '
        'command buffer does not reach the attachment (the driver reports no error)',
    'dEQP-VK.draw.renderpass.output_location.array.b10g11r11-ufloat-pack32-highp':
        'Vulkan color attachment format is not supported: B10G11R11_UFLOAT_PACK32 has no '
        'colour-attachment feature yet',
    'dEQP-VK.api.version_check.entry_points':
        'expects vkGetDeviceGroupPresentCapabilitiesKHR and friends, which exist only with '
        'VK_KHR_surface (no WSI yet)',
    'dEQP-VK.draw.renderpass.multiple_clears_within_render_pass.draw_clear_draw_c_r8g8b8a8_snorm':
        'the case blends into R8G8B8A8_SNORM, which has no COLOR_ATTACHMENT_BLEND feature on '
        'Terakan (nor on lavapipe, which blends anyway): Terakan writes the colour unblended',
    'dEQP-VK.api.driver_properties.conformance_version':
        'conformanceVersion is 0.0.0.0: Terakan has not passed conformance',
    'dEQP-VK.api.driver_properties.driver_id_match':
        'no VkDriverId is registered for Terakan (it reports 0x7E7A0000)',
    'dEQP-VK.api.info.android.no_layers':
        'the Khronos validation layer is installed on this machine (lavapipe fails it too)',
    'dEQP-VK.draw.renderpass.shader_draw_parameters.':
        'dEQP-VK 1.3.5 does not chain VkPhysicalDeviceShaderDrawParametersFeatures for a Vulkan 1.1 '
        'device (seen with gdb), so it finds shaderDrawParameters off; they passed at 1.0 through '
        'the extension, and api-draws DrawParameters covers the feature',
    'dEQP-VK.draw.dynamic_rendering.complete_secondary_cmd_buff.shader_draw_parameters.':
        'dEQP-VK 1.3.5 does not chain VkPhysicalDeviceShaderDrawParametersFeatures for a Vulkan 1.1 '
        'device, so it finds shaderDrawParameters off',
    'dEQP-VK.draw.dynamic_rendering.primary_cmd_buff.shader_draw_parameters.':
        'dEQP-VK 1.3.5 does not chain VkPhysicalDeviceShaderDrawParametersFeatures for a Vulkan 1.1 '
        'device, so it finds shaderDrawParameters off',
    'dEQP-VK.api.object_management.alloc_callback_fail.pipeline_layout_empty':
        "the runtime's pipeline layouts are reference-counted and allocated from the device "
        "(vk_pipeline_layout.c ignores pAllocator), so the failing callbacks are never called",
    'dEQP-VK.api.info.android.mandatory_extensions':
        'Android requirement: VK_KHR_maintenance1 is not offered yet',
}


def short_reason(status, reason, case=''):
    for prefix, known in KNOWN_REASONS.items():
        if case.startswith(prefix):
            return known
    driver = re.search(r'\[(terakan: .*)\]$', reason)
    text = driver.group(1) if driver else reason
    text = re.sub(r' at [\w./]+\.(cpp|inl|hpp|c):\d+', '', text)
    text = re.sub(r'\s+', ' ', text).strip()
    if status == 'Crash' and not text:
        text = 'the process died in this case'
    return (text or status)[:200]


def read(path):
    with open(path, encoding='utf-8', newline='') as source:
        return {row[0]: (row[1], row[2] if len(row) > 2 else '') for row in csv.reader(source) if row}


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    runs = {chip: read(os.path.join(sys.argv[1], chip + '.csv')) for chip in CHIPS}
    with open(os.path.join(HERE, 'ci-cases.txt'), encoding='utf-8') as listing:
        subset = {line.strip() for line in listing if line.strip() and not line.startswith('#')}
    cases = [case for case in runs[CHIPS[0]] if case in subset]
    missing = subset - set(cases)
    if missing:
        sys.exit('update_expectations.py: %d cases of ci-cases.txt are not in the run (%s, ...)'
                 % (len(missing), sorted(missing)[0]))
    common, per_chip = [], {chip: [] for chip in CHIPS}
    for case in cases:
        results = {chip: runs[chip].get(case, ('InternalError', 'not run')) for chip in CHIPS}
        normalized = {chip: 'Pass' if status in PASS_LIKE else status for chip, (status, _) in results.items()}
        if len(set(normalized.values())) == 1:
            status = normalized[CHIPS[0]]
            if status != 'Pass':
                common.append('%s,%s  # %s' % (case, status, short_reason(status, results[CHIPS[0]][1], case)))
            continue
        for chip in CHIPS:
            status = normalized[chip]
            if status != 'Pass':
                per_chip[chip].append('%s,%s  # %s' % (case, status, short_reason(status, results[chip][1], case)))
            else:
                # The common list says nothing of this case, so a pass needs no line.
                pass
    header = ('# dEQP-VK results other than Pass expected on every simulated chip for the CI subset\n'
              '# (tests/deqp/ci-cases.txt); written by update_expectations.py. CASE,STATUS  # reason\n')
    with open(os.path.join(HERE, 'expectations.txt'), 'w', encoding='utf-8') as out:
        out.write(header + '\n'.join(common) + '\n')
    for chip in CHIPS:
        with open(os.path.join(HERE, chip + '-expectations.txt'), 'w', encoding='utf-8') as out:
            out.write('# As expectations.txt, for results that differ on %s; written by '
                      'update_expectations.py.\n' % chip.upper())
            out.write('\n'.join(per_chip[chip]) + ('\n' if per_chip[chip] else ''))
    print('%d common expectations; %s' % (len(common), ', '.join(
        '%s %d' % (chip, len(per_chip[chip])) for chip in CHIPS)))


if __name__ == '__main__':
    main()
