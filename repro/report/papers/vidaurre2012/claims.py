"""Claim rules of Vidaurre, Bielza, Larrañaga (2012), "Forward stagewise naive Bayes", read from
the committed records of the ``vidaurre2012_*`` experiments (``experiments/vidaurre2012/
claims.yaml``).

Every comparison is one of the shared rules of :mod:`repro.report.claims.evidence` ("better",
"as good as", "the best"; per data set the paired t-test over the repetitions of Table 1 or the
folds of Table 2, over ≥ 6 data sets the Wilcoxon test). One statement is decided holds or does
not hold: where the shared "better" or "the best" answers "partly" (A ahead without
significance), the statement does not hold; "partly" is kept for a sentence of several stated
parts some of which hold and others fail. This module adds:

- **Several parts.** A sentence that states several comparisons is decided part by part; it
  holds when every part holds, does not hold when every part does not hold, and is partly true
  otherwise. The evidence names each part and its verdict.
- **Derived quantities.** A per-run number that is not a test metric — the selected and the
  selected fully noisy (V3, ``noise*``) predictors
  (:func:`repro.report.papers.vidaurre2012.tables.per_run`), the fit time, fsNB's model
  evaluations, a figure's error at a point of its grid — is written as a test record of its run
  and compared by the same rules.
- **Contrasts of worlds.** "X is more harmful than Y" compares one method's runs on two worlds,
  the worlds relabelled as methods and paired by repetition (Table 1's scenarios of one
  repetition share their labels and first ten columns; the worlds of Figs 1–2 share y, X1..X3).
- **Similar** ("not very different", "very similar", "nearly the same", "similar for all",
  "similar results"): practical equivalence, :func:`repro.report.claims.evidence.equivalence` —
  the 90% t-interval of the mean paired difference (per run, or per fold, pooled over the data
  sets named) inside ± a margin the claim states in ``claims.yaml`` (and says why); holds when
  inside, does not hold otherwise. A sentence of one statement is one test: the data sets or
  pairs it covers are not parts of the sentence.
- **Always better** ("aL1/L2-NB is always worse than fsNB and SNB"): strict, no counter-case —
  A's mean is better than or equal to B's on every data set (better on one at least) and A has
  no significant loss (paired t) on any.
- **Usually better** ("both approaches usually improve NB"): A significantly better than B
  (paired t over the runs or folds) on more than half of the data sets.
- **Slightly better** (§7.1, aL1/L2-NB against its non-adaptive L1/L2-NB): A's mean over the
  data sets lower than B's and the gap at most ``margin``.
- **Significantly better than all the others** (§7.4, Table 4): the paper's own procedure — the
  Friedman ranks of the per-data-set mean errors and Bergmann–Hommel's adjusted p-values
  (:func:`repro.stats.posthoc.posthoc`); holds when every pair of A with another method has an
  adjusted p < α = 0.05 with A's average rank the better, does not hold otherwise.
- **Most frequent class** (§7.2): a pseudo-method with the majority rule's error on every fold.
  Two parts, as the sentence: "an accuracy similar to NB" is practical equivalence (per-fold
  differences, ± ``margin``); "not greatly improved by any method": no method's mean error is
  below the majority rule's by more than ``margin``.
- **Does not excel** on a data set: the negation of "the best" there (holds when "the best"
  does not hold, does not hold when it holds, partly when it is partly true).
- **Closer to a reference:** per run, |error − the reference's error| (the reference: the mean of
  NB's and WNB's errors in that run), lower is better.
- **Cost similar for all data sets** (§7.1): fsNB's model evaluations per run, every pair of
  Table 1's scenarios paired by repetition; the differences relative to the mean over all runs,
  practically equivalent within ± ``margin`` for every pair (one statement: holds when every
  pair is, does not hold otherwise; the evidence lists each pair).
- **A published mean without its SD** (fsNB's evaluation counts): :func:`repro.stats.agreement.
  mean_with_sd` with the published SD taken as 0, i.e. a one-sample t-test of our runs' mean
  against the printed number; holds when it agrees.
- **Figs 3–4, the (α2, α3) grid:** the grid point of least mean test error is chosen on the
  repetitions 0–49 and tested on 50–99 (no selection bias): "the minimum is at (1, 1)" holds
  when (1, 1) is as good as that point; "the best model is in 0 < α2, α3 < 1" holds when that
  point is interior and better than (1, 1). "Less obvious" compares the held-out gain
  error(1, 1) − error(point) of the two figures' panels b (lower is less obvious).
- **Fig. 5, looking ahead:** the training error of the relevant and of the irrelevant predictor
  at one step ε and at the best of the v look-ahead points ε..vε (the least training error,
  Algorithm 1's choice); the separation is the irrelevant one's error minus the relevant one's.
- **Fig. 6, early stopping:** the standstill is the first step at which the training error
  reaches its minimum over the path; the minimum test error before it (steps ≤ the standstill)
  is compared with the one after it ("found after" = after is better).
"""

