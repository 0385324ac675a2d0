"""scripts/tables.py: the README's Markdown tables from a result file."""

import contextlib
import io

import pytest

import tables
from conftest import BROKEN, FIXTURES


def run(argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = tables.main([str(a) for a in argv])
    return status, out.getvalue(), err.getvalue()


def test_scan_table_ratios(run_file):
    status, out, _ = run([run_file, "--filter", "^scan/", "--sizes", "28"])
    assert status == 0
    assert "**scan**" in out and "| variant | 2^28 | x copy | x cub |" in out
    row = {line.split(" | ")[0].strip("| "): line.split(" | ")[1:]
           for line in out.splitlines() if line.startswith("| ")}
    assert row["cub"][2].strip(" |") == "1.00"  # CUB against itself
    assert row["copy"][1] == "1.000"  # the reference
    assert "(b" in row["decoupled_lookback"][0]  # best block noted


def test_missing_size_is_a_dash(run_file):
    status, out, _ = run([run_file, "--filter", "^scan/", "--sizes", "31"])
    assert status == 0
    assert "| cub | – | – | – |" in out


def test_no_rows(run_file):
    status, _, err = run([run_file, "--filter", "^nothing/"])
    assert status == 1 and "no rows match" in err


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_bad_file_one_line_error(name):
    status, out, err = run([FIXTURES / name])
    assert status == 1 and out == ""
    assert len(err.strip().splitlines()) == 1 and err.startswith("tables.py: ")
