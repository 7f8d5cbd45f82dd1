#!/usr/bin/env python3
"""Makes docs/gallery.md and its pictures from the pictures the tests leave in the build folder.

Usage: scripts/gallery.py BUILD_DIR OUTPUT_DIR (normally run by scripts/gallery.sh, which first
runs the tests that make the pictures). Each gallery picture is a pair: the simulated card's
render on the left, the reference on the right (lavapipe for Vulkan, llvmpipe for Mesa's r600
OpenGL driver), enlarged without filtering so single pixels stay visible. Pure Python (zlib):
the pictures are small.
"""
import os
import shutil
import sys
import zlib

# (file stem, caption, Terakan's picture, reference picture), paths relative to BUILD_DIR/tests.
VULKAN = [
    ('scene', 'terakan-scene, the main job: lit, textured, mipmapped, 4x multisampled and resolved, with a compute post-process',
     'scene-cayman/terakan.png', 'scene-cayman/lavapipe.png'),
    ('vkcube', 'vkcube presented through VK_KHR_swapchain under Xvfb (its 12th frame)',
     'vkcube-cayman/terakan-cayman.png', 'vkcube-cayman/lavapipe.png'),
    ('vkcube-wayland', 'vkcube-wayland presented through VK_KHR_wayland_surface to a headless weston '
     '(a screenshot after its 12th commit)',
     'vkcube-wayland-cayman/terakan-cayman.png', 'vkcube-wayland-cayman/lavapipe.png'),
    ('perspective', 'Perspective-correct interpolation of colours',
     'draws-cayman/TrianglesWithPerspectiveInterpolation-0-terakan.png',
     'draws-cayman/TrianglesWithPerspectiveInterpolation-0-lavapipe.png'),
    ('topologies', 'Triangle strips and fans',
     'draws-cayman/EveryTriangleTopology-1-terakan.png', 'draws-cayman/EveryTriangleTopology-1-lavapipe.png'),
    ('points-lines', 'Points and lines',
     'draws-cayman/PointsAndLines-0-terakan.png', 'draws-cayman/PointsAndLines-0-lavapipe.png'),
    ('depth', 'Thousands of triangles with a depth test',
     'draws-cayman/ThousandsOfTrianglesWithDepth-0-terakan.png',
     'draws-cayman/ThousandsOfTrianglesWithDepth-0-lavapipe.png'),
    ('stencil', 'Stencil: replace, increment, equal',
     'draws-cayman/StencilMaskingWithReplaceIncrementAndEqual-5-terakan.png',
     'draws-cayman/StencilMaskingWithReplaceIncrementAndEqual-5-lavapipe.png'),
    ('blending', 'Blend equations and factors',
     'draws-cayman/BlendEquationsAndFactors-0-terakan.png', 'draws-cayman/BlendEquationsAndFactors-0-lavapipe.png'),
    ('logic-ops', 'Logic operations',
     'draws-cayman/LogicOps-6-terakan.png', 'draws-cayman/LogicOps-6-lavapipe.png'),
    ('textures', 'Uniform buffers, textures and push constants in both stages',
     'draws-cayman/UniformBuffersTexturesAndPushConstantsInBothStages-0-terakan.png',
     'draws-cayman/UniformBuffersTexturesAndPushConstantsInBothStages-0-lavapipe.png'),
    ('variants', 'A sampler with unnormalized coordinates in a pixel shader (the seed-004 variants)',
     'draws-cayman/UnnormalizedSamplerInAPixelShader-0-terakan.png',
     'draws-cayman/UnnormalizedSamplerInAPixelShader-0-lavapipe.png'),
    ('msaa', '4x multisampling resolved by the render pass',
     'draws-cayman/MultisampledTrianglesResolvedByTheRenderPass-0-terakan.png',
     'draws-cayman/MultisampledTrianglesResolvedByTheRenderPass-0-lavapipe.png'),
    ('culling', 'Culling and front faces',
     'draws-cayman/CullingAndFrontFaces-3-terakan.png', 'draws-cayman/CullingAndFrontFaces-3-lavapipe.png'),
    ('multiview', 'VK_KHR_multiview, view mask 0b1011 over a 4-layer image (layers left to right; layer 2 is no '
     'view and keeps its grey); below, a second subpass reads each view\'s own layer as an input attachment '
     '(lavapipe 22.3 draws only view 0 there, a bug of its own: the test checks that row against the first)',
     'multiview-cayman/multiview-terakan.png', 'multiview-cayman/multiview-lavapipe.png'),
    ('polygon-modes', 'VK_POLYGON_MODE_LINE over a triangle strip (every triangle outlined whole; right: lavapipe, '
     'whose strict lines differ by a pixel where the rules allow)',
     'polygon-modes-cayman/LineModeDrawsEveryTrianglesEdges-2-terakan.png',
     'polygon-modes-cayman/LineModeDrawsEveryTrianglesEdges-2-lavapipe.png'),
    ('multiview-2d-tiled', 'The multiview scene at 128x128, whose layers are 2D tiled (each layer rendered as its '
     'slice, CB_COLORn_VIEW.SLICE_START)',
     'multiview-cayman/multiview-terakan-128.png', 'multiview-cayman/multiview-lavapipe-128.png'),
    ('barycentrics', 'VK_KHR_fragment_shader_barycentric: BaryCoordKHR as red, green, blue (right: not lavapipe, '
     'which lacks the extension, but the weights computed on the CPU from the specification\'s formulas)',
     'barycentrics-cayman/terakan.png', 'barycentrics-cayman/reference.png'),
    ('anisotropy', 'samplerAnisotropy at 16x on a plane seen at a grazing angle, stripes along the receding '
     'direction (trilinear filtering blurs their far half to one blue; right: lavapipe\'s own anisotropic filter, '
     'another method: the test compares the left with the specification\'s model computed on the CPU)',
     'anisotropy-cayman/anisotropy-stripes-trilinear-aniso16-terakan.png',
     'anisotropy-cayman/anisotropy-stripes-trilinear-aniso16-lavapipe.png'),
]
OPENGL = [(name, caption, 'gl/scenes-cayman/cayman/%s.png' % name, 'gl/scenes-cayman/llvmpipe/%s.png' % name)
          for name, caption in [
              ('texture_mipmaps', 'A mipmapped texture minified with implicit LOD'),
              ('msaa_resolve', '4x MSAA resolved by glBlitFramebuffer'),
              ('stencil_two_sided', 'Two-sided stencil'),
              ('dual_source_blend', 'Dual-source blending'),
              ('wide_lines', 'Wide lines'),
              ('point_sprite', 'Point sprites'),
              ('clip_cull_distances', 'Clip and cull distances'),
              ('format_r11g11b10f', 'An R11G11B10F target'),
              ('msaa_texel_fetch', 'texelFetch of every sample of a 4x texture (sampler2DMS through FMASK)'),
              ('sample_interpolation', 'Sample shading: interpolateAtSample, interpolateAtOffset and sample-qualified inputs'),
              ('msaa_alpha_to_coverage', 'Alpha to coverage at 4x, resolved'),
              ('polygon_mode', 'glPolygonMode: triangles drawn as lines and points'),
          ]]


