"""MODLGrouper / MODLGroupPartition: the factorized path (pandas factorize once per column,
counts by bincount, transform through a lookup indexed by the codes) equals the previous
per-row logic, kept here as the reference: same groups (values, their types and order), same
default group, same counts and costs, same codes at transform (unseen values included)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from repro.preprocessing.modl import criteria
from repro.preprocessing.modl import grouping as modl_khiops_grouping
from repro.preprocessing.modl.estimators import (
    MODLGrouper,
    MODLGroupPartition,
    _class_index,
    _group_paper,
    attribute_cost,
)

# ---------------------------------------------------------------------------------------------
# the previous per-row code (reference)
# ---------------------------------------------------------------------------------------------
_MISSING = "\x00<missing>"


def _ref_is_missing(v) -> bool:
    return v is None or (isinstance(v, float) and math.isnan(v))


def _ref_keys(x):
    keys = np.empty(len(x), dtype=object)
    for i, v in enumerate(x):
        keys[i] = _MISSING if _ref_is_missing(v) else v
    return keys


def _ref_unkey(k):
    return np.nan if k == _MISSING else k


def _ref_fit(variant, n_variables, x, y, n_classes=None) -> dict:
    """The previous ``MODLGrouper.fit``, returning its fitted attributes."""
    out = {}
    y, n_classes = _class_index(y, n_classes)
    keys = _ref_keys(x)
    labels = {}
    codes = np.empty(keys.size, dtype=np.int64)
    for i, k in enumerate(keys):
        codes[i] = labels.setdefault(k, len(labels))
    names = list(labels)
    counts = np.zeros((len(names), n_classes))
    np.add.at(counts, (codes, y), 1.0)
    freqs = counts.sum(axis=1)
    order = sorted(range(len(names)), key=lambda i: (-freqs[i], str(names[i])))
    counts = counts[order]
    names = [names[i] for i in order]
    class_counts = counts.sum(axis=0)
    if variant == "khiops":
        a = attribute_cost(n_variables)
        value_labels, g, cost, catch = modl_khiops_grouping.group_values(counts, a)
        null = criteria.null_cost(class_counts)
        out["granularity_"] = int(g)
    else:
        value_labels, cost = _group_paper(counts)
        null = float(
            criteria.grouping_partition_cost_2005(len(names))[1]
            + criteria.part_cost(class_counts).sum()
        )
        catch = np.zeros(len(names), bool)
        out["granularity_"] = 0
    n_groups = int(value_labels.max()) + 1 if value_labels.size else 1
    out["cost_"], out["null_cost_"] = float(cost), float(null)
    lev = 1.0 - out["cost_"] / out["null_cost_"] if out["null_cost_"] > 0 else 0.0
    out["level_"] = lev if (lev > 1e-10 and n_groups > 1) else 0.0
    if not out["level_"] > 0:
        value_labels = np.zeros(len(names), dtype=np.int64)
        n_groups = 1
    counts_ = np.zeros((n_groups, n_classes))
    np.add.at(counts_, value_labels, counts)
    out["counts_"] = counts_
    out["groups_"] = [
        [_ref_unkey(names[i]) for i in np.flatnonzero(value_labels == k)] for k in range(n_groups)
    ]
    if catch.any():
        out["default_group_"] = int(value_labels[np.flatnonzero(catch)[0]])
    else:
        out["default_group_"] = int(value_labels[len(names) - 1]) if names else 0
    out["group_of_"] = {names[i]: int(value_labels[i]) for i in range(len(names))}
    out["n_groups_"] = n_groups
    out["catch_all_"] = [_ref_unkey(names[i]) for i in np.flatnonzero(catch)]
    return out


def _ref_transform(fitted: dict, x) -> np.ndarray:
    keys = _ref_keys(x)
    get, default = fitted["group_of_"].get, fitted["default_group_"]
    return np.array([get(k, default) for k in keys], dtype=np.int64)


def _ref_values(labels, x):
    """The previous ``MODLGroupPartition._values``: codes (NaN missing, < 0 unseen) → labels."""
    x = np.asarray(x, dtype=np.float64)
    out = np.empty(x.size, dtype=object)
    for i, v in enumerate(x):
        if np.isnan(v):
            out[i] = None
        elif v < 0:
            out[i] = ("\x01<unseen>",)
        else:
            out[i] = str(labels[int(v)]) if labels is not None else int(v)
    return out


# ---------------------------------------------------------------------------------------------
# comparison
# ---------------------------------------------------------------------------------------------
def _typed(v):
    """A value with its type, NaN made comparable: two groups are the same only if their values
    are equal and of the same types (np.str_ vs str, np.float64 vs float, −0.0 vs 0.0)."""
    if isinstance(v, float) and math.isnan(v):
        return (type(v).__name__, "nan")
    if isinstance(v, (float, np.floating)):
        return (type(v).__name__, repr(float(v)), math.copysign(1.0, float(v)))
    return (type(v).__name__, repr(v))


def _assert_same(g: MODLGrouper, ref: dict) -> None:
    assert [[_typed(v) for v in grp] for grp in g.groups_] == [
        [_typed(v) for v in grp] for grp in ref["groups_"]
    ]
    assert [_typed(v) for v in g.catch_all_] == [_typed(v) for v in ref["catch_all_"]]
    assert [(_typed(k), v) for k, v in g.group_of_.items()] == [
        (_typed(k), v) for k, v in ref["group_of_"].items()
    ]
    for name in ("default_group_", "n_groups_", "granularity_"):
        assert getattr(g, name) == ref[name], name
    for name in ("cost_", "null_cost_", "level_"):
        assert getattr(g, name) == ref[name], name  # bit-identical
    assert np.array_equal(g.counts_, ref["counts_"])
    assert g.counts_.dtype == ref["counts_"].dtype


def _random_column(rng, kind: str, n: int):
    """A column with skewed frequencies (ties in frequency included) of one of several kinds."""
    v = int(rng.integers(1, 12))
    freq = rng.integers(1, 6, v).astype(float)
    idx = rng.choice(v, n, p=freq / freq.sum())
    miss = rng.random(n) < rng.choice([0.0, 0.05, 0.3])
    if kind == "str":
        pool = np.array([f"s{k}" for k in rng.permutation(v)], dtype=object)
        x = pool[idx]
        x[miss] = None
    elif kind == "str_nan":  # strings, missing as float NaN (and None)
        pool = np.array([f"s{k}" for k in rng.permutation(v)], dtype=object)
        x = pool[idx]
        x[miss] = np.where(rng.random(miss.sum()) < 0.5, np.nan, None)
    elif kind == "int":
        x = rng.permutation(np.arange(-3, v + 5))[:v][idx].astype(np.int64)
    elif kind == "uint8":
        x = rng.permutation(np.arange(v + 5))[:v][idx].astype(np.uint8)
    elif kind == "bool":
        x = idx % 2 == 0
    elif kind == "float":  # NaN missing, −0.0 and 0.0 (one value, the first row's sign kept)
        pool = np.array([0.0, -0.0, 1.5, 2.0, -3.25, 1e300, 7.0, 8.0, 9.5, 10.0, 11.0, 12.0])
        x = pool[rng.permutation(12)][idx]
        x[miss] = np.nan
    elif kind == "float32":  # without NaN (float32 NaN is not a missing value of the old code)
        x = np.array([0.5, -0.0, 0.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0], np.float32)
        x = x[idx]
    elif kind == "unicode":
        x = np.array([f"u{k}" for k in range(v)])[idx]
    elif kind == "mixed":  # str, int, float (1 == 1.0 is one value), None, NaN in one column
        pool = np.array(["a", 1, 1.0, "1", 2.5, "b", 3, None, "c", 4, 5.0, "d"], dtype=object)
        x = pool[rng.permutation(12)][idx]
        x[miss] = np.nan
    elif kind == "tuples":  # row-by-row path (tuples, bools, numpy scalars)
        pool = np.empty(12, dtype=object)
        pool[:] = [("t", 1), True, np.int64(4), "x", np.float64(2.0), ("t", 2), 1, "y",
                   np.str_("x"), 0.0, False, None]  # fmt: skip
        x = pool[rng.permutation(12)][idx]
    elif kind == "list":
        pool = [f"l{k}" for k in range(v)]
        x = [None if m else pool[i] for i, m in zip(idx, miss, strict=True)]
    elif kind == "series":
        x = pd.Series(rng.permutation(np.arange(v) * 1.5)[idx])
        x[miss] = np.nan
    else:
        raise ValueError(kind)
    return x


KINDS = ["str", "str_nan", "int", "uint8", "bool", "float", "float32", "unicode", "mixed",
         "tuples", "list", "series"]  # fmt: skip


def _unseen(kind):
    """Values for transform: unseen ones mixed with those of the training column's kind."""
    extra = {
        "str": ["zz", None, "s0"],
        "str_nan": ["zz", np.nan, None],
        "int": [99, -7],
        "uint8": [250],
        "bool": [True],
        "float": [np.nan, 123.0, -0.0],
        "float32": [123.0, 0.0],
        "unicode": ["zz"],
        "mixed": ["zz", 1.0, True, None, 99],
        "tuples": [("t", 3), ("t", 1), np.nan],
        "list": ["zz", None],
        "series": [np.nan, 1e9],
    }[kind]
    return extra


