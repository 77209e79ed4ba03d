"""Tests comparing classifiers: per data set (paired t over folds) and over data sets (ranks,
Friedman / Iman–Davenport, Wilcoxon signed ranks).

Inputs are either *records* — the tidy long results (one row per method, dataset, repetition,
fold, split, metric with a ``value`` column) — or a *table*: a data sets × methods
DataFrame of one metric (build it with :func:`metric_table`). Outputs are DataFrames or Series.

References
----------
- Boullé, M. (2007). Compression-based averaging of selective naive Bayes classifiers. JMLR 8,
  §7.1 (two-tailed paired Student test at 5 % over the folds, W/L of SNB(CMA)).
- Demšar, J. (2006). Statistical comparisons of classifiers over multiple data sets. JMLR 7,
  §3.1.3 (Wilcoxon), §3.2.2 (Friedman, Iman–Davenport).
- Iman, R. L. & Davenport, J. M. (1980). Approximations of the critical region of the Friedman
  statistic. Communications in Statistics 9(6).
"""

from __future__ import annotations

import itertools
import math
from typing import NamedTuple

import numpy as np
import pandas as pd
from scipy import special, stats

from repro.stats.configurations import pooled_configurations, refuse_pooled

__all__ = [
    "FoldCube",
    "PairedTResult",
    "average_ranks",
    "friedman",
    "metric_table",
    "missing_lines",
    "missing_values",
    "empty_cells",
    "cube_pair",
    "fold_cube",
    "pair_outcomes",
    "paired_t_wins_losses",
    "rank_table",
    "tie_values",
    "wilcoxon_pairs",
]

_RECORD_COLUMNS = ("method", "dataset", "repetition", "fold", "split", "metric", "value")


def _check_records(records: pd.DataFrame, metric: str, split: str | None) -> pd.DataFrame:
    """Columns present, metric known; returns the rows of ``metric`` (and ``split``)."""
    missing = [c for c in _RECORD_COLUMNS if c not in records.columns]
    if missing:
        raise ValueError(
            f"records lack the column(s) {missing}; expected at least {list(_RECORD_COLUMNS)}"
        )
    sub = records[records["metric"] == metric]
    if sub.empty:
        known = sorted(records["metric"].dropna().unique().tolist())
        raise ValueError(f"metric {metric!r} not found in records; available metrics: {known}")
    if split is not None:
        sub = sub[sub["split"] == split]
        if sub.empty:
            known = sorted(records["split"].dropna().unique().tolist())
            raise ValueError(f"no {metric!r} records with split={split!r}; splits: {known}")
    return sub


def metric_table(records: pd.DataFrame, metric: str, split: str | None = "test") -> pd.DataFrame:
    """Data sets × methods table of the mean of ``metric`` over repetitions × folds.

    Parameters
    ----------
    records : DataFrame
        Tidy long records with at least ``method, dataset, repetition, fold, split, metric,
        value``.
    metric : str
        Metric name, e.g. ``"accuracy"``, ``"auc"``, ``"compression_rate"``.
    split : str or None
        Keep only this split (``"test"`` by default); ``None`` keeps all rows.

    Returns
    -------
    DataFrame
        Index ``dataset`` (sorted), columns ``method`` (in order of first appearance in the
        records), values the mean over the (repetition, fold) cells that have a value (folds
        whose value is NaN are left out of the mean: :func:`missing_values` says which). A
        method absent on a data set, or without a value on every fold, gives NaN. Records
        holding several configurations of one method (a parameter, seed or protocol sweep;
        :mod:`repro.stats.configurations`) are a ValueError, never pooled.
    """
    sub = _check_records(records, metric, split)
    refuse_pooled(sub)
    methods = list(dict.fromkeys(sub["method"].tolist()))
    table = sub.groupby(["dataset", "method"], sort=True)["value"].mean().unstack("method")
    table = table.reindex(columns=methods)
    table.columns.name = "method"
    return table.astype(float)


