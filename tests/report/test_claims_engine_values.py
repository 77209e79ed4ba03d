"""The claims engine (repro.report.claims.engine) and the shared evidence rules
(repro.report.claims.evidence) on tiny hand-built claim files and record frames whose verdicts are
derived by hand from the rules' documented definitions (the modules' docstrings).

Record frames are built so that every number is known without running a statistics routine:
a method's folds on a data set are another's plus one constant shift (the paired t-test over folds
is then exact: p = 0, a significant win or loss; repro.stats.tests._paired_t's documented limit),
or plus a spread whose t statistic is far below the 5 % critical value of Student's t with 2
degrees of freedom (4.30: a tie). Wilcoxon p-values over data sets are the exact two-sided ones
of the signed-rank distribution, counted by hand: with n distinct non-zero differences,
p = 2 · #{subsets of {1..n} with rank sum <= W} / 2^n (W the smaller rank sum).
"""

import math
import sys
import types

import numpy as np
import pandas as pd
import pytest

from repro.report.claims import engine, evidence
from repro.report.claims.engine import Claim, Evidence, NoRecords, Verdict
from repro.report.claims.evidence import Comparison

B_FOLDS = [0.70, 0.72, 0.74]  # b's three folds on every data set: mean 0.72


def records(folds: dict[str, list[list[float]]], split="test", metric="accuracy") -> pd.DataFrame:
    """Tidy records: method -> one list of fold values per data set (d0, d1, ...)."""
    rows = [
        {"method": method, "dataset": f"d{d}", "repetition": 0, "fold": f, "split": split,
         "metric": metric, "value": v}
        for method, per_dataset in folds.items()
        for d, values in enumerate(per_dataset)
        for f, v in enumerate(values)
    ]  # fmt: skip
    return pd.DataFrame(rows)


def shifted(deltas) -> list[list[float]]:
    """b's folds plus a constant shift per data set: a paired t-test with p = 0 on each."""
    return [[v + d for v in B_FOLDS] for d in deltas]


def pair(deltas, extra=None) -> pd.DataFrame:
    """a = b + deltas[d] on data set d, b = B_FOLDS everywhere."""
    r = records({"a": shifted(deltas), "b": [B_FOLDS] * len(deltas)})
    return r if extra is None else pd.concat([r, extra], ignore_index=True)


def comparison(n, wins, losses, p, a_ahead, mean_a=0.8, mean_b=0.7, a="a", b="b", metric="m"):
    return Comparison(a, b, metric, n, wins, losses, mean_a, mean_b, p, a_ahead)


MIRROR = {"holds": "does not hold", "partly": "partly", "does not hold": "holds"}


# --------------------------------------------------------------------------------------------
# engine: the constants, Verdict, Claim, Evidence
# --------------------------------------------------------------------------------------------


def test_the_documented_verdicts_data_kinds_and_columns():
    # engine's docstring and the claims table's header (results/claims.csv)
    assert engine.VERDICTS == ("holds", "partly", "does not hold", "not testable")
    assert engine.DATA == ("paper", "stand-in")
    assert engine.COLUMNS == [
        "paper", "experiment", "claim_id", "section", "quote", "verdict", "evidence", "data",
    ]  # fmt: skip
    for v in ("holds", "partly", "does not hold", "not testable"):
        assert Verdict(v, "e").verdict == v
    with pytest.raises(ValueError, match=r"verdict must be one of .*got 'hold'"):
        Verdict("hold", "e")
    assert issubclass(NoRecords, LookupError)


def test_a_claim_defaults_to_no_experiment_no_rule_paper_data():
    c = Claim("p", "x", "§1", "q")
    assert (c.experiment, c.rule, c.params, c.data, c.note) == (None, None, {}, "paper", "")
    assert Claim("p", "y", "§1", "q").params is not c.params  # a fresh dict per claim


def test_evidence_reads_a_folder_once_and_caches_it(tmp_path):
    frame = records({"a": [[0.5, 0.6]]})
    (tmp_path / "exp" / "sub").mkdir(parents=True)
    file = tmp_path / "exp" / "sub" / "cell.parquet"
    frame.to_parquet(file, index=False)
    ev = Evidence(str(tmp_path))
    assert ev.results_dir == tmp_path
    pd.testing.assert_frame_equal(ev.records("exp"), frame)
    file.unlink()  # read once: the second call answers from the cache
    pd.testing.assert_frame_equal(ev.records("exp"), frame)
    # a fresh Evidence reads again, and the folder has no records any more
    with pytest.raises(NoRecords, match=f"no records of exp under {tmp_path}"):
        Evidence(tmp_path).records("exp")


