#!/usr/bin/env bash
# Builds everything and runs every test: the GoogleTest suites through CTest (GPU tests skip, with
# the reason, on a machine without a GPU) and the pytest suites of the Python scripts, in the
# scripts' virtual environment (.venv, made and filled when missing: see common.sh).
# Usage: scripts/test.sh             (BUILD_DIR, JOBS, CMAKE_ARGS may be set in the environment)
#        scripts/test.sh --scripts   only the Python scripts' tests (no build, no CTest)
set -euo pipefail
# shellcheck source=scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

scripts_only=0
case "${1:-}" in
  "") ;;
  --scripts) scripts_only=1 ;;
  *) echo "test.sh: unknown option '$1' (only --scripts)" >&2; exit 2 ;;
esac

gps_python_env # first: a machine that cannot make the venv fails before a long build
if [ "$scripts_only" = 0 ]; then
  gps_configure_and_build
  ctest --test-dir "$BUILD_DIR" --output-on-failure --parallel "$JOBS"
fi
"$GPS_PY" -m pytest -q "$ROOT/scripts/tests"
