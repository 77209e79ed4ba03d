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
- :func:`paired_difference` — a table's mean over data sets, as the difference between a method
  and the table's reference method: the paper's difference against the bootstrap percentile
  interval of our per-data-set paired differences over the same sets. Pairing cancels what the
  composition of the data sets adds to every method alike (our sets are not the paper's).
- :func:`mean_over_datasets` — a mean over data sets compared as an absolute value: the bootstrap
  interval (over data sets) of our mean. It checks the composition of the data sets and is not
  counted as agreement: the offset of another set of data sets is not what the interval samples.
- :func:`rank_with_se` — one method's average rank over N data sets in two experiments: the
  two-sample z-test of the two average ranks on their standard errors (our per-data-set ranks'
  SD over √N on each side). The Nemenyi critical difference (``repro.stats.posthoc``) bounds two
  methods within one experiment, not one method across two, and is kept for that use only.
- :func:`win_count` — a count of significant wins (or losses) over the paper's N data sets
  against ours over ours: Fisher's exact test of the two proportions, with the range of our
  counts the test accepts (:func:`accepted_counts`) printed beside the verdict.
- :func:`one_split_aggregate` — many one-split values of a table at once: a sign test of how many
  published values lie above our median, and a Kolmogorov–Smirnov test of their percentiles in
  our per-split distributions against the uniform law (the probability integral transform). A
  shift of every cell the same way, which no per-cell interval can see, fails it.
"""

from __future__ import annotations

import functools
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
    #: the interval of published values that agree with ours by the rule (for a mean ± SD over
    #: runs: our mean's normal interval); None where the rule has none: the bar of a
    #: published-against-reproduced figure
    low: float | None = None
    high: float | None = None


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
    half = float(stats.norm.ppf(1 - alpha / 2)) * sd_ours / math.sqrt(ours.size)
    return Agreement(
        bool(result.pvalue >= alpha),
        float(result.statistic),
        _MEAN_RULE,
        f"t = {result.statistic:.2f}, p = {result.pvalue:.3g}",
        float(ours.mean() - half),  # our mean's normal 1 − α interval (its standard error)
        float(ours.mean() + half),
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
        low,
        high,
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
        low,
        high,
    )


def paired_difference(
    published: float,
    published_reference: float,
    ours,
    ours_reference,
    alpha: float = ALPHA,
    seed: int = 0,
) -> Agreement:
    """The paper's difference d = reference − method against our paired differences.

        d_pub = published_reference − published,   d_i = ours_reference_i − ours_i

    over the data sets i on which both ran (``ours`` and ``ours_reference`` aligned). Agrees when
    d_pub lies in the bootstrap percentile 1 − α interval of the mean of d_i (9999 resamples,
    seeded). ``statistic`` is mean(d_i) − d_pub; ``low``/``high`` the interval carried to the
    method's published mean: published_reference − CI.
    """
    alpha = _check_alpha(alpha)
    a = np.asarray(ours, dtype=float).ravel()
    b = np.asarray(ours_reference, dtype=float).ravel()
    if a.shape != b.shape:
        raise ValueError(f"ours ({a.size}) and ours_reference ({b.size}) must be paired")
    keep = np.isfinite(a) & np.isfinite(b)
    d = _values((b - a)[keep], "paired differences")
    d_pub = float(published_reference - published)
    diff = float(d.mean() - d_pub)
    if d.size < 2:
        return Agreement(None, diff, _PAIRED_RULE, "one data set")
    low, high = bootstrap_ci(d, np.mean, alpha, seed)
    return Agreement(
        bool(low <= d_pub <= high),
        diff,
        _PAIRED_RULE,
        f"reference − this: paper {d_pub:+.4f}, ours {d.mean():+.4f}, 95% CI "
        f"[{low:+.4f}, {high:+.4f}] over {d.size} paired data sets",
        float(published_reference - high),
        float(published_reference - low),
    )


_PAIRED_RULE = (
    "the paper's difference to the table's reference method inside the bootstrap 95% CI of our "
    "paired differences over the same data sets"
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


_DATASETS_RULE = (
    "data-set composition check, not counted: published mean inside the bootstrap 95% CI (over "
    "data sets) of ours"
)


def rank_with_se(
    published: float, ours_ranks, n_published: int | None = None, alpha: float = ALPHA
) -> Agreement:
    """One method's average rank in the paper against ours: a two-sample z-test on the SEs.

        z = (R̄_ours − R_pub) / √(s²/n + s²/N_pub)

    with R̄_ours the mean of our per-data-set ranks ``ours_ranks`` (n data sets), s their SD
    (ddof 1), which stands in for the paper's unpublished per-data-set spread, and N_pub the
    paper's number of data sets (``n_published``; ours when not given). Agrees when the two-sided
    normal p-value is ≥ ``alpha``. ``statistic`` is z.
    """
    alpha = _check_alpha(alpha)
    ranks = _values(ours_ranks, "ours_ranks")
    n = ranks.size
    n_pub = n if n_published is None else int(n_published)
    if n < 2 or n_pub < 1:
        return Agreement(None, math.nan, _RANK_SE_RULE, "fewer than 2 data sets")
    mean = float(ranks.mean())
    se = float(ranks.std(ddof=1)) * math.sqrt(1 / n + 1 / n_pub)
    if se == 0:
        same = bool(np.isclose(mean, published))
        return Agreement(same, 0.0 if same else math.inf, _RANK_SE_RULE, "no spread of ranks")
    z = (mean - published) / se
    p = float(2 * stats.norm.sf(abs(z)))
    half = float(stats.norm.ppf(1 - alpha / 2)) * se
    return Agreement(
        bool(p >= alpha),
        float(z),
        _RANK_SE_RULE,
        f"difference {mean - published:+.2f}, SE of the difference {se:.2f} "
        f"(ours over {n} data sets, the paper's over {n_pub}), z = {z:.2f}, p = {p:.3g}",
        mean - half,
        mean + half,
    )


_RANK_SE_RULE = (
    "two-sample z-test of the average ranks on their standard errors (our per-data-set ranks' SD "
    "on both sides), α = 0.05"
)


def win_count(
    published: int, n_published: int, ours: int, n_ours: int, alpha: float = ALPHA
) -> Agreement:
    """Fisher's exact test of published/n_published against ours/n_ours (wins over data sets)."""
    alpha = _check_alpha(alpha)
    for name, count, n in (("published", published, n_published), ("ours", ours, n_ours)):
        if not 0 <= count <= n:
            raise ValueError(f"{name} count {count} is not in [0, {n}]")
    p = _fisher(published, n_published, ours, n_ours)
    accepted = accepted_counts(published, n_published, n_ours, alpha)
    span = f"{accepted[0]}–{accepted[-1]}" if accepted else "none"
    # low/high: the published counts that would agree with ours (the test is symmetric)
    published_range = accepted_counts(ours, n_ours, n_published, alpha)
    return Agreement(
        bool(p >= alpha),
        float(ours - published),
        _COUNT_RULE,
        f"paper {published}/{n_published} vs ours {ours}/{n_ours}, p = {p:.3g}; the test accepts "
        f"{span} of {n_ours}",
        float(published_range[0]) if published_range else None,
        float(published_range[-1]) if published_range else None,
    )


@functools.lru_cache(maxsize=4096)
def _fisher(published: int, n_published: int, ours: int, n_ours: int) -> float:
    """Fisher's exact p of the 2 × 2 table (cached: the accepted ranges ask for the same tables)."""
    table = [[published, n_published - published], [ours, n_ours - ours]]
    return float(stats.fisher_exact(table).pvalue)


def accepted_counts(published: int, n_published: int, n_ours: int, alpha: float = ALPHA) -> list:
    """Every count k of ours (0 ≤ k ≤ n_ours) that :func:`win_count` finds in agreement with
    published/n_published: how little a count over a few data sets can tell."""
    alpha = _check_alpha(alpha)
    return [k for k in range(n_ours + 1) if _fisher(published, n_published, k, n_ours) >= alpha]


_COUNT_RULE = (
    "Fisher's exact test of the two win proportions over the paper's and our data sets, α = 0.05"
)


def one_split_aggregate(published, ours_per_split, alpha: float = ALPHA) -> Agreement:
    """Where many one-split published values fall in our per-split distributions, all at once.

    For cell j, u_j is the mid-rank percentile of the published value among our per-split values
    (:func:`one_split`'s statistic). Two tests, both two-sided at ``alpha``:

    - sign test: the number of cells with the published value above our median against
      Binomial(m, 1/2), m the cells not equal to our median;
    - PIT/KS: the Kolmogorov–Smirnov distance of the u_j from the uniform law on [0, 1] (were the
      published values draws of our distributions, u_j would be uniform).

    Agrees when neither rejects. ``statistic`` is the KS distance D. The cells are taken as
    independent, which they are not when they share a split (one per data set): the p-values
    are then too small, so a pass holds and a failure is to be read with that in mind.
    """
    alpha = _check_alpha(alpha)
    pub = np.asarray(published, dtype=float).ravel()
    if pub.size != len(ours_per_split):
        raise ValueError(f"{pub.size} published values for {len(ours_per_split)} cells")
    u, above, below = [], 0, 0
    for value, ours in zip(pub, ours_per_split, strict=True):
        ours = _values(ours, "ours_per_split")
        median = float(np.median(ours))
        above += int(value > median)
        below += int(value < median)
        u.append((float(np.sum(ours < value)) + 0.5 * float(np.sum(ours == value))) / ours.size)
    if len(u) < 2:
        return Agreement(None, math.nan, _AGGREGATE_RULE, "fewer than 2 cells")
    p_sign = float(stats.binomtest(above, above + below).pvalue) if above + below else 1.0
    ks = stats.kstest(u, "uniform")
    return Agreement(
        bool(p_sign >= alpha and ks.pvalue >= alpha),
        float(ks.statistic),
        _AGGREGATE_RULE,
        f"{above} of {len(u)} published values above our median, {below} below (sign test "
        f"p = {p_sign:.2g}); KS D = {ks.statistic:.3f} (p = {ks.pvalue:.2g}) over {len(u)} cells",
    )


_AGGREGATE_RULE = (
    "sign test (published above our median) and KS test of the published values' percentiles "
    "in our per-split values against the uniform law, α = 0.05 each"
)

#: the rule text of each function, for the reports' "rules applied" section
RULES = {
    "mean_with_sd": _MEAN_RULE,
    "one_split": _SPLIT_RULE,
    "paired_difference": _PAIRED_RULE,
    "mean_over_datasets": _DATASETS_RULE,
    "rank_with_se": _RANK_SE_RULE,
    "win_count": _COUNT_RULE,
    "one_split_aggregate": _AGGREGATE_RULE,
}
