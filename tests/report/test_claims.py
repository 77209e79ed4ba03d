"""Claims as data, verdicts as code (repro.report.claims): the engine on hand-made records with
known answers, and every committed claims.yaml — each quote is the paper's own words, each rule
exists and decides from the committed records."""

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from repro.report.claims import engine, evidence

ROOT = Path(__file__).resolve().parents[2]
PAPERS = ROOT.parent / "shared" / "papers"
CLAIM_FILES = engine.claim_files(ROOT / "experiments")


def records(values: dict[str, list[list[float]]], metric="accuracy") -> pd.DataFrame:
    """Tidy test records: method → per data set → per fold values."""
    rows = []
    for method, per_dataset in values.items():
        for d, folds in enumerate(per_dataset):
            for f, v in enumerate(folds):
                rows.append(
                    {"method": method, "dataset": f"d{d}", "repetition": 0, "fold": f,
                     "split": "test", "metric": metric, "value": v}
                )  # fmt: skip
    return pd.DataFrame(rows)


def shifted(base: float, shift: float, n_datasets: int):
    noise = np.array([0.01, -0.01, 0.02, -0.02, 0.0])
    return [list(base + d * 0.01 + shift + noise) for d in range(n_datasets)]


def test_better_over_six_data_sets_uses_wilcoxon():
    # a is 0.05 above b on every fold of 6 data sets: exact two-sided Wilcoxon p = 2/2^6
    r = records({"a": shifted(0.80, 0.05, 6), "b": shifted(0.80, 0.0, 6)})
    c = evidence.compare(r, "a", "b", "accuracy")
    assert c.p_wilcoxon == pytest.approx(2 / 64)
    assert (c.wins, c.losses, c.n_datasets) == (6, 0, 6)
    assert evidence.better_verdict(c) == "holds"
    assert evidence.better(r, "b", "a", "accuracy").verdict == "does not hold"
    assert evidence.not_worse(r, "a", "b", "accuracy").verdict == "holds"
    assert evidence.not_worse(r, "b", "a", "accuracy").verdict == "does not hold"
    # lower is better: the same numbers read as errors reverse the verdict
    assert evidence.better(r, "a", "b", "accuracy", higher_is_better=False).verdict == (
        "does not hold"
    )


def test_better_over_few_data_sets_uses_the_folds():
    # 5 data sets: Wilcoxon cannot reach 0.05 (its smallest p is 2/32); wins on all five hold
    r = records({"a": shifted(0.80, 0.05, 5), "b": shifted(0.80, 0.0, 5)})
    c = evidence.compare(r, "a", "b", "accuracy")
    assert np.isnan(c.p_wilcoxon) and c.wins == 5
    assert evidence.better_verdict(c) == "holds"
    # one data set where a is only one instance ahead on one fold: a tie, not a win
    tiny = records({"a": [[0.80, 0.81, 0.80, 0.80, 0.80]], "b": [[0.80] * 5]})
    c = evidence.compare(tiny, "a", "b", "accuracy")
    assert (c.wins, c.losses) == (0, 0)
    assert evidence.better_verdict(c) == "does not hold"
    assert evidence.not_worse_verdict(c) == "holds"


def test_best_needs_every_comparison():
    r = records(
        {"a": shifted(0.80, 0.05, 6), "b": shifted(0.80, 0.0, 6), "c": shifted(0.80, 0.049, 6)}
    )
    v = evidence.best(r, "a", ["b", "c"], "accuracy")
    # a is ahead of c by 0.001 on every fold: significant, so a is the best of the three
    assert v.verdict == "holds" and "best mean: a" in v.evidence
    assert evidence.best(r, "c", ["a", "b"], "accuracy").verdict == "does not hold"


def test_read_claims_refuses_bad_files(tmp_path):
    path = tmp_path / "claims.yaml"
    path.write_text("paper: x\nclaims:\n  - {id: a, section: '§1', quote: q}\n")
    with pytest.raises(ValueError, match="no rule and no note"):
        engine.read_claims(path)
    path.write_text(
        "paper: x\nclaims:\n  - {id: a, section: '§1', quote: q, note: n}\n"
        "  - {id: a, section: '§1', quote: q, note: n}\n"
    )
    with pytest.raises(ValueError, match="used twice"):
        engine.read_claims(path)
    path.write_text("paper: x\nclaims:\n  - {id: a, section: '§1', quote: q, note: n, data: x}\n")
    with pytest.raises(ValueError, match="data 'x'"):
        engine.read_claims(path)


