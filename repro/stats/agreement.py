"""Agreement rules: is a reproduced number consistent with the published one?

Each rule is a documented statistical test of the one question "could the published number and
ours come from the same experiment, given the noise each carries?", at level ``alpha`` (0.05 by
default). A rule returns an :class:`Agreement`: the verdict ``agrees`` (True, False, or None when
the numbers do not allow the test), the statistic behind it and a one-line ``rule`` text that a
report prints next to the verdict. Nothing here reads records or files.

- :func:`mean_with_sd` — a value published as a mean ± SD over R runs, ours a mean over n runs:
  Welch's two-sample t-test on the two means (the standard error SD/√R, not the SD of single
  runs, is the noise of a mean).
- :func:`one_split` — a value published from one split (e.g. one train/test partition), ours a
  distribution over splits: agrees when the published value lies in the distribution-free
  1 − α prediction interval of one more split (order statistics of our per-split values).
- :func:`mean_over_datasets` — a mean over data sets (a table's "mean" row): the bootstrap
  percentile interval (over data sets) of our mean; agrees when the published mean lies inside.
- :func:`average_rank` — an average rank over N data sets among k methods: agrees when the
  difference is under the Nemenyi critical difference (Demšar 2006), the smallest difference of
  average ranks the data can tell apart.
- :func:`win_count` — a count of significant wins (or losses) over N data sets: Fisher's exact test
  of the two proportions w/N.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import stats

ALPHA = 0.05


@dataclass(frozen=True)
class Agreement:
    """The verdict of one rule on one published number."""

    agrees: bool | None
    statistic: float
    rule: str
    detail: str = ""


def _check_alpha(alpha: float) -> float:
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must lie in (0, 1), got {alpha!r}")
    return float(alpha)


def _values(values, name: str) -> np.ndarray:
    v = np.asarray(values, dtype=float).ravel()
    v = v[np.isfinite(v)]
    if v.size == 0:
        raise ValueError(f"{name} holds no finite value")
    return v


def mean_with_sd(
    published: float, published_sd: float, n_published: int, ours, alpha: float = ALPHA
) -> Agreement:
    """Welch's t-test of the published mean ± SD over ``n_published`` runs against our runs.

        t = (mean_ours − published) / √(SD_pub²/R + SD_ours²/n)

    with Welch–Satterthwaite degrees of freedom (:func:`scipy.stats.ttest_ind_from_stats`).
    Agrees when the two-sided p-value is ≥ ``alpha``. ``statistic`` is t.
    """
    alpha = _check_alpha(alpha)
    ours = _values(ours, "ours")
    if n_published < 2 or ours.size < 2:
        raise ValueError("mean_with_sd needs at least 2 runs on each side")
    sd_ours = float(ours.std(ddof=1))
    if published_sd == 0 and sd_ours == 0:
        same = bool(np.isclose(ours.mean(), published))
        return Agreement(same, 0.0 if same else math.inf, _MEAN_RULE, "no spread on either side")
    result = stats.ttest_ind_from_stats(
        ours.mean(), sd_ours, ours.size, published, published_sd, n_published, equal_var=False
    )
    return Agreement(
        bool(result.pvalue >= alpha),
        float(result.statistic),
        _MEAN_RULE,
        f"t = {result.statistic:.2f}, p = {result.pvalue:.3g}",
    )


_MEAN_RULE = "Welch t-test of the two means (standard errors, not SDs), two-sided, α = 0.05"


def one_split(published: float, ours_per_split, alpha: float = ALPHA) -> Agreement:
    """Whether a value published from one split falls where one more of our splits could.

    The distribution-free prediction interval of order statistics: for a new draw from the
    distribution of our n per-split values x_(1) ≤ … ≤ x_(n), P(x_(k) ≤ X ≤ x_(n+1−k)) =
    (n + 1 − 2k)/(n + 1). The rule takes the largest k with coverage ≥ 1 − α (k = ⌊α(n+1)/2⌋;
    at least 1: below 39 splits the interval is [min, max], coverage (n − 1)/(n + 1), stated in
    ``detail``). Agrees when ``published`` lies inside. ``statistic`` is the mid-rank
    percentile of ``published`` among our values (0 = below all, 1 = above all).
    """
    alpha = _check_alpha(alpha)
    ours = np.sort(_values(ours_per_split, "ours_per_split"))
    n = ours.size
    if n < 2:
        return Agreement(None, math.nan, _SPLIT_RULE, "one split: no interval")
    k = max(1, math.floor(alpha * (n + 1) / 2))
    low, high = float(ours[k - 1]), float(ours[n - k])
    coverage = (n + 1 - 2 * k) / (n + 1)
    percentile = (float(np.sum(ours < published)) + 0.5 * float(np.sum(ours == published))) / n
    return Agreement(
        bool(low <= published <= high),
        percentile,
        _SPLIT_RULE,
        f"percentile {percentile:.3f}; our {coverage:.1%} prediction interval "
        f"[{low:.4f}, {high:.4f}] over {n} splits",
    )


_SPLIT_RULE = "one-split value inside the ≥ 95% prediction interval of our per-split values"


def mean_over_datasets(
    published: float, ours_per_dataset, alpha: float = ALPHA, seed: int = 0
) -> Agreement:
    """Bootstrap percentile interval over data sets of our mean of per-data-set values.

    ``statistic`` is the signed difference ours − published; agrees when ``published`` lies in
    the 1 − α interval (9999 resamples of the data sets, seeded: the same records give the same
    verdict).
    """
    alpha = _check_alpha(alpha)
    ours = _values(ours_per_dataset, "ours_per_dataset")
    diff = float(ours.mean() - published)
    if ours.size < 2:
        return Agreement(None, diff, _DATASETS_RULE, "one data set")
    low, high = bootstrap_ci(ours, np.mean, alpha, seed)
    return Agreement(
        bool(low <= published <= high),
        diff,
        _DATASETS_RULE,
        f"difference {diff:+.4f}, our 95% CI [{low:.4f}, {high:.4f}] over {ours.size} data sets",
    )


def bootstrap_ci(values, statistic=np.mean, alpha: float = ALPHA, seed: int = 0):
    """Bootstrap percentile 1 − α interval of ``statistic`` over ``values`` (9999 resamples,
    seeded: the same values give the same interval); a constant sample gives its value."""
    values = _values(values, "values")
    if np.all(values == values[0]):
        return float(statistic(values)), float(statistic(values))
    ci = stats.bootstrap(
        (values,),
        statistic,
        confidence_level=1 - _check_alpha(alpha),
        n_resamples=9999,
        method="percentile",
        random_state=np.random.default_rng(seed),
    ).confidence_interval
    return float(ci.low), float(ci.high)


_DATASETS_RULE = "published mean inside the bootstrap 95% CI (over data sets) of ours"


def nemenyi_critical_difference(n_methods: int, n_datasets: int, alpha: float = ALPHA) -> float:
    """CD = q_α √(k(k+1)/(6N)), q_α the studentized range quantile over √2 (Demšar 2006, §3.2.2)."""
    alpha = _check_alpha(alpha)
    if n_methods < 2 or n_datasets < 1:
        raise ValueError(f"need ≥ 2 methods and ≥ 1 data set, got {n_methods}, {n_datasets}")
    q = stats.studentized_range.ppf(1 - alpha, n_methods, np.inf) / math.sqrt(2)
    return float(q * math.sqrt(n_methods * (n_methods + 1) / (6 * n_datasets)))


def average_rank(
    published: float, ours: float, n_methods: int, n_datasets: int, alpha: float = ALPHA
) -> Agreement:
    """Agrees when |ours − published| < the Nemenyi critical difference for k methods, N sets."""
    cd = nemenyi_critical_difference(n_methods, n_datasets, alpha)
    diff = float(ours - published)
    return Agreement(bool(abs(diff) < cd), diff, _RANK_RULE, f"difference {diff:+.2f}, CD {cd:.2f}")


_RANK_RULE = "|rank difference| under the Nemenyi critical difference, α = 0.05"


def win_count(
    published: int, n_published: int, ours: int, n_ours: int, alpha: float = ALPHA
) -> Agreement:
    """Fisher's exact test of published/n_published against ours/n_ours (wins over data sets)."""
    alpha = _check_alpha(alpha)
    for name, count, n in (("published", published, n_published), ("ours", ours, n_ours)):
        if not 0 <= count <= n:
            raise ValueError(f"{name} count {count} is not in [0, {n}]")
    table = [[published, n_published - published], [ours, n_ours - ours]]
    p = float(stats.fisher_exact(table).pvalue)
    return Agreement(
        bool(p >= alpha),
        float(ours - published),
        _COUNT_RULE,
        f"{published}/{n_published} vs {ours}/{n_ours}, p = {p:.3g}",
    )


_COUNT_RULE = "Fisher's exact test of the two win proportions, α = 0.05"

#: the rule text of each function, for the reports' "rules applied" section
RULES = {
    "mean_with_sd": _MEAN_RULE,
    "one_split": _SPLIT_RULE,
    "mean_over_datasets": _DATASETS_RULE,
    "average_rank": _RANK_RULE,
    "win_count": _COUNT_RULE,
}