from __future__ import annotations

import weakref

import numpy as np
import pandas as pd

from repro.report.claims import evidence
from repro.report.claims.engine import NoRecords, Verdict
from repro.report.papers.vidaurre2012.tables import per_run
from repro.stats.agreement import mean_with_sd
from repro.stats.posthoc import posthoc
from repro.stats.tests import rank_table

TABLE1 = "vidaurre2012_table1"
TABLE2 = "vidaurre2012_table2"
#: the paper's six methods (its NB and SNB: the maximum-likelihood nb_ml and snb_ml); the variant
#: rows of Tables 1-2 (fsnb_p1, fsnb_index, MODL nb, snb_acc) decide no claim
METHODS = ("nb_ml", "snb_ml", "wnb", "al1l2_nb", "fsnb", "cfs_nb")
IRRELEVANT = {"DI": "DR", "CI": "CR"}  # irrelevant scenario -> its redundant twin
RECORD_KEYS = ["method", "dataset", "repetition", "fold"]


# --------------------------------------------------------------------------- helpers


def _short(c: evidence.Comparison) -> str:
    p = "" if np.isnan(c.p_wilcoxon) else f", Wilcoxon p {c.p_wilcoxon:.3g}"
    return f"{c.a} {c.mean_a:.4g} vs {c.b} {c.mean_b:.4g} (W/L {c.wins}/{c.losses}{p})"


def _strict(verdict: str) -> str:
    """One statement is true or not: the shared rules' "partly" (a lead without significance)
    is not "better" or "the best" (module docstring)."""
    return "does not hold" if verdict == "partly" else verdict


def _better(rec, a, b, metric, hib=False, datasets=None) -> Verdict:
    c = evidence.compare(rec, a, b, metric, hib, datasets)
    return Verdict(_strict(evidence.better_verdict(c)), _short(c))


def _not_worse(rec, a, b, metric, hib=False, datasets=None) -> Verdict:
    c = evidence.compare(rec, a, b, metric, hib, datasets)
    return Verdict(evidence.not_worse_verdict(c), _short(c))


def _best(rec, a, others, metric, hib=False, datasets=None) -> Verdict:
    verdict = _strict(evidence.best(rec, a, list(others), metric, hib, datasets).verdict)
    cs = [evidence.compare(rec, a, b, metric, hib, datasets) for b in others]
    return Verdict(verdict, "; ".join(_short(c) for c in cs))


def _similar(rec, a, b, metric, dataset) -> Verdict:
    """Shared "as good as" both ways on one data set (no significant difference)."""
    up = evidence.compare(rec, a, b, metric, True, [dataset])
    down = evidence.compare(rec, a, b, metric, False, [dataset])
    same = evidence.not_worse_verdict(up) == evidence.not_worse_verdict(down) == "holds"
    diff = "no significant difference" if same else "significantly different"
    text = f"{dataset}: {a} {up.mean_a:.4g} vs {b} {up.mean_b:.4g}, {diff} (paired t)"
    return Verdict("holds" if same else "does not hold", text)


def _require(rec: pd.DataFrame, methods, experiments) -> None:
    """:class:`NoRecords` when a method has no records (it has not been run)."""
    missing = [m for m in methods if not (rec["method"] == m).any()]
    if missing:
        raise NoRecords(f"no records of {', '.join(missing)} in {', '.join(experiments)}")


def _equivalent(rec, a, b, metric, margin, datasets=None) -> Verdict:
    """Practical equivalence of a and b (module docstring, "Similar"): the per-run (per-fold)
    differences a − b, pooled over ``datasets``, within ± ``margin``."""
    sub = rec[(rec["metric"] == metric) & rec["method"].isin([a, b])]
    if datasets is not None:
        sub = sub[sub["dataset"].isin(list(datasets))]
    wide = sub.pivot_table(
        index=["dataset", "repetition", "fold"], columns="method", values="value"
    )
    if a not in wide or b not in wide:
        raise ValueError(f"no {metric!r} records of both {a!r} and {b!r}")
    wide = wide[[a, b]].dropna()
    if len(wide) < 2:
        return Verdict("not testable", f"{len(wide)} paired value(s) of {a} and {b}")
    verdict, text = evidence.equivalence(wide[a] - wide[b], margin)
    sets = ", ".join(wide.index.get_level_values("dataset").unique())
    return Verdict(
        verdict,
        f"{metric} {a} {wide[a].mean():.4g} vs {b} {wide[b].mean():.4g} on {sets}: "
        f"{text.replace('data sets', 'paired values')}",
    )


