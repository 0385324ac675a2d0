# Shared by bench.sh and test.sh: configure and build into $BUILD_DIR (default build/).
# Extra CMake options can be passed in $CMAKE_ARGS, e.g. CMAKE_ARGS=-DCMAKE_CUDA_ARCHITECTURES=80
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
JOBS="${JOBS:-$(nproc 2>/dev/null || echo 2)}"

gps_configure_and_build() {
  local generator=()
  # keep whatever generator an existing build directory was made with
  if [ ! -f "$BUILD_DIR/CMakeCache.txt" ] && command -v ninja >/dev/null 2>&1; then
    generator=(-G Ninja)
  fi
  if ! command -v nvcc >/dev/null 2>&1 && [ -x /usr/local/cuda/bin/nvcc ]; then
    export PATH="/usr/local/cuda/bin:$PATH"
  fi
  # shellcheck disable=SC2086
  cmake -S "$ROOT" -B "$BUILD_DIR" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release ${CMAKE_ARGS:-}
  cmake --build "$BUILD_DIR" -j "$JOBS" "$@"
}