def missing_values(records: pd.DataFrame, metric: str, split: str | None = "test") -> pd.DataFrame:
    """The (method, data set) cells of ``metric`` some of whose folds have no value (NaN): one
    row each with ``method``, ``dataset``, ``n`` (folds with a value, what a mean is over),
    ``folds`` (all of the cell's folds) and ``missing`` (the (repetition, fold) that lack one).
    :func:`metric_table` averages over the ``n`` folds that have a value (none: NaN); reports
    say which folds were left out with this table. Empty when every fold has a value."""
    sub = _check_records(records, metric, split)
    columns = ["method", "dataset", "n", "folds", "missing"]
    lacking = sub[sub["value"].isna()]
    if lacking.empty:
        return pd.DataFrame(columns=columns)
    rows = []
    for (method, dataset), grp in sub.groupby(["method", "dataset"], sort=True):
        absent = grp[grp["value"].isna()]
        if absent.empty:
            continue
        keys = absent[["repetition", "fold"]].drop_duplicates().itertuples(index=False)
        rows.append(
            {
                "method": method,
                "dataset": dataset,
                "n": int(grp["value"].notna().sum()),
                "folds": len(grp),
                "missing": [(int(r), int(f)) for r, f in keys],
            }
        )
    return pd.DataFrame(rows, columns=columns)


def missing_lines(missing: pd.DataFrame, metric: str) -> list[str]:
    """One line per row of :func:`missing_values`: which folds of which cell lack ``metric``,
    and what its mean is over."""
    lines = []
    for row in missing.itertuples(index=False):
        folds = ", ".join(f"r{r}f{f}" for r, f in row.missing[:10])
        more = f" and {len(row.missing) - 10} more" if len(row.missing) > 10 else ""
        over = (
            f"mean over the other {row.n} of {row.folds} folds (n = {row.n})"
            if row.n
            else "no value on any fold: left out"
        )
        lines.append(f"{row.method} on {row.dataset}: no {metric} on fold(s) {folds}{more}; {over}")
    return lines


class PairedTResult(NamedTuple):
    """Result of :func:`paired_t_wins_losses` (unpacks as ``details, summary``)."""

    details: pd.DataFrame
    summary: pd.DataFrame


def _paired_t(ref: np.ndarray, other: np.ndarray) -> tuple[float, float]:
    """Two-tailed paired t-test (t, p) with the degenerate cases made explicit.

    - fewer than 2 pairs: (nan, nan);
    - every difference identical (zero variance of the differences): t = 0, p = 1 when the
      differences are all 0 (identical folds → tie), t = ±inf, p = 0 otherwise (the limit of the
      test when the spread vanishes: a constant non-zero shift on every fold);
    - else t = mean(d) / sqrt(var(d) / n) (var with n − 1 in the denominator) and
      p = 2 · T_{n−1}(−|t|), Student's t distribution function: what
      :func:`scipy.stats.ttest_rel` computes (to a few units in the last place), without its
      input checks, which cost 20 times the test on the claims' ten thousand calls.
    """
    diff = ref - other
    n = diff.size
    if n < 2:
        return float("nan"), float("nan")
    if np.ptp(diff) <= 1e-12 * max(1.0, float(np.max(np.abs(diff)))):
        d = float(np.mean(diff))
        if abs(d) <= 1e-12:
            return 0.0, 1.0
        return float(np.sign(d) * np.inf), 0.0
    t = float(np.mean(diff) / np.sqrt(np.var(diff, ddof=1) / n))
    return t, float(2.0 * special.stdtr(n - 1, -abs(t)))


