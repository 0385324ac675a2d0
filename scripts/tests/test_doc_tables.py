"""scripts/doc_tables.py: the tables.py blocks pasted into Markdown, regenerated and checked."""

import contextlib
import io
import os
from pathlib import Path

import pytest

import doc_tables
from conftest import FIXTURES

REPO = Path(__file__).resolve().parents[2]


def run(argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = doc_tables.main([str(a) for a in argv])
    return status, out.getvalue(), err.getvalue()


def _doc(tmp_path, arguments, table="| old | table |"):
    marker = f"<!-- scripts/tables.py {arguments}: GPU, commit abc, 2026-01-01 00:00 -->"
    text = f"# Title\n\nBefore.\n\n{marker}\n\n**scan** (GPU; pot; figure, then x copy)\n\n" \
           f"{table}\n\nAfter, **bold** prose.\n"
    path = tmp_path / "doc.md"
    path.write_text(text)
    return path


def test_a_stale_block_is_regenerated_in_place(tmp_path):
    arguments = f"{FIXTURES / 'gpu_run.json'} --sizes 28 --filter '^scan/'"
    path = _doc(tmp_path, arguments)
    status, out, _ = run(["--check", path])
    assert status == 1 and out.strip() == f"{path}: stale: scripts/tables.py {arguments}"
    assert "| old | table |" in path.read_text()  # --check changes nothing
    status, out, _ = run([path])
    text = path.read_text()
    assert status == 0 and "updated" in out and "| old | table |" not in text
    assert text.startswith("# Title\n\nBefore.\n\n<!-- scripts/tables.py ")
    assert text.endswith("| cub | 3070 | 0.727 | 1.00 |\n\nAfter, **bold** prose.\n")
    assert run(["--check", path])[0] == 0  # current now


def test_a_failing_command_is_one_line(tmp_path):
    path = _doc(tmp_path, f"{FIXTURES / 'gpu_run.json'} --filter '^nothing/'")
    status, out, err = run([path])
    assert status == 2 and len(err.strip().splitlines()) == 1 and "no rows match" in err
    status, _, err = run([tmp_path / "missing.md"])
    assert status == 2 and "cannot read" in err and len(err.strip().splitlines()) == 1


def test_the_repository_documents_match_the_results(monkeypatch):
    """Every table pasted into the README, the study and the cross-GPU page is what its command
    prints from the results in the repository (regenerate with scripts/doc_tables.py DOC.md)."""
    monkeypatch.chdir(REPO)
    docs = ["README.md", "analysis/README.md", "analysis/gpus.md"]
    if not all(os.path.exists(REPO / d) for d in docs):
        pytest.skip("not in the repository")
    status, out, err = run(["--check"] + docs)
    assert status == 0, out + err


def test_a_compare_block_between_its_comments(tmp_path):
    a, b = FIXTURES / "h200_gate_a.json", FIXTURES / "h200_gate_b.json"
    arguments = f"--markdown --title 'compare.py: times' --filter '^scan/' {a} {b}"
    path = tmp_path / "doc.md"
    path.write_text(f"# T\n\n<!-- scripts/compare.py {arguments} -->\nold\n"
                    "<!-- end of scripts/compare.py -->\n\nAfter.\n")
    status, out, _ = run([path])
    text = path.read_text()
    assert status == 0 and "updated" in out and "\nold\n" not in text
    assert "\n\n### compare.py: times\n" in text and "\n#### B `" in text
    assert text.endswith("\n\n<!-- end of scripts/compare.py -->\n\nAfter.\n")
    assert run(["--check", path])[0] == 0
    path.write_text(f"<!-- scripts/compare.py {arguments} -->\nno end\n")
    status, _, err = run([path])
    assert status == 2 and "without its end" in err and len(err.strip().splitlines()) == 1
    path.write_text(f"<!-- scripts/compare.py --plot {tmp_path / 'g.png'} {arguments} -->\n"
                    "<!-- end of scripts/compare.py -->\n")
    status, _, err = run([path])
    assert status == 2 and "--plot" in err and not (tmp_path / "g.png").exists()
