#!/bin/sh
# Regenerates docs/gallery.md and docs/gallery/*.png: runs the tests that keep pictures (the
# Vulkan draw scenes, vkcube on X11 and Wayland, the main job's scene and r600g's GL scenes, on
# simulated Cayman and their references) and pairs them up. Usage: scripts/gallery.sh [BUILD_DIR] (built already).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build_dir=${1:-"$root/build"}
meson test -C "$build_dir" --no-rebuild --logbase gallery \
    api-draws-cayman api-multiview-cayman api-barycentrics-cayman api-polygon-modes-cayman api-anisotropy-cayman api-conservative-cayman vkcube-cayman vkcube-wayland-cayman scene-cayman gl-scenes-r600g-cayman >/dev/null || {
    echo "gallery: a test failed; see $build_dir/meson-logs/gallery.txt" >&2
    exit 1
}
/usr/bin/python3 "$root/scripts/gallery.py" "$build_dir" "$root/docs/gallery"
echo "gallery: docs/gallery.md and $(ls "$root/docs/gallery" | wc -l) pictures"
