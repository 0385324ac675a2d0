"""scripts/plot.py: which graphs it writes, skipped rows, bad input, headless command line."""

import contextlib
import io
import os
import subprocess
import sys

import pytest

import plot
import results
import style
from conftest import BROKEN, FIXTURES, SCRIPTS, load_doc, write_doc

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def expected_graphs(f: results.ResultFile):
    """The graph files plot.py must write for a result file."""
    names = set()
    rows = f.rows
    for algorithm in set(rows["algorithm"]):
        own = rows[(rows["algorithm"] == algorithm) & (rows["role"] != "roofline")]
        info = f.info(algorithm)
        for facet in set(own["facet"]):
            part = own[own["facet"] == facet]
            for kind in ("time", "bandwidth"):
                names.add(plot.graph_stem(algorithm, facet, kind) + ".png")
            if {info.reference, info.anchor} & set(part["variant"]):
                names.add(plot.graph_stem(algorithm, facet, "speedup") + ".png")
            blocked = part[part["block"] > 0]
            for variant, g in blocked.groupby("variant"):
                if g["block"].nunique() > 1:  # one block size: no heatmap
                    names.add(plot.graph_stem(algorithm, facet, f"blocks-{variant}") + ".png")
    return names


class Plotted:
    """One plot.py run over the fixture with error rows, shared by several tests."""

    def __init__(self, source, out_dir):
        self.source = source
        self.file = results.load(str(source))
        self.out_dir = out_dir / self.file.gpu_slug
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            self.status = plot.main([str(source), "--out-dir", str(out_dir)])
        self.stdout, self.stderr = out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def plotted(tmp_path_factory):
    return Plotted(FIXTURES / "with_errors.json", tmp_path_factory.mktemp("graphs"))


def test_writes_every_graph(plotted):
    assert plotted.status == 0
    written = {p.name for p in plotted.out_dir.glob("*.png")}
    assert written == expected_graphs(plotted.file)
    assert any(name.startswith("scan-blocks-") for name in written)
    for path in plotted.out_dir.glob("*.png"):
        assert path.read_bytes()[:8] == PNG_MAGIC


def test_pngs_are_stored_with_a_palette(plotted):
    from PIL import Image  # matplotlib's own dependency

    for path in plotted.out_dir.glob("*.png"):
        with Image.open(path) as image:
            assert image.mode == "P", path.name  # style.save_figure: 256 colours, a third the bytes


def test_prints_the_files_it_wrote(plotted):
    listed = set(plotted.stdout.split())
    on_disk = {str(p) for p in plotted.out_dir.iterdir()}
    assert listed == on_disk


def test_svg(tmp_path, run_file):
    assert plot.main([str(run_file), "--out-dir", str(tmp_path), "--svg",
                      "--filter", "^scan/(cub|cpu)/pot/"]) == 0
    pngs = {p.stem for p in tmp_path.glob("*/*.png")}
    svgs = {p.stem for p in tmp_path.glob("*/*.svg")}
    assert pngs and pngs == svgs
    assert "<svg" in next(tmp_path.glob("*/*.svg")).read_text()[:1000]


def test_skipped_rows_are_listed(plotted):
    text = (plotted.out_dir / "skipped.txt").read_text()
    assert plotted.file.skipped
    for name, message in plotted.file.skipped:
        assert f"{name}: {message}" in text
        assert name in plotted.stderr


def test_stale_skipped_list_is_removed(tmp_path, errors_file):
    small = ["--out-dir", str(tmp_path / "g"), "--filter", "^scan/(cub|cpu)/"]
    doc = load_doc(errors_file)
    doc["benchmarks"] = [b for b in doc["benchmarks"] if not b.get("error_occurred")]
    clean = write_doc(tmp_path / "clean.json", doc)
    slug = results.load(str(clean)).gpu_slug
    assert plot.main([str(errors_file)] + small) == 0
    assert (tmp_path / "g" / slug / "skipped.txt").exists()
    assert plot.main([str(clean)] + small) == 0
    assert not (tmp_path / "g" / slug / "skipped.txt").exists()


def test_filter_keeps_the_copy_baseline(tmp_path, run_file):
    assert plot.main([str(run_file), "--out-dir", str(tmp_path), "--filter",
                      "^scan/cub/pot/"]) == 0
    written = {p.name for p in tmp_path.glob("*/*.png")}
    assert written == {"scan-time.png", "scan-bandwidth.png", "scan-speedup.png"}


