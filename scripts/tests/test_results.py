"""scripts/results.py: names, loading, noise bands, copy fractions, and the error messages."""

import json

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
    assert (p.algorithm, p.variant, tuple(v for _, v in p.axes), p.size, p.log2n, p.block) == \
        (expected[0], expected[1], tuple(a.split(":")[-1] for a in expected[2])) + expected[3:]
    assert p.facet == "/".join(expected[2])


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
    assert set(rows["band"]) == {"p10..p90"}
    assert set(rows["repetitions"]) == {1}
    assert "roofline" in set(rows["role"])


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
    gpu = f.rows[(f.rows["role"] == "vendor")]
    assert not gpu.empty
    for r in gpu.itertuples():
        copy = rows.loc[f"{r.algorithm}/copy/{r.size}/log2n:{r.log2n}"]
        assert r.of_copy == pytest.approx(r.gbs / copy["gbs"])
    copies = f.rows[f.rows["role"] == "roofline"]
    assert copies["of_copy"].to_numpy() == pytest.approx(1.0)
    cpu = f.rows[f.rows["target"] == "cpu"]
    assert not cpu.empty and cpu["of_copy"].isna().all()


def test_load_repetitions_uses_the_median_aggregate(reps_file):
    f = results.load(str(reps_file))
    assert set(f.rows["band"]) == {"repetitions min..max"}
    assert (f.rows["repetitions"] >= 2).all()
    doc = load_doc(reps_file)
    median = next(b for b in doc["benchmarks"] if b.get("aggregate_name") == "median")
    reps = [b for b in doc["benchmarks"] if b.get("run_type") == "iteration"
            and b["run_name"] == median["run_name"]]
    got = f.rows.set_index("name").loc[results.canonical_name(median["run_name"])]
    assert got["time_us"] == pytest.approx(median["ms_median"] * 1e3)
    assert got["time_lo_us"] == pytest.approx(min(b["ms_median"] for b in reps) * 1e3)
    assert got["time_hi_us"] == pytest.approx(max(b["ms_median"] for b in reps) * 1e3)
    assert sorted(got["rep_us"]) == pytest.approx(sorted(b["ms_median"] * 1e3 for b in reps))


def test_aggregates_only(tmp_path, reps_file):
    """--benchmark_report_aggregates_only: the band comes from mean±stddev."""
    doc = load_doc(reps_file)
    doc["benchmarks"] = [b for b in doc["benchmarks"] if b.get("run_type") == "aggregate"
                         or b.get("error_occurred")]
    f = results.load(str(write_doc(tmp_path / "agg.json", doc)))
    assert set(f.rows["band"]) == {"mean±stddev"}
    assert (f.rows["time_hi_us"] >= f.rows["time_lo_us"]).all()


def test_iterations_are_the_raw_repetitions_with_their_rows(reps_file, errors_file):
    context, rows = results.iterations(str(reps_file))
    doc = load_doc(reps_file)
    reps = [b for b in doc["benchmarks"] if b.get("run_type") == "iteration"]
    assert context == doc["context"] and [r for _, r in rows] == reps
    loaded = results.load(str(reps_file)).rows.set_index("name")
    for info, r in rows:
        assert info.key == tuple(loaded.loc[results.canonical_name(r["run_name"]),
                                            ["algorithm", "variant", "facet", "size", "log2n",
                                             "block"]])
    _, rows = results.iterations(str(errors_file))
    assert rows and not any(r.get("error_occurred") for _, r in rows)


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


# ---- metadata --------------------------------------------------------------------------------


def test_metadata_and_names_give_the_same_rows(run_file, meta_file):
    old, new = results.load(str(run_file)), results.load(str(meta_file))
    assert not old.has_metadata and new.has_metadata
    columns = [c for c in results.COLUMNS if c not in ("rep_us",)]
    pd_old = old.rows[columns].sort_values("name").reset_index(drop=True)
    pd_new = new.rows[columns].sort_values("name").reset_index(drop=True)
    assert pd_old.equals(pd_new)
    assert new.suites == ["scan", "compact"]
    assert new.info("compact").variants[0].role == "roofline"
    assert "keep" in new.info("compact").axes


def edit_metadata(src, dst, change):
    doc = load_doc(src)
    meta = {k: json.loads(doc["context"][k]) for k in ("gps_suites", "gps_variants", "gps_rows")}
    change(meta)
    for k, v in meta.items():
        doc["context"][k] = json.dumps(v)
    return str(write_doc(dst, doc))


def test_rows_are_read_from_the_metadata_not_the_names(tmp_path, meta_file):
    """A row described otherwise than its name says: the metadata wins."""
    name = "scan/cub/pot/log2n:20/manual_time"

    def change(meta):
        meta["gps_rows"][name].update(variant="vendor_x", axes={"mode": "fast"}, log2n=21)
        meta["gps_variants"]["scan"]["variants"].append(
            {"name": "vendor_x", "target": "gpu", "role": "vendor", "blocks": [],
             "default_block": 0, "description": "renamed"})
        meta["gps_suites"] = ["compact", "scan"]

    f = results.load(edit_metadata(meta_file, tmp_path / "m.json", change))
    row = f.rows.set_index("name").loc["scan/cub/pot/log2n:20"]
    assert (row["variant"], row["facet"], row["log2n"], row["role"]) == \
        ("vendor_x", "fast", 21, "vendor")
    assert f.suites == ["compact", "scan"]
    assert f.info("scan").anchor == "vendor_x"  # the last vendor row of the table


