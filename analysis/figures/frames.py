"""The figure scripts' common reader: one algorithm's rows of a result file, every repetition,
as a pandas DataFrame, read through scripts/results.py (failed rows left out)."""
import sys

import pandas as pd

sys.path.insert(0, "scripts")
import results  # noqa: E402  (the project's reader of result files)


def repetitions(path, algorithm, fields):
    """(DataFrame, context): a row per repetition of `algorithm`'s rows in `path`, with the
    columns every script uses (variant, size, k, n, block, t in us, gbs, eps, rep) and those
    fields(identity, axes, row) returns (a dict: the script's axes and counters)."""
    context, rows = results.iterations(path)
    out = []
    for i, b in rows:
        if i.algorithm != algorithm:
            continue
        rec = dict(variant=i.variant, size=i.size, k=i.log2n, n=i.n, block=i.block,
                   t=b["real_time"], gbs=b.get("GB/s"), eps=b.get("elements/s"),
                   rep=b.get("repetition_index", 0))
        rec.update(fields(i, dict(i.axes), b))
        out.append(rec)
    return pd.DataFrame(out), context