def paired_t_wins_losses(
    records: pd.DataFrame,
    reference: str,
    metric: str,
    alpha: float = 0.05,
    higher_is_better: bool = True,
    split: str | None = "test",
) -> PairedTResult:
    """Significant wins / losses of a reference method by per-data-set paired t-tests.

    For every data set and every other method, the fold values are paired by
    ``(repetition, fold)`` and a two-tailed paired Student t-test is run
    (:func:`scipy.stats.ttest_rel`): with d_f = x_ref,f − x_m,f over the n paired folds,
    t = mean(d) / (sd(d) / sqrt(n)), n − 1 degrees of freedom. The outcome for the reference is
    ``win`` if p < alpha and the reference's mean is better (higher when ``higher_is_better``,
    lower otherwise), ``loss`` if p < alpha and worse, ``tie`` otherwise (boulle2007 §7.1: "a
    two-tailed Student test at the 5 % confidence level ... wins or losses of the SNB(CMA)
    method versus each other method"; Tables 3–4 print W/L).

    Degenerate cases: identical values on every fold (all differences 0) are a tie with p = 1
    and no warning; a constant non-zero difference on every fold has t = ±inf, p = 0; fewer than
    two common folds give p = NaN and a tie.

    Parameters
    ----------
    records : DataFrame
        Tidy long records (``method, dataset, repetition, fold, split, metric, value``).
    reference : str
        The method whose wins and losses are counted.
    metric : str
        Metric compared.
    alpha : float
        Significance level of each test.
    higher_is_better : bool
        Direction of the metric (False for error, ILF, ...).
    split : str or None
        Split of the records to use (``"test"``).

    Returns
    -------
    PairedTResult
        ``details``: one row per (dataset, method ≠ reference) with ``mean_reference``,
        ``mean_method``, ``n_pairs``, ``t``, ``p_value``, ``outcome`` (win / loss / tie for the
        reference). ``summary``: one row per method (index, reference first) with ``mean`` (mean
        over data sets of the per-data-set means), ``wins``, ``losses``, ``ties`` and ``W/L``
        (empty for the reference), as in boulle2007 Table 3.
    """
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1), got {alpha}")
    sub = _check_records(records, metric, split)
    refuse_pooled(sub)
    methods = list(dict.fromkeys(sub["method"].tolist()))
    if reference not in methods:
        raise ValueError(f"reference method {reference!r} not in records; methods: {methods}")
    others = [m for m in methods if m != reference]

    # one pivot for every data set (a pivot per data set costs ~10 ms each: the claims decide
    # hundreds of W/L tables); a method with no value on a data set has no test there
    wide = sub.pivot_table(
        index=["dataset", "repetition", "fold"], columns="method", values="value", aggfunc="mean"
    )
    values = wide.to_numpy(float)
    column = {m: i for i, m in enumerate(wide.columns)}
    datasets = wide.index.get_level_values("dataset")
    starts = np.flatnonzero(np.r_[True, datasets[1:] != datasets[:-1]]) if len(datasets) else []
    bounds = np.r_[starts, len(datasets)]
    rows = []
    for start, stop in zip(bounds[:-1], bounds[1:]):
        dataset, block = datasets[start], values[start:stop]
        present = ~np.isnan(block)
        if reference not in column or not present[:, column[reference]].any():
            continue
        for method in others:
            if method not in column or not present[:, column[method]].any():
                continue
            both = present[:, column[reference]] & present[:, column[method]]
            ref = block[both, column[reference]]
            oth = block[both, column[method]]
            t, p = _paired_t(ref, oth)
            mean_ref = float(np.mean(ref)) if ref.size else float("nan")
            mean_oth = float(np.mean(oth)) if oth.size else float("nan")
            outcome = "tie"
            if np.isfinite(p) and p < alpha and mean_ref != mean_oth:
                better = mean_ref > mean_oth if higher_is_better else mean_ref < mean_oth
                outcome = "win" if better else "loss"
            rows.append(
                {
                    "dataset": dataset,
                    "method": method,
                    "mean_reference": mean_ref,
                    "mean_method": mean_oth,
                    "n_pairs": int(ref.size),
                    "t": t,
                    "p_value": p,
                    "outcome": outcome,
                }
            )
    details = pd.DataFrame(
        rows,
        columns=[
            "dataset",
            "method",
            "mean_reference",
            "mean_method",
            "n_pairs",
            "t",
            "p_value",
            "outcome",
        ],
    )

    means = metric_table(records, metric, split).mean(axis=0)
    counts = (
        details.groupby("method")["outcome"].value_counts().unstack(fill_value=0)
        if not details.empty
        else pd.DataFrame()
    )
    summary = pd.DataFrame(index=pd.Index(methods, name="method"))
    summary["mean"] = means.reindex(methods).to_numpy()
    for col, key in (("wins", "win"), ("losses", "loss"), ("ties", "tie")):
        values = counts[key] if key in counts.columns else pd.Series(dtype=int)
        summary[col] = values.reindex(methods).fillna(0).astype(int).to_numpy()
    summary.loc[reference, ["wins", "losses", "ties"]] = 0
    summary["W/L"] = [
        "" if m == reference else f"{summary.at[m, 'wins']}/{summary.at[m, 'losses']}"
        for m in methods
    ]
    return PairedTResult(details=details, summary=summary)


