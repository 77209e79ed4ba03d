"""The five papers' own claims of superiority, decided on the head-to-head benchmark
(``experiment=nb_benchmark``: every method of the package, one configuration each, on the same
stratified 10-fold splits of the offline data sets) against the *other* papers' methods.

The claims (``experiments/nb_benchmark/claims.yaml``) quote each paper verbatim; their ``id``
starts with the paper's key (``boulle2007_...``), their ``section`` names the paper and the
section. Every rule reads the records of :data:`EXPERIMENT` and uses the shared tests of
:mod:`repro.report.claims.evidence` (Wilcoxon over the data sets both methods ran, α = 0.05;
per data set, paired t over the folds): "A is better than B" (``better``), "A is as good as
B" (``not_worse``), "A is the best" (``best``), "A and B are alike" (``similar``); a sentence
of several comparisons is their conjunction. Rules this module adds:

- :func:`best_against`: "A is the best" on each of ``metrics`` against ``others`` (default: every
  method of the other papers that has records); the conjunction over the metrics.
- :func:`never_worse`: "A never underperforms B", read strictly (no significant counter-case):
  holds when A loses significantly (paired t over the folds) on no data set to any of
  ``others``; does not hold otherwise (the evidence says whether A is also worse over the data
  sets, Wilcoxon).
- :func:`improves`: "A usually improves B": for each of ``a`` and each of ``others``, A's mean
  better than B's on a majority (> 50%) of the data sets both ran; the conjunction (the
  Wilcoxon comparison is shown, not decisive).
- :func:`alike_and_smaller`: A and each of ``others`` "almost the same" on ``score``
  (``evidence.equivalence`` of the per-data-set differences within ± ``margin``) and A better
  on ``size`` (fewer variables used: the ``n_selected`` of the records' ``model`` split).

A method of ``others`` without records yet is left out and named in the evidence; the claimed
method without records makes the claim "not testable (no records)".
"""

from __future__ import annotations

import functools
import weakref

import pandas as pd

from repro.report.claims import evidence
from repro.report.claims.engine import Evidence, NoRecords, Verdict
from repro.report.leaderboard import higher_is_better, metric_records

EXPERIMENT = "nb_benchmark"

_CACHE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def paper_of(method: str) -> str:
    """The paper of a registered method (``khiops`` for the Khiops peers)."""
    return _papers().get(method, "")


@functools.cache
def _papers() -> dict[str, str]:
    """Registered method id → its paper (read once: the registry reads every method's config)."""
    from repro.registry import list_methods

    return {str(k): str(v) for k, v in list_methods().set_index("id")["paper"].items()}


def records_of(ev: Evidence, metric: str) -> pd.DataFrame:
    """The benchmark's rows of ``metric`` (its split relabelled ``test``), cached per ``ev``."""
    cache = _CACHE.setdefault(ev, {})
    if metric not in cache:
        cache[metric] = metric_records(ev.records(EXPERIMENT), metric).reset_index(drop=True)
    return cache[metric]


def _present(records: pd.DataFrame, a, others) -> tuple[list, list]:
    have = set(records["method"])
    for m in [a] if isinstance(a, str) else a:
        if m not in have:
            raise NoRecords(f"no records of {m} in {EXPERIMENT}")
    return [m for m in others if m in have], [m for m in others if m not in have]


def _others(records: pd.DataFrame, a: str, others) -> list[str]:
    """``others`` as given, or every method of another paper than ``a``'s with records."""
    if others not in (None, "other_papers"):
        return list(others)
    own = paper_of(a)
    return sorted(m for m in set(records["method"]) if paper_of(m) != own)


def _absent(names: list) -> str:
    return f"; no records yet: {', '.join(names)}" if names else ""


