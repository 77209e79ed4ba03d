"""The headline a report command prints last (repro.report.dashboard.headline): hand-made rows
with their known line, and ``report experiment=`` printing the row of the records it read."""

import json
import shutil

from conftest import ROOT

from repro.report.__main__ import main
from repro.report.dashboard.headline import dashboard_headline, row_headline


def _row(name, values, verdicts, flags):
    return {
        "experiment": name,
        "used": 3,
        "published": 4,
        "values": values,
        "claims": [{"verdict": v} for v in verdicts],
        "flags": [{"kind": "majority"}] * flags,
    }


A = _row("a", {"published": 9, "compared": 8, "with_spread": 6, "within": 5}, ["holds"] * 2, 1)
B = _row("b", {}, ["does not hold", "holds", "not testable"], 0)


def test_a_rows_headline_counts_numbers_claims_and_flags():
    assert row_headline(A) == (
        "a: 3 of 4 data sets; published numbers 5 of 6 within the stated rule (8 compared); "
        "claims: 2 holds; 1 values flagged"
    )
    assert row_headline({**B, "claims": []}) == (
        "b: 3 of 4 data sets; no published number compared; no value flagged"
    )


def test_the_dashboards_headline_adds_the_rows_and_the_claims_of_no_experiment():
    dashboard = {"experiments": [A, B], "paper_claims": {"p": [{"verdict": "partly"}]}}
    assert dashboard_headline(dashboard) == (
        "dashboard of 2 experiments: published numbers 5 of 6 within the stated rule "
        "(8 compared); claims: 3 holds, 1 partly, 1 does not hold, 1 not testable; "
        "1 values flagged"
    )


def test_report_experiment_ends_with_its_rows_headline(tmp_path, capsys):
    """On a results folder of its own (no dashboard refreshed): the row computed from the
    records, the claims those the dashboard gives the experiment."""
    results = tmp_path / "results"
    shutil.copytree(ROOT / "results" / "boulle2007_table4", results / "boulle2007_table4")
    assert main(["experiment=boulle2007_table4", f"results={results}"]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    committed = json.loads((ROOT / "results" / "dashboard" / "rows.json").read_text())
    (row,) = [r for r in committed["experiments"] if r["experiment"] == "boulle2007_table4"]
    assert last == row_headline(row)  # the committed dashboard's row of these records
    assert last.startswith("boulle2007_table4: 2 of 10 data sets;") and "5 holds, 9 partly" in last
