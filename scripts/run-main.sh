#!/bin/sh
# The README's main command: sets up and builds, then runs the main job on the simulated GPU
# through the real Vulkan loader. Until the driver can submit work (the simulator already runs
# command streams), the main job is `vulkaninfo --summary` on the simulated device.
# Usage: scripts/run-main.sh [BUILD_DIR]   (TERAKAN_SIM_CHIP picks the board; default CAYMAN)
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
echo "Terakan's driver cannot run GPU work yet (no compute path; the simulated GPU already runs"
echo "compute command streams in the tests). What runs now: vulkaninfo --summary through the"
echo "Vulkan loader, with only Terakan's driver visible and the simulated $chip radeon node preloaded."
echo
summary=$(VK_DRIVER_FILES="$manifest" VK_ICD_FILENAMES="$manifest" \
    VK_LOADER_LAYERS_DISABLE=VK_LAYER_MESA_device_select \
    LD_PRELOAD="$build_dir/src/sim/libterakan_sim.so" TERAKAN_SIM_CHIP="$chip" \
    vulkaninfo --summary 2>"$build_dir-vulkaninfo.log") || {
    cat "$build_dir-vulkaninfo.log" >&2
    echo "terakan: vulkaninfo failed on the simulated device" >&2
    exit 1
}
printf '%s\n' "$summary" | sed -n '/^Devices:/,$p'
case "$summary" in
    *"(Terakan)"*) ;;
    *) echo "terakan: vulkaninfo did not show a Terakan device" >&2; exit 1;;
esac