def _usually_better(rec, a, b, metric, hib=False, datasets=None) -> Verdict:
    """A significantly better than B on more than half of the data sets."""
    c = evidence.compare(rec, a, b, metric, hib, datasets)
    verdict = "holds" if c.wins > c.n_datasets / 2 else "does not hold"
    return Verdict(verdict, f"{_short(c)}; better on {c.wins} of {c.n_datasets} (> half?)")


def _always_better(rec, a, b, metric, hib=False, datasets=None) -> Verdict:
    """ "A is always better than B" (strict): A's mean is better than or equal to B's on every
    data set and better on one at least, and A has no significant loss (paired t)."""
    c = evidence.compare(rec, a, b, metric, hib, datasets)
    sub = rec[(rec["metric"] == metric) & rec["method"].isin([a, b])]
    if datasets is not None:
        sub = sub[sub["dataset"].isin(list(datasets))]
    means = sub.groupby(["dataset", "method"])["value"].mean().unstack("method")[[a, b]].dropna()
    gain = (means[a] - means[b]) * (1 if hib else -1)
    against = sorted(gain.index[gain < 0])
    ok = not against and (gain > 0).any() and c.losses == 0
    where = f"; {b} better on {', '.join(against)}" if against else ""
    return Verdict("holds" if ok else "does not hold", f"{_short(c)}{where}")


def _not(v: Verdict) -> Verdict:
    flip = {"holds": "does not hold", "does not hold": "holds", "partly": "partly"}
    return Verdict(flip[v.verdict], v.evidence)


def _combine(parts: list[tuple[str, Verdict]]) -> Verdict:
    """Several parts: holds if all hold, does not hold if none holds even partly, else partly."""
    verdict = evidence.conjunction(v.verdict for _, v in parts)
    text = " | ".join(f"{label}: {v.verdict} — {v.evidence}" for label, v in parts)
    return Verdict(verdict, text)


def _tables(ev, experiments) -> pd.DataFrame:
    return pd.concat([ev.records(e) for e in experiments], ignore_index=True)


def _as_records(frame: pd.DataFrame, metric: str, value: str = "value") -> pd.DataFrame:
    """Rows with method, dataset, repetition, fold and ``value`` as test records of ``metric``."""
    out = frame[RECORD_KEYS].copy()
    out["split"], out["metric"], out["value"] = "test", metric, frame[value].to_numpy()
    return out.dropna(subset=["value"]).reset_index(drop=True)


#: per_run of each experiment, once per Evidence
_PER_RUN: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _per_run(ev, experiment: str) -> pd.DataFrame:
    cache = _PER_RUN.setdefault(ev, {})
    if experiment not in cache:
        cache[experiment] = per_run(ev.records(experiment))
    return cache[experiment]


def _runs(ev, experiments, quantity: str) -> pd.DataFrame:
    """``error``, ``n_selected`` or ``n_noisy_selected`` per run, as test records."""
    runs = pd.concat([_per_run(ev, e) for e in experiments], ignore_index=True)
    return _as_records(runs, quantity, quantity)


def _model_metric(ev, experiments, metric: str) -> pd.DataFrame:
    rec = _tables(ev, experiments)
    rec = rec[(rec["split"] == "model") & (rec["metric"] == metric)]
    return _as_records(rec, metric)


def _contrast(rec: pd.DataFrame, method: str, pairs: dict, a: str, b: str) -> pd.DataFrame:
    """One method's records on paired worlds: the worlds become methods ``a`` (keys of
    ``pairs``) and ``b`` (its values); each pair becomes one data set named by its first."""
    sub = rec[rec["method"] == method].copy()
    world = {k: a for k in pairs} | {v: b for v in pairs.values()}
    group = {k: k for k in pairs} | {v: k for k, v in pairs.items()}
    sub = sub[sub["dataset"].isin(world)]
    sub["method"] = sub["dataset"].map(world)
    sub["dataset"] = sub["dataset"].map(group)
    return sub


