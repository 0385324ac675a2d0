#!/usr/bin/env bash
# Builds everything and runs every test: the GoogleTest suites through CTest (GPU tests skip, with
# the reason, on a machine without a GPU) and the pytest suites of the Python scripts.
# Usage: scripts/test.sh            (BUILD_DIR, JOBS, CMAKE_ARGS may be set in the environment)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

gps_configure_and_build
ctest --test-dir "$BUILD_DIR" --output-on-failure

if [ -d "$ROOT/scripts/tests" ]; then
  # the scripts' own dependencies (matplotlib, pandas, pytest), installed only when missing
  if ! python3 -c "import matplotlib, pandas, pytest" >/dev/null 2>&1; then
    python3 -m pip install --quiet -r "$ROOT/scripts/requirements.txt"
  fi
  python3 -m pytest -q "$ROOT/scripts/tests"
fi