@pytest.mark.parametrize("variant", ["khiops", "paper"])
@pytest.mark.parametrize("kind", KINDS)
def test_grouper_fast_equals_per_row(kind, variant):
    for trial in range(2):
        rng = np.random.default_rng([KINDS.index(kind), trial, variant == "khiops"])
        n = int(rng.integers(1, 400))
        x = _random_column(rng, kind, n)
        n_classes = int(rng.integers(2, 4))
        y = rng.integers(0, n_classes, n)
        g = MODLGrouper(variant, n_variables=3).fit(x, y, n_classes)
        ref = _ref_fit(variant, 3, x, y, n_classes)
        _assert_same(g, ref)
        x2 = _random_column(rng, kind, 50)
        if isinstance(x2, pd.Series):
            x2 = pd.concat([x2, pd.Series(_unseen(kind), dtype=x2.dtype)])
        elif isinstance(x2, list):
            x2 = x2 + _unseen(kind)
        else:
            extra = np.array(_unseen(kind), dtype=x2.dtype if x2.dtype != bool else bool)
            if x2.dtype == object:
                extra = np.empty(len(_unseen(kind)), dtype=object)
                extra[:] = _unseen(kind)
            x2 = np.concatenate([x2, extra])
        got = g.transform(x2)
        assert got.dtype == np.int64
        assert np.array_equal(got, _ref_transform(ref, x2))
        assert np.array_equal(g.transform(x), _ref_transform(ref, x))


