# shellcheck shell=bash
# Shared by bench.sh, test.sh, gpu_check.sh and venv.sh (sourced, not run).
#
# gps_configure_and_build [cmake --build args]: configure and build into $BUILD_DIR (default
#   build/). Extra CMake options in $CMAKE_ARGS, e.g. CMAKE_ARGS=-DCMAKE_CUDA_ARCHITECTURES=80
# gps_python_env [MODULES]: sets $GPS_PY to a Python that has MODULES (default: all of
#   scripts/requirements.txt, "matplotlib pandas pytest"; the benchmark scripts need only
#   "matplotlib pandas"): the system Python where it has them, else the virtual environment
#   $GPS_VENV (default .venv, with the system's site
#   packages), made with `python3 -m venv` and filled with pip only when a module is missing, so
#   that it works where the system Python refuses pip installs (PEP 668) and, where the system has
#   the modules, without a network (the GPU machines). GPS_PYTHON=/path/to/python uses that
#   interpreter as it is.
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
JOBS="${JOBS:-$(nproc 2>/dev/null || echo 2)}"
GPS_VENV="${GPS_VENV:-$ROOT/.venv}"

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

_gps_has_requirements() { # PYTHON [MODULES]
  local modules="${2:-matplotlib pandas pytest}"
  "$1" -c "import ${modules// /, }" >/dev/null 2>&1
}

gps_python_env() {
  local modules="${1:-matplotlib pandas pytest}"
  if [ -n "${GPS_PYTHON:-}" ]; then
    GPS_PY="$GPS_PYTHON"
    return 0
  fi
  local py="$GPS_VENV/bin/python" base="${GPS_BASE_PYTHON:-python3}"
  # the system Python as it is, where it has the modules and no venv of ours does (no venv or
  # pip needed: the GPU machines, which may lack python3-venv and a network); not for venv.sh,
  # whose job is the venv (GPS_VENV_ONLY=1)
  if [ -z "${GPS_VENV_ONLY:-}" ] && ! _gps_has_requirements "$py" "$modules" &&
    _gps_has_requirements "$base" "$modules"; then
    GPS_PY="$(command -v "$base")"
    return 0
  fi
  # a usable venv: its python runs and it has the packages, or a pip to get them
  if ! { "$py" -c 'import sys' >/dev/null 2>&1 \
      && { _gps_has_requirements "$py" "$modules" || "$py" -m pip --version >/dev/null 2>&1; }; }; then
    if ! command -v "$base" >/dev/null 2>&1; then
      echo "scripts: $base not found: install Python 3.9 or newer with venv (Debian/Ubuntu: apt-get install python3 python3-venv)" >&2
      return 1
    fi
    rm -rf "$GPS_VENV"
    # with the system's site packages: Debian's python3-matplotlib etc. count when installed
    if ! "$base" -m venv --system-site-packages "$GPS_VENV" >/dev/null 2>&1; then
      rm -rf "$GPS_VENV"
      local pkg
      pkg=$("$base" -c 'import sys; print("python%d.%d-venv" % sys.version_info[:2])' 2>/dev/null || echo python3-venv)
      echo "scripts: '$base -m venv' cannot make a virtual environment: install the $pkg package (Debian/Ubuntu: apt-get install $pkg) and run again" >&2
      return 1
    fi
  fi
  if ! _gps_has_requirements "$py" "$modules"; then
    echo "scripts: installing scripts/requirements.txt into $GPS_VENV" >&2
    if ! "$py" -m pip install --quiet --disable-pip-version-check -r "$ROOT/scripts/requirements.txt" >&2; then
      echo "scripts: pip could not install scripts/requirements.txt into $GPS_VENV (no network?)" >&2
      return 1
    fi
  fi
  # shellcheck disable=SC2034  # read by the scripts that source this file
  GPS_PY="$py"
}
