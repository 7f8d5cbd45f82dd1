#!/bin/sh
# Builds Terakan's own targets, and through them only the Mesa libraries they link (a plain
# `ninja` would also build the Mesa driver that Mesa's configuration needs to be named).
# Usage: scripts/build.sh [BUILD_DIR]
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build_dir=${1:-"$root/build"}

"$root/scripts/setup.sh" "$build_dir"

# Regenerates the build files first if a meson.build changed.
ninja -C "$build_dir" build.ninja >/dev/null
targets=$(meson introspect "$build_dir" --targets | /usr/bin/python3 -c '
import json, os, sys
build_dir = os.path.realpath(sys.argv[1])
for target in json.load(sys.stdin):
    # Run targets (ninja bench-draw-CHIP) run programs; they build nothing of their own.
    if target["subproject"] is None and target["type"] != "run":
        for name in target["filename"]:
            print(os.path.relpath(name, build_dir))
' "$build_dir")
# shellcheck disable=SC2086
ninja -C "$build_dir" $targets