class FoldCube(NamedTuple):
    """One metric's test values of every method, grouped once (:func:`fold_cube`)."""

    means: pd.DataFrame  # data sets × methods: metric_table's means (over the raw rows)
    present: pd.DataFrame  # data sets × methods: True where the method has rows there
    cells: np.ndarray  # (data set, repetition, fold) rows × methods: the mean per fold
    columns: dict  # method → its column of ``cells``
    blocks: dict  # data set → (start, stop) of its rows in ``cells``
    pooled: dict  # method → its configurations, for a method holding several
    metric: str = ""  # the metric whose values these are


def fold_cube(records: pd.DataFrame, metric: str, split: str | None = "test") -> FoldCube:
    """The :class:`FoldCube` of ``metric``: what :func:`pair_outcomes` needs of every pair of
    methods, computed once for all of them (a ValueError when the records lack a column or the
    metric, as :func:`metric_table`)."""
    sub = _check_records(records, metric, split)
    ds_codes, ds_names = pd.factorize(sub["dataset"], sort=True)
    m_codes, m_names = pd.factorize(sub["method"], sort=True)
    folds, f_codes = np.unique(
        np.stack([sub["repetition"].to_numpy(), sub["fold"].to_numpy()], axis=1),
        axis=0,
        return_inverse=True,
    )
    n_ds, n_f, n_m = len(ds_names), len(folds), len(m_names)
    values = sub["value"].to_numpy(float)
    by_dataset = ds_codes * n_m + m_codes
    by_fold = (ds_codes * n_f + f_codes.ravel()) * n_m + m_codes
    means = _group_means(by_dataset, values, n_ds * n_m).reshape(n_ds, n_m)
    present = np.bincount(by_dataset, minlength=n_ds * n_m).reshape(n_ds, n_m) > 0
    return FoldCube(
        means=pd.DataFrame(means, index=pd.Index(ds_names, name="dataset"), columns=m_names),
        present=pd.DataFrame(present, index=pd.Index(ds_names, name="dataset"), columns=m_names),
        cells=_group_means(by_fold, values, n_ds * n_f * n_m).reshape(n_ds * n_f, n_m),
        columns={m: i for i, m in enumerate(m_names)},
        blocks={d: (i * n_f, (i + 1) * n_f) for i, d in enumerate(ds_names)},
        pooled=pooled_configurations(sub),
        metric=metric,
    )


def _group_means(groups: np.ndarray, values: np.ndarray, n_groups: int) -> np.ndarray:
    """The mean of the non-NaN ``values`` of each group 0..n_groups−1 (NaN where none), its sum
    exactly rounded (:func:`math.fsum`): a mean depends on the group's values only, not on their
    order nor on the other groups, so two methods with the same fold values have the same mean
    and a paired difference of exactly 0 (a tie the Wilcoxon test drops)."""
    out = np.full(n_groups, np.nan)
    keep = ~np.isnan(values)
    groups, values = groups[keep], values[keep]
    if not groups.size:
        return out
    order = np.argsort(groups, kind="stable")
    groups, values = groups[order], values[order]
    starts = np.flatnonzero(np.r_[True, groups[1:] != groups[:-1]])
    stops = np.r_[starts[1:], groups.size]
    single = stops - starts == 1
    out[groups[starts[single]]] = values[starts[single]]
    for start, stop in zip(starts[~single], stops[~single]):
        out[groups[start]] = math.fsum(values[start:stop]) / (stop - start)
    return out


