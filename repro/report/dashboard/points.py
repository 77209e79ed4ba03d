"""The values a dashboard row shows one by one, as records (JSON-able dicts):

- :func:`comparison_points`: each published number against ours, judged by the rule of its kind
  (:func:`repro.report.reproduction.judge`), with the interval that the rule uses (the error bar
  of the published-against-reproduced figure): the interval inside which the published number
  agrees (judge's ``low``, ``high``: for a mean over data sets, the paper's reference mean minus
  our paired differences' CI; for an average rank, ours ± 1.96 SE; for a count, the counts the
  test accepts; for a one-split value, the prediction interval of our splits), and for a mean ±
  SD over R runs the normal 95% intervals of both means (standard errors, as Welch's test weighs
  them); a value published without its spread, none.
- :func:`value_flags`: the values to read with care, each with its note: a mean test accuracy
  at or below the data set's majority rate (a collapse: always predicting the most frequent
  class does as well), a data set that stands in for the paper's (generated or other data), a
  data set that is the paper's in another form (a substitute).
"""

from __future__ import annotations

import json
import math

import pandas as pd

from repro.report.reproduction import SPREAD_SUFFIXES
from repro.stats import agreement

#: the kind of a published number, by its ``dataset`` (anything else: a per-data-set value)
KINDS = {"mean": "mean", "rank": "rank", "wins": "count", "losses": "count"}
#: z of a normal 95% interval
Z95 = 1.959963984540054
#: majority rates are catalogued in percent to one decimal: a value within half of that counts
#: as at the rate
MAJORITY_ROUNDING = 0.0005


def _number(value) -> float | None:
    return None if value is None or pd.isna(value) else float(value)


def comparison_points(
    judged: pd.DataFrame,
    reported: pd.DataFrame,
    *,
    published_runs: dict | None = None,
    substitutes=(),
) -> list[dict]:
    """One record per published number of ``judged`` (:func:`~repro.report.reproduction.judge`
    on ``reported``): table, kind, method, data set, metric, published, reproduced, agrees
    (True, False, None: not decided), rule, the published values that would agree (``low``,
    ``high``; for a mean ± SD, our mean's interval) and the published value's interval
    (``published_low``, ``published_high``, a mean ± SD only; None where the rule has none),
    ``on_standins``, ``substitute``."""
    published_runs = published_runs or {}
    spread = {
        (r.table, r.method, r.dataset, r.metric[: -len(suffix)]): (suffix, float(r.value))
        for suffix in SPREAD_SUFFIXES
        for r in reported[reported["metric"].str.endswith(suffix)].itertuples(index=False)
    }
    points = []
    for row in judged.itertuples(index=False):
        if str(row.metric).endswith(SPREAD_SUFFIXES):
            continue  # the paper's spread of another number, not a number of its own
        low = high = published_low = published_high = None
        rule = str(row.rule)
        if not pd.isna(row.reproduced):
            # the interval of judge: where the published number agrees (a mean ± SD: ours)
            low, high = getattr(row, "low", None), getattr(row, "high", None)
            if rule == agreement.RULES["mean_with_sd"]:
                _, sd = spread[(row.table, *_key(row))]
                half = Z95 * sd / math.sqrt(int(published_runs[row.table]))
                published_low, published_high = row.published - half, row.published + half
        agrees = None if row.agrees is None or pd.isna(row.agrees) else bool(row.agrees)
        points.append(
            {
                "table": str(row.table),
                "kind": KINDS.get(row.dataset, "value"),
                "method": str(row.method),
                "dataset": str(row.dataset),
                "metric": str(row.metric),
                "published": float(row.published),
                "reproduced": _number(row.reproduced),
                "agrees": agrees,
                "rule": rule,
                "low": _number(low),
                "high": _number(high),
                "published_low": _number(published_low),
                "published_high": _number(published_high),
                "on_standins": rule == "on stand-ins",
                "substitute": str(row.dataset) in set(substitutes),
            }
        )
    return points


def _key(row) -> tuple:
    return (row.method, row.dataset, row.metric)


def params_labels(records: pd.DataFrame) -> dict[tuple[str, str], str]:
    """(method, params JSON) → a short label: the method, with the parameters in which its
    configurations differ when the records hold several (``wnb_opt algorithm=sg lambda_=1.0``)."""
    labels = {}
    for method, group in records.groupby("method", sort=True):
        variants = {  # each distinct configuration once (not each of its rows)
            p: json.loads(p) if isinstance(p, str) and p else {} for p in group["params"].unique()
        }
        keys = sorted({k for d in variants.values() for k in d})
        differ = [k for k in keys if len({json.dumps(d.get(k)) for d in variants.values()}) > 1]
        for p, d in variants.items():
            shown = " ".join(f"{k}={d.get(k)}" for k in differ)
            labels[(str(method), p)] = f"{method} {shown}" if shown else str(method)
    return labels


def value_flags(
    records: pd.DataFrame | None,
    majority: dict[str, float],
    standins=(),
    substitutes=(),
) -> list[dict]:
    """The values to read with care of one row's records (module docstring), each a record:
    ``kind`` ("collapse", "stand-in", "substitute"), ``dataset``, ``method`` (None for a data
    set's flag), ``value`` (the mean test accuracy of a collapse), ``majority`` (the data set's
    majority rate), ``note``, and for a collapse ``methods``: how many methods (configurations)
    have a test accuracy on its data set in these records, flagged or not (the page shows one
    line for a data set where every one collapses, :func:`~.papers.flag_lines`). ``majority``:
    data set → majority rate (a fraction; a constructed set ``name+…`` has its base set's
    rate)."""
    flags = [
        {
            "kind": "stand-in",
            "dataset": d,
            "method": None,
            "value": None,
            "majority": None,
            "note": "stands in for the paper's data (generated or other data): its numbers are "
            "never judged against the published ones",
        }
        for d in sorted(standins)
    ]
    flags += [
        {
            "kind": "substitute",
            "dataset": d,
            "method": None,
            "value": None,
            "majority": None,
            "note": "the paper's data set in another form (binarized, a damaged or partial "
            "copy, another version): see the experiment's REPRODUCTION.md or its paper's README",
        }
        for d in sorted(set(substitutes) - set(standins))
    ]
    if records is None:
        return flags
    test = records[(records["split"] == "test") & (records["metric"] == "accuracy")]
    if test.empty:
        return flags
    if "params" not in test.columns:
        test = test.assign(params="")
    test = test.assign(params=test["params"].fillna(""))
    labels = params_labels(test)
    means = test.groupby(["dataset", "method", "params"], sort=True)["value"].mean()
    methods = means.groupby(level="dataset").size()
    for (dataset, method, params), value in means.items():
        rate = majority.get(str(dataset), majority.get(str(dataset).split("+")[0]))
        if rate is None or not value <= rate + MAJORITY_ROUNDING:
            continue
        flags.append(
            {
                "kind": "collapse",
                "dataset": str(dataset),
                "method": labels[(str(method), params)],
                "value": round(float(value), 4),
                "majority": round(float(rate), 4),
                "note": f"accuracy {value:.3f} ≤ the majority rate {rate:.3f}: no better than "
                "always predicting the most frequent class (a collapse)",
                "methods": int(methods[dataset]),
            }
        )
    return flags


def majority_rates() -> dict[str, float]:
    """Data set → its majority rate (a fraction), from the catalog, where known."""
    from repro.datasets.entries import catalog

    return {
        name: entry.majority_pct / 100
        for name, entry in catalog().items()
        if entry.majority_pct is not None
    }
