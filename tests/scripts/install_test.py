"""`meson install` puts the driver, a manifest that points at the installed library and our tools
into a staging folder, and installs nothing of Mesa's.

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
    others = [path for path in installed
              if path not in manifests and path != os.path.relpath(library, '/')]
    # Besides the driver and its manifest, only our command-line tools (bin/terakan-*).
    assert all(os.path.basename(os.path.dirname(path)) == 'bin' and
               os.path.basename(path).startswith('terakan-') for path in others), \
        'unexpected files installed: %s' % others
    print('installed:', ', '.join(installed))
