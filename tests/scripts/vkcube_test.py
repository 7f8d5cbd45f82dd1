#!/usr/bin/env python3
"""vkcube (Debian's vulkan-tools) presents through Terakan on the simulated chip under Xvfb,
or with --wayland under a headless weston, and its last frame matches lavapipe's (the same
geometry; colours within the float precision Vulkan allows, see compare()).

Usage: vkcube_test.py CHIP SHIM TERAKAN_ICD LAVAPIPE_ICD OUTPUT_DIR KEEP_WINDOW_LIBRARY
       vkcube_test.py --wayland CHIP SHIM TERAKAN_ICD LAVAPIPE_ICD OUTPUT_DIR SCREENSHOT_LIBRARY

X11: each driver gets a fresh Xvfb. vkcube runs `--c FRAMES` frames with KEEP_WINDOW_LIBRARY
preloaded (keep_window.c), so its window, holding the last frame presented, stays on the screen
after vkcube exits: a deterministic picture (vkcube turns the cube by a fixed angle per frame),
which `xwd` reads back.
Wayland: each driver gets a fresh weston (headless back end, pixman renderer, desktop shell with
no panel and no animations, an output the size of the window, so the window covers it at 0, 0).
vkcube-wayland runs `--c FRAMES` frames with SCREENSHOT_LIBRARY preloaded
(wayland_screenshot.c), which runs weston-screenshooter right after the last frame's commit.
vkcube runs with the Khronos validation layer; it must exit 0 and the layer must print nothing.
The pictures (PNG) and a difference image are written to OUTPUT_DIR.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import time

from png_files import read_rgb8, write_rgb8

WIDTH, HEIGHT = 256, 256
FRAMES = 12


def read_xwd(data):
    """The WIDTH x HEIGHT pixels of an X window dump (ZPixmap, 24 or 32 bits per pixel,
    TrueColor masks) as packed RGB bytes."""
    fields = [int.from_bytes(data[i:i + 4], 'big') for i in range(0, 100, 4)]
    header_size, version, pixmap_format, depth, width, height = fields[:6]
    byte_order, bits_per_pixel, bytes_per_line, ncolors = fields[7], fields[11], fields[12], fields[19]
    red_mask, green_mask, blue_mask = fields[14], fields[15], fields[16]
    assert version == 7 and pixmap_format == 2, 'not a ZPixmap X window dump'
    assert bits_per_pixel in (24, 32) and width >= WIDTH and height >= HEIGHT, (bits_per_pixel, width, height)
    pixels = data[header_size + ncolors * 12:]
    step = bits_per_pixel // 8
    order = 'little' if byte_order == 0 else 'big'

    def channel(value, mask):
        shift = (mask & -mask).bit_length() - 1
        return (value & mask) >> shift
    out = bytearray()
    for y in range(HEIGHT):
        row = pixels[y * bytes_per_line:]
        for x in range(WIDTH):
            value = int.from_bytes(row[x * step:x * step + step], order)
            out += bytes((channel(value, red_mask), channel(value, green_mask), channel(value, blue_mask)))
    return bytes(out)


def start_xvfb():
    read_end, write_end = os.pipe()
    server = subprocess.Popen(
        ['Xvfb', '-displayfd', str(write_end), '-screen', '0', '%dx%dx24' % (WIDTH + 200, HEIGHT + 200),
         '-nolisten', 'tcp', '-noreset'],
        pass_fds=(write_end,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write_end)
    number = b''
    deadline = time.time() + 30
    while not number.endswith(b'\n') and time.time() < deadline:
        piece = os.read(read_end, 16)
        if not piece:
            break
        number += piece
    os.close(read_end)
    assert number.strip(), 'Xvfb did not start'
    return server, ':' + number.decode().strip()


def find_window(display):
    """The id of vkcube's window, kept after its exit. The server may still be finishing the
    disconnection when vkcube's process has ended, so look a few times."""
    for _ in range(50):
        tree = subprocess.run(['xwininfo', '-root', '-tree', '-display', display],
                              capture_output=True, text=True, timeout=60).stdout
        for line in tree.splitlines():
            if ' %dx%d+' % (WIDTH, HEIGHT) in line:
                return line.split()[0]
        time.sleep(0.1)
    raise AssertionError('vkcube\'s window is not on the screen:\n' + tree)


