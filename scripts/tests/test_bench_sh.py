"""scripts/bench.sh with a stand-in gpu_bench (stub_gpu_bench.py over a real fixture): suites in
the binary's order, and every bad path one line, a non-zero status, no file, no leftovers."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

import results
from conftest import FIXTURES, SCRIPTS

HERE = Path(__file__).resolve().parent


@pytest.fixture
def bench(tmp_path):
    """Runs bench.sh; returns (status, stdout, stderr). gpu=True: nvidia-smi names an H200."""
    stub = tmp_path / "gpu_bench"
    stub.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{HERE / "stub_gpu_bench.py"}" "$@"\n')
    stub.chmod(0o755)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (tmp_path / "tmp").mkdir()

    def run(*argv, gpu=True, **env):
        smi = bin_dir / "nvidia-smi"
        smi.write_text("#!/bin/sh\necho 'NVIDIA H200'\n" if gpu else "#!/bin/sh\nexit 9\n")
        smi.chmod(0o755)
        full = dict(os.environ, GPU_BENCH=str(stub), GPS_PYTHON=sys.executable,
                    STUB_SOURCE=str(FIXTURES / "gpu_run_meta.json"),
                    BUILD_DIR=str(tmp_path / "build"), TMPDIR=str(tmp_path / "tmp"),
                    PATH=f"{bin_dir}:{os.environ['PATH']}", **env)
        proc = subprocess.run(["bash", str(SCRIPTS / "bench.sh"), *map(str, argv)],
                              capture_output=True, text=True, env=full, timeout=120)
        assert not list((tmp_path / "tmp").iterdir()), "bench.sh left its work folder behind"
        assert "Traceback" not in proc.stderr
        return proc.returncode, proc.stdout, proc.stderr

    return run


def test_every_suite_in_the_binarys_order(tmp_path, bench):
    out = tmp_path / "h200.json"
    status, _, err = bench("--out", out, "--benchmark_repetitions=1")
    assert status == 0, err
    f = results.load(str(out))
    assert f.suites == ["scan", "compact"] and f.has_metadata
    assert len(f.rows) == len(results.load(str(FIXTURES / "gpu_run_meta.json")).rows)
    assert err.index("bench.sh: scan ->") < err.index("bench.sh: compact ->")


def test_some_suites(tmp_path, bench):
    out = tmp_path / "some.json"
    status, _, err = bench("--out", out, "--suite", "compact", "--suite", "scan")
    assert status == 0, err
    assert err.index("bench.sh: scan ->") < err.index("bench.sh: compact ->")
    status, _, err = bench("--out", out, "--suite=compact")
    assert status == 0 and set(results.load(str(out)).rows["algorithm"]) == {"compact"}


def test_own_filter_one_process(tmp_path, bench):
    out = tmp_path / "cub.json"
    status, _, err = bench("--out", out, "--benchmark_filter=^scan/cub/")
    assert status == 0, err
    assert set(results.load(str(out)).rows["variant"]) == {"cub"}


@pytest.mark.parametrize("argv, env, what", [
    (["--suite", "bogus"], {}, "unknown suite 'bogus' (gpu_bench has: scan compact)"),
    (["--benchmark_filter=["], {}, "gpu_bench refused"),
    (["--benchmark_filter=["], {"STUB_OLD": "1"}, "gpu_bench refused"),
    (["--benchmark_filter=^nomatch/"], {}, "selects no benchmark"),
    (["--benchmark_filter=^nomatch/"], {"STUB_OLD": "1"}, "selects no benchmark"),
    (["--bogus"], {}, "unrecognized command-line flag: --bogus"),
    (["--suite", "scan", "--benchmark_filter=^scan/"], {}, "not both"),
    (["--benchmark_out=x.json"], {}, "use --out FILE"),
    (["--suite"], {}, "--suite needs a name"),
])
def test_bad_usage_is_one_line(tmp_path, bench, argv, env, what):
    out = tmp_path / "x.json"
    status, stdout, err = bench("--out", out, *argv, **env)
    lines = err.strip().splitlines()
    assert status == 2 and len(lines) == 1 and what in lines[0], err
    assert lines[0].startswith("bench.sh: ") and not out.exists()


def test_gpu_rows_without_a_gpu(tmp_path, bench):
    """Only GPU rows selected on a machine without a GPU: nothing measured, no file."""
    out = tmp_path / "cub.json"
    status, _, err = bench("--out", out, "--benchmark_filter=^scan/cub/", gpu=False,
                           STUB_NO_GPU="1")
    assert status == 1 and not out.exists()
    assert "nothing was measured" in err.strip().splitlines()[-1]


def test_cpu_only_run_stays_out_of_results(tmp_path, bench):
    before = set(os.listdir(SCRIPTS.parent / "results"))
    status, _, err = bench(gpu=False, STUB_NO_GPU="1")
    assert status == 0, err
    assert set(os.listdir(SCRIPTS.parent / "results")) == before
    written = tmp_path / "build" / "cpu-only.json"
    f = results.load(str(written))
    assert not f.has_gpu and set(f.rows["target"]) == {"cpu"} and f.skipped
    assert "no NVIDIA GPU found" in err


def test_a_crash_fails_the_run(tmp_path, bench):
    out = tmp_path / "x.json"
    status, _, err = bench("--out", out, STUB_CRASH="compact")
    assert status == 1 and not out.exists()
    assert "gpu_bench failed on compact (exit status 139)" in err.strip().splitlines()[-1]
