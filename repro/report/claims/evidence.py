"""The tests every claim of a kind shares: one rule of significance per kind of claim.

- "A is better than B" (:func:`better`): over N ≥ 6 data sets, the Wilcoxon signed-rank test of
  the per-data-set means (two-sided, α = 0.05; Demšar 2006) decides — holds when significant in
  A's favour, does not hold otherwise (a lead without significance is shown in the evidence, not
  graded "partly": one statement holds or not). Over 1–5 data sets (too few for Wilcoxon to
  reach α), the per-data-set paired t-tests over folds decide: holds when A wins on every data
  set, does not hold otherwise.
- "A is as good as B" (:func:`not_worse`): holds unless "B is better than A" holds.
- "A is the best of several" (:func:`best`): holds when :func:`better` holds against every
  other method, does not hold otherwise.
- "A and B are alike" (:func:`similar_verdict`): holds when neither is significantly better,
  the weaker of "as good as" both ways.
- A sentence of several statements (:func:`conjunction`): its parts are the statements of the
  sentence itself (nothing the sentence does not say), each listed in the evidence. Holds when
  every part holds; partly when some part holds and another fails (or every part is itself
  only partly shown); does not hold when no part holds and some part fails (parts not testable
  left out; all not testable: not testable).
- "A and B are practically the same" (:func:`equivalence`, :func:`equivalence_ci`): the
  (1 − 2α) t interval of the mean paired difference inside ± a margin stated per claim.

Per-data-set wins and losses are two-tailed paired t-tests over the folds at α = 0.05
(:func:`repro.stats.tests.paired_t_wins_losses`, the papers' own W/L rule); a difference of one
test instance is never a win unless the folds make it significant.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from repro.report.claims.engine import Verdict
from repro.stats.tests import (
    RANK_RTOL,
    FoldCube,
    cube_pair,
    fold_cube,
    metric_table,
    tie_values,
)

ALPHA = 0.05
#: the fewest data sets on which the two-sided Wilcoxon test can reach α = 0.05
MIN_WILCOXON = 6


@dataclass(frozen=True)
class Comparison:
    """Method ``a`` against ``b`` on one metric (direction: ``higher_is_better``)."""

    a: str
    b: str
    metric: str
    n_datasets: int
    wins: int  # data sets where a is significantly better (paired t over folds)
    losses: int  # ... significantly worse
    mean_a: float
    mean_b: float
    p_wilcoxon: float  # over data sets (NaN below MIN_WILCOXON data sets)
    a_ahead: bool  # a's per-data-set means better more often than not
    # b's per-data-set means better more often than not (None: not known, a Comparison built
    # by hand: then taken as ``not a_ahead and wins != losses``)
    b_ahead: bool | None = None

    def mirrored(self) -> Comparison:
        """The same comparison seen from ``b``: "b against a"."""
        b_ahead = (
            self.b_ahead
            if self.b_ahead is not None
            else (not self.a_ahead and self.wins != self.losses)
        )
        return Comparison(
            self.b, self.a, self.metric, self.n_datasets, self.losses, self.wins, self.mean_b,
            self.mean_a, self.p_wilcoxon, b_ahead, self.a_ahead,
        )  # fmt: skip

    def text(self) -> str:
        p = "" if np.isnan(self.p_wilcoxon) else f", Wilcoxon p = {self.p_wilcoxon:.3g}"
        return (
            f"{self.a} vs {self.b} on {self.metric} over {self.n_datasets} data set(s): "
            f"mean {self.mean_a:.4f} vs {self.mean_b:.4f}, W/L {self.wins}/{self.losses}{p}"
        )


def compare(
    records: pd.DataFrame,
    a: str,
    b: str,
    metric: str,
    higher_is_better: bool = True,
    datasets=None,
) -> Comparison:
    """:class:`Comparison` of ``a`` and ``b`` on the data sets where both ran (or ``datasets``)."""
    pairs = cube_pair(_cube(records, metric, a), a, b, ALPHA, higher_is_better, datasets)
    if pairs.empty:
        raise ValueError(f"{a!r} and {b!r} share no data set")
    outcome = pairs["outcome"]
    diff = signed_differences(pairs["mean_a"].to_numpy(), pairs["mean_b"].to_numpy())
    if not higher_is_better:
        diff = -diff
    p = np.nan
    if len(pairs) >= MIN_WILCOXON:
        p = 1.0 if not np.any(diff) else float(stats.wilcoxon(diff).pvalue)
    return Comparison(
        a=a,
        b=b,
        metric=metric,
        n_datasets=len(pairs),
        wins=int((outcome == "win").sum()),
        losses=int((outcome == "loss").sum()),
        mean_a=float(pairs["mean_a"].mean()),
        mean_b=float(pairs["mean_b"].mean()),
        p_wilcoxon=p,
        a_ahead=bool(np.sum(diff > 0) > np.sum(diff < 0)),
        b_ahead=bool(np.sum(diff < 0) > np.sum(diff > 0)),
    )


def signed_differences(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """x − y per data set, summation noise taken out (as :func:`repro.stats.tests.wilcoxon_pairs`
    does): a difference within :data:`~repro.stats.tests.RANK_RTOL` of the values is 0 (a tie
    Wilcoxon's test drops), and magnitudes equal within it are made equal (tied ranks), so that
    neither a test nor a count of who is ahead turns on the last bits of a mean."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    diff = x - y
    diff[np.abs(diff) <= RANK_RTOL * np.maximum(np.abs(x), np.abs(y))] = 0.0
    return np.sign(diff) * tie_values(np.abs(diff))


def better_verdict(c: Comparison) -> str:
    """The verdict of "a is better than b" (module docstring): one statement, so "holds" or
    "does not hold", never "partly" (a lead without significance does not hold; the evidence
    shows the lead)."""
    if c.n_datasets >= MIN_WILCOXON:
        return "holds" if c.p_wilcoxon < ALPHA and c.a_ahead else "does not hold"
    return "holds" if c.wins == c.n_datasets else "does not hold"


def not_worse_verdict(c: Comparison) -> str:
    """The verdict of "a is as good as b": the mirror of "b is better than a"."""
    worse = better_verdict(c.mirrored())
    return {"holds": "does not hold", "does not hold": "holds"}[worse]


def better(records, a, b, metric, higher_is_better=True, datasets=None) -> Verdict:
    """ "a is better than b" on ``metric``."""
    c = compare(records, a, b, metric, higher_is_better, datasets)
    return Verdict(better_verdict(c), c.text())


def not_worse(records, a, b, metric, higher_is_better=True, datasets=None) -> Verdict:
    """ "a is as good as b" on ``metric``."""
    c = compare(records, a, b, metric, higher_is_better, datasets)
    return Verdict(not_worse_verdict(c), c.text())


def best(records, a, others, metric, higher_is_better=True, datasets=None) -> Verdict:
    """ "a is the best of ``others`` + a" on ``metric``."""
    comparisons = [compare(records, a, b, metric, higher_is_better, datasets) for b in others]
    return best_of(comparisons, a, higher_is_better)


def best_of(comparisons: list[Comparison], a: str, higher_is_better: bool = True) -> Verdict:
    """ "a is the best" from the comparisons of ``a`` with each other method: holds when ``a`` is
    better than every one, else does not hold (the evidence says when its mean is the best
    without that)."""
    verdicts = [better_verdict(c) for c in comparisons]
    means = {c.b: c.mean_b for c in comparisons} | {a: comparisons[0].mean_a}
    top = (max if higher_is_better else min)(means, key=means.get)
    verdict = "holds" if all(v == "holds" for v in verdicts) else "does not hold"
    lead = " (without significance against every other)" if top == a and verdict != "holds" else ""
    evidence = f"best mean: {top}{lead}; " + "; ".join(c.text() for c in comparisons)
    return Verdict(verdict, evidence)


def similar_verdict(c: Comparison) -> str:
    """The verdict of "a and b are alike": the weaker of "a as good as b" and "b as good as a"."""
    order = ("holds", "does not hold")
    mirrored = better_verdict(c)  # a better than b: then b is not as good as a
    b_as_good = {"holds": "does not hold", "does not hold": "holds"}[mirrored]
    return max((not_worse_verdict(c), b_as_good), key=order.index)


def conjunction(verdicts) -> str:
    """The verdict of a sentence of several statements (module docstring): "holds" when every
    part holds; "partly" when some part holds and some other does not, or when every part is
    "partly"; "does not hold" when no part holds and at least one does not hold (a "partly" part
    does not rescue a sentence whose other part fails and none holds). "not testable" parts are
    left out; none left: "not testable"."""
    kinds = [v for v in verdicts if v != "not testable"]
    if not kinds:
        return "not testable"
    if all(v == "holds" for v in kinds):
        return "holds"
    if "holds" in kinds or all(v == "partly" for v in kinds):
        return "partly"
    return "does not hold"


def equivalence(diffs, margin: float, alpha: float = ALPHA) -> tuple[str, str]:
    """Practical equivalence ("the same", "similar", "close to 1") of paired per-data-set
    differences ``diffs`` (A − B, or ratio − 1) within ± ``margin``: a ROPE on the two-sided
    (1 − 2α) t confidence interval of the mean difference (the same decision as TOST at α).
    Holds when the interval lies inside [−margin, margin]; otherwise equivalence is not shown
    and the claim does not hold (the evidence says whether the interval lies wholly outside or
    crosses the margin). Never "partly": that verdict is for a sentence some of whose stated
    parts hold and others fail. Returns (verdict, evidence text)."""
    d = np.asarray(diffs, dtype=float)
    d = d[~np.isnan(d)]
    if len(d) < 2:
        raise ValueError(f"equivalence needs ≥ 2 differences, got {len(d)}")
    mean = float(d.mean())
    se = float(d.std(ddof=1) / np.sqrt(len(d)))
    return equivalence_ci(mean, se, len(d) - 1, margin, alpha, f"over {len(d)} data sets")


def equivalence_ci(
    mean: float, se: float, dof: float, margin: float, alpha: float = ALPHA, over: str = ""
) -> tuple[str, str]:
    """:func:`equivalence` from a mean difference, its standard error and the degrees of freedom
    of its t distribution (one split whose noise comes from elsewhere, for instance); ``over``
    ends the evidence ("over 29 data sets"). Returns (verdict, evidence text)."""
    if not margin > 0:
        raise ValueError(f"margin must be positive, got {margin!r}")
    half = float(stats.t.ppf(1 - alpha, dof) * se)
    lo, hi = mean - half, mean + half
    inside = -margin <= lo and hi <= margin
    verdict = "holds" if inside else "does not hold"
    if inside:
        reading = "equivalent"
    elif hi < -margin or lo > margin:
        reading = "different"
    else:
        reading = "equivalence not shown (the interval crosses the margin)"
    text = (
        f"mean difference {mean:+.4g}, {100 * (1 - 2 * alpha):.0f}% CI [{lo:+.4g}, {hi:+.4g}] "
        f"vs margin ±{margin:g}{' ' + over if over else ''} (ROPE/TOST): {reading}"
    )
    return verdict, text


#: (records, its test rows by (metric, method)) of the last frames compared, by ``id``: the
#: rules compare hundreds of pairs of one experiment's records (read-only frames)
_TEST_GROUPS: dict[int, tuple[pd.DataFrame, dict]] = {}


def _test_groups(records: pd.DataFrame) -> dict:
    """The test rows of ``records`` by (metric, method), row order kept, found once per frame."""
    hit = _TEST_GROUPS.get(id(records))
    if hit is None or hit[0] is not records:
        test = records[records["split"] == "test"]
        groups = dict(iter(test.groupby(["metric", "method"], sort=False)))
        if len(_TEST_GROUPS) >= 16:
            _TEST_GROUPS.pop(next(iter(_TEST_GROUPS)))
        hit = _TEST_GROUPS[id(records)] = (records, groups)
    return hit[1]


_CUBES: dict[int, tuple[pd.DataFrame, dict]] = {}


def _cube(records: pd.DataFrame, metric: str, method: str) -> FoldCube:
    """The :func:`~repro.stats.tests.fold_cube` of ``metric``'s test rows, built once per frame
    and metric (the claims compare many pairs of one frame); a ValueError naming ``method``
    when the records hold no test row of ``metric``."""
    hit = _CUBES.get(id(records))
    if hit is None or hit[0] is not records:
        if len(_CUBES) >= 16:
            _CUBES.pop(next(iter(_CUBES)))
        hit = _CUBES[id(records)] = (records, {})
    cubes = hit[1]
    if metric not in cubes:
        groups = _test_groups(records)
        parts = [g for (m, _), g in groups.items() if m == metric]
        if not parts:
            raise ValueError(f"no test records of {method!r} for {metric!r}")
        cubes[metric] = fold_cube(pd.concat(parts).sort_index(), metric)
    return cubes[metric]


def pair_test_records(records: pd.DataFrame, a: str, b: str, metric: str, datasets=None):
    """The test records of ``metric`` of methods ``a`` and ``b`` (on ``datasets`` when given);
    a ValueError when either has none. Rows in the order of ``records``."""
    groups = _test_groups(records)
    parts = [groups[(metric, m)] for m in dict.fromkeys((a, b)) if (metric, m) in groups]
    sub = pd.concat(parts).sort_index() if parts else records.iloc[:0]
    if datasets is not None:
        sub = sub[sub["dataset"].isin(list(datasets))]
    for m in (a, b):
        if not (sub["method"] == m).any():
            raise ValueError(f"no test records of {m!r} for {metric!r}")
    return sub


def paired_means(records: pd.DataFrame, a: str, b: str, metric: str, datasets=None):
    """Data sets × (a, b) of the per-data-set test means of ``metric`` where both ran."""
    sub = pair_test_records(records, a, b, metric, datasets)
    return metric_table(sub, metric).reindex(columns=[a, b]).dropna()


def equivalent(
    records: pd.DataFrame, a: str, b: str, metric: str, margin: float, scale: str = "difference",
    datasets=None,
) -> Verdict:  # fmt: skip
    """ "a and b are practically the same on ``metric``": :func:`equivalence` of the paired
    per-data-set means, as differences a − b (``scale`` "difference") or ratios a / b − 1
    ("ratio"), within ± ``margin``."""
    t = paired_means(records, a, b, metric, datasets)
    if scale == "ratio":
        d = t[a] / t[b].where(t[b] != 0) - 1.0
        what = f"{a}/{b} − 1"
    elif scale == "difference":
        d = t[a] - t[b]
        what = f"{a} − {b}"
    else:
        raise ValueError(f"scale must be difference or ratio, got {scale!r}")
    verdict, text = equivalence(d.to_numpy(), margin)
    return Verdict(verdict, f"{metric} {what}: {text}")