def test_one_folder_per_gpu(tmp_path, run_file):
    doc = load_doc(run_file)
    doc["context"]["gpu_name"] = "NVIDIA H100 80GB HBM3"
    other = write_doc(tmp_path / "h100.json", doc)
    assert plot.main([str(run_file), str(other), "--out-dir", str(tmp_path / "g"),
                      "--filter", "^scan/cub/"]) == 0
    slug = results.load(str(run_file)).gpu_slug
    assert (tmp_path / "g" / slug).is_dir()
    assert list((tmp_path / "g" / "nvidia-h100-80gb-hbm3").glob("*.png"))


def other_commit(tmp_path, run_file):
    doc = load_doc(run_file)
    doc["context"]["git_commit"] = "0123456789ab"
    doc["context"]["date"] = "2026-12-01T10:00:00+00:00"
    return write_doc(tmp_path / "later.json", doc)


def test_runs_of_different_commits_are_not_merged(tmp_path, run_file, capsys):
    later = other_commit(tmp_path, run_file)
    status = plot.main([str(run_file), str(later), "--out-dir", str(tmp_path / "g")])
    err = capsys.readouterr().err.strip().splitlines()
    assert status == 2 and len(err) == 1 and "different commits" in err[0]
    assert "--merge-runs" in err[0] and not (tmp_path / "g").exists()


def test_merge_runs_says_so(tmp_path, run_file):
    later = other_commit(tmp_path, run_file)
    files = [results.load(str(p)) for p in (run_file, later)]
    run = plot.group_runs(files, merge_runs=True)[0]
    assert "0123456789ab" in run.title and "mixed runs" in run.title
    assert "2026-12-01 10:00" in run.title
    fig, ax = plot.plt.subplots()
    rows = run.rows[run.rows["algorithm"] == "scan"]
    scope = plot.Scope(run=run, figs=None, algorithm="scan", facet="", rows=rows,
                       best=rows, copies=rows[rows["role"] == "roofline"], block_variants={},
                       ks=[20], sizes=[("pot", "")], plain=rows)
    plot._copy_line(ax, scope, scope.copies, "pot", "gbs")
    labels = ax.get_legend_handles_labels()[1]
    assert labels and not any("same run" in label for label in labels)
    plot.plt.close(fig)


def test_titles_name_gpu_commit_and_date(run_file):
    f = results.load(str(run_file))
    run = plot.group_runs([f], merge_runs=False)[0]
    assert run.title == f"{f.gpu_name} @ {f.commit}, {f.date}"
    assert f.date.startswith("2026-") and "same run" in _copy_label(run)


def _copy_label(run):
    fig, ax = plot.plt.subplots()
    rows = run.rows[run.rows["algorithm"] == "scan"]
    scope = plot.Scope(run=run, figs=None, algorithm="scan", facet="", rows=rows, best=rows,
                       copies=rows[rows["role"] == "roofline"], block_variants={}, ks=[20],
                       sizes=[("pot", "")], plain=rows)
    plot._copy_line(ax, scope, scope.copies, "pot", "gbs")
    plot.plt.close(fig)
    return ax.get_legend_handles_labels()[1][0]


def test_metadata_file_gives_the_same_graphs(tmp_path, meta_file, run_file):
    small = ["--filter", "^(scan/(cpu|naive|cub)|compact/cub)/"]
    assert plot.main([str(meta_file), "--out-dir", str(tmp_path / "m")] + small) == 0
    assert plot.main([str(run_file), "--out-dir", str(tmp_path / "o")] + small) == 0
    names = {p.name for p in (tmp_path / "m").glob("*/*.png")}
    assert names and names == {p.name for p in (tmp_path / "o").glob("*/*.png")}


