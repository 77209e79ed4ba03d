"""Boullé (2007): the rules of the waveform study's claims (§5.3, §6.1), on one 70/30 split of a
5000-row sample of Breiman's generator (records ``boulle2007_waveform``). The claims name them as
rules of :mod:`repro.report.papers.boulle2007.claims`, which serves them.

- **One split** (the waveform study): no folds, so a difference d of a criterion between two
  methods on the test split (n instances) is significant when |d| > t_{0.975, k−1} · SE, with
  SE = SD_k(d) · √(m/n), SD_k(d) the standard deviation of the same paired difference over the
  k = 10 folds of ``boulle2007_table3`` on ``waveform`` (same generator and methods, m = 500 test
  instances per fold). "A better than B" holds when significant in A's favour, else does not
  hold; "not better", "not worse": its mirrors; "the same": no significant difference
  ("equivalent": the 90% interval d ± t_{0.95, k−1} · SE inside ± the claim's margin); "A
  dominates / is the best" on a criterion: holds when significant against every other, partly
  when A has the best value without that, does not hold otherwise (``evidence.best`` on one
  split); "none is the best on all criteria": its mirror.
- **Numbers of the paper's waveform sample** (counts and sets of selected variables, ranks of
  the top models): holds when ours equals the published one; "around/about X": holds when ours,
  rounded at X's last significant digit, equals X (around 10 → nearest ten; 0.5 → one decimal;
  10^1033 → the exponent to the unit). A statement of several such numbers: holds when all
  agree, partly when some do ("all the variables with weights around 0.5": every one). A soft
  selection (BMA, CMA weights) "is almost the MAP selection" when rounding every weight to 0 or
  1 gives the MAP subset; "a group emphasised around V11 between groups around V5 and V17": the
  largest weight at V11 (else does not hold) and V5, V17 above the lowest weight between them
  and V11 (else partly). "The weights are the published ones" (:func:`weight_values`): each
  equal at the published number's last digit.
  Our sample is not the paper's: these are exact tests of another sample's statistics.
"""

from __future__ import annotations

import math
from decimal import Decimal

import numpy as np
import pandas as pd
from scipy import stats

from repro.report.claims import evidence
from repro.report.claims.engine import Evidence, Verdict
from repro.report.papers.boulle2007.claims_terms import (
    LOWER,
    MIRROR,
    NOISE,
    ORDER,
    SHORT,
    WAVEFORM,
    expand,
    grade,
    name,
)  # fmt: skip


def split_values(ev: Evidence, experiment: str) -> pd.DataFrame:
    """Methods × criteria table of the test split, with the split's size in ``n_test``."""
    records = ev.records(experiment)
    test = records[records["split"] == "test"]
    table = test.pivot_table(index="method", columns="metric", values="value")
    return table.assign(n_test=test.groupby("method")["n_test"].first())


def noise_differences(ev: Evidence, a: str, b: str, metric: str):
    """(per-fold differences a − b of ``metric``, the folds' test records) on :data:`NOISE`."""
    experiment, dataset = NOISE
    records = ev.records(experiment)
    sub = records[
        (records["split"] == "test") & (records["metric"] == metric)
        & (records["dataset"] == dataset) & records["method"].isin([a, b])
    ]  # fmt: skip
    wide = sub.pivot_table(index=["repetition", "fold"], columns="method", values="value")
    return (wide[a] - wide[b]).dropna(), sub


def split_se(ev: Evidence, a: str, b: str, metric: str, n_test: float) -> tuple[float, float]:
    """(SE of the difference a − b on a split of ``n_test``, critical t) from the folds of
    :data:`NOISE` (module docstring)."""
    diff, sub = noise_differences(ev, a, b, metric)
    m = float(sub["n_test"].mean())
    crit = float(stats.t.ppf(1 - evidence.ALPHA / 2, diff.size - 1))
    return float(diff.std(ddof=1)) * math.sqrt(m / n_test), crit