def read_png(path):
    """(width, height, rows of RGB tuples) of an 8-bit grey, RGB or RGBA PNG."""
    data = open(path, 'rb').read()
    assert data[:8] == b'\x89PNG\r\n\x1a\n', path
    at, idat = 8, b''
    while at < len(data):
        length = int.from_bytes(data[at:at + 4], 'big')
        kind, body = data[at + 4:at + 8], data[at + 8:at + 8 + length]
        if kind == b'IHDR':
            width, height = int.from_bytes(body[:4], 'big'), int.from_bytes(body[4:8], 'big')
            assert body[8] == 8 and body[12] == 0, path + ': not 8-bit or interlaced'
            channels = {0: 1, 2: 3, 6: 4}[body[9]]
        elif kind == b'IDAT':
            idat += body
        at += 12 + length
    raw, stride = zlib.decompress(idat), width * channels
    rows, previous, at = [], bytearray(stride), 0
    for _ in range(height):
        kind, row = raw[at], bytearray(raw[at + 1:at + 1 + stride])
        at += 1 + stride
        for x in range(stride):  # undo the PNG row filters
            left = row[x - channels] if x >= channels else 0
            up, corner = previous[x], previous[x - channels] if x >= channels else 0
            if kind == 1:
                row[x] = (row[x] + left) & 255
            elif kind == 2:
                row[x] = (row[x] + up) & 255
            elif kind == 3:
                row[x] = (row[x] + (left + up) // 2) & 255
            elif kind == 4:
                guess = left + up - corner
                nearest = min((abs(guess - left), 0, left), (abs(guess - up), 1, up), (abs(guess - corner), 2, corner))
                row[x] = (row[x] + nearest[2]) & 255
        previous = row
        rows.append([tuple(row[x * channels:x * channels + 3]) if channels >= 3 else (row[x * channels],) * 3
                     for x in range(width)])
    return width, height, rows


def write_png(path, width, height, rows):
    raw = b''.join(b'\x00' + bytes(value for pixel in row for value in pixel) for row in rows)

    def chunk(kind, body):
        return len(body).to_bytes(4, 'big') + kind + body + zlib.crc32(kind + body).to_bytes(4, 'big')
    header = width.to_bytes(4, 'big') + height.to_bytes(4, 'big') + b'\x08\x02\x00\x00\x00'
    with open(path, 'wb') as out:
        out.write(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', header) + chunk(b'IDAT', zlib.compress(raw, 9)) +
                  chunk(b'IEND', b''))


def pair(left, right, target=192, gap=6):
    """Both pictures enlarged by the same whole factor to about `target` pixels wide, side by
    side on white."""
    (w1, h1, a), (w2, h2, b) = left, right
    scale = max(1, target // max(w1, w2))
    width, height = (w1 + w2) * scale + gap, max(h1, h2) * scale
    rows = [[(255, 255, 255)] * width for _ in range(height)]
    for offset, (w, h, pixels) in ((0, left), (w1 * scale + gap, right)):
        for y in range(h * scale):
            row = pixels[y // scale]
            rows[y][offset:offset + w * scale] = [row[x // scale] for x in range(w * scale)]
    return width, height, rows


def main():
    build, output = sys.argv[1], sys.argv[2]
    tests = os.path.join(build, 'tests')
    os.makedirs(output, exist_ok=True)
    lines = ['# Gallery', '',
             'What the simulated TeraScale card renders (left) next to the reference (right), '
             'enlarged without filtering. Made by `scripts/gallery.sh` from the pictures the tests '
             'keep; every pair here is also compared by a test (named in docs/status.md). The '
             'simulated chip is Cayman (Radeon HD 6970).', '']
    missing = []
    for title, reference, entries in (('Vulkan: Terakan on the simulated card, and lavapipe', 'lavapipe', VULKAN),
                                      ("OpenGL: Mesa's r600 driver on the simulated card, and llvmpipe", 'llvmpipe',
                                       OPENGL)):
        lines += ['## ' + title, '', '| | simulated Cayman \\| %s |' % reference, '|---|---|']
        for stem, caption, ours, theirs in entries:
            paths = [os.path.join(tests, ours), os.path.join(tests, theirs)]
            if not all(os.path.exists(path) for path in paths):
                missing.append(stem)
                continue
            width, height, rows = pair(read_png(paths[0]), read_png(paths[1]))
            write_png(os.path.join(output, stem + '.png'), width, height, rows)
            lines.append('| %s | ![%s](gallery/%s.png) |' % (caption, stem, stem))
        lines.append('')
    # Conservative rasterization (issue 17): not a pair (lavapipe has no conservative
    # rasterization); api-conservative-cayman draws both halves through the driver.
    slivers = os.path.join(build, 'tests', 'conservative-cayman', 'slivers.png')
    if os.path.exists(slivers):
        shutil.copyfile(slivers, os.path.join(os.path.dirname(output.rstrip('/')), 'conservative-slivers.png'))
    else:
        missing.append('conservative-slivers')
    lines += ['## Conservative rasterization (VK_EXT_conservative_rasterization)', '',
              'Three slivers on a 32x18 target enlarged 20 times (the seed\'s picture), drawn through the driver on simulated '
              'Cayman as ordinary triangles (left: they break into dashes) and with conservative '
              'rasterization (right: every touched pixel lit), with the pixel grid and the exact triangles '
              'as white lines. Made by `api-conservative-cayman` (Conservative.SliversPicture), which also '
              'checks that the right half misses no touched pixel; not a pair, since lavapipe does not '
              'offer the extension.',
              '', '![conservative slivers](conservative-slivers.png)', '']
    with open(os.path.join(os.path.dirname(output.rstrip('/')), 'gallery.md'), 'w') as out:
        out.write('\n'.join(lines))
    if missing:
        print('gallery: no pictures for %s (run their tests first)' % ', '.join(missing), file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