@pytest.mark.parametrize("make, what", [
    (lambda d: d.joinpath("file").write_text("x") and d / "file", "is a file"),
    (lambda d: d / "file2" / "sub", "not a folder"),
])
def test_out_dir_that_is_not_a_folder(tmp_path, run_file, capsys, make, what):
    (tmp_path / "file2").write_text("x")
    out = make(tmp_path)
    assert plot.main([str(run_file), "--out-dir", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and what in err[0]


def test_filter_matching_nothing(tmp_path, run_file, capsys):
    assert plot.main([str(run_file), "--out-dir", str(tmp_path), "--filter", "^nomatch"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "matches --filter" in err[0]


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_bad_file_one_line_error(tmp_path, run_file, name, capsys):
    bad = FIXTURES / name
    assert plot.main([str(run_file), str(bad), "--out-dir", str(tmp_path)]) != 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and str(bad) in err[0] and BROKEN[name] in err[0]
    assert not list(tmp_path.iterdir())  # nothing written when an input is bad


def test_command_line_headless(tmp_path, run_file):
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "MPLBACKEND")}
    proc = subprocess.run(
        [sys.executable, str(SCRIPTS / "plot.py"), str(run_file), "--out-dir", str(tmp_path),
         "--filter", "^scan/cub/"],
        capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert all(os.path.exists(p) for p in proc.stdout.split())
    bad = subprocess.run(
        [sys.executable, str(SCRIPTS / "plot.py"), str(FIXTURES / "broken_truncated.json")],
        capture_output=True, text=True, env=env, timeout=120)
    assert bad.returncode != 0 and len(bad.stderr.strip().splitlines()) == 1


def test_looks_come_from_roles_and_positions():
    info = results.AlgorithmInfo("x", variants=[
        results.VariantInfo("copy", "gpu", "roofline"),
        results.VariantInfo("seq", "cpu", "reference"),
        results.VariantInfo("par", "cpu", "baseline"),
        results.VariantInfo("step1", "gpu", "study"),
        results.VariantInfo("step2", "gpu", "study"),
        results.VariantInfo("step3", "gpu", "study"),
        results.VariantInfo("lib_a", "gpu", "vendor"),
        results.VariantInfo("lib_b", "gpu", "vendor"),
    ])
    look = {v.name: style.variant_look(info, v.name) for v in info.variants}
    assert look["copy"] == style.Look("#000000", "", "--")
    assert look["lib_b"].colour == "#000000" and look["lib_b"].marker == "*"  # the anchor
    assert look["lib_a"].colour != look["lib_b"].colour
    assert look["seq"].linestyle == look["par"].linestyle == ":"
    study = [look[f"step{i}"] for i in (1, 2, 3)]
    assert len({s.colour for s in study}) == 3 and len({s.marker for s in study}) == 3
    # a variant's look depends on its table, not on what else a graph draws, nor on its name
    renamed = results.AlgorithmInfo("x", variants=[
        results.VariantInfo(v.name.replace("step", "other"), v.target, v.role)
        for v in info.variants])
    assert style.variant_look(renamed, "other2") == look["step2"]
    assert info.order(["lib_b", "step2", "seq", "zzz"]) == ["seq", "step2", "lib_b", "zzz"]


def test_facet_names():
    assert plot.graph_stem("compact", "keep:0.50", "time") == "compact-keep-0.50-time"
    assert plot.graph_stem("sort", "pairs/uniform", "blocks-onesweep") == \
        "sort-pairs-uniform-blocks-onesweep"
    assert plot.graph_stem("scan", "", "bandwidth") == "scan-bandwidth"
    assert plot.facet_title("pairs/low_entropy") == "pairs, low_entropy"


def test_reference_without_extra_axes_serves_every_value(tmp_path, run_file):
    """A CPU reference registered without the keep axis: no graphs of its own, and it is the
    reference of the speedup graphs of every keep value."""
    doc = load_doc(run_file)
    extra = []
    for b in doc["benchmarks"]:
        if b["name"].startswith("scan/cpu/"):
            name = b["name"].replace("scan/cpu/", "compact/cpu/")
            extra.append(dict(b, name=name, run_name=name))
    assert extra
    doc["benchmarks"] += extra
    source = write_doc(tmp_path / "ref.json", doc)
    facets = plot.facets_of(results.load(str(source)).rows, "compact")
    assert facets and "" not in facets
    assert plot.main([str(source), "--out-dir", str(tmp_path / "g"), "--filter",
                      "^compact/(cpu|cub)/"]) == 0
    written = {p.name for p in tmp_path.glob("g/*/*.png")}
    assert "compact-time.png" not in written
    assert {plot.graph_stem("compact", f, "speedup") + ".png" for f in facets} <= written


def test_one_block_size_gets_a_label_and_no_heatmap(tmp_path, run_file):
    """A block variant measured at one block size in a facet (a trimmed sweep): its lines say
    which block, and it gets no block x n heatmap."""
    doc = load_doc(run_file)
    doc["benchmarks"] = [b for b in doc["benchmarks"]
                         if not b["name"].startswith("scan/decoupled_lookback/")
                         or "/block:256/" in b["name"]]
    source = write_doc(tmp_path / "one_block.json", doc)
    rows = results.load(str(source)).rows
    blocks = plot._blocks_measured(rows[rows["algorithm"] == "scan"])
    assert blocks["decoupled_lookback"] == [256]
    assert plot._label("decoupled_lookback", blocks) == "decoupled_lookback (block 256)"
    assert plot._label("cub", blocks) == "cub"
    assert plot.main([str(source), "--out-dir", str(tmp_path / "g")]) == 0
    written = {p.name for p in tmp_path.glob("g/*/*.png")}
    assert "scan-blocks-decoupled_lookback.png" not in written
    assert any(name.startswith("scan-blocks-") for name in written)
