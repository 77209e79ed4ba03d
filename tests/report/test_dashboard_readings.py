"""The paper headline counts claims on the paper's data and on stand-ins apart, and shows another
reading of an item beside it without adding its numbers (repro.report.dashboard.papers)."""

from repro.report.dashboard.papers import paper_summaries, rests_on


def _row(experiment, verdicts, values=None, reading=""):
    return {
        "experiment": experiment,
        "paper": "boulle2007",
        "used": 1,
        "published": 30,
        "substitutes": [],
        "values": values,
        "claims": [{"verdict": v, "data": d} for v, d in verdicts],
        "reading": reading,
        "flags": [],
    }


def test_claims_apart_by_data_and_readings_not_added():
    numbers = {"published": 4, "compared": 4, "on_standins": 0, "with_spread": 4, "within": 3}
    shrink = {"published": 4, "compared": 4, "on_standins": 0, "with_spread": 4, "within": 4}
    rows = [
        _row(
            "boulle2007_table3",
            [("holds", "paper"), ("partly", "paper"), ("holds", "stand-in")],
            numbers,
        ),
        _row("boulle2007_table3_shrink", [("does not hold", "paper")], shrink, "why"),
    ]
    (summary,) = paper_summaries({"experiments": rows})
    assert summary["claims"]["holds"] == 2 and summary["n_claims"] == 4
    assert summary["claims_by_data"]["paper"] == {
        "holds": 1, "partly": 1, "does not hold": 1, "not testable": 0,
    }  # fmt: skip
    assert summary["claims_by_data"]["stand-in"]["holds"] == 1
    assert sum(summary["claims_by_data"]["stand-in"].values()) == 1
    assert summary["numbers"]["within"] == 3  # the other reading is not added
    (reading,) = summary["readings"]
    assert reading["experiment"] == "boulle2007_table3_shrink"
    assert reading["numbers"]["within"] == 4 and reading["reading"] == "why"


def test_what_the_claims_rest_on():
    rows = [
        {"used": 25, "paper_used": 25, "other_form": 9, "published": 30},
        {"used": 10, "paper_used": 0, "other_form": 0, "published": 10},  # all stand-ins
        {"used": 0, "paper_used": 0, "other_form": 0, "published": 5},  # not run
    ]
    assert rests_on(rows) == "25 of the paper's 30 data sets, 9 of them in another form"
    assert rests_on(rows[1:]) == "0 of the paper's 10 data sets"
    assert rests_on([{"used": 42, "paper_used": 42, "other_form": 0, "published": None}]) == (
        "42 data sets; the paper does not name its own"
    )
    assert rests_on(rows[2:]) == ""