def cube_pair(
    cube: FoldCube,
    a: str,
    b: str,
    alpha: float = 0.05,
    higher_is_better: bool = True,
    datasets=None,
) -> pd.DataFrame:
    """:func:`pair_outcomes` of ``a`` against ``b`` read from a :class:`FoldCube` (on
    ``datasets`` when given); a ValueError when either method has no rows there, or holds
    several configurations (a mean over them would pool them)."""
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1), got {alpha}")
    if a == b:
        raise ValueError(f"a method is not compared with itself: a = b = {a!r}")
    rows_of = cube.present.index if datasets is None else cube.present.index.intersection(
        pd.Index(list(datasets)), sort=False
    )  # fmt: skip
    for m in (a, b):
        if m not in cube.present.columns or not cube.present.loc[rows_of, m].any():
            raise ValueError(f"no test records of {m!r} for {cube.metric!r}")
    pooled = {m: cube.pooled[m] for m in (a, b) if m in cube.pooled}
    if pooled:
        listing = "; ".join(f"{m}: {', '.join(labels)}" for m, labels in pooled.items())
        raise ValueError(
            f"the records hold several configurations of one method ({listing}); a table of "
            "means would pool them. Select one configuration, or relabel each with "
            "repro.stats.configurations.configuration_labels"
        )
    means = cube.means.loc[cube.means.index.isin(rows_of), [a, b]].dropna()
    ia, ib = cube.columns[a], cube.columns[b]
    rows = []
    for dataset, (mean_a, mean_b) in zip(means.index, means.to_numpy(float)):
        start, stop = cube.blocks[dataset]
        block = cube.cells[start:stop]
        both = ~np.isnan(block[:, ia]) & ~np.isnan(block[:, ib])
        ref, oth = block[both, ia], block[both, ib]
        t, p = _paired_t(ref, oth)
        mean_ref = float(np.mean(ref)) if ref.size else float("nan")
        mean_oth = float(np.mean(oth)) if oth.size else float("nan")
        outcome = "tie"
        if np.isfinite(p) and p < alpha and mean_ref != mean_oth:
            ahead = mean_ref > mean_oth if higher_is_better else mean_ref < mean_oth
            outcome = "win" if ahead else "loss"
        rows.append((float(mean_a), float(mean_b), int(ref.size), t, p, outcome))
    columns = ["mean_a", "mean_b", "n_pairs", "t", "p_value", "outcome"]
    return pd.DataFrame(rows, columns=columns, index=pd.Index(means.index, name="dataset"))


def pair_outcomes(
    records: pd.DataFrame,
    a: str,
    b: str,
    metric: str,
    alpha: float = 0.05,
    higher_is_better: bool = True,
    split: str | None = "test",
) -> pd.DataFrame:
    """Method ``a`` against ``b`` per data set, in one pass: what :func:`metric_table` and
    :func:`paired_t_wins_losses` (reference ``a``) give for this pair, on the data sets where
    both have a value.

    Returns one row per such data set (index ``dataset``, sorted) with ``mean_a`` and ``mean_b``
    (the means of :func:`metric_table`: over each method's folds with a value), ``n_pairs``,
    ``t``, ``p_value`` and ``outcome`` (win / loss / tie for ``a``: the paired t-test over the
    (repetition, fold) pairs where both have a value, means over those pairs compared, as
    :func:`paired_t_wins_losses` decides). Many pairs of one frame: build its
    :func:`fold_cube` once and read each pair with :func:`cube_pair`.
    """
    sub = _check_records(records, metric, split)
    return cube_pair(
        fold_cube(sub[sub["method"].isin([a, b])], metric, split), a, b, alpha, higher_is_better
    )


def empty_cells(table: pd.DataFrame, limit: int = 5) -> str:
    """The cells of a data sets × methods table without a finite value, named:
    ``no finite value for iris (nb), wine (nb)`` (the first ``limit``, then how many more)."""
    values = table.apply(pd.to_numeric, errors="coerce").to_numpy(dtype=float)
    rows, cols = np.nonzero(~np.isfinite(values))
    cells = [f"{table.index[r]} ({table.columns[c]})" for r, c in zip(rows, cols)]
    more = f" and {len(cells) - limit} more" if len(cells) > limit else ""
    return f"no finite value for {', '.join(cells[:limit])}{more} (data set (method))"


def _check_table(table: pd.DataFrame) -> pd.DataFrame:
    if not isinstance(table, pd.DataFrame):
        raise ValueError("table must be a DataFrame of data sets (rows) × methods (columns)")
    if table.shape[1] < 2:
        raise ValueError(f"need at least 2 methods (columns), got {list(table.columns)}")
    if table.shape[0] < 1:
        raise ValueError("table has no data set (row)")
    values = table.to_numpy(dtype=float)
    if not np.all(np.isfinite(values)):
        raise ValueError(f"{empty_cells(table)}; leave those data sets out before ranking")
    if table.columns.has_duplicates:
        raise ValueError(f"duplicated method names in {list(table.columns)}")
    return table


#: relative tolerance below which two values of a data set's row are a tie (:func:`tie_values`,
#: used by the ranks, Friedman, the post-hoc tests and Wilcoxon's zero differences). Means of the
#: same fold values summed in another order differ by a few ulps (~1e-16 relative); accuracies of
#: two methods that really differ on N ≤ 10^7 test cases differ by ≥ 1/N ≥ 1e-7, and continuous
#: metrics (AUC, compression rate) agreeing to 12 digits are not a difference a ranking can use.
RANK_RTOL = 1e-12


