#!/usr/bin/env bash
# Installs the Debian 12 packages Tessel builds and tests with, only when one is missing.
set -euo pipefail
packages=(
  cmake ninja-build ccache g++ pkg-config
  llvm-16-dev liblld-16-dev lld-16
  qt6-base-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools qt6-svg-dev qt6-qpa-plugins
  libqcustomplot-dev libgraphviz-dev graphviz
  nlohmann-json3-dev libfmt-dev
  # The XGBoost cost model plugin (plugins/costmodel-xgboost): the C API. Debian's CMake
  # config for it also imports the command-line program, /usr/bin/xgboost, and fails
  # find_package when that is missing, so the package holding it comes too.
  libxgboost-dev xgboost
  libonnx-dev libprotobuf-dev protobuf-compiler libonnx-testdata
  libopenblas-dev libdnnl-dev
  # Tests and benchmarks only, never a runtime dependency of Tessel: the whole-model
  # references (torchvision models exported to ONNX, ONNX Runtime through node).
  nodejs python3-onnx python3-torch python3-torchvision
  # The IDE's smoke test (the real window under a virtual X server) and the package.
  xvfb xauth dpkg-dev
  # Korean and Simplified Chinese glyphs (Settings > Language), which Debian's
  # default DejaVu fonts lack: without them the translated IDE is boxes.
  # WenQuanYi Micro Hei (Chinese, 1.6 MB download) and Nanum (Korean, 10 MB)
  # rather than Noto CJK (57 MB, 91 MB installed); tests/gui/tst_smoke checks
  # that every translated string has its glyphs.
  fonts-wqy-microhei fonts-nanum
  # The RPC server (tessel-rpc): standalone Asio, OpenSSL's libcrypto for HMAC.
  libasio-dev libssl-dev
  # The aarch64 board without a board (docs/board.md): Debian's cross toolchain (its
  # libc6-dev-arm64-cross and libstdc++ come with it) and user-mode emulation.
  g++-aarch64-linux-gnu qemu-user-static
)
# Libraries of the board's architecture (Debian multiarch, /usr/lib/aarch64-linux-gnu):
# libcrypto for the cross-built tessel-rpc, and the C++ runtime, so that qemu runs the
# board's programs on one consistent arm64 libc6 + libstdc++6 without -L (docs/board.md).
# Needs arm64 as a foreign architecture, added below when it is missing.
foreign=(libssl-dev:arm64 libstdc++6:arm64)
# Debian's npm, unless an npm is already there: NodeSource's nodejs bundles its own
# npm and conflicts with Debian's.
command -v npm >/dev/null 2>&1 || packages+=(npm)
missing=()
for p in "${packages[@]}" "${foreign[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}"
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
for p in "${missing[@]}"; do
  arch=${p##*:}
  [ "$arch" = "$p" ] && continue
  if [ "$arch" != "$(dpkg --print-architecture)" ] && ! dpkg --print-foreign-architectures | grep -qx "$arch"; then
    echo "adding the foreign architecture $arch"
    $SUDO dpkg --add-architecture "$arch"
  fi
done
$SUDO apt-get update -q
$SUDO apt-get install -y -q -o DPkg::Lock::Timeout=600 --no-install-recommends "${missing[@]}"
