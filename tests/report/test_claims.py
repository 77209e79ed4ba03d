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
    r = records({"a": shifted(0.80, 0.05, 6), "b": shifted(0.80, 0.0, 6)})
    c = evidence.compare(r, "a", "b", "accuracy")
    assert evidence.similar_verdict(c) == "does not hold"  # a is significantly better
    same = records({"a": shifted(0.80, 0.0, 6), "b": shifted(0.80, 0.0, 6)})
    assert evidence.similar_verdict(evidence.compare(same, "a", "b", "accuracy")) == "holds"
