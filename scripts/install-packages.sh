#!/bin/sh
# Installs the Debian 12 packages Terakan needs to build, test and compare against its oracles.
# Idempotent: when every package is already installed it returns without touching apt.
set -eu

packages="
  meson ninja-build pkg-config python3-mako dpkg-dev
  g++ libdrm-dev libvulkan-dev libvulkan1
  flex bison libexpat1-dev zlib1g-dev libzstd-dev
  glslang-tools spirv-tools libgtest-dev
  llvm-14 clang-14
  mesa-vulkan-drivers vulkan-tools vulkan-validationlayers
  libpng-dev
  libgbm-dev libegl-dev libgles-dev libgl1-mesa-dri libegl1 libgbm1 libgles2
  libx11-dev libx11-xcb-dev libxcb1-dev libxcb-dri2-0-dev libxcb-dri3-dev libxcb-present-dev
  libxcb-xfixes0-dev libxcb-sync-dev libxcb-randr0-dev libxcb-shm0-dev libxshmfence-dev
  libxrandr-dev xvfb x11-apps x11-utils
  libwayland-dev libwayland-bin wayland-protocols weston
"

missing=""
for package in $packages; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $package"
    fi
done

if [ -z "$missing" ]; then
    exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
    echo "terakan: missing packages:$missing; run this script as root (or install them yourself)" >&2
    exit 1
fi

echo "terakan: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing
