#!/bin/sh
# The README's main command: sets up and builds, then runs the main job on the simulated GPU
# through the real Vulkan loader: terakan-scene draws a textured, lit, depth-tested, 4x
# multisampled 3D scene with a compute post-process, writes it to terakan-scene.png (or
# $TERAKAN_SCENE_OUTPUT) and prints the device's name, the picture's size and triangle count and
# the timings. The second demo, terakan-fractal (a Mandelbrot set computed by a compute shader,
# terakan-fractal.png or $TERAKAN_FRACTAL_OUTPUT), runs after it; TERAKAN_MAIN_SCENE_ONLY=1
# leaves it out. Usage: scripts/run-main.sh [BUILD_DIR]
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
scene_output=${TERAKAN_SCENE_OUTPUT:-"$root/terakan-scene.png"}
fractal_output=${TERAKAN_FRACTAL_OUTPUT:-"$root/terakan-fractal.png"}

# Only Terakan's driver is visible to the loader, with the simulator behind the radeon kernel
# interface.
run_on_simulator() {
    VK_DRIVER_FILES="$manifest" VK_ICD_FILENAMES="$manifest" \
        VK_LOADER_LAYERS_DISABLE=VK_LAYER_MESA_device_select \
        LD_PRELOAD="$build_dir/src/sim/libterakan_sim.so" TERAKAN_SIM_CHIP="$chip" "$@"
}

echo "The main job: a 3D scene on the simulated $chip (libterakan_sim.so preloaded behind the"
echo "radeon kernel interface), through the Vulkan loader with only Terakan's driver visible:"
echo "a few thousand triangles, a mipmapped texture, a ramp texture read with unnormalized"
echo "coordinates, diffuse and ambient light, 4x multisampled with depth and resolved by the"
echo "render pass, then a compute shader's tone curve and vignette; written as a PNG."
echo
run_on_simulator "$build_dir/src/tools/terakan-scene" --device Terakan --output "$scene_output"

if [ "${TERAKAN_MAIN_SCENE_ONLY:-0}" != 1 ]; then
    echo
    echo "The second demo: a Vulkan compute shader draws a Mandelbrot set on the same simulated card."
    echo
    run_on_simulator "$build_dir/src/tools/terakan-fractal" --device Terakan --output "$fractal_output"
fi