def test_evidence_shares_the_cache_it_is_given(tmp_path):
    frame = records({"a": [[0.5]]})
    cache = {"given": frame, "absent": None}
    ev = Evidence(tmp_path, cache)
    assert ev.records("given") is frame  # no folder "given": answered from the cache
    with pytest.raises(NoRecords, match="no records of absent"):
        ev.records("absent")
    with pytest.raises(NoRecords, match="no records of never_run"):
        ev.records("never_run")
    assert "never_run" in cache and cache["never_run"] is None  # written into the shared dict
    (tmp_path / "never_run").mkdir()
    frame.to_parquet(tmp_path / "never_run" / "x.parquet", index=False)
    with pytest.raises(NoRecords):  # remembered as missing
        ev.records("never_run")
    # without a cache, every Evidence has its own
    e1, e2 = Evidence(tmp_path), Evidence(tmp_path)
    pd.testing.assert_frame_equal(e1.records("never_run"), frame)
    (tmp_path / "never_run" / "x.parquet").unlink()
    with pytest.raises(NoRecords):
        e2.records("never_run")


# --------------------------------------------------------------------------------------------
# engine: read_claims, rule_function, decide, claims_table, claim_files
# --------------------------------------------------------------------------------------------

FULL = """\
paper: 2012
claims:
  - id: 7
    section: "§7.1"
    quote: "A  quote
      over two lines"
    experiment: exp_one
    rule: some_rule
    params: {metric: error, k: 3}
    data: stand-in
    note: "what the rule reads"
  - id: second
    section: "§2"
    quote: q2
    note: not public
"""


def test_read_claims_reads_every_key(tmp_path):
    path = tmp_path / "claims.yaml"
    path.write_text(FULL)
    # numbers become text, the quote's whitespace is folded, absent keys take their defaults
    assert engine.read_claims(str(path)) == [
        Claim("2012", "7", "§7.1", "A quote over two lines", "exp_one", "some_rule",
              {"metric": "error", "k": 3}, "stand-in", "what the rule reads"),
        Claim("2012", "second", "§2", "q2", None, None, {}, "paper", "not public"),
    ]  # fmt: skip
    path.write_text("paper: x\nclaims:\n  - {id: a, section: s, quote: q, rule: r, params: null}\n")
    (c,) = engine.read_claims(path)
    assert (c.rule, c.params, c.note, c.data) == ("r", {}, "", "paper")
    path.write_text("paper: x\nclaims:\n")  # no claims: none
    assert engine.read_claims(path) == []
    path.write_text("paper: x\n")
    assert engine.read_claims(path) == []


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "the key 'paper' is missing"),
        ("claims: []\n", "the key 'paper' is missing"),
        ("paper: ''\n", "the key 'paper' is missing"),
        ("paper: x\nclaims:\n  - {id: a, section: s, quote: q, note: n, rul: r}\n",
         r"claim 'a' has unknown key\(s\) \{'rul'\}"),
        ("paper: x\nclaims:\n  - {section: s, quote: q, note: n}\n", "a claim has no 'id'"),
        ("paper: x\nclaims:\n  - {id: a, quote: q, note: n}\n", "a claim has no 'section'"),
        ("paper: x\nclaims:\n  - {id: a, section: s, note: n}\n", "a claim has no 'quote'"),
        ("paper: x\nclaims:\n  - {id: a, section: s, quote: '', note: n}\n",
         "a claim has no 'quote'"),
        ("paper: x\nclaims:\n  - {id: a, section: s, quote: q, note: n}\n"
         "  - {id: a, section: t, quote: r, note: n}\n", "claim id 'a' is used twice"),
        ("paper: x\nclaims:\n  - {id: a, section: s, quote: q, note: n, data: ours}\n",
         r"claim 'a' data 'ours'; valid: \('paper', 'stand-in'\)"),
        ("paper: x\nclaims:\n  - {id: a, section: s, quote: q, rule: ''}\n",
         "claim 'a' has no rule and no note saying why"),
    ],
)  # fmt: skip
def test_read_claims_refuses_each_bad_file(tmp_path, text, message):
    path = tmp_path / "claims.yaml"
    path.write_text(text)
    with pytest.raises(ValueError, match=f"^{path}: {message}"):
        engine.read_claims(path)