def split_outcome(ev: Evidence, table, a: str, b: str, metric: str) -> tuple[int, str]:
    """+1 (a significantly better), −1 (worse) or 0 on the split, and the numbers."""
    va, vb = float(table.loc[a, metric]), float(table.loc[b, metric])
    se, crit = split_se(ev, a, b, metric, float(table.loc[a, "n_test"]))
    d = (vb - va) if metric in LOWER else (va - vb)
    sig = abs(va - vb) > crit * se
    text = f"{name(a)} {SHORT.get(metric, metric)} {va:.4f} vs {name(b)} {vb:.4f} (SE {se:.4f})"
    return (int(np.sign(d)) if sig else 0), text


def split_compare(ev: Evidence, experiment: str, parts, margins=None) -> Verdict:
    """Conjunction of one-split comparisons ``[kind, a, b, metric]`` (better | not_worse |
    not_better | same | equivalent: the (1 − 2α) t interval d ± t_{0.95, k−1} · SE of the
    split's difference inside ± ``margins[metric]``, SE as :func:`split_se`)."""
    table = split_values(ev, experiment)
    margins = margins or {}
    verdicts, texts = [], []
    for kind, a, b, metric in expand(parts):
        outcome, text = split_outcome(ev, table, a, b, metric)
        if kind == "equivalent":
            if metric not in margins:
                raise ValueError(f"an equivalence of {metric!r} needs its margin (margins)")
            se, _ = split_se(ev, a, b, metric, float(table.loc[a, "n_test"]))
            k = split_folds(ev, a, b, metric)
            d = float(table.loc[a, metric]) - float(table.loc[b, metric])
            v, eq = evidence.equivalence_ci(
                d, se, k - 1, float(margins[metric]), over=f"(one split, SE from {k} folds)"
            )
            verdicts.append(v)
            texts.append(f"{text}: {eq} ({v})")
            continue
        better = "holds" if outcome > 0 else "does not hold"
        worse = "holds" if outcome < 0 else "does not hold"
        v = {
            "better": better,
            "not_better": MIRROR[better],
            "not_worse": MIRROR[worse],
            "same": "holds" if outcome == 0 else "does not hold",
        }[kind]
        verdicts.append(v)
        texts.append(f"{text}: {'win' if outcome > 0 else 'loss' if outcome else 'tie'} ({v})")
    return Verdict(evidence.conjunction(verdicts), "one split: " + "; ".join(texts))


def split_folds(ev: Evidence, a: str, b: str, metric: str) -> int:
    """The number of folds of :data:`NOISE` behind :func:`split_se`."""
    return int(noise_differences(ev, a, b, metric)[0].size)


def split_best_verdict(ev: Evidence, table, a: str, others, metric: str) -> tuple[str, str]:
    """``evidence.best`` on one split: significant against every other, else best value."""
    outcomes = [split_outcome(ev, table, a, b, metric)[0] for b in others]
    values = table.loc[[a, *others], metric]
    top = values.idxmin() if metric in LOWER else values.idxmax()
    v = grade(all(o > 0 for o in outcomes), top == a)
    wins = sum(o > 0 for o in outcomes)
    return v, f"{SHORT.get(metric, metric)} best {name(top)}, {name(a)} wins {wins}/{len(others)}"


def split_best(ev: Evidence, experiment: str, a: str, others, metrics) -> Verdict:
    """ "A dominates the others on every criterion" on one split (conjunction of criteria)."""
    table = split_values(ev, experiment)
    results = [split_best_verdict(ev, table, a, others, m) for m in metrics]
    return Verdict(evidence.conjunction(v for v, _ in results), "; ".join(t for _, t in results))


def split_none_best(ev: Evidence, experiment: str, methods, metrics) -> Verdict:
    """ "None of ``methods`` is the best on all ``metrics``": the mirror of :func:`split_best`
    for the method that comes closest."""
    table = split_values(ev, experiment)
    found = []
    for a in methods:
        others = [b for b in methods if b != a]
        found.append(
            evidence.conjunction(split_best_verdict(ev, table, a, others, m)[0] for m in metrics)
        )
    strongest = min(found, key=ORDER.index)
    values = table.loc[list(methods)]
    tops = ", ".join(
        f"{SHORT.get(m, m)} {name(values[m].idxmin() if m in LOWER else values[m].idxmax())}"
        for m in metrics
    )
    return Verdict(MIRROR[strongest], f"best value per criterion: {tops}")