def tie_values(values: np.ndarray, rtol: float = RANK_RTOL) -> np.ndarray:
    """``values`` (a 1-d or 2-d array, rows independent) with near-equal values made equal.

    Within a row, sorted values are grouped greedily: a value joins the current group when
    |v − v₀| ≤ rtol · max(|v|, |v₀|), v₀ the group's smallest value, and takes the value v₀.
    Values equal within ``rtol`` thus rank as ties instead of by their summation noise.
    """
    values = np.array(values, dtype=float)
    rows = values.reshape(1, -1) if values.ndim == 1 else values
    for row in rows:
        order = np.argsort(row, kind="stable")
        anchor = row[order[0]]
        for j in order[1:]:
            if abs(row[j] - anchor) <= rtol * max(abs(row[j]), abs(anchor)):
                row[j] = anchor
            else:
                anchor = row[j]
    return rows.reshape(values.shape)


def rank_table(
    table: pd.DataFrame, higher_is_better: bool = True, rtol: float = RANK_RTOL
) -> pd.DataFrame:
    """Per-data-set ranks of the methods, rank 1 = best, ties get the average of their ranks.

    r_ij = rank of method j on data set i (Demšar 2006 §3.2.2), computed with
    :func:`scipy.stats.rankdata` (``method="average"``) on the values, negated when
    ``higher_is_better``. Values of a data set equal within the relative tolerance ``rtol``
    (:data:`RANK_RTOL`, :func:`tie_values`) are ties: a mean accuracy that differs from another
    by summation noise (1e-16) does not outrank it.
    """
    table = _check_table(table)
    values = tie_values(table.to_numpy(dtype=float), rtol)
    ranks = stats.rankdata(-values if higher_is_better else values, method="average", axis=1)
    return pd.DataFrame(ranks, index=table.index, columns=table.columns)


def average_ranks(
    table: pd.DataFrame, higher_is_better: bool = True, rtol: float = RANK_RTOL
) -> pd.Series:
    """Average rank of each method over the data sets, R_j = (1/N) Σ_i r_ij (Demšar 2006).

    Ties within a data set share the average of the ranks they span; rank 1 is the best.
    Returns a Series indexed by method, in the column order of ``table``.
    """
    avg = rank_table(table, higher_is_better, rtol).mean(axis=0)
    avg.name = "average_rank"
    return avg


def friedman(table: pd.DataFrame, higher_is_better: bool = True) -> pd.Series:
    """Friedman χ²_F and Iman–Davenport F_F on a data sets × methods table.

    With N data sets, k methods and average ranks R_j (ties averaged), Demšar (2006, §3.2.2):

        χ²_F = 12N / (k(k+1)) · [Σ_j R_j² − k(k+1)²/4]          ~ χ² with k − 1 d.o.f.
        F_F  = (N − 1) χ²_F / (N(k − 1) − χ²_F)                  ~ F(k − 1, (k − 1)(N − 1))

    (Iman & Davenport 1980). The returned ``chi2`` is this uncorrected statistic, the one
    Demšar, García & Herrera (2008) and R's scmamp use, and the one F_F is computed from.
    :func:`scipy.stats.friedmanchisquare` divides it by the tie correction
    1 − Σ(t³ − t) / (N k (k² − 1)) (t = sizes of groups of tied values within a data set); that
    value is returned as ``chi2_scipy`` (equal to ``chi2`` when there is no tie). When
    F_F's denominator is 0 (perfect agreement of the rankings), F_F = inf and its p-value 0.

    Returns
    -------
    Series (float)
        ``n_datasets, n_methods, chi2, chi2_df, chi2_pvalue, chi2_scipy, chi2_scipy_pvalue,
        ff, ff_df1, ff_df2, ff_pvalue``.
    """
    ranks = rank_table(table, higher_is_better)
    n, k = ranks.shape
    r = ranks.mean(axis=0).to_numpy()
    chi2 = 12.0 * n / (k * (k + 1)) * (np.sum(r**2) - k * (k + 1) ** 2 / 4.0)
    chi2 = max(float(chi2), 0.0)
    df1, df2 = k - 1, (k - 1) * (n - 1)
    denom = n * (k - 1) - chi2
    if df2 == 0:
        ff, ff_p = float("nan"), float("nan")
    elif denom <= 1e-12:
        ff, ff_p = float("inf"), 0.0
    else:
        ff = (n - 1) * chi2 / denom
        ff_p = float(stats.f.sf(ff, df1, df2))
    # scipy's tie-corrected statistic, recomputed from the same ranks (friedmanchisquare needs
    # k >= 3 and fails on all-tied data; its formula is reproduced here for every k).
    ties = 0.0
    for row in ranks.to_numpy():
        _, counts = np.unique(row, return_counts=True)
        ties += float(np.sum(counts**3 - counts))
    c = 1.0 - ties / (n * k * (k * k - 1))
    chi2_scipy = chi2 / c if c > 0 else float("nan")
    return pd.Series(
        {
            "n_datasets": n,
            "n_methods": k,
            "chi2": chi2,
            "chi2_df": df1,
            "chi2_pvalue": float(stats.chi2.sf(chi2, df1)),
            "chi2_scipy": chi2_scipy,
            "chi2_scipy_pvalue": float(stats.chi2.sf(chi2_scipy, df1))
            if np.isfinite(chi2_scipy)
            else float("nan"),
            "ff": ff,
            "ff_df1": df1,
            "ff_df2": df2,
            "ff_pvalue": ff_p,
        },
        name="friedman",
        dtype=float,
    )


