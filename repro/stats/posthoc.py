"""All-pairs post-hoc comparison of k methods over N data sets after a Friedman test.

Raw p-values come from the z-test on average ranks (Demšar 2006 §3.2.2); they are adjusted for
the m = k(k−1)/2 simultaneous hypotheses by Bonferroni–Dunn (m·p, what García & Herrera 2008
print as "Nemenyi"), Nemenyi's own test (the studentized range of k means, the distribution of
its critical difference), Holm, Shaffer's static procedure or Bergmann–Hommel's dynamic
procedure, as in García & Herrera (2008). Outputs are
methods × methods DataFrames (scikit-posthocs style) or a long table laid out like García &
Herrera's (one row per hypothesis, sorted by raw p).

References
----------
- Demšar, J. (2006). Statistical comparisons of classifiers over multiple data sets. JMLR 7.
- García, S. & Herrera, F. (2008). An extension on "Statistical comparisons of classifiers over
  multiple data sets" for all pairwise comparisons. JMLR 9, 2677–2694 (§3, adjusted p-values).
- Shaffer, J. P. (1986). Modified sequentially rejective multiple test procedures. JASA 81.
- Bergmann, B. & Hommel, G. (1988). Improvements of general multiple test procedures for
  redundant systems of hypotheses. In Multiple Hypothesenprüfung, Springer, 100–115.
- Calvo, B. & Santafé, G. (2016). scmamp: statistical comparison of multiple algorithms in
  multiple problems. The R Journal 8(1) (its optional monotonicity step).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pandas as pd
from scipy import stats

from repro.stats.tests import rank_table

__all__ = [
    "CORRECTIONS",
    "MAX_BERGMANN_K",
    "adjust_pairwise",
    "bell_number",
    "exhaustive_sets",
    "nemenyi_critical_difference",
    "pair_index",
    "pairwise_comparisons",
    "posthoc",
    "set_partitions",
    "shaffer_counts",
    "shaffer_multipliers",
    "ztest_pvalues",
]

CORRECTIONS = ("bonferroni", "nemenyi", "holm", "shaffer", "bergmann")
#: Largest k for Bergmann–Hommel: Bell(11) − 1 = 678 569 exhaustive sets over 55 pairs
#: (~1 s). Beyond, the number of sets grows super-exponentially; use Shaffer instead.
MAX_BERGMANN_K = 11
_CHUNK = 1 << 17  # exhaustive sets processed at once (bounded memory)


# --------------------------------------------------------------------------------------------
# Combinatorics: pairs, set partitions, exhaustive sets, Shaffer's S(k)
# --------------------------------------------------------------------------------------------
def pair_index(k: int) -> tuple[np.ndarray, np.ndarray]:
    """The m = k(k−1)/2 pairs (i, j), i < j, in lexicographic order: (0,1), (0,2), …, (k−2,k−1).

    Pair number q of every function of this module refers to this order.
    """
    if k < 2:
        raise ValueError(f"need at least 2 methods, got k={k}")
    return np.triu_indices(k, 1)


def bell_number(k: int) -> int:
    """Bell number B(k), the number of set partitions of k elements (Bell triangle)."""
    if k < 0:
        raise ValueError(f"k must be >= 0, got {k}")
    row = [1]
    for _ in range(k):
        nxt = [row[-1]]
        for x in row:
            nxt.append(nxt[-1] + x)
        row = nxt
    return row[0]


@lru_cache(maxsize=16)
def set_partitions(k: int) -> np.ndarray:
    """All B(k) set partitions of {0, …, k−1} as restricted growth strings.

    Row a is a string a_0 … a_{k−1} with a_0 = 0 and a_i ≤ 1 + max(a_0 … a_{i−1}); element i
    is in block a_i. Built position by position, vectorised: each string of length i is
    extended by every admissible value 0 … max + 1. Returns an int8 array (B(k), k), read-only.
    """
    if k < 1:
        raise ValueError(f"k must be >= 1, got {k}")
    rgs = np.zeros((1, 1), dtype=np.int8)
    top = np.zeros(1, dtype=np.int8)  # max block label so far, per string
    for _ in range(1, k):
        n_children = top.astype(np.int64) + 2
        parent = np.repeat(np.arange(rgs.shape[0]), n_children)
        starts = np.repeat(np.cumsum(n_children) - n_children, n_children)
        value = (np.arange(parent.size) - starts).astype(np.int8)
        rgs = np.column_stack([rgs[parent], value])
        top = np.maximum(top[parent], value)
    rgs.setflags(write=False)
    return rgs


@lru_cache(maxsize=16)
def exhaustive_sets(k: int) -> np.ndarray:
    """Exhaustive sets of the all-pairs hypotheses H_ij: μ_i = μ_j among k methods.

    A set I of pair hypotheses is exhaustive when all of them can be true simultaneously while
    every other one is false: I is the set of within-block pairs of a partition of the k
    methods into blocks of equal means (García & Herrera 2008 §3, Fig. 1). Partitions made of
    singletons only give the empty set and are excluded, so there are B(k) − 1 of them
    (4, 14, 51, 202, 876, 4139, 21146 for k = 3 … 9); distinct partitions give distinct sets.

    Returns
    -------
    ndarray of bool, shape (B(k) − 1, m), read-only
        Row = one exhaustive set, column q = pair q of :func:`pair_index` (True when the pair is
        in the set).
    """
    if k < 2:
        raise ValueError(f"need at least 2 methods, got k={k}")
    if k > MAX_BERGMANN_K:
        raise ValueError(
            f"exhaustive sets are enumerated for k <= {MAX_BERGMANN_K} methods "
            f"(B({k}) = {bell_number(k)} partitions); got k={k}: use correction='shaffer'"
        )
    ii, jj = pair_index(k)
    rgs = set_partitions(k)
    member = rgs[:, ii] == rgs[:, jj]
    member = member[member.any(axis=1)]
    member.setflags(write=False)
    return member


@lru_cache(maxsize=32)
def shaffer_counts(k: int) -> tuple[int, ...]:
    """S(k): the possible numbers of simultaneously true pair hypotheses among k methods.

    Shaffer (1986): S(k) = ∪_{j=1..k} { C(j, 2) + x : x ∈ S(k − j) }, S(0) = S(1) = {0} — the
    first block holds j methods (C(j,2) true hypotheses) and the rest is partitioned freely.
    S(5) = {0, 1, 2, 3, 4, 6, 10}.
    """
    if k < 0:
        raise ValueError(f"k must be >= 0, got {k}")
    if k <= 1:
        return (0,)
    out: set[int] = set()
    for j in range(1, k + 1):
        out.update(j * (j - 1) // 2 + x for x in shaffer_counts(k - j))
    return tuple(sorted(out))


def shaffer_multipliers(k: int) -> np.ndarray:
    """Shaffer's static t_j, j = 1 … m: the largest number of hypotheses that can be true
    given that j − 1 are false, t_j = max{s ∈ S(k) : s ≤ m − j + 1}.

    For k = 5: [10, 6, 6, 6, 6, 4, 4, 3, 2, 1] (Holm would use m − j + 1 = 10, 9, …, 1).
    """
    m = k * (k - 1) // 2
    s = np.array(shaffer_counts(k))
    remaining = m - np.arange(m)  # m − j + 1 for j = 1..m
    return s[np.searchsorted(s, remaining, side="right") - 1]


# --------------------------------------------------------------------------------------------
# Raw p-values and adjustments
# --------------------------------------------------------------------------------------------
def ztest_pvalues(table: pd.DataFrame, higher_is_better: bool = True) -> pd.DataFrame:
    """Raw p-values of the all-pairs z-test on average ranks (Demšar 2006 §3.2.2).

        z_ij = |R_i − R_j| / sqrt(k(k+1) / (6N)),    p_ij = 2 (1 − Φ(z_ij))

    with R the average ranks (ties averaged, rank 1 best) over the N data sets. Computed from
    the rank sums (exact multiples of 1/2) so that equal rank differences give bit-identical
    p-values. Returns a symmetric methods × methods DataFrame with 1 on the diagonal.
    """
    ranks = rank_table(table, higher_is_better)
    n, k = ranks.shape
    sums = ranks.sum(axis=0).to_numpy()
    z = np.abs(sums[:, None] - sums[None, :]) / (n * np.sqrt(k * (k + 1) / (6.0 * n)))
    p = 2.0 * stats.norm.sf(z)
    np.fill_diagonal(p, 1.0)
    return pd.DataFrame(p, index=ranks.columns, columns=ranks.columns)


def _as_pair_vector(raw: pd.DataFrame | np.ndarray) -> tuple[np.ndarray, int]:
    mat = np.asarray(raw, dtype=float)
    if mat.ndim != 2 or mat.shape[0] != mat.shape[1]:
        raise ValueError(f"raw p-values must be a square methods × methods matrix, got {mat.shape}")
    k = mat.shape[0]
    ii, jj = pair_index(k)
    p = mat[ii, jj]
    if not np.allclose(p, mat[jj, ii], rtol=0, atol=1e-15, equal_nan=True):
        raise ValueError("raw p-value matrix is not symmetric")
    if np.any(~np.isfinite(p)) or np.any((p < 0) | (p > 1)):
        raise ValueError("raw p-values must be finite and in [0, 1]")
    return p, k


def _monotone(p: np.ndarray, adj: np.ndarray) -> np.ndarray:
    """adj_i ← max{adj_j : p_j ≤ p_i}: scmamp's cumulative maximum over the hypotheses ordered
    by raw p, with tied raw p-values treated as one step (so the result is order-free)."""
    order = np.argsort(p, kind="stable")
    sp = p[order]
    cm = np.maximum.accumulate(adj[order])
    last_of_tie = np.searchsorted(sp, sp, side="right") - 1
    out = np.empty_like(adj)
    out[order] = cm[last_of_tie]
    return out


def _step_down(p: np.ndarray, multipliers: np.ndarray) -> np.ndarray:
    """v_(i) = max_{j ≤ i} c_j p_(j) over the p-values in increasing order (Holm, Shaffer)."""
    order = np.argsort(p, kind="stable")
    out = np.empty_like(p)
    out[order] = np.maximum.accumulate(multipliers * p[order])
    return out


def _bergmann(p: np.ndarray, k: int) -> np.ndarray:
    """v_i = max{|I| · min_{j ∈ I} p_j : I exhaustive, i ∈ I} (García & Herrera 2008 §3)."""
    member = exhaustive_sets(k)
    v = np.full(p.size, -np.inf)
    for start in range(0, member.shape[0], _CHUNK):
        block = member[start : start + _CHUNK]
        size = block.sum(axis=1)
        min_p = np.where(block, p, np.inf).min(axis=1)
        value = size * min_p
        v = np.maximum(v, np.where(block, value[:, None], -np.inf).max(axis=0))
    return v


def adjust_pairwise(
    raw: pd.DataFrame | np.ndarray,
    correction: str = "bergmann",
    monotone: bool = False,
    cap: bool = True,
) -> pd.DataFrame:
    """Adjust a symmetric matrix of all-pairs raw p-values for multiple testing.

    With m = k(k−1)/2 hypotheses and p_(1) ≤ … ≤ p_(m) (García & Herrera 2008 §3, APV_i =
    min(v_i, 1)):

    - ``bonferroni`` (Bonferroni–Dunn, García & Herrera's "Nemenyi"): v_i = m p_i;
    - ``nemenyi`` (Nemenyi's test, Demšar 2006 §3.2.2): v_i = P(Q_k > √2 z_i), Q_k the
      studentized range of k standard normals and z_i = Φ⁻¹(1 − p_i/2): the p-value whose
      level-α boundary is :func:`nemenyi_critical_difference` (never above Bonferroni's);
    - ``holm``: v_(i) = max_{j ≤ i} (m − j + 1) p_(j);
    - ``shaffer`` (static): v_(i) = max_{j ≤ i} t_j p_(j), t_j from :func:`shaffer_multipliers`;
    - ``bergmann`` (Bergmann–Hommel dynamic): v_i = max{|I| min_{j∈I} p_j : I exhaustive ∋ i}
      over the B(k) − 1 sets of :func:`exhaustive_sets` (vectorised over chunks of those sets).

    Parameters
    ----------
    raw : DataFrame or ndarray
        Symmetric k × k matrix of raw p-values (diagonal ignored), e.g. :func:`ztest_pvalues`.
    correction : {"bonferroni", "nemenyi", "holm", "shaffer", "bergmann"}
    monotone : bool
        Apply scmamp's extra step v_i ← max{v_j : p_j ≤ p_i} so that adjusted p-values follow
        the order of the raw ones. Only changes Bergmann–Hommel (the others are monotone).
    cap : bool
        Return min(v, 1) (default). ``cap=False`` returns v itself, which can exceed 1, as
        vidaurre2012 Table 4 prints.

    Returns
    -------
    DataFrame
        Symmetric k × k matrix of adjusted p-values, 1 on the diagonal, labels of ``raw``.

    Notes
    -----
    For every raw matrix: raw ≤ Bergmann ≤ Shaffer ≤ Holm ≤ Bonferroni and Nemenyi ≤ Bonferroni
    elementwise (capped or not; Bergmann with or without ``monotone``), and every procedure
    commutes with relabelling the methods.
    """
    if correction not in CORRECTIONS:
        raise ValueError(f"correction must be one of {CORRECTIONS}, got {correction!r}")
    p, k = _as_pair_vector(raw)
    m = p.size
    if correction == "bonferroni":
        v = m * p
    elif correction == "nemenyi":
        z = stats.norm.isf(p / 2.0)
        v = stats.studentized_range.sf(np.sqrt(2.0) * z, k, np.inf)
    elif correction == "holm":
        v = _step_down(p, np.arange(m, 0, -1, dtype=float))
    elif correction == "shaffer":
        v = _step_down(p, shaffer_multipliers(k).astype(float))
    else:
        v = _bergmann(p, k)
    if monotone:
        v = _monotone(p, v)
    if cap:
        v = np.minimum(v, 1.0)
    ii, jj = pair_index(k)
    out = np.ones((k, k))
    out[ii, jj] = v
    out[jj, ii] = v
    labels = raw.index if isinstance(raw, pd.DataFrame) else None
    columns = raw.columns if isinstance(raw, pd.DataFrame) else None
    return pd.DataFrame(out, index=labels, columns=columns)


def posthoc(
    table: pd.DataFrame,
    correction: str = "bergmann",
    higher_is_better: bool = True,
    monotone: bool = False,
    cap: bool = True,
) -> pd.DataFrame:
    """Adjusted p-values of the all-pairs z-test on average ranks (methods × methods).

    p_ij = 2(1 − Φ(|R_i − R_j| / sqrt(k(k+1)/(6N)))) (:func:`ztest_pvalues`), adjusted by
    :func:`adjust_pairwise` with ``correction`` ∈ {bonferroni, nemenyi, holm, shaffer, bergmann}.
    ``table`` is data sets × methods (higher better unless ``higher_is_better=False``).
    """
    raw = ztest_pvalues(table, higher_is_better)
    return adjust_pairwise(raw, correction, monotone=monotone, cap=cap)


def pairwise_comparisons(
    table: pd.DataFrame,
    higher_is_better: bool = True,
    corrections: tuple[str, ...] | list[str] = CORRECTIONS,
    monotone: bool = False,
    cap: bool = True,
) -> pd.DataFrame:
    """Long table of the m hypotheses in García & Herrera's (2008, Tables 4–5) layout.

    One row per pair, sorted by raw p (ties in pair order): ``i, hypothesis ("A vs B", A first
    in the column order of table), method_a, method_b, rank_a, rank_b, z, p`` and one column
    ``p_<correction>`` per requested correction.
    """
    ranks = rank_table(table, higher_is_better)
    n, k = ranks.shape
    avg = ranks.mean(axis=0)
    raw = ztest_pvalues(table, higher_is_better)
    ii, jj = pair_index(k)
    names = list(raw.columns)
    sums = ranks.sum(axis=0).to_numpy()
    z = np.abs(sums[ii] - sums[jj]) / (n * np.sqrt(k * (k + 1) / (6.0 * n)))
    out = pd.DataFrame(
        {
            "hypothesis": [f"{names[a]} vs {names[b]}" for a, b in zip(ii, jj)],
            "method_a": [names[a] for a in ii],
            "method_b": [names[b] for b in jj],
            "rank_a": avg.to_numpy()[ii],
            "rank_b": avg.to_numpy()[jj],
            "z": z,
            "p": raw.to_numpy()[ii, jj],
        }
    )
    for corr in corrections:
        adj = adjust_pairwise(raw, corr, monotone=monotone, cap=cap).to_numpy()
        out[f"p_{corr}"] = adj[ii, jj]
    order = np.argsort(out["p"].to_numpy(), kind="stable")
    out = out.iloc[order].reset_index(drop=True)
    out.insert(0, "i", np.arange(1, len(out) + 1))
    return out


def nemenyi_critical_difference(k: int, n: int, alpha: float = 0.05) -> float:
    """Nemenyi critical difference CD = q_α sqrt(k(k+1) / (6N)) (Demšar 2006 §3.2.2).

    q_α = studentized range quantile (k groups, infinite d.o.f.) / √2, e.g. 2.728 for k = 5,
    α = 0.05 (Demšar's Table 5a).
    """
    if k < 2 or n < 1:
        raise ValueError(f"need k >= 2 methods and n >= 1 data sets, got k={k}, n={n}")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must lie in (0, 1), got {alpha!r}")
    q = stats.studentized_range.ppf(1.0 - alpha, k, np.inf) / np.sqrt(2.0)
    return float(q * np.sqrt(k * (k + 1) / (6.0 * n)))
