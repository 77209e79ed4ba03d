"""The head-to-head benchmark's report (repro.report.leaderboard,
repro.report.papers.nb_benchmark.figures, repro.report.papers.nb_benchmark.claims) on hand-built
records with known answers: 3 methods × 4 data sets × 10 folds, each cell's fold values a known
mean plus noise that sums to zero.

Accuracy means (rank on the data set):
    d0: a .90 (1)    b .80 (2)    c .70 (3)
    d1: a .85 (1.5)  b .85 (1.5)  c .60 (3)
    d2: a .70 (2)    b .75 (1)    c .65 (3)
    d3: a .95 (2)    b .90 (3)    c .99 (1)
so a: mean .85, average rank 1.625, wins 2 (d0, the tie on d1); b: .825, 1.875, 2; c: .735,
2.5, 1.
"""

import json
import re
from pathlib import Path

import pandas as pd
import pytest
import yaml

from repro.report import leaderboard as lb
from repro.report.claims.engine import Evidence, read_claims, rule_function
from repro.report.figure_common import sweep_plan
from repro.report.papers.nb_benchmark import claims as rules
from repro.report.papers.nb_benchmark.figures import benchmark

ROOT = Path(__file__).resolve().parents[2]
PAPERS = ROOT.parent / "shared" / "papers"
CLAIMS = ROOT / "experiments" / "nb_benchmark" / "claims.yaml"

MEANS = {
    "a": [0.90, 0.85, 0.70, 0.95],
    "b": [0.80, 0.85, 0.75, 0.90],
    "c": [0.70, 0.60, 0.65, 0.99],
}
NOISE = {"a": 0.01, "b": 0.02, "c": 0.005}  # ± per fold, alternating: sums to 0 over 10 folds
FIT_TIME = {"a": 1.0, "b": 0.1, "c": 0.01}


def hand_records(datasets=("d0", "d1", "d2", "d3")) -> pd.DataFrame:
    rows = []
    for method, means in MEANS.items():
        for d, mean in zip(datasets, means, strict=False):
            for fold in range(10):
                sign = 1 if fold % 2 == 0 else -1
                common = {"method": method, "dataset": d, "repetition": 0, "fold": fold,
                          "n_train": 90, "n_test": 10, "n_classes": 2}  # fmt: skip
                acc = mean + sign * NOISE[method]
                rows.append({**common, "split": "test", "metric": "accuracy", "value": acc})
                rows.append({**common, "split": "test", "metric": "auc", "value": acc})
                rows.append(
                    {**common, "split": "model", "metric": "fit_time", "value": FIT_TIME[method]}
                )
    return pd.DataFrame(rows)


def test_leaderboard_entries_equal_the_hand_values():
    board = lb.leaderboard(hand_records(), "accuracy")
    assert list(board.index) == ["a", "b", "c"]
    assert board.loc["a", "mean"] == pytest.approx(0.85, abs=1e-12)
    assert board.loc["b", "mean"] == pytest.approx(0.825, abs=1e-12)
    assert board.loc["c", "mean"] == pytest.approx(0.735, abs=1e-12)
    assert board["average_rank"].tolist() == pytest.approx([1.625, 1.875, 2.5])
    assert board["wins"].tolist() == [2, 2, 1]  # the tie on d1 counts for a and b
    assert board.attrs["ranked_datasets"] == ["d0", "d1", "d2", "d3"]
    # fit time: lower is better, c fastest on every data set
    times = lb.leaderboard(hand_records(), "fit_time")
    assert list(times.index) == ["c", "b", "a"] and times.loc["c", "wins"] == 4


def test_a_method_on_too_few_data_sets_is_shown_unranked():
    records = hand_records()
    records = records[~((records["method"] == "c") & (records["dataset"] != "d0"))]
    board = lb.leaderboard(records, "accuracy")  # c on 1 of 4 data sets < min_share 0.5
    assert board.attrs["excluded"] == ["c"] and not board.loc["c", "ranked"]
    assert board.loc["c", "mean_own"] == pytest.approx(0.70)
    assert board.loc["a", "average_rank"] == pytest.approx((1 + 1.5 + 2 + 1) / 4)


