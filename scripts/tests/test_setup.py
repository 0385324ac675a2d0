"""The scripts' Python setup: common.sh's virtual environment, deps.py's one-line message."""

import os
import subprocess
import sys

import pytest

from conftest import FIXTURES, SCRIPTS


def run_sh(script, *argv, **env):
    full = {k: v for k, v in os.environ.items() if k != "GPS_PYTHON"}
    full.update(env)
    proc = subprocess.run(["bash", str(SCRIPTS / script), *argv], capture_output=True, text=True,
                          env=full, timeout=120)
    return proc.returncode, proc.stdout, proc.stderr


def test_no_venv_module_is_one_line(tmp_path):
    """A Debian Python without python3-venv: one line naming the package, non-zero, no venv."""
    fake = tmp_path / "python3"
    fake.write_text('#!/bin/sh\nif [ "$1" = "-m" ] && [ "$2" = "venv" ]; then\n'
                    '  mkdir -p "$4/bin"; echo "ensurepip is not available" >&2; exit 1\nfi\n'
                    f'exec "{sys.executable}" "$@"\n')
    fake.chmod(0o755)
    venv = tmp_path / "venv"
    status, out, err = run_sh("venv.sh", GPS_VENV=str(venv), GPS_BASE_PYTHON=str(fake))
    lines = err.strip().splitlines()
    assert status != 0 and not out and len(lines) == 1
    assert "-venv package" in lines[0] and "apt-get install python3." in lines[0]
    assert not venv.exists()


def test_a_system_python_with_the_modules_is_used_as_it_is(tmp_path):
    """The benchmark scripts' environment on a machine whose python3 has matplotlib and pandas
    but no venv module and no network (the GPU machines): that python, no venv, no pip."""
    fake = tmp_path / "python3"
    fake.write_text('#!/bin/sh\nif [ "$1" = "-m" ]; then echo "no $2 here" >&2; exit 1; fi\n'
                    f'exec "{sys.executable}" "$@"\n')
    fake.chmod(0o755)
    venv = tmp_path / "venv"
    env = {k: v for k, v in os.environ.items() if k != "GPS_PYTHON"}
    env.update(GPS_VENV=str(venv), GPS_BASE_PYTHON=str(fake))
    proc = subprocess.run(["bash", "-c", f'source "{SCRIPTS / "common.sh"}" && '
                           'gps_python_env "matplotlib pandas" && echo "$GPS_PY"'],
                          capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == str(fake) and not venv.exists()


def test_no_python_is_one_line(tmp_path):
    status, _, err = run_sh("venv.sh", GPS_VENV=str(tmp_path / "v"),
                            GPS_BASE_PYTHON=str(tmp_path / "nopython"))
    assert status != 0 and len(err.strip().splitlines()) == 1 and "not found" in err


@pytest.mark.skipif(sys.prefix == sys.base_prefix, reason="the tests run outside a venv")
def test_a_complete_venv_is_used_as_it_is():
    status, out, err = run_sh("venv.sh", GPS_VENV=sys.prefix)
    assert status == 0 and out.strip() == os.path.join(sys.prefix, "bin", "python")
    assert "installing" not in err


def test_test_sh_bad_option():
    status, _, err = run_sh("test.sh", "--bogus")
    assert status == 2 and len(err.strip().splitlines()) == 1


def test_missing_package_is_one_line(tmp_path):
    """A script started by a Python without pandas and no .venv to run in: one line, status 2."""
    fake = tmp_path / "fake"
    fake.mkdir()
    (fake / "pandas.py").write_text("raise ImportError('no pandas here')\n")
    env = dict(os.environ, PYTHONPATH=str(fake), GPS_VENV=str(tmp_path / "none"))
    proc = subprocess.run([sys.executable, str(SCRIPTS / "tables.py"),
                           str(FIXTURES / "gpu_run.json")],
                          capture_output=True, text=True, env=env, timeout=60)
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == 2 and len(lines) == 1
    assert "'pandas' is missing" in lines[0] and "scripts/venv.sh" in lines[0]


def test_scripts_that_need_no_pytest_work_offline(tmp_path):
    """A GPU machine: its Python has matplotlib and pandas but no pytest, and pip has no network.
    The benchmark scripts (gps_python_env "matplotlib pandas") use it; the tests ask for pytest,
    and say in one line that pip could not get it."""
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    py = venv / "bin" / "python"
    py.write_text('#!/bin/sh\ncase "$*" in\n'
                  '  *pytest*) exit 1 ;;\n'  # "import matplotlib, pandas, pytest": no pytest
                  '  "-m pip install"*) echo "no network" >&2; exit 1 ;;\nesac\n'
                  f'exec "{sys.executable}" "$@"\n')
    py.chmod(0o755)
    common = SCRIPTS / "common.sh"
    env = {k: v for k, v in os.environ.items() if k != "GPS_PYTHON"}
    env["GPS_VENV"] = str(venv)
    script = f'source "{common}"; gps_python_env "matplotlib pandas" && echo "$GPS_PY"'
    proc = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=60,
                          env=env)
    assert proc.returncode == 0 and proc.stdout.strip() == str(py), proc.stderr
    proc = subprocess.run(["bash", "-c", f'source "{common}"; gps_python_env'], capture_output=True,
                          text=True, timeout=60, env=env)
    assert proc.returncode != 0 and "pip could not install" in proc.stderr