# --- the waveform sample's numbers -----------------------------------------------------------
def weights(ev: Evidence, method: str, experiment=WAVEFORM, search="exhaustive") -> pd.Series:
    """Variable → weight of ``method`` (artefact ``weights``; ACC/AUC: the ``search`` run)."""
    records = ev.records(experiment)
    w = records[(records["artefact"] == "weights") & (records["method"] == method)]
    if w["search"].nunique() > 1:
        w = w[w["search"] == search]
    return w.sort_values("variable_index").set_index("variable")["value"]


def selected(ev: Evidence, method: str) -> list[str]:
    w = weights(ev, method)
    return list(w.index[w > 0])


def same_number(ours: float, published) -> bool:
    """Equal at the published number's last significant digit ("around 10" → tens)."""
    place = Decimal(str(published)).normalize().as_tuple().exponent
    return round(float(ours), -int(place)) == float(published)


def irrelevant_variables(ev: Evidence, experiment: str, variables, nb_count: int) -> Verdict:
    """The MODL-irrelevant variables are ``variables`` and NB uses the ``nb_count`` others."""
    records = ev.records(experiment)
    w = records[(records["artefact"] == "weights") & (records["method"] == "nb")]
    ours = sorted(w.loc[w["informative"].astype(str) == "False", "variable"])
    n_nb = len(selected(ev, "nb"))
    ok = set(ours) == set(variables) and n_nb == nb_count
    return Verdict(
        "holds" if ok else "does not hold",
        f"irrelevant: {', '.join(ours)} (paper {', '.join(variables)}); NB uses {n_nb} "
        f"(paper {nb_count})",
    )


def selection(
    ev: Evidence, experiment: str, method: str, count=None, variables=None, subset_of=None,
    fewer_than=None,
) -> Verdict:  # fmt: skip
    """Selected variables of ``method``: their number (= ``count``), the set (= ``variables``),
    a subset of each of ``subset_of``'s selections, fewer than each of ``fewer_than``'s."""
    ev.records(experiment)
    ours = selected(ev, method)
    checks, texts = [], [f"{name(method)} selects {len(ours)}: {' '.join(ours)}"]
    if count is not None:
        checks.append(len(ours) == count)
        texts.append(f"paper {count}")
    if variables is not None:
        checks.append(set(ours) == set(variables))
        texts.append(f"paper {' '.join(variables)}")
    for other in subset_of or []:
        missing = sorted(set(ours) - set(selected(ev, other)), key=ours.index)
        checks.append(not missing)
        texts.append(f"not in {name(other)}'s: {' '.join(missing) or 'none'}")
    for other in fewer_than or []:
        n = len(selected(ev, other))
        checks.append(len(ours) < n)
        texts.append(f"{name(other)} {n}")
    verdict = grade(all(checks), any(checks))
    return Verdict(verdict, "; ".join(texts))


def soft_vs_map(ev: Evidence, experiment: str, method: str, same: bool) -> Verdict:
    """Is the soft selection of ``method`` (weights rounded to 0/1) the MAP subset (``same``)?"""
    ev.records(experiment)
    w = weights(ev, method)
    hard = weights(ev, "snb_map")
    rounded = (w >= 0.5).astype(float)
    equal = bool((rounded == hard.reindex(w.index)).all())
    gap = float((w - hard.reindex(w.index)).abs().mean())
    return Verdict(
        "holds" if equal == same else "does not hold",
        f"{name(method)} weights rounded {'=' if equal else '≠'} SNB(MAP) subset; mean |w − a| "
        f"{gap:.3f}; largest off-MAP weight {float(w[hard.reindex(w.index) == 0].max()):.3f}",
    )


def weights_around(ev: Evidence, experiment: str, method: str, value: float) -> Verdict:
    """Every informative variable's weight is "around ``value``" (:func:`same_number`)."""
    ev.records(experiment)
    w = weights(ev, method)
    w = w[w > 0]
    ok = [same_number(x, value) for x in w]
    verdict = "holds" if all(ok) else "does not hold"  # "all the variables": no exception
    off = ", ".join(f"{v} {x:.3f}" for v, x, k in zip(w.index, w, ok) if not k)
    return Verdict(
        verdict,
        f"{name(method)}: {sum(ok)} of {len(ok)} weights round to {value:g} "
        f"(range {w.min():.3f}–{w.max():.3f}){'; not: ' + off if off else ''}",
    )


