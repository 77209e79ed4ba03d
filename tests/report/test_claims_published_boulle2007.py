"""boulle2007's rules run on the paper's own numbers: they must say "holds" there.

Sources: Tables 3 and 4 (experiments/boulle2007/reported.csv: per method and criterion the mean
over the data sets, the average rank and SNB(CMA)'s W/L against it) through
repro.report.claims.published; the numbers of §5.3 and §6.1 (the waveform study), which the
paper prints in its text only, typed in below with their sentence.

Claims that cannot run on the published numbers (the paper gives no per-data-set or per-fold
values, only the means over the data sets): every ``comparisons`` claim of §7.2 (paired t over
the folds, Wilcoxon over the data sets: nb_modl_beats_ef_*, selection_benefit_*,
selection_improves_*, nb_poor_cr_uci, regularized_outperform_cr_*, map_not_better_*,
bma_slight_enhancement_*, bma_not_significant_*, cma_superior_*, map_little_accuracy_*,
abstract_* and conclusion_*, map_decayed_fit_uci), the equivalence parts of
acc_auc_comparable_* (an interval over the data sets), best_each (cma_dominates_*: Wilcoxon),
best_on_every_dataset (cma_always_best_challenge: per data set), the time rules (no times
printed) and the challenge rules (Table 5 is on the real challenge sets, ours are stand-ins);
the one-split comparisons of §5.3/§6.3 (Figures 4 and 8 are bar charts) and the weights of
SNB(CMA) (Figure 7 only); waveform_map_8_subset and the sets of SNB(ACC)/SNB(AUC) (Figure 3
only). The rules that need the folds refuse the published frame (tested below).
"""

import math

import pandas as pd
import pytest

from repro.report.claims.published import published_evidence, published_records
from repro.report.papers.boulle2007 import claims as rules

OTHERS = ["snb_bma", "snb_map", "snb_auc", "snb_acc", "nb", "nb_ef"]
CRITERIA = ["accuracy", "auc", "compression_rate"]
#: the number of data sets of each table (§7.1: 30 UCI sets, 10 challenge sets)
N_DATASETS = pd.DataFrame(
    {"method": "all", "dataset": "count", "metric": "n_datasets", "value": [30, 10],
     "table": ["Table 3", "Table 4"]}
)  # fmt: skip


@pytest.fixture(scope="module")
def ev():
    return published_evidence(
        "boulle2007",
        {
            "boulle2007_table3": ["Table 3"],
            "boulle2007_table4": ["Table 4"],
            "both_tables": published_records(
                "boulle2007", ["Table 3", "Table 4"], extra=N_DATASETS
            ),
        },
    )


def test_the_published_frame_has_the_tidy_layout():
    r = published_records("boulle2007", ["Table 3"])
    assert {"method", "dataset", "metric", "value", "fold", "repetition", "split"} <= set(r)
    assert (r["fold"] == 0).all() and (r["repetition"] == 0).all()
    assert (r["source"] == "published").all() and set(r["table"]) == {"Table 3"}
    cma = r[(r["method"] == "snb_cma") & (r["dataset"] == "mean")]
    assert dict(zip(cma["metric"], cma["value"], strict=True)) == {
        "accuracy": 0.824, "auc": 0.920, "compression_rate": 0.577,
    }  # fmt: skip


def test_cma_wins_count_holds_on_tables_3_and_4(ev):
    # "On average, the number of significant wins is about 10 times the number of significant
    # losses, and amounts to more than half of the 40 data sets": 364 wins, 36 losses; 364/18 =
    # 20.2 wins per method and criterion > 20. The former rule asked the binomial test of 364 of
    # 720 against 1/2 to be significant (p = 0.79): "partly" on the paper's own numbers.
    v = rules.wins_vs_paper(ev, "both_tables", "snb_cma", OTHERS, CRITERIA, 364, 36)
    assert v.verdict == "holds", v.evidence
    assert "364/36 = 10.1" in v.evidence and "20.2 wins" in v.evidence


