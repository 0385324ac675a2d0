#!/usr/bin/env bash
# Makes the scripts' virtual environment (.venv, or $GPS_VENV) with scripts/requirements.txt when
# it is missing or incomplete, and prints its python. The Python scripts run in it by themselves
# once it exists (a script started with another python re-runs itself with .venv's).
# Usage: scripts/venv.sh            then e.g. scripts/plot.py results/*.json
set -euo pipefail
# shellcheck source=scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
GPS_VENV_ONLY=1 gps_python_env
echo "$GPS_PY"