def test_missing_records_make_a_claim_not_testable(tmp_path, monkeypatch):
    def rule(ev, metric):
        return evidence.better(ev.records("never_run"), "a", "b", metric)

    monkeypatch.setattr(engine, "rule_function", lambda paper, name: rule)
    claim = engine.Claim("p", "x", "§7", "q", "never_run", "rule", {"metric": "accuracy"})
    verdict = engine.decide(claim, engine.Evidence(tmp_path))
    assert verdict.verdict == "not testable" and "no records of never_run" in verdict.evidence
    # a claim without a rule is not testable, for the reason its note gives
    claim = engine.Claim("p", "y", "§7", "q", note="the paper's data are not public")
    assert engine.decide(claim, engine.Evidence(tmp_path)) == engine.Verdict(
        "not testable", "the paper's data are not public"
    )


def normalise(text: str) -> str:
    """Whitespace folded; a word broken by a hyphen at a line end joined (the PDF's layout)."""
    return " ".join(re.sub(r"-\s*\n\s*", "-", text).split())


@pytest.mark.parametrize("path", CLAIM_FILES, ids=lambda p: p.parent.name)
def test_every_quote_is_the_papers_own_words(path):
    if not PAPERS.is_dir():
        pytest.skip(f"the papers' texts are not here ({PAPERS})")
    missing = []
    for c in engine.read_claims(path):
        # a paper's own claims file names the paper; nb_benchmark's quotes five papers, each
        # claim id starting with the paper it quotes
        paper = c.paper if any(PAPERS.glob(f"{c.paper}_*.txt")) else c.claim_id.split("_")[0]
        (text_file,) = PAPERS.glob(f"{paper}_*.txt")
        if normalise(c.quote) not in normalise(text_file.read_text()):
            missing.append(f"{c.claim_id} ({text_file.name})")
    assert not missing, f"quotes not found verbatim: {missing}"


@pytest.mark.parametrize("path", CLAIM_FILES, ids=lambda p: p.parent.name)
def test_every_claim_names_a_rule_and_an_experiment_that_exist(path):
    """Every rule is a function of the paper's module, every experiment a config; the verdicts
    themselves are recomputed from the committed records by tests/report/test_dashboard.py
    (``test_committed_claims_table_is_up_to_date``)."""
    experiments = {p.stem for p in (ROOT / "conf" / "experiment").glob("*.yaml")}
    for claim in engine.read_claims(path):
        if claim.rule:
            engine.rule_function(claim.paper, claim.rule)  # exists
            assert claim.experiment in experiments, claim.claim_id
        else:
            assert claim.note, claim.claim_id


def test_the_committed_claims_table_holds_every_claim_once_with_its_verdict():
    table = pd.read_csv(ROOT / "results" / "claims.csv", keep_default_na=False)
    assert list(table.columns) == engine.COLUMNS
    claims = [c for path in CLAIM_FILES for c in engine.read_claims(path)]
    assert sorted(zip(table["paper"], table["claim_id"])) == sorted(
        (c.paper, c.claim_id) for c in claims
    )
    assert set(table["verdict"]) <= set(engine.VERDICTS)
    assert not table["evidence"].str.contains("no records of").any()  # every record committed


def test_conjunction_and_similar():
    assert evidence.conjunction(["holds", "holds"]) == "holds"
    assert evidence.conjunction(["does not hold", "does not hold"]) == "does not hold"
    assert evidence.conjunction(["holds", "does not hold"]) == "partly"
    assert evidence.conjunction(["holds", "not testable"]) == "holds"
    assert evidence.conjunction(["not testable"]) == "not testable"
    # "partly" only when some stated part holds and another fails (or every part is partly)
    assert evidence.conjunction(["partly", "does not hold"]) == "does not hold"
    assert evidence.conjunction(["partly", "partly"]) == "partly"
    assert evidence.conjunction(["holds", "partly", "does not hold"]) == "partly"
    r = records({"a": shifted(0.80, 0.05, 6), "b": shifted(0.80, 0.0, 6)})
    c = evidence.compare(r, "a", "b", "accuracy")
    assert evidence.similar_verdict(c) == "does not hold"  # a is significantly better
    same = records({"a": shifted(0.80, 0.0, 6), "b": shifted(0.80, 0.0, 6)})
    assert evidence.similar_verdict(evidence.compare(same, "a", "b", "accuracy")) == "holds"