def test_cma_wins_count_on_table_3_alone_is_below_half():
    # Table 3 alone: 231 wins of 18 × 30 = 540: the "more than half" part fails (the sentence
    # is about the 40 data sets) - the rule is able to fail
    r = published_records("boulle2007", ["Table 3"], extra=N_DATASETS.iloc[:1])
    v = rules.wins_vs_paper(
        published_evidence("boulle2007", {"t3": r}), "t3", "snb_cma", OTHERS, CRITERIA, 364, 36
    )
    assert v.verdict == "partly" and "231/34" in v.evidence


def test_aggregates_consistent_holds_on_table_3(ev):
    # "The three ways of aggregating the results (mean, W/L and rank) are consistent": Table 3
    # gives ρ(mean, W−L) = 0.75 (p 0.08) on ACC and 0.35 (p 0.5) on AUC; the former rule asked
    # every ρ to be significant: "partly" on the paper's own table.
    v = rules.aggregates_consistent(ev, "boulle2007_table3", "snb_cma", CRITERIA)
    assert v.verdict == "holds", v.evidence
    assert "ρ(mean, W−L) 0.35 (p 0.5)" in v.evidence


def test_domination_increases_holds_on_both_tables(ev):
    # ACC 59, AUC 81, CR 91 wins on Table 3; 32, 45, 56 on Table 4
    v3 = rules.wins_increase(ev, "boulle2007_table3", "snb_cma", OTHERS, CRITERIA)
    assert v3.verdict == "holds" and "ACC 59/5, AUC 81/7, CR 91/22" in v3.evidence
    v4 = rules.wins_increase(ev, "boulle2007_table4", "snb_cma", OTHERS, CRITERIA)
    assert v4.verdict == "holds" and "ACC 32/2, AUC 45/0, CR 56/0" in v4.evidence


def test_nb_negative_cr_holds_on_table_4(ev):
    # "Their mean CR result is less than 0 in the case of the challenge data sets": -0.321, -0.423
    v = rules.negative_mean(ev, "boulle2007_table4", ["nb", "nb_ef"], "compression_rate")
    assert v.verdict == "holds" and "-0.321" in v.evidence


@pytest.mark.parametrize("experiment", ["boulle2007_table3", "boulle2007_table4"])
def test_the_emphasis_part_of_acc_auc_comparable_holds_on_the_tables(ev, experiment):
    # Table 3: SNB(ACC) − SNB(AUC) = −0.003 on ACC, −0.008 on AUC: +0.005 relatively on ACC;
    # Table 4: +0.003 on ACC, −0.019 on AUC: +0.022
    v = rules.emphasis(ev, experiment, "snb_acc", "snb_auc", "accuracy", "auc")
    assert v.verdict == "holds", v.evidence


def test_rules_that_need_the_folds_refuse_the_published_table(ev):
    with pytest.raises(ValueError, match="need the folds"):
        rules.comparisons(ev, "boulle2007_table3", [["better", "snb_cma", "nb", "accuracy"]])


# --- §5.3 and §6.1: the waveform numbers the paper prints in its text ---------------------------
#: §6.1 "The MAP model selects 8 variables (V5, V6, V9, V10, V11, V12, V13, V17)."
MAP = ["V5", "V6", "V9", "V10", "V11", "V12", "V13", "V17"]
#: §5.3: SNB(BMA) = the MAP weights, V20 at 0.15, V6 and V17 at 0.99, V7, V18, V19 at 0.01
BMA = {v: 1.0 for v in MAP} | {"V20": 0.15, "V6": 0.99, "V17": 0.99, "V7": 0.01, "V18": 0.01,
                               "V19": 0.01}  # fmt: skip
VARIABLES = [f"V{i}" for i in range(1, 22)]


