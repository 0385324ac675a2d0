#!/usr/bin/env python3
"""A/B of two builds of gpu_bench on this machine, runs interleaved: is a change faster?

    scripts/ab.py --benchmark_filter='^scan/decoupled_lookback/pot/log2n:28/'
    scripts/ab.py --base main~1 --rounds 3 --benchmark_filter='^sort/onesweep/keys/uniform/pot/'
    scripts/ab.py --base HEAD --head HEAD --benchmark_filter='^utf8/copy/'   # A/A: the noise

A is --base (default HEAD), built from a clean export of that commit; B is --head, a commit, or
by default the working tree as it is (uncommitted changes included). Both build gpu_bench with
the same CMAKE_ARGS. Then scripts/bench.sh runs the filter once per build and round, A B, B A,
A B, ... (--rounds, default 2; each round reverses the last, so that a drift of the clocks or
the temperature over the call falls on both sides alike), each with --repetitions (default 5).
Timings of one GPU move between processes by more than the repetitions inside one process show:
a verdict needs the runs of both sides interleaved, on one machine, in one sitting.

Output, in --out-dir (default $BUILD_DIR/ab): each run's file (a-1.json, b-1.json, ...), the
pooled repetitions of each side (a.json, b.json: gpu_bench result files that compare.py,
tables.py and plot.py read) and summary.txt, also printed: per row, each side's median and
[min-max] over all its repetitions, B/A, and "apart" when the two ranges do not overlap (the
project's bar for calling B faster or slower), then compare.py's table of a.json against b.json
(a rank test per row). A_BENCH=/path/to/gpu_bench or B_BENCH=... runs that binary for the side
instead of building it (binaries you already have; the tests' stand-ins).

Exit status: 0 compared; 1 a build or a run failed; 2 bad usage (no filter, an unknown commit, a
filter that selects nothing, a flag gpu_bench rejects, an output folder that cannot be made).
"""

import deps  # noqa: F401  (first: the packages of scripts/requirements.txt)

import argparse
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Dict, List, Optional, Tuple

import results
from results import ScriptError

SCRIPTS = Path(__file__).resolve().parent
ROOT = SCRIPTS.parent
PROG = "ab.py"


class RunError(Exception):
    """A build or a run failed (exit status 1)."""


def say(message: str) -> None:
    print(f"{PROG}: {message}", file=sys.stderr, flush=True)


def git(*argv: str, capture: bool = True) -> str:
    proc = subprocess.run(["git", "-C", str(ROOT), *argv], capture_output=capture, text=True)
    if proc.returncode != 0:
        why = (proc.stderr or "").strip().splitlines()
        raise ScriptError(f"git {' '.join(argv)} failed: {why[0] if why else 'no message'}")
    return proc.stdout.strip() if capture else ""


def resolve(rev: str) -> str:
    """The commit REV names (its full hash); one line when it names none."""
    proc = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify", "--quiet",
                           f"{rev}^{{commit}}"], capture_output=True, text=True)
    if proc.returncode != 0 or not proc.stdout.strip():
        raise ScriptError(f"'{rev}' names no commit of this repository")
    return proc.stdout.strip()


def configure_and_build(source: Path, build: Path, commit: Optional[str], log: Path) -> Path:
    """gpu_bench built by the tree's own scripts/common.sh (gps_configure_and_build: Release,
    Ninja where installed, $CMAKE_ARGS) into `build`; the build's output goes to `log`. Returns
    the binary."""
    common = source / "scripts" / "common.sh"
    if not common.is_file():
        raise ScriptError(f"{source} has no scripts/common.sh to build gpu_bench with")
    env = dict(os.environ, BUILD_DIR=str(build))
    if commit:  # an exported tree has no .git of its own: tell the binary its commit
        env["GPS_GIT_COMMIT"] = commit[:12]
    with open(log, "a", encoding="utf-8") as out:
        status = subprocess.run(["bash", "-c", 'source "$1" && gps_configure_and_build --target '
                                 "gpu_bench", "build", str(common)], stdout=out,
                                stderr=subprocess.STDOUT, env=env).returncode
    if status:
        raise RunError(f"the build in {build} failed (its output: {log})")
    return build / "bench" / "gpu_bench"


def export(commit: str, dest: Path) -> None:
    """The tree of `commit` (what git tracks) into dest."""
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    with tempfile.TemporaryFile() as tar:
        proc = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", commit],
                              stdout=tar, stderr=subprocess.PIPE)
        if proc.returncode != 0:
            raise ScriptError(f"git archive {commit[:12]} failed: {proc.stderr.decode().strip()}")
        tar.seek(0)
        with tarfile.open(fileobj=tar) as t:
            if hasattr(tarfile, "data_filter"):  # Python 3.12, and 3.8..3.11 since their fixes
                t.extractall(dest, filter="data")
            else:
                t.extractall(dest)