def test_read_claims_accepts_a_rule_without_a_note_and_both_data_kinds(tmp_path):
    path = tmp_path / "claims.yaml"
    path.write_text(
        "paper: x\nclaims:\n  - {id: a, section: s, quote: q, rule: r, data: paper}\n"
        "  - {id: b, section: s, quote: q, note: n, data: stand-in}\n"
    )
    assert [(c.claim_id, c.data) for c in engine.read_claims(path)] == [
        ("a", "paper"), ("b", "stand-in"),
    ]  # fmt: skip


def test_rule_function_is_the_named_function_of_the_papers_module():
    # a paper's rules are the functions of repro.report.papers.<paper>.claims
    from repro.report.papers.wu2015 import claims as wu2015

    assert engine.rule_function("wu2015", "never_worse") is wu2015.never_worse
    with pytest.raises(
        ValueError, match="claim rule 'nope' is not a function of repro.report.papers.wu2015.claims"
    ):
        engine.rule_function("wu2015", "nope")


@pytest.fixture
def paper(monkeypatch):
    """A paper's rule module, repro.report.papers.h4_paper.claims, with three rules."""
    module = types.ModuleType("repro.report.papers.h4_paper.claims")

    def echo(ev, metric, k=1):
        return Verdict("partly", f"{metric} {k} {ev.results_dir.name}")

    def count(ev):
        return Verdict("holds", f"{len(ev.records('e1'))} records")

    def needs(ev):
        return Verdict("holds", str(len(ev.records("never_run"))))

    def broken(ev):
        raise KeyError("a bug in a rule")

    for f in (echo, count, needs, broken):
        setattr(module, f.__name__, f)
    monkeypatch.setitem(sys.modules, module.__name__, module)
    return "h4_paper"


def test_decide_runs_the_rule_with_its_params(tmp_path, paper):
    ev = Evidence(tmp_path / "store")
    claim = Claim(paper, "x", "§1", "q", "e1", "echo", {"metric": "error", "k": 3})
    assert engine.decide(claim, ev) == Verdict("partly", "error 3 store")
    # the rule's missing records: not testable, with how to make them
    claim = Claim(paper, "y", "§1", "q", "never_run", "needs")
    assert engine.decide(claim, ev) == Verdict(
        "not testable",
        f"no records of never_run under {tmp_path / 'store'} (run: python -m repro experiment=...)",
    )
    # no rule: not testable for the note's reason (the rule is never looked up)
    claim = Claim("no_such_paper", "z", "§1", "q", note="the data are not public")
    assert engine.decide(claim, ev) == Verdict("not testable", "the data are not public")
    # any other error of a rule is a failure, not a verdict
    with pytest.raises(KeyError, match="a bug in a rule"):
        engine.decide(Claim(paper, "w", "§1", "q", "e1", "broken"), ev)


def test_claims_table_one_row_per_claim_and_the_experiments_filter(tmp_path, paper):
    one = tmp_path / "one.yaml"
    one.write_text(
        f"paper: {paper}\nclaims:\n"
        "  - {id: c1, section: '§1', quote: 'q  1', experiment: e1, rule: count}\n"
        "  - {id: c2, section: '§2', quote: q2, experiment: e2, rule: echo,"
        " params: {metric: auc}, data: stand-in}\n"
        "  - {id: c3, section: '§3', quote: q3, note: why not}\n"
    )
    two = tmp_path / "two.yaml"
    two.write_text(
        f"paper: {paper}\nclaims:\n  - {{id: c4, section: '§4', quote: q4, experiment: e3,"
        " rule: needs}\n"
    )
    cache = {"e1": records({"a": [[0.1, 0.2, 0.3]]})}  # 3 records of e1, read from the cache
    table = engine.claims_table([one, two], tmp_path / "res", records_cache=cache)
    missing = (
        f"no records of never_run under {tmp_path / 'res'} (run: python -m repro experiment=...)"
    )
    expected = pd.DataFrame(
        [
            [paper, "e1", "c1", "§1", "q 1", "holds", "3 records", "paper"],
            [paper, "e2", "c2", "§2", "q2", "partly", "auc 1 res", "stand-in"],
            [paper, "", "c3", "§3", "q3", "not testable", "why not", "paper"],
            [paper, "e3", "c4", "§4", "q4", "not testable", missing, "paper"],
        ],
        columns=engine.COLUMNS,
    )
    pd.testing.assert_frame_equal(table, expected)
    assert cache["never_run"] is None  # one Evidence on the given cache for the whole table
    # only the claims of e1 and e2, and the one no experiment decides
    table = engine.claims_table([one, two], tmp_path / "res", experiments=["e1", "e2"])
    assert table["claim_id"].tolist() == ["c1", "c2", "c3"]
    # no experiment at all: only the claim no experiment decides
    assert engine.claims_table([one, two], tmp_path, experiments=[])["claim_id"].tolist() == ["c3"]