def check_run(program, name, run, seconds):
    """vkcube's output, after checking it exited 0 and the validation layer said nothing."""
    output = run.stdout + run.stderr
    print('--- %s on %s: exit %d, %.1f s' % (program, name, run.returncode, seconds))
    print(output)
    assert run.returncode == 0, program + ' failed on ' + name
    for word in ('Validation Error', 'Validation Warning', 'VUID-', 'not implemented'):
        assert word not in output, '%s printed "%s"' % (name, word)
    return output


def run_vkcube_x11(name, environment, folder):
    server, display = start_xvfb()
    try:
        environment = dict(environment, DISPLAY=display)
        started = time.time()
        run = subprocess.run(['vkcube', '--c', str(FRAMES), '--width', str(WIDTH), '--height', str(HEIGHT)],
                             env=environment, capture_output=True, text=True, timeout=900)
        seconds = time.time() - started
        output = check_run('vkcube', name, run, seconds)
        window = find_window(display)
        dump = subprocess.run(['xwd', '-id', window, '-silent', '-display', display],
                              capture_output=True, timeout=60)
        assert dump.returncode == 0, dump.stderr
        rgb = read_xwd(dump.stdout)
        write_rgb8(os.path.join(folder, name + '.png'), WIDTH, HEIGHT, rgb)
        return rgb, output
    finally:
        server.terminate()
        server.wait(timeout=30)


WESTON_CONFIG = """[core]
idle-time=0
[shell]
panel-position=none
background-color=0xff000000
locking=false
animation=none
close-animation=none
startup-animation=none
focus-animation=none
"""