# --------------------------------------------------------------------------------------------
# the rules of the equivalence, strict-quantifier and published-number readings, on hand-built
# frames with known answers
# --------------------------------------------------------------------------------------------
B_FOLDS = [0.70, 0.72, 0.74]


def constant(deltas, base=B_FOLDS):
    """Per data set, ``base`` shifted by a constant (a paired t with p = 0: a significant win /
    loss; no shift: a tie)."""
    return [[v + d for v in base] for d in deltas]


def test_equivalent_on_differences_inside_and_outside_the_margin():
    # a − b = 0.002, 0.004, 0.002, 0.004: mean 0.003, sd 0.0011547, se 0.00057735,
    # t(0.95, 3) = 2.35336: 90% CI [0.001641, 0.004359]
    r = records({"a": constant([0.002, 0.004, 0.002, 0.004]), "b": [B_FOLDS] * 4})
    v = evidence.equivalent(r, "a", "b", "accuracy", 0.01)
    assert v.verdict == "holds" and "[+0.001641, +0.004359]" in v.evidence
    assert evidence.equivalent(r, "a", "b", "accuracy", 0.004).verdict == "does not hold"
    # ratios: a / b − 1 = the same shifts over b's mean 0.72
    ratio = evidence.equivalent(r, "a", "b", "accuracy", 0.01, scale="ratio")
    assert ratio.verdict == "holds" and "a/b − 1" in ratio.evidence
    with pytest.raises(ValueError, match="scale"):
        evidence.equivalent(r, "a", "b", "accuracy", 0.01, scale="log")


def test_equivalence_ci_from_a_mean_and_its_standard_error():
    # 0.001 ± t(0.95, 9) 1.83311 × 0.002 = [-0.002666, +0.004666]
    v, text = evidence.equivalence_ci(0.001, 0.002, 9, 0.01, over="(one split)")
    assert v == "holds" and "[-0.002666, +0.004666]" in text and "(one split)" in text
    assert evidence.equivalence_ci(0.001, 0.002, 9, 0.004)[0] == "does not hold"
    assert "different" in evidence.equivalence_ci(0.05, 0.002, 9, 0.01)[1]


def test_boulle2007_comparisons_equivalent_kind_needs_its_margin():
    from repro.report.papers.boulle2007 import claims as boulle2007

    r = records({"snb_map": constant([0.002, 0.004, 0.002, 0.004]), "nb": [B_FOLDS] * 4})
    ev = engine.Evidence("/nonexistent", cache={"t": r})
    parts = [["equivalent", "snb_map", "nb", "accuracy"]]
    v = boulle2007.comparisons(ev, "t", parts, margins={"accuracy": 0.01})
    assert v.verdict == "holds" and "[+0.001641, +0.004359]" in v.evidence
    assert boulle2007.comparisons(ev, "t", parts, margins={"accuracy": 0.004}).verdict == (
        "does not hold"
    )
    with pytest.raises(ValueError, match="margin"):
        boulle2007.comparisons(ev, "t", parts)


def emphasis_records(acc_shifts, auc_shifts):
    acc = records({"snb_acc": constant(acc_shifts), "snb_auc": [B_FOLDS] * len(acc_shifts)})
    auc = records({"snb_acc": constant(auc_shifts), "snb_auc": [B_FOLDS] * len(auc_shifts)})
    return pd.concat([acc, auc.assign(metric="auc")], ignore_index=True)