def test_a_cell_with_a_fold_over_its_budget_is_listed_not_ranked(tmp_path):
    """c's fold 7 on d3 stopped at its budget (the runner's did_not_finish rows, no test rows):
    the cell leaves the leaderboards (its mean would be over 9 folds) and is listed as dnf."""
    records = hand_records()
    late = (records["method"] == "c") & (records["dataset"] == "d3") & (records["fold"] == 7)
    stopped = records[late & (records["metric"] == "fit_time")].assign(value=60.0)
    flag = stopped.assign(metric="did_not_finish", value=1.0)
    records = pd.concat([records[~late], stopped, flag], ignore_index=True)
    cells = lb.dnf_cells(records)
    assert cells[["method", "dataset", "dnf_folds", "folds", "ran_s"]].values.tolist() == [
        ["c", "d3", 1, 10, 60.0]
    ]
    board = lb.leaderboard(records, "accuracy")
    assert board.attrs["ranked_datasets"] == ["d0", "d1", "d2"]
    assert board.loc["a", "average_rank"] == pytest.approx((1 + 1.5 + 2) / 3)
    assert board.loc["c", "datasets"] == 3
    comp = lb.completeness(records, ["a", "b", "c"], ["d0", "d1", "d2", "d3"])
    assert comp.loc["c", ["done", "dnf", "partial"]].tolist() == [3, 1, 0]
    cfg = {"methods": ["a", "b", "c"], "datasets": ["d0", "d1", "d2", "d3"],
           "results_folder": str(tmp_path), "nsamples": 2000, "cd_metrics": []}  # fmt: skip
    benchmark(records, tmp_path / "out", cfg)
    text = (tmp_path / "out" / "LEADERBOARD.md").read_text()
    assert "| d3 | c | dnf | 9 | 1 of 10 folds stopped at the time budget (ran 60 s) |" in text


def test_cells_left_out_by_the_bound_are_neither_planned_nor_ranked(tmp_path):
    """A bound leaving out c on d2 and d3: c is planned on d0 and d1 only (done 2 of 2), its
    records on d2 and d3 are not ranked (the ranked block is d0, d1: a 1, 1.5; b 2, 1.5; c 3,
    3), and the report lists the two cells."""
    comp = lb.completeness(
        hand_records(),
        ["a", "b", "c"],
        ["d0", "d1", "d2", "d3"],
        excluded={("c", "d2"), ("c", "d3")},
    )
    assert comp.loc["c", ["bound", "planned", "done", "missing"]].tolist() == [2, 2, 2, 0]
    assert comp.loc["a", ["bound", "planned", "done"]].tolist() == [0, 4, 4]
    assert comp.loc["all", ["bound", "planned", "done"]].tolist() == [2, 10, 10]
    cfg = {"methods": ["a", "b", "c"], "datasets": ["d0", "d1", "d2", "d3"], "nsamples": 2000,
           "results_folder": str(tmp_path), "cd_metrics": [], "min_share": 0.5,
           "exclude": [{"method": "c", "dataset": ["d2", "d3"]}]}  # fmt: skip
    benchmark(hand_records(), tmp_path / "out", cfg)
    board = pd.read_csv(tmp_path / "out" / "leaderboard_accuracy.csv", index_col=0)
    assert board.loc[["a", "b", "c"], "average_rank"].tolist() == pytest.approx([1.25, 1.75, 3.0])
    assert board.loc["c", "datasets"] == 2
    text = (tmp_path / "out" / "LEADERBOARD.md").read_text()
    assert "left out by the bound: 2" in text and "Cells done: 10 of 10 planned (100%)" in text
    assert "- d2: c\n- d3: c\n" in text
    # no failure: failures.csv keeps its header
    assert (tmp_path / "out" / "failures.csv").read_text().startswith("dataset,method,status,")


def test_the_plan_leaves_out_cells_only_for_method_and_data_set_entries():
    """An entry with another key (a seed) leaves out configurations, not cells: no cell; an
    entry that omits the method leaves out the data set for every method."""
    cfg = {"datasets": ["d0", "d1"], "exclude": [{"method": "c", "seed": 1}, {"dataset": "d0"}]}
    datasets, cells = sweep_plan(cfg, ["a", "b", "c"], "nb_benchmark")
    assert datasets == ["d0", "d1"] and cells == {("a", "d0"), ("b", "d0"), ("c", "d0")}
    assert sweep_plan({"datasets": ["d0"]}, ["a"], "nb_benchmark") == (["d0"], set())


def test_pareto_front_and_correction():
    score = pd.Series({"a": 0.85, "b": 0.825, "c": 0.735, "d": 0.80})
    cost = pd.Series({"a": 1.0, "b": 0.1, "c": 0.01, "d": 0.5})  # d: slower and worse than b
    assert lb.pareto_front(score, cost).to_dict() == {"a": True, "b": True, "c": True, "d": False}
    assert lb.correction_for(11) == "bergmann" and lb.correction_for(12) == "shaffer"


