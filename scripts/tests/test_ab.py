"""scripts/ab.py with stand-in binaries (stub_gpu_bench.py over a real fixture, one of them made
faster by STUB_SCALE): the runs interleaved A B, B A, the repetitions pooled per side, the
verdicts, and every bad path one line and a non-zero status. The builds (git archive, cmake) are
not run here: $A_BENCH and $B_BENCH stand in for them."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

import results
from conftest import FIXTURES, SCRIPTS

HERE = Path(__file__).resolve().parent
FILTER = "--benchmark_filter=^scan/(copy|cub)/pot/log2n:2[0-4]/"


def verdicts(out):
    """ab.py's own summary rows (compare.py's table follows them)."""
    return [line for line in out.splitlines()
            if "  apart: " in line or line.endswith(("overlap", "(CPU row)"))]


@pytest.fixture
def ab(tmp_path):
    """Runs ab.py with stubs of the given speeds; returns (status, stdout, stderr, out_dir)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    smi = bin_dir / "nvidia-smi"
    smi.write_text("#!/bin/sh\necho 'NVIDIA H200'\n")
    smi.chmod(0o755)
    (tmp_path / "tmp").mkdir()

    def stub(name, scale):
        path = tmp_path / name
        path.write_text(f'#!/bin/sh\nSTUB_SCALE={scale} STUB_REPEAT=1 exec "{sys.executable}" '
                        f'"{HERE / "stub_gpu_bench.py"}" "$@"\n')
        path.chmod(0o755)
        return path

    def run(*argv, a=1.0, b=0.9, **env):
        out = tmp_path / "out"
        full = dict(os.environ, A_BENCH=str(stub("stub-a", a)), B_BENCH=str(stub("stub-b", b)),
                    GPS_PYTHON=sys.executable, STUB_SOURCE=str(FIXTURES / "gpu_run_meta.json"),
                    BUILD_DIR=str(tmp_path / "build"), TMPDIR=str(tmp_path / "tmp"),
                    PATH=f"{bin_dir}:{os.environ['PATH']}")
        full.update(env)
        full = {k: v for k, v in full.items() if v is not None}
        proc = subprocess.run([sys.executable, str(SCRIPTS / "ab.py"), "--out-dir", str(out),
                               *map(str, argv)], capture_output=True, text=True, env=full,
                              timeout=300)
        assert "Traceback" not in proc.stderr
        return proc.returncode, proc.stdout, proc.stderr, out

    return run


def test_a_faster_build_is_found_with_the_runs_interleaved(ab):
    status, out, err, folder = ab(FILTER, "--rounds", 2, "--repetitions", 3)
    assert status == 0, err
    runs = [line.split(" -> ")[0] for line in err.splitlines() if " run " in line]
    assert runs == ["ab.py: run A 1 of 2", "ab.py: run B 1 of 2", "ab.py: run B 2 of 2",
                    "ab.py: run A 2 of 2"]
    summary_rows = verdicts(out)
    assert len(summary_rows) == 4 and all(r.endswith("apart: B faster") for r in summary_rows)
    assert all(" 0.900 " in r for r in summary_rows)
    assert (folder / "summary.txt").read_text().splitlines()[0].startswith("A = ")
    for side in "ab":
        f = results.load(str(folder / f"{side}.json"))
        assert len(f.rows) == 4 and set(f.rows["repetitions"]) == {6}
        assert all(len(r) == 6 for r in f.rows["rep_us"])
    # compare.py's table follows, with its rank test over the pooled repetitions
    assert "Mann-Whitney 6+6 repetitions" in out
    assert "4 faster, 0 slower, 0 same" in out


def test_the_same_build_twice_overlaps(ab):
    status, out, err, _ = ab(FILTER, "--rounds", 1, b=1.0)
    assert status == 0, err
    summary_rows = verdicts(out)
    assert len(summary_rows) == 4 and all(r.endswith("overlap") for r in summary_rows)
    assert "0 faster, 0 slower, 4 same" in out


@pytest.mark.parametrize("argv, needle", [
    ((), "give --benchmark_filter=REGEX"),
    ((FILTER, "--rounds", 0), "--rounds and --repetitions take a whole number of at least 1"),
    ((FILTER, "--benchmark_repetitions=3"), "--benchmark_repetitions is set by ab.py"),
    (("--benchmark_filter=^nothing/",), "--benchmark_filter='^nothing/' selects no benchmark"),
    ((FILTER, "--no_such_flag=1"), "A's gpu_bench refused the flags: gpu_bench: error: "
                                   "unrecognized command-line flag: --no_such_flag=1"),
])
def test_bad_usage_is_one_line_and_status_2(ab, argv, needle):
    status, out, err, _ = ab(*argv)
    assert status == 2 and needle in err
    assert len(err.strip().splitlines()) == 1 and not out


def test_an_unknown_commit_is_refused_before_any_build(ab):
    status, _, err, _ = ab(FILTER, "--base", "no-such-rev-xyz", A_BENCH=None)
    assert status == 2
    assert err.strip() == "ab.py: 'no-such-rev-xyz' names no commit of this repository"


def test_a_given_binary_that_is_not_executable(ab, tmp_path):
    status, _, err, _ = ab(FILTER, B_BENCH=str(tmp_path / "missing"))
    assert status == 2 and "B_BENCH=" in err and "is not an executable file" in err


def test_a_run_that_crashes_is_status_1(ab):
    status, _, err, folder = ab(FILTER, STUB_CRASH="scan")
    assert status == 1 and "gpu_bench failed" in err.strip().splitlines()[-1]
    assert not (folder / "a.json").exists()


def test_rounds_alternate_their_order():
    import ab as ab_module
    assert ab_module.order(3) == [("a", 1), ("b", 1), ("b", 2), ("a", 2), ("a", 3), ("b", 3)]


def test_cpu_rows_are_marked(ab):
    status, out, err, _ = ab("--benchmark_filter=^scan/(cpu|cub)/pot/log2n:20/", "--rounds", 1)
    assert status == 0, err
    rows = {line.split()[0]: line for line in verdicts(out)}
    assert rows["scan/cpu/pot/log2n:20"].endswith("apart: B faster (CPU row)")
    assert rows["scan/cub/pot/log2n:20"].endswith("apart: B faster")
    assert "(CPU rows follow the host's other load" in out


def test_a_bad_option_value_is_one_line(ab):
    status, out, err, _ = ab(FILTER, "--rounds", "abc")
    assert status == 2 and not out
    assert err.strip().splitlines() == [
        "ab.py: argument --rounds: invalid int value: 'abc' (see --help)"]
