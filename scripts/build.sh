#!/bin/sh
# Builds Terakan's own targets, and through them only the Mesa libraries they link (a plain
# `ninja` would also build the Mesa driver that Mesa's configuration needs to be named).
# Usage: scripts/build.sh [BUILD_DIR]
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build_dir=${1:-"$root/build"}

"$root/scripts/setup.sh" "$build_dir"
# TERAKAN_REUSE_MESA_FROM=DIR: a new folder takes the Mesa objects DIR compiled, where the
# commands are the same (scripts/reuse_mesa_objects.py says how), instead of compiling them.
if [ -n "${TERAKAN_REUSE_MESA_FROM:-}" ]; then
    /usr/bin/python3 "$root/scripts/reuse_mesa_objects.py" "$TERAKAN_REUSE_MESA_FROM" "$build_dir"
fi

# Regenerates the build files first if a meson.build changed.
ninja -C "$build_dir" build.ninja >/dev/null
# TERAKAN_BUILD_SUITE=NAME builds only what the tests of that meson test suite run: the
# sanitizer stages of scripts/test.sh run one suite each, so the rest of the tree is neither
# compiled nor instrumented there.
targets=$(/usr/bin/python3 -c '
import json, os, subprocess, sys
build_dir = os.path.realpath(sys.argv[1])
suite = sys.argv[2]
def introspect(what):
    return json.loads(subprocess.run(["meson", "introspect", build_dir, what], check=True,
                                     capture_output=True, text=True).stdout)
wanted = None
if suite:
    wanted = {target_id for test in introspect("--tests")
              if "terakan:" + suite in test["suite"] for target_id in test["depends"]}
    if not wanted:
        sys.exit("terakan: no test is in the suite " + suite)
for target in introspect("--targets"):
    # Run targets (ninja bench-draw-CHIP) run programs; they build nothing of their own.
    if target["subproject"] is None and target["type"] != "run" and \
            (wanted is None or target["id"] in wanted):
        for name in target["filename"]:
            print(os.path.relpath(name, build_dir))
' "$build_dir" "${TERAKAN_BUILD_SUITE:-}")
# shellcheck disable=SC2086
ninja -C "$build_dir" $targets
