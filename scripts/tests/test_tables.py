"""scripts/tables.py: the README's Markdown tables from a result file."""

import contextlib
import io
import json

import pytest

import tables
from conftest import BROKEN, FIXTURES, load_doc, with_repetitions, write_doc


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
    status, out, err = run([run_file, "--filter", "^scan/", "--sizes", "31"])
    assert status == 0
    assert "| cub | – | – | – |" in out
    # none of the columns asked for is in the file: a hint names the sizes it has
    assert err.strip() == (f"tables.py: no pot row at 2^31 in {run_file} (it has 2^20, 2^24, "
                           "2^28): --sizes picks the columns")
    status, out, err = run([run_file, "--filter", "^scan/", "--sizes", "28", "31"])
    assert status == 0 and not err


def test_a_run_without_a_gpu_says_so(tmp_path):
    status, out, _ = run([FIXTURES / "real_meta_run.json", "--sizes", "10", "12"])
    assert status == 0
    assert "(no GPU (CPU rows only); pot;" in out and "none" not in out


def test_no_rows(run_file):
    status, _, err = run([run_file, "--filter", "^nothing/"])
    assert status == 2 and "no rows match" in err and len(err.strip().splitlines()) == 1


def test_default_tables_in_suite_order_at_the_headline_axes(run_file):
    status, out, _ = run([run_file])
    titles = [line.split("**")[1] for line in out.splitlines() if line.startswith("**")]
    assert status == 0 and titles == ["scan", "compact keep:0.50"]


def test_facets(tmp_path, run_file):
    doc = load_doc(run_file)
    doc["benchmarks"] += [dict(b, name=b["name"].replace("keep:0.50", "keep:1.00"),
                               run_name=b["run_name"].replace("keep:0.50", "keep:1.00"))
                          for b in doc["benchmarks"] if "/keep:0.50/" in b["name"]
                          and "/block:" not in b["name"]]  # fewer rows: not the headline
    source = write_doc(tmp_path / "two.json", doc)
    status, out, _ = run([source, "--all-facets", "--filter", "^compact/"])
    titles = [line.split("**")[1] for line in out.splitlines() if line.startswith("**")]
    assert status == 0 and titles == ["compact keep:0.50", "compact keep:1.00"]
    status, out, _ = run([source, "--filter", "^compact/"])
    assert "**compact keep:0.50**" in out and "keep:1.00" not in out
    status, out, _ = run([source, "--facet", "keep:1.00"])
    assert status == 0 and "**compact keep:1.00**" in out and "keep:0.50" not in out


def test_metadata_order_and_anchor(tmp_path, meta_file):
    """Rows follow the variant table; the x column is the last vendor variant's."""
    doc = load_doc(meta_file)
    variants = json.loads(doc["context"]["gps_variants"])
    variants["scan"]["variants"].reverse()  # cub first, copy last
    doc["context"]["gps_variants"] = json.dumps(variants)
    status, out, _ = run([write_doc(tmp_path / "m.json", doc), "--filter", "^scan/"])
    rows = [line.split(" | ")[0].strip("| ") for line in out.splitlines()
            if line.startswith("| ") and not line.startswith("| variant")]
    assert status == 0 and rows == [v["name"] for v in variants["scan"]["variants"]]
    assert "x cub" in out


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_bad_file_one_line_error(name):
    status, out, err = run([FIXTURES / name])
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and err.startswith("tables.py: ")


def test_bad_option_one_line(run_file):
    status, out, err = run([run_file, "--size", "huge"])
    assert status == 2 and out == "" and len(err.strip().splitlines()) == 1


def _cells(out, variant):
    return [c.strip() for line in out.splitlines() if line.startswith(f"| {variant} |")
            for c in line.strip("| ").split(" | ")]


@pytest.mark.parametrize("reps, band", [(5, "repetitions min..max"), (1, "p10..p90")])
def test_bands(tmp_path, run_file, reps, band):
    fixture = run_file if reps == 1 else with_repetitions(run_file, tmp_path / "r.json", reps)
    status, out, _ = run([fixture, "--filter", "^scan/", "--sizes", "28", "--bands"])
    assert status == 0 and f"[low-high] from the rows' {band})" in out
    for variant in ("decoupled_lookback", "cub"):
        figure, copy, anchor = _cells(out, variant)[1:]
        value, low, high = (float(x) for x in copy.replace("[", "").replace("]", "")
                            .replace("-", " ").split())
        assert low <= value <= high
        if variant == "cub":
            assert anchor == "1.000"  # no band against itself
        else:
            value, low, high = (float(x) for x in anchor.replace("[", "").replace("]", "")
                                .replace("-", " ").split())
            assert low <= value <= high
    _, plain, _ = run([FIXTURES / fixture, "--filter", "^scan/", "--sizes", "28"])
    assert "[" not in _cells(plain, "cub")[2] and _cells(plain, "cub")[3] == "1.00"
