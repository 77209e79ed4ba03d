"""Distinct configurations in stored records: a statistic never pools them.

Every record names its ``method`` (the registry id), its ``params`` (the estimator's parameters
as JSON), its ``seed`` and its ``protocol``. A sweep of a parameter (``method.n_bins=3,5,10``),
of seeds (``seed=0,1,2``) or of protocols gives several configurations of one method; averaging
them into one column of a table would report a mixture that no run computed. Here each distinct
configuration gets a label of its own, the method id followed by what tells it apart from the
other configurations of the same method, in the spelling of the result files' names::

    nb_ef__n_bins=3    nb_ef__n_bins=5    snb_cma__seed=1    nb__protocol=cv5

A method with one configuration keeps its plain id, so records of ordinary experiments read as
before.
"""

from __future__ import annotations

import json

import pandas as pd

__all__ = [
    "CONFIGURATION_COLUMNS",
    "configuration_labels",
    "pooled_configurations",
    "refuse_pooled",
]

#: the record columns whose values tell configurations of one method apart
CONFIGURATION_COLUMNS = ("params", "seed", "protocol")


def _params(text) -> dict:
    if not isinstance(text, str) or not text:
        return {}
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        return {"params": text}
    return value if isinstance(value, dict) else {"params": value}


def _token(value) -> str:
    text = json.dumps(value, sort_keys=True) if isinstance(value, dict | list) else str(value)
    return text.replace(" ", "")


def _labels_of_configurations(configs: pd.DataFrame, ids: list[str], dataset: list[str]) -> dict:
    """(ids as strings) → label, over the distinct rows ``configs`` (ids + data set, strings)."""
    columns = ids[1:]
    settings = {
        key: {
            **_params(key[1 + columns.index("params")] if "params" in columns else ""),
            **{c: key[1 + columns.index(c)] for c in columns if c != "params"},
        }
        for key in configs[ids].drop_duplicates().itertuples(index=False, name=None)
    }
    labels = {}
    for method, group in configs.groupby("method", sort=False):
        keys = sorted({k for key, s in settings.items() if key[0] == method for k in s})
        varying = set()
        for _, per_dataset in group.groupby(dataset or "method", sort=False):
            found = [settings[k] for k in per_dataset[ids].itertuples(index=False, name=None)]
            varying |= {k for k in keys if len({_token(s.get(k)) for s in found}) > 1}
        order = sorted(k for k in varying if k not in columns) + [
            c for c in columns if c in varying
        ]
        for key in group[ids].drop_duplicates().itertuples(index=False, name=None):
            parts = [f"{k}={_token(settings[key].get(k))}" for k in order]
            labels[key] = "__".join([str(method), *parts])
    return labels


def configuration_labels(records: pd.DataFrame) -> pd.Series:
    """One label per record row: ``method`` plus ``__key=value`` for every parameter, then the
    seed and the protocol, that takes several values among that method's records on one data
    set (parameters sorted by name). A method run with other parameters on other data sets only
    (one configuration per data set) is not a sweep and keeps its plain id."""
    columns = [c for c in CONFIGURATION_COLUMNS if c in records.columns]
    if not columns:
        return records["method"].astype(str)
    ids = ["method", *columns]
    dataset = ["dataset"] if "dataset" in records.columns else []
    distinct = records[ids + dataset].drop_duplicates()  # few rows: the work is done on them
    labels = _labels_of_configurations(distinct.astype(str), ids, dataset)
    table = distinct[ids].drop_duplicates()
    table = table.assign(
        label=[labels[k] for k in table.astype(str).itertuples(index=False, name=None)]
    )
    merged = records[ids].merge(table, on=ids, how="left")
    return pd.Series(merged["label"].to_numpy(), index=records.index, name="method")


def pooled_configurations(records: pd.DataFrame) -> dict[str, list[str]]:
    """Methods whose records hold several configurations: method id → their labels (sorted)."""
    columns = [c for c in CONFIGURATION_COLUMNS if c in records.columns]
    keys = ["method", *(["dataset"] if "dataset" in records.columns else [])]
    distinct = records[keys + columns].drop_duplicates()
    if not columns or not distinct.duplicated(keys).any():
        return {}  # one configuration per method and data set
    labels = configuration_labels(distinct)
    found = pd.DataFrame({"method": distinct["method"].astype(str), "label": labels})
    found = found.drop_duplicates()
    counts = found.groupby("method")["label"].nunique()
    return {m: sorted(found.loc[found["method"] == m, "label"]) for m in counts[counts > 1].index}


def refuse_pooled(records: pd.DataFrame) -> None:
    """A ValueError naming the configurations when the records hold several of one method:
    a mean over them would pool them."""
    pooled = pooled_configurations(records)
    if pooled:
        listing = "; ".join(f"{m}: {', '.join(labels)}" for m, labels in pooled.items())
        raise ValueError(
            f"the records hold several configurations of one method ({listing}); a table of "
            "means would pool them. Select one configuration, or relabel each with "
            "repro.stats.configurations.configuration_labels"
        )