def weight_peak(ev: Evidence, experiment: str, method: str, peak: str, sides) -> Verdict:
    """The weights peak at ``peak``; each of ``sides`` rises above the lowest weight between it
    and the peak (two lesser groups around them)."""
    ev.records(experiment)
    w = weights(ev, method)
    w = w[w > 0]
    names = list(w.index)
    checks = [w.idxmax() == peak]
    texts = [f"largest {w.idxmax()} {w.max():.3f}"]
    for s in sides:
        i, j = sorted((names.index(s), names.index(peak)))
        valley = w.iloc[i + 1 : j].min()
        checks.append(bool(w[s] > valley))
        texts.append(f"{s} {w[s]:.3f} vs valley {valley:.3f}")
    verdict = "holds" if all(checks) else "partly" if checks[0] else "does not hold"
    return Verdict(verdict, "; ".join(texts))


def weight_values(ev: Evidence, experiment: str, method: str, values: dict) -> Verdict:
    """The weights of ``method`` are the published ``values`` (variable → weight), each equal at
    the published number's last significant digit (:func:`same_number`: 0.15 → two decimals,
    1.0 → one). Holds when all are, partly when some are, does not hold otherwise."""
    ev.records(experiment)
    w = weights(ev, method)
    ok = [same_number(float(w[v]), x) for v, x in values.items()]
    texts = [f"{v} {float(w[v]):.3f} (paper {x:g})" for v, x in values.items()]
    return Verdict(grade(all(ok), any(ok)), f"{name(method)} weights: " + ", ".join(texts))


def summary_value(ev: Evidence, key: str) -> float:
    records = ev.records(WAVEFORM)
    s = records[(records["artefact"] == "summary") & (records["key"] == key)]
    return float(s["value"].iloc[0])


def posterior_numbers(ev: Evidence, experiment: str, values: dict) -> Verdict:
    """Summary statistics of the exhaustive posterior (``key: published``), each "around" its
    published value (:func:`same_number`); ``log10_map_vs_null`` also needs the null model to be
    the least probable one."""
    ev.records(experiment)
    ok, texts = [], []
    for key, paper in values.items():
        ours = summary_value(ev, key)
        ok.append(same_number(ours, paper))
        texts.append(f"{key} {ours:.2f} (paper {paper})")
        if key == "log10_map_vs_null":
            worst = summary_value(ev, "log10_map_vs_worst")
            ok.append(worst == ours)
            texts.append(f"null model least probable: {worst == ours}")
    verdict = grade(all(ok), any(ok))
    return Verdict(verdict, "; ".join(texts))


def first_selected(ev: Evidence, experiment: str, variable: str, rank: int, times) -> Verdict:
    """``variable`` first enters the ``rank``-th most probable model, ``times`` (about) less
    probable than the MAP model."""
    records = ev.records(experiment)
    s = records[(records["artefact"] == "summary") & (records["key"] == "first_rank")]
    row = s[s["variable"] == variable].iloc[0]
    ours_rank, ratio = int(row["value"]), 10 ** float(row["log10_map_over_model"])
    ok = [ours_rank == rank, same_number(ratio, times)]
    verdict = grade(all(ok), any(ok))
    return Verdict(
        verdict,
        f"{variable} first in model {ours_rank} (paper {rank}), {ratio:.3g} times less probable "
        f"than the MAP (paper about {times})",
    )


def always_selected(ev: Evidence, experiment: str, variables, n_top: int = 200) -> Verdict:
    """The variables selected by every one of the ``n_top`` most probable models."""
    records = ev.records(experiment)
    top = records[(records["artefact"] == "top_models") & (records["rank"] <= n_top)]
    share = top.groupby("variable")["value"].mean()
    ours = sorted(share.index[share == 1], key=lambda v: int(v[1:]))
    in_map = set(ours) <= set(selected(ev, "snb_map"))
    verdict = "holds" if set(ours) == set(variables) else "does not hold"
    return Verdict(
        verdict,
        f"in all {top['rank'].nunique()} top models: {' '.join(ours)} (paper "
        f"{' '.join(variables)}); all MAP variables: {in_map}",
    )
