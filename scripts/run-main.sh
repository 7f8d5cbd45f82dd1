#!/bin/sh
# The README's main command: sets up and builds, then runs the main job on the simulated GPU
# through the real Vulkan loader: terakan-fractal computes a picture with a compute shader,
# writes it to terakan-fractal.png (or $TERAKAN_FRACTAL_OUTPUT) and prints the device's name
# and how long it took. Usage: scripts/run-main.sh [BUILD_DIR]
# (TERAKAN_SIM_CHIP picks the board; default CAYMAN)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build_dir=${1:-"$root/build"}

"$root/scripts/build.sh" "$build_dir" >"$build_dir-build.log" 2>&1 || {
    cat "$build_dir-build.log" >&2
    echo "terakan: the build failed (log above)" >&2
    exit 1
}

manifest=$(ls "$build_dir"/src/terakan/terakan_devenv_icd.*.json)
chip=${TERAKAN_SIM_CHIP:-CAYMAN}
output=${TERAKAN_FRACTAL_OUTPUT:-"$root/terakan-fractal.png"}
echo "The main job: a Vulkan compute shader draws a Mandelbrot set on the simulated $chip"
echo "(libterakan_sim.so preloaded behind the radeon kernel interface), through the Vulkan loader"
echo "with only Terakan's driver visible; the picture is written as a PNG."
echo
VK_DRIVER_FILES="$manifest" VK_ICD_FILENAMES="$manifest" \
    VK_LOADER_LAYERS_DISABLE=VK_LAYER_MESA_device_select \
    LD_PRELOAD="$build_dir/src/sim/libterakan_sim.so" TERAKAN_SIM_CHIP="$chip" \
    "$build_dir/src/tools/terakan-fractal" --device Terakan --output "$output"
