#!/usr/bin/env python3
"""Regenerates the tables.py and compare.py output pasted into Markdown documents, from the
results it names.

    scripts/doc_tables.py README.md analysis/README.md          # rewrite the blocks in place
    scripts/doc_tables.py --check README.md analysis/README.md  # exit 1 if a block is stale

Two kinds of block:
- `<!-- scripts/tables.py FILE [OPTIONS]: GPU, commit C, DATE -->` (the first line tables.py
  prints) and the tables under it: the run of blank lines, `**title** (GPU; pot; figure...` lines
  and `|` table lines that follows;
- `<!-- scripts/compare.py ARGUMENTS -->`, then compare.py's output, then
  `<!-- end of scripts/compare.py -->` (compare.py's report has headings and prose, so the end is
  marked; use --markdown --title to fit it in a document's section, and no --plot).
Each block is replaced by what its command prints now, so that after a new run in results/ one
command brings every document up to date, and CI fails on a document whose tables no longer match
the results they name. Run it from the repository root (the comments name the files relative to
it).

Exit status: 0 written (or, with --check, every block current); 1 with --check, a block is stale
(each named on one line); 2 bad input (a file that cannot be read, a block whose command fails).
"""

import deps  # noqa: F401  (first: the packages of scripts/requirements.txt)

import contextlib
import io
import re
import shlex
import sys
from typing import List, Tuple

import compare
import results
import tables
from results import ScriptError

MARKER = re.compile(r"^<!-- scripts/tables\.py (.+?): .*, commit \S+, .* -->$")
TITLE = re.compile(r"^\*\*.+\*\* \(.+; n?pot; figure, ")
COMPARE = re.compile(r"^<!-- scripts/compare\.py (.+) -->$")
COMPARE_END = "<!-- end of scripts/compare.py -->"


def blocks(text: str) -> List[Tuple[int, int, str]]:
    """(first line, line after the block, the command) of every block, in order: for tables.py
    the block from its comment line on, for compare.py the lines between its two comments."""
    lines = text.split("\n")
    out = []
    i = 0
    while i < len(lines):
        m, c = MARKER.match(lines[i]), COMPARE.match(lines[i])
        if c:
            try:
                end = lines.index(COMPARE_END, i + 1)
            except ValueError:
                raise ScriptError(f"line {i + 1}: a scripts/compare.py block without its end "
                                  f"'{COMPARE_END}'")
            out.append((i + 1, end, "scripts/compare.py " + c.group(1)))
            i = end + 1
            continue
        if not m:
            i += 1
            continue
        end = i + 1
        while end < len(lines) and (lines[end] == "" or lines[end].startswith("|")
                                    or TITLE.match(lines[end])):
            end += 1
        while end > i + 1 and lines[end - 1] == "":  # the blank lines after it stay
            end -= 1
        out.append((i, end, "scripts/tables.py " + m.group(1)))
        i = end
    return out


def generate(command: str) -> str:
    """What the command (scripts/tables.py or scripts/compare.py, and its arguments) prints:
    tables.py's output without its trailing newline; compare.py's between blank lines."""
    script, arguments = command.split(" ", 1)
    words = shlex.split(arguments)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        if script == "scripts/compare.py":
            if any(w == "--plot" or w.startswith("--plot=") for w in words):
                raise ScriptError(f"{command}: a block's command may not write a graph (--plot)")
            status = compare.main(words)
            ok = status in (0, 1)  # 1: the gate's verdict, the report is still whole
        else:
            status = tables.main(words)
            ok = status == 0
    if not ok:
        why = err.getvalue().strip().splitlines()
        raise ScriptError(f"{command}: {why[-1] if why else 'failed'}")
    text = out.getvalue().rstrip("\n")
    return "\n" + text + "\n" if script == "scripts/compare.py" else text


def update(text: str) -> Tuple[str, List[str]]:
    """The text with every block regenerated, and the commands of the blocks that changed."""
    lines = text.split("\n")
    stale = []
    for start, end, command in reversed(blocks(text)):
        new = generate(command).split("\n")
        if lines[start:end] != new:
            stale.append(command)
            lines[start:end] = new
    return "\n".join(lines), list(reversed(stale))


def _main(argv=None) -> int:
    parser = results.ArgumentParser(prog="doc_tables.py", description=__doc__.splitlines()[0])
    parser.add_argument("docs", nargs="+", metavar="FILE.md")
    parser.add_argument("--check", action="store_true",
                        help="change nothing; exit 1 when a block differs from its command's "
                        "output")
    args = parser.parse_args(argv)
    status = 0
    for doc in args.docs:
        try:
            with open(doc, encoding="utf-8") as f:
                text = f.read()
        except OSError as e:
            raise ScriptError(f"cannot read {doc}: {e.strerror}")
        new, stale = update(text)
        for command in stale:
            print(f"{doc}: {'stale' if args.check else 'updated'}: {command}")
        if stale and args.check:
            status = 1
        elif stale:
            with open(doc, "w", encoding="utf-8") as f:
                f.write(new)
    return status


def main(argv=None) -> int:
    return results.run_main("doc_tables.py", _main, argv)


if __name__ == "__main__":
    sys.exit(main())
