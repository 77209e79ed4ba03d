"""``python -m repro.report compare results=DIR metric=auc correction=bergmann``.

Statistical comparison of the methods found in any set of stored records (SPEC §7): the data
sets × methods table of a metric (test split, mean over repetitions × folds), average ranks,
Friedman χ²_F and Iman–Davenport F_F, and the all-pairs z-test on ranks adjusted by the chosen
correction (nemenyi | holm | shaffer | bergmann). Prints them and writes into ``out`` (default:
the results directory)::

    compare_<metric>_<correction>.md         ranks, Friedman line, adjusted p matrix, pair table
    compare_<metric>_<correction>.csv        adjusted p-value matrix (methods × methods)
    compare_<metric>_<correction>_pairs.csv  pairs sorted by raw p, raw and all adjusted p
    compare_<metric>_<correction>_cd.png/.pdf  critical-difference diagram

Only data sets on which every method has the metric are compared (Friedman needs complete
blocks); the others are reported as left out.

Arguments (``key=value``, Hydra-like): ``results`` (required), ``metric`` (required),
``correction`` (bergmann), ``higher_is_better`` (inferred from the metric: false for error,
ILF, BER, times, ...), ``out``, ``alpha`` (0.05), ``split`` (test), ``monotone`` (false),
``cap`` (true), ``methods`` (comma-separated subset).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd

from repro.report.tables import LOWER_IS_BETTER, to_markdown
from repro.stats.posthoc import CORRECTIONS, pairwise_comparisons, posthoc
from repro.stats.tests import average_ranks, friedman, metric_table

__all__ = ["compare_records", "main", "parse_overrides", "run_compare"]

USAGE = (
    "usage: python -m repro.report compare results=DIR metric=NAME "
    f"[correction={'|'.join(CORRECTIONS)}] [higher_is_better=true|false] [out=DIR] "
    "[alpha=0.05] [split=test] [monotone=false] [cap=true] [methods=a,b,c]"
)
_KEYS = {
    "results",
    "metric",
    "correction",
    "higher_is_better",
    "out",
    "alpha",
    "split",
    "monotone",
    "cap",
    "methods",
}


def _label(method: str) -> str:
    """Display name of a method id (as the papers spell it), the id itself if unknown."""
    try:
        from repro.registry import display_name

        return display_name(method)
    except Exception:  # the statistics must not depend on the registry being importable
        return method


def parse_overrides(args: list[str]) -> dict[str, str]:
    """``["a=1", "b=x"]`` → ``{"a": "1", "b": "x"}``; a leading ``+`` is accepted (Hydra)."""
    out = {}
    for arg in args:
        key, sep, value = arg.partition("=")
        key = key.lstrip("+").strip()
        if not sep or not key:
            raise ValueError(f"expected key=value, got {arg!r}\n{USAGE}")
        out[key] = value.strip()
    return out


def _as_bool(key: str, value: str | bool | None) -> bool | None:
    if value is None or isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("true", "1", "yes", "on"):
        return True
    if text in ("false", "0", "no", "off"):
        return False
    if text in ("", "null", "none", "auto"):
        return None
    raise ValueError(f"{key} must be true or false, got {value!r}")


def _fmt(x: float) -> str:
    if not np.isfinite(x):
        return str(x)
    if x != 0 and abs(x) < 1e-3:
        return f"{x:.3e}"
    return f"{x:.4f}"


def friedman_line(fr: pd.Series) -> str:
    """One-line summary of :func:`repro.stats.tests.friedman`."""
    return (
        f"Friedman chi2_F = {fr['chi2']:.4f} (df = {int(fr['chi2_df'])}, "
        f"p = {fr['chi2_pvalue']:.4g}); Iman-Davenport F_F = {fr['ff']:.4f} "
        f"(df = {int(fr['ff_df1'])}, {int(fr['ff_df2'])}; p = {fr['ff_pvalue']:.4g}); "
        f"N = {int(fr['n_datasets'])} data sets, k = {int(fr['n_methods'])} methods"
    )


def run_compare(
    records: pd.DataFrame,
    metric: str,
    correction: str = "bergmann",
    higher_is_better: bool | None = None,
    alpha: float = 0.05,
    split: str | None = "test",
    monotone: bool = False,
    cap: bool = True,
    methods: list[str] | None = None,
) -> dict:
    """All the numbers of the comparison, without writing anything.

    Returns a dict with ``table`` (complete data sets × methods), ``left_out`` (data sets
    dropped for a missing method), ``higher_is_better``, ``ranks`` (Series, sorted best
    first), ``friedman`` (Series), ``adjusted`` (methods × methods, ``correction``),
    ``pairs`` (long table with raw p and every correction applicable to k) and ``options``
    (``alpha``, ``monotone``, ``cap``: what the adjusted p-values and the CD diagram use).
    """
    if correction not in CORRECTIONS:
        raise ValueError(f"correction must be one of {CORRECTIONS}, got {correction!r}")
    if higher_is_better is None:
        higher_is_better = metric not in LOWER_IS_BETTER
    full = metric_table(records, metric, split)
    if methods:
        unknown = [m for m in methods if m not in full.columns]
        if unknown:
            raise ValueError(f"methods {unknown} not in records; methods: {list(full.columns)}")
        full = full[list(methods)]
    table = full.dropna(axis=0, how="any")
    left_out = sorted(set(full.index) - set(table.index))
    if table.shape[1] < 2:
        raise ValueError(f"need at least 2 methods with {metric!r}, got {list(table.columns)}")
    if table.shape[0] < 2:
        raise ValueError(
            f"need at least 2 data sets on which every method has {metric!r}; "
            f"complete: {list(table.index)}, left out: {left_out}"
        )
    ranks = average_ranks(table, higher_is_better).sort_values(kind="stable")
    fr = friedman(table, higher_is_better)
    adjusted = posthoc(table, correction, higher_is_better, monotone=monotone, cap=cap)
    from repro.stats.posthoc import MAX_BERGMANN_K

    corrections = [c for c in CORRECTIONS if c != "bergmann" or table.shape[1] <= MAX_BERGMANN_K]
    pairs = pairwise_comparisons(table, higher_is_better, corrections, monotone, cap)
    return {
        "table": table,
        "left_out": left_out,
        "higher_is_better": higher_is_better,
        "ranks": ranks,
        "friedman": fr,
        "adjusted": adjusted,
        "pairs": pairs,
        "options": {"alpha": alpha, "monotone": monotone, "cap": cap},
    }


def compare_records(
    records: pd.DataFrame,
    metric: str,
    correction: str = "bergmann",
    out: str | Path = ".",
    echo: bool = False,
    **options,
) -> list[Path]:
    """Run :func:`run_compare` (``options``: its keyword arguments) and write its Markdown, CSVs
    and CD diagram into ``out``. Returns the written paths; prints the report when ``echo``.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from repro.stats.plots import cd_diagram

    res = run_compare(records, metric, correction, **options)
    alpha = res["options"]["alpha"]
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    stem = f"compare_{metric}_{correction}"
    direction = "higher is better" if res["higher_is_better"] else "lower is better"
    ranks = res["ranks"]
    adjusted = res["adjusted"]
    fr_line = friedman_line(res["friedman"])

    rank_frame = pd.DataFrame(
        {
            "name": [_label(m) for m in ranks.index],
            "average rank": ranks.to_numpy(),
            f"mean {metric}": res["table"].mean(axis=0).reindex(ranks.index).to_numpy(),
        },
        index=pd.Index(ranks.index, name="method"),
    )
    order = list(ranks.index)
    matrix = adjusted.loc[order, order]
    pairs = res["pairs"].set_index("i")
    options = ", ".join(f"{k} = {v}" for k, v in res["options"].items())
    text = [
        f"# Comparison of {len(order)} methods on {metric} ({direction}), "
        f"{correction} correction\n",
        f"Data sets ({res['table'].shape[0]}): {', '.join(map(str, res['table'].index))}.\n",
    ]
    if res["left_out"]:
        text.append(f"Left out (a method has no {metric}): {', '.join(res['left_out'])}.\n")
    text += [
        "\n## Average ranks (1 = best)\n\n",
        to_markdown(rank_frame, index_title="method", float_format=_fmt),
        f"\n## Friedman test\n\n{fr_line}.\n",
        f"\n## Adjusted p-values ({correction}; {options})\n\n",
        to_markdown(matrix, index_title="method", float_format=_fmt),
        "\n## Pairs sorted by raw p (z-test on average ranks)\n\n",
        to_markdown(pairs, index_title="i", float_format=_fmt),
    ]
    md_path = out / f"{stem}.md"
    md_path.write_text("".join(text))
    csv_path = out / f"{stem}.csv"
    matrix.to_csv(csv_path, index_label="method")
    pairs_path = out / f"{stem}_pairs.csv"
    res["pairs"].to_csv(pairs_path, index=False)

    labelled_ranks = ranks.rename(index=_label)
    labelled_p = adjusted.rename(index=_label, columns=_label)
    fig = cd_diagram(
        labelled_ranks,
        labelled_p,
        alpha=alpha,
        title=f"{metric}: {correction} adjusted p, alpha = {alpha}",
    )
    png, pdf = out / f"{stem}_cd.png", out / f"{stem}_cd.pdf"
    fig.savefig(png, bbox_inches="tight", dpi=150)
    fig.savefig(pdf, bbox_inches="tight")
    plt.close(fig)

    if echo:
        with pd.option_context("display.width", 200, "display.max_columns", 50):
            print(f"{metric} ({direction}); {res['table'].shape[0]} data sets", end="")
            print(f"; left out: {', '.join(res['left_out'])}" if res["left_out"] else "")
            print("\nAverage ranks:")
            print(rank_frame.to_string(float_format=lambda x: f"{x:.4f}"))
            print(f"\n{fr_line}")
            print(f"\nAdjusted p-values ({correction}; {options}):")
            print(matrix.to_string(float_format=_fmt))
    return [md_path, csv_path, pairs_path, png, pdf]