def wilcoxon_pairs(
    table: pd.DataFrame,
    zero_method: str = "wilcox",
    correction: bool = False,
    alternative: str = "two-sided",
    method: str = "auto",
    higher_is_better: bool = True,
) -> pd.DataFrame:
    """Wilcoxon signed-rank test over data sets for every pair of methods.

    For the pair (a, b), d_i = x_ia − x_ib over the N data sets; :func:`scipy.stats.wilcoxon`
    ranks |d_i| and returns T = min(R⁺, R⁻) (two-sided) with the exact or normal p-value
    (``method="auto"``: exact for small N without ties/zeros). Demšar (2006, §3.1.3).

    Zero differences (d_i = 0, or equal within the relative :data:`RANK_RTOL`), as given by
    ``zero_method``:

    - ``"wilcox"`` (default, Wilcoxon's rule): drop the zero differences before ranking;
    - ``"pratt"``: rank them with the others, then drop their ranks (Pratt 1959);
    - ``"zsplit"``: rank them and split their ranks evenly between R⁺ and R⁻ (Demšar's advice).

    When *every* difference is 0 (or, for "wilcox", fewer than one non-zero difference remains)
    the pair is reported with statistic NaN and p = 1 (no evidence of a difference) instead of
    calling scipy, which would warn and divide by zero.

    Returns
    -------
    DataFrame
        One row per pair (column order of ``table``): ``method_a, method_b, n, n_nonzero,
        a_better, b_better, statistic, p_value`` where ``a_better`` counts the data sets where
        a is strictly better than b (direction given by ``higher_is_better``).
    """
    if zero_method not in ("wilcox", "pratt", "zsplit"):
        raise ValueError(f"zero_method must be 'wilcox', 'pratt' or 'zsplit', got {zero_method!r}")
    table = _check_table(table)
    rows = []
    for a, b in itertools.combinations(table.columns, 2):
        xa, xb = table[a].to_numpy(float), table[b].to_numpy(float)
        d = xa - xb
        d[np.abs(d) <= RANK_RTOL * np.maximum(np.abs(xa), np.abs(xb))] = 0.0  # ties (noise)
        nonzero = int(np.count_nonzero(d))
        a_better = int(np.sum(d > 0) if higher_is_better else np.sum(d < 0))
        b_better = nonzero - a_better
        if nonzero == 0:
            stat, p = float("nan"), 1.0
        else:
            res = stats.wilcoxon(
                d, zero_method=zero_method, correction=correction,
                alternative=alternative, method=method,
            )  # fmt: skip
            stat, p = float(res.statistic), float(res.pvalue)
        rows.append(
            {
                "method_a": a,
                "method_b": b,
                "n": int(d.size),
                "n_nonzero": nonzero,
                "a_better": a_better,
                "b_better": b_better,
                "statistic": stat,
                "p_value": p,
            }
        )
    return pd.DataFrame(rows)