def test_claims_table_of_no_file_is_an_empty_table_with_the_columns(tmp_path):
    table = engine.claims_table([], tmp_path)
    assert table.empty and list(table.columns) == engine.COLUMNS


def test_claim_files_are_the_papers_claims_in_paper_order(tmp_path):
    for rel in ("b/claims.yaml", "a/claims.yaml", "c/other.yaml", "d/e/claims.yaml"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("paper: x\n")
    (tmp_path / "claims.yaml").write_text("paper: x\n")
    assert engine.claim_files(str(tmp_path)) == [
        tmp_path / "a" / "claims.yaml", tmp_path / "b" / "claims.yaml",
    ]  # fmt: skip


# --------------------------------------------------------------------------------------------
# evidence: compare
# --------------------------------------------------------------------------------------------


def noise() -> pd.DataFrame:
    """Records compare must leave out: a's data set d6 without b, a's and b's train split and
    another metric, and a third method c (all far from the test values)."""
    return pd.concat(
        [
            records({"a": [[0.0] * 3]}).assign(dataset="d6"),
            records({"a": [[0.0] * 3], "b": [[1.0] * 3]}, split="train"),
            records({"a": [[0.0] * 3], "b": [[1.0] * 3]}, metric="auc"),
            records({"c": [[1.0] * 3] * 6}),
        ],
        ignore_index=True,
    )


def test_compare_six_data_sets_all_won():
    # a = b + 0.01·(d+1) on every fold: six significant wins; the Wilcoxon differences are all
    # positive with ranks 1..6, W- = 0: p = 2·1/2^6; means 0.72 + 0.035 and 0.72
    r = pair([0.01, 0.02, 0.03, 0.04, 0.05, 0.06], noise())
    c = evidence.compare(r, "a", "b", "accuracy")
    assert (c.a, c.b, c.metric, c.n_datasets, c.wins, c.losses) == ("a", "b", "accuracy", 6, 6, 0)
    assert c.mean_a == pytest.approx(0.755) and c.mean_b == pytest.approx(0.72)
    assert c.p_wilcoxon == pytest.approx(2 / 64)
    assert c.a_ahead is True and c.b_ahead is False
    assert c.text() == (
        "a vs b on accuracy over 6 data set(s): mean 0.7550 vs 0.7200, W/L 6/0, Wilcoxon p = 0.0312"
    )
    assert evidence.better(r, "a", "b", "accuracy") == Verdict("holds", c.text())
    assert evidence.not_worse(r, "a", "b", "accuracy") == Verdict("holds", c.text())
    # b against a: six losses, "b is better" does not hold, "b as good as a" does not either
    assert evidence.better(r, "b", "a", "accuracy").verdict == "does not hold"
    assert evidence.not_worse(r, "b", "a", "accuracy").verdict == "does not hold"
    # read as an error (lower is better): a loses everywhere, b wins everywhere
    c = evidence.compare(r, "a", "b", "accuracy", higher_is_better=False)
    assert (c.wins, c.losses, c.a_ahead, c.b_ahead) == (0, 6, False, True)
    assert c.p_wilcoxon == pytest.approx(2 / 64)
    assert evidence.better(r, "a", "b", "accuracy", False).verdict == "does not hold"
    assert evidence.not_worse(r, "a", "b", "accuracy", False).verdict == "does not hold"
    assert evidence.better(r, "b", "a", "accuracy", False).verdict == "holds"
    assert evidence.not_worse(r, "b", "a", "accuracy", False).verdict == "holds"


def test_compare_on_chosen_data_sets():
    r = pair([0.01, 0.02, 0.03, 0.04, 0.05, 0.06], noise())
    c = evidence.compare(r, "a", "b", "accuracy", datasets=("d0", "d1"))
    # two data sets (a tuple is accepted): two wins, means 0.72 + 0.015 and 0.72, no Wilcoxon
    assert (c.n_datasets, c.wins, c.losses) == (2, 2, 0) and math.isnan(c.p_wilcoxon)
    assert c.mean_a == pytest.approx(0.735)
    assert c.text() == "a vs b on accuracy over 2 data set(s): mean 0.7350 vs 0.7200, W/L 2/0"
    assert evidence.better(r, "a", "b", "accuracy", datasets=["d0"]).evidence.startswith(
        "a vs b on accuracy over 1 data set(s)"
    )
    assert (
        "over 1 data set(s)" in evidence.not_worse(r, "a", "b", "accuracy", True, ["d5"]).evidence
    )


def test_compare_one_loss_at_the_smallest_rank():
    # differences -0.01, 0.02..0.06: W- = 1, p = 2·#{∅, {1}}/2^6 = 0.0625 (not significant);
    # a wins 5, loses 1: "a better" does not hold (a lead without significance); "a as good"
    # holds (b better: no); "b as good as a" is the mirror of "a better": holds; alike: holds
    r = pair([-0.01, 0.02, 0.03, 0.04, 0.05, 0.06])
    c = evidence.compare(r, "a", "b", "accuracy")
    assert (c.wins, c.losses, c.a_ahead, c.b_ahead) == (5, 1, True, False)
    assert c.p_wilcoxon == pytest.approx(4 / 64)
    assert c.text().endswith("W/L 5/1, Wilcoxon p = 0.0625")
    assert evidence.better_verdict(c) == "does not hold"
    assert evidence.not_worse_verdict(c) == "holds"
    assert evidence.not_worse(r, "b", "a", "accuracy").verdict == "holds"
    assert evidence.similar_verdict(c) == "holds"


def test_compare_three_ahead_three_behind():
    # ranks 1, 2, 3 positive: W+ = 6, #{subsets of 1..6 with sum <= 6} = 14, p = 28/64;
    # a ahead on 3 of 6: neither method ahead; W/L 3/3: nobody better, both as good, alike
    r = pair([0.01, 0.02, 0.03, -0.04, -0.05, -0.06])
    c = evidence.compare(r, "a", "b", "accuracy")
    assert (c.wins, c.losses, c.a_ahead, c.b_ahead) == (3, 3, False, False)
    assert c.p_wilcoxon == pytest.approx(28 / 64)
    assert evidence.better_verdict(c) == "does not hold"
    assert evidence.not_worse_verdict(c) == "holds"
    assert evidence.similar_verdict(c) == "holds"


def test_compare_identical_methods():
    # every difference 0: p = 1 by definition (Wilcoxon is undefined), W/L 0/0, nobody ahead
    c = evidence.compare(pair([0.0] * 6), "a", "b", "accuracy")
    assert (c.p_wilcoxon, c.wins, c.losses, c.a_ahead, c.b_ahead) == (1.0, 0, 0, False, False)
    assert evidence.better_verdict(c) == "does not hold"
    assert evidence.not_worse_verdict(c) == "holds"
    assert evidence.similar_verdict(c) == "holds"


def test_compare_counts_ties_as_nobody_ahead():
    # five data sets (below Wilcoxon's six): +0.01, -0.02 and three equal ones: a ahead once,
    # behind once: neither ahead; one win, one loss
    c = evidence.compare(pair([0.01, -0.02, 0.0, 0.0, 0.0]), "a", "b", "accuracy")
    assert (c.n_datasets, c.wins, c.losses, c.a_ahead, c.b_ahead) == (5, 1, 1, False, False)
    assert math.isnan(c.p_wilcoxon)
    assert evidence.better_verdict(c) == "does not hold"
    assert evidence.not_worse_verdict(c) == "holds"


def test_compare_ahead_counts_only_the_data_sets_that_differ():
    # +0.01, +0.02, -0.03 and two equal data sets: a ahead on 2, behind on 1 (the equal ones
    # count for nobody): a ahead, b not; W/L 2/1 over 5 data sets: "a better" does not hold
    # (not won on every data set)
    r = pair([0.01, 0.02, -0.03, 0.0, 0.0])
    c = evidence.compare(r, "a", "b", "accuracy")
    assert (c.wins, c.losses, c.a_ahead, c.b_ahead) == (2, 1, True, False)
    assert evidence.better_verdict(c) == "does not hold"
    c = evidence.compare(r, "b", "a", "accuracy")
    assert (c.wins, c.losses, c.a_ahead, c.b_ahead) == (1, 2, False, True)


def test_compare_five_data_sets_decided_by_the_folds():
    # all five won: holds without Wilcoxon; four won and one tie: does not hold
    r = pair([0.01, 0.02, 0.03, 0.04, 0.05])
    c = evidence.compare(r, "a", "b", "accuracy")
    assert math.isnan(c.p_wilcoxon) and (c.wins, c.n_datasets) == (5, 5)
    assert evidence.better_verdict(c) == "holds"
    r = pair([0.01, 0.02, 0.03, 0.04, 0.0])
    c = evidence.compare(r, "a", "b", "accuracy")
    assert (c.wins, c.losses) == (4, 0)
    assert evidence.better_verdict(c) == "does not hold"
    assert evidence.not_worse(r, "b", "a", "accuracy").verdict == "holds"


def test_b_significantly_better_over_data_sets_is_a_not_as_good():
    """The documented mirror: "a is as good as b" does not hold when "b is better than a" holds.

    Eight data sets, a − b per data set: +0.001 (a constant shift: a win), +0.002 (folds
    +0.102, −0.098, +0.002: t = 0.002/(0.1/√3) = 0.03, a tie), −0.01 (constant: a loss),
    −0.02 … −0.06 (spread ±0.1: |t| <= 1.04 < 4.30, ties). W/L 1/1; a ahead on 2 of 8, b on 6;
    Wilcoxon: the positive differences have ranks 1 and 2, W+ = 3,
    p = 2·#{∅, {1}, {2}, {3}, {1,2}}/2^8 = 10/256 < 0.05: b is better than a, significantly.
    """
    spread = [0.1, -0.1, 0.0]
    a = [[v + 0.001 for v in B_FOLDS], [v + 0.002 + s for v, s in zip(B_FOLDS, spread)]]
    a += [[v - 0.01 for v in B_FOLDS]]
    a += [[v + m + s for v, s in zip(B_FOLDS, spread)] for m in (-0.02, -0.03, -0.04, -0.05, -0.06)]
    r = records({"a": a, "b": [B_FOLDS] * 8})
    c = evidence.compare(r, "a", "b", "accuracy")
    assert (c.n_datasets, c.wins, c.losses, c.a_ahead, c.b_ahead) == (8, 1, 1, False, True)
    assert c.p_wilcoxon == pytest.approx(10 / 256)
    reverse = evidence.compare(r, "b", "a", "accuracy")
    assert evidence.better_verdict(reverse) == "holds"
    assert evidence.better_verdict(c) == "does not hold"
    assert evidence.not_worse_verdict(c) == "does not hold"
    assert evidence.not_worse(r, "a", "b", "accuracy").verdict == "does not hold"
    assert evidence.similar_verdict(c) == "does not hold"
    # and b is as good as a
    assert evidence.not_worse_verdict(reverse) == "holds"


def test_compare_refuses_missing_methods_and_disjoint_data_sets():
    r = pair([0.01, 0.02], noise())
    with pytest.raises(ValueError, match="no test records of 'z' for 'accuracy'"):
        evidence.compare(r, "a", "z", "accuracy")
    with pytest.raises(ValueError, match="no test records of 'z' for 'accuracy'"):
        evidence.compare(r, "z", "a", "accuracy")
    train_only = pd.concat([r, records({"t": [[0.5] * 3]}, split="train")], ignore_index=True)
    with pytest.raises(ValueError, match="no test records of 't'"):
        evidence.compare(train_only, "a", "t", "accuracy")
    disjoint = pd.concat([records({"a": [B_FOLDS]}), records({"b": [[], B_FOLDS]})])
    with pytest.raises(ValueError, match="'a' and 'b' share no data set"):
        evidence.compare(disjoint, "a", "b", "accuracy")
    with pytest.raises(ValueError, match="no test records of 'b'"):
        evidence.compare(disjoint, "a", "b", "accuracy", datasets=["d0"])


# --------------------------------------------------------------------------------------------
# evidence: the verdicts of hand-made comparisons (the module docstring's rules)
# --------------------------------------------------------------------------------------------


def test_comparison_text():
    c = comparison(6, 5, 1, 0.0625, True, 0.85, 0.8, metric="error")
    assert c.text() == (
        "a vs b on error over 6 data set(s): mean 0.8500 vs 0.8000, W/L 5/1, Wilcoxon p = 0.0625"
    )
    c = comparison(3, 0, 2, float("nan"), False, 0.123456, 0.5)
    assert c.text() == "a vs b on m over 3 data set(s): mean 0.1235 vs 0.5000, W/L 0/2"


@pytest.mark.parametrize(
    "n, wins, losses, p, a_ahead, expected",
    [
        # six data sets or more: Wilcoxon significant in a's favour holds, whatever the W/L
        (6, 0, 0, 0.03125, True, "holds"),
        (40, 0, 3, 0.001, True, "holds"),
        # not significant (p = α is not below α), or significant for b: does not hold, whatever
        # the W/L (one statement: never "partly")
        (6, 3, 1, 0.05, True, "does not hold"),
        (6, 3, 1, 0.01, False, "does not hold"),
        (6, 2, 2, 0.01, False, "does not hold"),
        (6, 2, 2, 0.5, True, "does not hold"),
        (6, 6, 0, 0.0625, True, "does not hold"),
        (6, 1, 4, 0.0625, True, "does not hold"),
        # five or fewer: the folds decide, every data set won holds
        (5, 5, 0, float("nan"), True, "holds"),
        (5, 5, 0, 0.01, True, "holds"),
        (5, 0, 0, 0.01, True, "does not hold"),
        (5, 4, 0, float("nan"), True, "does not hold"),
        (5, 3, 2, float("nan"), True, "does not hold"),
        (5, 2, 2, float("nan"), True, "does not hold"),
        (5, 1, 3, float("nan"), False, "does not hold"),
        (1, 1, 0, float("nan"), True, "holds"),
        (1, 0, 0, float("nan"), False, "does not hold"),
    ],
)
def test_better_verdict(n, wins, losses, p, a_ahead, expected):
    assert evidence.better_verdict(comparison(n, wins, losses, p, a_ahead)) == expected


@pytest.mark.parametrize(
    "n, wins, losses, p, a_ahead, b_ahead, expected",
    [
        # b better by Wilcoxon (b ahead, p < α): a is not as good
        (6, 0, 6, 0.03125, False, True, "does not hold"),
        (8, 1, 1, 10 / 256, False, True, "does not hold"),
        # Wilcoxon significant but nobody ahead: b is not better, so a is as good
        (30, 3, 3, 0.02, False, False, "holds"),
        (30, 1, 3, 0.02, False, False, "holds"),
        # a ahead: b not better by Wilcoxon
        (6, 5, 1, 0.03125, True, False, "holds"),
        (6, 1, 5, 0.0625, False, True, "holds"),  # b ahead without significance
        (6, 1, 1, 0.0625, False, True, "holds"),
        # five or fewer: b wins everywhere, on most (not all: a as good), on as many as a
        (5, 0, 5, float("nan"), False, True, "does not hold"),
        (5, 1, 4, float("nan"), False, True, "holds"),
        (5, 2, 2, float("nan"), False, False, "holds"),
    ],
)
def test_not_worse_verdict_is_the_mirror_of_b_better(
    n, wins, losses, p, a_ahead, b_ahead, expected
):
    c = Comparison("a", "b", "m", n, wins, losses, 0.8, 0.7, p, a_ahead, b_ahead)
    assert evidence.not_worse_verdict(c) == expected
    mirrored = Comparison("b", "a", "m", n, losses, wins, 0.7, 0.8, p, b_ahead, a_ahead)
    assert c.mirrored() == mirrored
    assert MIRROR[evidence.better_verdict(mirrored)] == expected


@pytest.mark.parametrize(
    "wins, losses, p, a_ahead, expected",
    [
        # a comparison built without b_ahead (by hand): b is taken to be ahead when a is not
        # and the W/L differ
        (0, 6, 0.03125, False, "does not hold"),
        (2, 2, 0.01, False, "holds"),
        (5, 1, 0.03125, True, "holds"),
    ],
)
def test_not_worse_verdict_without_b_ahead(wins, losses, p, a_ahead, expected):
    c = comparison(6, wins, losses, p, a_ahead)
    assert c.b_ahead is None
    assert evidence.not_worse_verdict(c) == expected


@pytest.mark.parametrize(
    "n, wins, losses, p, a_ahead, b_ahead, expected",
    [
        (6, 6, 0, 0.03125, True, False, "does not hold"),  # a significantly better
        (6, 0, 6, 0.03125, False, True, "does not hold"),  # b significantly better
        (6, 3, 3, 0.4375, False, False, "holds"),
        (6, 5, 1, 0.0625, True, False, "holds"),  # a ahead without significance: alike
        (6, 1, 5, 0.0625, False, True, "holds"),  # b ahead without significance
        (5, 5, 0, float("nan"), True, False, "does not hold"),
        (5, 0, 0, float("nan"), False, False, "holds"),
    ],
)
def test_similar_verdict_is_the_weaker_of_both_as_good(
    n, wins, losses, p, a_ahead, b_ahead, expected
):
    c = Comparison("a", "b", "m", n, wins, losses, 0.8, 0.7, p, a_ahead, b_ahead)
    assert evidence.similar_verdict(c) == expected


def test_best_of():
    c_b = Comparison("a", "b", "error", 6, 6, 0, 0.10, 0.20, 0.03125, True, False)
    c_c = Comparison("a", "c", "error", 6, 0, 0, 0.10, 0.15, 0.5, False, False)
    text = (
        "a vs b on error over 6 data set(s): mean 0.1000 vs 0.2000, W/L 6/0, Wilcoxon p = 0.0312"
        "; a vs c on error over 6 data set(s): mean 0.1000 vs 0.1500, W/L 0/0, Wilcoxon p = 0.5"
    )
    # lower is better: a has the best mean but is not better than c: does not hold, and the
    # evidence says the best mean is a's
    assert evidence.best_of([c_b, c_c], "a", higher_is_better=False) == Verdict(
        "does not hold", "best mean: a (without significance against every other); " + text
    )
    # higher is better: b has the best mean: does not hold
    assert evidence.best_of([c_b, c_c], "a") == Verdict("does not hold", "best mean: b; " + text)
    # better than every other method holds, whatever the means
    assert evidence.best_of([c_b], "a") == Verdict("holds", "best mean: b; " + text.split("; ")[0])
    assert evidence.best_of([c_b], "a", False).verdict == "holds"
    # one better, one ahead without significance: not every one holds
    c_p = Comparison("a", "c", "error", 6, 4, 1, 0.10, 0.15, 0.0625, True, False)
    assert evidence.best_of([c_b, c_p], "a", False).verdict == "does not hold"
    assert evidence.best_of([c_p, c_b], "a", True).verdict == "does not hold"


def test_best_from_records():
    # a = b + 0.01·(d+1), c = b + 0.005·(d+1): a wins on every fold against both (Wilcoxon
    # p = 2/64 each): a is the best; c is not better than a (six losses), its mean is not the best
    deltas = np.arange(1, 7) * 0.01
    r = records({"a": shifted(deltas), "b": [B_FOLDS] * 6, "c": shifted(deltas / 2)})
    v = evidence.best(r, "a", ["b", "c"], "accuracy")
    assert v.verdict == "holds" and v.evidence.startswith("best mean: a; a vs b on accuracy")
    assert "; a vs c on accuracy over 6 data set(s): mean 0.7550 vs 0.7375, W/L 6/0" in v.evidence
    assert evidence.best(r, "c", ["a", "b"], "accuracy").verdict == "does not hold"
    # as errors (lower is better): b is the best of the three
    assert evidence.best(r, "b", ["a", "c"], "accuracy", higher_is_better=False).verdict == "holds"
    assert evidence.best(r, "a", ["b", "c"], "accuracy", False).verdict == "does not hold"
    # on d0 only (one data set, decided by its folds): a still wins against both
    v = evidence.best(r, "a", ["b", "c"], "accuracy", datasets=["d0"])
    assert v.verdict == "holds" and "over 1 data set(s)" in v.evidence


@pytest.mark.parametrize(
    "verdicts, expected",
    [
        (["holds", "holds"], "holds"),
        (["does not hold", "does not hold", "not testable"], "does not hold"),
        (["holds", "does not hold"], "partly"),
        (["holds", "partly"], "partly"),
        (["partly"], "partly"),
        (["holds", "not testable"], "holds"),
        (["not testable", "not testable"], "not testable"),
        ([], "not testable"),
        (("holds", "holds", "partly"), "partly"),
        (["partly", "partly"], "partly"),
        # no stated part holds and one fails: not "partly"
        (["partly", "does not hold"], "does not hold"),
        (["partly", "does not hold", "not testable"], "does not hold"),
        (["holds", "partly", "does not hold"], "partly"),
    ],
)
def test_conjunction(verdicts, expected):
    assert evidence.conjunction(verdicts) == expected