# --------------------------------------------------------------------------- Tables 1, 2, 4


def comparisons(
    ev, experiments, parts, metric="error", higher_is_better=False, margin=None
) -> Verdict:
    """Parts ``[label, kind, a, b_or_others, datasets]``, kind ∈ better / not_worse / best /
    not_best / similar / equivalent (within ± ``margin``) / usually_better, on ``metric``
    (error, n_selected, n_noisy_selected, fit_time)."""
    if metric in ("error", "n_selected", "n_noisy_selected"):
        rec = _runs(ev, experiments, metric)
    else:
        rec = _model_metric(ev, experiments, metric)
    out = []
    for label, kind, a, b, datasets in parts:
        if kind == "better":
            v = _better(rec, a, b, metric, higher_is_better, datasets)
        elif kind == "not_worse":
            v = _not_worse(rec, a, b, metric, higher_is_better, datasets)
        elif kind in ("best", "not_best"):
            v = _best(rec, a, b, metric, higher_is_better, datasets)
            v = _not(v) if kind == "not_best" else v
        elif kind == "similar":
            out += [(f"{label} {d}", _similar(rec, a, b, metric, d)) for d in datasets]
            continue
        elif kind == "equivalent":
            if margin is None:
                raise ValueError("an 'equivalent' part needs the claim's margin")
            _require(rec, [a, b], experiments)
            v = _equivalent(rec, a, b, metric, margin, datasets)
        elif kind == "always_better":
            v = _always_better(rec, a, b, metric, higher_is_better, datasets)
        elif kind == "usually_better":
            v = _usually_better(rec, a, b, metric, higher_is_better, datasets)
        else:
            raise ValueError(f"unknown kind of part {kind!r}")
        out.append((label, v))
    return out[0][1] if len(out) == 1 else _combine(out)


def noise_kinds(ev, method, metric="error") -> Verdict:
    """``method`` does better (fewer errors, or fewer selected V3 predictors) when the noise is
    irrelevant than when it is redundant: DI vs DR and CI vs CR, paired by repetition."""
    rec = _contrast(_runs(ev, [TABLE1], metric), method, IRRELEVANT, "irrelevant", "redundant")
    return _better(rec, "irrelevant", "redundant", metric, False)


def discards_noise(ev) -> Verdict:
    """Abstract: aL1/L2-NB selects fewer V3 predictors when irrelevant than when redundant;
    fsNB fewer than aL1/L2-NB when redundant (DR, CR) and as few when irrelevant (DI, CI)."""
    metric = "n_noisy_selected"
    rec = _runs(ev, [TABLE1], metric)
    parts = [
        ("aL1/L2-NB irrelevant < redundant", noise_kinds(ev, "al1l2_nb", metric)),
        (
            "fsNB < aL1/L2-NB on DR, CR",
            _better(rec, "fsnb", "al1l2_nb", metric, False, ["DR", "CR"]),
        ),
        (
            "fsNB <= aL1/L2-NB on DI, CI",
            _not_worse(rec, "fsnb", "al1l2_nb", metric, False, ["DI", "CI"]),
        ),
    ]
    return _combine(parts)


def l1l2_redundant(ev) -> Verdict:
    """§8: fsNB selects fewer redundant V3 predictors than aL1/L2-NB and has a lower error on
    DR and CR."""
    noisy = _runs(ev, [TABLE1], "n_noisy_selected")
    err = _runs(ev, [TABLE1], "error")
    parts = [
        (
            "V3 selected, fsNB < aL1/L2-NB",
            _better(noisy, "fsnb", "al1l2_nb", "n_noisy_selected", False, ["DR", "CR"]),
        ),
        ("error, fsNB < aL1/L2-NB", _better(err, "fsnb", "al1l2_nb", "error", False, ["DR", "CR"])),
    ]
    return _combine(parts)


def closer_to_reference(ev, a, others, datasets, reference=("nb_ml", "wnb")) -> Verdict:
    """``a``'s per-run error is closer to the reference (mean of NB's and WNB's error in the run)
    than each of ``others``': the shared "best" on |error − reference| (lower is better)."""
    rec = _runs(ev, [TABLE1], "error")
    wide = rec.pivot_table(
        index=["dataset", "repetition", "fold"], columns="method", values="value"
    )
    ref = wide[list(reference)].mean(axis=1)
    gaps = (wide[[a, *others]].sub(ref, axis=0)).abs().stack().rename("value").reset_index()
    gap = _as_records(gaps, "gap_to_nb_wnb")
    v = _best(gap, a, others, "gap_to_nb_wnb", False, datasets)
    means = wide.loc[list(datasets)].mean()
    text = ", ".join(f"{m} {means[m]:.4f}" for m in [*reference, a, *others])
    return Verdict(v.verdict, f"mean error {text}; |error − NB/WNB|: {v.evidence}")


