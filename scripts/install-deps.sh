#!/usr/bin/env bash
# Installs the Debian packages tessera builds with (only those missing).
# CUDA is not installed here: the CUDA backend is built when nvcc is on PATH
# (or in /usr/local/cuda/bin).
set -euo pipefail
packages=(cmake ninja-build g++ pkg-config git
          libfmt-dev nlohmann-json3-dev libcli11-dev libgtest-dev zlib1g-dev libbz2-dev libexpat1-dev
          ocl-icd-opencl-dev opencl-c-headers opencl-clhpp-headers pocl-opencl-icd clinfo
          libopenmpi-dev openmpi-bin libnetcdf-dev libpng-dev libgdal-dev gdal-bin
          libfreetype-dev libfontconfig-dev fonts-dejavu-core
          chromium doxygen clang libclang-rt-14-dev clang-format-14)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "installing: ${missing[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