def run_vkcube_wayland(name, environment, folder, screenshot_library):
    with tempfile.TemporaryDirectory() as runtime:
        os.chmod(runtime, 0o700)  # weston and libwayland insist on a private runtime folder
        config = os.path.join(runtime, 'weston.ini')
        with open(config, 'w') as out:
            out.write(WESTON_CONFIG)
        socket = 'terakan-test-wayland'
        compositor_environment = dict(environment, XDG_RUNTIME_DIR=runtime)
        compositor_environment.pop('LD_PRELOAD', None)
        compositor_environment.pop('DISPLAY', None)
        compositor = subprocess.Popen(
            ['weston', '--config=' + config, '--backend=headless-backend.so', '--use-pixman',
             '--width=%d' % WIDTH, '--height=%d' % HEIGHT, '--socket=' + socket, '--debug'],
            env=compositor_environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.time() + 30
            while not os.path.exists(os.path.join(runtime, socket)) and time.time() < deadline:
                assert compositor.poll() is None, 'weston exited at start-up'
                time.sleep(0.1)
            assert os.path.exists(os.path.join(runtime, socket)), 'weston did not start'
            shots = os.path.join(runtime, 'shots')
            os.makedirs(shots)
            preload = environment.get('LD_PRELOAD')
            client_environment = dict(
                compositor_environment, WAYLAND_DISPLAY=socket, TERAKAN_SCREENSHOT_DIR=shots,
                TERAKAN_SCREENSHOT_COMMIT=str(FRAMES),
                LD_PRELOAD=(preload + ':' if preload else '') + screenshot_library)
            started = time.time()
            run = subprocess.run(['vkcube-wayland', '--c', str(FRAMES), '--width', str(WIDTH),
                                  '--height', str(HEIGHT)],
                                 env=client_environment, capture_output=True, text=True, timeout=900)
            output = check_run('vkcube-wayland', name, run, time.time() - started)
            assert 'wayland_screenshot:' not in output, 'the screenshot failed'
            pictures = os.listdir(shots)
            assert len(pictures) == 1, 'expected one screenshot, found %s' % pictures
            width, height, rgb = read_rgb8(os.path.join(shots, pictures[0]), over_black=True)
            assert (width, height) == (WIDTH, HEIGHT), (width, height)
            write_rgb8(os.path.join(folder, name + '.png'), WIDTH, HEIGHT, rgb)
            return rgb, output
        finally:
            compositor.terminate()
            compositor.wait(timeout=30)


def main():
    arguments = sys.argv[1:]
    wayland = arguments[0] == '--wayland'
    if wayland:
        arguments = arguments[1:]
    chip, shim, terakan_icd, lavapipe_icd, output_dir, library = arguments[:6]
    tools = ('weston', 'weston-screenshooter', 'vkcube-wayland') if wayland else \
        ('Xvfb', 'xwd', 'xwininfo', 'vkcube')
    for tool in tools:
        assert shutil.which(tool), tool + ' is not installed (scripts/install-packages.sh installs it)'
    os.makedirs(output_dir, exist_ok=True)
    base = dict(os.environ, VK_LOADER_LAYERS_DISABLE='VK_LAYER_MESA_device_select',
                VK_INSTANCE_LAYERS='VK_LAYER_KHRONOS_validation')
    base.pop('LD_PRELOAD', None)
    base.pop('WAYLAND_DISPLAY', None)

    def run(name, environment):
        if wayland:
            return run_vkcube_wayland(name, environment, output_dir, library)
        environment = dict(environment, LD_PRELOAD=':'.join(
            filter(None, (environment.get('LD_PRELOAD'), library))))
        return run_vkcube_x11(name, environment, output_dir)

    with tempfile.TemporaryDirectory() as home:
        base['HOME'] = home  # no stray layer settings or caches from the user
        terakan, output = run('terakan-' + chip.lower(),
                              dict(base, VK_DRIVER_FILES=terakan_icd, VK_ICD_FILENAMES=terakan_icd,
                                   LD_PRELOAD=shim, TERAKAN_SIM_CHIP=chip))
        assert '(%s) (Terakan)' % chip in output, 'vkcube did not choose the simulated device'
        lavapipe, _ = run('lavapipe', dict(base, VK_DRIVER_FILES=lavapipe_icd,
                                           VK_ICD_FILENAMES=lavapipe_icd))
    compare(terakan, lavapipe, chip, output_dir)


def compare(terakan, lavapipe, chip, output_dir):
    # vkcube's pictures are not bit-exact between two conforming drivers: its vertex shader
    # transforms with a matrix (float rounding moves the silhouette by a fraction of a pixel
    # where an edge passes a pixel centre), it lights each face with a normal made from
    # derivatives (normalize(cross(dFdx(p), dFdy(p)))), and it samples its texture with NEAREST
    # filtering, so the precision Vulkan allows in these moves some pixels by a few units, or to
    # the neighbouring texel at a texel edge. Those pixels are counted and shown
    # (difference-CHIP.png) and must stay rare; a pixel covered by the cube in one picture only
    # must lie on the silhouette (next to a pixel both pictures leave clear).
    clear = bytes((51, 51, 51))  # vkcube clears to 0.2 in each channel
    differing, coverage_mismatches, largest = 0, 0, {}
    difference = bytearray(len(terakan))
    for i in range(0, len(terakan), 3):
        mine, theirs = terakan[i:i + 3], lavapipe[i:i + 3]
        if mine == theirs:
            continue
        differing += 1
        difference[i:i + 3] = b'\xff\x00\xff'
        if (mine == clear) != (theirs == clear):
            coverage_mismatches += 1
            x, y = (i // 3) % WIDTH, (i // 3) // WIDTH
            neighbours = [(x + dx, y + dy) for dx, dy in ((-1, 0), (1, 0), (0, -1), (0, 1))
                          if 0 <= x + dx < WIDTH and 0 <= y + dy < HEIGHT]
            assert any(terakan[3 * (ny * WIDTH + nx):3 * (ny * WIDTH + nx) + 3] == clear and
                       lavapipe[3 * (ny * WIDTH + nx):3 * (ny * WIDTH + nx) + 3] == clear
                       for nx, ny in neighbours), 'pixel (%d, %d) is covered by one picture only, ' \
                'away from the silhouette' % (x, y)
        step = max(abs(a - b) for a, b in zip(mine, theirs))
        largest[step] = largest.get(step, 0) + 1
    write_rgb8(os.path.join(output_dir, 'difference-' + chip.lower() + '.png'), WIDTH, HEIGHT, bytes(difference))
    colours = len({terakan[i:i + 3] for i in range(0, len(terakan), 3)})
    print('pixels differing from lavapipe: %d of %d (largest channel difference: count %s); '
          'covered by one picture only: %d; distinct colours in the frame: %d'
          % (differing, WIDTH * HEIGHT, dict(sorted(largest.items())), coverage_mismatches, colours))
    assert colours > 50, 'the frame is nearly flat: nothing was presented'
    assert coverage_mismatches * 2000 <= WIDTH * HEIGHT, 'the silhouettes differ in more than 0.05% of the pixels'
    assert differing * 400 <= WIDTH * HEIGHT, 'more than 0.25% of the pixels differ'
    assert sum(count for step, count in largest.items() if step > 1) * 2000 <= WIDTH * HEIGHT, \
        'more than 0.05% of the pixels differ by more than one unit'


if __name__ == '__main__':
    main()
