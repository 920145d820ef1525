# Cross build for 64-bit Arm Linux with Debian's cross toolchain (docs/board.md):
#   cmake -S . -B build-aarch64 -G Ninja -DCMAKE_BUILD_TYPE=Release \
#         -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/aarch64-linux-gnu.cmake -DTESSEL_RUNTIME_ONLY=ON
# Needs g++-aarch64-linux-gnu (its libc and libstdc++ live in /usr/aarch64-linux-gnu) and
# arm64 libraries installed through Debian multiarch in /usr/lib/aarch64-linux-gnu
# (libssl-dev:arm64 for tessel-rpc, libstdc++6:arm64); scripts/install-deps.sh installs both.
# The binaries run under user-mode emulation as `qemu-aarch64-static BIN`, on the multiarch
# libraries alone. Not with `-L /usr/aarch64-linux-gnu`: that loads the cross package's
# ld.so (2.36-8cross1) beside the multiarch libc.so.6 (2.36-9+deb12u…) that libssl-dev:arm64
# brings, and the first pthread_create then spins forever.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(TESSEL_CROSS_TRIPLE aarch64-linux-gnu)

set(CMAKE_C_COMPILER ${TESSEL_CROSS_TRIPLE}-gcc)
set(CMAKE_CXX_COMPILER ${TESSEL_CROSS_TRIPLE}-g++)
# Multiarch: find_library looks in lib/aarch64-linux-gnu under every prefix.
set(CMAKE_LIBRARY_ARCHITECTURE ${TESSEL_CROSS_TRIPLE})

# Libraries and headers: the cross toolchain's own root first, then the multiarch
# folders of / (arm64 packages); never the host's x86_64 libraries, which
# CMAKE_LIBRARY_ARCHITECTURE keeps out of the search. Programs (ninja, ccache) are
# the host's. Packages: header-only ones (nlohmann_json, Asio) are the host's too.
set(CMAKE_FIND_ROOT_PATH /usr/${TESSEL_CROSS_TRIPLE})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)
# pkg-config (FindOpenSSL asks it for hints) must read the arm64 .pc files, or its
# libdir hint would be the host's /usr/lib/x86_64-linux-gnu.
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/${TESSEL_CROSS_TRIPLE}/pkgconfig:/usr/share/pkgconfig)

# try_run and add_test run the board's binaries under emulation.
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64-static)
