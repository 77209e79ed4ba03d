"""hue2024's rules run on the paper's own numbers: they must say "holds" there.

The paper prints no table of results: its per-data-set values are in the beanplots of
Figures 1–11 only. What it prints are single numbers in the text of §4.3–§4.5 (typed into
experiments/hue2024/reported.csv and below, each with its sentence). A typed frame puts the
printed number on each of three data sets (it is the value the text gives for the typical or
the extreme data set), in the tidy layout :func:`repro.report.papers.hue2024.claims.tidy` serves
as is (repro.report.claims.published), and the claim's rule runs on it.

Claims that cannot run on the published numbers: every rule that needs the folds or the
per-data-set values of a figure — the comparisons ("better", "not worse", "similar", "best",
"worst", "among the best": paired t over the folds, Wilcoxon over the data sets), the trends
(Page's test over the data sets of Figures 4–6), never_below (sg_criterion_ratio_above_one: a
paired t per data set), share_kept (snb_keeps_almost_all_variables: Table 1 gives the variables,
no figure gives SNB's selected counts per data set), mean_ratio (start_variable_ratio: a
bootstrap over data sets), and the equivalences whose numbers are only plotted
(same_optimisation_quality, cg_criterion_similar, sgue_equivalent_to_sgcf, fnb_vs_snb_fig11,
snb_start_not_interesting). The JapaneseVowels numbers (0.998, the null model) are on a relational
data set no rule reads.
"""

import pandas as pd
import pytest

from repro.report.claims.published import published_evidence
from repro.report.papers.hue2024 import claims as rules

DATASETS = ["d1", "d2", "d3"]


def typed(values: dict[tuple[str, str], float], section: str) -> pd.DataFrame:
    """(label, quantity) → the printed number, on each of :data:`DATASETS` (one fold)."""
    rows = [
        {"method": label, "dataset": d, "repetition": 0, "fold": 0, "split": "test",
         "metric": quantity, "value": float(x), "table": section, "note": "", "source": "published"}
        for (label, quantity), x in values.items()
        for d in DATASETS
    ]  # fmt: skip
    return pd.DataFrame(rows)


def evidence_of(frame):
    return published_evidence("hue2024", {rules.STORE: frame})


def test_tidy_serves_the_published_frame_as_it_is():
    frame = typed({("SNB", "time"): 1.0}, "§4.5")
    out = rules.tidy(evidence_of(frame))
    assert list(out["value"]) == [1.0, 1.0, 1.0] and "n_features" in out


def test_start_criterion_ratio_holds_on_the_printed_range():
    # §4.4 "For most datasets, the final train criterion ratio is between 0.98 and 1.02 for the
    # FNB and SNB initializations." — the ends of the printed range, and 1
    frame = pd.concat(
        [
            typed({("SG.CF uniform", "criterion"): 100.0}, "§4.4"),
            typed({("SG.CF FNB init", "criterion"): 98.0}, "§4.4").assign(
                value=[98.0, 100.0, 102.0]
            ),
        ],
        ignore_index=True,
    )
    v = rules.ratio_range(
        evidence_of(frame), "SG.CF FNB init", "SG.CF uniform", "criterion", "most", 0.98, 1.02
    )
    assert v.verdict == "holds", v.evidence


def test_start_time_ratio_holds_on_the_printed_ratios():
    # §4.4 "the SNB initialization leads to a similar time but the FNB initialization enables to
    # reduce it by 20%": ratios 1.0 and 0.8 to the uniform start
    frame = typed(
        {("SG.CF uniform", "time"): 10.0, ("SG.CF SNB init", "time"): 10.0,
         ("SG.CF FNB init", "time"): 8.0},
        "§4.4",
    )  # fmt: skip
    ev = evidence_of(frame)
    parts = [
        {"rule": "equivalent", "a": "SG.CF SNB init", "b": "SG.CF uniform", "quantity": "time",
         "margin": 0.1},
        {"rule": "time_ratio", "a": "SG.CF FNB init", "b": "SG.CF uniform", "lo": 0.8, "hi": 0.8},
    ]  # fmt: skip
    v = rules.all_of(ev, parts)
    assert v.verdict == "holds", v.evidence
    assert "our implementation" in v.evidence  # a time: decided on ours, and it says so


def test_never_more_than_3_percent_holds_at_the_printed_bound():
    # §4.4 "The test ACC and AUC slightly decrease for the FNB and SNB initializations but never
    # more than 3%": ratio 0.97 at worst
    frame = typed({("SG.CF uniform", "auc"): 0.9, ("SG.CF FNB init", "auc"): 0.9 * 0.97}, "§4.4")
    v = rules.ratio_range(
        evidence_of(frame), "SG.CF FNB init", "SG.CF uniform", "auc", "all", lo=0.97 - 1e-12
    )
    assert v.verdict == "holds", v.evidence


def test_lambda_025_auc_like_snb_holds_on_the_printed_mean():
    # §4.3 "The mean value for test AUC for λ = 0.25 is of the order of 1": the ratio 1.0
    frame = typed({("lambda=0.25", "auc"): 0.9, ("SNB", "auc"): 0.9}, "§4.3")
    v = rules.equivalent(evidence_of(frame), "lambda=0.25", "SNB", "auc", 0.01)
    assert v.verdict == "holds", v.evidence


def test_fnb_same_time_as_snb_holds_on_the_printed_ratio():
    # §4.5 "the FNB algorithm alone takes the same time as the SNB": ratio 1.0
    frame = typed({("FNB", "time"): 2.0, ("SNB", "time"): 2.0}, "§4.5")
    v = rules.equivalent(evidence_of(frame), "FNB", "SNB", "time", 0.1)
    assert v.verdict == "holds", v.evidence


@pytest.mark.parametrize("ratio", [10.0, 20.0])
def test_sgcf_10_to_20_times_snb_holds_on_the_printed_ratios(ratio):
    # §4.3 "Even for ε = 0.01, execution time can be 10 to 20 larger for SG.CF than for SNB."
    frame = typed({("eps=0.01", "time"): ratio, ("SNB", "time"): 1.0}, "§4.3")
    v = rules.max_ratio(evidence_of(frame), "eps=0.01", "SNB", reach=10.0)
    assert v.verdict == "holds", v.evidence


def test_the_same_rules_fail_away_from_the_printed_numbers():
    far = typed({("eps=0.01", "time"): 3.0, ("SNB", "time"): 1.0}, "§4.3")
    assert rules.max_ratio(evidence_of(far), "eps=0.01", "SNB", reach=10.0).verdict == (
        "does not hold"
    )
    slower = typed({("FNB", "time"): 2.6, ("SNB", "time"): 2.0}, "§4.5")
    assert rules.equivalent(evidence_of(slower), "FNB", "SNB", "time", 0.1).verdict == (
        "does not hold"
    )
