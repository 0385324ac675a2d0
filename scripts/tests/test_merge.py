"""scripts/merge_results.py: parts of one run into one file, metadata merged, bad input refused."""

import json

import pytest

import merge_results
import results
from conftest import BROKEN, FIXTURES, load_doc, write_doc


def run(capsys, *argv):
    status = merge_results.main([str(a) for a in argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def split(tmp_path, source):
    """The fixture cut into one part per algorithm, each with only its own metadata, as
    gpu_bench --benchmark_filter='^<algorithm>/' writes it."""
    doc = load_doc(source)
    parts = []
    for algorithm in ("scan", "compact"):
        part = json.loads(json.dumps(doc))
        part["benchmarks"] = [b for b in doc["benchmarks"] if b["name"].startswith(algorithm + "/")]
        context = part["context"]
        if "gps_rows" in context:
            rows = json.loads(context["gps_rows"])
            context["gps_rows"] = json.dumps({k: v for k, v in rows.items()
                                              if v["algorithm"] == algorithm})
            variants = json.loads(context["gps_variants"])
            context["gps_variants"] = json.dumps({algorithm: variants[algorithm]})
            context["gps_suites"] = json.dumps([algorithm])
        parts.append(write_doc(tmp_path / f"{algorithm}.json", part))
    return parts


def test_parts_with_metadata(tmp_path, capsys, meta_file):
    out = tmp_path / "merged.json"
    status, _, err = run(capsys, "-o", out, *split(tmp_path, meta_file))
    assert status == 0 and "wrote" in err
    merged, whole = results.load(str(out)), results.load(str(meta_file))
    assert merged.has_metadata and merged.suites == ["scan", "compact"]
    assert sorted(merged.rows["name"]) == sorted(whole.rows["name"])
    context = load_doc(out)["context"]
    assert json.loads(context["gps_rows"]) == json.loads(load_doc(meta_file)["context"]["gps_rows"])
    assert set(json.loads(context["gps_variants"])) == {"scan", "compact"}


def test_suites_in_the_order_met(tmp_path, capsys, meta_file):
    scan, compact = split(tmp_path, meta_file)
    out = tmp_path / "merged.json"
    assert run(capsys, "-o", out, compact, scan)[0] == 0
    assert json.loads(load_doc(out)["context"]["gps_suites"]) == ["compact", "scan"]


def test_parts_without_metadata(tmp_path, capsys, run_file):
    out = tmp_path / "merged.json"
    assert run(capsys, "-o", out, *split(tmp_path, run_file))[0] == 0
    assert not any(k.startswith("gps_") for k in load_doc(out)["context"])
    assert len(results.load(str(out)).rows) == len(results.load(str(run_file)).rows)


def test_binary_file(tmp_path, capsys, run_file):
    binary = tmp_path / "x.bin"
    binary.write_bytes(bytes(range(256)) * 4)
    status, out, err = run(capsys, "-o", tmp_path / "m.json", run_file, binary)
    assert status == 2 and len(err.strip().splitlines()) == 1 and str(binary) in err
    assert not (tmp_path / "m.json").exists()


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_broken_files(tmp_path, capsys, run_file, name):
    status, _, err = run(capsys, "-o", tmp_path / "m.json", run_file, FIXTURES / name)
    lines = err.strip().splitlines()
    assert status == 2 and len(lines) == 1 and BROKEN[name] in lines[0]
    assert not (tmp_path / "m.json").exists()


def test_empty_benchmark_file(tmp_path, capsys, run_file):
    doc = load_doc(run_file)
    doc["benchmarks"] = []
    empty = write_doc(tmp_path / "empty.json", doc)
    status, _, err = run(capsys, "-o", tmp_path / "m.json", empty)
    assert status == 2 and "empty" in err


def test_nothing_measured(tmp_path, capsys, run_file):
    """Every row skipped with an error (GPU rows on a machine without a GPU): refused."""
    doc = load_doc(run_file)
    doc["benchmarks"] = [dict(b, error_occurred=True, error_message="no usable CUDA GPU")
                         for b in doc["benchmarks"]]
    skipped = write_doc(tmp_path / "skipped.json", doc)
    status, _, err = run(capsys, "-o", tmp_path / "m.json", skipped)
    assert status == 2 and "nothing was measured" in err and "no usable CUDA GPU" in err
    assert not (tmp_path / "m.json").exists()


@pytest.mark.parametrize("key, value, what", [
    ("git_commit", "0123456789ab", "commit"), ("gpu_name", "NVIDIA H100", "GPU")])
def test_different_runs_are_refused(tmp_path, capsys, run_file, key, value, what):
    scan, compact = split(tmp_path, run_file)
    doc = load_doc(compact)
    doc["context"][key] = value
    write_doc(compact, doc)
    out = tmp_path / "m.json"
    out.write_text("keep me")
    status, _, err = run(capsys, "-o", out, scan, compact)
    assert status == 2 and f"{what} '{value}' differs" in err and "--allow-mixed" in err
    assert out.read_text() == "keep me"  # an existing output is left alone
    assert run(capsys, "-o", out, scan, compact, "--allow-mixed")[0] == 0


def test_duplicates(tmp_path, capsys, run_file):
    status, _, err = run(capsys, "-o", tmp_path / "m.json", run_file, run_file)
    assert status == 2 and "appears twice" in err


def test_output_folder_missing(tmp_path, capsys, run_file):
    status, _, err = run(capsys, "-o", tmp_path / "no" / "m.json", run_file)
    assert status == 2 and "does not exist" in err and len(err.strip().splitlines()) == 1


def test_row_metadata_kept_to_the_rows_held(tmp_path, capsys, meta_file):
    # a filtered run: gpu_bench describes every registered row, the file holds a few
    doc = load_doc(meta_file)
    doc["benchmarks"] = [b for b in doc["benchmarks"] if b["name"].startswith("scan/")]
    part = write_doc(tmp_path / "scan.json", doc)
    out = tmp_path / "merged.json"
    assert run(capsys, "-o", out, part)[0] == 0
    rows = json.loads(load_doc(out)["context"]["gps_rows"])
    assert set(rows) == {b["run_name"] for b in doc["benchmarks"]}
    assert results.load(str(out)).has_metadata