def best_against(ev: Evidence, a: str, metrics, others=None) -> Verdict:
    """ "A dominates the other methods on all the criteria": ``evidence.best`` per metric."""
    verdicts, texts = [], []
    for metric in metrics:
        records = records_of(ev, metric)
        present, absent = _present(records, a, _others(records, a, others))
        if not present:
            raise NoRecords(f"no other method with {metric} records in {EXPERIMENT}")
        higher = higher_is_better(metric)
        comparisons = [evidence.compare(records, a, b, metric, higher) for b in present]
        kinds = [evidence.better_verdict(c) for c in comparisons]
        v = evidence.best_of(comparisons, a, higher)
        verdicts.append(v.verdict)
        top = v.evidence.split(";")[0]
        beaten = sum(k == "holds" for k in kinds)
        lost = [c.b for c in comparisons if evidence.better_verdict(c.mirrored()) == "holds"]
        texts.append(
            f"{metric}: {v.verdict} ({top}; {a} significantly better than {beaten} of "
            f"{len(present)}; significantly worse than {len(lost)}"
            + (f": {', '.join(lost)}" if lost else "")
            + f"){_absent(absent)}"
        )
    return Verdict(evidence.conjunction(verdicts), " | ".join(texts))


def never_worse(ev: Evidence, a: str, others, metric: str = "accuracy") -> Verdict:
    """ "A never underperforms B" (module docstring)."""
    records = records_of(ev, metric)
    present, absent = _present(records, a, list(others))
    higher = higher_is_better(metric)
    comparisons = [evidence.compare(records, a, b, metric, higher) for b in present]
    worse = [c.b for c in comparisons if evidence.not_worse_verdict(c) == "does not hold"]
    losses = {c.b: c.losses for c in comparisons if c.losses}
    # "never": a single significant per-data-set loss is a counter-case
    verdict = "does not hold" if worse or losses else "holds"
    lost = ", ".join(f"{b} on {k}" for b, k in losses.items()) or "none"
    text = (
        f"{a} vs {len(present)} methods on {metric}: significantly worse over the data sets "
        f"than {len(worse)}" + (f" ({', '.join(worse)})" if worse else "")
        + f"; per-data-set significant losses: {lost}; "
        + "; ".join(c.text() for c in comparisons)
        + _absent(absent)
    )  # fmt: skip
    return Verdict(verdict, text)


def improves(ev: Evidence, a, others, metric: str = "accuracy") -> Verdict:
    """ "Both approaches usually improve B": ``evidence.better`` of each of ``a`` over each of
    ``others``, the conjunction."""
    records = records_of(ev, metric)
    a = [a] if isinstance(a, str) else list(a)
    present, absent = _present(records, a, list(others))
    higher = higher_is_better(metric)
    verdicts, texts = [], []
    for x in a:
        for b in present:
            c = evidence.compare(records, x, b, metric, higher)
            t = evidence.paired_means(records, x, b, metric)
            d = (t[x] - t[b]) if higher else (t[b] - t[x])
            k, n = int((d > 0).sum()), len(d)
            v = "holds" if k > n / 2 else "does not hold"
            verdicts.append(v)
            texts.append(f"{v}: {x} ahead of {b} on {k} of {n} data sets (usually: > {n / 2:g}); "
                         + c.text())  # fmt: skip
    return Verdict(evidence.conjunction(verdicts), "; ".join(texts) + _absent(absent))


def alike_and_smaller(
    ev: Evidence, a: str, others, score: str = "auc", size: str = "n_selected",
    margin: float = 0.01,
) -> Verdict:  # fmt: skip
    """ "The performance is almost the same, the sparsity far better with A" against each of
    ``others``: equivalent on ``score`` within ± ``margin`` (``evidence.equivalence`` of the
    per-data-set differences), A better (smaller) on ``size``."""
    scores, sizes = records_of(ev, score), records_of(ev, size)
    present, absent = _present(scores, a, list(others))
    verdicts, texts = [], []
    for b in present:
        t = evidence.paired_means(scores, a, b, score)
        same, eq = evidence.equivalence((t[a] - t[b]).to_numpy(), margin)
        smaller = evidence.compare(sizes, a, b, size, higher_is_better(size))
        both = [same, evidence.better_verdict(smaller)]
        verdicts += both
        texts.append(f"almost the same {both[0]}: {score} {a} − {b}: {eq}; smaller {both[1]}: "
                     f"{smaller.text()}")  # fmt: skip
    return Verdict(evidence.conjunction(verdicts), " | ".join(texts) + _absent(absent))