def most_frequent_class(ev, dataset, majority_error, margin=0.05) -> Verdict:
    """§7.2, π = (1/4, 3/4): the most-frequent-class rule (error ``majority_error`` on every
    fold) is similar to NB (practical equivalence within ± ``margin``) and no method's mean
    error is below it by more than ``margin`` (module docstring)."""
    rec = _runs(ev, [TABLE2], "error")
    rec = rec[rec["dataset"] == dataset]
    base = rec[rec["method"] == "nb_ml"].assign(method="most_frequent", value=majority_error)
    rec = pd.concat([rec, base], ignore_index=True)
    similar = _equivalent(rec, "most_frequent", "nb_ml", "error", margin, [dataset])
    means = rec[rec["method"].isin(METHODS)].groupby("method")["value"].mean()
    gains = (majority_error - means).sort_values(ascending=False)
    great = gains[gains > margin]
    text = ", ".join(f"{m} {means[m]:.4f} ({g:+.4f})" for m, g in gains.items())
    improved = Verdict(
        "does not hold" if len(great) else "holds",
        f"majority error {majority_error:g}; method error (improvement): {text}; "
        f"greatly (> {margin:g}): {', '.join(great.index) or 'none'}",
    )
    return _combine([("similar to NB", similar), ("not greatly improved", improved)])


def evaluations(ev, experiment, published, n_published) -> Verdict:
    """Our mean model evaluations per run against printed means without SD (module doc):
    ``published`` maps each method to its printed mean; one part per method."""
    rec = _model_metric(ev, [experiment], "n_evaluations")
    parts = []
    for method, value in published.items():
        ours = rec.loc[rec["method"] == method, "value"].to_numpy()
        if not ours.size:
            parts.append((method, Verdict("not testable", f"no {method} evaluation counts")))
            continue
        a = mean_with_sd(value, 0.0, n_published, ours)
        text = (
            f"{method} evaluations: ours {ours.mean():.1f} ± {ours.std(ddof=1):.1f} over "
            f"{ours.size} runs vs published {value}; {a.detail}"
        )
        parts.append((method, Verdict("holds" if a.agrees else "does not hold", text)))
    return parts[0][1] if len(parts) == 1 else _combine(parts)


def cost_similar(ev, method="fsnb", margin=0.1) -> Verdict:
    """§7.1: fsNB's evaluations per run are similar on every pair of Table 1's scenarios
    (module docstring): relative paired differences within ± ``margin``."""
    rec = _model_metric(ev, [TABLE1], "n_evaluations")
    rec = rec[rec["method"] == method]
    if rec.empty:
        raise NoRecords(f"no n_evaluations records of {method} in {TABLE1}")
    wide = rec.pivot_table(index="repetition", columns="dataset", values="value")
    scale = float(rec["value"].mean())
    names = sorted(wide.columns)
    verdicts, texts = [], []
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            pair = wide[[a, b]].dropna()
            v, text = evidence.equivalence((pair[a] - pair[b]) / scale, margin)
            verdicts.append(v)
            texts.append(
                f"{a}~{b}: {pair[a].mean():.0f} vs {pair[b].mean():.0f}, "
                f"{text.replace('data sets', 'repetitions')} — {v}"
            )
    verdict = "holds" if all(v == "holds" for v in verdicts) else "does not hold"
    return Verdict(
        verdict,
        f"{method} evaluations per run, differences relative to the mean {scale:.0f}, "
        f"{sum(v == 'holds' for v in verdicts)} of {len(verdicts)} pairs equivalent: "
        + "; ".join(texts),
    )


def similar_results(ev, experiments, a, b, margins, datasets=None) -> Verdict:
    """ "A achieves similar results to B, for both accuracy and selected variables": practical
    equivalence per metric of ``margins`` (metric → margin), one part each; not testable (no
    records) until both have been run."""
    parts = []
    for metric, margin in margins.items():
        rec = _runs(ev, experiments, metric)
        _require(rec, [a, b], experiments)
        parts.append((metric, _equivalent(rec, a, b, metric, margin, datasets)))
    return _combine(parts)