def weight_rows(method, weights: dict, informative=None):
    return [
        {"artefact": "weights", "method": method, "variable": v, "variable_index": i + 1,
         "value": float(weights.get(v, 0.0)), "search": "exhaustive",
         "informative": None if informative is None else str(v in informative)}
        for i, v in enumerate(VARIABLES)
    ]  # fmt: skip


@pytest.fixture(scope="module")
def waveform():
    informative = VARIABLES[1:-1]  # §5.3: V1 and V21 irrelevant, NB uses the 19 others
    rows = weight_rows("nb", {v: 1.0 for v in informative}, informative)
    rows += weight_rows("snb_map", {v: 1.0 for v in MAP})
    rows += weight_rows("snb_bma", BMA)
    # §5.3: "The SNB(ACC) method selects 12 variables and the SNB(AUC) 18 variables." (which
    # ones: Figure 3 only; the rule reads the counts - these are the MAP 8 plus the next ones)
    rows += weight_rows("snb_acc", {v: 1.0 for v in MAP + ["V4", "V7", "V8", "V14"]})
    rows += weight_rows("snb_auc", {v: 1.0 for v in VARIABLES[2:20]})
    summary = {
        "log10_map_vs_null": 1033.0,  # §6.1 "10^{1033} times more probable than the minimum
        "log10_map_vs_worst": 1033.0,  # a posteriori model, which selects no variable"
        "mean_size_top_half": 10.0,  # §6.1 "most of the good models ... around 10 variables"
    }
    rows += [{"artefact": "summary", "key": k, "value": x} for k, x in summary.items()]
    # §6.1: V18 first in the 3rd model, about 40 times less probable; V4 in the 10th, about 4000
    rows += [
        {"artefact": "summary", "key": "first_rank", "variable": "V18", "value": 3.0,
         "log10_map_over_model": math.log10(40)},
        {"artefact": "summary", "key": "first_rank", "variable": "V4", "value": 10.0,
         "log10_map_over_model": math.log10(4000)},
    ]  # fmt: skip
    frame = pd.DataFrame(rows).assign(source="published")
    return published_evidence("boulle2007", {rules.WAVEFORM: frame})


W = rules.WAVEFORM


@pytest.mark.parametrize(
    "rule, params",
    [
        ("irrelevant_variables", {"variables": ["V1", "V21"], "nb_count": 19}),
        ("selection", {"method": "snb_acc", "count": 12}),
        ("selection", {"method": "snb_auc", "count": 18}),
        ("selection", {"method": "snb_map", "count": 8, "variables": MAP}),
        ("selection", {"method": "snb_map", "fewer_than": ["snb_acc", "snb_auc"]}),
        ("soft_vs_map", {"method": "snb_bma", "same": True}),
        ("weight_values", {"method": "snb_bma", "values": {"V20": 0.15}}),
        ("weight_values", {"method": "snb_map", "values": {"V20": 0.0}}),
        ("weight_values", {"method": "snb_bma", "values": {"V6": 0.99, "V17": 0.99, "V7": 0.01,
                                                          "V18": 0.01, "V19": 0.01}}),
        ("first_selected", {"variable": "V18", "rank": 3, "times": 40}),
        ("first_selected", {"variable": "V4", "rank": 10, "times": 4000}),
        ("posterior_numbers", {"values": {"log10_map_vs_null": 1033}}),
        ("posterior_numbers", {"values": {"mean_size_top_half": 10}}),
    ],
)  # fmt: skip
def test_the_waveform_rules_hold_on_the_papers_numbers(waveform, rule, params):
    v = getattr(rules, rule)(waveform, W, **params)
    assert v.verdict == "holds", v.evidence


def test_the_waveform_rules_can_fail(waveform):
    # the same numbers against another published value
    v = rules.first_selected(waveform, W, variable="V18", rank=4, times=40)
    assert v.verdict == "partly"
    assert rules.weight_values(waveform, W, "snb_bma", {"V20": 0.5}).verdict == "does not hold"
