"""scripts/export_gab.py: github-action-benchmark customBiggerIsBetter JSON."""

import json

import pytest

import export_gab
import results
from conftest import BROKEN, FIXTURES


def test_export(tmp_path, capsys, errors_file):
    out = tmp_path / "gab.json"
    assert export_gab.main([str(errors_file), "-o", str(out)]) == 0
    data = json.loads(out.read_text())
    f = results.load(str(errors_file))
    assert isinstance(data, list) and len(data) == int(f.rows["gbs"].notna().sum())
    by_name = {d["name"]: d for d in data}
    for r in f.rows.itertuples():
        entry = by_name[r.name]
        assert entry["unit"] == "GB/s" and entry["value"] == pytest.approx(r.gbs, rel=1e-4)
        assert isinstance(entry["range"], str) and isinstance(entry["extra"], str)
        assert f.gpu_name in entry["extra"]
    assert not {n for n, _ in f.skipped} & set(by_name)
    for entry in data:
        assert set(entry) <= {"name", "unit", "value", "range", "extra"}
        low, high = (float(x) for x in entry["range"].split(".."))
        assert low <= entry["value"] * 1.001 and entry["value"] <= high * 1.001


def test_stdout_and_filter(capsys, run_file):
    assert export_gab.main([str(run_file), "--filter", "^scan/cub/"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data and all(d["name"].startswith("scan/cub/") for d in data)


def test_filter_matching_nothing(capsys, run_file):
    assert export_gab.main([str(run_file), "--filter", "^nothing/"]) == 1


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_bad_file(capsys, name):
    bad = FIXTURES / name
    assert export_gab.main([str(bad)]) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert not captured.out and len(lines) == 1 and str(bad) in lines[0]
