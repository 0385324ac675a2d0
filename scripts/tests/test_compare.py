"""scripts/compare.py: the regression gate (a 5% slowdown is caught, a rerun is not), matching,
output formats, exit codes and bad input."""

import csv
import io
import json

import pytest

import compare
import results
from conftest import BROKEN, FIXTURES, load_doc, scaled_copy, with_repetitions, write_doc


def run(capsys, *argv):
    status = compare.main([str(a) for a in argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def table(capsys, *argv):
    """(status, {benchmark: row}) from --json."""
    status, out, err = run(capsys, *argv, "--json")
    assert status in (0, 1), err
    rows = {}
    for c in json.loads(out)["comparisons"]:
        rows.update({r["name"]: r for r in c["rows"]})
    return status, rows


def is_cub(name: str) -> bool:
    return "/cub/" in name


# ---- the gate: runs with repetitions ------------------------------------------------------------


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Two runs of one commit and their slower copies, with 5 repetitions, made from the real H200
    sweep (every POT size 2^10..2^30 of copy, CUB and one study variant per algorithm)."""
    d = tmp_path_factory.mktemp("runs")
    src = FIXTURES / "gpu_run_sweep.json"
    a = with_repetitions(src, d / "a.json", seed=1)
    return {
        "a": a,
        "rerun": with_repetitions(src, d / "rerun.json", seed=2),
        "a_slow": scaled_copy(a, d / "a_slow.json", 1.05),  # the same samples, 5% slower
        "rerun_slow": with_repetitions(src, d / "rerun_slow.json", seed=3, factor=1.05),
    }


@pytest.mark.parametrize("slow", ["a_slow", "rerun_slow"])
def test_uniform_5pct_slowdown_is_caught_at_every_size(capsys, runs, slow):
    status, rows = table(capsys, runs["a"], runs[slow], "--fail-above", "2.5")
    assert status == 1
    big = {n: r for n, r in rows.items() if r["log2n"] >= 16}
    assert len(big) == 4 * 3 * 15  # 4 algorithms x copy, CUB, study variant x 2^16..2^30
    missed = {n: (r["ratio"], r["p"]) for n, r in big.items() if r["verdict"] != "slower"}
    assert not missed
    assert all(r["method"].startswith("Mann-Whitney 5+5") for r in big.values())
    assert all(r["ci_low"] > 1.0 for r in big.values())


def test_rerun_of_the_same_commit_raises_no_alarm(capsys, runs):
    status, out, err = run(capsys, runs["a"], runs["rerun"], "--fail-above", "2.5")
    assert status == 0 and not err
    status, rows = table(capsys, runs["a"], runs["rerun"])
    assert {r["verdict"] for r in rows.values()} == {"same"}
    # the runs do differ, by their run offsets: significant, but below the minimum effect
    assert any(r["p"] < 0.05 for r in rows.values())


def test_min_effect_and_confidence(capsys, runs):
    _, rows = table(capsys, runs["a"], runs["a_slow"], "--min-effect", "6")
    assert {r["verdict"] for r in rows.values()} == {"same"}
    _, rows = table(capsys, runs["a"], runs["a_slow"], "--confidence", "0.999")
    # 5 + 5 repetitions cannot reach 99.9%: the z test decides instead
    assert all(r["method"].startswith("z test") for r in rows.values())


def test_real_repetitions_few_of_them(capsys, tmp_path, reps_file):
    """The real 3-repetition CPU run, every repetition 5% slower: 3 + 3 repetitions are too few
    for the rank test, the z test on the medians catches it where the repetitions agree, and
    says "same" where they do not; CPU rows gate only with --gate-cpu."""
    slow = scaled_copy(reps_file, tmp_path / "slow.json", 1.05)
    status, rows = table(capsys, reps_file, slow, "--fail-above", "2.5")
    assert status == 0  # CPU rows only
    assert all("3+3 repetitions are too few" in r["method"] for r in rows.values())
    assert rows["scan/cpu/pot/log2n:20"]["verdict"] == "slower"  # repetitions 638, 640, 651 us
    noisy = rows["scan/cpu_parallel/pot/log2n:20"]  # repetitions 8012, 7528, 601 us
    assert noisy["verdict"] == "same" and noisy["p"] > 0.5
    status, _, err = run(capsys, reps_file, slow, "--fail-above", "2.5", "--gate-cpu")
    assert status == 1 and "regression(s)" in err


def test_single_repetition_issue_case(capsys, tmp_path, sweep_file):
    """The issue's case: every scan/cub time x1.20 in a single-repetition run: slower at every
    size, including the small ones the p10..p90 bands used to hide."""
    slow = scaled_copy(sweep_file, tmp_path / "slow.json", 1.20, lambda n: n.startswith("scan/cub/"))
    status, rows = table(capsys, sweep_file, slow, "--fail-above", "10", "--fail-row-above", "10")
    assert status == 1
    cub = {n: r for n, r in rows.items() if n.startswith("scan/cub/")}
    assert len(cub) == 21 and {r["verdict"] for r in cub.values()} == {"slower"}
    assert {r["verdict"] for n, r in rows.items() if n not in cub} == {"same"}


def test_a_file_against_itself_is_all_same(capsys, run_file):
    status, out, err = run(capsys, run_file, run_file, "--fail-above", "0")
    assert status == 0 and "same" in out
    _, rows = table(capsys, run_file, run_file)
    assert len(rows) == len(results.load(str(run_file)).rows)
    assert {r["verdict"] for r in rows.values()} == {"same"}
    assert all(r["ratio"] == 1.0 for r in rows.values())


def test_faster(capsys, tmp_path, run_file):
    fast = scaled_copy(run_file, tmp_path / "fast.json", 0.5, is_cub)
    status, rows = table(capsys, run_file, fast, "--fail-above", "5")
    assert status == 0
    assert {r["verdict"] for n, r in rows.items() if is_cub(n)} == {"faster"}


# ---- matching -------------------------------------------------------------------------------


def test_metadata_file_matches_a_file_without(capsys, run_file, meta_file):
    """Rows are matched by what they measure: a file with metadata against one without."""
    status, rows = table(capsys, run_file, meta_file)
    assert len(rows) == len(results.load(str(run_file)).rows)
    assert {r["verdict"] for r in rows.values()} == {"same"}


def test_best_block(capsys, run_file):
    status, rows = table(capsys, run_file, run_file, "--best-block")
    assert rows and not any("/block:" in n for n in rows)
    f = results.load(str(run_file))
    assert len(rows) == len(results.best_blocks(f.rows))


def test_skipped_rows_are_reported(capsys, run_file, errors_file):
    status, out, _ = run(capsys, run_file, errors_file, "--markdown")
    skipped = {n for n, _ in results.load(str(errors_file)).skipped}
    assert "skipped with an error" in out
    assert not any(f"`{n}`" in out for n in skipped)


def test_filter_and_changed_only(tmp_path, capsys, run_file):
    slow = scaled_copy(run_file, tmp_path / "slow.json", 1.5, is_cub)
    _, rows = table(capsys, run_file, slow, "--filter", "/pot/")
    assert rows and all("/pot/" in n for n in rows)
    _, rows = table(capsys, run_file, slow, "--changed-only")
    assert rows and all(is_cub(n) for n in rows)


def test_more_than_two_files_compare_with_the_first(tmp_path, capsys, run_file):
    b = scaled_copy(run_file, tmp_path / "b.json", 1.5, is_cub)
    c = scaled_copy(run_file, tmp_path / "c.json", 0.5, is_cub)
    status, out, _ = run(capsys, run_file, b, c, "--markdown")
    assert status == 0
    assert "### 1. B `b.json` vs A `gpu_run.json`" in out
    assert "### 2. B `c.json` vs A `gpu_run.json`" in out


# ---- output -----------------------------------------------------------------------------------


def test_text_report_names_commits_and_gpus(capsys, tmp_path, run_file):
    other = scaled_copy(run_file, tmp_path / "b.json", 1.0, context={"git_commit": "abc123"})
    status, out, _ = run(capsys, run_file, other)
    f = results.load(str(run_file))
    assert status == 0 and f"{f.gpu_name} @ {f.commit}" in out and "@ abc123" in out
    assert "B/A" in out and "95% CI" in out


def test_markdown_report(capsys, tmp_path, run_file):
    slow = scaled_copy(run_file, tmp_path / "slow.json", 1.5, is_cub)
    status, out, _ = run(capsys, run_file, slow, "--markdown", "--fail-above", "10")
    assert status == 1 and out.startswith("## Benchmark comparison")
    assert "| benchmark |" in out and "slower ❌" in out and "Regressions" in out


def test_markdown_title(capsys, tmp_path, run_file):
    slow = scaled_copy(run_file, tmp_path / "slow.json", 1.5, is_cub)
    status, out, _ = run(capsys, run_file, slow, "--markdown", "--title", "compare.py: times")
    assert status == 0 and out.startswith("### compare.py: times\n")
    assert "\n#### B `slow.json` vs A `" in out and "### 1." not in out
    status, _, err = run(capsys, run_file, slow, "--title", "x")
    assert status == 2 and "--title needs --markdown" in err and len(err.strip().splitlines()) == 1


def test_csv_report(capsys, tmp_path, run_file):
    slow = scaled_copy(run_file, tmp_path / "slow.json", 1.5, is_cub)
    status, out, _ = run(capsys, run_file, slow, "--csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert status == 0 and len(rows) == len(results.load(str(run_file)).rows)
    assert {r["verdict"] for r in rows if is_cub(r["name"])} == {"slower"}
    assert {"a_commit", "b_gpu", "ratio", "ci_low", "p", "method"} <= set(rows[0])


def test_one_output_format(capsys, run_file):
    status, _, err = run(capsys, run_file, run_file, "--json", "--csv")
    assert status == 2 and len(err.strip().splitlines()) == 1


def test_plot(tmp_path, capsys, run_file):
    slow = scaled_copy(run_file, tmp_path / "slow.json", 1.5, is_cub)
    png = tmp_path / "cmp.png"
    status, _, _ = run(capsys, run_file, slow, "--plot", png, "--filter", "^scan/")
    assert status == 0 and png.read_bytes()[:4] == b"\x89PNG"


# ---- GPUs ---------------------------------------------------------------------------------------


def test_different_gpus_are_refused(tmp_path, capsys, run_file):
    other = scaled_copy(run_file, tmp_path / "h100.json", 0.5,
                        context={"gpu_name": "Some Other GPU", "gpu_peak_bandwidth_gbs": "9999.0"})
    status, out, err = run(capsys, other, run_file)
    assert status == 2 and not out and len(err.strip().splitlines()) == 1
    assert "--allow-different-gpus" in err


def test_different_gpus_compare_by_their_copy(tmp_path, capsys, run_file):
    """Another GPU twice as fast everywhere, copy included: same fraction of copy, and the gate
    does not apply across GPUs."""
    other = scaled_copy(run_file, tmp_path / "h100.json", 0.5,
                        context={"gpu_name": "Some Other GPU", "gpu_peak_bandwidth_gbs": "9999.0"})
    status, out, err = run(capsys, other, run_file, "--allow-different-gpus", "--fail-above", "5",
                           "--markdown")
    assert status == 0 and "does not apply" in out and "another GPU" in err
    assert "Different GPUs" in out
    _, rows = table(capsys, other, run_file, "--allow-different-gpus")
    gpu = [r for r in rows.values() if r["of_copy_a"] is not None]
    assert gpu and all(r["of_copy_a"] == pytest.approx(r["of_copy_b"]) for r in gpu)
    tested = [r for r in rows.values() if r["p"] is not None]  # single-sample rows: untested
    assert tested and {r["verdict"] for r in tested} == {"slower"}


# ---- bad input --------------------------------------------------------------------------------


@pytest.mark.parametrize("argv, what", [
    (["--filter", "nomatch"], "matches no benchmark"),
    (["--filter", "[unclosed"], "not a valid regex"),
    (["--plot", "/nonexistent/x.png"], "does not exist"),
    (["--confidence", "2"], "--confidence"),
    (["--bogus"], "unrecognized arguments"),
])
def test_bad_usage_one_line(capsys, run_file, argv, what):
    status, out, err = run(capsys, run_file, run_file, *argv)
    lines = err.strip().splitlines()
    assert status == 2 and not out
    assert len(lines) == 1 and lines[0].startswith("compare.py: ") and what in lines[0]


def test_nothing_in_common(tmp_path, capsys, run_file):
    doc = load_doc(run_file)
    doc["benchmarks"] = [b for b in doc["benchmarks"] if b["name"].startswith("scan/")]
    scan = write_doc(tmp_path / "scan.json", doc)
    status, out, err = run(capsys, scan, run_file, "--filter", "^compact/")
    assert status == 2 and "no benchmark in common" in err


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


# Two real runs of one binary (commit cd757ae, NVIDIA H200, 5 repetitions each, made back to back
# with gpu_bench's own sampler): copy, CUB and the in-house single-pass variant of scan, compact,
# reduce and sort at pot sizes 2^16..2^28.
RERUN_A = FIXTURES / "h200_rerun_a.json"
RERUN_B = FIXTURES / "h200_rerun_b.json"


def test_real_rerun_raises_no_alarm_from_2_to_the_24(capsys):
    status, out, err = run(capsys, RERUN_A, RERUN_B, "--fail-above", "5",
                           "--filter", "log2n:(24|26|28)/")
    assert status == 0, out + err


def test_real_run_against_itself_5pct_slower_is_caught_from_2_to_the_20(capsys, tmp_path):
    # below 2^20 a few rows have one outlying repetition of 5 that widens their interval past 5%
    slow = scaled_copy(RERUN_A, tmp_path / "slow.json", 1.05)
    status, rows = table(capsys, RERUN_A, slow, "--fail-above", "2.5",
                         "--filter", "log2n:(20|22|24|26|28)/")
    assert status == 1
    assert {r["verdict"] for r in rows.values()} == {"slower"}


@pytest.mark.xfail(strict=True, reason="measured on the H200: two runs of one binary differ by up "
                   "to 19% at 2^16..2^22 (a few us per call), far beyond the spread of the "
                   "repetitions inside one run; the gate raises false alarms there (issue 12)")
def test_real_rerun_raises_no_alarm_at_small_sizes(capsys):
    status, out, err = run(capsys, RERUN_A, RERUN_B, "--fail-above", "5",
                           "--filter", "log2n:(16|18|20|22)/")
    assert status == 0


def test_runs_timed_differently_are_compared_with_a_warning(capsys, tmp_path):
    doc = load_doc(FIXTURES / "gpu_run.json")
    doc["context"]["gpu_timing"] = "blocked: work enqueued behind a blocking kernel"
    a = write_doc(tmp_path / "blocked.json", doc)
    doc["context"]["gpu_timing"] = "direct: events around the work as enqueued"
    b = write_doc(tmp_path / "direct.json", doc)
    status, out, err = run(capsys, a, b)
    assert status == 0
    assert "measured differently (gpu_timing" in err
    status, out, err = run(capsys, a, a)
    assert "measured differently" not in err


def test_per_copy_compares_fractions_of_each_gpus_own_copy(capsys, tmp_path):
    """A GPU with 1.4x the copy bandwidth on which every variant but CUB is 1.4x faster: by time
    everything but CUB is faster; per copy, CUB alone falls behind."""
    src = FIXTURES / "gpu_run_sweep.json"
    a = with_repetitions(src, tmp_path / "a.json", seed=1)
    b_doc = load_doc(with_repetitions(src, tmp_path / "b0.json", seed=2, factor=1 / 1.4))
    b_doc["context"]["gpu_name"] = "A faster GPU"
    for row in b_doc["benchmarks"]:
        if "copy_frac" in row:
            row["copy_frac"] /= 1.4  # its copy is 1.4x faster too: fractions as in A
        if is_cub(row["name"]):  # CUB does not follow the bandwidth
            for key in ("real_time", "cpu_time", "ms_median", "ms_p10", "ms_p90"):
                if key in row:
                    row[key] *= 1.4
            for key in ("GB/s", "copy_frac"):
                if key in row:
                    row[key] /= 1.4
    b = write_doc(tmp_path / "b.json", b_doc)
    status, rows = table(capsys, a, b, "--allow-different-gpus")
    assert all(r["verdict"] == "faster" for n, r in rows.items() if not is_cub(n)
               and r["log2n"] >= 16 and r["target"] == "gpu")
    status, rows = table(capsys, a, b, "--allow-different-gpus", "--per-copy")
    gpu = {n: r for n, r in rows.items() if r["log2n"] >= 16}
    assert gpu and all(r["target"] == "gpu" for r in rows.values())  # CPU rows left out
    assert all(r["verdict"] == "slower" for n, r in gpu.items() if is_cub(n))
    assert all(r["verdict"] == "same" for n, r in gpu.items() if not is_cub(n))


# The regression gate as scripts/gpu_check.sh runs it (STEPS=gate), on the H200 at 281aece's tree:
# the quick preset's GPU rows three times with 5 repetitions, timed behind the blocking kernel, the
# third with --gps_inject_slowdown=0.05 (every sample also spins for 5% of the row's time).
GATE_A = FIXTURES / "h200_gate_a.json"
GATE_B = FIXTURES / "h200_gate_b.json"
GATE_SLOW = FIXTURES / "h200_gate_slow.json"


def test_real_gate_rerun_raises_no_alarm(capsys):
    status, out, err = run(capsys, GATE_A, GATE_B, "--fail-above", "3.5")
    assert status == 0, out + err
    # though single rows did move: the copy at 2^20 by +3.6..5.1%, reduce/thrust (host-timed,
    # not gated) by +15%
    status, rows = table(capsys, GATE_A, GATE_B)
    assert rows["reduce/thrust/pot/log2n:16"]["host_timed"]
    assert rows["reduce/copy/pot/log2n:20"]["verdict"] == "slower"


def test_real_injected_slowdown_is_caught_at_every_size(capsys):
    status, out, err = run(capsys, GATE_A, GATE_SLOW, "--fail-above", "3.5", "--json")
    assert status == 1
    flagged = [r for r in json.loads(out)["comparisons"][0]["regressions"] if "geometric" in r]
    groups = {tuple(r.split(" (")[0].split(" at ")) for r in flagged}
    assert groups == {(a, f"pot 2^{k}") for a in ("scan", "compact", "reduce", "sort", "utf8")
                      for k in (16, 20, 24, 28)}