def binary(side: str, rev: Optional[str], out_dir: Path) -> Tuple[Path, str]:
    """The gpu_bench of one side, and how to name it: $A_BENCH / $B_BENCH as given, else built
    from commit `rev`, or (rev None) from the working tree in $BUILD_DIR."""
    given = os.environ.get(f"{side.upper()}_BENCH")
    if given:
        path = Path(given)
        if not (path.is_file() and os.access(path, os.X_OK)):
            raise ScriptError(f"{side.upper()}_BENCH={given} is not an executable file")
        return path, f"{given} (given)"
    log = out_dir / f"build-{side}.log"
    if rev is None:
        build = Path(os.environ.get("BUILD_DIR") or ROOT / "build")
        try:
            changed = git("status", "--porcelain", "--untracked-files=no")
        except ScriptError:  # not a git checkout: the tree as it is
            changed = ""
        dirty = " (with uncommitted changes)" if changed else ""
        say(f"{side.upper()}: building the working tree{dirty} in {build}")
        return configure_and_build(ROOT, build, None, log), f"the working tree{dirty}"
    commit = resolve(rev)
    build = out_dir / f"build-{side}"
    say(f"{side.upper()}: building {rev} ({commit[:12]}) in {build}")
    # a build folder of another commit is started afresh: the exported files carry their commit's
    # dates, which can be older than that build's outputs, so an incremental build would keep them
    stamp = build / "ab-commit.txt"
    if build.exists() and (not stamp.exists() or stamp.read_text().strip() != commit):
        shutil.rmtree(build)
    export(commit, out_dir / f"src-{side}")
    built = configure_and_build(out_dir / f"src-{side}", build, commit, log)
    stamp.write_text(commit + "\n")
    return built, f"{rev} ({commit[:12]})"


def order(rounds: int) -> List[Tuple[str, int]]:
    """(side, round) in run order: A B, B A, A B, ..."""
    runs = []
    for r in range(1, rounds + 1):
        pair = ["a", "b"] if r % 2 else ["b", "a"]
        runs += [(side, r) for side in pair]
    return runs


def run_bench(bench: Path, out: Path, flt: str, repetitions: int, extra: List[str]) -> None:
    """One scripts/bench.sh run of `bench` into `out`; its own checks of the filter and flags
    apply (a bad filter or flag: exit 2, passed on)."""
    env = dict(os.environ, GPU_BENCH=str(bench))
    argv = ["bash", str(SCRIPTS / "bench.sh"), "--out", str(out), f"--benchmark_filter={flt}",
            f"--benchmark_repetitions={repetitions}", *extra]
    proc = subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          text=True)
    if proc.returncode != 0:
        lines = [line for line in proc.stderr.splitlines() if line.startswith("bench.sh:")]
        why = lines[-1] if lines else (proc.stderr.strip().splitlines() or ["no message"])[-1]
        if proc.returncode == 2:
            raise ScriptError(why)
        raise RunError(why)


def check_filter(side: str, bench: Path, flt: str, extra: List[str]) -> None:
    """The filter and the flags as this binary takes them, before anything runs: its own list."""
    proc = subprocess.run([str(bench), "--benchmark_list_tests", f"--benchmark_filter={flt}",
                           *extra], capture_output=True, text=True)
    names = [line for line in proc.stdout.splitlines() if line.strip()]
    if proc.returncode == 0 and names:
        return
    errors = [line for line in proc.stderr.splitlines()
              if line.strip() and "GPU rows will be reported" not in line]
    if names or (errors and not any(w in errors[0].lower() for w in ("match", "no benchmark"))):
        raise ScriptError(f"{side.upper()}'s gpu_bench refused the flags: "
                          f"{errors[0] if errors else f'exit status {proc.returncode}'}")
    raise ScriptError(f"--benchmark_filter='{flt}' selects no benchmark of {side.upper()}'s "
                      "gpu_bench")


def pool(paths: List[Path], out: Path) -> None:
    """The repetitions of several runs of one build as one gpu_bench result file: every
    per-repetition row of each file (aggregates dropped: they summarise one run), renumbered,
    under the first file's context."""
    context = None
    by_name: Dict[str, List[dict]] = {}
    for path in paths:
        doc = results.read_json(str(path))
        ctx, benchmarks = results.check_document(str(path), doc)
        context = context or dict(ctx)
        for b in benchmarks:
            if b.get("run_type", "iteration") == "iteration":
                by_name.setdefault(b.get("run_name", b.get("name")), []).append(dict(b))
    rows = []
    for entries in by_name.values():
        measured = [e for e in entries if not e.get("error_occurred")]
        for i, e in enumerate(measured or entries[:1]):
            e["repetitions"], e["repetition_index"] = len(measured or entries[:1]), i
            rows.append(e)
    context["gps_ab_runs"] = json.dumps([p.name for p in paths])
    with open(out, "w", encoding="utf-8") as f:
        json.dump({"context": context, "benchmarks": rows}, f)


