"""`meson install` puts the driver, a manifest that points at the installed library, our tools and
the simulator's library (for terakan-sim) into a staging folder, and installs nothing of Mesa's.
The staged terakan-sim finds the staged simulator (relative to itself) and runs a program on it.

  install_test.py BUILD_DIR PREFIX LIBDIR"""
import json
import os
import subprocess
import sys
import tempfile

build_dir, prefix, libdir = sys.argv[1:4]
with tempfile.TemporaryDirectory() as staging:
    subprocess.run(['meson', 'install', '-C', build_dir, '--no-rebuild', '--skip-subprojects',
                    '--quiet', '--destdir', staging], check=True)
    installed = sorted(os.path.relpath(os.path.join(folder, name), staging)
                       for folder, _, names in os.walk(staging) for name in names)
    library = os.path.join(prefix, libdir, 'libvulkan_terakan.so')
    manifests = [path for path in installed if '/vulkan/icd.d/terakan_icd.' in '/' + path]
    assert os.path.relpath(library, '/') in installed, installed
    assert len(manifests) == 1, installed
    with open(os.path.join(staging, manifests[0]), encoding='utf-8') as manifest:
        assert json.load(manifest)['ICD']['library_path'] == library
    simulator = os.path.relpath(os.path.join(prefix, libdir, 'terakan', 'libterakan_sim.so'), '/')
    assert simulator in installed, installed
    others = [path for path in installed
              if path not in manifests and path not in (os.path.relpath(library, '/'), simulator)]
    # Besides the driver, its manifest and the simulator, only our command-line tools (bin/terakan-*).
    assert all(os.path.basename(os.path.dirname(path)) == 'bin' and
               os.path.basename(path).startswith('terakan-') for path in others), \
        'unexpected files installed: %s' % others

    launcher = [path for path in others if os.path.basename(path) == 'terakan-sim']
    assert len(launcher) == 1, others
    launcher = os.path.join(staging, launcher[0])
    environment = {key: value for key, value in os.environ.items()
                   if key not in ('TERAKAN_SIM_SHIM', 'LD_PRELOAD')}
    found = subprocess.run([launcher, '--print-shim'], env=environment, capture_output=True,
                           text=True, check=True).stdout.strip()
    assert os.path.realpath(found) == os.path.realpath(os.path.join(staging, simulator)), found
    ran = subprocess.run([launcher, '--chip', 'barts', 'sh', '-c',
                          'grep -q libterakan_sim /proc/$$/maps && echo simulated'],
                         env=environment, capture_output=True, text=True)
    assert ran.returncode == 0 and ran.stdout == 'simulated\n', (ran.stdout, ran.stderr)
    print('installed:', ', '.join(installed))