def main(args: list[str]) -> int:
    """Entry point of ``python -m repro.report compare key=value ...``."""
    try:
        kv = parse_overrides(args)
        unknown = sorted(set(kv) - _KEYS)
        if unknown:
            raise ValueError(f"unknown argument(s) {unknown}; allowed: {sorted(_KEYS)}")
        for key in ("results", "metric"):
            if not kv.get(key):
                raise ValueError(f"missing {key}=...")
        from repro.evaluation.records import read_records

        results = Path(kv["results"])
        if not results.exists():
            raise ValueError(f"results directory {results} does not exist")
        records = read_records(results)
        alpha = float(kv.get("alpha", 0.05))
        if not 0 < alpha < 1:
            raise ValueError(f"alpha must be in (0, 1), got {alpha}")
        split = kv.get("split", "test")
        methods = [m for m in kv.get("methods", "").split(",") if m.strip()]
        paths = compare_records(
            records,
            metric=kv["metric"],
            correction=kv.get("correction", "bergmann"),
            out=kv.get("out") or results,
            higher_is_better=_as_bool("higher_is_better", kv.get("higher_is_better")),
            alpha=alpha,
            split=None if split.lower() in ("", "none", "null", "all") else split,
            monotone=bool(_as_bool("monotone", kv.get("monotone", "false"))),
            cap=_as_bool("cap", kv.get("cap", "true")) is not False,
            methods=[m.strip() for m in methods] or None,
            echo=True,
        )
    except (ValueError, FileNotFoundError) as err:
        print(f"error: {err}\n{USAGE}", file=sys.stderr)
        return 2
    print("\nWrote:")
    for p in paths:
        print(f"  {p}")
    return 0
