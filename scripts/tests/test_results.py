"""scripts/results.py: names, loading, noise bands, copy fractions, and the error messages."""

import pytest

import results
from conftest import BROKEN, FIXTURES, load_doc, write_doc


@pytest.mark.parametrize("name, expected", [
    ("scan/shared_mem/npot/log2n:24/block:256/manual_time",
     ("scan", "shared_mem", (), "npot", 24, 256)),
    ("scan/cub/pot/log2n:28/manual_time", ("scan", "cub", (), "pot", 28, 0)),
    ("scan/copy/pot/log2n:28", ("scan", "copy", (), "pot", 28, 0)),
    ("compact/single_pass/keep:0.50/npot/log2n:24/block:256/manual_time",
     ("compact", "single_pass", ("keep:0.50",), "npot", 24, 256)),
    ("sort/onesweep/pairs/uniform/pot/log2n:28/block:256/manual_time",
     ("sort", "onesweep", ("pairs", "uniform"), "pot", 28, 256)),
])
def test_parse_name(name, expected):
    p = results.parse_name(results.canonical_name(name))
    assert (p.algorithm, p.variant, p.axes, p.size, p.log2n, p.block) == expected


@pytest.mark.parametrize("name", ["BM_Memcpy/1024", "scan/cub/log2n:28", "scan/pot/log2n:10",
                                  "scan/cub/pot/log2n:x/manual_time"])
def test_parse_name_rejects_other_schemes(name):
    assert results.parse_name(name) is None


def test_slug():
    assert results.slugify("NVIDIA H100 80GB HBM3") == "nvidia-h100-80gb-hbm3"
    assert results.slugify("NVIDIA H200") == "nvidia-h200"


def test_load_single_repetition(run_file):
    f = results.load(str(run_file))
    assert f.has_gpu and f.gpu_slug == results.slugify(f.gpu_name)
    assert f.peak_gbs and f.peak_gbs > 100
    rows = f.rows
    assert not rows.empty and set(rows["size"]) <= {"pot", "npot"}
    assert (rows["time_us"] > 0).all()
    assert (rows["time_lo_us"] <= rows["time_us"]).all()
    assert (rows["time_hi_us"] >= rows["time_us"]).all()
    assert set(rows["noise"]) == {"p10..p90"}
    assert set(rows["repetitions"]) == {1}
    assert results.COPY_VARIANT in set(rows["variant"])


def test_time_is_the_median_iteration(run_file):
    doc = load_doc(run_file)
    row = next(b for b in doc["benchmarks"] if not b.get("error_occurred"))
    f = results.load(str(run_file))
    got = f.rows.set_index("name").loc[results.canonical_name(row["name"])]
    assert got["time_us"] == pytest.approx(row["ms_median"] * 1e3)
    assert got["time_lo_us"] == pytest.approx(row["ms_p10"] * 1e3)
    assert got["time_hi_us"] == pytest.approx(row["ms_p90"] * 1e3)
    assert got["gbs"] == pytest.approx(row["GB/s"])


def test_copy_fraction_uses_the_files_own_copy_row(run_file):
    f = results.load(str(run_file))
    rows = f.rows.set_index("name")
    gpu = f.rows[(f.rows["variant"] == results.VENDOR_ANCHOR)]
    assert not gpu.empty
    for r in gpu.itertuples():
        copy = rows.loc[f"{r.algorithm}/copy/{r.size}/log2n:{r.log2n}"]
        assert r.of_copy == pytest.approx(r.gbs / copy["gbs"])
    copies = f.rows[f.rows["variant"] == results.COPY_VARIANT]
    assert copies["of_copy"].to_numpy() == pytest.approx(1.0)
    cpu = f.rows[f.rows["variant"].map(results.is_cpu_variant)]
    assert cpu["of_copy"].isna().all()


def test_load_repetitions_uses_the_median_aggregate(reps_file):
    f = results.load(str(reps_file))
    assert set(f.rows["noise"]) == {"repetitions min..max"}
    assert (f.rows["repetitions"] >= 2).all()
    doc = load_doc(reps_file)
    median = next(b for b in doc["benchmarks"] if b.get("aggregate_name") == "median")
    reps = [b for b in doc["benchmarks"] if b.get("run_type") == "iteration"
            and b["run_name"] == median["run_name"]]
    got = f.rows.set_index("name").loc[results.canonical_name(median["run_name"])]
    assert got["time_us"] == pytest.approx(median["ms_median"] * 1e3)
    assert got["time_lo_us"] == pytest.approx(min(b["ms_median"] for b in reps) * 1e3)
    assert got["time_hi_us"] == pytest.approx(max(b["ms_median"] for b in reps) * 1e3)


def test_aggregates_only(tmp_path, reps_file):
    """--benchmark_report_aggregates_only: the band comes from mean±stddev."""
    doc = load_doc(reps_file)
    doc["benchmarks"] = [b for b in doc["benchmarks"] if b.get("run_type") == "aggregate"
                         or b.get("error_occurred")]
    f = results.load(str(write_doc(tmp_path / "agg.json", doc)))
    assert set(f.rows["noise"]) == {"mean±stddev"}
    assert (f.rows["time_hi_us"] >= f.rows["time_lo_us"]).all()


def test_skipped_rows_are_listed_not_loaded(errors_file):
    f = results.load(str(errors_file))
    doc = load_doc(errors_file)
    errored = {results.canonical_name(b["name"]) for b in doc["benchmarks"]
               if b.get("error_occurred")}
    assert errored and {n for n, _ in f.skipped} == errored
    assert not errored & set(f.rows["name"])
    assert all(message and "\n" not in message for _, message in f.skipped)


def test_best_blocks_picks_the_fastest_block(run_file):
    rows = results.load(str(run_file)).rows
    best = results.best_blocks(rows)
    keys = ["algorithm", "variant", "facet", "size", "log2n"]
    assert not best.duplicated(keys).any()
    blocked = rows[rows["block"] > 0]
    for key, group in blocked.groupby(keys):
        chosen = best.set_index(keys).loc[key]
        assert chosen["time_us"] == group["time_us"].min()


@pytest.mark.parametrize("name, what", sorted(BROKEN.items()))
def test_broken_files_give_one_line_errors(name, what):
    path = str(FIXTURES / name)
    with pytest.raises(results.ResultsError) as e:
        results.load(path)
    message = str(e.value)
    assert message.startswith(path + ": ") and what in message and "\n" not in message


@pytest.mark.parametrize("content, what", [
    ("", "empty"),
    ("[1, 2, 3]", "top level is a list"),
    ('{"context": {"gpu_name": "x"}, "benchmarks": []}', "empty"),
    ('{"context": {}, "benchmarks": [{"name": "scan/cub/pot/log2n:10"}]}', "no gpu_name"),
    ("\x00\x01binary", "not valid JSON"),
])
def test_other_bad_inputs(tmp_path, content, what):
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(results.ResultsError, match=what):
        results.load(str(path))


def test_missing_file(tmp_path):
    with pytest.raises(results.ResultsError, match="cannot read"):
        results.load(str(tmp_path / "nope.json"))