@pytest.mark.parametrize("with_labels", [True, False])
def test_group_partition_fast_equals_per_row(with_labels):
    """Encoded codes (NaN missing, −1 unseen, floats truncated as int()), labels that repeat as
    str (two codes, one value) or none: fit and transform as the per-row conversion."""
    for trial in range(8):
        rng = np.random.default_rng([trial, with_labels])
        v = int(rng.integers(1, 15))
        labels = np.array([f"c{k % 5}" if k % 4 else k for k in range(v)], dtype=object)
        n = int(rng.integers(1, 500))
        x = rng.integers(0, v, n).astype(np.float64)
        x[rng.random(n) < 0.1] = np.nan
        if trial % 2:
            x[rng.random(n) < 0.05] = -0.0
        y = rng.integers(0, 3, n)
        lab = labels if with_labels else None
        part = MODLGroupPartition("khiops", 4, labels=lab).fit(x, y, 3)
        ref = _ref_fit("khiops", 4, _ref_values(lab, x), y, 3)
        _assert_same(part.modl_, ref)
        assert part.n_parts_ == ref["n_groups_"]
        x2 = np.concatenate([rng.integers(0, v, 40).astype(np.float64), [np.nan, -1.0, -1.0]])
        assert np.array_equal(part.transform(x2), _ref_transform(ref, _ref_values(lab, x2)))


def test_grouper_fast_known_answer():
    """A small column by hand: values by decreasing frequency then label ('b' 3 rows, then 'a',
    missing and 'c' tied at 2, sorted as str: '\\x00<missing>' < 'a' < 'c'); the paper
    variant's two-class grouping puts {b} apart from {a, c, missing} (P(1) = 1 vs 0)."""
    x = np.array(["a", "b", None, "b", "c", "a", np.nan, "b", "c"], dtype=object)
    y = np.array([0, 1, 0, 1, 0, 0, 0, 1, 0])
    g = MODLGrouper("paper").fit(x, y, 2)
    ref = _ref_fit("paper", None, x, y, 2)
    _assert_same(g, ref)
    assert list(g.group_of_) == ["b", _MISSING, "a", "c"]
    codes = g.transform(np.array(["b", "a", None, "zz"], dtype=object))
    assert codes[1] == codes[2] != codes[0]
    assert codes[3] == g.default_group_


def test_grouper_empty_column():
    x, y = np.array([], dtype=object), np.array([], dtype=np.int64)
    g = MODLGrouper("khiops").fit(x, y, 2)
    _assert_same(g, _ref_fit("khiops", None, x, y, 2))
    assert g.transform(np.array([], dtype=object)).dtype == np.int64
    assert g.transform(np.array(["a"], dtype=object)).tolist() == [g.default_group_]