def significant_all(adjusted: pd.Series, ranks: pd.Series, a: str, alpha=evidence.ALPHA):
    """The decision of "A is significantly better than all the others" from A's adjusted
    p-values against each other method (``adjusted``, indexed by method) and the average ranks
    (lower is better): (verdict, text)."""
    others = [m for m in adjusted.index if m != a]
    ok = [m for m in others if adjusted[m] < alpha and ranks[a] < ranks[m]]
    verdict = "holds" if len(ok) == len(others) else "does not hold"
    text = ", ".join(
        f"vs {m} p = {adjusted[m]:.3g} (rank {ranks[a]:.2f} vs {ranks[m]:.2f})" for m in others
    )
    return verdict, f"{len(ok)} of {len(others)} pairs significant at {alpha:g}: {text}"


def significantly_best(ev, experiments, a="fsnb", correction="bergmann") -> Verdict:
    """§7.4: A significantly better than every other method by the Friedman ranks of the
    per-data-set mean errors and ``correction``'s adjusted p-values (module docstring)."""
    rec = _runs(ev, experiments, "error")
    rec = rec[rec["method"].isin(METHODS)]
    errors = rec.groupby(["dataset", "method"])["value"].mean().unstack("method")
    errors = errors[[m for m in METHODS if m in errors.columns]].dropna()
    if a not in errors.columns:
        raise NoRecords(f"no error records of {a} in {', '.join(experiments)}")
    adjusted = posthoc(errors, correction=correction, higher_is_better=False, cap=False)
    ranks = rank_table(errors, higher_is_better=False).mean()
    verdict, text = significant_all(adjusted[a], ranks, a)
    return Verdict(verdict, f"{correction} over {len(errors)} data sets: {text}")


def slightly_better(ev, experiments, a, b, datasets=None, margin=0.02) -> Verdict:
    """ "A is slightly better than B": A's mean error over the data sets lower, by at most
    ``margin`` (module docstring); not testable (no records) until B has been run."""
    rec = _runs(ev, experiments, "error")
    _require(rec, [a, b], experiments)
    c = evidence.compare(rec, a, b, "error", False, datasets)
    gap = c.mean_b - c.mean_a
    verdict = "holds" if 0 < gap <= margin else "does not hold"
    return Verdict(verdict, f"{_short(c)}; gap {gap:+.4f}, slightly: in (0, {margin:g}]")


# --------------------------------------------------------------------------- Figures 1–6


def fig1_worlds(ev, parts) -> Verdict:
    """Fig. 1: NB's test error in world ``a`` is lower than in world ``b`` (paired by
    repetition), for each ``[a, b]`` of ``parts`` (base, irrelevant, redundant)."""
    rec = ev.records("vidaurre2012_fig1")
    rec = rec[(rec["split"] == "test") & (rec["metric"] == "error")].copy()
    rec["method"], rec["dataset"] = rec["world"], "toy"
    out = [(f"{a} < {b}", _better(rec, a, b, "error")) for a, b in parts]
    return out[0][1] if len(out) == 1 else _combine(out)


def _fig2_wide(ev) -> pd.DataFrame:
    rec = ev.records("vidaurre2012_fig2")
    rec = rec[(rec["split"] == "test") & rec["n_predictors"].isin([3, 53])]
    return rec.pivot_table(
        index=["dataset", "repetition"], columns=["metric", "n_predictors"], values="value"
    )


def fig2_redundant_classes(ev) -> Verdict:
    """Fig. 2, redundant world: class 0's error falls from k = 3 to k = 53 predictors, classes 1
    and 2's errors rise (paired by repetition)."""
    rec = ev.records("vidaurre2012_fig2")
    rec = rec[(rec["split"] == "test") & rec["n_predictors"].isin([3, 53])].copy()
    rec = rec[rec["dataset"].str.contains("redundant")]
    rec["method"] = "k=" + rec["n_predictors"].astype(int).astype(str)
    parts = [
        ("class 0 falls", _better(rec, "k=53", "k=3", "error_class0")),
        ("class 1 rises", _better(rec, "k=3", "k=53", "error_class1")),
        ("class 2 rises", _better(rec, "k=3", "k=53", "error_class2")),
    ]
    return _combine(parts)


