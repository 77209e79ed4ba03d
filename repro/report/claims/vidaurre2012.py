"""Claim rules of Vidaurre, Bielza, Larrañaga (2012), "Forward stagewise naive Bayes", read from
the committed records of the ``vidaurre2012_*`` experiments (``experiments/vidaurre2012/
claims.yaml``).

Every comparison is one of the shared rules of :mod:`repro.report.claims.evidence` ("better",
"as good as", "the best"; per data set the paired t-test over the repetitions of Table 1 or the
folds of Table 2, over ≥ 6 data sets the Wilcoxon test). This module adds:

- **Several parts.** A sentence that states several comparisons is decided part by part; it
  holds when every part holds, does not hold when every part does not hold, and is partly true
  otherwise. The evidence names each part and its verdict.
- **Derived quantities.** A per-run number that is not a test metric — the selected and the
  selected fully noisy (V3, ``noise*``) predictors (:func:`repro.report.figures.
  vidaurre2012_tables.per_run`), the fit time, fsNB's model evaluations, a figure's error at a
  point of its grid — is written as a test record of its run and compared by the same rules.
- **Contrasts of worlds.** "X is more harmful than Y" compares one method's runs on two worlds,
  the worlds relabelled as methods and paired by repetition (Table 1's scenarios of one
  repetition share their labels and first ten columns; the worlds of Figs 1–2 share y, X1..X3).
- **Similar** ("not very different", "very similar", "nearly the same", "similar for all"): on
  each data set (each one part), the shared "as good as" in both directions, i.e. no
  significant difference by the paired t-test.
- **Most frequent class** (§7.2): a pseudo-method with the majority rule's error on every fold,
  compared by the same rules ("similar to NB"; "not greatly improved" = no method better).
- **Does not excel** on a data set: the negation of "the best" there (holds when "the best"
  does not hold, does not hold when it holds, partly when it is partly true).
- **Closer to a reference:** per run, |error − the reference's error| (the reference: the mean of
  NB's and WNB's errors in that run), lower is better.
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
from repro.report.claims.engine import Verdict
from repro.report.figures.vidaurre2012_tables import per_run
from repro.stats.agreement import mean_with_sd

TABLE1 = "vidaurre2012_table1"
TABLE2 = "vidaurre2012_table2"
#: the paper's six methods (its NB and SNB: the maximum-likelihood nb_ml and snb_ml); the variant
#: rows of Tables 1-2 (fsnb_p1, MODL nb, snb_acc) decide no claim
METHODS = ("nb_ml", "snb_ml", "wnb", "al1l2_nb", "fsnb", "cfs_nb")
IRRELEVANT = {"DI": "DR", "CI": "CR"}  # irrelevant scenario -> its redundant twin
RECORD_KEYS = ["method", "dataset", "repetition", "fold"]


# --------------------------------------------------------------------------- helpers


def _short(c: evidence.Comparison) -> str:
    p = "" if np.isnan(c.p_wilcoxon) else f", Wilcoxon p {c.p_wilcoxon:.3g}"
    return f"{c.a} {c.mean_a:.4g} vs {c.b} {c.mean_b:.4g} (W/L {c.wins}/{c.losses}{p})"


def _better(rec, a, b, metric, hib=False, datasets=None) -> Verdict:
    c = evidence.compare(rec, a, b, metric, hib, datasets)
    return Verdict(evidence.better_verdict(c), _short(c))


def _not_worse(rec, a, b, metric, hib=False, datasets=None) -> Verdict:
    c = evidence.compare(rec, a, b, metric, hib, datasets)
    return Verdict(evidence.not_worse_verdict(c), _short(c))


def _best(rec, a, others, metric, hib=False, datasets=None) -> Verdict:
    verdict = evidence.best(rec, a, list(others), metric, hib, datasets).verdict
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


def comparisons(ev, experiments, parts, metric="error", higher_is_better=False) -> Verdict:
    """Parts ``[label, kind, a, b_or_others, datasets]``, kind ∈ better / not_worse / best /
    not_best / similar, on ``metric`` (error, n_selected, n_noisy_selected, fit_time)."""
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


def most_frequent_class(ev, dataset, majority_error) -> Verdict:
    """§7.2, π = (1/4, 3/4): the most-frequent-class rule (error ``majority_error`` on every
    fold) is similar to NB and no method is significantly better than it."""
    rec = _runs(ev, [TABLE2], "error")
    rec = rec[rec["dataset"] == dataset]
    base = rec[rec["method"] == "nb_ml"].assign(method="most_frequent", value=majority_error)
    rec = pd.concat([rec, base], ignore_index=True)
    parts = [("similar to NB", _similar(rec, "most_frequent", "nb_ml", "error", dataset))]
    for m in METHODS:
        parts.append((f"not beaten by {m}", _not_worse(rec, "most_frequent", m, "error")))
    return _combine(parts)


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


def cost_similar(ev, method="fsnb") -> Verdict:
    """§7.1: fsNB's evaluations per run are similar on every pair of Table 1's scenarios."""
    rec = _model_metric(ev, [TABLE1], "n_evaluations")
    rec = rec[rec["method"] == method].assign(method=lambda f: f["dataset"], dataset="Table 1")
    names = sorted(rec["method"].unique())
    parts = [
        (f"{a}~{b}", _similar(rec, a, b, "n_evaluations", "Table 1"))
        for i, a in enumerate(names)
        for b in names[i + 1 :]
    ]
    return _combine(parts)


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


def aic_vs_test(ev) -> Verdict:
    """Fig. 6: the AIC-selected model's test error is similar to the path's least test error."""
    rec = ev.records("vidaurre2012_fig6")
    rec = rec[(rec["split"] == "test") & rec["metric"].isin(["error", "path_min_error"])].copy()
    rec["method"] = rec["metric"].map({"error": "AIC", "path_min_error": "least test error"})
    rec["metric"], rec["dataset"] = "error", "fig6"
    model = ev.records("vidaurre2012_fig6")
    steps = model[model["metric"].isin(["aic_step", "test_min_step"])].pivot_table(
        index="repetition", columns="metric", values="value"
    )
    v = _similar(rec, "AIC", "least test error", "error", "fig6")
    diff = (steps["aic_step"] - steps["test_min_step"]).abs()
    return Verdict(v.verdict, f"{v.evidence}; |AIC step − test step| median {diff.median():.0f}")
