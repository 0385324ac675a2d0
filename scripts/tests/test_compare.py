"""scripts/compare.py: verdicts against the noise, copy-normalised GB/s, the gate, bad input."""

import pytest

import compare
import results
from conftest import BROKEN, FIXTURES, scaled_copy


def table_rows(markdown: str):
    """{benchmark: [cells]} of the Markdown tables."""
    rows = {}
    for line in markdown.splitlines():
        if line.startswith("| `"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            rows[cells[0].strip("`")] = cells
    return rows


def is_cub(name: str) -> bool:
    return "/cub/" in name


def run(capsys, *argv):
    status = compare.main([str(a) for a in argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_a_file_against_itself_is_all_same(capsys, run_file):
    status, out, err = run(capsys, run_file, run_file, "--fail-above", "0")
    assert status == 0
    rows = table_rows(out)
    assert len(rows) == len(results.load(str(run_file)).rows)
    assert {cells[-1] for cells in rows.values()} == {"same"}
    assert all(cells[3] == "1.000" for cells in rows.values())


def test_slower_beyond_the_noise(tmp_path, capsys, run_file):
    slow = scaled_copy(run_file, tmp_path / "slow.json", 1.5, is_cub)
    status, out, err = run(capsys, run_file, slow, "--fail-above", "10")
    assert status == 1
    rows = table_rows(out)
    cub = {n: c for n, c in rows.items() if is_cub(n)}
    assert cub and all(c[-1].startswith("slower") and c[3] == "1.500" for c in cub.values())
    assert all(c[-1] == "same" for n, c in rows.items() if not is_cub(n))
    assert "slower than" in err and next(iter(cub)) in err
    # a regression smaller than the threshold passes the gate
    status, _, _ = run(capsys, run_file, slow, "--fail-above", "60")
    assert status == 0


def test_faster_beyond_the_noise(tmp_path, capsys, run_file):
    fast = scaled_copy(run_file, tmp_path / "fast.json", 0.5, is_cub)
    status, out, _ = run(capsys, run_file, fast, "--fail-above", "5")
    assert status == 0
    cub = {n: c for n, c in table_rows(out).items() if is_cub(n)}
    assert cub and all(c[-1].startswith("faster") for c in cub.values())


def test_difference_inside_the_noise_is_same(tmp_path, run_file):
    a = results.load(str(run_file))
    # a shift smaller than the narrowest band keeps every pair of bands overlapping
    rows = a.rows
    rel = ((rows["time_hi_us"] - rows["time_lo_us"]) / rows["time_us"]).min()
    factor = 1.0 + max(rel, 0.02) * 0.5  # bands are at least ±1% (--min-noise)
    b = results.load(str(scaled_copy(run_file, tmp_path / "b.json", factor)))
    c = compare.compare(a, b)
    assert set(c.table["verdict"]) == {"same"}
    assert c.table["ratio"].to_numpy() == pytest.approx(factor)
    # without the minimum band, the rows whose own band is narrower than the shift differ
    strict = compare.compare(a, b, min_noise_pct=0.0)
    narrow = set(rows.loc[rows["time_hi_us"] < rows["time_lo_us"] * factor, "name"])
    assert set(strict.table.loc[strict.table["verdict"] != "same", "name"]) == narrow


def test_verdict_rule():
    assert compare.verdict(9, 11, 10, 12, 10, 11) == "same"
    assert compare.verdict(9, 11, 12, 13, 10, 12.5) == "slower"
    assert compare.verdict(9, 11, 7, 8.9, 10, 8) == "faster"


def test_repetitions_band(tmp_path, reps_file):
    a = results.load(str(reps_file))
    variant = a.rows["variant"].iloc[0]
    chosen = a.rows[a.rows["variant"] == variant]
    # slower by more than the widest band of the chosen rows: outside the noise
    factor = 1.5 * float((chosen["time_hi_us"] / chosen["time_lo_us"]).max())
    def match(name):
        return f"/{variant}/" in name
    b = results.load(str(scaled_copy(reps_file, tmp_path / "b.json", factor, match)))
    c = compare.compare(a, b)
    assert set(c.table.loc[c.table["name"].map(match), "verdict"]) == {"slower"}
    assert set(c.table.loc[~c.table["name"].map(match), "verdict"]) == {"same"}


def test_other_gpu_uses_each_files_copy_baseline(tmp_path, capsys, run_file):
    """Another GPU twice as fast everywhere, copy included: same fraction of copy, and the gate
    does not apply across GPUs."""
    other = scaled_copy(run_file, tmp_path / "h200.json", 0.5,
                        context={"gpu_name": "Some Other GPU", "gpu_peak_bandwidth_gbs": "9999.0"})
    status, out, err = run(capsys, other, run_file, "--fail-above", "5")
    assert status == 0 and "does not apply" in out and "another GPU" in err
    assert "Different GPUs" in out
    rows = table_rows(out)
    gpu = [c for n, c in rows.items() if c[5] != "–"]
    assert gpu and all(c[5] == c[6] for c in gpu)  # A % of copy == B % of copy
    assert all(c[-1].startswith("slower") for c in rows.values())


def test_more_than_two_files_compare_with_the_first(tmp_path, capsys, run_file):
    b = scaled_copy(run_file, tmp_path / "b.json", 1.5, is_cub)
    c = scaled_copy(run_file, tmp_path / "c.json", 0.5, is_cub)
    status, out, _ = run(capsys, run_file, b, c)
    assert status == 0
    assert "### 1. B `b.json` vs A `gpu_run.json`" in out
    assert "### 2. B `c.json` vs A `gpu_run.json`" in out


def test_filter_and_changed_only(tmp_path, capsys, run_file):
    slow = scaled_copy(run_file, tmp_path / "slow.json", 1.5, is_cub)
    status, out, _ = run(capsys, run_file, slow, "--filter", "/pot/")
    assert table_rows(out) and all("/pot/" in n for n in table_rows(out))
    status, out, _ = run(capsys, run_file, slow, "--changed-only")
    assert table_rows(out) and all(is_cub(n) for n in table_rows(out))
    status, out, err = run(capsys, run_file, slow, "--filter", "[unclosed")
    assert status == 2 and "not a valid regex" in err


def test_best_block(capsys, run_file):
    status, out, _ = run(capsys, run_file, run_file, "--best-block")
    names = list(table_rows(out))
    assert names and not any("/block:" in n for n in names)
    f = results.load(str(run_file))
    assert len(names) == len(results.best_blocks(f.rows))


def test_skipped_rows_are_reported(capsys, run_file, errors_file):
    status, out, _ = run(capsys, run_file, errors_file)
    skipped = {n for n, _ in results.load(str(errors_file)).skipped}
    assert "skipped with an error" in out
    assert not skipped & set(table_rows(out))


def test_plot(tmp_path, capsys, run_file):
    slow = scaled_copy(run_file, tmp_path / "slow.json", 1.5, is_cub)
    png = tmp_path / "cmp.png"
    status, _, _ = run(capsys, run_file, slow, "--plot", png, "--filter", "^scan/")
    assert status == 0 and png.read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_bad_file_one_line_error(capsys, run_file, name):
    bad = FIXTURES / name
    status, out, err = run(capsys, run_file, bad)
    lines = err.strip().splitlines()
    assert status == 2 and not out
    assert len(lines) == 1 and str(bad) in lines[0] and BROKEN[name] in lines[0]


def test_needs_two_files(capsys, run_file):
    status, _, err = run(capsys, run_file)
    assert status == 2 and "at least two" in err
