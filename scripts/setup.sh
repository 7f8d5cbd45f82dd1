#!/bin/sh
# Everything needed before building: Debian packages, the Mesa source, a configured build
# folder. Idempotent; quick when all is in place. Usage: scripts/setup.sh [BUILD_DIR]
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build_dir=${1:-"$root/build"}

"$root/scripts/install-packages.sh"
"$root/scripts/fetch-mesa.sh"

if [ ! -f "$build_dir/build.ninja" ]; then
    # shellcheck disable=SC2086
    meson setup "$build_dir" "$root" --native-file "$root/scripts/native.ini" \
        --wrap-mode=nodownload ${TERAKAN_MESON_OPTIONS:-}
fi