def summary(a_path: Path, b_path: Path, names: Tuple[str, str]) -> List[str]:
    """Per row measured on both sides: medians, ranges, B/A and whether the ranges are apart."""
    a, b = results.load(str(a_path)), results.load(str(b_path))
    keys = ["name"]
    both = a.rows.merge(b.rows, on=keys, suffixes=("_a", "_b"))
    lines = [f"A = {names[0]}", f"B = {names[1]}",
             f"{a.gpu_title}; each side {int(both['repetitions_a'].max())} "
             "repetitions pooled over its runs; times in us, median [min-max]", ""]
    width = max([len(n) for n in both["name"]] + [4])
    lines.append(f"{'row':<{width}}  {'A':>26}  {'B':>26}  {'B/A':>6}  ranges")
    for r in both.itertuples(index=False):
        ratio = r.time_us_b / r.time_us_a if r.time_us_a else float("nan")
        apart = r.time_hi_us_b < r.time_lo_us_a or r.time_hi_us_a < r.time_lo_us_b
        verdict = ("apart: B faster" if ratio < 1 else "apart: B slower") if apart else "overlap"
        if r.target_a == "cpu":  # timed on the host: the host's other load is in it
            verdict += " (CPU row)"
        cell = lambda t, lo, hi: f"{t:.4g} [{lo:.4g}-{hi:.4g}]"  # noqa: E731
        lines.append(f"{r.name:<{width}}  {cell(r.time_us_a, r.time_lo_us_a, r.time_hi_us_a):>26}"
                     f"  {cell(r.time_us_b, r.time_lo_us_b, r.time_hi_us_b):>26}  {ratio:6.3f}"
                     f"  {verdict}")
    if (both["target_a"] == "cpu").any():
        lines.append("(CPU rows follow the host's other load: on a busy machine their ranges can "
                     "be apart between two builds of the same code)")
    only = len(a.rows) + len(b.rows) - 2 * len(both)
    if only:
        lines.append(f"({only} rows measured on one side only are left out)")
    return lines


def parse(argv: List[str]) -> Tuple[argparse.Namespace, List[str]]:
    p = results.ArgumentParser(prog=PROG, description=__doc__.split("\n\n")[0],
                                epilog="Other flags (after the options) go to gpu_bench.")
    p.add_argument("--base", default="HEAD", help="commit of side A (default HEAD)")
    p.add_argument("--head", default=None,
                   help="commit of side B (default: the working tree as it is)")
    p.add_argument("--rounds", type=int, default=2, help="runs of each side (default 2)")
    p.add_argument("--repetitions", type=int, default=5,
                   help="--benchmark_repetitions of each run (default 5)")
    p.add_argument("--out-dir", default=None, help="where the files go (default $BUILD_DIR/ab)")
    p.add_argument("--benchmark_filter", dest="filter", default=None,
                   help="the rows to compare (required: a whole suite takes hours)")
    args, extra = p.parse_known_args(argv)
    if not args.filter:
        raise ScriptError("give --benchmark_filter=REGEX: the rows to compare")
    if args.rounds < 1 or args.repetitions < 1:
        raise ScriptError("--rounds and --repetitions take a whole number of at least 1")
    for e in extra:
        if e.startswith(("--benchmark_out", "--benchmark_repetitions")):
            raise ScriptError(f"{e.split('=')[0]} is set by ab.py (use --out-dir, --repetitions)")
    return args, extra


def main(argv: List[str]) -> int:
    try:
        args, extra = parse(argv)
        build_dir = Path(os.environ.get("BUILD_DIR") or ROOT / "build")
        out_dir = Path(args.out_dir) if args.out_dir else build_dir / "ab"
        try:
            out_dir.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise ScriptError(f"cannot make --out-dir {out_dir}: {e.strerror}")
        for old in list(out_dir.glob("[ab]-*.json")) + [out_dir / "a.json", out_dir / "b.json"]:
            old.unlink(missing_ok=True)
        if not os.environ.get("A_BENCH"):
            resolve(args.base)  # an unknown commit fails before any build
        if args.head is not None and not os.environ.get("B_BENCH"):
            resolve(args.head)
        bench_a, name_a = binary("a", args.base, out_dir)
        bench_b, name_b = binary("b", args.head, out_dir)
        check_filter("a", bench_a, args.filter, extra)
        check_filter("b", bench_b, args.filter, extra)
        runs: Dict[str, List[Path]] = {"a": [], "b": []}
        for side, r in order(args.rounds):
            path = out_dir / f"{side}-{r}.json"
            say(f"run {side.upper()} {r} of {args.rounds} -> {path}")
            run_bench(bench_a if side == "a" else bench_b, path, args.filter, args.repetitions,
                      extra)
            runs[side].append(path)
        pool(runs["a"], out_dir / "a.json")
        pool(runs["b"], out_dir / "b.json")
        lines = summary(out_dir / "a.json", out_dir / "b.json", (name_a, name_b))
        (out_dir / "summary.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
        print("\n".join(lines), flush=True)
        print(flush=True)
        compare = subprocess.run([sys.executable, str(SCRIPTS / "compare.py"),
                                  str(out_dir / "a.json"), str(out_dir / "b.json")])
        say(f"files in {out_dir}")
        return 0 if compare.returncode in (0, 1) else 1
    except ScriptError as e:
        say(str(e))
        return 2
    except RunError as e:
        say(str(e))
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