def fig2_irrelevant_increment(ev) -> Verdict:
    """Fig. 2: irrelevant predictors raise the error (k = 3 → 53), less than redundant ones, and
    more uniformly: the range over the classes of the per-class increments is smaller."""
    wide = _fig2_wide(ev)
    inc = pd.DataFrame(index=wide.index)
    inc["increment"] = wide[("error", 53)] - wide[("error", 3)]
    per_class = [wide[(f"error_class{c}", 53)] - wide[(f"error_class{c}", 3)] for c in range(3)]
    inc["class_range"] = pd.concat(per_class, axis=1).agg(np.ptp, axis=1)
    inc = inc.reset_index()
    inc["method"] = np.where(inc["dataset"].str.contains("irrelevant"), "irrelevant", "redundant")
    inc["dataset"], inc["fold"] = "toy", 0
    zero = inc[inc["method"] == "irrelevant"].assign(method="none", increment=0.0)
    rise = pd.concat([inc, zero], ignore_index=True)
    parts = [
        (
            "irrelevant raise the error",
            _better(
                _as_records(rise, "increment", "increment"), "irrelevant", "none", "increment", True
            ),
        ),
        (
            "moderate",
            _better(
                _as_records(inc, "increment", "increment"), "irrelevant", "redundant", "increment"
            ),
        ),
        (
            "uniform",
            _better(
                _as_records(inc, "class_range", "class_range"),
                "irrelevant",
                "redundant",
                "class_range",
            ),
        ),
    ]
    return _combine(parts)


def _grid_point(ev, experiment, panel):
    """(records of the held-out repetitions: the point chosen on 0–49 and (1, 1), the point)."""
    rec = ev.records(experiment)
    rec = rec[(rec["split"] == "test") & (rec["metric"] == "error") & (rec["panel"] == panel)]
    rec = rec.assign(repetition=rec["repetition"].astype(int))
    first = rec[rec["repetition"] < 50].groupby(["alpha2", "alpha3"])["value"].mean()
    point = first.idxmin()
    held = rec[rec["repetition"] >= 50]
    chosen = held[(held["alpha2"] == point[0]) & (held["alpha3"] == point[1])]
    one = held[(held["alpha2"] == 1.0) & (held["alpha3"] == 1.0)]
    out = pd.concat([chosen.assign(method="chosen"), one.assign(method="(1,1)")])
    return out.assign(dataset=f"panel {panel}"), (float(point[0]), float(point[1]))


def _grid_parts(ev, experiment) -> list[tuple[str, Verdict]]:
    rec_a, pa = _grid_point(ev, experiment, "a")
    rec_b, pb = _grid_point(ev, experiment, "b")
    a = _not_worse(rec_a, "(1,1)", "chosen", "error")
    b = _better(rec_b, "chosen", "(1,1)", "error")
    text_a, text_b = (f"({p[0]:.3g}, {p[1]:.3g})" for p in (pa, pb))
    if not all(0 < x < 1 for x in pb):
        b = Verdict("does not hold", f"chosen point {text_b} is not interior; {b.evidence}")
    return [
        (f"a: (1,1) as good as the chosen {text_a}", a),
        (f"b: the chosen {text_b} interior and better than (1,1)", b),
    ]


def alpha_grid(ev, experiment="vidaurre2012_fig3") -> Verdict:
    """Figs 3–4: panel a's minimum at (1, 1), panel b's inside (module docstring)."""
    return _combine(_grid_parts(ev, experiment))


def alpha_grid_continuous(ev) -> Verdict:
    """Fig. 4 vs Fig. 3: Fig. 3's conclusion holds for Fig. 4, with a smaller held-out gain of
    the chosen point of panel b over (1, 1) (the effect is less obvious)."""
    gains = []
    for name, experiment in (
        ("continuous", "vidaurre2012_fig4"),
        ("discrete", "vidaurre2012_fig3"),
    ):
        rec, _ = _grid_point(ev, experiment, "b")
        wide = rec.pivot_table(index="repetition", columns="method", values="value")
        gains.append(
            pd.DataFrame(
                {"method": name, "repetition": wide.index, "value": wide["(1,1)"] - wide["chosen"]}
            )
        )
    gain = pd.concat(gains).assign(dataset="panel b", fold=0)
    parts = _grid_parts(ev, "vidaurre2012_fig4")
    parts.append(
        ("less obvious", _better(_as_records(gain, "gain"), "continuous", "discrete", "gain"))
    )
    return _combine(parts)


def _fig5_train(ev) -> tuple[pd.DataFrame, float, int]:
    rec = ev.records("vidaurre2012_fig5")
    rec = rec[(rec["split"] == "train") & (rec["metric"] == "error")]
    eps, v = float(rec["p_epsilon"].iloc[0]), int(rec["p_n_steps"].iloc[0])
    wide = rec.pivot_table(index=["repetition", "alpha"], columns="role", values="value")
    return wide.reset_index(), eps, v


