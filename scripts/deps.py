"""Imported first by every script: the packages of scripts/requirements.txt must import.

When one is missing and the scripts' virtual environment (.venv, made by scripts/venv.sh or
scripts/test.sh) exists, the script runs itself again with that environment's python; otherwise
it stops with one line saying how to make it.
"""

import importlib
import os
import sys
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parent
VENV = Path(os.environ.get("GPS_VENV") or SCRIPTS.parent / ".venv")
NEEDED = ("numpy", "pandas", "matplotlib")


def _missing():
    for name in NEEDED:
        try:
            importlib.import_module(name)
        except ImportError:
            return name
    return None


def require() -> None:
    missing = _missing()
    if missing is None:
        return
    prog = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else "scripts"
    venv_python = VENV / "bin" / "python"
    started_as_script = bool(sys.argv) and Path(sys.argv[0]).resolve().parent == SCRIPTS
    if (started_as_script and venv_python.exists()
            and Path(sys.prefix).resolve() != VENV.resolve()):
        os.execv(str(venv_python), [str(venv_python), sys.argv[0], *sys.argv[1:]])
    sys.stderr.write(f"{prog}: the Python package '{missing}' is missing: run scripts/venv.sh "
                     "(makes .venv with scripts/requirements.txt), then run this again\n")
    sys.exit(2)


require()