@pytest.mark.parametrize(
    "acc_shifts, auc_shifts, expected",
    [
        # 6 data sets, e_d = 0.01 … 0.06 > 0: exact Wilcoxon p = 2/64: holds
        ([0.01, 0.02, 0.03, 0.04, 0.05, 0.06], [0.0] * 6, "holds"),
        # e = 0.06, 0.05, -0.04, 0.03, -0.02, 0.01: mean +0.015, W = 6, p = 28/64: partly
        ([0.06, 0.05, 0.0, 0.03, 0.0, 0.01], [0.0, 0.0, 0.04, 0.0, 0.02, 0.0], "partly"),
        # the mirror: mean −0.015: does not hold
        ([0.0, 0.0, 0.04, 0.0, 0.02, 0.0], [0.06, 0.05, 0.0, 0.03, 0.0, 0.01], "does not hold"),
        # fewer than 6 data sets: every e_d > 0, else does not hold
        ([0.01, 0.02, 0.01], [0.0, 0.0, 0.0], "holds"),
        ([0.01, 0.02, 0.0], [0.0, 0.0, 0.01], "does not hold"),
    ],
)
def test_boulle2007_emphasis(acc_shifts, auc_shifts, expected):
    from repro.report.papers.boulle2007 import claims as boulle2007

    ev = engine.Evidence("/nonexistent", cache={"t": emphasis_records(acc_shifts, auc_shifts)})
    v = boulle2007.emphasis(ev, "t", "snb_acc", "snb_auc", "accuracy", "auc")
    assert v.verdict == expected, v.evidence


def test_boulle2007_weight_values_and_strict_weights_around(monkeypatch):
    from repro.report.papers.boulle2007 import claims as boulle2007
    from repro.report.papers.boulle2007 import claims_waveform as boulle2007_waveform

    w = pd.Series({"V1": 0.15, "V2": 0.5, "V3": 0.52, "V4": 0.61})
    monkeypatch.setattr(boulle2007_waveform, "weights", lambda ev, method, *a, **k: w)
    ev = engine.Evidence("/nonexistent", cache={"x": pd.DataFrame()})
    assert boulle2007.weight_values(ev, "x", "snb_bma", {"V1": 0.15}).verdict == "holds"
    assert boulle2007.weight_values(ev, "x", "snb_bma", {"V1": 0.15, "V2": 0.3}).verdict == (
        "partly"
    )
    assert boulle2007.weight_values(ev, "x", "snb_bma", {"V1": 0.2}).verdict == "does not hold"
    # "all the variables with weights around 0.5": V1 0.15 and V4 0.61 round elsewhere
    assert boulle2007.weights_around(ev, "x", "snb_cma", 0.5).verdict == "does not hold"
    monkeypatch.setattr(boulle2007_waveform, "weights", lambda ev, method, *a, **k: w.iloc[1:3])
    assert boulle2007.weights_around(ev, "x", "snb_cma", 0.5).verdict == "holds"


def test_boulle2007_never_worse_constructed_allows_no_counter_case(monkeypatch):
    from repro.report.papers.boulle2007 import claims as boulle2007

    # SE 0.01 each: a difference is significant beyond 1.96 √2 × 0.01 = 0.0277
    idx = pd.MultiIndex.from_tuples(
        [("d1", "original"), ("d1", "c"), ("d2", "original"), ("d2", "c"), ("d3", "original"),
         ("d3", "c")]
    )  # fmt: skip
    t = pd.DataFrame({"test": [0.10, 0.05, 0.10, 0.10, 0.10, 0.16], "se": [0.01] * 6}, index=idx)
    monkeypatch.setattr(boulle2007, "units", lambda ev, experiment, metric: t)
    v = boulle2007.never_worse_constructed(None, "x", ["c"], "ber")
    assert v.verdict == "does not hold" and "higher 1 (d3 c)" in v.evidence  # 1 of 3: was partly
    t.loc[("d3", "c"), "test"] = 0.12
    assert boulle2007.never_worse_constructed(None, "x", ["c"], "ber").verdict == "holds"


