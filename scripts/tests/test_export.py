"""scripts/export_gab.py: github-action-benchmark customBiggerIsBetter JSON."""

import json

import pytest

import export_gab
import results
from conftest import BROKEN, FIXTURES


def test_export_all(tmp_path, capsys, errors_file):
    out = tmp_path / "gab.json"
    assert export_gab.main([str(errors_file), "-o", str(out), "--all"]) == 0
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


def test_headline_rows(capsys, sweep_file):
    """Per algorithm at 2^24 and 2^28: copy, the fastest study variant, the vendor anchor."""
    assert export_gab.main([str(sweep_file)]) == 0
    data = json.loads(capsys.readouterr().out)
    names = [d["name"] for d in data]
    assert len(names) == 4 * 2 * 3
    assert names[:3] == ["scan/copy/pot/log2n:24", "scan/best_study/pot/log2n:24",
                         "scan/cub/pot/log2n:24"]
    assert "compact/best_study/keep:0.50/pot/log2n:28" in names
    best = next(d for d in data if d["name"] == "scan/best_study/pot/log2n:24")
    assert "decoupled_lookback block 256" in best["extra"]
    units = {d["name"]: d["unit"] for d in data}
    assert units["sort/cub/keys/uniform/pot/log2n:24"] == "Gkeys/s"
    assert units["sort/copy/pot/log2n:24"] == "GB/s"


def test_stdout_and_filter(capsys, run_file):
    assert export_gab.main([str(run_file), "--filter", "^scan/cub/", "--all"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data and all(d["name"].startswith("scan/cub/") for d in data)


@pytest.mark.parametrize("argv, what", [
    (["--filter", "^nothing/"], "no benchmark to export"),
    (["--sizes", "31"], "no benchmark to export"),
    (["-o", "/nonexistent/x.json"], "does not exist"),
])
def test_bad_usage(capsys, run_file, argv, what):
    assert export_gab.main([str(run_file)] + argv) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert not captured.out and len(lines) == 1 and what in lines[0]


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_bad_file(capsys, name):
    bad = FIXTURES / name
    assert export_gab.main([str(bad)]) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert not captured.out and len(lines) == 1 and str(bad) in lines[0]