def lookahead(ev, parts=("select", "one_step")) -> Verdict:
    """Fig. 5 (module docstring): ``select`` — at its best look-ahead point the relevant
    predictor's training error is below the irrelevant one's; ``one_step`` — the separation
    there is larger than at one step ε."""
    wide, eps, v = _fig5_train(ev)
    ahead = wide[(wide["alpha"] > 0) & (wide["alpha"] <= v * eps + 1e-9)]
    best = ahead.groupby("repetition")[["relevant", "irrelevant"]].min()
    one = wide[np.isclose(wide["alpha"], eps)].set_index("repetition")
    rows = []
    for name, frame in (("look-ahead", best), ("one step", one)):
        for role in ("relevant", "irrelevant"):
            rows.append(
                pd.DataFrame(
                    {
                        "method": role,
                        "dataset": name,
                        "repetition": frame.index,
                        "fold": 0,
                        "value": frame[role].to_numpy(),
                    }
                )
            )
        sep = (frame["irrelevant"] - frame["relevant"]).to_numpy()
        rows.append(
            pd.DataFrame(
                {
                    "method": name,
                    "dataset": "separation",
                    "repetition": frame.index,
                    "fold": 0,
                    "value": sep,
                }
            )
        )
    rec = _as_records(pd.concat(rows, ignore_index=True), "train_error")
    out = []
    if "select" in parts:
        out.append(
            (
                "select the relevant",
                _better(rec, "relevant", "irrelevant", "train_error", False, ["look-ahead"]),
            )
        )
    if "one_step" in parts:
        out.append(
            (
                "separation look-ahead > one step",
                _better(rec, "look-ahead", "one step", "train_error", True, ["separation"]),
            )
        )
    return out[0][1] if len(out) == 1 else _combine(out)


def _fig6_trace(ev) -> pd.DataFrame:
    rec = ev.records("vidaurre2012_fig6")
    return rec[rec["metric"] == "artefact:trace"].sort_values(["repetition", "step"])


def early_stopping(ev) -> Verdict:
    """Fig. 6's paths: the minimum test error after the standstill of the training error is not
    significantly below the one up to it (shared "as good as", paired by repetition)."""
    rows, after_count = [], 0
    for rep, g in _fig6_trace(ev).groupby("repetition"):
        still = g.loc[g["train_error"] == g["train_error"].min(), "step"].iloc[0]
        first_min = g.loc[g["test_error"] == g["test_error"].min(), "step"].iloc[0]
        after_count += int(first_min > still)
        before, after = g[g["step"] <= still], g[g["step"] > still]
        if after.empty:
            continue
        rows.append({"method": "up to", "repetition": rep, "value": before["test_error"].min()})
        rows.append({"method": "after", "repetition": rep, "value": after["test_error"].min()})
    rec = _as_records(pd.DataFrame(rows).assign(dataset="fig6", fold=0), "test_error")
    v = _not_worse(rec, "up to", "after", "test_error")
    n = rec["repetition"].nunique()
    return Verdict(
        v.verdict,
        f"minimum test error first reached after the standstill in {after_count}/{n} runs; "
        f"least test error {v.evidence}",
    )


def aic_vs_test(ev, margin=0.01) -> Verdict:
    """Fig. 6: the AIC-selected model's test error is nearly the same as the path's least test
    error: practical equivalence of the per-repetition differences within ± ``margin``."""
    rec = ev.records("vidaurre2012_fig6")
    rec = rec[(rec["split"] == "test") & rec["metric"].isin(["error", "path_min_error"])].copy()
    rec["method"] = rec["metric"].map({"error": "AIC", "path_min_error": "least test error"})
    rec["metric"], rec["dataset"] = "error", "fig6"
    model = ev.records("vidaurre2012_fig6")
    steps = model[model["metric"].isin(["aic_step", "test_min_step"])].pivot_table(
        index="repetition", columns="metric", values="value"
    )
    rec["fold"] = rec["fold"].fillna(0) if "fold" in rec else 0
    v = _equivalent(rec, "AIC", "least test error", "error", margin, ["fig6"])
    diff = (steps["aic_step"] - steps["test_min_step"]).abs()
    return Verdict(v.verdict, f"{v.evidence}; |AIC step − test step| median {diff.median():.0f}")
