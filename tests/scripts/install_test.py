"""`meson install` puts the driver and a manifest that points at the installed library into a
staging folder, and installs nothing of Mesa's.

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
    assert len(installed) == 2, 'unexpected files installed: %s' % installed
    print('installed:', ', '.join(installed))