def aggregate_frame(means, ranks, wins, losses, metric="accuracy"):
    rows = [
        {"method": m, "dataset": "mean", "metric": metric, "value": x} for m, x in means.items()
    ]
    rows += [
        {"method": m, "dataset": "rank", "metric": metric, "value": x} for m, x in ranks.items()
    ]
    rows += [
        {"method": m, "dataset": "wins", "metric": metric, "value": x} for m, x in wins.items()
    ]
    rows += [{"method": m, "dataset": "losses", "metric": metric, "value": x}
             for m, x in losses.items()]  # fmt: skip
    return pd.DataFrame(rows).assign(source="published", split="test", fold=0, repetition=0)


@pytest.mark.parametrize(
    "means, ranks, wins, losses, expected",
    [
        # the same best (r), the same order: holds
        ({"r": 0.9, "x": 0.8, "y": 0.7}, {"r": 1.0, "x": 2.0, "y": 3.0}, {"x": 3, "y": 5},
         {"x": 1, "y": 0}, "holds"),
        # the best mean is not the best rank: one of two: partly
        ({"r": 0.9, "x": 0.8, "y": 0.7}, {"r": 2.0, "x": 1.0, "y": 3.0}, {"x": 3, "y": 5},
         {"x": 1, "y": 0}, "partly"),
        # the reference loses more than it wins to y, and W−L orders x, y against the means
        ({"r": 0.9, "x": 0.8, "y": 0.7}, {"r": 2.0, "x": 1.0, "y": 3.0}, {"x": 5, "y": 0},
         {"x": 0, "y": 2}, "does not hold"),
    ],
)  # fmt: skip
def test_boulle2007_aggregates_consistent(means, ranks, wins, losses, expected):
    from repro.report.papers.boulle2007 import claims as boulle2007

    ev = engine.Evidence("/nonexistent", cache={"t": aggregate_frame(means, ranks, wins, losses)})
    v = boulle2007.aggregates_consistent(ev, "t", "r", ["accuracy"])
    assert v.verdict == expected, v.evidence


def test_boulle2007_wins_vs_paper_majority(monkeypatch):
    from repro.report.papers.boulle2007 import claims as boulle2007

    # 2 others × 1 criterion × 10 data sets = 20 comparisons; published 10 wins / 1 loss
    def totals(wins, losses):
        return lambda *a, **k: {"accuracy": (wins, losses, 10)}

    monkeypatch.setattr(boulle2007, "win_totals", totals(11, 1))
    v = boulle2007.wins_vs_paper(None, "x", "r", ["a", "b"], ["accuracy"], 10, 1)
    assert v.verdict == "holds" and "11 of 20 comparisons" in v.evidence  # 11 > 10
    monkeypatch.setattr(boulle2007, "win_totals", totals(10, 1))
    assert boulle2007.wins_vs_paper(None, "x", "r", ["a", "b"], ["accuracy"], 10, 1).verdict == (
        "partly"  # the share of wins agrees; 10 of 20 is not a majority
    )


def hue_frame(values: dict[str, list[list[float]]], quantity: str) -> pd.DataFrame:
    return records(values).assign(metric=quantity, n_features=10)


def test_hue2024_equivalent_never_below_and_max_ratio(monkeypatch):
    from repro.report.papers.hue2024 import claims as hue2024

    # criterion ratios a/b − 1 = +0.2%, +0.4%, +0.2%, +0.4% of b's mean 100
    base = [99.0, 100.0, 101.0]
    crit = hue_frame({"a": constant([0.2, 0.4, 0.2, 0.4], base), "b": [base] * 4}, "criterion")
    monkeypatch.setattr(hue2024, "tidy", lambda ev: crit)
    v = hue2024.equivalent(None, "a", "b", "criterion", 0.01)
    assert v.verdict == "holds" and "[+0.001641, +0.004359]" in v.evidence
    assert hue2024.equivalent(None, "a", "b", "criterion", 0.004).verdict == "does not hold"
    # a above b (significantly) or equal on every data set: never below holds ...
    assert hue2024.never_below(None, "a", "b", "criterion").verdict == "holds"
    # ... one significant counter-case is enough to fail
    low = hue_frame({"a": constant([0.5, 0.0, -0.5], base), "b": [base] * 3}, "criterion")
    monkeypatch.setattr(hue2024, "tidy", lambda ev: low)
    v = hue2024.never_below(None, "a", "b", "criterion")
    assert v.verdict == "does not hold" and "significantly below b on 1" in v.evidence
    # up to 10: the largest ratio ≥ 10 / 1.5 = 6.67
    for top, expected in [(7.0, "holds"), (6.0, "does not hold")]:
        times = hue_frame({"a": [[2.0], [top], [3.0]], "b": [[1.0]] * 3}, "time")
        monkeypatch.setattr(hue2024, "tidy", lambda ev, t=times: t)
        v = hue2024.max_ratio(None, "a", "b", reach=10.0)
        assert v.verdict == expected and "our implementation" in v.evidence