def test_roles_and_order_come_from_the_metadata(tmp_path, meta_file):
    def change(meta):
        table = meta["gps_variants"]["scan"]["variants"]
        table.reverse()
        for v in table:
            if v["name"] == "naive":
                v["role"] = "baseline"
                v["target"] = "cpu"

    f = results.load(edit_metadata(meta_file, tmp_path / "m.json", change))
    info = f.info("scan")
    assert info.order(["copy", "cub", "naive"]) == ["cub", "naive", "copy"]
    naive = f.rows[f.rows["variant"] == "naive"]
    assert set(naive["role"]) == {"baseline"} and naive["of_copy"].isna().all()


def test_axes_written_without_their_name(tmp_path, meta_file):
    """An axis whose name segment is only its value (sort's keys|pairs) keeps the name's form."""
    name = "compact/cub/keep:0.50/pot/log2n:24/manual_time"

    def change(meta):
        meta["gps_rows"][name]["axes"] = {"keep": "0.50", "payload": "pairs"}

    f = results.load(edit_metadata(meta_file, tmp_path / "m.json", change))
    assert f.rows.set_index("name").loc["compact/cub/keep:0.50/pot/log2n:24"]["facet"] == \
        "keep:0.50/pairs"


@pytest.mark.parametrize("key, value, what", [
    ("gps_rows", "{not json", "gps_rows is not valid JSON"),
    ("gps_variants", "[]", "gps_variants is not a JSON dict"),
    ("gps_variants", '{"scan": {"variants": [{"name": "x", "role": "hero"}]}}', "role 'hero'"),
    ("gps_rows", '{"scan/cub/pot/log2n:20/manual_time": {"variant": "cub"}}', "malformed"),
])
def test_bad_metadata_is_one_line(tmp_path, meta_file, key, value, what):
    doc = load_doc(meta_file)
    doc["context"][key] = value
    path = str(write_doc(tmp_path / "bad.json", doc))
    with pytest.raises(results.ResultsError) as e:
        results.load(path)
    assert what in str(e.value) and "\n" not in str(e.value)


def test_roles_derived_from_names_for_old_files():
    f = results.load(str(FIXTURES / "gpu_run.json"))
    roles = {(r.algorithm, r.variant): (r.role, r.target) for r in f.rows.itertuples()}
    assert roles[("scan", "copy")] == ("roofline", "gpu")
    assert roles[("scan", "cub")] == ("vendor", "gpu")
    assert roles[("scan", "cpu")] == ("reference", "cpu")
    assert roles[("scan", "decoupled_lookback")] == ("study", "gpu")
    assert f.info("scan").anchor == "cub" and f.info("scan").reference == "cpu"


@pytest.mark.parametrize("name", ["nvidia-h200", "nvidia-h100-80gb-hbm3"])
def test_committed_results_still_load(name):
    """The committed full runs (with metadata) load, named after their GPU, suites in run order.
    (Files without metadata read by the name fallback: test_metadata_and_names_give_the_same_rows.)"""
    f = results.load(str(FIXTURES.parent.parent.parent / "results" / f"{name}.json"))
    assert f.has_metadata and f.gpu_slug == name
    assert f.suites == ["scan", "compact", "reduce", "sort", "utf8"]
    assert f.info("sort").unit == "keys" and f.info("sort").reference == "cpu_std_sort"
    assert set(f.info("compact").with_role("vendor")) == {"thrust_copy_if", "thrust_remove_copy",
                                                           "cub"}
    assert results.headline_facet(f.rows, "compact") == "keep:0.50"
    assert results.headline_facet(f.rows, "sort") == "keys/uniform"


def test_noise_and_samples(tmp_path, run_file):
    f = results.load(str(run_file))
    r = f.rows.iloc[0]
    doc = load_doc(run_file)
    raw = next(b for b in doc["benchmarks"] if b["name"].startswith(r["name"]))
    assert r["samples"] == raw["iterations"]
    assert r["noise_rel"] == pytest.approx((raw["ms_p90"] - raw["ms_p10"]) / 2.563
                                           / raw["ms_median"], rel=1e-3)
    raw["noise"], raw["samples"] = 0.004, 1234  # the harness's own counters win
    f = results.load(str(write_doc(tmp_path / "n.json", doc)))
    r = f.rows.set_index("name").loc[r["name"]]
    assert (r["noise_rel"], r["samples"]) == (0.004, 1234)


def test_real_metadata_run():
    """A real gpu_bench run that records the metadata (CPU-only machine, 3 repetitions): rows,
    suites, roles and sort's unnamed axes all come from it; the GPU rows are skipped rows."""
    f = results.load(str(FIXTURES / "real_meta_run.json"))
    assert f.has_metadata and f.suites == ["scan", "compact", "reduce", "sort"]
    assert set(f.rows["target"]) == {"cpu"} and set(f.rows["repetitions"]) == {3}
    assert f.info("sort").unit == "keys" and f.info("sort").axes == ["kind", "distribution"]
    assert set(f.rows.loc[f.rows["algorithm"] == "sort", "facet"]) == {"keys/uniform"}
    assert set(f.rows.loc[f.rows["algorithm"] == "compact", "facet"]) == {"keep:0.50"}
    assert all(info.roofline == "copy" and info.anchor == "cub" for info in f.algorithms.values())
    assert (f.rows["samples"] > 1).all() and (f.rows["noise_rel"] > 0).all()
    skipped = {n: f.skipped_info[n] for n, _ in f.skipped}
    assert skipped and {i.variant for i in skipped.values()} == {"copy", "cub"}