def test_report_on_a_partial_store_states_its_completeness(tmp_path):
    """Planned: a, b, c on d0..d4; d4 has no records: c over its time budget (an error file
    with status dnf), b interrupted after 3 folds (checkpoints), a not started."""
    folder = tmp_path / "nb_benchmark"
    (folder / "d4").mkdir(parents=True)
    (folder / "d4" / "c.0123456789ab.error.json").write_text(
        json.dumps({"method": "c", "status": "dnf", "error": "TimeoutError: fold 4 over 60 s"})
    )
    parts = folder / "d4" / "b.parts"
    parts.mkdir()
    for f in range(3):
        (parts / f"r000_f{f:03d}.parquet").write_bytes(b"")
    cfg = {
        "methods": ["a", "b", "c"],
        "datasets": ["d0", "d1", "d2", "d3", "d4"],
        "results_folder": str(folder),
        "nsamples": 2000,
        "bound": "data sets up to 5 rows.",
        "claims_file": str(CLAIMS),
    }
    paths = benchmark(hand_records(), tmp_path / "out", cfg)
    text = (tmp_path / "out" / "LEADERBOARD.md").read_text()
    assert paths[0].name == "LEADERBOARD.md"
    assert (
        "Cells done: 12 of 15 planned (80%); did not finish (over the time budget): 1; "
        "failed: 0; partial (some folds stored): 0; unfinished (checkpoints only): 1; "
        "not run yet: 1." in text
    )
    assert "Bound of the run: data sets up to 5 rows." in text
    comp = pd.read_csv(tmp_path / "out" / "completeness.csv", index_col=0)
    assert comp.loc["c", ["done", "dnf"]].tolist() == [4, 1]
    assert comp.loc["b", ["done", "unfinished"]].tolist() == [4, 1]
    assert comp.loc["a", ["done", "missing"]].tolist() == [4, 1]
    fails = pd.read_csv(tmp_path / "out" / "failures.csv")
    assert sorted(zip(fails["method"], fails["status"])) == [("b", "unfinished"), ("c", "dnf")]
    assert "TimeoutError: fold 4 over 60 s" in text  # listed, never dropped
    # the leaderboard and the CD diagram's ranks: 3 methods, Bergmann–Hommel
    board = pd.read_csv(tmp_path / "out" / "leaderboard_accuracy.csv", index_col=0)
    assert board.loc["a", "average_rank"] == pytest.approx(1.625)
    cd = (tmp_path / "out" / "compare_accuracy_bergmann.md").read_text()
    assert re.search(r"^\| a \| a \| 1\.6250 \|", cd, flags=re.MULTILINE), cd
    assert (tmp_path / "out" / "compare_accuracy_bergmann_cd.png").stat().st_size > 0
    # the sentences cite their numbers
    assert "use a: average rank 1.62 of 3 methods over 4 data sets, best on 2 of them" in text
    assert (tmp_path / "out" / "pareto.png").stat().st_size > 0
    # the papers' claims: their methods have no records here, so none can be decided
    claims = text.split("## The papers' claims of superiority")[1]
    assert claims.count("— **not testable**") == 5 and "no records of snb_cma" in claims


def test_claim_rules_on_hand_records(tmp_path):
    folder = tmp_path / "nb_benchmark" / "all"
    folder.mkdir(parents=True)
    hand_records().to_parquet(folder / "records.parquet")
    ev = Evidence(tmp_path)
    # a vs b: W/L 2/1 (d1 a tie), a vs c: 3/1, 4 data sets (< 6: per data set): a has the best
    # mean but does not win on every data set: does not hold, and the evidence says so
    v = rules.best_against(ev, "a", ["accuracy"], others=["b", "c"])
    assert v.verdict == "does not hold" and "best mean: a (without significance" in v.evidence
    # c loses significantly to a on 3 of 4 data sets: "never" allows no significant
    # counter-case, so it does not hold
    v = rules.never_worse(ev, "c", ["a"])
    assert v.verdict == "does not hold"
    assert "per-data-set significant losses: a on 3" in v.evidence
    # "usually": a's mean ahead of c's on 3 of 4 data sets, a majority
    v = rules.improves(ev, "a", ["c"])
    assert v.verdict == "holds" and "ahead of c on 3 of 4 data sets" in v.evidence


def test_every_claim_names_a_rule_and_quotes_its_paper():
    claims = read_claims(CLAIMS)
    assert {c.claim_id.split("_")[0] for c in claims} == {
        "boulle2007", "wu2015", "vidaurre2012", "elovaara2008", "hue2024",
    }  # fmt: skip
    for claim in claims:
        rule_function(claim.paper, claim.rule)
        assert claim.experiment == "nb_benchmark"
    if not PAPERS.is_dir():
        pytest.skip(f"the papers' texts are not here ({PAPERS})")
    for claim in claims:
        paper = claim.claim_id.split("_")[0]
        assert claim.section.startswith(paper)
        (text_file,) = PAPERS.glob(f"{paper}_*.txt")
        text = " ".join(re.sub(r"-\s*\n\s*", "-", text_file.read_text()).split())
        assert " ".join(claim.quote.split()) in text, claim.claim_id


def test_experiment_config_plans_every_method_once():
    cfg = yaml.safe_load((ROOT / "conf" / "experiment" / "nb_benchmark.yaml").read_text())
    params = cfg["hydra"]["sweeper"]["params"]
    methods = [m.strip() for m in params["method"].split(",")]
    assert len(methods) == len(set(methods))
    assert {"bma_nb_tuned", "lr_tuned", "svm_tuned", "snb_cma", "nb_mdlg", "fnb"} <= set(methods)
    assert not {"bma_nb", "lr", "svm", "fsnb_p1", "fsnb_index"} & set(
        methods
    )  # one configuration each
    assert cfg["protocol"]["small_classes"] == "allow"