@pytest.mark.parametrize(
    "k, n, quantifier, expected",
    [(3, 3, "all", "holds"), (2, 3, "all", "does not hold"), (2, 3, "most", "holds"),
     (3, 6, "most", "does not hold"), (19, 29, "most", "holds")],
)  # fmt: skip
def test_hue2024_strict_quantifiers(k, n, quantifier, expected):
    from repro.report.papers.hue2024 import claims as hue2024

    assert hue2024.quantifier_verdict(k, n, quantifier) == expected


def test_nb_benchmark_never_usually_and_almost_the_same(monkeypatch):
    from repro.report.papers.nb_benchmark import claims as nb_benchmark

    six = [B_FOLDS] * 6
    acc = records(
        {"a": six, "b1": constant([-0.01] * 6), "b2": constant([0.01, 0, 0, 0, 0, 0]),
         "b3": constant([-0.01, -0.01, -0.01, -0.01, 0.01, 0.01]),
         "b4": constant([-0.01, -0.01, -0.01, 0.01, 0.01, 0.01])}
    )  # fmt: skip
    size = records({"a": constant([-5] * 6, [10, 10, 10]), "b1": [[10, 10, 10]] * 6})
    frames = {"accuracy": acc, "auc": acc.assign(metric="auc"),
              "n_selected": size.assign(metric="n_selected")}  # fmt: skip
    monkeypatch.setattr(nb_benchmark, "records_of", lambda ev, metric: frames[metric])
    # "never": b1 never beats a; b2 beats it significantly on one data set of six
    assert nb_benchmark.never_worse(None, "a", ["b1"]).verdict == "holds"
    assert nb_benchmark.never_worse(None, "a", ["b1", "b2"]).verdict == "does not hold"
    # "usually": a ahead of b3 on 4 of 6 (> 3), of b4 on 3 of 6 (not a majority)
    assert nb_benchmark.improves(None, "a", ["b3"]).verdict == "holds"
    assert nb_benchmark.improves(None, "a", ["b4"]).verdict == "does not hold"
    # "almost the same" AUC: a − b1 = +0.01 everywhere (se 0): inside ±0.02, not inside ±0.005
    v = nb_benchmark.alike_and_smaller(None, "a", ["b1"], margin=0.02)
    assert v.verdict == "holds", v.evidence
    assert nb_benchmark.alike_and_smaller(None, "a", ["b1"], margin=0.005).verdict == "partly"


@pytest.mark.parametrize(
    "b_shifts, always, almost, expected",
    [
        # b never significantly better than a: "always" holds
        ([-0.01, -0.01, 0.0, -0.01], ["accuracy"], [], "holds"),
        # b significantly better on one data set of four: not "always" ...
        ([0.01, -0.01, 0.0, -0.01], ["accuracy"], [], "does not hold"),
        # ... but "almost always" (1 of 4 < half)
        ([0.01, -0.01, 0.0, -0.01], [], ["accuracy"], "holds"),
        # 2 of 4 is not fewer than half
        ([0.01, 0.01, 0.0, -0.01], [], ["accuracy"], "does not hold"),
    ],
)
def test_boulle2007_best_on_every_dataset_no_significant_counter_case(
    b_shifts, always, almost, expected
):
    from repro.report.papers.boulle2007 import claims as boulle2007

    r = records({"snb_cma": [B_FOLDS] * 4, "b": constant(b_shifts)})
    ev = engine.Evidence("/nonexistent", cache={"t": r})
    v = boulle2007.best_on_every_dataset(ev, "t", "snb_cma", ["b"], always, almost)
    assert v.verdict == expected, v.evidence
